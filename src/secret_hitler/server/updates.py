"""Per-recipient update messages: what one seat (or a spectator) may know after an action.

An update carries the seat's engine view (``Game.view(seat)``) without its event log, and the new
events the engine's observer routes to that seat. Nothing here decides what a seat may see: the
engine's observer does, and ``View.SEAT_FIELDS`` says which view fields can differ between seats,
so the rest is encoded once per action for everyone.
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import Action, Game
from ..engine.actions import CLAIM, TARGETED
from ..engine.view import FIELDS, SEAT_FIELDS
from .protocol import VERSION

_DUMP = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_SHARED = tuple(f for f in FIELDS if f not in SEAT_FIELDS)
_OWN = tuple(f for f in SEAT_FIELDS if f != "events")


def public_action(action: Action) -> dict[str, Any]:
    """What everyone may know about an action: who, what type, public targets and claims."""
    if action.type == CLAIM:
        return action.to_json()
    out: dict[str, Any] = {"seat": action.seat, "type": action.type}
    if action.type in TARGETED:
        out["target"] = action.target
    return out


def build_update(
    game: Game,
    seat: int | None,
    seq: int,
    ev_from: int,
    action: Action | None,
    by: str | None,
    deadline: float | None,
) -> dict[str, Any]:
    """The ``update`` message for ``seat`` after the events from ``ev_from`` on."""
    legal = [a.to_json() for a in game.legal_actions(seat)] if seat is not None else []
    msg: dict[str, Any] = {
        "v": VERSION,
        "type": "update",
        "seq": seq,
        "events": json.loads(_DUMP(game.observer.events_since(seat, ev_from))),
        "view": game.view(seat).to_json(events=False),
        "legal": legal,
        "deadline": deadline,
        "action": None if action is None else public_action(action),
    }
    if by is not None:
        msg["by"] = by
    return msg


# ---------------------------------------------------------------------- one action, every seat
_ACTION_JSON: dict[Action, str] = {}
_ACTION_JSON_MAX = 20_000


def _action_json(action: Action) -> str:
    text = _ACTION_JSON.get(action)
    if text is None:
        text = _DUMP(action.to_json())
        if len(_ACTION_JSON) < _ACTION_JSON_MAX:
            _ACTION_JSON[action] = text
    return text


class SeatUpdates:
    """The encoded ``update`` messages of one action, built lazily per recipient (each once).

    The view fields every recipient shares are encoded once, from the spectator's view; each
    seat adds its own ``SEAT_FIELDS`` and the events the observer routes to it.
    """

    __slots__ = ("_game", "_ev_from", "_head", "_view_mid", "_tail", "_texts")

    def __init__(
        self,
        game: Game,
        seq: int,
        ev_from: int,
        action: Action | None,
        by: str | None,
        deadline: float | None,
    ) -> None:
        self._game = game
        self._ev_from = ev_from
        public = game.view(None)
        shared = {f: getattr(public, f) for f in _SHARED}
        self._head = f'{{"v":{VERSION},"type":"update","seq":{seq},"events":'
        self._view_mid = _DUMP(shared)[:-1]
        tail: dict[str, Any] = {
            "deadline": deadline,
            "action": None if action is None else public_action(action),
        }
        if by is not None:
            tail["by"] = by
        self._tail = _DUMP(tail)[1:]
        self._texts: dict[int | None, str] = {}

    def text(self, seat: int | None) -> str:
        text = self._texts.get(seat)
        if text is None:
            text = self._texts[seat] = self._build(seat)
        return text

    def _build(self, seat: int | None) -> str:
        g = self._game
        view = g.view(seat)
        events = _DUMP(g.observer.events_since(seat, self._ev_from))
        own = _DUMP({f: getattr(view, f) for f in _OWN})[1:]
        legal = ",".join(_action_json(a) for a in g.legal_actions(seat)) if seat is not None else ""
        return f'{self._head}{events},"view":{self._view_mid},{own},"legal":[{legal}],{self._tail}'
