"""Tables that look after themselves (docs/protocol.md "Hosting"): the host names the table, frees or
hands to a bot an offline seat, removes someone from a waiting table; "rematch" opens a new table
with the same people and settings; a remake vote deals the game anew in its first rounds.

(The host role passing on and the closing of abandoned waiting tables are in lobby/hub.py, Hub._sweep.)
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr
from sqlalchemy import Connection

from ..accounts.auth import User
from ..core.errors import LobbyError
from ..core.guard import UNKNOWN_ADDRESS, client_address
from ..core.text import brief
from ..lobby.hub import Hub
from ..storage import db
from ..storage import queries as S
from ..storage.writer import Write
from ..table.seats import Seat
from ..table.session import Table
from .lobby import _detail, _table, hub_of, need_user

router = APIRouter()


class TableSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StrictStr | None = None
    webhook: StrictStr | None = None  # "" removes it
    bots_talk: StrictBool | None = None  # the bots' table talk, on or off


class SeatBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to: Literal["empty", "bot"]
    level: StrictStr | None = None


class RemakeBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    vote: StrictBool = True


def _host(table: Table, user: User) -> None:
    if user.id != table.host:
        raise LobbyError(403, "not_host", "only the host may do this")


@router.patch("/api/tables/{table_id}")
async def settings(table_id: str, body: TableSettings, request: Request) -> dict[str, Any]:
    """The host names the table, sets (``""``: removes) its webhook, or turns the bots' talk
    on or off (at once, also during a game)."""
    user = need_user(request)
    hub = hub_of(request)
    table = _table(hub, table_id, user)
    name, webhook = hub.check_table_settings(body.model_dump(exclude_none=True))
    async with table.lock:
        _host(table, user)
        if body.name is not None:
            table.name = name
        if body.webhook is not None:
            table.webhook = webhook
        if body.bots_talk is not None:
            table.bots_talk = body.bots_talk
        await table.persist()
        table.broadcast_table()
    return _detail(table, user)


@router.post("/api/tables/{table_id}/seats/{seat}")
async def seat(table_id: str, seat: int, body: SeatBody, request: Request) -> dict[str, Any]:
    """The host frees a seat (``to: empty``, waiting tables: removes that person) or gives it to
    a bot (``to: bot``; during a game only a seat whose player is offline)."""
    user = need_user(request)
    hub = hub_of(request)
    table = _table(hub, table_id, user)
    async with table.lock:
        _host(table, user)
        if not 0 <= seat < table.players:
            raise LobbyError(400, "bad_seat", f"seat: {seat} is not at this table")
        s = table.seats[seat]
        if s.kind != "human" or s.user_id is None:
            raise LobbyError(409, "bad_seat", f"seat {seat} holds no player")
        if s.user_id == user.id:
            raise LobbyError(409, "bad_seat", "leave the table to give up your own seat")
        level = body.level or table.bot_level
        hub.check_level(level)
        removed = False
        if table.status == "waiting":
            if body.to == "empty":
                table.seats[seat] = Seat()
                removed = s.user_id not in table.removed
                table.removed.add(s.user_id)  # not back at this table by themselves
            elif table.rated:
                raise LobbyError(409, "rated_table", "a rated table is for people only: no bots")
            else:
                table.seats[seat] = hub.bot_seat(seat, level)
        elif table.status == "playing":
            if body.to == "empty":
                raise LobbyError(409, "not_waiting", "during a game a seat can go to a bot only")
            if table.connected(seat):
                raise LobbyError(409, "player_online", f"seat {seat}'s player is connected")
            table.seat_to_bot(seat)
        else:
            raise LobbyError(409, "game_over", "the game is over")
        try:
            await table.persist()  # (the removal is stored with the table: migration 0006)
        except Exception:
            if removed:
                table.removed.discard(s.user_id)  # not stored: nothing changed
            raise
        table.reseat(s.user_id)
        table.broadcast_table()
        table.log.info("seat freed by host", extra={"seat": seat, "to": body.to})
    return _detail(table, user)


@router.post("/api/tables/{table_id}/rematch", status_code=201)
async def rematch(table_id: str, request: Request) -> dict[str, Any]:
    """After the game: a new table with the same people (in the same seats), bots and settings,
    hosted by whoever asks first; it starts when its host starts it. Asking again gives the
    same table."""
    user = need_user(request)
    hub = hub_of(request)
    if hub.get(table_id) is None:  # a finished table the hub no longer holds (or a restart)
        return await _rematch_stored(hub, table_id, user, request)
    table = _table(hub, table_id, user)
    async with table.lock:
        if table.seat_of(user.id) is None:
            raise LobbyError(403, "not_seated", "only the players of this game may ask")
        if table.status != "finished":
            raise LobbyError(409, "game_not_finished", "the game is still being played")
        if table.rematch is not None:
            existing = hub.get(table.rematch)
            if existing is not None:
                return _detail(existing, user)
        new = await hub.open_rematch(table.row(), user, client_address(request.client))
        table.rematch = new.id
        await table.persist()
        table.broadcast_table()
    return _detail(new, user)


_STORED_REMATCH = asyncio.Lock()  # one stored table's rematch at a time (they are rare)


async def _rematch_stored(hub: Hub, table_id: str, user: User, request: Request) -> dict[str, Any]:
    """Rematch of a finished table known only to the database: the same checks, and the new
    table's id is stored on the old row only if no rematch was stored first."""
    async with _STORED_REMATCH:
        row = await hub.store.read(S.table_row(table_id))
        seated = row is not None and any(
            s.get("kind") == "human" and s.get("user_id") == user.id for s in row["seats"]
        )
        if row is None or not (row["public"] or seated or user.id == row["host"]):
            raise LobbyError(404, "not_found", f"no table {brief(table_id)}")
        if not seated:
            raise LobbyError(403, "not_seated", "only the players of this game may ask")
        if row["status"] != "finished":
            raise LobbyError(409, "game_not_finished", "the game is still being played")
        if row.get("rematch") is not None:
            existing = hub.get(row["rematch"])
            if existing is not None:
                return _detail(existing, user)
        new = await hub.open_rematch(row, user, client_address(request.client))
        await hub.store.write(_set_rematch(table_id, new.id))
    return _detail(new, user)


