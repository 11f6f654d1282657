"""``secret-hitler evaluate``: measure bots against real secrethitler.io games.

``votes`` replays every finished game and, at each vote a living person cast, asks the bot for
that seat what it would vote, given exactly what that person knew then (``game.view(seat)``:
role, teammates, the public history and claims so far); agreement is reported overall, by role
and by player count. ``roles`` follows the bot's posterior over role assignments along each game
(at every nomination, for every seat that does not know the whole team) and scores it against
the true assignment: log-loss and top-1 accuracy, next to the uniform prior's.

A bot keeps one agent per seat for the whole game (as in play), so an incremental bot sees the
same stream of views it would see at a table.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..bots.base import Agent, bot_problem, make_agent
from ..datasets import FileProblem, reading, secrethitler_io_sample
from ..engine import Action, Game, View, claims, game_from_record
from ..engine import actions as A
from ..engine.seat import SeatState
from ..engine.types import Phase
from .cli import FASCISTS, LIBERALS


class EvaluateError(Exception):
    """The input cannot be used (missing file, not JSONL, unknown bot): exit 2 with the message."""


# ---------------------------------------------------------------------------------- input


def load_records(path: Path | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    """The finished games of a secrethitler.io JSONL file (plain or gzip; default: the project's
    sample) as records, unconvertible ones skipped."""
    from ..importers.secrethitler_io import BadSummary, iter_records

    if path is None:
        try:
            path = secrethitler_io_sample()
        except FileNotFoundError as exc:
            raise EvaluateError(str(exc)) from None
    out: list[dict[str, Any]] = []
    try:
        with reading(path) as fh:
            for converted in iter_records(fh):
                record = converted.record
                if record is None or "result" not in record:
                    continue
                out.append(record)
                if limit is not None and len(out) >= limit:
                    break
    except FileProblem as exc:
        raise EvaluateError(str(exc)) from None
    except BadSummary as exc:
        raise EvaluateError(f"{path}: {exc}") from None
    return out


def _check_bot(bot: str) -> None:
    problem = bot_problem(bot)
    if problem is not None:
        raise EvaluateError(problem)


def _replay(record: dict[str, Any]) -> Iterator[tuple[Game, Action]]:
    """Yield (game before the action, action) for each recorded action, then apply it."""
    game = game_from_record(record, apply_actions=False)
    for raw in record.get("actions", []):
        action = Action.from_json(raw)
        yield game, action
        game.apply(action)


# ---------------------------------------------------------------------------------- votes


@dataclass(slots=True)
class Tally:
    agree: int = 0
    total: int = 0
    human_ja: int = 0

    def add(self, same: bool, ja: bool) -> None:
        self.agree += same
        self.total += 1
        self.human_ja += ja

    @property
    def rate(self) -> float:
        return self.agree / self.total if self.total else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "agree": self.agree,
            "votes": self.total,
            "agreement": round(self.rate, 4),
            "human_ja_rate": round(self.human_ja / self.total, 4) if self.total else 0.0,
        }


@dataclass(slots=True)
class Choices:
    """Nominations: how often the bot names the person's nominee, next to a uniform pick."""

    agree: int = 0
    total: int = 0
    uniform: float = 0.0

    def add(self, same: bool, options: int) -> None:
        self.agree += same
        self.total += 1
        self.uniform += 1.0 / max(options, 1)

    def to_json(self) -> dict[str, Any]:
        k = self.total
        return {
            "nominations": k,
            "agreement": round(self.agree / k, 4) if k else 0.0,
            "uniform_agreement": round(self.uniform / k, 4) if k else 0.0,
        }


@dataclass(slots=True)
class ClaimTally:
    """Claims by one role: the share of false ones, people's next to the bot's at the same
    moments (the bot may decline to claim; its share is over the claims it made)."""

    people: int = 0
    people_false: int = 0
    bot: int = 0
    bot_false: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "people_claims": self.people,
            "people_false_share": round(self.people_false / self.people, 4) if self.people else 0.0,
            "bot_claims": self.bot,
            "bot_false_share": round(self.bot_false / self.bot, 4) if self.bot else 0.0,
        }


