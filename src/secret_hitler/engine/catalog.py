"""What the engine says about its rules to a client that keeps no copy of them.

The web client's rules page, board and claim tracker read this (``GET /api/rules``) instead of
tables of their own: the presets, each table size's roles and board, the tracks, which event
types are private, and which hand claims fit together.
"""

from __future__ import annotations

from typing import Any

from .actions import CLAIM_CHANCELLOR_HAND, CLAIM_PRESIDENT_HAND, CLAIM_SIZES, hand_claims_fit
from .errors import InvalidSettings
from .events import PRIVATE_EVENT_TYPES
from .settings import (
    CHAOS_AT,
    FASCIST_TRACK,
    LIBERAL_TRACK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    Rules,
)


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


def catalog() -> dict[str, Any]:
    """The engine's rule facts as JSON (see the module docstring)."""
    president, chancellor = CLAIM_SIZES[CLAIM_PRESIDENT_HAND], CLAIM_SIZES[CLAIM_CHANCELLOR_HAND]
    return {
        "presets": {name: r.describe() for name, r in PRESETS.items()},
        "default": "official",
        "tables": {name: tables(r) for name, r in PRESETS.items()},
        "tracks": {"liberal": LIBERAL_TRACK, "fascist": FASCIST_TRACK, "chaos_at": CHAOS_AT},
        "private_events": sorted(PRIVATE_EVENT_TYPES),
        # by the president's claimed liberals: the chancellor's liberal counts that fit it
        "claim_fits": {
            str(p): [c for c in range(chancellor + 1) if hand_claims_fit(p, c)]
            for p in range(president + 1)
        },
    }


__all__ = ["catalog", "tables"]
