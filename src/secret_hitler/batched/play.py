"""Playing batches: a uniform random legal action, and whole games in one compiled loop that
keeps every step's acting seats and actions (what ``record.to_records`` needs)."""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp

from . import core as C


def random_action(mask: jax.Array, u: jax.Array) -> jax.Array:
    """A uniform choice among the true entries of ``mask`` (bool[..., 51]) from ``u`` uniform in
    [0, 1); -1 where none is true."""
    count = jnp.sum(mask, axis=-1)
    k = jnp.minimum((u * count).astype(jnp.int32), jnp.maximum(count - 1, 0))
    # a log-depth prefix sum (XLA's cumsum on the CPU is quadratic in the axis)
    rank = jax.lax.associative_scan(jnp.add, mask.astype(jnp.int32), axis=-1) - 1
    pick = jnp.argmax(mask & (rank == k[..., None]), axis=-1).astype(jnp.int32)
    return jnp.where(count > 0, pick, -1)


@partial(jax.jit, static_argnums=(0, 3, 4))
def random_games(
    cfg: C.Config, state: C.State, key: jax.Array, steps: int, keep: bool = False
) -> Any:
    """``steps`` decisions of random legal actions in every game of ``state`` (a batch); returns
    the final state and each step's acting seats and actions, ``[steps, batch]`` (seat -1 once
    a game is over), and with ``keep`` the state before each step too (``[steps, batch, ...]``)."""
    step = jax.vmap(partial(C.step, cfg))

    def body(st: C.State, u: jax.Array) -> Any:
        action = random_action(st.legal_action_mask, u)
        seat = jnp.where(action >= 0, st.current_player, -1)
        return step(st, action), (seat, action, st) if keep else (seat, action)

    batch = state.phase.shape[0]
    us = jax.random.uniform(key, (steps, batch))
    final, out = jax.lax.scan(body, state, us)
    return (final, *out)
