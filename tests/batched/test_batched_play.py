"""The batches' random player: a uniform choice among the legal actions, and none without one."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from secret_hitler.batched import core as C  # noqa: E402
from secret_hitler.batched.play import random_action  # noqa: E402


def test_every_legal_action_is_chosen_equally_often_and_nothing_else() -> None:
    rng = np.random.default_rng(7)
    masks = rng.random((300, C.NUM_ACTIONS)) < rng.random((300, 1))
    masks[0] = False  # no legal action
    masks[1] = False
    masks[1, [0, 31, 32, C.NUM_ACTIONS - 1]] = True  # both words' edges
    masks[2] = True
    draws = 2000
    us = (np.arange(draws) + 0.5) / draws  # evenly spread: each action gets its share exactly
    picked = np.asarray(
        jax.jit(jax.vmap(random_action, in_axes=(None, 0)))(
            jnp.asarray(masks), jnp.asarray(np.tile(us[:, None], (1, len(masks))), jnp.float32)
        )
    )  # [draws, games]
    assert (picked[:, 0] == -1).all()
    for g in range(1, len(masks)):
        legal = np.flatnonzero(masks[g])
        if legal.size == 0:
            assert (picked[:, g] == -1).all()
            continue
        counts = np.bincount(picked[:, g], minlength=C.NUM_ACTIONS)
        assert set(np.flatnonzero(counts)) == set(legal), g
        shares = counts[legal]
        assert shares.max() - shares.min() <= 1, (g, shares)
