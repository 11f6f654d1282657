"""Bots: agents that act on a seat's view, and the registry of named bot levels."""

from .base import (
    PLAYER_LEVELS,
    Agent,
    available_bots,
    bot_problem,
    default_level,
    make_agent,
    register,
)

__all__ = [
    "PLAYER_LEVELS",
    "Agent",
    "available_bots",
    "bot_problem",
    "default_level",
    "make_agent",
    "register",
]
