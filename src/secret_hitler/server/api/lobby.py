"""HTTP API: guest sessions, the lobby (tables and seats), finished games (docs/protocol.md 1.).

A route parses its input, says who asks, finds the table and calls one of the table's use-cases
(``table/usecases.py``), which checks, changes, stores and announces under the table's lock;
a refusal (``LobbyError``) becomes the HTTP answer (app.py).
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
)

from ... import talk
from ...bots import PLAYER_LEVELS
from ...engine.catalog import catalog
from ...engine.record import TURN_TIMER_MAX
from ...engine.writer import with_talk
from ...talk.narrate import rules_named
from ..accounts.auth import COOKIE, NAME_MAX, NameError_, Sessions, User, new_user_id
from ..accounts.reserved import ReservedName, display_name
from ..accounts.users import PASSWORD_MAX, PASSWORD_MIN
from ..competition import limits as table_limits
from ..core.errors import LobbyError
from ..core.guard import client_address
from ..core.text import brief
from ..lobby.hub import Hub
from ..lobby.moderation import REASON_MAX
from ..lobby.tutorial import open_tutorial
from ..lobby.webhooks import URL_MAX
from ..storage import queries as S
from ..table import usecases
from ..table.blind import masked_seat
from ..table.chat import shown, talk_section
from ..table.levels import bot_levels, default_level
from ..table.options import REACTIONS, stored_category, stored_record, stored_section
from ..table.seats import Seat
from ..table.session import Table
from .moderation import moderation_of
from .rated import rated_entry
from .security import is_https
from .visibility import is_member, may_see

router = APIRouter()
TIMER_MAX = TURN_TIMER_MAX  # a play-by-post table decides over days


class SessionBody(BaseModel):
    name: Any = None


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: StrictInt
    rules: StrictStr | dict[str, Any] | None = None
    public: StrictBool = True
    seat: StrictInt | None = 0
    bots: dict[str, StrictStr | None] | None = None
    bot_level: StrictStr | None = None
    # seconds per decision: up to 7 days (play-by-post tables decide over days)
    timer: Annotated[StrictInt, Field(ge=1, le=TIMER_MAX)] | None = None
    # who moves when the timer runs out: "standin" (the default) or "random" (table/options.py)
    on_timeout: StrictStr | None = None
    auto_start: StrictBool = True
    name: StrictStr | None = None
    webhook: StrictStr | None = None
    # lobby/plans.py rated_problem: a rated game (engine/categories.py), public, people only;
    # ``category`` says it since categories (rated: true is category "rated")
    rated: StrictBool = False
    category: StrictStr | None = None  # the category the host chooses (table/options.py)
    chat: StrictStr | None = None  # free, emotes or silent (docs/game-types.md)
    blind: StrictBool = False  # names hidden until the end (table/blind.py)
    lang: StrictStr | None = None  # the host's page language: a blind table's aliases
    bots_talk: StrictBool = True  # the bots' table talk (docs/server.md "Table talk")
    # the rating a person needs to sit here (competition/limits.py): at least, at most
    rating_min: StrictFloat | StrictInt | None = None
    rating_max: StrictFloat | StrictInt | None = None


class JoinBody(BaseModel):
    seat: StrictInt | None = None
    invite: StrictStr | None = None


class BotBody(BaseModel):
    seat: StrictInt | None = None
    level: StrictStr | None = None


class StartBody(BaseModel):
    fill_with_bots: StrictStr | None = None


class LogoutBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    everywhere: StrictBool = False


class PublishBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    published: StrictBool = True


def hub_of(request: Request) -> Hub:
    return request.app.state.hub  # type: ignore[no-any-return]


def user_of(request: Request) -> User | None:
    """The signed-in user; ``security.Guard`` resolved the Bearer token or cookie already."""
    return getattr(request.state, "user", None)


def sessions_of(request: Request) -> Sessions:
    return request.app.state.sessions  # type: ignore[no-any-return]


def need_user(request: Request) -> User:
    user = user_of(request)
    if user is None:
        raise LobbyError(401, "unauthorized", "sign in first (POST /api/session)")
    return user


def fail(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _table(hub: Hub, table_id: str, user: User | None, invite: str | None = None) -> Table:
    table = hub.get(table_id)
    if table is None:
        raise LobbyError(404, "not_found", f"no table {brief(table_id)}")
    if (
        not table.public
        and not table.is_member(user.id if user else None)
        and invite != table.invite
    ):
        raise LobbyError(404, "not_found", f"no table {brief(table_id)}")
    return table


def _detail(table: Table, user: User | None) -> dict[str, Any]:
    user_id = user.id if user else None
    return table.detail(table.is_member(user_id), user_id)


# ---------------------------------------------------------------------- identity
@router.post("/api/session")
async def create_session(body: SessionBody, request: Request, response: Response) -> dict[str, Any]:
    hub = hub_of(request)  # (a banned address was refused by security.Guard)
    name = checked_name(body.name, hub)
    hub.guard.limit(
        "too many new sessions from this address; try again later",
        ("session_rate", client_address(request.client)),
    )
    user_id = new_user_id()
    await hub.store.write(S.save_user(user_id, name))
    user, token = await sessions_of(request).open(user_id, name)
    set_session_cookie(request, response, token)
    return {"token": token, "user_id": user.id, "name": user.name}


def checked_name(raw: object, hub: Hub) -> str:
    """A display name a person may take: valid (``invalid_name``) and not one of the game's
    own words or a model seat's name (``reserved_name``: accounts/reserved.py)."""
    try:
        return display_name(raw, hub.model_names())
    except ReservedName as exc:
        raise LobbyError(400, "reserved_name", str(exc), "name") from None
    except NameError_ as exc:
        raise LobbyError(400, "invalid_name", str(exc)) from None


