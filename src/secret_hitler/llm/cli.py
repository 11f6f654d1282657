"""``secret-hitler arena``: play model endpoints and bot levels against each other, and report.

Light at import (the CLI loads it for ``--help``); httpx, numpy and openskill are imported when
the command runs, after ``extras.require("llm", ...)`` has said what to install if they are
missing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..engine.settings import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS

if TYPE_CHECKING:
    from .arena import ArenaConfig

ROOT_HELP = "Play language models and bot levels against each other and measure them."


def _fail(message: str) -> typer.Exit:
    typer.echo(f"secret-hitler arena: {message}", err=True)
    return typer.Exit(2)


def _split(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


_SEATS = Annotated[
    str,
    typer.Option(
        "--seats",
        help="The lineup, one level per seat, comma-separated: llm:<endpoint> or a bot "
        "level (a table of N players seats the first N; rotated every game).",
    ),
]
_ENDPOINTS = Annotated[
    Path | None,
    typer.Option("--endpoints", help="Endpoints file (TOML; default: $SH_LLM_ENDPOINTS)."),
]
_PLAYERS = Annotated[str, typer.Option("--players", help="Player counts, e.g. 5,7.")]
_GAMES = Annotated[int, typer.Option("--games", min=1, max=100_000, help="Games per player count.")]
_RULES = Annotated[str, typer.Option("--rules", help="Preset name or JSON settings.")]
_OUT = Annotated[
    Path, typer.Option("--out", help="Folder of results.jsonl, report.json and plots.")
]
_THREADS = Annotated[
    int, typer.Option("--threads", min=1, max=256, help="Games with model seats at once.")
]
_JOBS = Annotated[
    int,
    typer.Option(
        "--jobs", min=0, help="Processes for bot-only games (0: every core, or every CPU of --ray)."
    ),
]
_RAY = Annotated[
    str | None,
    typer.Option("--ray", help="Ray cluster for bot-only games (default: $RAY_ADDRESS)."),
]
_HUMAN_GAMES = Annotated[
    int,
    typer.Option(
        "--human-games",
        min=0,
        help="Held-out people's games for each model's vote agreement (0: skip).",
    ),
]
_PLOT = Annotated[bool, typer.Option("--plot", help="Write wins.png and ratings.png.")]
_JSON = Annotated[bool, typer.Option("--json", help="Print the report as JSON.")]


def arena_command(
    seats: _SEATS,
    endpoints: _ENDPOINTS = None,
    players: _PLAYERS = "7",
    games: _GAMES = 14,
    rules: _RULES = "official",
    seed: Annotated[int, typer.Option("--seed")] = 1,
    out: _OUT = Path("results/arena"),
    threads: _THREADS = 4,
    jobs: _JOBS = 0,
    ray: _RAY = None,
    human_games: _HUMAN_GAMES = 20,
    plot: _PLOT = False,
    as_json: _JSON = False,
) -> None:
    """Play N games of a lineup of model endpoints and bot levels (seats and roles rotated,
    resumable), then report win rates, ratings, vote agreement with people, deception,
    deduction, invalid answers and cost per model (docs/llm.md)."""
    from ..extras import MissingExtra, require

    try:
        require("llm", "secret-hitler arena")
        if plot:
            require("plot", "--plot")
    except MissingExtra as exc:
        raise _fail(str(exc)) from None
    config = _config(seats, players, games, rules, seed)
    described = _endpoints(endpoints, config.seats, config.rules)
    address = _ready(config, ray)
    lines = _play(config, out, described, threads, jobs, address, quiet=as_json)
    report = _report(lines, out, human_games, seed)
    if plot:
        from .report import plot_report

        plot_report(report, out)
    if as_json:
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print(report, out)


def _config(seats: str, players: str, games: int, rules: str, seed: int) -> ArenaConfig:
    """The arena's plan from the options (``ArenaConfig``), each refused with its option's name:
    the lineup, the table sizes, the rules at each size."""
    from ..engine import InvalidSettings, Rules
    from .arena import ArenaConfig

    lineup = _split(seats)
    try:
        counts = tuple(int(p) for p in _split(players))
    except ValueError:
        raise _fail("--players: comma-separated numbers, e.g. 5,7") from None
    if not lineup:
        raise _fail("--seats: name at least one level")
    wrong = [n for n in counts if n not in PLAYER_COUNTS]
    if wrong or not counts:
        raise _fail(
            f"--players: {MIN_PLAYERS} to {MAX_PLAYERS} players a table, "
            f"not {wrong[0] if wrong else 'none'}"
        )
    try:
        parsed_rules: Any = json.loads(rules) if rules.strip().startswith("{") else rules.strip()
        resolved = Rules.from_json(parsed_rules)
        for n in counts:
            resolved.validate(n)
    except (ValueError, InvalidSettings) as exc:
        raise _fail(f"--rules: {exc}") from None
    return ArenaConfig(tuple(lineup), counts, games, parsed_rules, seed)


def _endpoints(endpoints: Path | None, lineup: tuple[str, ...], rules: Any) -> dict[str, Any]:
    """The endpoints the lineup's model seats play through, each checked (its prompts, that
    they can describe ``rules``, its fallback level) and registered as a bot level; what the
    results say of each. A file named but not needed is read too: a wrong path is said, not
    ignored."""
    from ..bots.base import bot_problem
    from .agent import register_endpoints
    from .arena import is_model
    from .endpoints import EndpointError, load_endpoints
    from .prompts import PromptError, load_prompts, rules_problem

    described: dict[str, Any] = {}
    if endpoints is None and not any(is_model(level) for level in lineup):
        return described
    try:
        configured = load_endpoints(endpoints)
    except EndpointError as exc:
        raise _fail(str(exc)) from None
    for endpoint in configured.values():
        try:
            prompts = load_prompts(endpoint.prompt, endpoint.language)
        except PromptError as exc:
            raise _fail(f"endpoint {endpoint.name!r}: {exc}") from None
        problem = rules_problem(prompts, rules) if endpoint.level in lineup else None
        if problem is not None:
            raise _fail(f"endpoint {endpoint.name!r}: {problem}")
        problem = bot_problem(endpoint.fallback)
        if problem is not None:
            raise _fail(f"endpoint {endpoint.name!r}: fallback: {problem}")
        described[endpoint.name] = {
            **endpoint.describe(),
            "price_in": endpoint.price_in,
            "price_out": endpoint.price_out,
        }
    register_endpoints(configured)
    return described


def _ready(config: ArenaConfig, ray: str | None) -> str | None:
    """Check what the plan plays with once the endpoints are levels: every level of the
    lineup, the Ray cluster's extra, the plan itself; the cluster's address (None: here)."""
    from ..bots.base import bot_problem
    from ..extras import MissingExtra, require
    from ..pools import ray_address
    from .arena import ArenaError

    for level in sorted(set(config.seats)):
        problem = bot_problem(level)
        if problem is not None:
            raise _fail(f"--seats: {problem}")
    address = ray_address(ray)
    if address:
        try:
            require("ray", "--ray")
        except MissingExtra as exc:
            raise _fail(str(exc)) from None
    try:
        config.plan()
    except ArenaError as exc:
        raise _fail(str(exc)) from None
    return address


def _play(
    config: ArenaConfig,
    out: Path,
    described: dict[str, Any],
    threads: int,
    jobs: int,
    address: str | None,
    *,
    quiet: bool,
) -> list[dict[str, Any]]:
    """Play the planned games that ``out`` does not hold yet; every game's result line."""
    from ..pools import ClusterError
    from .arena import ArenaError, run_arena
    from .client import close_clients

    def progress(line: dict[str, Any]) -> None:
        if not quiet:
            typer.echo(f"{line['key']}: {line['winner']} win ({line['reason']})", err=True)

    try:
        return run_arena(
            config,
            out,
            endpoints=described,
            threads=threads,
            jobs=jobs,
            ray=address,
            progress=progress,
        )
    except ArenaError as exc:
        raise _fail(str(exc)) from None
    except ClusterError as exc:
        raise _fail(f"--ray: {exc}") from None
    finally:
        close_clients()


