"""``secret-hitler admin``: moderation on the configured database (docs/server.md
"Administration"): list reports, ban and unban users and addresses, close a table; the seasons
of the ladder, the conduct flags of rated games and tournaments (docs/competitive.md).

It works on the database the server uses (``DATABASE_URL``, else the SQLite file in the data
folder, ``SH_DATA`` or ``--data``), with the server running or not: a running server reads bans
and closed tables again every ``SH_MODERATION_REFRESH`` seconds. On a cluster (``REDIS_URL``
and ``SH_SECRET`` as the nodes have them) every node is also told at once.
"""

from __future__ import annotations

import datetime
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

app = typer.Typer(help="Moderation: reports, bans, closing tables.", no_args_is_help=True)
reports_app = typer.Typer(help="Reports filed by players.", no_args_is_help=True)
ban_app = typer.Typer(
    help="Ban a user (her sessions are refused) or an address.", no_args_is_help=True
)
unban_app = typer.Typer(help="Lift a ban.", no_args_is_help=True)
app.add_typer(reports_app, name="reports")
app.add_typer(ban_app, name="ban")
app.add_typer(unban_app, name="unban")
season_app = typer.Typer(help="Seasons of the rated ladder.", no_args_is_help=True)
flags_app = typer.Typer(help="Conduct flags of rated games.", no_args_is_help=True)
app.add_typer(season_app, name="season")
app.add_typer(flags_app, name="flags")
tournament_app = typer.Typer(help="Tournaments: list, cancel.", no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")

_state: dict[str, Any] = {}

DataOpt = Annotated[
    Path | None,
    typer.Option("--data", help="Data folder with the SQLite file (env SH_DATA; default ./var)."),
]
UrlOpt = Annotated[
    str | None,
    typer.Option("--database-url", help="postgresql://... (env DATABASE_URL)."),
]


@app.callback()
def _options(data: DataOpt = None, database_url: UrlOpt = None) -> None:
    _state["data"], _state["database_url"] = data, database_url


def _fail(message: str, code: int = 1) -> None:
    typer.echo(f"secret-hitler admin: {message}", err=True)
    raise typer.Exit(code)


def _settings() -> Any:
    """The server's settings (its environment), with the extras they need."""
    from ..extras import MissingExtra, require

    try:
        require("server", "secret-hitler admin")
        from .core.config import Settings

        try:
            settings = Settings.from_env(
                data=_state.get("data"), database_url=_state.get("database_url")
            )
        except ValueError as exc:
            _fail(str(exc), 2)
        if settings.sqlalchemy_url.startswith("postgresql"):
            require("postgres", "secret-hitler admin with PostgreSQL")
        if settings.redis_url is not None:
            require("cluster", "secret-hitler admin with REDIS_URL")
    except MissingExtra as exc:
        _fail(str(exc), 2)
    return settings


def _announce() -> None:
    """On a cluster, every node reads the bans and closed tables now (else within
    ``SH_MODERATION_REFRESH`` seconds)."""
    settings = _settings()
    if settings.redis_url is None:
        return
    from .cluster.signing import BROADCAST, publish_sealed

    try:
        publish_sealed(
            settings.redis_url, settings.cluster_key(), BROADCAST, json.dumps({"op": "moderation"})
        )
    except Exception as exc:  # noqa: BLE001 - the nodes still read it within the refresh
        typer.echo(f"secret-hitler admin: the nodes were not told ({type(exc).__name__})", err=True)


def _run(fn: Callable[[Any], Any]) -> Any:
    """``fn(connection)`` in one transaction on the configured database (migrated first)."""
    settings = _settings()
    from sqlalchemy import exc as sa_exc

    from .storage import db

    engine = db.make_engine(settings.sqlalchemy_url)
    try:
        db.migrate(engine)
        with engine.begin() as conn:
            return fn(conn)
    except sa_exc.OperationalError as exc:
        _fail(f"the database is unavailable ({type(exc.orig).__name__})")
    finally:
        engine.dispose()


def _when(ts: float) -> str:
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


@reports_app.command("list")
def reports_list(
    limit: Annotated[int, typer.Option("--limit", min=1, max=10_000)] = 50,
    player: Annotated[
        str | None, typer.Option("--player", help="Only reports of this user.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
) -> None:
    """The newest reports first."""
    import sqlalchemy as sa

    from .storage import db

    def run(conn: Any) -> list[dict[str, Any]]:
        r = db.reports.c
        query = sa.select(db.reports).order_by(r.id.desc()).limit(limit)
        if player is not None:
            query = query.where(r.target == player)
        return [dict(row._mapping) for row in conn.execute(query)]

    rows = _run(run)
    for row in rows:
        if as_json:
            typer.echo(json.dumps(row, ensure_ascii=False))
        else:
            where = f" game {row['game_id']}" if row["game_id"] else ""
            if row["moment"] is not None:
                where += f" at action {row['moment']}"
            typer.echo(
                f"#{row['id']} {_when(row['created_at'])} {row['reporter']} reported "
                f"{row['target']}{where}: {row['reason']!r}"
            )
    if not rows and not as_json:
        typer.echo("no reports")


def _ban(kind: str, value: str, reason: str | None) -> None:
    import sqlalchemy as sa

    from .storage import db

    def run(conn: Any) -> str:
        if kind == "user":
            found = conn.execute(sa.select(db.users.c.id).where(db.users.c.id == value)).first()
            if found is None:
                return "missing"
        b = db.bans.c
        if conn.execute(sa.select(b.kind).where(b.kind == kind, b.value == value)).first():
            return "already"
        conn.execute(
            db.bans.insert().values(kind=kind, value=value, reason=reason, created_at=time.time())
        )
        return "banned"

    outcome = _run(run)
    if outcome == "missing":
        _fail(f"no user {value!r}")
    _announce()
    typer.echo(f"{kind} {value} {'was already banned' if outcome == 'already' else 'banned'}")


def _unban(kind: str, value: str) -> None:
    from .storage import db

    def run(conn: Any) -> int:
        b = db.bans.c
        return int(conn.execute(db.bans.delete().where(b.kind == kind, b.value == value)).rowcount)

    if not _run(run):
        _fail(f"{kind} {value} is not banned")
    _announce()
    typer.echo(f"{kind} {value} unbanned")


def _address(raw: str) -> str:
    from .lobby.moderation import parse_address

    try:
        return parse_address(raw)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


ReasonOpt = Annotated[str | None, typer.Option("--reason", help="Why (kept with the ban).")]


@ban_app.command("user")
def ban_user(
    user_id: Annotated[str, typer.Argument(help="The user id (u_...).")], reason: ReasonOpt = None
) -> None:
    """Ban a user: every request and connection with her sessions is refused."""
    _ban("user", user_id, reason)


@ban_app.command("address")
def ban_address(
    address: Annotated[str, typer.Argument(help="An IP address or network (CIDR).")],
    reason: ReasonOpt = None,
) -> None:
    """Ban an address: no session can be opened from it, and no credential is accepted from it."""
    _ban("address", _address(address), reason)


@unban_app.command("user")
def unban_user(user_id: Annotated[str, typer.Argument(help="The user id.")]) -> None:
    _unban("user", user_id)


@unban_app.command("address")
def unban_address(
    address: Annotated[str, typer.Argument(help="The banned address or network.")],
) -> None:
    _unban("address", _address(address))


@app.command("close-table")
def close_table(table_id: Annotated[str, typer.Argument(help="The table (and game) id.")]) -> None:
    """Close a waiting or playing table: its game stops and is not resumed."""
    from .lobby.moderation import close_table as write

    if not _run(write(table_id)):
        _fail(f"no waiting or playing table {table_id!r}")
    _announce()
    typer.echo(f"table {table_id} closed")


# ---------------------------------------------------------------------- seasons
def _seasons_call(write: Any) -> Any:
    """A season write (``competition/seasons.py``); its refusal is the command's error."""
    from .competition.seasons import SeasonError

    try:
        return _run(write)
    except SeasonError as exc:
        _fail(str(exc))


def _time(text: str) -> float:
    from .competition.seasons import SeasonError, parse_time

    try:
        return parse_time(text)
    except SeasonError as exc:
        raise typer.BadParameter(str(exc)) from None


@season_app.command("add")
def season_add(
    season_id: Annotated[str, typer.Argument(help="Its id: lower-case letters, digits, '-'.")],
    start: Annotated[str, typer.Option("--start", help="2027-01-01 or 2027-01-01T18:00 (UTC).")],
    end: Annotated[str, typer.Option("--end", help="When it ends (same forms).")],
    name: Annotated[str | None, typer.Option("--name", help="Its name (default: its id).")] = None,
    placement: Annotated[
        int, typer.Option("--placement", min=0, max=100, help="Games before a player is ranked.")
    ] = 5,
) -> None:
    """Add a season: rated games that start between --start and --end count on its ladder."""
    from .competition.seasons import SeasonError, add_season, new_season

    try:
        season = new_season(season_id, name or season_id, _time(start), _time(end), placement)
    except SeasonError as exc:
        raise typer.BadParameter(str(exc)) from None
    _seasons_call(add_season(season, time.time()))
    typer.echo(
        f"season {season.id} ({season.name}): {_when(season.starts_at)} to "
        f"{_when(season.ends_at)}, ranked after {season.placement} games"
    )


@season_app.command("list")
def season_list(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
) -> None:
    """Every season, the first first, with its state."""
    from .competition.seasons import list_seasons

    now = time.time()
    seasons = _run(list_seasons())
    for season in seasons:
        shown = season.to_json(now)
        if as_json:
            typer.echo(json.dumps(shown, ensure_ascii=False))
        else:
            typer.echo(
                f"{season.id} ({season.name}) {shown['state']}: {_when(season.starts_at)} to "
                f"{_when(season.ends_at)}, ranked after {season.placement} games"
            )
    if not seasons and not as_json:
        typer.echo("no seasons")


@season_app.command("end")
def season_end(
    season_id: Annotated[str, typer.Argument(help="The season's id.")],
    at: Annotated[str | None, typer.Option("--at", help="When (default: now).")] = None,
) -> None:
    """End a season now (or at --at, earlier than planned); games already started still count."""
    from .competition.seasons import end_season

    season = _seasons_call(end_season(season_id, time.time() if at is None else _time(at)))
    typer.echo(f"season {season.id} ends {_when(season.ends_at)}")


@season_app.command("remove")
def season_remove(season_id: Annotated[str, typer.Argument(help="The season's id.")]) -> None:
    """Remove a season no rated game belongs to."""
    from .competition.seasons import remove_season

    _seasons_call(remove_season(season_id))
    typer.echo(f"season {season_id} removed")


# ---------------------------------------------------------------------- conduct flags
@flags_app.command("list")
def flags_list(
    include_cleared: Annotated[bool, typer.Option("--all", help="Cleared flags too.")] = False,
    limit: Annotated[int, typer.Option("--limit", min=1, max=500)] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
) -> None:
    """The conduct flags of rated games (collusion signals), the latest first."""
    from .competition.signals import flags

    rows = _run(flags(include_cleared, limit))
    for row in rows:
        if as_json:
            typer.echo(json.dumps(row, ensure_ascii=False))
            continue
        detail = ", ".join(
            f"{k} {v}" for k, v in row["detail"].items() if k not in ("users", "count")
        )
        cleared = f" (cleared {_when(row['cleared_at'])})" if row["cleared_at"] else ""
        typer.echo(
            f"#{row['id']} {_when(row['updated_at'])} {row['kind']}: "
            f"{' '.join(row['users'])}: {detail}{cleared}"
        )
    if not rows and not as_json:
        typer.echo("no flags")


@flags_app.command("clear")
def flags_clear(flag_id: Annotated[int, typer.Argument(help="The flag's number.")]) -> None:
    """Mark a flag as looked at (it opens again if its evidence grows)."""
    from .competition.signals import clear

    if not _run(clear(flag_id, time.time())):
        _fail(f"no open flag #{flag_id}")
    typer.echo(f"flag #{flag_id} cleared")


# ---------------------------------------------------------------------- tournaments
@tournament_app.command("list")
def tournament_list(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
    limit: Annotated[int, typer.Option(help="At most this many of each: open, past.")] = 50,
) -> None:
    """The open tournaments by start, then the latest finished or cancelled ones."""
    from .competition.tournament_pages import listing

    rows = _run(listing(limit))
    for row in rows:
        if as_json:
            typer.echo(json.dumps(row, ensure_ascii=False))
            continue
        typer.echo(
            f"{row['id']} {row['name']} ({row['format']}, hosted by {row['host_name']}): "
            f"{row['status']}, round {row['round']}, {row['entrants']} entrants, "
            f"starts {_when(row['starts_at'])}"
        )
    if not rows and not as_json:
        typer.echo("no tournaments")


@tournament_app.command("cancel")
def tournament_cancel(
    tournament_id: Annotated[str, typer.Argument(help="The tournament's id.")],
) -> None:
    """Cancel a tournament that has not finished (a game under way plays on, counting for
    nothing)."""
    from .competition.tournaments import CANCELLED, set_status
    from .core.errors import LobbyError

    try:
        _run(set_status(tournament_id, CANCELLED, time.time()))
    except LobbyError as exc:
        _fail(exc.message)
    typer.echo(f"tournament {tournament_id} cancelled")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="admin")
