"""The `random` level: uniform over the legal actions (a sanity baseline)."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Action, View
from .base import Agent, register


class RandomAgent(Agent):
    name = "random"

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


register("random", RandomAgent)