def _report(lines: list[dict[str, Any]], out: Path, human_games: int, seed: int) -> dict[str, Any]:
    from .agent import settled_by
    from .arena import SETTINGS, is_model
    from .report import build_report, vote_agreement

    settings = json.loads((out / SETTINGS).read_text(encoding="utf-8"))
    votes: dict[str, Any] = {}
    models = sorted({level for line in lines for level in line["seats"] if is_model(level)})
    if human_games and models:
        from ..sim.evaluate import evaluate_votes, game_half, load_records

        held_out = [r for i, r in enumerate(load_records()) if game_half(r, i) == "test"]
        chosen = held_out[:human_games]
        for level in models:
            cache = out / f"votes-{level.removeprefix('llm:')}-{human_games}.json"
            if cache.exists():
                cached = json.loads(cache.read_text(encoding="utf-8"))
                if "votes" in cached:  # (an older cache mixed the fallback's votes in: redone)
                    votes[level] = cached
                    continue
            result = vote_agreement(evaluate_votes(chosen, level, seed, decided_by=settled_by))
            result["half"] = f"test (first {len(chosen)} held-out games)"
            cache.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
            votes[level] = result
    report = build_report(lines, settings, votes=votes)
    (out / "report.json").write_text(
        json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return report


def _pct(cell: dict[str, Any] | None) -> str:
    if not cell or not cell.get("n"):
        return "-"
    value = float(cell["rate"] if "rate" in cell else cell["share"])
    lo, hi = cell["ci95"]
    return f"{100 * value:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}]"


def _print(report: dict[str, Any], out: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Arena: {report['games']} games ({out / 'report.json'})")
    for col in (
        "level",
        "win",
        "liberal",
        "fascist",
        "hitler",
        "rating",
        "votes",
        "invalid",
        "fallback",
        "tokens/game",
    ):
        table.add_column(col, justify="left" if col == "level" else "right", no_wrap=True)
    for level, wins in report["wins"].items():
        r = report["ratings"][level]
        a = report["answers"].get(level)
        v = report["human_votes"].get(level)
        table.add_row(
            level,
            _pct(wins.get("all")),
            _pct(wins.get("liberal")),
            _pct(wins.get("fascist")),
            _pct(wins.get("hitler")),
            f"{r['rating']:.1f}" + (" *" if r["anchor"] else ""),
            _pct(v["agreement"]) if v else "-",
            _pct(a["invalid_rate"]) if a else "-",
            _pct(a["fallback_rate"]) if a else "-",
            f"{a['per_game']['prompt_tokens'] + a['per_game']['completion_tokens']:.0f}"
            if a
            else "-",
        )
    console = Console(file=sys.stdout, width=max(Console().width, 160))
    console.print(table)
    console.print("* a bot level held at its published rating (the scale's anchor)")


def register(app: typer.Typer) -> None:
    app.command("arena", help=ROOT_HELP)(arena_command)
