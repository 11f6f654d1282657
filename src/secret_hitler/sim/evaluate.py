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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..bots.base import Agent, bot_problem, make_agent
from ..datasets import CORRUPT_GZIP, open_text, secrethitler_io_sample
from ..engine import Action, Game, game_from_record
from ..engine import actions as A
from ..engine.types import Phase


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
    if not path.exists():
        raise EvaluateError(f"{path}: no such file")
    if path.is_dir():
        raise EvaluateError(f"{path}: is a directory, expected a .jsonl file")
    out: list[dict[str, Any]] = []
    try:
        with open_text(path) as fh:
            for converted in iter_records(fh):
                record = converted.record
                if record is None or "result" not in record:
                    continue
                out.append(record)
                if limit is not None and len(out) >= limit:
                    break
    except UnicodeDecodeError:
        raise EvaluateError(f"{path}: not a UTF-8 text file") from None
    except BadSummary as exc:
        raise EvaluateError(f"{path}: {exc}") from None
    except CORRUPT_GZIP:
        raise EvaluateError(f"{path}: a damaged gzip file") from None
    except OSError as exc:
        raise EvaluateError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
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
class VoteReport:
    bot: str
    games: int = 0
    overall: Tally = field(default_factory=Tally)
    by_role: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_players: dict[int, Tally] = field(default_factory=lambda: defaultdict(Tally))
    always_ja: int = 0  # agreement of a bot that always votes ja: the floor to beat
    errors: int = 0  # games that failed to replay (skipped)

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "games": self.games,
            "overall": self.overall.to_json(),
            "always_ja_agreement": round(self.always_ja / self.overall.total, 4)
            if self.overall.total
            else 0.0,
            "by_role": {k: v.to_json() for k, v in sorted(self.by_role.items())},
            "by_players": {str(k): v.to_json() for k, v in sorted(self.by_players.items())},
            "skipped_games": self.errors,
        }


def evaluate_votes(records: Iterable[dict[str, Any]], bot: str, seed: int = 0) -> VoteReport:
    """Ask ``bot`` for every recorded vote and count how often it votes like the person did."""
    _check_bot(bot)
    report = VoteReport(bot)
    for gi, record in enumerate(records):
        try:
            _votes_of_game(record, bot, seed + gi, report)
        except Exception:  # a game the engine refuses: count it, keep going
            report.errors += 1
            continue
        report.games += 1
    return report


def _votes_of_game(record: dict[str, Any], bot: str, seed: int, report: VoteReport) -> None:
    agents: dict[int, Agent] = {}
    rows: list[tuple[str, int, bool, bool]] = []
    for game, action in _replay(record):
        if action.type != A.VOTE or game.phase is not Phase.VOTE:
            continue
        seat = action.seat
        agent = agents.get(seat)
        if agent is None:
            agent = agents[seat] = make_agent(bot, seat, seed * 16 + seat)
        legal = [a for a in game.legal_actions(seat) if a.type == A.VOTE]
        choice = agent.act(game.view(seat), legal)
        human = bool(action.ja)
        rows.append((game.roles[seat].value, game.n, bool(choice.ja) == human, human))
    for role, n, same, human in rows:  # only once the whole game replayed
        report.overall.add(same, human)
        report.by_role[role].add(same, human)
        report.by_players[n].add(same, human)
        report.always_ja += human


# ---------------------------------------------------------------------------------- roles


@dataclass(slots=True)
class RoleReport:
    bot: str
    games: int = 0
    points: int = 0
    log_loss: float = 0.0
    uniform_log_loss: float = 0.0
    top1: int = 0
    uniform_top1: float = 0.0
    by_role: dict[str, list[float]] = field(default_factory=dict)
    errors: int = 0

    def add(self, role: str, p_true: float, possible: int, top: bool) -> None:
        loss = -math.log(max(p_true, 1e-12))
        base = math.log(possible)
        self.points += 1
        self.log_loss += loss
        self.uniform_log_loss += base
        self.top1 += top
        self.uniform_top1 += 1.0 / possible
        row = self.by_role.setdefault(role, [0, 0.0, 0.0, 0, 0.0])
        row[0] += 1
        row[1] += loss
        row[2] += base
        row[3] += top
        row[4] += 1.0 / possible

    def to_json(self) -> dict[str, Any]:
        def block(k: float, loss: float, base: float, top: float, utop: float) -> dict[str, Any]:
            return {
                "points": int(k),
                "log_loss": round(loss / k, 4) if k else 0.0,
                "uniform_log_loss": round(base / k, 4) if k else 0.0,
                "top1": round(top / k, 4) if k else 0.0,
                "uniform_top1": round(utop / k, 4) if k else 0.0,
            }

        return {
            "bot": self.bot,
            "games": self.games,
            "overall": block(
                self.points, self.log_loss, self.uniform_log_loss, self.top1, self.uniform_top1
            ),
            "by_role": {k: block(*v) for k, v in sorted(self.by_role.items())},
            "skipped_games": self.errors,
        }


