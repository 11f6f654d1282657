"""Moderation over HTTP: reports and blocklists (docs/protocol.md "Moderation"); the checks
themselves are ``lobby.moderation``."""

from __future__ import annotations

import time
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from sqlalchemy.engine import Connection

from ..core import protocol as P
from ..core.errors import LobbyError
from ..core.guard import client_address
from ..core.text import brief
from ..lobby.moderation import REASON_MAX, REPORTS_PER_DAY, Moderation
from ..storage import db
from ..storage import queries as S
from ..storage.writer import Store
from ..table.chat import clean_chat
from .visibility import may_see

router = APIRouter()


class ReportBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: StrictStr = Field(max_length=32)
    reason: StrictStr = Field(max_length=4 * REASON_MAX)
    game: StrictStr | None = Field(default=None, max_length=32)
    moment: Annotated[StrictInt, Field(ge=0, le=100_000)] | None = None


class BlockBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: StrictStr = Field(max_length=32)


def moderation_of(request: Request) -> Moderation:
    return request.app.state.moderation  # type: ignore[no-any-return]


def _need_user(request: Request) -> str:
    user = getattr(request.state, "user", None)
    if user is None:
        raise LobbyError(401, "unauthorized", "sign in first (POST /api/session)")
    return str(user.id)


def _user_exists(conn: Connection, user_id: str) -> bool:
    return (
        conn.execute(sa.select(db.users.c.id).where(db.users.c.id == user_id)).first() is not None
    )


@router.post("/api/reports", status_code=201)
async def report(body: ReportBody, request: Request) -> dict[str, Any]:
    """Report a player, optionally at a moment (an action index) of a game. Rate-limited before
    anything is looked up, and a game the reporter may not see is answered as one that does not
    exist: a report tells nothing of private games."""
    me = _need_user(request)
    hub = request.app.state.hub
    hub.guard.limit(
        "too many reports; try again later",
        ("report_rate", "a:" + client_address(request.client)),
        ("report_rate", "u:" + me),
    )
    try:
        reason = clean_chat(body.reason, REASON_MAX)
    except P.ProtocolError:
        raise LobbyError(
            400, "invalid_request", f"reason: 1-{REASON_MAX} characters of visible text"
        ) from None
    if body.player == me:
        raise LobbyError(400, "invalid_request", "player: you cannot report yourself", "player")
    if body.moment is not None and body.game is None:
        raise LobbyError(400, "invalid_request", "moment: give the game too", "moment")
    now = time.time()
    user = request.state.user

    def check(conn: Connection) -> tuple[int, str, str, str | None] | None:
        """Why the report is refused (status, code, message, the refused field), or None."""
        r = db.reports.c
        recent = conn.execute(
            sa.select(sa.func.count()).where(r.reporter == me, r.created_at >= now - 86400)
        ).scalar_one()
        if recent >= REPORTS_PER_DAY:
            return 429, "rate_limited", f"at most {REPORTS_PER_DAY} reports a day", None
        if not _user_exists(conn, body.player):
            return 404, "not_found", f"no player {brief(body.player)}", "player"
        if body.game is not None:
            row = S.table_row(body.game)(conn)
            count = conn.execute(
                sa.select(db.games.c.action_count).where(db.games.c.id == body.game)
            ).scalar()
            if row is None or count is None or not may_see(row, user, None, published=True):
                return 404, "not_found", f"no game {brief(body.game)}", "game"
            if body.moment is not None and body.moment > count:
                return 400, "invalid_request", "moment: the game has no such moment", "moment"
        return None

    store: Store = hub.store
    refused = await store.read(check)
    if refused is not None:
        raise LobbyError(*refused)

    def run(conn: Connection) -> int:
        result = conn.execute(
            db.reports.insert().values(
                reporter=me,
                target=body.player,
                game_id=body.game,
                moment=body.moment,
                reason=reason,
                created_at=now,
            )
        )
        key = result.inserted_primary_key
        assert key is not None
        return int(key[0])

    report_id = await store.write(run)
    return {"id": report_id}


@router.get("/api/blocks")
async def list_blocks(request: Request) -> dict[str, Any]:
    me = _need_user(request)
    ids = sorted(b for u, b in moderation_of(request).blocks if u == me)

    def run(conn: Connection) -> dict[str, str]:
        u = db.users.c
        return {r.id: r.name for r in conn.execute(sa.select(u.id, u.name).where(u.id.in_(ids)))}

    names = await request.app.state.hub.store.read(run) if ids else {}
    return {"blocked": [{"user_id": i, "name": names.get(i)} for i in ids]}


@router.post("/api/blocks", status_code=201)
async def add_block(body: BlockBody, request: Request) -> dict[str, Any]:
    me = _need_user(request)
    if body.player == me:
        raise LobbyError(400, "invalid_request", "player: you cannot block yourself")
    store: Store = request.app.state.hub.store
    if not await store.read(lambda conn: _user_exists(conn, body.player)):
        raise LobbyError(404, "not_found", f"no player {brief(body.player)}")
    await moderation_of(request).block(me, body.player)
    return {"blocked": body.player}


@router.delete("/api/blocks/{player}")
async def remove_block(player: str, request: Request) -> dict[str, Any]:
    me = _need_user(request)
    if not await moderation_of(request).unblock(me, player[:64]):
        raise LobbyError(404, "not_found", f"{brief(player)} is not on your blocklist")
    return {"unblocked": player}
