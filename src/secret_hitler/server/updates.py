"""Per-seat update messages: what one seat may know after an action, built and encoded fast.

An update carries the seat's engine view (``Game.view(seat)``) without its event log, and the new
events addressed to that seat. ``make_view`` derives a few fields from the seat's events
(investigation results, roles revealed at executions); rebuilding the whole event log for every
seat after every action would cost more than everything else, so the view is built from a lean
stand-in of the game that lists only those events. The tests compare every update with the
engine's own full view, so any drift shows up there.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..engine import Action, Game, Rules
from ..engine.actions import CLAIM, TARGETED
from ..engine.view import make_view
from .protocol import VERSION

_VIEW_SOURCES = frozenset({"investigation", "executed"})
_DUMP = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@lru_cache(maxsize=256)
def _rules_json(rules: Rules) -> tuple[dict[str, Any], str]:
    described = rules.describe()
    return described, _DUMP(described)


class _CachedRules:
    """A game's rules whose ``describe()`` is computed once."""

    __slots__ = ("_rules",)

    def __init__(self, rules: Rules) -> None:
        self._rules = rules

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def describe(self) -> dict[str, Any]:
        return _rules_json(self._rules)[0]


class LeanGame:
    """The game as ``make_view`` sees it, with only the events the view's fields come from."""

    __slots__ = ("_game", "_events", "rules")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._events = [e for e in game.events if e.type in _VIEW_SOURCES]
        self.rules = _CachedRules(game.rules)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def visible_events(self, seat: int | None) -> list[Any]:
        return [e for e in self._events if e.visible_to(seat)]


def lean_view(game: Game, seat: int | None, lean: LeanGame | None = None) -> dict[str, Any]:
    """``game.view(seat).to_json()`` without ``events``."""
    view = make_view(lean or LeanGame(game), seat).to_json()  # type: ignore[arg-type]
    del view["events"]
    return view


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
    lean: LeanGame | None = None,
) -> dict[str, Any]:
    """The ``update`` message for ``seat`` after the events from ``ev_from`` on."""
    events = [
        e.to_json()
        for e in game.events[ev_from:]
        if e.audience is None or (seat is not None and seat in e.audience)
    ]
    legal = [a.to_json() for a in game.legal_actions(seat)] if seat is not None else []
    msg: dict[str, Any] = {
        "v": VERSION,
        "type": "update",
        "seq": seq,
        "events": events,
        "view": lean_view(game, seat, lean),
        "legal": legal,
        "deadline": deadline,
        "action": None if action is None else public_action(action),
    }
    if by is not None:
        msg["by"] = by
    return msg


def encode_update(msg: dict[str, Any], rules: Rules) -> str:
    """JSON text of an update, reusing the encoded rules (the same in every view of a game)."""
    view = msg["view"]
    if view.get("rules") is not _rules_json(rules)[0]:
        return _DUMP(msg)
    body = {k: v for k, v in msg.items() if k != "view"}
    rest = {k: v for k, v in view.items() if k != "rules"}
    return f'{_DUMP(body)[:-1]},"view":{_DUMP(rest)[:-1]},"rules":{_rules_json(rules)[1]}}}}}'
