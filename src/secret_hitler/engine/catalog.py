"""What the engine says about its rules to a client that keeps no copy of them.

The web client's rules page, board and claim tracker read this (``GET /api/rules``) instead of
tables of their own: the presets, each table size's roles and board, the tracks, which event
types are private, and which hand claims fit together; for secrethitler.io's game types, the
settings a table creation form offers (their values, defaults and the web catalogs' label keys),
every role with its party, the chat modes, who moves when a turn timer runs out, and the
categories with the one table of what forces each (engine/categories.py).
"""

from __future__ import annotations

from typing import Any

from .actions import CLAIM_CHANCELLOR_HAND, CLAIM_PRESIDENT_HAND, CLAIM_SIZES, hand_claims_fit
from .categories import (
    CATEGORIES,
    CHAT_MODES,
    FAST_TIMER_S,
    FORCED,
    ON_TIMEOUT_MODES,
    RATED_PRESETS,
)
from .errors import InvalidSettings
from .events import PRIVATE_EVENT_TYPES
from .settings import (
    AVALON,
    CHAOS_AT,
    FASCIST_TRACK,
    LIBERAL_TRACK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    REBALANCED,
    TOP_DECKING,
    Rules,
)
from .types import PARTY_OF, Reason


def tables(rules: Rules) -> dict[str, Any]:
    """Each table size these rules can play, by seat count (as a JSON key): roles and board."""
    out: dict[str, Any] = {}
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        try:
            rules.validate(n)
        except InvalidSettings:
            continue
        out[str(n)] = rules.table(n)
    return out


def _choice(name: str, values: list[Any], default: Any, multiple: bool = False) -> dict[str, Any]:
    """One game-type setting as a form offers it: its values, default, and label keys
    (``setting.NAME``, and ``setting.NAME.VALUE`` for each value of a setting that is not a
    switch)."""
    switch = values == [False, True]
    return {
        "values": values,
        "default": default,
        "multiple": multiple,
        "label": f"setting.{name}",
        "value_labels": {} if switch else {str(v): f"setting.{name}.{v}" for v in values},
    }


def game_type_settings() -> dict[str, Any]:
    """The settings of secrethitler.io's game types (docs/game-types.md), by name."""
    return {
        "avalon": _choice("avalon", list(AVALON), "off"),
        "monarchist": _choice("monarchist", [False, True], False),
        "rebalanced": _choice("rebalanced", sorted(REBALANCED), [], multiple=True),
        "top_decking": _choice("top_decking", list(TOP_DECKING), "allowed"),
    }


def categories() -> dict[str, Any]:
    """The categories, least forcing first, and the one table of what forces each."""
    return {
        "order": list(CATEGORIES),
        "labels": {c: f"category.{c}" for c in CATEGORIES},
        "forced": [
            {"setting": row.setting, "category": row.category, "label": row.label} for row in FORCED
        ],
        "fast_timer_s": FAST_TIMER_S,
        "rated_presets": list(RATED_PRESETS),
        "chat_modes": list(CHAT_MODES),
        "on_timeout_modes": list(ON_TIMEOUT_MODES),  # who moves when a turn timer runs out
    }


def catalog() -> dict[str, Any]:
    """The engine's rule facts as JSON (see the module docstring)."""
    president, chancellor = CLAIM_SIZES[CLAIM_PRESIDENT_HAND], CLAIM_SIZES[CLAIM_CHANCELLOR_HAND]
    return {
        "presets": {name: r.describe() for name, r in PRESETS.items()},
        "default": "official",
        "tables": {name: tables(r) for name, r in PRESETS.items()},
        "tracks": {"liberal": LIBERAL_TRACK, "fascist": FASCIST_TRACK, "chaos_at": CHAOS_AT},
        "settings": game_type_settings(),
        "roles": {
            role.value: {"party": party.value, "label": f"role.{role.value}"}
            for role, party in PARTY_OF.items()
        },
        "reasons": {r.value: f"gameover.reason.{r.value}" for r in Reason},
        "categories": categories(),
        "private_events": sorted(PRIVATE_EVENT_TYPES),
        # by the president's claimed liberals: the chancellor's liberal counts that fit it
        "claim_fits": {
            str(p): [c for c in range(chancellor + 1) if hand_claims_fit(p, c)]
            for p in range(president + 1)
        },
    }


__all__ = ["catalog", "categories", "game_type_settings", "tables"]
