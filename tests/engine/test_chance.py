"""The deal and the deck come from ``random.Random(seed)`` exactly as the standard library's
``shuffle`` and ``randrange`` would draw them (the engine inlines the shuffle for speed)."""

from __future__ import annotations

import random

import pytest

from secret_hitler.engine import Game, Role
from secret_hitler.engine import game as engine_game
from secret_hitler.engine.settings import FASCISTS_BY_COUNT
from secret_hitler.engine.types import Policy


@pytest.mark.parametrize("players", [5, 7, 10])
def test_seeded_deal_is_the_standard_librarys(players: int) -> None:
    fascists = FASCISTS_BY_COUNT[players]
    for seed in range(300):
        rng = random.Random(seed)
        dealt = [Role.HITLER] + [Role.FASCIST] * fascists
        dealt += [Role.LIBERAL] * (players - fascists - 1)
        rng.shuffle(dealt)
        first = rng.randrange(players)
        pile = [Policy.LIBERAL] * 6 + [Policy.FASCIST] * 11
        rng.shuffle(pile)
        game = Game(players, "official", seed)
        assert game.roles == tuple(dealt)
        assert game.first_president == first
        assert game.initial_deck == tuple(pile)
        assert game._rng.random() == rng.random()  # the generator is left in the same state


def test_inline_shuffle_matches_random_shuffle() -> None:
    for seed in range(200):
        for size in (0, 1, 2, 3, 8, 17, 33, 60, 64, 65, 130):  # 65 and up: past the bit table
            a, b = list(range(size)), list(range(size))
            ra, rb = random.Random(seed), random.Random(seed)
            ra.shuffle(a)
            engine_game._shuffle(rb, b)
            assert a == b and ra.getstate() == rb.getstate()
