"""Tournaments over HTTP (docs/protocol.md "Tournaments"): the list, a tournament's page (its
standings, rounds and bracket), creating one, signing up, checking in, withdrawing, and the
host's steps (open check-in, start now, cancel). The director (``lobby/director.py``) does the
rest; these routes write one transaction each (``competition/tournaments.py``) and wake it."""

from __future__ import annotations

import secrets
import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from ...engine.settings import MAX_PLAYERS, MIN_PLAYERS
from ..accounts.auth import NameError_, clean_name
from ..competition import scoring
from ..competition import tournament_pages as pages
from ..competition import tournaments as TN
from ..competition.eligibility import standing
from ..core.errors import LobbyError
from ..core.text import brief
from ..lobby.director import new_tournament_id
from .lobby import TIMER_MAX, hub_of, need_user
from .rated import rated_entry

router = APIRouter()

#: Open tournaments one person may host at once.
OPEN_PER_HOST = 3
#: How far ahead a tournament may start (90 days), and how long before its start check-in may
#: open (a day).
AHEAD_MAX = 90 * 86400.0
CHECKIN_MAX = 86400.0


class CreateTournament(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StrictStr
    format: StrictStr = TN.SWISS
    players: Annotated[StrictInt, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 7
    rounds: Annotated[StrictInt, Field(ge=1, le=TN.ROUNDS_MAX)] | None = None
    category: StrictStr = "casual"
    rules: StrictStr | dict[str, Any] | None = None
    timer: Annotated[StrictInt, Field(ge=1, le=TIMER_MAX)] | None = None
    scoring: StrictStr = "balanced"
    max_entrants: Annotated[StrictInt, Field(ge=MIN_PLAYERS, le=TN.ENTRANTS_MAX)] = 100
    # when it starts (seconds since the epoch) and how long before that check-in opens
    starts_at: Annotated[float, Field(allow_inf_nan=False)]
    checkin: Annotated[float, Field(ge=0, le=CHECKIN_MAX, allow_inf_nan=False)] = 900.0


def _id(tournament_id: str) -> str:
    if not TN.TOURNAMENT_ID.fullmatch(tournament_id):
        raise LobbyError(404, "not_found", f"no tournament {brief(tournament_id)}")
    return tournament_id


def _poke(request: Request) -> None:
    director = getattr(request.app.state, "director", None)
    if director is not None:
        director.poke()


@router.get("/api/tournaments")
async def list_tournaments(
    request: Request, limit: Annotated[int, Query(ge=1, le=100)] = 50
) -> dict[str, Any]:
    """The open tournaments by start, then the latest finished or cancelled ones."""
    return {"tournaments": await hub_of(request).store.read(pages.listing(limit))}


@router.post("/api/tournaments", status_code=201)
async def create_tournament(body: CreateTournament, request: Request) -> dict[str, Any]:
    """A signed-in account creates a tournament and hosts it."""
    user = need_user(request)
    hub = hub_of(request)
    now = time.time()
    found = await hub.store.read(standing(user.id, now))
    if found is None or not found.account:
        raise LobbyError(403, "needs_account", "a tournament's host needs an account")
    try:
        name = clean_name(body.name)
    except NameError_ as exc:
        raise LobbyError(400, "invalid_settings", f"name: {exc}", "name") from None
    if body.format not in TN.FORMATS:
        raise LobbyError(
            400, "invalid_settings", f"format: one of {', '.join(TN.FORMATS)}", "format"
        )
    if body.scoring not in scoring.SCORINGS:
        raise LobbyError(
            400, "invalid_settings", f"scoring: one of {', '.join(scoring.SCORINGS)}", "scoring"
        )
    if not now - 60 <= body.starts_at <= now + AHEAD_MAX:
        raise LobbyError(
            400, "invalid_settings", "starts_at: from now to 90 days ahead", "starts_at"
        )
    rounds = (body.rounds or 3) if body.format == TN.SWISS else None
    rules = body.rules or "official"
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):  # a round's tables may be of any size
        settings = {"players": n, "rules": rules, "timer": body.timer, "category": body.category}
        hub.plan_table(None, {**settings, "seat": None})
    starts = max(body.starts_at, now)
    t = TN.Tournament(
        id=new_tournament_id(),
        name=name,
        host=user.id,
        host_name=user.name,
        format=body.format,
        players=body.players,
        rounds=rounds,
        category=body.category,
        rules=rules,
        timer=body.timer,
        scoring=body.scoring,
        max_entrants=body.max_entrants,
        starts_at=starts,
        checkin=body.checkin,
        status=TN.CHECKIN if now >= starts - body.checkin else TN.SIGNUP,
        round=0,
        seed=secrets.randbits(48),
        created_at=now,
    )
    await hub.store.write(TN.create(t, OPEN_PER_HOST))
    return await _detail(request, t.id)


async def _detail(request: Request, tournament_id: str) -> dict[str, Any]:
    found = await hub_of(request).store.read(pages.detail(tournament_id))
    if found is None:
        raise LobbyError(404, "not_found", f"no tournament {brief(tournament_id)}")
    return found  # type: ignore[no-any-return]


@router.get("/api/tournaments/{tournament_id}")
async def get_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    """A tournament's page: its settings, entrants, standings, rounds with each table's seats
    and results (the bracket), champions and the points of a win."""
    return await _detail(request, _id(tournament_id))


@router.post("/api/tournaments/{tournament_id}/signup")
async def sign_up(tournament_id: str, request: Request) -> dict[str, Any]:
    """The caller signs up (checked in at once while check-in is open). A rated tournament
    takes only people who may take a rated seat now (docs/competitive.md "Rated seats")."""
    user = need_user(request)
    hub = hub_of(request)
    t = await hub.store.read(_get(_id(tournament_id)))
    TN.check_signup_open(t)  # (before the rated checks: they would not matter)
    admission = None
    if t.category == "rated":
        entry = await rated_entry(request, user.id)
        if entry.problem is not None:
            raise entry.problem
        admission = entry.admission.to_json()
    await hub.store.write(TN.sign_up(t.id, user.id, user.name, admission, time.time()))
    return await _detail(request, t.id)


@router.post("/api/tournaments/{tournament_id}/checkin")
async def check_in(tournament_id: str, request: Request) -> dict[str, Any]:
    user = need_user(request)
    await hub_of(request).store.write(TN.check_in(_id(tournament_id), user.id, time.time()))
    return await _detail(request, tournament_id)


@router.post("/api/tournaments/{tournament_id}/withdraw")
async def withdraw(tournament_id: str, request: Request) -> dict[str, Any]:
    """The caller leaves the tournament (a game she is playing goes on: leave its table to
    give it to a bot)."""
    user = need_user(request)
    await hub_of(request).store.write(TN.withdraw(_id(tournament_id), user.id))
    return await _detail(request, tournament_id)


@router.post("/api/tournaments/{tournament_id}/open-checkin")
async def open_checkin(tournament_id: str, request: Request) -> dict[str, Any]:
    """The host opens check-in now."""
    user = need_user(request)
    await hub_of(request).store.write(
        TN.set_status(_id(tournament_id), TN.CHECKIN, time.time(), user.id)
    )
    return await _detail(request, tournament_id)


@router.post("/api/tournaments/{tournament_id}/start")
async def start(tournament_id: str, request: Request) -> dict[str, Any]:
    """The host starts the tournament now: those checked in play (at least five)."""
    user = need_user(request)
    hub = hub_of(request)
    await hub.store.write(TN.start_now(_id(tournament_id), user.id, time.time(), MIN_PLAYERS))
    _poke(request)
    return await _detail(request, tournament_id)


@router.post("/api/tournaments/{tournament_id}/cancel")
async def cancel(tournament_id: str, request: Request) -> dict[str, Any]:
    """The host cancels the tournament (a game under way goes on, counting for nothing)."""
    user = need_user(request)
    await hub_of(request).store.write(
        TN.set_status(_id(tournament_id), TN.CANCELLED, time.time(), user.id)
    )
    return await _detail(request, tournament_id)


def _get(tournament_id: str) -> Any:
    def run(conn: Any) -> TN.Tournament:
        found = TN.get(conn, tournament_id)
        if found is None:
            raise LobbyError(404, "not_found", f"no tournament {brief(tournament_id)}")
        return found

    return run
