"""Optional accounts over HTTP (docs/protocol.md "Accounts"): a guest claims a username and
password and keeps every seat and game; sign in elsewhere for a new session of the same user id;
rename, change the password, delete (games stay, anonymised). And "my games": the tables a user
sits at.

A failed sign-in says only "wrong username or password" (and costs the same whether or not the
username exists: accounts/users.py). Attempts are rate-limited per address and per username tried
from that address (guard.Guard), so a flood from other addresses cannot lock the owner out; a
username's failures from anywhere slow its next attempts down (a growing pause, ``slowdown``),
the right password still works. Claiming an account and signing in open a new session and revoke
the one the request came with (a token planted in a browser never becomes an account's).
"""

from __future__ import annotations

import asyncio
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection

from ..accounts.auth import NameError_, User, clean_name
from ..accounts.users import (
    PASSWORD_MAX,
    check_password,
    check_username,
    forget_stored,
    hash_password,
    needs_rehash,
    set_user,
    user_row,
    verify_password,
)
from ..core.errors import LobbyError
from ..core.guard import client_address
from ..core.text import skeleton
from ..lobby.hub import Hub
from ..storage import db
from ..storage.writer import Write
from ..table import usecases
from ..table.blind import UNKNOWN
from ..table.seats import Seat
from ..table.session import Table
from .lobby import checked_name, hub_of, need_user, sessions_of, set_session_cookie, user_of

router = APIRouter()
SIGNIN_FAILED = "wrong username or password"
SLOW_AFTER = 10  # failed sign-ins of a username (any address, 10 minutes) before pauses begin
SLOW_FIRST = 0.1  # seconds of the first pause; each further failure doubles it
SLOW_MAX = 5.0


class AccountBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: Any = None
    password: Any = None


class ChangeBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Any = None
    username: Any = None
    password: Any = None
    current_password: Any = None


class DeleteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: Any = None


def _limit(hub: Hub, request: Request, key: str | None) -> None:
    """Attempts per address, and per username tried from this address (never per username
    alone: anyone could then lock its owner out)."""
    addr = client_address(request.client)
    checks = [("signin_rate", addr)]
    if key is not None:
        checks.append(("signin_rate_user", f"{key}@{addr}"))
    hub.guard.limit("too many attempts; try again later", *checks)


def slowdown(failures: int) -> float:
    """Seconds to pause before checking a password of a username that failed ``failures`` times
    lately: nothing at first, then a pause that doubles up to ``SLOW_MAX``."""
    if failures < SLOW_AFTER:
        return 0.0
    return min(SLOW_MAX, SLOW_FIRST * 2.0 ** min(failures - SLOW_AFTER, 32))


async def _checked(hub: Hub, key: str, hashed: str | None, password: str) -> bool:
    """``verify_password`` after the username's pause; failures are counted for the next."""
    pause = slowdown(hub.guard.failures(key))
    if pause:
        await asyncio.sleep(pause)
    ok = await verify_password(hashed, password)
    if ok:
        hub.guard.forget_failures(key)
    else:
        hub.guard.failed(key)
    return ok


async def _new_session(request: Request, response: Response, user_id: str, name: str) -> str:
    """A new session (and cookie) for ``user_id``; the session the request came with, if any,
    is revoked everywhere (its sockets close), so a token someone planted in this browser stops
    at the moment it would have become an account's."""
    sessions = sessions_of(request)
    _, token = await sessions.open(user_id, name)
    old = user_of(request)
    if old is not None and old.session is not None:
        await sessions.revoke(old.session)
        hub_of(request).sessions_ended(old.id, {old.session})
    set_session_cookie(request, response, token)
    return token


async def _row(hub: Hub, user: User) -> dict[str, Any]:
    row = await hub.store.read(user_row(user.id))
    if row is None:
        raise LobbyError(401, "unauthorized", "sign in first (POST /api/session)")
    return row  # type: ignore[no-any-return]


async def _write_unique(hub: Hub, fn: Any) -> None:
    try:
        await hub.store.write(fn)
    except sa_exc.IntegrityError:
        raise LobbyError(409, "username_taken", "this username is taken") from None


def account_json(row: dict[str, Any]) -> dict[str, Any]:
    return {"user_id": row["id"], "name": row["name"], "username": row.get("username")}


