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


def test_deals_first_presidents_and_decks_are_uniform() -> None:
    """``init`` draws from four words of each key: every one of the 105 deals of 7 seats comes
    up about equally often, as does every first president, and each deck holds the preset's
    policies with a fascist at any position 11 times in 17."""
    games = 105 * 200
    st = C.Env(7, "official").init(jax.random.split(jax.random.key(5), games))
    roles = np.asarray(st.roles)[:, :7]
    assert ((roles == 2).sum(1) == 1).all() and ((roles == 1).sum(1) == 2).all()
    assert (np.asarray(st.roles)[:, 7:] == 0).all()
    _, counts = np.unique(roles, axis=0, return_counts=True)
    assert counts.size == 105 and counts.min() > 140 and counts.max() < 260, counts
    first = np.bincount(np.asarray(st.first_president), minlength=7)
    assert first.size == 7 and first.min() > 0.9 * games / 7 and first.max() < 1.1 * games / 7
    deck = np.asarray(st.deck)[:, None]
    at = (deck >> np.arange(17)) & 1
    assert (at.sum(1) == 11).all() and (deck >> 17 == 0).all()
    share = at.mean(0)
    assert np.abs(share - 11 / 17).max() < 0.02, share
