"""Bot levels that fail, for the supervision tests: the server imports this module when
``SH_BOT_MODULES=fault_bots`` (with ``tests/server`` on its ``PYTHONPATH``)."""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Sequence

from secret_hitler.bots.base import Agent, available_bots, default_level, register
from secret_hitler.engine import Action, View


class Raising(Agent):
    """Raises on every decision and every claim."""

    name = "raising"

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        raise RuntimeError("raising bot: act")

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        raise RuntimeError("raising bot: claims")


class Slow(Agent):
    """Thinks for a second (longer than the tests' SH_BOT_TIMEOUT), then plays the first move."""

    name = "slow"

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        time.sleep(1.0)
        return legal[0]


class Seated(Agent):
    """Plays the first legal move and logs what the server told it of the seats."""

    name = "seated"

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[0]

    def seated_with(self, people: Sequence[bool]) -> None:
        logging.getLogger("secret_hitler").warning(
            "seat %d seated with people at %s", self.seat, [s for s, p in enumerate(people) if p]
        )


def _unbuildable(seat: int, rng: random.Random) -> Agent:
    raise RuntimeError("unbuildable bot")


available_bots()  # load the built-in levels first, so that the override below wins
register("raising", Raising)
register("unbuildable", _unbuildable)
register("slow", Slow)
register("seated", Seated)
if os.environ.get("SH_TEST_RAISING_STANDIN"):
    register(default_level(), Raising)  # the stand-in level of absent players