def _set_rematch(table_id: str, new_id: str) -> Write:
    def run(conn: Connection) -> None:
        t = db.tables
        conn.execute(t.update().where(t.c.id == table_id).values(rematch=new_id))

    return run


# ---------------------------------------------------------------------- remake
def _voters(table: Table) -> set[str]:
    """The living human players (their user ids): who may vote on a remake."""
    g = table.game
    assert g is not None
    alive = g.view(None).alive
    return {
        s.user_id
        for i, s in enumerate(table.seats)
        if s.kind == "human" and s.user_id is not None and alive[i]
    }


REMAKE_PEOPLE = 2  # a remake needs this many living people at the table (not one among bots)


def _people(users: set[str], voted_from: dict[str, str]) -> int:
    """How many people ``users`` are: sessions that voted from one address are one person (a
    lone player's second guest session is not a second voter; nor are two people behind one
    address, who cannot be told apart). A user who has not voted counts as one person."""
    addresses = {voted_from[u] for u in users if u in voted_from}
    return len(addresses) + sum(u not in voted_from for u in users)


def _remake_refusal(
    table: Table, voters: set[str], voted_from: dict[str, str]
) -> LobbyError | None:
    """Why a remake may not happen now (checked when the poll opens and at every vote): a policy
    was enacted, or fewer than two people could vote (a lone person among bots, with one session
    or several, could otherwise deal again and again until the deal suits them)."""
    g = table.game
    assert g is not None
    view = g.view(None)  # the first rounds: until the first policy is enacted
    if view.liberal_policies or view.fascist_policies:
        return LobbyError(409, "too_late", "a remake may be called only before the first policy")
    if _people(voters, voted_from) < REMAKE_PEOPLE:
        return LobbyError(
            409,
            "remake_needs_people",
            "a remake needs at least two people at the table (sessions that vote from one "
            "address count as one)",
        )
    return None


@router.post("/api/tables/{table_id}/remake")
async def remake(table_id: str, request: Request, body: RemakeBody | None = None) -> dict[str, Any]:
    """Vote (anonymously) to deal the game anew; the first vote opens the poll. It passes when
    more than half of the living people at the table say yes within ``remake_window`` seconds,
    if it is still before the first policy and at least two people can vote (people: the
    players who voted from one address are one, ``_people``)."""
    user = need_user(request)
    hub = hub_of(request)
    table = _table(hub, table_id, user)
    yes = body.vote if body is not None else True
    addr = client_address(request.client)
    async with table.lock:
        g = table.game
        if table.status != "playing" or g is None:
            raise LobbyError(409, "not_playing", "there is no game being played")
        voters = _voters(table)
        if user.id not in voters:
            raise LobbyError(403, "not_a_voter", "only living human players may vote")
        loop = asyncio.get_running_loop()
        poll = table.remake
        if poll is not None and loop.time() >= poll["ends"]:
            poll = table.remake = None
        if poll is None:
            refusal = _remake_refusal(table, voters, {user.id: addr})
            if refusal is not None:
                raise refusal
            if not yes:
                raise LobbyError(409, "no_vote", "no remake vote is open")
            window = hub.settings.remake_window
            poll = table.remake = {
                "yes": set(),
                "no": set(),
                "from": {},  # user id -> the address of her last vote (not shown to anyone)
                "needed": 0,
                "ends": loop.time() + window,
                "ends_at": round(time.time() + window, 3),
            }
            loop.call_later(window + 0.01, _close_poll, table, poll)
        poll["yes" if yes else "no"].add(user.id)
        poll["no" if yes else "yes"].discard(user.id)
        if addr != UNKNOWN_ADDRESS:
            poll["from"][user.id] = addr
        # people, not sessions: those who voted from one address count once
        poll["needed"] = _people(voters, poll["from"]) // 2 + 1
        passed = _people(poll["yes"] & voters, poll["from"]) >= poll["needed"]
        if (refusal := _remake_refusal(table, voters, poll["from"])) is not None:
            # the game went on while the poll was open, or its voters are one person: it fails
            table.remake = None
            table.remake_result = _result(poll, False)
            table.broadcast_table()
            raise refusal
        if passed:
            table.remake = None
            table.remake_result = _result(poll, True)
            table.log.info("remake passed")
            await table.start_game(remake=True)
        else:
            table.broadcast_table()
    detail = _detail(table, user)
    detail["remade"] = passed
    return detail


def _result(poll: dict[str, Any], passed: bool) -> dict[str, Any]:
    """How a closed remake vote went (counts only: the vote is anonymous)."""
    return {
        "passed": passed,
        "yes": len(poll["yes"]),
        "no": len(poll["no"]),
        "needed": poll["needed"],
        "at": round(time.time(), 3),
    }


def _close_poll(table: Table, poll: dict[str, Any]) -> None:
    if table.remake is poll:
        table.remake = None
        table.remake_result = _result(poll, False)
        table.broadcast_table()
