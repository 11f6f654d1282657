"""``Agent.fork``: a copy that goes on exactly as its original would, and shares nothing the
game changes (the search plays each candidate on with forks of the same rollout bots)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from secret_hitler.bots import Agent, make_agent
from secret_hitler.engine import Action, Game, View
from secret_hitler.sim.simulator import run_game


class _Pause(Exception):
    pass


class Until(Agent):
    """Plays like ``inner`` until the table has made ``left[0]`` decisions, then pauses it."""

    def __init__(self, inner: Agent, left: list[int]) -> None:
        super().__init__(inner.seat, inner.rng)
        self.inner, self.left = inner, left

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if self.left[0] == 0:
            raise _Pause
        self.left[0] -= 1
        return self.inner.act(view, legal)

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        return self.inner.claims(view, options)


@pytest.mark.parametrize(
    ("level", "seed"), [("rule", 3), ("rule", 8), ("bayes", 3), ("bayes", 8), ("search", 3)]
)
def test_a_fork_goes_on_like_its_original_and_shares_nothing(level: str, seed: int) -> None:
    game = Game(7, "official", seed)
    agents = [make_agent(level, s, seed * 10 + s) for s in range(7)]
    left = [40]  # decisions of the whole table before the pause: mid-game
    with pytest.raises(_Pause):
        run_game(game, [Until(a, left) for a in agents])
    assert not game.finished
    twin = game.clone()
    forks = [a.fork() for a in agents]
    assert all(type(f) is type(a) and f is not a for f, a in zip(forks, agents, strict=True))
    run_game(twin, forks)  # the forks first: anything they shared would change the originals
    run_game(game, agents)
    assert twin.to_record() == game.to_record()