def set_session_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=hub_of(request).settings.token_max_age,
        httponly=True,
        samesite="lax",
        path="/",
        secure=is_https(request.scope),  # https directly or behind a trusted TLS proxy
    )


@router.get("/api/me")
async def me(request: Request) -> dict[str, Any]:
    """Who the session is; ``username`` is null for a guest (docs/protocol.md "Accounts").
    Without any credentials (a first visit) that is nobody, not an error, so a browser does not
    log a failed request; credentials that do not hold are still ``401``."""
    if user_of(request) is None and not (
        request.headers.get("authorization") or request.cookies.get(COOKIE)
    ):
        return {"user_id": None, "name": None, "username": None}
    if user_of(request) is None and getattr(request.state, "token_source", None) == "cookie":
        # a cookie that no longer holds is dropped, so the page's sockets go without it (a
        # WebSocket with a credential that does not hold is refused: security.Guard)
        raise LobbyError(
            401,
            "unauthorized",
            "sign in first (POST /api/session)",
            headers={"set-cookie": _dropped_cookie(request)},
        )
    user = need_user(request)
    username = await hub_of(request).store.read(S.username_of(user.id))
    return {"user_id": user.id, "name": user.name, "username": username}


def _dropped_cookie(request: Request) -> str:
    """The ``Set-Cookie`` header that drops the session cookie."""
    response = Response()
    response.delete_cookie(COOKIE, path="/", secure=is_https(request.scope), httponly=True)
    return response.headers["set-cookie"]


@router.post("/api/logout")
async def logout(
    request: Request, response: Response, body: LogoutBody | None = None
) -> dict[str, Any]:
    """Revoke this session (``everywhere``: every session of this user) and close its sockets."""
    response.delete_cookie(COOKIE, path="/", secure=is_https(request.scope), httponly=True)
    user = user_of(request)
    if user is None or user.session is None:
        return {"revoked": 0}
    sessions = sessions_of(request)
    if body is not None and body.everywhere:
        revoked = await sessions.revoke_all(user.id)
    else:
        await sessions.revoke(user.session)
        revoked = {user.session}
    hub_of(request).sessions_ended(user.id, revoked)
    return {"revoked": len(revoked)}


@router.get("/api/rules")
async def rules() -> dict[str, Any]:
    return catalog()