def evaluate_roles(records: Iterable[dict[str, Any]], bot: str, seed: int = 0) -> RoleReport:
    """Score the bot's posterior over role assignments at every nomination of every game."""
    _check_bot(bot)
    probe = make_agent(bot, 0, 0)
    if not hasattr(probe, "posterior"):
        raise EvaluateError(f"bot {bot!r} keeps no posterior over roles (try --bot bayes)")
    report = RoleReport(bot)
    for gi, record in enumerate(records):
        try:
            _roles_of_game(record, bot, seed + gi, report)
        except EvaluateError:
            raise
        except Exception:
            report.errors += 1
            continue
        report.games += 1
    return report


def _roles_of_game(record: dict[str, Any], bot: str, seed: int, report: RoleReport) -> None:
    import numpy as np

    agents: dict[int, Any] = {}  # bots with a ``posterior(view)``
    truth: np.ndarray | None = None
    rows: list[tuple[str, float, int, bool]] = []
    for game, action in _replay(record):
        if action.type != A.NOMINATE:
            continue
        if truth is None:
            truth = np.array(
                [{"liberal": 0, "fascist": 1, "hitler": 2}[r.value] for r in game.roles]
            )
        for seat in range(game.n):
            agent: Any = agents.get(seat)
            if agent is None:
                agents[seat] = agent = make_agent(bot, seat, seed * 16 + seat)
            worlds, probs = agent.posterior(game.view(seat))
            start = getattr(agent, "initial_possible", None)
            match = np.nonzero((worlds == truth).all(axis=1))[0]
            p_true = float(probs[match[0]]) if len(match) else 0.0
            possible = start if start is not None else int((probs > 0).sum())
            if possible <= 1:
                continue  # this seat knows the whole team: nothing to score
            top = bool(len(match)) and int(np.argmax(probs)) == int(match[0])
            rows.append((game.roles[seat].value, p_true, possible, top))
    for row in rows:
        report.add(*row)


# ---------------------------------------------------------------------------------- CLI

evaluate_app = typer.Typer(
    help="Measure bots against real games (secrethitler.io JSONL).", no_args_is_help=True
)

_PATH = Annotated[
    Path | None,
    typer.Argument(
        help="secrethitler.io games, one JSON summary a line (.jsonl or .jsonl.gz; "
        "default: the project's data/secrethitler-io-games.jsonl.gz).",
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


@evaluate_app.command("votes")
def votes_command(
    path: _PATH = None, bot: _BOT = "bayes", limit: _LIMIT = None, as_json: _JSON = False
) -> None:
    """How often the bot votes like the person in that seat did, knowing what they knew."""
    try:
        _check_bot(bot)
        records = load_records(path, limit)
        report = evaluate_votes(records, bot)
    except EvaluateError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
        return
    table = Table(title=f"Vote agreement of '{bot}' with people ({report.games} games)")
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
    console = Console()
    console.print(table)
    total = report.overall.total
    floor = report.always_ja / total if total else 0.0
    console.print(f"always-ja baseline: {_pct(floor)}; games skipped: {report.errors}")


@evaluate_app.command("roles")
def roles_command(
    path: _PATH = None, bot: _BOT = "bayes", limit: _LIMIT = None, as_json: _JSON = False
) -> None:
    """Log-loss and top-1 accuracy of the bot's role posterior, against the uniform prior."""
    try:
        _check_bot(bot)
        records = load_records(path, limit)
        report = evaluate_roles(records, bot)
    except EvaluateError as exc:
        raise _fail(str(exc)) from None
    data = report.to_json()
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    table = Table(title=f"Role posterior of '{bot}' at each nomination ({report.games} games)")
    for col in ("seats", "points", "log-loss", "uniform", "top-1", "uniform top-1"):
        table.add_column(col, justify="left" if col == "seats" else "right")
    blocks = [("all", data["overall"])] + list(data["by_role"].items())
    for name, b in blocks:
        table.add_row(
            name,
            str(b["points"]),
            f"{b['log_loss']:.3f}",
            f"{b['uniform_log_loss']:.3f}",
            _pct(b["top1"]),
            _pct(b["uniform_top1"]),
        )
    Console().print(table)


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
    "load_records",
    "register_evaluate",
]
