"""Play bot-vs-bot games: one game, many games over processes, tournaments, summaries, charts.

Every game's seed is derived from the run's seed and the game's index alone, and every agent's
seed from the game's seed and its seat, so a run gives the same games whatever the number of
processes or the order in which they finish. Agents only ever receive ``game.view(seat)`` and
actions from ``game.legal_actions(seat)``; the claim protocol is the one documented in
``secret_hitler.bots.base``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from hashlib import blake2b
from pathlib import Path
from typing import Any

from ..bots.base import Agent, AgentError, agent_factory, play_out
from ..bots.table_talk import TableTalk
from ..engine import Game, Rules
from ..engine.types import Party, Role
from ..engine.writer import with_talk
from ..pools import WorkerPool
from ..stats import derive_seed, wilson
from ..talk.said import ACCUSE, Said, signals

# Enum members through their class cost a descriptor call each (about 0.3 µs): read once here.
_LIBERAL_PARTY, _HITLER = Party.LIBERAL, Role.HITLER


#: Who talks in a simulated game: ``off`` nobody (the games of before talk existed);
#: ``speak`` every seat speaks, nobody listens; ``listen`` every seat speaks and listens;
#: ``deaf-liberals`` every seat speaks, only the fascists listen; ``deaf-fascists`` every seat
#: speaks, only the liberals listen (``evaluate talk`` compares each with ``listen``).
TALK_MODES = ("off", "speak", "listen", "deaf-liberals", "deaf-fascists")

#: An agent broke the protocol (e.g. returned an action that was not offered): the contract's
#: error (``bots.base.AgentError``).
SimulationError = AgentError


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed``."""
    return derive_seed("game", seed, index)


@dataclass(frozen=True, slots=True)
class Lineup:
    """Which bot plays each role: ``liberal`` the liberal party (Merlin and Percival too),
    ``fascist`` the fascist party (Morgana and the Monarchist too); Hitler is played by the
    fascist bot unless named."""

    liberal: str
    fascist: str
    hitler: str | None = None

    def bot_for(self, role: Role) -> str:
        if role.party is _LIBERAL_PARTY:
            return self.liberal
        if role is _HITLER and self.hitler is not None:
            return self.hitler
        return self.fascist

    def label(self) -> str:
        hitler = f", hitler {self.hitler}" if self.hitler and self.hitler != self.fascist else ""
        return f"liberals {self.liberal} vs fascists {self.fascist}{hitler}"


@dataclass(frozen=True, slots=True)
class SimConfig:
    """Everything a worker process needs to play its share of a run (picklable)."""

    players: int
    lineup: Lineup
    rules: Any = "official"  # a preset name or a settings object, as records store them
    seed: int = 0
    record_dir: str | None = None
    talk: str = "off"  # TALK_MODES


@dataclass(slots=True)
class GameResult:
    index: int
    seed: int
    players: int
    winner: str
    reason: str
    rounds: int
    actions: int  # turn actions (votes included), claims not counted
    claims: int
    liberal_policies: int
    fascist_policies: int
    roles: list[str]
    bots: list[str]
    talk: dict[str, Any] | None = None  # ``talk_stats`` of a game with talk (None: talk off)
    said: list[Said] = field(default_factory=list)  # every line said, in order (not in JSON)

    def to_json(self) -> dict[str, Any]:
        out = asdict(replace(self, said=[]))
        del out["said"]
        if self.talk is None:
            del out["talk"]  # the lines of a run without talk are those of before talk existed
        return out


def game_record(result: GameResult, game: Game) -> dict[str, Any]:
    """The record of a game ``play_game`` played, with its talk section when the table talked
    (``result.said``)."""
    record = game.to_record()
    if result.talk is None:
        return record
    return with_talk(record, (e.to_json() for e in result.said))


def play_game(
    players: int,
    lineup: Lineup,
    rules: Any = "official",
    seed: int = 0,
    index: int = 0,
    agents: Sequence[Agent] | None = None,
    talk: str = "off",
) -> tuple[GameResult, Game]:
    """Play one game to its end; ``agents`` (one per seat) replaces the lineup's bots; ``talk``
    is one of ``TALK_MODES`` (what was said: ``result.said``)."""
    if talk not in TALK_MODES:
        raise ValueError(f"talk must be one of {', '.join(TALK_MODES)}, not {talk!r}")
    game = Game(players, rules, seed)
    names = [lineup.bot_for(r) for r in game.roles]
    if agents is None:
        agents = make_agents(names, seed)
    table: TableTalk | None = None
    if talk != "off":
        hears = [
            talk == "listen"
            or (talk == "deaf-liberals" and r.party is not _LIBERAL_PARTY)
            or (talk == "deaf-fascists" and r.party is _LIBERAL_PARTY)
            for r in game.roles
        ]
        table = TableTalk(hears)
    turns, claims = run_game(game, agents, names, table)
    assert game.winner is not None and game.reason is not None
    roles = [r._value_ for r in game.roles]  # ``.value`` is a descriptor call per member
    result = GameResult(
        index=index,
        seed=seed,
        players=players,
        winner=game.winner.value,
        reason=game.reason.value,
        rounds=game.round,
        actions=turns,
        claims=claims,
        liberal_policies=game.liberal,
        fascist_policies=game.fascist,
        roles=roles,
        bots=names,
    )
    if table is not None:
        result.talk = talk_stats(table.said, roles, names)
        result.said = table.said
    return result, game


