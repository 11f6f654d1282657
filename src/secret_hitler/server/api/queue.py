"""The matchmaking queue over HTTP (docs/protocol.md "The queue"): join it for a player count and
a category, leave it, read one's state and the waiting counts, answer a ready check. Any node
answers (the queue is the database's: competition/queue.py); the tables are formed by one node
at a time (lobby/system.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr

from ...engine.settings import PLAYER_COUNTS
from ..competition import queue as Q
from ..competition.limits import player_rating
from ..core.errors import LobbyError
from ..core.text import brief
from ..lobby.system import CATEGORIES
from .lobby import hub_of, need_user
from .rated import rated_entry

router = APIRouter()


class JoinQueue(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: StrictInt
    category: StrictStr


class ReadyBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    match_id: StrictStr
    ready: StrictBool


async def _state(request: Request, user_id: str) -> dict[str, Any]:
    """The caller's place in the queue (``competition/queue.py`` ``state``) and the counts."""
    hub = hub_of(request)
    now = hub.clock.time()
    mine = await hub.store.read(Q.state(user_id, now, hub.settings.queue_no_show))
    counts = await hub.store.read(Q.counts())
    return {**mine, "now": now, "counts": counts, "ready_seconds": hub.settings.queue_ready}


@router.get("/api/queue")
async def queue_state(request: Request) -> dict[str, Any]:
    """The caller's state (``idle``, ``waiting``, ``check`` with its ``match``, ``seated`` with
    her ``table_id``), her no-show cooldown, and how many wait per player count and category."""
    user = need_user(request)
    return await _state(request, user.id)


@router.post("/api/queue")
async def join_queue(body: JoinQueue, request: Request) -> dict[str, Any]:
    """Join the queue for ``players`` (5-10) and ``category`` (rated or casual). A rated queue
    asks what a rated seat asks (docs/competitive.md "Rated seats") and keeps where she joined
    from, so that a table it forms has one seat per address and device."""
    user = need_user(request)
    hub = hub_of(request)
    if body.players not in PLAYER_COUNTS:
        raise LobbyError(
            400,
            "invalid_settings",
            f"players: from {PLAYER_COUNTS.start} to {PLAYER_COUNTS.stop - 1}",
            "players",
        )
    if body.category not in CATEGORIES:
        raise LobbyError(
            400,
            "invalid_settings",
            f"category: {brief(body.category)} is not one of {', '.join(CATEGORIES)}",
            "category",
        )
    admission = None
    if body.category == "rated":
        entry = await rated_entry(request, user.id)
        if entry.problem is not None:
            raise entry.problem
        admission = entry.admission.to_json()
    rating = await hub.store.read(player_rating(user.id))
    now = hub.clock.time()
    await hub.store.write(
        Q.join(
            user.id,
            user.name,
            body.players,
            body.category,
            rating.mu,
            admission,
            now,
            hub.settings.queue_no_show,
        )
    )
    return await _state(request, user.id)


@router.delete("/api/queue")
async def leave_queue(request: Request) -> dict[str, Any]:
    """Leave the queue (a ready check she is in is refilled); nothing if she was not in it."""
    user = need_user(request)
    hub = hub_of(request)
    await hub.store.write(Q.leave(user.id, hub.clock.time()))
    return await _state(request, user.id)


@router.post("/api/queue/ready")
async def answer_ready_check(body: ReadyBody, request: Request) -> dict[str, Any]:
    """Answer the ready check ``match_id``: ready, or not (she leaves the queue, a no-show)."""
    user = need_user(request)
    hub = hub_of(request)
    await hub.store.write(Q.confirm(user.id, body.match_id, body.ready, hub.clock.time()))
    return await _state(request, user.id)
