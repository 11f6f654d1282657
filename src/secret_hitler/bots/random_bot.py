"""The `random` level: uniform over the legal actions (a sanity baseline)."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Action, View
from .base import Agent, register


class RandomAgent(Agent):
    name = "random"
    needs_view = False  # the simulator then asks ``choose`` and builds no view

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return self.choose(legal)

    def choose(self, legal: Sequence[Action]) -> Action:
        # random() * k rather than randrange(k): uniform (to 2**-53) and cheaper per decision.
        return legal[int(self.rng.random() * len(legal))]


register("random", RandomAgent)