@router.get("/api/limits")
async def limits(request: Request) -> dict[str, Any]:
    """The lengths this server accepts of what people type, in characters, from the one place
    each is kept (the settings' ``chat_max``, the name, password, webhook and report rules), and
    the reactions an emote-only table's chat takes during its game (``table/options.py``), so
    that a client's fields allow exactly these and keep no copy (docs/protocol.md)."""
    return {
        "chat_max": hub_of(request).settings.chat_max,
        "name_max": NAME_MAX,
        "password_min": PASSWORD_MIN,
        "password_max": PASSWORD_MAX,
        "webhook_max": URL_MAX,
        "report_max": REASON_MAX,
        # rated seats and the AFK vote (docs/competitive.md), as the catalogs' texts name them
        "rated_min_games": hub_of(request).settings.rated_min_games,
        "rated_min_hours": math.ceil(hub_of(request).settings.rated_min_age / 3600),
        "afk_after": math.ceil(hub_of(request).settings.afk_after),
        "reactions": list(REACTIONS),
        # new-player tables and rating limits (docs/competitive.md)
        "newbie_games": hub_of(request).settings.newbie_games,
        "rating_limit_range": list(table_limits.LIMIT_RANGE),
    }


@router.get("/api/talk/{lang}")
async def talk_phrases(lang: str) -> dict[str, str]:
    """The table talk's phrases in ``lang`` (``talk/phrases``, the one source), in the web
    catalog format: the client merges them into its own to render bots' lines."""
    if lang not in talk.LANGUAGES:
        raise LobbyError(404, "not_found", f"no phrases for language {brief(lang)}")
    return talk.catalog(lang)


@router.get("/api/bots")
async def bots(request: Request) -> dict[str, Any]:
    """``offered``: the levels a person may choose (bots.PLAYER_LEVELS order), as the web
    client's lobby and waiting room show them; ``levels``: every level a table may name;
    ``models``: the language models a host may seat (``llm:<name>``, the name their seats
    show), from the server's endpoints file only."""
    levels = bot_levels()
    offered = [name for name in PLAYER_LEVELS if name in levels]
    models = hub_of(request).models
    return {
        "levels": levels,
        "offered": offered,
        "default": default_level(),
        "models": models.offered() if models is not None else [],
    }


# ---------------------------------------------------------------------- lobby
@router.get("/api/tables")
async def list_tables(request: Request) -> dict[str, Any]:
    user = user_of(request)
    return {"tables": [_detail(t, user) for t in hub_of(request).public_tables()]}


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    user = need_user(request)
    addr = client_address(request.client)
    asked = body.model_dump()
    # a rated table its maker sits at: her standing and where she asks from (api/rated.py)
    rated = await rated_entry(request, user.id) if _asks_rated(asked) else None
    # a table with a rating limit its maker sits at: her rating (competition/limits.py)
    limited = table_limits.applies(None, asked.get("rating_min"), asked.get("rating_max"))
    hub = hub_of(request)
    player = await hub.store.read(table_limits.player(user.id)) if limited else None
    table = await hub.create_table(user, asked, addr, rated, player)
    return _detail(table, user)


@router.post("/api/tables/check")
async def check_table(body: CreateTable, request: Request) -> dict[str, Any]:
    """What a table of these settings would be, checked as ``POST /api/tables`` checks them,
    without making it: its ``category`` and why (``category_reasons``, the label keys of the engine's
    ``FORCED`` rows that apply), whether it would be ``rated``, and the refusal creating it
    would get (``problem``: ``{code, message, field}``, else null). The creation form shows it
    as the host chooses (one source: the server's and engine's rules, never the page's)."""
    data = body.model_dump()
    try:
        plan = hub_of(request).plan_table(user_of(request), data)
    except LobbyError as exc:
        return {
            "category": None,
            "category_reasons": [],
            "rated": False,
            "problem": {"code": exc.code, "message": exc.message, "field": exc.field},
        }
    return {**plan.category.to_json(), "rated": plan.rated, "problem": None}


def _asks_rated(body: dict[str, Any]) -> bool:
    """Whether a new table's settings ask for a rated game."""
    return bool(body.get("rated")) or body.get("category") == "rated"


