"""The `simulate` and `tournament` commands (added to the main CLI by ``register``)."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from .. import jsontext
from ..bots import bot_problem
from ..engine import InvalidSettings
from ..engine.errors import brief
from ..engine.settings import MAX_PLAYERS, MIN_PLAYERS
from ..extras import MissingExtra, require
from ..pools import ClusterError, ray_address
from .simulator import (
    REASONS,
    TALK_MODES,
    Lineup,
    Runner,
    SimConfig,
    Summary,
    check_rules,
    plot_summary,
    summarize,
    tournament,
    write_jsonl,
    write_tournament,
)

if TYPE_CHECKING:
    from rich.table import Table

# Options shared by `simulate` and `tournament`.
_RULES = Annotated[str, typer.Option("--rules", help="Preset name or JSON settings object.")]
_JOBS = Annotated[
    int, typer.Option("--jobs", help="Processes (0: every core, or every CPU of --ray).")
]
_RAY = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="ADDRESS",
        help="Play on the Ray cluster at ADDRESS (default: $RAY_ADDRESS; the ray extra).",
    ),
]
# Options shared with `evaluate talk`.
LIBERALS = Annotated[str, typer.Option("--liberals", help="Bot for the liberal seats.")]
FASCISTS = Annotated[str, typer.Option("--fascists", help="Bot for the fascist seats.")]


class UsageError(Exception):
    """A bad flag value: reported in one line with exit status 2, never as a traceback."""


def _fail(command: str, message: str) -> typer.Exit:
    typer.echo(f"secret-hitler {command}: {message}", err=True)
    return typer.Exit(2)


def _check_bot(name: str, flag: str) -> str:
    problem = bot_problem(name)
    if problem is not None:
        raise UsageError(f"{flag}: {problem}")
    return name


def _check_plot(what: str) -> None:
    """Charts need matplotlib: say so before the games are played, not after."""
    try:
        require("plot", what)
    except MissingExtra as exc:
        raise UsageError(str(exc)) from None


def _parse_rules(value: str) -> Any:
    """A preset name, or a JSON settings object such as '{"preset": "official", "veto_zone": 4}'."""
    text = value.strip()
    if text.startswith("{"):
        try:
            return jsontext.loads(text)
        except jsontext.BadJson as exc:
            raise UsageError(f"--rules: {exc}") from None
    return text


def _validate_rules(rules: Any, players: list[int]) -> None:
    try:
        check_rules(rules, players)
    except InvalidSettings as exc:
        message = exc.message.removeprefix("rules: ")
        raise UsageError(f"--rules: {message}") from None


def _check_counts(games: int, jobs: int) -> None:
    if games < 1:
        raise UsageError(f"--games: must be at least 1, got {games}")
    if jobs < 0:
        raise UsageError(f"--jobs: must be 0 (every core) or more, got {jobs}")


def _check_output(path: Path | None, flag: str, folder: bool = False) -> None:
    """Refuse an output path before hours of simulation, not after: the folder is made (or the
    file opened) now and a file written into it, so a read-only or unwritable place is told
    here; a file that did not exist is removed again."""
    if path is None:
        return
    if folder:
        if path.exists() and not path.is_dir():
            raise UsageError(f"{flag}: {path} exists and is not a folder")
        try:
            path.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=path):
                pass
        except OSError as exc:
            raise UsageError(f"{flag}: cannot write in {path} ({exc.strerror or exc})") from None
        return
    if path.is_dir():
        raise UsageError(f"{flag}: {path} is a folder, give a file name")
    if not path.parent.is_dir():
        raise UsageError(f"{flag}: the folder {path.parent} does not exist")
    existed = path.exists()
    try:
        with path.open("a"):
            pass
        if not existed:
            path.unlink()
    except OSError as exc:
        raise UsageError(f"{flag}: cannot write {path} ({exc.strerror or exc})") from None


def _start_runner(jobs: int, ray: str | None) -> Runner:
    """The runner's workers, started now: a cluster that cannot be used is a bad flag, told
    before any output is made (the caller closes the runner)."""
    runner = Runner(jobs, ray_address(ray))
    try:
        runner.pool.start()
    except (ClusterError, MissingExtra) as exc:
        runner.close()
        raise UsageError(f"--ray: {exc}" if isinstance(exc, ClusterError) else str(exc)) from None
    return runner


def _check_players(n: int) -> int:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise UsageError(f"--players: must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {brief(n)}")
    return n


@contextmanager
def _progress(total: int, label: str, quiet: bool) -> Iterator[Callable[[int], None]]:
    """A transient progress bar on stderr, when stderr is a terminal: elsewhere rich would draw
    nothing, so the bar (its module and its refresh thread) is not even made."""
    console = Console(stderr=True)
    if quiet or not console.is_terminal:
        yield lambda k: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with bar:
        task = bar.add_task(label, total=total)
        yield lambda k: bar.advance(task, k)


def _results_table(summary: Summary, title: str, elapsed: float) -> Table:
    from rich.table import Table

    table = Table(title=title)
    table.add_column("")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    table.add_column("95% interval", justify="right")
    for side, wins, ci in (
        ("liberal wins", summary.liberal_wins, summary.liberal_ci),
        ("fascist wins", summary.fascist_wins, summary.fascist_ci),
    ):
        table.add_row(side, str(wins), f"{wins / summary.games:.1%}", f"{ci[0]:.1%} – {ci[1]:.1%}")
    table.add_section()
    for reason in REASONS:
        count = summary.reasons[reason]
        table.add_row(
            f"  {reason.replace('_', ' ')}", str(count), f"{count / summary.games:.1%}", ""
        )
    table.add_section()
    table.add_row("average rounds", f"{summary.avg_rounds:.2f}", "", "")
    table.add_row("average actions", f"{summary.avg_actions:.1f}", "", "")
    table.add_row("average claims", f"{summary.avg_claims:.1f}", "", "")
    table.add_row("games per second", f"{summary.games / max(elapsed, 1e-9):.0f}", "", "")
    return table


_SEATS = Annotated[int, typer.Option("--players", help=f"Seats, {MIN_PLAYERS} to {MAX_PLAYERS}.")]
_HITLER = Annotated[
    str | None, typer.Option("--hitler", help="Bot for Hitler (default: the fascist bot).")
]
_RUN_SEED = Annotated[
    int, typer.Option("--seed", help="Run seed; game i uses a seed derived from it and i.")
]
_OUT = Annotated[Path | None, typer.Option("--out", help="Write one JSON line per game here.")]
_RECORDS = Annotated[
    Path | None, typer.Option("--records", help="Write each game's record into this folder.")
]
_PLOT = Annotated[Path | None, typer.Option("--plot", help="Save a chart (PNG) of the results.")]
_AS_JSON = Annotated[bool, typer.Option("--json", help="Print the summary as JSON, no table.")]
_QUIET = Annotated[bool, typer.Option("--quiet", help="No progress bar.")]
_TALK = Annotated[
    str,
    typer.Option(
        "--talk",
        help="Table talk: off, speak (bots speak, nobody listens), listen, deaf-liberals, "
        "deaf-fascists.",
    ),
]


def simulate_command(
    players: _SEATS = 7,
    games: Annotated[int, typer.Option("--games", help="Games to play.")] = 1000,
    liberals: LIBERALS = "rule",
    fascists: FASCISTS = "rule",
    hitler: _HITLER = None,
    rules: _RULES = "official",
    jobs: _JOBS = 0,
    ray: _RAY = None,
    seed: _RUN_SEED = 0,
    out: _OUT = None,
    records: _RECORDS = None,
    plot: _PLOT = None,
    as_json: _AS_JSON = False,
    quiet: _QUIET = False,
    talk: _TALK = "off",
) -> None:
    """Play bot-vs-bot games and report win rates with 95% intervals (exit 2 on bad flags)."""
    try:
        if talk not in TALK_MODES:
            raise UsageError(f"--talk: one of {', '.join(TALK_MODES)}, not {brief(talk)}")
        _check_players(players)
        _check_counts(games, jobs)
        lineup = Lineup(
            _check_bot(liberals, "--liberals"),
            _check_bot(fascists, "--fascists"),
            None if hitler is None else _check_bot(hitler, "--hitler"),
        )
        parsed_rules = _parse_rules(rules)
        _validate_rules(parsed_rules, [players])
        if plot is not None:
            _check_plot("--plot")
        start = time.perf_counter()
        runner = _start_runner(jobs, ray)
    except UsageError as exc:
        raise _fail("simulate", str(exc)) from None
    try:
        # (last: the probes make the folders, which a refused command should not leave behind)
        _check_output(out, "--out")
        _check_output(plot, "--plot")
        _check_output(records, "--records", folder=True)
    except UsageError as exc:
        runner.close()
        raise _fail("simulate", str(exc)) from None
    config = SimConfig(players, lineup, parsed_rules, seed, str(records) if records else None, talk)
    with runner, _progress(games, f"{players}p {lineup.label()}", quiet or as_json) as tick:
        results = runner.run(config, games, tick)
    elapsed = time.perf_counter() - start
    summary = summarize(results)
    if out is not None:
        write_jsonl(results, out)
    if plot is not None:
        plot_summary(summary, plot, f"{players} players, {lineup.label()}")
    if as_json:
        data = {"players": players, "lineup": lineup.label(), "seed": seed, **summary.to_json()}
        if talk != "off":
            data["talk"] = talk
            data["avg_lines"] = sum(r.talk["lines"] for r in results if r.talk) / len(results)
        typer.echo(json.dumps(data))
        return
    title = f"{players} players, {lineup.label()}, rules {rules}, seed {seed}"
    Console().print(_results_table(summary, title, elapsed))


def tournament_command(
    out: Annotated[
        Path, typer.Option("--out", help="Folder for results.md, results.csv and heatmaps.")
    ],
    players: Annotated[
        str, typer.Option("--players", help="Player counts, comma separated.")
    ] = "7",
    games: Annotated[int, typer.Option("--games", help="Games per cell.")] = 500,
    bots: Annotated[str, typer.Option("--bots", help="Bots, comma separated.")] = "random,rule",
    hitler: Annotated[
        str | None,
        typer.Option("--hitler", help="Bot for Hitler in every cell (default: the fascist bot)."),
    ] = None,
    rules: _RULES = "official",
    jobs: _JOBS = 0,
    ray: _RAY = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Run seed (the same game seeds in every cell).")
    ] = 0,
    quiet: _QUIET = False,
) -> None:
    """Play every liberal bot against every fascist bot at each player count (exit 2 on bad flags)."""
    try:
        counts, names = _tournament_sizes(players), _tournament_bots(bots, hitler)
        _check_counts(games, jobs)
        parsed_rules = _parse_rules(rules)
        _validate_rules(parsed_rules, counts)
        _check_plot("writing the heatmaps")
        start = time.perf_counter()
        runner = _start_runner(jobs, ray)
    except UsageError as exc:
        raise _fail("tournament", str(exc)) from None
    try:
        _check_output(out, "--out", folder=True)  # last: it makes the folder
    except UsageError as exc:
        runner.close()
        raise _fail("tournament", str(exc)) from None
    total = len(counts) * len(names) ** 2 * games
    with runner, _progress(total, "tournament", quiet) as tick:
        cells = tournament(
            counts,
            names,
            games,
            seed,
            rules=parsed_rules,
            hitler=hitler,
            progress=tick,
            runner=runner,
        )
    command = (
        f"secret-hitler tournament --players {','.join(map(str, counts))} --games {games} "
        f"--bots {','.join(names)} --rules {rules} --seed {seed} --out {out}"
        + (f" --hitler {hitler}" if hitler else "")
    )
    written = write_tournament(cells, names, out, command)
    console = Console()
    for n in counts:
        console.print(_tournament_table(cells, names, n))
    console.print(
        f"{total} games in {time.perf_counter() - start:.1f} s; wrote "
        + ", ".join(str(p) for p in written)
    )


def _tournament_sizes(players: str) -> list[int]:
    """``--players``: the table sizes, each a number the rules allow."""
    counts: list[int] = []
    for part in players.split(","):
        try:
            counts.append(_check_players(int(part)))
        except ValueError:
            raise UsageError(
                f"--players: {part.strip()!r} is not a number (e.g. --players 5,7,10)"
            ) from None
    return counts


def _tournament_bots(bots: str, hitler: str | None) -> list[str]:
    """``--bots``: each level once, every one (and ``--hitler``'s) a level that exists."""
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        raise UsageError("--bots: name at least one bot")
    if len(set(names)) != len(names):
        raise UsageError("--bots: a bot is named twice")
    for name in names:
        _check_bot(name, "--bots")
    if hitler is not None:
        _check_bot(hitler, "--hitler")
    return names


def _tournament_table(cells: list[Any], names: list[str], n: int) -> Table:
    """The liberal win rates of the tournament at ``n`` players, liberal bot by fascist bot."""
    from rich.table import Table

    table = Table(title=f"{n} players: liberal win rate (rows: liberal bot, columns: fascist bot)")
    table.add_column("liberals \\ fascists")
    for name in names:
        table.add_column(name, justify="right")
    grid = {(c.liberal, c.fascist): c.summary for c in cells if c.players == n}
    for lib in names:
        row = []
        for fas in names:
            s = grid[(lib, fas)]
            row.append(f"{s.liberal_rate:.1%} [{s.liberal_ci[0]:.1%}, {s.liberal_ci[1]:.1%}]")
        table.add_row(lib, *row)
    return table


def register(app: typer.Typer) -> None:
    """Add `simulate` and `tournament` (`evaluate` has its own entry in ``cli._PLUGINS``, so that
    a simulation does not import it)."""
    app.command("simulate")(simulate_command)
    app.command("tournament")(tournament_command)
