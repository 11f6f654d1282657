"""Playing batches: a uniform random legal action, and whole games in one compiled loop that
keeps every step's acting seats and actions (what ``record.to_records`` needs)."""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp

from . import core as C


def random_action(mask: jax.Array, u: jax.Array) -> jax.Array:
    """A uniform choice among the true entries of ``mask`` (bool[..., actions]) from ``u``
    uniform in [0, 1); -1 where none is true.

    The mask is packed into 32-bit words and the k-th set bit found by halving its word five
    times: a few dozen integer operations per game, where a prefix sum over the 51 entries
    cost a fifth of a whole step."""
    size = mask.shape[-1]
    return random_index(
        jnp.stack([_pack(mask[..., at : at + 32]) for at in range(0, size, 32)], -1), u
    )


def random_index(mask_words: jax.Array, u: jax.Array) -> jax.Array:
    """``random_action`` of a mask as bits in 32-bit words (``State.mask_words``: action ``i``
    is bit ``i % 32`` of word ``i // 32``)."""
    words = [mask_words[..., j] for j in range(mask_words.shape[-1])]
    counts = [jax.lax.population_count(w).astype(jnp.int32) for w in words]
    count = sum(counts[1:], counts[0])
    k = jnp.minimum((u * count).astype(jnp.int32), jnp.maximum(count - 1, 0))
    # the word that holds the k-th set bit (the last one with fewer set bits before it), and
    # k within it
    word, base, before = words[0], jnp.zeros_like(k), jnp.zeros_like(k)
    prefix = counts[0]
    for j in range(1, len(words)):
        later = k >= prefix
        word = jnp.where(later, words[j], word)
        base = jnp.where(later, 32 * j, base)
        before = jnp.where(later, prefix, before)
        prefix = prefix + counts[j]
    k = k - before
    pos = jnp.zeros_like(k)
    for width in (16, 8, 4, 2, 1):
        half = jnp.right_shift(word, pos.astype(jnp.uint32)) & jnp.uint32((1 << width) - 1)
        c = jax.lax.population_count(half).astype(jnp.int32)
        go = k >= c
        pos = pos + jnp.where(go, width, 0)
        k = k - jnp.where(go, c, 0)
    return jnp.where(count > 0, pos + base, -1)


def _pack(bits: jax.Array) -> jax.Array:
    """bool[..., n <= 32] as one uint32 (entry i is bit i)."""
    shifts = jnp.arange(bits.shape[-1], dtype=jnp.uint32)
    return jnp.sum(jnp.left_shift(bits.astype(jnp.uint32), shifts), axis=-1, dtype=jnp.uint32)


@partial(jax.jit, static_argnums=(0, 3, 4))
def random_games(
    cfg: C.Config, state: C.State, key: jax.Array, steps: int, keep: bool = False
) -> Any:
    """``steps`` decisions of random legal actions in every game of ``state`` (a batch); returns
    the final state and each step's acting seats and actions, ``[steps, batch]`` (seat -1 once
    a game is over), and with ``keep`` the state before each step too (``[steps, batch, ...]``)."""
    step = jax.vmap(partial(C.step, cfg))

    def body(st: C.State, u: jax.Array) -> Any:
        action = random_index(st.mask_words, u)
        seat = jnp.where(action >= 0, st.current_player, -1)
        return step(st, action), (seat, action, st) if keep else (seat, action)

    batch = state.phase.shape[0]
    us = jax.random.uniform(key, (steps, batch))
    final, out = jax.lax.scan(body, state, us)
    return (final, *out)