def talk_stats(said: Sequence[Said], roles: Sequence[str], bots: Sequence[str]) -> dict[str, Any]:
    """What one game's talk was: its lines, and each accusation (``talk.said.signals``) by the
    speaker's level, role and certainty, with whether it named a seat of the fascist party:
    ``accusations["bayes|liberal|hedged"] = [named a fascist, accusations]``."""
    accusations: dict[str, list[int]] = {}
    for entry in said:
        if entry.seat is None or entry.line is None:
            continue
        for sig in signals(entry.line):
            if sig.stance != ACCUSE:
                continue
            key = f"{bots[entry.seat]}|{roles[entry.seat]}|{sig.certainty}"
            tally = accusations.setdefault(key, [0, 0])
            tally[0] += roles[sig.target] != "liberal"
            tally[1] += 1
    return {"lines": len(said), "accusations": dict(sorted(accusations.items()))}


def make_agents(names: Sequence[str], seed: int) -> list[Agent]:
    """One agent per seat of a game seeded ``seed``: seat ``s`` plays ``names[s]``, seeded with
    ``derive_seed("agent", seed, s)`` (the hash of the common prefix is computed once)."""
    prefix = blake2b(f"agent:{seed}:".encode(), digest_size=8)
    agents = []
    for s, name in enumerate(names):
        h = prefix.copy()
        h.update(str(s).encode())
        rng = random.Random(int.from_bytes(h.digest(), "big") >> 1)
        agents.append(agent_factory(name)(s, rng))
    return agents


def run_game(
    game: Game,
    agents: Sequence[Agent],
    names: Sequence[str] | None = None,
    talk: TableTalk | None = None,
) -> tuple[int, int]:
    """Drive ``game`` to its end with one agent per seat; returns (turn actions, claims).

    The loop and the claim and talk protocols are the agents' contract
    (``bots.base.play_out``): an agent sees only ``game.view(seat)`` and the actions it may
    take, and hears only what is said at the table.
    """
    return play_out(game, agents, names, talk)


def _play_chunk(config: SimConfig, indices: Sequence[int]) -> list[tuple[GameResult, str | None]]:
    """Play games ``indices`` of ``config``; each result with its record's JSON text when the
    run keeps records (the caller writes them: a worker may be on another machine)."""
    out: list[tuple[GameResult, str | None]] = []
    rules = config.rules
    if not isinstance(rules, Rules):
        rules = Rules.from_json(rules)  # once per chunk, not per game
    for index in indices:
        seed = game_seed(config.seed, index)
        result, game = play_game(
            config.players, config.lineup, rules, seed, index, talk=config.talk
        )
        record = None
        if config.record_dir is not None:
            record = json.dumps(game_record(result, game), ensure_ascii=False)
        out.append((result, record))
    return out