def _lookup(hub: Hub, request: Request) -> None:
    """A table's detail or an invite code looked up: counted per address (``lookup_rate``),
    so that table ids and invite codes cannot be tried by the thousand."""
    hub.guard.limit(
        "too many table lookups from this address; try again later",
        ("lookup_rate", client_address(request.client)),
    )


@router.get("/api/tables/{table_id}")
async def get_table(
    table_id: str, request: Request, invite: Annotated[str | None, Query()] = None
) -> dict[str, Any]:
    hub = hub_of(request)
    user = user_of(request)
    _lookup(hub, request)
    if hub.get(table_id) is None:
        stored = await hub.store.read(lambda conn: S.load_table(conn, table_id, 0))
        if stored is None or not may_see(stored.table, user, invite, published=False):
            raise LobbyError(404, "not_found", f"no table {brief(table_id)}")
        return _stored_detail(stored, user)
    return _detail(_table(hub, table_id, user, invite), user)


@router.get("/api/invite/{code}")
async def by_invite(code: str, request: Request) -> dict[str, Any]:
    _lookup(hub_of(request), request)
    table = hub_of(request).by_invite(code)
    if table is None:
        raise LobbyError(404, "not_found", "no table has this invite code")
    detail = _detail(table, user_of(request))
    detail["invite"] = table.invite
    return detail


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, body: JoinBody, request: Request) -> dict[str, Any]:
    user = need_user(request)
    hub = hub_of(request)
    table = hub.get(table_id)
    if table is None:
        raise LobbyError(404, "not_found", f"no table {brief(table_id)}")
    if not table.public and user.id != table.host and body.invite != table.invite:
        raise LobbyError(403, "invite_required", "this table is private: the invite code is needed")
    rated = await rated_entry(request, user.id) if table.rated else None
    limited = table_limits.applies(table.kind, table.rating_min, table.rating_max)
    player = await hub.store.read(table_limits.player(user.id)) if limited else None
    await usecases.join(table, user, body.seat, moderation_of(request), rated, player)
    return _detail(table, user)


@router.post("/api/tables/{table_id}/leave")
async def leave(table_id: str, request: Request) -> dict[str, Any]:
    user = need_user(request)
    table = _table(hub_of(request), table_id, user)
    await usecases.leave(table, user)
    return _detail(table, user)


@router.post("/api/tables/{table_id}/bots")
async def add_bot(table_id: str, body: BotBody, request: Request) -> dict[str, Any]:
    user = need_user(request)
    table = _table(hub_of(request), table_id, user)
    await usecases.add_bot(table, user, body.seat, body.level)
    return _detail(table, user)


@router.delete("/api/tables/{table_id}/bots/{seat}")
async def remove_bot(table_id: str, seat: int, request: Request) -> dict[str, Any]:
    user = need_user(request)
    table = _table(hub_of(request), table_id, user)
    await usecases.remove_bot(table, user, seat)
    return _detail(table, user)


@router.post("/api/tables/{table_id}/start")
async def start(table_id: str, request: Request, body: StartBody | None = None) -> dict[str, Any]:
    user = need_user(request)
    table = _table(hub_of(request), table_id, user)
    await usecases.start(table, user, body.fill_with_bots if body is not None else None)
    return _detail(table, user)


@router.post("/api/tutorial", status_code=201)
async def create_tutorial(request: Request) -> dict[str, Any]:
    """A private tutorial table for the caller with scripted bots, started (lobby/tutorial.py)."""
    user = need_user(request)
    table = await open_tutorial(hub_of(request), user, client_address(request.client))
    return _detail(table, user)


@router.post("/api/tables/{table_id}/publish")
async def publish(
    table_id: str, request: Request, body: PublishBody | None = None
) -> dict[str, Any]:
    """The host shows (or hides again) a private table's finished game to everyone."""
    user = need_user(request)
    hub = hub_of(request)
    row = await hub.store.read(S.table_row(table_id))
    if row is None or not may_see(row, user, None, published=False):
        raise LobbyError(404, "not_found", f"no table {brief(table_id)}")
    if user.id != row["host"]:
        raise LobbyError(403, "not_host", "only the host may do this")
    published = body.published if body is not None else True
    await hub.store.write(S.set_published(table_id, published))
    return {"id": table_id, "public": row["public"], "published": published}


