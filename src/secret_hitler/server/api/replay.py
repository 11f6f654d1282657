"""Replay viewer endpoints: the view of a finished game after any number of actions.

The rules stay in Python, so the web client asks for each step instead of replaying in the
browser. Only finished games are served: once a game is over every seat's view may be shown
(W2) to whoever may see the record (a private table's: its players and invite holders, or everyone
once its host published it).
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from ... import jsontext
from ...analysis import DEFAULT_BOT, AnalysisError, analyze
from ...engine import Action, GameError, InvalidRecord, game_from_record
from ...engine.record import parse_record
from ..core import protocol as P
from ..core.errors import LobbyError
from ..core.guard import client_address
from ..core.text import brief, json_problem
from ..storage import queries as S
from ..table.chat import CHAT_KEEP, shown
from ..table.seats import Seat, Seating
from ..table.updates import event_bounds, seat_view, table_facts, view_json
from .lobby import game_record, hub_of, user_of
from .visibility import may_see

RECORD_TEXT_MAX = 1000  # characters of any text in an uploaded record (names, chat lines)
RECORD_DEPTH_MAX = 12
ANALYSIS_SECONDS = 5.0  # an analysis that takes longer is stopped (a real game takes < 1 s)

router = APIRouter()


def _view_arg(value: str | None, players: int) -> int | None:
    if value is None or value == "spectator":
        return None
    try:
        seat = int(value)
    except ValueError:
        raise LobbyError(
            400, "invalid_request", "view must be 'spectator' or a seat number"
        ) from None
    if not 0 <= seat < players:
        raise LobbyError(400, "invalid_request", f"view: the game has seats 0 to {players - 1}")
    return seat


def replay_step(record: dict[str, Any], step: int | None, view: str | None) -> dict[str, Any]:
    """Replay ``record`` up to ``step`` actions and return the chosen view there, each event of
    its log with what the narrator tells that view of it (``told``)."""
    try:
        parsed = parse_record(record)
        game = game_from_record(record, apply_actions=False)
    except InvalidRecord as exc:
        raise LobbyError(400, "invalid_record", exc.message) from None
    actions: list[Action] = parsed.actions
    steps = len(actions)
    if step is None:
        step = steps
    if not 0 <= step <= steps:
        raise LobbyError(400, "invalid_request", f"step must be 0 to {steps}")
    seat = _view_arg(view, game.n)
    error = None
    shown: dict[str, Any] | None = None
    # The whole game is replayed: the view is taken at `step`, and `rounds` (the step at which
    # each round begins, for "jump to round") needs every step.
    rounds: list[dict[str, int]] = []
    for i, action in enumerate(actions):
        if not rounds or rounds[-1]["round"] != game.round:
            rounds.append({"round": game.round, "step": i})
        if i == step:
            shown = view_json(game.view(seat))
        try:
            game.apply(action)
        except GameError as exc:
            if i < step:
                error = {"index": i, "code": exc.code, "message": exc.message}
                step = i
                shown = view_json(game.view(seat))
            break
    if shown is None:
        shown = view_json(game.view(seat))
    last = actions[step - 1].public_json() if step > 0 else None
    game_id = record.get("id")
    return {
        "game_id": game_id if isinstance(game_id, str) and len(game_id) <= 64 else None,
        "step": step,
        "steps": steps,
        "action": last,
        "view": shown,
        "rounds": rounds,
        "error": error,
    }


@router.get("/api/games/{game_id}/replay")
async def replay_game(
    game_id: str,
    request: Request,
    step: int | None = None,
    view: str | None = None,
    invite: Annotated[str | None, Query()] = None,
) -> dict[str, Any]:
    # 404 for unknown games and private ones this caller may not see, 409 for running ones
    record = await game_record(game_id, request, invite)
    out = replay_step(record, step, view)
    out["game_id"] = game_id
    return out


@router.get("/api/games/{game_id}/welcome")
async def finished_welcome(
    game_id: str, request: Request, invite: Annotated[str | None, Query()] = None
) -> dict[str, Any]:
    """A finished game as the caller saw it from their seat, in the shape of the table socket's
    welcome (``seat``, ``view`` with the stand-in marks, ``away``, ``chat``), for the table page
    of a finished table, which the server may no longer hold: a person who comes back after the
    game ended is shown as their seat and told what their stand-in played (``seat_view``, as a
    socket's welcome). Whoever may see the record (``game_record``) may ask; each is given their
    own seat's view only (a spectator's when not seated)."""
    hub = hub_of(request)
    user = user_of(request)
    user_id = user.id if user else None
    row = await hub.store.read(S.table_row(game_id))
    if row is None or not may_see(row, user, invite, published=True):
        raise LobbyError(404, "not_found", f"no game {brief(game_id)}")
    table = hub.get(game_id)
    if table is not None and table.game is not None:
        if table.status != "finished":
            raise LobbyError(409, "game_not_finished", "the game is still being played")
        game, action_by, seat = table.game, list(table.action_by), table.seat_of(user_id)
        chat = list(table.chat.lines)
    else:
        stored = await hub.store.read(lambda conn: S.load_table(conn, game_id, CHAT_KEEP))
        if stored is None or stored.game is None:
            raise LobbyError(404, "not_found", f"no game {brief(game_id)}")
        if stored.game["status"] != "finished":
            raise LobbyError(409, "game_not_finished", "the game is still being played")
        game = game_from_record(S.record_of(stored))
        action_by = [a["by"] for a in stored.actions]
        seats = [Seat.from_json(s) for s in stored.table["seats"]]
        seat = Seating(seats, row["host"], row["host_name"], set()).seat_of(user_id)
        chat = [shown(line) for line in stored.chat]
    view, away = seat_view(game, action_by, lambda: event_bounds(game), seat)
    return {
        "v": P.VERSION,
        "type": "welcome",
        "seat": seat,
        "user_id": user_id,
        "view": view,
        "away": away,
        "legal": [],
        "deadline": None,
        "chat": chat,
        **table_facts(game, seat),
    }


async def _uploaded(request: Request) -> dict[str, Any]:
    """The record in the request body, checked for size (guard.BodyLimit), JSON and depth."""
    body = await request.body()  # at most ``max_body`` bytes (guard.BodyLimit)
    try:
        record = jsontext.loads(body)
    except jsontext.BadJson as exc:
        raise LobbyError(400, "invalid_record", f"the file is {exc}") from None
    if not isinstance(record, dict):
        raise LobbyError(400, "invalid_record", "record: must be a JSON object")
    problem = json_problem(record, RECORD_TEXT_MAX, RECORD_DEPTH_MAX)
    if problem is not None:
        raise LobbyError(400, "invalid_record", f"record: {problem}")
    return record


@router.post("/api/replay")
async def replay_upload(
    request: Request, step: int | None = None, view: str | None = None
) -> dict[str, Any]:
    return replay_step(await _uploaded(request), step, view)


def _check_analysis_rate(request: Request) -> None:
    """Analyses cost CPU: at most ``analysis_rate`` per client address (docs/security.md)."""
    hub_of(request).guard.limit(
        "too many analyses from this address; try again later",
        ("analysis_rate", client_address(request.client)),
    )


async def _analysis(record: dict[str, Any], view: str | None, bot: str | None) -> dict[str, Any]:
    """The analysis (``secret_hitler.analysis``) off the event loop, within ANALYSIS_SECONDS."""
    seat: int | None = None
    if view is not None and view != "spectator":
        try:
            seat = int(view)
        except ValueError:
            raise LobbyError(
                400, "invalid_request", "view must be 'spectator' or a seat number"
            ) from None
    deadline = time.monotonic() + ANALYSIS_SECONDS
    try:
        return await run_in_threadpool(analyze, record, seat, bot or DEFAULT_BOT, deadline=deadline)
    except AnalysisError as exc:
        raise LobbyError(exc.status, exc.code, str(exc)) from None


@router.get("/api/games/{game_id}/analysis")
async def analysis_of_game(
    game_id: str,
    request: Request,
    view: str | None = None,
    bot: str | None = None,
    invite: Annotated[str | None, Query()] = None,
) -> dict[str, Any]:
    # the record endpoint's permission check: 404 unknown or not visible, 409 still running
    record = await game_record(game_id, request, invite)
    _check_analysis_rate(request)
    out = await _analysis(record, view, bot)
    out["game_id"] = game_id
    return out


@router.post("/api/analysis")
async def analysis_upload(
    request: Request, view: str | None = None, bot: str | None = None
) -> dict[str, Any]:
    record = await _uploaded(request)
    _check_analysis_rate(request)
    return await _analysis(record, view, bot)
