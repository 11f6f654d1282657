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
from ..engine.types import Phase, Role
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


# ---------------------------------------------------------------------- one action, every seat
# The view fields that differ between seats (everything else is the same for every seat and for a
# spectator). ``SeatUpdates`` builds the spectator view once, encodes its shared part once, and
# adds only these per seat; ``tests/server/test_updates.py`` checks the result against
# ``build_update`` (and so against ``Game.view``) for every seat after every action.
_SEAT_KEYS = ("seat", "role", "party", "known_roles", "votes", "hand", "investigations")
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
    """The encoded ``update`` messages of one action, built lazily per seat (each seat once)."""

    __slots__ = ("_game", "_lean", "_public", "_head", "_events", "_view_mid", "_tail", "_texts")

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
        self._lean = lean = LeanGame(game)
        pub = make_view(lean, None).to_json()  # type: ignore[arg-type]
        del pub["events"]
        self._public = pub
        rules_json = _rules_json(game.rules)[1]
        shared = {k: v for k, v in pub.items() if k not in _SEAT_KEYS and k != "rules"}
        self._head = f'{{"v":{VERSION},"type":"update","seq":{seq},"events":['
        self._events = [(e.audience, _DUMP(e.to_json())) for e in game.events[ev_from:]]
        self._view_mid = f'{_DUMP(shared)[:-1]},"rules":{rules_json},'
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

    def _seat_fields(self, seat: int | None) -> dict[str, Any]:
        pub = self._public
        if seat is None:
            return {k: pub[k] for k in _SEAT_KEYS}
        g = self._game
        own = g.roles[seat]
        role = own.value
        known = list(pub["known_roles"])  # the spectator's: every role at the end, executions
        known[seat] = role
        if own is Role.FASCIST or (own is Role.HITLER and g.hitler_knows):
            for s, r in enumerate(g.roles):
                if r is not Role.LIBERAL:
                    known[s] = r.value
        phase = g.phase
        if phase is Phase.VOTE and g.rules.voting != "public_sequential":
            votes = [v if s == seat else None for s, v in enumerate(g.votes)]
        else:
            votes = pub["votes"]
        hand: list[str] = []
        if g.hand and (
            (phase is Phase.DISCARD and seat == g.president)
            or (phase in (Phase.ENACT, Phase.VETO_RESPONSE) and seat in (g.president, g.chancellor))
        ):
            hand = [p.value for p in g.hand]
        investigations = [
            [e.data["target"], e.data["party"]]
            for e in self._lean.visible_events(seat)
            if e.type == "investigation"
        ]
        return {
            "seat": seat,
            "role": role,
            "party": own.party.value,
            "known_roles": known,
            "votes": votes,
            "hand": hand,
            "investigations": investigations,
        }

    def _build(self, seat: int | None) -> str:
        g = self._game
        events = ",".join(
            text
            for audience, text in self._events
            if audience is None or (seat is not None and seat in audience)
        )
        legal = ",".join(_action_json(a) for a in g.legal_actions(seat)) if seat is not None else ""
        fields = _DUMP(self._seat_fields(seat))[1:]
        return (
            f'{self._head}{events}],"view":{self._view_mid}{fields},"legal":[{legal}],{self._tail}'
        )
