"""The bots a table may seat: the levels this server offers and the seat a bot takes.

One place for both the hub (a new table's bots and its ``bot_level``) and the table's own
use-cases (``usecases.py``: a bot added, a seat handed to a bot, empty seats filled at the start),
so a level is checked, and a bot's seat named, the same way wherever it comes from.
"""

from __future__ import annotations

from ...bots import available_bots
from ...bots import default_level as bots_default_level
from ...bots.supervised import FALLBACK_LEVEL
from ...engine import Rules
from ...engine.types import Role
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


#: The levels whose role posterior covers the official roles only (``bots/beliefs.py``): they
#: cannot yet play a game that deals Merlin, Percival, Morgana or the Monarchist
#: (docs/game-types.md), so a table that deals them refuses them. Drop a level from here once
#: its posterior covers the new roles (issue 41 point 2).
OFFICIAL_ROLES_ONLY = frozenset({"bayes", "bayes-human", "search"})
OFFICIAL_ROLES = frozenset({Role.LIBERAL, Role.FASCIST, Role.HITLER})


def deals_new_roles(rules: Rules, players: int) -> bool:
    """Whether these rules deal a role beyond the official three at ``players`` seats."""
    return any(role not in OFFICIAL_ROLES for role, _ in rules.composition(players))


def plays(level: str, rules: Rules, players: int) -> bool:
    """Whether a bot of ``level`` plays a game of these rules."""
    return level not in OFFICIAL_ROLES_ONLY or not deals_new_roles(rules, players)


def check_plays(level: str, rules: Rules, players: int, field: str = "level") -> None:
    """``LobbyError`` ``bot_level_unsupported`` when a bot of ``level`` cannot play these rules."""
    if not plays(level, rules, players):
        raise LobbyError(
            400,
            "bot_level_unsupported",
            f"{field}: {level} bots do not play games with Merlin, Percival, Morgana or the "
            f"Monarchist yet; choose {FALLBACK_LEVEL}",
            field,
        )


def table_default_level(rules: Rules, players: int) -> str:
    """The level a table's bots get when its host names none: the server's default, or the
    fallback level where the default does not play these rules."""
    level = default_level()
    return level if plays(level, rules, players) else FALLBACK_LEVEL


def standin_level(level: str, rules: object, players: int) -> str:
    """The stand-in level of a table with these rules (as stored: a preset or settings):
    ``level``, or the fallback level where ``level`` does not play them."""
    try:
        parsed = Rules.from_json(rules)
        return level if plays(level, parsed, players) else FALLBACK_LEVEL
    except Exception:  # (never stored so: checked when the table was made) the safe level
        return FALLBACK_LEVEL


def playable_levels(rules: object, players: object) -> dict[str, object]:
    """The levels that play these rules (as a client wrote them) at ``players`` seats, and
    the default among them: ``{"bot_levels": [...], "bot_level": ...}``; every level and the
    server's default where the rules or the count are not valid (their refusal says why)."""
    levels = bot_levels()
    every: dict[str, object] = {"bot_levels": levels, "bot_level": default_level()}
    if not isinstance(players, int):
        return every
    try:
        parsed = Rules.from_json(rules or "official")
        parsed.validate(players)
    except Exception:  # any refusal of the rules: creating the table names it
        return every
    return {
        "bot_levels": [level for level in levels if plays(level, parsed, players)],
        "bot_level": table_default_level(parsed, players),
    }