@dataclass(slots=True)
class VoteReport:
    bot: str
    games: int = 0
    overall: Tally = field(default_factory=Tally)
    by_role: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_players: dict[int, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_tracker: dict[int, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_zone: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    nominations: dict[str, Choices] = field(default_factory=lambda: defaultdict(Choices))
    claims: dict[str, ClaimTally] = field(default_factory=lambda: defaultdict(ClaimTally))
    always_ja: int = 0  # agreement of a bot that always votes ja: the floor to beat
    errors: int = 0  # games that failed to replay (skipped)
    half: str = "all"
    # With ``decided_by``: the votes by who settled them (a model seat: "model" or
    # "fallback"), overall and by role.
    by_decider: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_decider_role: dict[tuple[str, str], Tally] = field(
        default_factory=lambda: defaultdict(Tally)
    )

    def to_json(self) -> dict[str, Any]:
        out = {
            "bot": self.bot,
            "games": self.games,
            "overall": self.overall.to_json(),
            "always_ja_agreement": round(self.always_ja / self.overall.total, 4)
            if self.overall.total
            else 0.0,
            "by_role": {k: v.to_json() for k, v in sorted(self.by_role.items())},
            "by_players": {str(k): v.to_json() for k, v in sorted(self.by_players.items())},
            "by_tracker": {str(k): v.to_json() for k, v in sorted(self.by_tracker.items())},
            "by_zone": {k: v.to_json() for k, v in sorted(self.by_zone.items())},
            "nominations_by_role": {k: v.to_json() for k, v in sorted(self.nominations.items())},
            "claims_by_role": {k: v.to_json() for k, v in sorted(self.claims.items())},
            "half": self.half,
            "skipped_games": self.errors,
        }
        if self.by_decider:
            out["by_decider"] = {
                who: {
                    "overall": tally.to_json(),
                    "by_role": {
                        role: t.to_json()
                        for (w, role), t in sorted(self.by_decider_role.items())
                        if w == who
                    },
                }
                for who, tally in sorted(self.by_decider.items())
            }
        return out


def _selected(
    records: Iterable[dict[str, Any]], half: str, players: int | None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """The games of ``half`` (``game_half`` of each record's index) at ``players`` players
    (any count when ``None``), each with its index among all ``records`` (its seed offset)."""
    if half not in ("all", "train", "test"):
        raise EvaluateError(f"--half: 'train', 'test' or 'all', not {half[:20]!r}")
    for gi, record in enumerate(records):
        if half != "all" and game_half(record, gi) != half:
            continue
        if players is not None and len(record.get("roles") or ()) != players:
            continue
        yield gi, record


def evaluate_votes(
    records: Iterable[dict[str, Any]],
    bot: str,
    seed: int = 0,
    *,
    half: str = "all",
    players: int | None = None,
    decided_by: Callable[[Agent], str] | None = None,
) -> VoteReport:
    """Ask ``bot`` for every recorded vote, nomination and claim and compare with the person:
    vote agreement (by role, player count, tracker and zone), agreement on the nominee, and the
    share of false claims by role (people's and the bot's at the same moments). With
    ``decided_by`` (asked of the agent right after each vote: who settled it, e.g. a model
    seat's "model" or "fallback"), the votes are also tallied by it (``by_decider``)."""
    _check_bot(bot)
    report = VoteReport(bot, half=half)
    for gi, record in _selected(records, half, players):
        try:
            _votes_of_game(record, bot, seed + gi, report, decided_by)
        except Exception:  # a game the engine refuses: count it, keep going
            report.errors += 1
            continue
        report.games += 1
    return report


def claim_is_true(view: View, claim: Action) -> bool:
    """Whether ``claim`` states what the claiming seat saw: the engine's ``claims.is_true``
    on what the seat of ``view`` knows (its log folded, ``engine.seat.SeatState``)."""
    return claims.is_true(SeatState.of_seat(view.seat, view.events), claim)


def _votes_of_game(
    record: dict[str, Any],
    bot: str,
    seed: int,
    report: VoteReport,
    decided_by: Callable[[Agent], str] | None = None,
) -> None:
    agents: dict[int, Agent] = {}
    rows: list[tuple[str, int, int, bool, bool, bool, str | None]] = []
    nominations: list[tuple[str, bool, int]] = []
    claims: list[tuple[str, bool, bool | None]] = []  # role, person's claim true, bot's
    for game, action in _replay(record):
        seat = action.seat
        kind = action.type
        if kind not in (A.VOTE, A.NOMINATE, A.CLAIM):
            continue
        agent = agents.get(seat)
        if agent is None:
            agent = agents[seat] = make_agent(bot, seat, seed * 16 + seat)
        role = game.roles[seat].value
        view = game.view(seat)
        if kind == A.VOTE and game.phase is Phase.VOTE:
            legal = [a for a in game.legal_actions(seat) if a.type == A.VOTE]
            choice = agent.act(view, legal)
            human = bool(action.ja)
            zone = view.hitler_zone_active
            who = None if decided_by is None else decided_by(agent)
            rows.append(
                (role, game.n, view.election_tracker, zone, bool(choice.ja) == human, human, who)
            )
        elif kind == A.NOMINATE and game.phase is Phase.NOMINATE:
            legal = [a for a in game.legal_actions(seat) if a.type == A.NOMINATE]
            choice = agent.act(view, legal)
            nominations.append((role, choice.target == action.target, len(legal)))
        elif kind == A.CLAIM:
            options = [
                a
                for a in game.legal_actions(seat)
                if a.type == A.CLAIM and a.subject == action.subject
            ]
            made = agent.claims(view, options) if options else []
            mine = claim_is_true(view, made[0]) if made else None
            claims.append((role, claim_is_true(view, action), mine))
    for role, n, tracker, zone, same, human, who in rows:  # once the whole game replayed
        if who is not None:
            report.by_decider[who].add(same, human)
            report.by_decider_role[who, role].add(same, human)
        report.overall.add(same, human)
        report.by_role[role].add(same, human)
        report.by_players[n].add(same, human)
        report.by_tracker[tracker].add(same, human)
        report.by_zone["hitler_zone" if zone else "before_zone"].add(same, human)
        report.always_ja += human
    for role, same, count in nominations:
        report.nominations[role].add(same, count)
    for role, true, mine in claims:
        tally = report.claims[role]
        tally.people += 1
        tally.people_false += not true
        if mine is not None:
            tally.bot += 1
            tally.bot_false += not mine


# ---------------------------------------------------------------------------------- roles

#: Stages of a game by the number of policies on the board at a nomination.
STAGES = (("0", 0, 0), ("1-2", 1, 2), ("3-4", 3, 4), ("5-6", 5, 6), ("7+", 7, 99))


def game_half(record: dict[str, Any], index: int = 0) -> str:
    """The fixed split of real games: ``train`` or ``test`` by the low bit of a blake2b hash of
    the secrethitler.io game id (the record's index when it has none). Anything fitted to people
    (``benchmarks/fit_vote_model.py``, ``fit_human_model.py``) uses ``train`` only; the
    reported figures come from ``test``."""
    import hashlib

    gid = str(record.get("source", {}).get("id", index))
    return ("train", "test")[hashlib.blake2b(gid.encode(), digest_size=8).digest()[0] & 1]


@dataclass(slots=True)
class RoleAcc:
    """Sums over scored points (one point: one point of view at one nomination)."""

    points: int = 0
    log_loss: float = 0.0
    uniform_log_loss: float = 0.0
    top1: int = 0
    uniform_top1: float = 0.0
    team_error: float = 0.0  # share of all players whose team the MAP world gets wrong
    others_error: float = 0.0  # ...of the other players only (the viewer knows himself)
    all_liberal_error: float = 0.0  # the same for "everyone is liberal"
    all_liberal_others: float = 0.0
    split_error: float = 0.0  # the same for the most likely team split (Hitler summed out)

    def add(self, row: RolePoint) -> None:
        self.points += 1
        self.log_loss += -math.log(max(row.p_true, 1e-12))
        self.uniform_log_loss += math.log(row.possible)
        self.top1 += row.top
        self.uniform_top1 += 1.0 / row.possible
        self.team_error += row.team_error
        self.others_error += row.others_error
        self.all_liberal_error += row.all_liberal_error
        self.all_liberal_others += row.all_liberal_others
        self.split_error += row.split_error

    def to_json(self) -> dict[str, Any]:
        k = self.points

        def avg(x: float) -> float:
            return round(x / k, 4) if k else 0.0

        return {
            "points": k,
            "log_loss": avg(self.log_loss),
            "uniform_log_loss": avg(self.uniform_log_loss),
            "top1": avg(self.top1),
            "uniform_top1": avg(self.uniform_top1),
            "team_error": avg(self.team_error),
            "team_error_others": avg(self.others_error),
            "all_liberal_error": avg(self.all_liberal_error),
            "all_liberal_error_others": avg(self.all_liberal_others),
            "team_split_error": avg(self.split_error),
        }


@dataclass(slots=True)
class RolePoint:
    viewer: str  # the viewer's role, or "spectator"
    stage: str
    last: bool  # the game's last nomination (the start of its last round)
    p_true: float
    possible: int
    top: bool
    team_error: float
    others_error: float
    all_liberal_error: float
    all_liberal_others: float
    split_error: float = 0.0


@dataclass(slots=True)
class RoleReport:
    bot: str
    half: str = "all"
    players: int | None = None
    games: int = 0
    overall: RoleAcc = field(default_factory=RoleAcc)
    last_round: RoleAcc = field(default_factory=RoleAcc)
    by_role: dict[str, RoleAcc] = field(default_factory=lambda: defaultdict(RoleAcc))
    by_role_last: dict[str, RoleAcc] = field(default_factory=lambda: defaultdict(RoleAcc))
    by_stage: dict[str, RoleAcc] = field(default_factory=lambda: defaultdict(RoleAcc))
    errors: int = 0

    def add(self, row: RolePoint) -> None:
        """Seats count in ``overall``; the spectator only in its own rows."""
        if row.viewer != "spectator":
            self.overall.add(row)
            self.by_stage[row.stage].add(row)
            if row.last:
                self.last_round.add(row)
        self.by_role[row.viewer].add(row)
        if row.last:
            self.by_role_last[row.viewer].add(row)

    def to_json(self) -> dict[str, Any]:
        order = [name for name, _, _ in STAGES]
        return {
            "bot": self.bot,
            "half": self.half,
            "players": self.players,
            "games": self.games,
            "overall": self.overall.to_json(),
            "last_round": self.last_round.to_json(),
            "by_role": {k: v.to_json() for k, v in sorted(self.by_role.items())},
            "by_role_last_round": {k: v.to_json() for k, v in sorted(self.by_role_last.items())},
            "by_stage": {k: self.by_stage[k].to_json() for k in order if k in self.by_stage},
            "skipped_games": self.errors,
        }


def evaluate_roles(
    records: Iterable[dict[str, Any]],
    bot: str,
    seed: int = 0,
    *,
    half: str = "all",
    players: int | None = None,
) -> RoleReport:
    """Score the role posterior of every seat that does not know the team, and of the
    spectator, at every nomination of every game (of ``half`` and ``players`` when given).

    A seat that knows the whole team (an informed fascist: one world left) is not scored, so
    its zero error does not flatter the figures. ``team_error`` averages over all players,
    the viewer's own (known) seat included, which is what the all-liberal baseline 3/7 at 7
    players is measured on; ``team_error_others`` leaves the viewer out."""
    _check_bot(bot)
    probe = make_agent(bot, 0, 0)
    if not hasattr(probe, "posterior"):
        raise EvaluateError(f"bot {bot!r} keeps no posterior over roles (try --bot bayes)")
    report = RoleReport(bot, half, players)
    for gi, record in _selected(records, half, players):
        try:
            rows = _roles_of_game(record, bot, seed + gi)
        except EvaluateError:
            raise
        except Exception:
            report.errors += 1
            continue
        for row in rows:
            report.add(row)
        report.games += 1
    return report


def _stage(policies: int) -> str:
    return next(name for name, lo, hi in STAGES if lo <= policies <= hi)


def _roles_of_game(record: dict[str, Any], bot: str, seed: int) -> list[RolePoint]:
    import numpy as np

    from ..bots.beliefs import DEFAULT_MODEL, LIB, Beliefs

    agents: dict[int, Any] = {}  # bots with a ``posterior(view)``
    truth: np.ndarray | None = None
    spectator: Beliefs | None = None
    points: list[list[RolePoint]] = []  # per nomination
    for game, action in _replay(record):
        if action.type != A.NOMINATE:
            continue
        if truth is None:
            truth = np.array(
                [{"liberal": 0, "fascist": 1, "hitler": 2}[r.value] for r in game.roles]
            )
        fascist_party = truth != LIB
        n = game.n
        public = game.view(None)
        stage = _stage(public.liberal_policies + public.fascist_policies)
        here: list[RolePoint] = []
        for seat in [*range(n), None]:
            view = game.view(seat)
            if seat is None:
                if spectator is None:
                    model = getattr(make_agent(bot, 0, 0), "model", DEFAULT_MODEL)
                    spectator = Beliefs.for_view(view, public=True, model=model)
                spectator.update(view)
                worlds, probs = spectator.R, spectator.probs()
                possible = len(worlds)
            else:
                agent: Any = agents.get(seat)
                if agent is None:
                    agents[seat] = agent = make_agent(bot, seat, seed * 16 + seat)
                worlds, probs = agent.posterior(view)
                start = getattr(agent, "initial_possible", None)
                possible = start if start is not None else int((probs > 0).sum())
            if possible <= 1:
                continue  # this seat knows the whole team: nothing to score
            match = np.nonzero((worlds == truth).all(axis=1))[0]
            p_true = float(probs[match[0]]) if len(match) else 0.0
            best = int(np.argmax(probs))
            top = bool(len(match)) and best == int(match[0])
            wrong = (worlds[best] != LIB) != fascist_party
            split = _likeliest_split(worlds, probs)
            others = np.ones(n, dtype=bool)
            if seat is not None:
                others[seat] = False
            here.append(
                RolePoint(
                    "spectator" if seat is None else game.roles[seat].value,
                    stage,
                    False,
                    p_true,
                    possible,
                    top,
                    float(wrong.mean()),
                    float(wrong[others].mean()),
                    float(fascist_party.mean()),
                    float(fascist_party[others].mean()),
                    float((split != fascist_party).mean()),
                )
            )
        points.append(here)
    if points:  # only once the whole game replayed
        points[-1] = [replace(p, last=True) for p in points[-1]]
    return [p for block in points for p in block]


def _likeliest_split(worlds: Any, probs: Any) -> Any:
    """The most likely team split (which seats are of the fascist party, Hitler summed out)."""
    import numpy as np

    party = worlds != 0
    keys = party.astype(np.int64) @ (1 << np.arange(worlds.shape[1], dtype=np.int64))
    uniq, inverse = np.unique(keys, return_inverse=True)
    best = int(np.argmax(np.bincount(inverse, weights=probs)))
    return party[int(np.argmax(inverse == best))]


# ---------------------------------------------------------------------------------- CLI

evaluate_app = typer.Typer(
    help="Measure bots: against real games (secrethitler.io JSONL: votes, roles) and at a "
    "talking table of bots (talk, tells).",
    no_args_is_help=True,
)

_PATH = Annotated[
    Path | None,
    typer.Argument(
        help="secrethitler.io games, one JSON summary a line (.jsonl or .jsonl.gz; "
        "default: the sample of 1,022 real games shipped in the package).",
        show_default=False,
    ),
]
_BOT = Annotated[str, typer.Option("--bot", help="Bot level to evaluate.")]
_LIMIT = Annotated[
    int | None, typer.Option("--limit", min=1, help="Only the first N finished games.")
]
_JSON = Annotated[bool, typer.Option("--json", help="Print the report as JSON.")]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"secret-hitler: {message}", err=True)
    return typer.Exit(2)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


_HALF = Annotated[
    str,
    typer.Option(
        "--half",
        help="Which half of the fixed split (game_half): test (held out), train or all.",
    ),
]
_PLAYERS = Annotated[
    int | None, typer.Option("--players", min=5, max=10, help="Only games of N players.")
]


_VOTE_HALF = Annotated[
    str,
    typer.Option(
        "--half",
        help="Which half of the fixed split (game_half): all, test (held out) or train.",
    ),
]


@evaluate_app.command("votes")
def votes_command(
    path: _PATH = None,
    bot: _BOT = "bayes",
    limit: _LIMIT = None,
    half: _VOTE_HALF = "all",
    players: _PLAYERS = None,
    as_json: _JSON = False,
) -> None:
    """How often the bot votes like the person in that seat did, knowing what they knew; and
    its nominations and claims next to people's."""
    try:
        _check_bot(bot)
        records = load_records(path, limit)
        report = evaluate_votes(records, bot, half=half, players=players)
    except EvaluateError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
        return
    table = Table(
        title=f"Vote agreement of '{bot}' with people ({report.games} games, half {half})"
    )
    for col in ("group", "votes", "agreement", "people ja"):
        table.add_column(col, justify="left" if col == "group" else "right")

    def row(name: str, t: Tally) -> None:
        table.add_row(
            name, str(t.total), _pct(t.rate), _pct(t.human_ja / t.total if t.total else 0)
        )

    row("all", report.overall)
    for role, t in sorted(report.by_role.items()):
        row(role, t)
    for n, t in sorted(report.by_players.items()):
        row(f"{n} players", t)
    for k, t in sorted(report.by_tracker.items()):
        row(f"tracker {k}", t)
    for z, t in sorted(report.by_zone.items()):
        row(z.replace("_", " "), t)
    console = Console()
    console.print(table)
    total = report.overall.total
    floor = report.always_ja / total if total else 0.0
    console.print(f"always-ja baseline: {_pct(floor)}; games skipped: {report.errors}")
    other = Table(title="Nominations (same nominee) and claims (share false)")
    for col in ("role", "nominations", "same nominee", "uniform", "claims", "false: people", "bot"):
        other.add_column(col, justify="left" if col == "role" else "right")
    for role in sorted(set(report.nominations) | set(report.claims)):
        nj = report.nominations[role].to_json()
        c = report.claims[role].to_json()
        other.add_row(
            role,
            str(nj["nominations"]),
            _pct(nj["agreement"]),
            _pct(nj["uniform_agreement"]),
            str(c["people_claims"]),
            _pct(c["people_false_share"]),
            _pct(c["bot_false_share"]),
        )
    console.print(other)


@evaluate_app.command("roles")
def roles_command(
    path: _PATH = None,
    bot: _BOT = "bayes-human",
    limit: _LIMIT = None,
    half: _HALF = "test",
    players: _PLAYERS = None,
    as_json: _JSON = False,
) -> None:
    """Deduction: log-loss of the bot's role posterior against the uniform prior, and the team
    error of its most likely assignment, at each nomination and at the start of the last round."""
    try:
        _check_bot(bot)
        records = load_records(path, limit)
        report = evaluate_roles(records, bot, half=half, players=players)
    except EvaluateError as exc:
        raise _fail(str(exc)) from None
    data = report.to_json()
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    console = Console(width=max(Console().width, 100))  # 9 columns: no wrapped headers
    title = (
        f"Role deduction of '{bot}' ({report.games} games, half {half}"
        + (f", {players} players" if players else "")
        + ")"
    )
    table = Table(title=title)
    cols = ("view", "when", "points", "log-loss", "uniform", "error", "others", "split", "all lib")
    for col in cols:
        table.add_column(col, justify="left" if col in ("view", "when") else "right")

    def row(name: str, when: str, b: dict[str, Any]) -> None:
        table.add_row(
            name,
            when,
            str(b["points"]),
            f"{b['log_loss']:.3f}",
            f"{b['uniform_log_loss']:.3f}",
            f"{b['team_error']:.3f}",
            f"{b['team_error_others']:.3f}",
            f"{b['team_split_error']:.3f}",
            f"{b['all_liberal_error']:.3f}",
        )

    row("seats", "all", data["overall"])
    row("seats", "last", data["last_round"])
    for name, b in data["by_role"].items():
        row(name, "all", b)
        if name in data["by_role_last_round"]:
            row(name, "last", data["by_role_last_round"][name])
    for name, b in data["by_stage"].items():
        row("seats", f"{name} pol.", b)
    console.print(table)
    console.print(
        "points: one seat that does not know the team (at 7+ players the liberals and Hitler; "
        "informed fascists are not scored) at one nomination; 'seats' rows leave the spectator "
        "out. error: share of all players, the viewer included (his own role is known, so "
        "always right), whose team the most likely role assignment gets wrong; others: the "
        "same over the other players only; split: the same as error for the most likely split "
        "into teams (Hitler summed out); all lib: error for calling everyone liberal. "
        "Skipped games: "
        f"{report.errors}"
    )


@evaluate_app.command("talk")
def talk_command(
    players: Annotated[int, typer.Option("--players", min=5, max=10, help="Seats.")] = 7,
    games: Annotated[
        int, typer.Option("--games", min=0, help="Paired games, listening against deaf liberals.")
    ] = 2000,
    liberals: LIBERALS = "bayes",
    fascists: FASCISTS = "bayes",
    levels: Annotated[
        str, typer.Option("--levels", help="Levels whose accusations are scored (self-play).")
    ] = "rule,bayes,bayes-human",
    accuracy_games: Annotated[
        int, typer.Option("--accuracy-games", min=1, help="Self-play games per level.")
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Run seed (the same games both arms).")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", min=0, help="Processes (0: every core).")] = 1,
    as_json: _JSON = False,
) -> None:
    """Talk between bots: how often an accusation names a real fascist (by level, role and
    certainty) and how much listening moves the liberals' win rate (paired games)."""
    from .simulator import Lineup
    from .talk_report import talk_report

    names = [x.strip() for x in levels.split(",") if x.strip()]
    try:
        for bot in (*names, liberals, fascists):
            _check_bot(bot)
    except EvaluateError as exc:
        raise _fail(str(exc)) from None
    report = talk_report(
        players=players,
        levels=names,
        accuracy_games=accuracy_games,
        lineup=Lineup(liberals, fascists),
        games=games,
        seed=seed,
        jobs=jobs,
    )
    data = report.to_json()
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    console = Console()
    table = Table(
        title=f"Accusations that name a fascist ({accuracy_games} self-play games a level, "
        f"{players} players, seed {seed})"
    )
    for col in ("level", "role", "certainty", "accusations", "named a fascist", "95% interval"):
        table.add_column(col, justify="left" if col in ("level", "role", "certainty") else "right")
    for row in data["accusations"]:
        lo, hi = row["ci95"]
        table.add_row(
            row["level"],
            row["role"],
            row["certainty"],
            str(row["accusations"]),
            _pct(row["share"] or 0.0),
            f"{_pct(lo)} - {_pct(hi)}",
        )
    console.print(table)
    console.print(f"lines per round (all seats): {data['lines_per_round']}")
    listening = data["listening"]
    if listening is not None:
        lo, hi = listening["difference_ci95"]
        console.print(
            f"liberals {liberals} vs fascists {fascists}, {listening['games']} paired games: "
            f"listening liberals win {_pct(listening['listening_liberal_rate'])}, deaf liberals "
            f"{_pct(listening['deaf_liberal_rate'])}; difference "
            f"{100 * listening['difference']:+.1f} points (95% {100 * lo:+.1f} to {100 * hi:+.1f}); "
            f"won only listening {listening['won_only_listening']}, only deaf "
            f"{listening['won_only_deaf']}"
        )


@evaluate_app.command("tells")
def tells_command(
    players: Annotated[int, typer.Option("--players", min=5, max=10, help="Seats.")] = 7,
    bot: Annotated[str, typer.Option("--bot", help="Level that plays every seat.")] = "bayes",
    games: Annotated[int, typer.Option("--games", min=10, help="Self-play games.")] = 400,
    seed: Annotated[int, typer.Option("--seed", help="Run seed (game i: its seed and i).")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", min=0, help="Processes (0: every core).")] = 1,
    folds: Annotated[
        int, typer.Option("--folds", min=2, max=20, help="Cross-validation folds (by game).")
    ] = 5,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", min=0, help="Bootstrap resamples of games.")
    ] = 1000,
    as_json: _JSON = False,
) -> None:
    """Does a seat's own talk tell its team? A team classifier (logistic regression,
    cross-validated by game) on each seat's own talk, on its moves, and on both, in self-play
    games of one level: AUC with 95% intervals, each kind of line's share by team, the kinds
    one team says 95% of the time or more, lines per seat and game."""
    from .tells import describe, tells_report

    try:
        _check_bot(bot)
    except EvaluateError as exc:
        raise _fail(str(exc)) from None
    report = tells_report(
        players=players,
        level=bot,
        games=games,
        seed=seed,
        jobs=jobs,
        folds=folds,
        bootstrap=bootstrap,
    )
    data = report.to_json()
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    console = Console(width=max(Console().width, 100))
    for text in describe(data):
        console.print(text, highlight=False)
    table = Table(
        title="Lines of each kind by team, per seat and game, and the fascist party's share "
        "(claims are moves: not counted)"
    )
    for col in (
        "kind",
        "liberal",
        "fascist party",
        "per liberal seat",
        "per fascist seat",
        "share",
    ):
        table.add_column(col, justify="left" if col == "kind" else "right")
    for row in data["kinds"]:
        table.add_row(
            row["kind"],
            str(row["liberal"]),
            str(row["fascist"]),
            f"{row['per_liberal_seat']:.3f}",
            f"{row['per_fascist_seat']:.3f}",
            _pct(row["fascist_share"]),
        )
    console.print(table)


def register_evaluate(app: typer.Typer) -> None:
    """Mount the ``evaluate`` group on the main CLI."""
    app.add_typer(evaluate_app, name="evaluate")


__all__ = [
    "EvaluateError",
    "RoleReport",
    "VoteReport",
    "evaluate_app",
    "evaluate_roles",
    "evaluate_votes",
    "game_half",
    "load_records",
    "register_evaluate",
]
