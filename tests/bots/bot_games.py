"""Playing a game with bots outside the simulator, for tests that look at each step."""

from __future__ import annotations

from collections.abc import Sequence

from secret_hitler.bots.base import Agent
from secret_hitler.engine import Game


def claims_after_a_step(game: Game, agents: Sequence[Agent]) -> None:
    """Every seat with a claim open says what its agent claims (each claim applied if still
    legal, as the table does between two moves)."""
    for s in range(game.n):
        options = [a for a in game.legal_actions(s) if a.type == "claim"]
        if options and not game.finished:
            for claim in agents[s].claims(game.view(s), options):
                if game.is_legal(claim):
                    game.apply(claim)