# ---------------------------------------------------------------------- endpoints
@router.post("/api/account")
async def claim(body: AccountBody, request: Request, response: Response) -> dict[str, Any]:
    """The signed-in guest becomes an account: same user id, so every seat and game stays; the
    account gets a new session (``token``, and the cookie), the guest's is revoked."""
    user = need_user(request)
    hub = hub_of(request)
    username, key = check_username(body.username)
    password = check_password(body.password)
    _limit(hub, request, key)
    row = await _row(hub, user)
    if row.get("password_hash"):
        raise LobbyError(409, "already_claimed", "this is an account already (PATCH to change)")
    hashed = await hash_password(password)
    await _write_unique(
        hub, set_user(user.id, username=username, username_key=key, password_hash=hashed)
    )
    token = await _new_session(request, response, user.id, row["name"])
    return {"token": token, **account_json(row), "username": username}


@router.post("/api/signin")
async def signin(body: AccountBody, request: Request, response: Response) -> dict[str, Any]:
    """A new session for an account (another device, or after signing out); the session the
    request came with, if any, is revoked."""
    hub = hub_of(request)
    if not isinstance(body.username, str) or not isinstance(body.password, str):
        raise LobbyError(400, "invalid_request", "username and password: strings")
    raw = body.username[:200]
    key = skeleton(raw) if len(body.username) <= 200 else None
    _limit(hub, request, key or "?")
    row: dict[str, Any] | None = None
    if key and len(body.password) <= PASSWORD_MAX:
        try:
            exact: str | None = clean_name(raw)
        except NameError_:
            exact = None

        def find(conn: Connection) -> dict[str, Any] | None:
            """The account of this username: by its skeleton, or by the exact username (two
            accounts alike under a newer skeleton: storage migration 0007)."""
            u = db.users.c
            rows = conn.execute(
                sa.select(db.users).where(sa.or_(u.username_key == key, u.username == exact))
            ).all()
            found = sorted(rows, key=lambda r: r.username != exact)
            return dict(found[0]._mapping) if found else None

        row = await hub.store.read(find)
    hashed = row["password_hash"] if row else None
    ok = await _checked(hub, key or "?", hashed, body.password[:PASSWORD_MAX])
    if not ok or row is None:
        raise LobbyError(401, "sign_in_failed", SIGNIN_FAILED)
    if needs_rehash(row["password_hash"]):
        await hub.store.write(set_user(row["id"], password_hash=await hash_password(body.password)))
    token = await _new_session(request, response, row["id"], row["name"])
    return {"token": token, **account_json(row)}


@router.get("/api/account")
async def account(request: Request) -> dict[str, Any]:
    user = need_user(request)
    return account_json(await _row(hub_of(request), user))


@router.patch("/api/account")
async def change(body: ChangeBody, request: Request) -> dict[str, Any]:
    """Change the display name (anyone), the username or password (the current password is
    needed; a new password signs out every other session)."""
    user = need_user(request)
    hub = hub_of(request)
    row = await _row(hub, user)
    values: dict[str, Any] = {}
    if body.name is not None:
        values["name"] = checked_name(body.name, hub)
    if body.username is not None:
        values["username"], values["username_key"] = check_username(body.username)
    if body.password is not None:
        password = check_password(body.password)
    if body.username is not None or body.password is not None:
        if not row.get("password_hash"):
            raise LobbyError(409, "not_claimed", "claim an account first (POST /api/account)")
        _limit(hub, request, row["username_key"])
        current = body.current_password
        if not isinstance(current, str) or not await verify_password(
            row["password_hash"], current[:PASSWORD_MAX]
        ):
            raise LobbyError(403, "wrong_password", "current_password: wrong password")
        if body.password is not None:
            values["password_hash"] = await hash_password(password)
    if not values:
        raise LobbyError(400, "invalid_request", "nothing to change (name, username, password)")
    await _write_unique(hub, set_user(user.id, **values))
    if "name" in values:
        sessions_of(request).renamed(user.id, values["name"])
    if "password_hash" in values:
        revoked = await sessions_of(request).revoke_all(user.id, keep=user.session)
        hub.sessions_ended(user.id, revoked)
    return account_json({**row, **values})


