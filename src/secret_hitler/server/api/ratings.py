"""Ratings over HTTP: the leaderboard and player profiles, with their seasons (docs/protocol.md
"Ratings")."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from ... import ratings as R
from ..competition.seasons import player_seasons
from ..core.errors import LobbyError
from ..core.text import brief
from ..storage.ratings import PERIODS, leaderboard, profile
from ..storage.writer import Store

router = APIRouter()


@router.get("/api/leaderboard")
async def get_leaderboard(
    request: Request,
    period: Annotated[str, Query(max_length=16)] = "all",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    if period not in PERIODS:
        raise LobbyError(
            400, "invalid_request", f"period: {brief(period)} is not one of week, month, all"
        )
    store: Store = request.app.state.hub.store
    players = await store.read(leaderboard(period, limit, time.time()))
    return {"period": period, "players": players, "bots": R.bot_ratings()}


@router.get("/api/players/{user_id}")
async def get_player(user_id: str, request: Request) -> dict[str, Any]:
    if len(user_id) > 32:
        raise LobbyError(404, "not_found", f"no player {brief(user_id)}")
    store: Store = request.app.state.hub.store
    now = time.time()

    def read(conn: Any) -> dict[str, Any] | None:
        found: dict[str, Any] | None = profile(user_id)(conn)
        if found is not None:  # her seasons, newest first (competition/seasons.py)
            found["seasons"] = player_seasons(conn, user_id, now)
        return found

    found: dict[str, Any] | None = await store.read(read)
    if found is None:
        raise LobbyError(404, "not_found", f"no player {brief(user_id)}")
    return found
