"""Tables that look after themselves (docs/protocol.md "Hosting"): the host names the table, frees or
hands to a bot an offline seat, removes someone from a waiting table; "rematch" opens a new table
with the same people and settings; a remake vote deals the game anew in its first rounds.

Each route parses, authenticates and calls one use-case: ``table/usecases.py`` (settings, seats,
rematch, the vote to replace an absent player), ``table/remake.py`` (the remake vote),
``lobby/rematch.py`` (a rematch of a stored table).
(The host role passing on and the closing of abandoned waiting tables are in lobby/hub.py,
Hub._sweep.)
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr

from ..core.guard import client_address
from ..lobby import rematch as rematches
from ..table import remake as remakes
from ..table import usecases
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


class AfkBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: StrictInt
    vote: StrictBool = True


@router.patch("/api/tables/{table_id}")
async def settings(table_id: str, body: TableSettings, request: Request) -> dict[str, Any]:
    """The host names the table, sets (``""``: removes) its webhook, or turns the bots' talk
    on or off (at once, also during a game)."""
    user = need_user(request)
    hub = hub_of(request)
    table = _table(hub, table_id, user)
    name, webhook = hub.check_table_settings(body.model_dump(exclude_none=True))
    change: usecases.SettingsChange = {}
    if body.name is not None:
        change["name"] = name
    if body.webhook is not None:
        change["webhook"] = webhook
    if body.bots_talk is not None:
        change["bots_talk"] = body.bots_talk
    await usecases.change_settings(table, user, change)
    return _detail(table, user)


@router.post("/api/tables/{table_id}/seats/{seat}")
async def seat(table_id: str, seat: int, body: SeatBody, request: Request) -> dict[str, Any]:
    """The host frees a seat (``to: empty``, waiting tables: removes that person) or gives it to
    a bot (``to: bot``; during a game only a seat whose player is offline)."""
    user = need_user(request)
    table = _table(hub_of(request), table_id, user)
    await usecases.hand_seat(table, user, seat, body.to, body.level)
    return _detail(table, user)


@router.post("/api/tables/{table_id}/rematch", status_code=201)
async def rematch(table_id: str, request: Request) -> dict[str, Any]:
    """After the game: a new table with the same people (in the same seats), bots and settings,
    hosted by whoever asks first; it starts when its host starts it. Asking again gives the
    same table."""
    user = need_user(request)
    hub = hub_of(request)
    addr = client_address(request.client)
    if hub.get(table_id) is None:  # a finished table the hub no longer holds (or a restart)
        new = await rematches.rematch_stored(hub, table_id, user, addr)
    else:
        new = await rematches.rematch(hub, _table(hub, table_id, user), user, addr)
    return _detail(new, user)


@router.post("/api/tables/{table_id}/remake")
async def remake(table_id: str, request: Request, body: RemakeBody | None = None) -> dict[str, Any]:
    """Vote (anonymously) to deal the game anew; the first vote opens the poll. It passes when
    more than half of the living people at the table say yes within ``remake_window`` seconds,
    if it is still before the first policy and at least two people can vote (people: the
    players who voted from one address are one, ``remake.people``)."""
    user = need_user(request)
    table = _table(hub_of(request), table_id, user)
    yes = body.vote if body is not None else True
    passed = await remakes.vote(table, user.id, yes, client_address(request.client))
    detail = _detail(table, user)
    detail["remade"] = passed
    return detail


@router.post("/api/tables/{table_id}/afk")
async def afk(table_id: str, body: AfkBody, request: Request) -> dict[str, Any]:
    """Vote (anonymously) to hand an absent player's seat to a bot for good; the first vote
    opens the poll. It passes when more than half of the other living people at the table say
    yes (people: the players who voted from one address are one) while she is still absent
    (``table/afk.py``); at a rated table her game then counts as left."""
    user = need_user(request)
    table = _table(hub_of(request), table_id, user)
    addr = client_address(request.client)
    passed = await usecases.afk_vote(table, user, body.seat, body.vote, addr)
    detail = _detail(table, user)
    detail["replaced"] = passed
    return detail