class Runner:
    """Plays runs of games on a ``WorkerPool``: ``jobs`` processes (0: every core; 1: this
    process), or the Ray cluster at ``ray``; reusable across runs. Results come back in index
    order wherever and in whatever order the chunks were played."""

    def __init__(self, jobs: int = 0, ray: str | None = None) -> None:
        self.pool = WorkerPool(jobs, ray)

    def __enter__(self) -> Runner:
        # Start the workers before any progress display thread exists (fork safety).
        self.pool.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.pool.close()

    def run(
        self,
        config: SimConfig,
        games: int,
        progress: Callable[[int], None] | None = None,
    ) -> list[GameResult]:
        """Play games 0..games-1 of ``config``; results in index order."""
        folder = None if config.record_dir is None else Path(config.record_dir)
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
        size = max(1, min(50, games // (self.pool.workers * 8) or 1))
        chunks = [range(i, min(i + size, games)) for i in range(0, games, size)]
        results: list[GameResult] = []
        for batch in self.pool.imap_unordered(_ChunkTask(config), chunks):
            for result, record in batch:
                results.append(result)
                if folder is not None and record is not None:
                    path = folder / f"game-{result.index:06d}.json"
                    path.write_text(record, encoding="utf-8")
            if progress is not None:
                progress(len(batch))
        results.sort(key=lambda r: r.index)
        return results


class _ChunkTask:
    """A picklable callable (a closure is not) for the worker pool."""

    def __init__(self, config: SimConfig) -> None:
        self.config = config

    def __call__(self, indices: Sequence[int]) -> list[tuple[GameResult, str | None]]:
        return _play_chunk(self.config, indices)


def simulate(
    config: SimConfig,
    games: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> list[GameResult]:
    """Play ``games`` games of ``config`` on ``jobs`` processes (0: every core, or every CPU of
    the Ray cluster at ``ray``)."""
    with Runner(jobs, ray) as runner:
        return runner.run(config, games, progress)


# ---------------------------------------------------------------------------------- summaries
@dataclass(slots=True)
class Summary:
    games: int
    liberal_wins: int
    fascist_wins: int
    reasons: dict[str, int]
    avg_rounds: float
    avg_actions: float
    avg_claims: float
    liberal_ci: tuple[float, float]
    fascist_ci: tuple[float, float]
    rounds_by_winner: dict[str, list[int]] = field(default_factory=dict)

    @property
    def liberal_rate(self) -> float:
        return self.liberal_wins / self.games if self.games else 0.0

    @property
    def fascist_rate(self) -> float:
        return self.fascist_wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "liberal_wins": self.liberal_wins,
            "fascist_wins": self.fascist_wins,
            "liberal_rate": self.liberal_rate,
            "liberal_ci95": list(self.liberal_ci),
            "fascist_rate": self.fascist_rate,
            "fascist_ci95": list(self.fascist_ci),
            "reasons": self.reasons,
            "avg_rounds": self.avg_rounds,
            "avg_actions": self.avg_actions,
            "avg_claims": self.avg_claims,
        }


REASONS = ("five_liberal_policies", "hitler_executed", "six_fascist_policies", "hitler_elected")


def summarize(results: Sequence[GameResult]) -> Summary:
    n = len(results)
    lib = sum(1 for r in results if r.winner == "liberal")
    reasons = Counter(r.reason for r in results)
    by_winner: dict[str, list[int]] = {"liberal": [], "fascist": []}
    for r in results:
        by_winner[r.winner].append(r.rounds)
    return Summary(
        games=n,
        liberal_wins=lib,
        fascist_wins=n - lib,
        reasons={k: reasons.get(k, 0) for k in REASONS},
        avg_rounds=sum(r.rounds for r in results) / n if n else 0.0,
        avg_actions=sum(r.actions for r in results) / n if n else 0.0,
        avg_claims=sum(r.claims for r in results) / n if n else 0.0,
        liberal_ci=wilson(lib, n),
        fascist_ci=wilson(n - lib, n),
        rounds_by_winner=by_winner,
    )


def write_jsonl(results: Iterable[GameResult], path: Path) -> None:
    with path.open("w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")


# ---------------------------------------------------------------------------------- charts
def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on servers and in CI
    import matplotlib.pyplot as plt

    return plt


def plot_summary(summary: Summary, path: Path, title: str) -> None:
    """Win rates with 95% intervals, how games ended, and game lengths by winner."""
    plt = _pyplot()
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(14, 4.2))
    rates = [summary.liberal_rate, summary.fascist_rate]
    cis = [summary.liberal_ci, summary.fascist_ci]
    errs = [
        [r - lo for r, (lo, _) in zip(rates, cis, strict=True)],
        [hi - r for r, (_, hi) in zip(rates, cis, strict=True)],
    ]
    ax1.bar(["liberal", "fascist"], rates, yerr=errs, capsize=6, color=["#3b7dd8", "#d8453b"])
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("win rate (95% Wilson interval)")
    for i, r in enumerate(rates):
        ax1.text(i, r / 2, f"{r:.1%}", ha="center", color="white", fontweight="bold")
    labels = [k.replace("_", " ") for k in summary.reasons]
    colors = ["#3b7dd8", "#7fb0f0", "#d8453b", "#f08a7f"]
    ax2.barh(labels, list(summary.reasons.values()), color=colors)
    ax2.set_xlabel("games")
    ax2.set_title("how games ended")
    bins = range(
        1, max([1, *summary.rounds_by_winner["liberal"], *summary.rounds_by_winner["fascist"]]) + 2
    )
    ax3.hist(
        [summary.rounds_by_winner["liberal"], summary.rounds_by_winner["fascist"]],
        bins=list(bins),
        label=["liberal win", "fascist win"],
        color=["#3b7dd8", "#d8453b"],
        stacked=True,
    )
    ax3.set_xlabel("rounds")
    ax3.set_title(f"game length (mean {summary.avg_rounds:.1f} rounds)")
    ax3.legend()
    fig.suptitle(f"{title} — {summary.games} games")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---------------------------------------------------------------------------------- tournaments
@dataclass(slots=True)
class Cell:
    players: int
    liberal: str
    fascist: str
    hitler: str
    summary: Summary


def tournament(
    players: Sequence[int],
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    rules: Any = "official",
    hitler: str | None = None,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
    runner: Runner | None = None,
) -> list[Cell]:
    """Every liberal bot against every fascist bot at every player count, on ``runner`` (the
    caller's, left open) or on ``jobs`` processes or the Ray cluster at ``ray``.

    All cells of one player count play the same game seeds (same deals and decks), so the
    differences between cells come from the bots rather than from the luck of the draw.
    """
    if runner is None:
        with Runner(jobs, ray) as own:
            return tournament(
                players,
                bots,
                games,
                seed,
                rules=rules,
                hitler=hitler,
                progress=progress,
                runner=own,
            )
    cells = []
    for n in players:
        for lib in bots:
            for fas in bots:
                lineup = Lineup(lib, fas, hitler)
                config = SimConfig(n, lineup, rules, seed)
                summary = summarize(runner.run(config, games, progress))
                cells.append(Cell(n, lib, fas, hitler or fas, summary))
    return cells


def _ci_text(s: Summary) -> str:
    lo, hi = s.liberal_ci
    return f"{s.liberal_rate:.1%} [{lo:.1%}, {hi:.1%}]"


def write_tournament(
    cells: Sequence[Cell], bots: Sequence[str], out: Path, command: str
) -> list[Path]:
    """results.csv (one row per cell), results.md (a matrix per player count), heatmaps."""
    import csv

    out.mkdir(parents=True, exist_ok=True)
    written = [out / "results.csv", out / "results.md"]
    with (out / "results.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "players",
                "liberals",
                "fascists",
                "hitler",
                "games",
                "liberal_wins",
                "fascist_wins",
                "liberal_rate",
                "ci_low",
                "ci_high",
                "avg_rounds",
                "avg_actions",
                *REASONS,
            ]
        )
        for c in cells:
            s = c.summary
            w.writerow(
                [
                    c.players,
                    c.liberal,
                    c.fascist,
                    c.hitler,
                    s.games,
                    s.liberal_wins,
                    s.fascist_wins,
                    f"{s.liberal_rate:.4f}",
                    f"{s.liberal_ci[0]:.4f}",
                    f"{s.liberal_ci[1]:.4f}",
                    f"{s.avg_rounds:.2f}",
                    f"{s.avg_actions:.2f}",
                    *(s.reasons[k] for k in REASONS),
                ]
            )
    lines = [
        "# Tournament results",
        "",
        f"Command: `{command}`",
        "",
        "Cells: liberal win rate with its 95% Wilson interval; rows are the liberal bot, "
        "columns the fascist bot (who also plays Hitler unless `--hitler` is given).",
    ]
    for n in sorted({c.players for c in cells}):
        grid = {(c.liberal, c.fascist): c for c in cells if c.players == n}
        games = next(iter(grid.values())).summary.games
        lines += ["", f"## {n} players ({games} games per cell)", ""]
        lines.append("| liberals \\ fascists | " + " | ".join(bots) + " |")
        lines.append("|---" * (len(bots) + 1) + "|")
        for lib in bots:
            row = [_ci_text(grid[(lib, fas)].summary) for fas in bots]
            lines.append(f"| {lib} | " + " | ".join(row) + " |")
        path = out / f"heatmap-{n}p.png"
        plot_heatmap(grid, bots, n, path)
        written.append(path)
    (out / "results.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return written


def plot_heatmap(
    grid: dict[tuple[str, str], Cell], bots: Sequence[str], players: int, path: Path
) -> None:
    plt = _pyplot()
    values = [[grid[(lib, fas)].summary.liberal_rate for fas in bots] for lib in bots]
    size = 1.4 + 1.3 * len(bots)
    fig, ax = plt.subplots(figsize=(size + 1.2, size))
    im = ax.imshow(values, cmap="coolwarm_r", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(bots)), labels=list(bots))
    ax.set_yticks(range(len(bots)), labels=list(bots))
    ax.set_xlabel("fascist bot")
    ax.set_ylabel("liberal bot")
    for i, lib in enumerate(bots):
        for j, fas in enumerate(bots):
            s = grid[(lib, fas)].summary
            lo, hi = s.liberal_ci
            ax.text(
                j,
                i,
                f"{s.liberal_rate:.0%}\n[{lo:.0%}-{hi:.0%}]",
                ha="center",
                va="center",
                fontsize=9,
            )
    fig.colorbar(im, ax=ax, label="liberal win rate")
    ax.set_title(f"{players} players: liberal win rate")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def check_rules(rules: Any, players: Iterable[int]) -> Rules:
    """Resolve and validate rules for every player count (raises ``InvalidSettings``)."""
    resolved = Rules.from_json(rules)
    for n in players:
        resolved.validate(n)
    return resolved
