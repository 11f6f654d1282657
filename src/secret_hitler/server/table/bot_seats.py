"""The bots of a table's game: every bot seat's agent and every stand-in's, each under its
contract (``bots.supervised.Supervised``: the agent, its fallback, its deadline), made one way.

A seat's bot is of the seat's level (else the table's ``bot_level``), seeded from the game's
seed (``bots.supervised.seat_seed``: the same bots every time the same game is dealt, as the
simulator seeds them), told which seats people play (a seat's kind is public), and computes on
the server's bots' thread pool (``Services.bot_pool``, ``SH_BOT_THREADS``), never on the
threads that read the database or hash passwords. A language model's seat (``models.py``) takes
its endpoint's slots as the table's host's and is awaited on the event loop instead. A
stand-in (``Services.standin_level``) moves for a person whose timer ran out or who is away.
The driver (``driver.py``) decides when they are asked; how soon a level's move may leave is
the level's (``think_floor``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from ...bots import Agent, make_agent
from ...bots.base import DECISION_BUDGET_MS, STRONGEST_FIRST
from ...bots.supervised import Supervised, seat_seed, supervise
from .models import ModelSeat, Plan
from .seats import Seating
from .services import Services

T = TypeVar("T")


class BotSeats:
    """A table's bots (``bots``, by seat) and stand-ins (``standins``), for its current game."""

    def __init__(
        self,
        seating: Seating,
        services: Services,
        bot_level: str,
        log: logging.LoggerAdapter,  # type: ignore[type-arg]
    ) -> None:
        self.seating = seating
        self.bot_level = bot_level
        self.standin_level = services.standin_level
        self.timeout = services.settings.bot_timeout
        self.models = services.models  # language-model seats, if any are offered
        self.pool = services.bot_pool  # where bots compute (None: the loop's default executor)
        self.log = log
        #: how a seat's agent is made: a level of the registry (a test seats its own)
        self.make_agent: Callable[[str, int, int | None], Agent] = make_agent
        self.bots: dict[int, Supervised] = {}
        self.standins: dict[int, Supervised] = {}

    def clear(self) -> None:
        self.bots.clear()
        self.standins.clear()

    def level(self, seat: int) -> str:
        return self.seating.seats[seat].level or self.bot_level

    def seat(self, seat: int, game_seed: int | None) -> Supervised:
        """The seat's bot from now on (made anew), for the game dealt with ``game_seed``."""
        bot = self._supervised(self.level(seat), seat, seat_seed(game_seed, seat))
        if self.models is not None:  # a model seat's requests are its host's
            self.models.seat(bot.agent, self.seating.host, self.offload)
        self.bots[seat] = bot
        return bot

    def standin(self, seat: int) -> Supervised:
        """The bot that moves for the person of ``seat`` when they do not."""
        bot = self.standins.get(seat)
        if bot is None:
            bot = self.standins[seat] = self._supervised(self.standin_level, seat, None)
        return bot

    def model(self, seat: int) -> ModelSeat | None:
        """The seat's language model, if a model plays it."""
        bot = self.bots.get(seat)
        agent = None if bot is None else bot.agent
        return agent if isinstance(agent, ModelSeat) and self.models is not None else None

    def plan(self, seat: int, left: float | None, delay: float = 0.0) -> Plan | None:
        """When a model seat's ask that begins ``delay`` seconds from now ends, ``left``
        seconds of the table's timer from its beginning (``ModelSeats.plan``); None for a seat
        that is no model."""
        agent = self.model(seat)
        if agent is None or self.models is None:
            return None
        return self.models.plan(agent, left, self.timeout, delay)

    def game_over(self) -> None:
        """Each model seat's totals for the game, logged and observed (``models.py``)."""
        if self.models is not None:
            self.models.game_over(self.log, {s: bot.own for s, bot in self.bots.items()})

    async def offload(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the bots' thread pool (a bot's move: CPU work)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, functools.partial(fn, *args))

    def _supervised(self, level: str, seat: int, seed: int | None) -> Supervised:
        return supervise(
            level,
            seat,
            seed,
            people=[s.kind != "bot" for s in self.seating.seats],
            make=self.make_agent,
            timeout=self.timeout,
            offload=self.offload,
            log=self.log,
        )


#: The shortest time (seconds) a move of a level outside ``STRONGEST_FIRST`` takes to leave
#: (``search``, plug-in levels): above what such a bot thinks in nearly every decision at the
#: server, several of them thinking at once in a vote (docs/server.md, "When a bot's move
#: leaves"; ``benchmarks/bot_leave_times.py``). The levels of ``STRONGEST_FIRST`` decide within
#: ``DECISION_BUDGET_MS`` at their p99, far below half of any usual ``bot_delay``.
SLOW_THINK_FLOOR = 3.0


def think_floor(level: str) -> float:
    """The shortest delay (seconds) a bot of ``level`` may draw (``driver.BotDriver._delay``)."""
    return DECISION_BUDGET_MS / 1000 if level in STRONGEST_FIRST else SLOW_THINK_FLOOR
