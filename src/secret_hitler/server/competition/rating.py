"""A rated game's end: its rating (all-time and season, ``storage/ratings.py``), then the conduct
signals of its players (``signals.py``). Called by the hub when a rated table's game ends."""

from __future__ import annotations

import logging

from ...engine import Game
from ..storage.ratings import rate
from ..storage.writer import Store
from . import signals

log = logging.getLogger("secret_hitler.server.competition")


async def rate_finished(store: Store, game_id: str, game: Game | None) -> bool:
    """Rate the game (each seat's moves against its own team read from ``game``, which the
    table holds) and scan its players for conduct signals. A failed rating is left for the next
    start (``storage.ratings.catch_up``: rated without the moves against one's team); a failed
    scan is logged, the rating stays. Returns whether the game was rated now."""
    moves = signals.throws(game) if game is not None else {}
    if not await rate(store, game_id, moves):
        return False
    try:
        flagged = await store.write(signals.scan(game_id))
    except Exception:
        log.warning("conduct signals not scanned", extra={"game_id": game_id}, exc_info=True)
    else:
        if flagged:
            log.info("conduct flags raised", extra={"game_id": game_id, "flags": flagged})
    return True
