"""Seasons and standing over HTTP (docs/protocol.md "Seasons"): the seasons, a season's ladder,
and whether the caller may take a rated seat now. The AFK vote is a table's (api/hosting.py);
a profile's seasons come with it (api/ratings.py)."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from ..competition import seasons as SZ
from ..competition.eligibility import RatedRules, standing, summary
from ..core.errors import LobbyError
from ..core.text import brief
from ..storage.writer import Store
from .lobby import need_user

router = APIRouter()


def _store(request: Request) -> Store:
    return request.app.state.hub.store  # type: ignore[no-any-return]


@router.get("/api/seasons")
async def list_seasons(request: Request) -> dict[str, Any]:
    """Every season, newest first, each with its state (``upcoming``, ``current``, ``past``);
    ``current``: the id of the season in force, or null."""
    now = time.time()
    seasons = await _store(request).read(SZ.list_seasons())
    shown = [s.to_json(now) for s in reversed(seasons)]
    current = next((s["id"] for s in shown if s["state"] == "current"), None)
    return {"seasons": shown, "current": current}


@router.get("/api/seasons/{season_id}/ladder")
async def season_ladder(
    season_id: str,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=SZ.LADDER_MAX)] = 50,
) -> dict[str, Any]:
    """A season's ladder: its placed players, best first, and how many are still placing."""
    if not SZ.SEASON_ID.fullmatch(season_id):
        raise LobbyError(404, "not_found", f"no season {brief(season_id)}")
    found = await _store(request).read(SZ.ladder(season_id, limit, time.time()))
    if found is None:
        raise LobbyError(404, "not_found", f"no season {brief(season_id)}")
    return found  # type: ignore[no-any-return]


@router.get("/api/me/standing")
async def my_standing(request: Request) -> dict[str, Any]:
    """Whether the caller may take a rated seat now, and if not why (the refusal's code), with
    the numbers behind it: her account, when it is old enough, her finished games, her recent
    leaves and the end of her cooldown."""
    user = need_user(request)
    hub = request.app.state.hub
    now = time.time()
    found = await hub.store.read(standing(user.id, now))
    return summary(found, RatedRules.of(hub.settings), now)