@router.delete("/api/account")
async def delete(request: Request, body: DeleteBody | None = None) -> dict[str, Any]:
    """Delete the user: sessions revoked, the row removed, and the name in every stored table,
    game and chat line replaced by a placeholder (the games themselves stay)."""
    user = need_user(request)
    hub = hub_of(request)
    row = await _row(hub, user)
    if row.get("password_hash"):
        _limit(hub, request, row["username_key"])
        password = body.password if body is not None else None
        if not isinstance(password, str) or not await verify_password(
            row["password_hash"], password[:PASSWORD_MAX]
        ):
            raise LobbyError(403, "wrong_password", "password: wrong password")
    revoked = await sessions_of(request).revoke_all(user.id)
    await hub.store.write(forget_stored(user.id))  # first: it finds the tables by user id
    hub.sessions_ended(user.id, revoked)
    for table in list(hub.tables.values()):
        if table.is_member(user.id):  # a waiting seat freed, a playing one to a bot, renamed
            await usecases.forget_user(table, user.id)
    return {"deleted": True}


# ---------------------------------------------------------------------- my games
@router.get("/api/me/games")
async def my_games(request: Request) -> dict[str, Any]:
    """Every table the user sits at (waiting, playing, finished; private ones too), newest
    first, with whose turn it is (the engine view's ``to_act``)."""
    user = need_user(request)
    hub = hub_of(request)
    out = []
    for row in await hub.store.read(_tables_of(user.id)):
        live = hub.get(row["id"])
        seats = [Seat.from_json(s) for s in row["seats"]] if live is None else live.seats
        seat = next(
            (i for i, s in enumerate(seats) if s.kind == "human" and s.user_id == user.id), None
        )
        if seat is not None:
            out.append(_my_game(row, seats, seat, live, user.id))
    return {"games": out}


def _tables_of(user_id: str) -> Write:
    """The newest 200 tables that name ``user_id`` in their seats (waiting, playing or
    finished), with their game's result."""

    def run(conn: Connection) -> list[dict[str, Any]]:
        t, g = db.tables.c, db.games.c
        query = (
            sa.select(
                t.id,
                t.name,
                t.host_name,
                t.status,
                t.players,
                t.rules,
                t.seats,
                t.public,
                t.timer,
                t.created_at,
                t.rematch,
                t.blind,
                g.winner,
                g.reason,
            )
            .join_from(db.tables, db.games, g.id == t.id, isouter=True)
            .where(sa.cast(t.seats, sa.Text).contains(user_id, autoescape=True))
            .where(t.status.in_(("waiting", "playing", "finished")))
            .order_by(t.created_at.desc())
            .limit(200)
        )
        return [dict(r._mapping) for r in conn.execute(query)]

    return run


def _my_game(
    row: dict[str, Any], seats: list[Seat], seat: int, live: Table | None, user_id: str
) -> dict[str, Any]:
    """One of ``my_games``: the stored table as its player ``seat`` may see it, or the live
    table's state when this node holds it (its status, names and whose turn it is)."""
    # a blind table's names stay hidden until its end, here too (table/blind.py)
    hide = row["blind"] is not None and row["status"] != "finished"
    shown = [
        {"seat": i, "name": UNKNOWN if hide and i != seat else s.name, "kind": s.kind}
        for i, s in enumerate(seats)
    ]
    item = {
        "id": row["id"],
        "name": row["name"],
        "host_name": None if hide else row["host_name"],
        "status": row["status"],
        "players": row["players"],
        "preset": row["rules"] if isinstance(row["rules"], str) else row["rules"].get("preset"),
        "public": row["public"],
        "timer": row["timer"],
        "seat": seat,
        "seats": shown,
        "to_act": [],
        "your_turn": False,
        "deadline": None,
        "winner": row["winner"],
        "reason": row["reason"],
        "rematch": row["rematch"],
        "created_at": row["created_at"],
    }
    if live is not None:
        detail = live.detail(True, user_id)
        item["status"] = live.status
        item["name"] = live.name
        item["host_name"] = detail["host_name"]
        item["seats"] = [
            {"seat": d["seat"], "name": d["name"], "kind": d["kind"]} for d in detail["seats"]
        ]
        item["rematch"] = live.rematch
        g = live.game
        if g is not None and live.status == "playing":
            to_act = list(g.view(seat).to_act)
            item.update(to_act=to_act, your_turn=seat in to_act, deadline=live.deadline)
    return item
