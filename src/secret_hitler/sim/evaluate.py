"""``secret-hitler evaluate``: measure bots against real secrethitler.io games, and at a table
of talking bots; the commands and how they print.

``votes`` (``vote_agreement.py``) replays every finished game and, at each vote a living person
cast, asks the bot for that seat what it would vote, given exactly what that person knew then;
``roles`` (``role_reading.py``) follows the bot's posterior over role assignments along each game
and scores it against the true assignment; the people's games are read by ``people_games.py``.
``talk`` and ``tells`` measure bots at a talking table (``talk_report.py``, ``tells.py``).
This module names the evaluations' entry points again (``sim.evaluate.evaluate_votes``, as the
arena and the benchmarks import them).

A bot keeps one agent per seat for the whole game (as in play), so an incremental bot sees the
same stream of views it would see at a table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from .cli import FASCISTS, LIBERALS
from .people_games import EvaluateError, check_bot, game_half, load_records, replay
from .role_reading import RoleReport, evaluate_roles
from .vote_agreement import Tally, VoteReport, claim_is_true, evaluate_votes

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
        check_bot(bot)
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
        check_bot(bot)
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
    fascist_games: Annotated[
        int,
        typer.Option(
            "--fascist-games", min=0, help="Paired games, listening against deaf fascists."
        ),
    ] = 0,
    as_json: _JSON = False,
) -> None:
    """Talk between bots: how often an accusation names a real fascist (by level, role and
    certainty) and how much listening moves the liberals' win rate (paired games), and with
    --fascist-games the fascists'."""
    from .simulator import Lineup
    from .talk_report import talk_report

    names = [x.strip() for x in levels.split(",") if x.strip()]
    try:
        for bot in (*names, liberals, fascists):
            check_bot(bot)
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
        fascist_games=fascist_games,
    )
    data = report.to_json()
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    _print_talk(data, players, accuracy_games, seed, liberals, fascists)


def _print_talk(
    data: dict[str, Any],
    players: int,
    accuracy_games: int,
    seed: int,
    liberals: str,
    fascists: str,
) -> None:
    """``evaluate talk``'s report as tables and lines: the accusations by level, role and
    certainty, the lines per round, and the paired games' differences."""
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
    deaf = data["fascists_listening"]
    if deaf is not None:
        lo, hi = deaf["difference_ci95"]
        console.print(
            f"liberals {liberals} vs fascists {fascists}, {deaf['games']} paired games: "
            f"listening fascists win {_pct(deaf['listening_fascist_rate'])}, deaf fascists "
            f"{_pct(deaf['deaf_fascist_rate'])}; difference "
            f"{100 * deaf['difference']:+.1f} points (95% {100 * lo:+.1f} to {100 * hi:+.1f})"
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
        check_bot(bot)
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


__all__ = [
    "EvaluateError",
    "RoleReport",
    "Tally",
    "VoteReport",
    "check_bot",
    "claim_is_true",
    "evaluate_app",
    "evaluate_roles",
    "evaluate_votes",
    "game_half",
    "load_records",
    "register_evaluate",
    "replay",
]
