"""Bots: agents that act on a seat's view, and the registry of named bot levels."""

from .base import Agent, available_bots, bot_problem, make_agent, register

__all__ = ["Agent", "available_bots", "bot_problem", "make_agent", "register"]