# ---------------------------------------------------------------------- games
@router.get("/api/games")
async def list_games(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    finished: int = 1,
    before: Annotated[float | None, Query(ge=0, le=1e11)] = None,
) -> dict[str, Any]:
    """A page of finished games, newest first; ``next`` is the ``before`` of the next page."""
    user = user_of(request)
    games = await hub_of(request).store.read(
        S.list_finished(
            limit,
            lambda row: may_see(row, user, None, published=True),
            user.id if user else None,
            before,
        )
    )
    more = len(games) == limit and games[-1].get("finished_at") is not None
    named = [{**g, **rules_named(g["rules"])} for g in games]  # their rules in words too
    return {"games": named, "next": games[-1]["finished_at"] if more else None}


@router.get("/api/games/{game_id}/record")
async def game_record(
    game_id: str, request: Request, invite: Annotated[str | None, Query()] = None
) -> dict[str, Any]:
    hub = hub_of(request)
    row = await hub.store.read(S.table_row(game_id))
    if row is None or not may_see(row, user_of(request), invite, published=True):
        raise LobbyError(404, "not_found", f"no game {brief(game_id)}")
    table = hub.get(game_id)
    live = table is not None and table.game is not None
    if live and table is not None and table.status != "finished":
        raise LobbyError(409, "game_not_finished", "the game is still being played")
    # every stored chat line (a live table keeps only its last ones): the record's talk
    stored = await hub.store.read(lambda conn: S.load_table(conn, game_id, None))
    if live and table is not None:
        record = table.record()
    else:
        if stored is None or stored.game is None:
            raise LobbyError(404, "not_found", f"no game {brief(game_id)}")
        if stored.game["status"] != "finished":
            raise LobbyError(409, "game_not_finished", "the game is still being played")
        record = stored_record(stored)
        record["id"] = game_id
    if stored is None:
        return record
    record["chat"] = [shown(row) for row in stored.chat]
    return with_talk(record, talk_section(stored.chat, len(record["actions"])))


def _stored_detail(stored: S.StoredTable, user: User | None) -> dict[str, Any]:
    row = stored.table
    member = is_member(row, user)
    g = stored.game
    hide = row.get("blind") is not None and row["status"] != "finished"
    aliases = g.get("aliases") if g is not None and row["status"] == "playing" else None
    viewer = user.id if user else None
    seats = []
    for i, s in enumerate(row["seats"]):
        d = {"seat": i, **Seat.from_json(s).to_json(), "connected": s.get("kind") == "bot"}
        if hide:
            d = masked_seat(d, aliases[i] if aliases else None, viewer == s.get("user_id"))
        seats.append(d)
    host_shown = not hide or viewer == row["host"]
    section = stored_section(row, g)
    return {
        "id": row["id"],
        "status": row["status"],
        "players": row["players"],
        "rules": row["rules"],
        **rules_named(row["rules"]),
        "public": row["public"],
        "invite": row["invite"] if member else None,
        "host": row["host"] if host_shown else None,
        "host_name": row["host_name"] if host_shown else None,
        "timer": row["timer"],
        "on_timeout": section["on_timeout"],
        "bot_level": row["bot_level"],
        "auto_start": row["auto_start"],
        "rated": bool(row.get("rated")),
        "category": section["category"],
        "category_reasons": list(stored_category(row).reasons),
        "chat": section["chat"],
        "blind": section["blind"],
        "bots_talk": bool(row.get("bots_talk", True)),
        "seats": seats,
        "spectators": 0,
        "game_id": row["id"] if g is not None else None,
        "created_at": row["created_at"],
        "winner": g["winner"] if g else None,
        "reason": g["reason"] if g else None,
        "problem": None,
        "name": row.get("name"),
        "webhook": row.get("webhook") is not None,
        "rematch": row.get("rematch"),
        "remake": None,
        "remake_result": None,
    }
