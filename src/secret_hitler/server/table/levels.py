"""The bots a table may seat: the levels this server offers and the seat a bot takes.

One place for both the hub (a new table's bots and its ``bot_level``) and the table's own
use-cases (``usecases.py``: a bot added, a seat handed to a bot, empty seats filled at the start),
so a level is checked, and a bot's seat named, the same way wherever it comes from. Every level
plays every game type (docs/bots.md "Game types"), so a level is checked against this server's
levels only, never against a table's rules.
"""

from __future__ import annotations

from ...bots import available_bots
from ...bots import default_level as bots_default_level
from ..core.errors import LobbyError
from ..core.text import brief
from .models import ModelSeats, is_model_level
from .seats import Seat


def bot_levels() -> list[str]:
    return available_bots()


def default_level() -> str:
    """Filled seats and stand-ins: the strongest level that decides within 50 ms (bots.base)."""
    return bots_default_level()


def check_level(models: ModelSeats | None, level: str, field: str = "level") -> None:
    """``LobbyError`` ``invalid_bot`` unless ``level`` is a bot level of this server; a model
    level (``llm:``) must name one of the configured endpoints (``models``)."""
    if is_model_level(level):
        offered = models.levels() if models is not None else []
        if level in offered:
            return
        known = f"models here: {', '.join(offered)}" if offered else "no model is offered here"
        raise LobbyError(400, "invalid_bot", f"{field}: no model endpoint {brief(level)}; {known}")
    levels = [lv for lv in bot_levels() if not is_model_level(lv)]
    if level not in levels:
        raise LobbyError(
            400,
            "invalid_bot",
            f"{field}: unknown level {brief(level)}; available: {', '.join(levels)}",
        )


def bot_seat(models: ModelSeats | None, seat: int, level: str) -> Seat:
    """A seat given to a bot of ``level``: "Bot N", a model's seat its display name."""
    name = models.seat_name(level, seat) if models is not None else None
    return Seat("bot", None, name or f"Bot {seat + 1}", level)
