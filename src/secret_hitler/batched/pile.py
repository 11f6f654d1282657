"""The draw pile, drawn as it is needed.

A uniformly shuffled pile of ``m`` policies, ``f`` of them fascist, is the same thing as a pile
whose positions are decided one after another from the top, each fascist with probability
(fascists left) / (positions left). So a reshuffle only counts what it shuffles; a position is
decided when it is first drawn or peeked (``reveal``), from the reshuffle's own random stream
(``randoms``), and the state keeps the decided top positions as bits (``State.pile``, ``known``)
and the fascists among the rest (``unknown_f``). A reshuffle costs a few operations instead of
deciding every position of the new pile in every step of every game (a third of a step's
work when it was eager), and the whole pile, undecided positions included, is still one
function of the game's seed and counts: ``order`` gives it for a record, position for
position as the game drew it.

The deal's deck (stream 0) is decided whole at ``init``; a record's fixed reshuffles are known
whole when they happen.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from .state import I32, MAX_RESHUFFLES, U32, State, _popcount, of_seat

#: Random values are 23 bits: a fascist when value * places < fascists << 23.
_BITS = 23


def _mix(x: jax.Array) -> jax.Array:
    """A 32-bit integer hash (lowbias32: two multiply-xorshift rounds; a bijection, each input
    bit flipping every output bit with probability 1/2 within 0.02%)."""
    x = x ^ jnp.right_shift(x, 16)
    x = x * jnp.uint32(0x7FEB352D)
    x = x ^ jnp.right_shift(x, 15)
    x = x * jnp.uint32(0x846CA68B)
    return x ^ jnp.right_shift(x, 16)


def randoms(seed: jax.Array, stream: Any, index: Any) -> jax.Array:
    """int32: 23-bit uniform values, number ``index`` (< 64) of the ``stream``-th run of
    ``seed`` (uint32[2], drawn from a game's JAX key): the hash of counter x odd stride +
    offset, the stride and offset being the seed's words. Broadcasts over ``index``."""
    counter = jnp.left_shift(jnp.asarray(stream, U32), 6) + jnp.asarray(index, U32)
    value = _mix(counter * (seed[0] | 1) + seed[1])
    return jnp.right_shift(value, 32 - _BITS).astype(I32)


def _fascist(value: jax.Array, places: Any, fascists: Any) -> jax.Array:
    """Whether a position is fascist: probability ``fascists / places`` from a 23-bit value."""
    return jnp.less(value * places, jnp.left_shift(fascists, _BITS))


def arrange(values: jax.Array, m: Any, f: Any) -> jax.Array:
    """A pile of ``m`` policies, ``f`` fascist, decided top first from ``values[i]`` (the deal's
    deck: one value per position)."""
    pile = jnp.zeros((), I32)
    left_f = f
    for i in range(values.shape[0]):
        take = (i < m) & _fascist(values[i], m - i, left_f)
        pile = pile | jnp.left_shift(take.astype(I32), i)
        left_f = left_f - take
    return pile


def reveal(st: State, cond: jax.Array, need: int) -> State:
    """Where ``cond``, decide positions from the top until ``need`` are known (or the pile
    is): a position with ``j`` places undecided below and at it takes value number ``j`` of
    the pile's stream (the reshuffle's: stream r + 1 after r reshuffles). A position's value
    depends only on those counts, so when it is decided changes nothing; it is decided only
    when read, so that a game's state does not depend on which steps looked."""
    pile, known, left_f = st.pile, st.known, st.unknown_f
    for _ in range(need):
        places = st.draw_n - known
        todo = cond & (known < need) & (places > 0)
        take = todo & _fascist(randoms(st.seed, st.reshuffles, places), places, left_f)
        pile = pile | jnp.left_shift(take.astype(I32), known)
        known = known + todo
        left_f = left_f - take
    return st.replace(pile=pile, known=known, unknown_f=left_f)


def draw(st: State, cond: jax.Array, k: int) -> tuple[State, jax.Array]:
    """Where ``cond``, take the top ``k`` policies; returns the state and their bits (top
    first)."""
    st = reveal(st, cond, k)
    top = st.pile & ((1 << k) - 1)
    return (
        st.replace(
            pile=jnp.where(cond, jnp.right_shift(st.pile, k), st.pile),
            known=jnp.where(cond, st.known - k, st.known),
            draw_n=jnp.where(cond, st.draw_n - k, st.draw_n),
        ),
        top,
    )


def top_three(st: State, cond: jax.Array) -> tuple[State, jax.Array]:
    """Where ``cond``, the top three policies decided and read, not drawn (a peek)."""
    st = reveal(st, cond, 3)
    return st, st.pile & 7


def reshuffle(st: State, cond: jax.Array) -> tuple[State, jax.Array]:
    """_deck_check where ``cond``: under 3 policies left, the draw and discard piles are shuffled
    together. Only counted: its positions are decided as they are drawn (a record's fixed
    pile is known whole). Returns the state and the reshuffle's record (its size | fascists
    << 8, ``State.reshuffle_counts``; -1 without one), which the step writes after its stages
    (an array written inside them is recomputed per element)."""
    need = cond & (st.draw_n < 3)
    m = st.draw_n + st.disc_l + st.disc_f
    known_f = _popcount(st.pile & (jnp.left_shift(1, st.known) - 1))
    f = st.disc_f + known_f + st.unknown_f
    r = st.reshuffles
    is_fixed = r < st.fixed
    fixed = of_seat(st.fixed_piles, jnp.minimum(r, MAX_RESHUFFLES - 1))
    out = st.replace(
        pile=jnp.where(need, jnp.where(is_fixed, fixed, 0), st.pile),
        known=jnp.where(need, jnp.where(is_fixed, m, 0), st.known),
        unknown_f=jnp.where(need, jnp.where(is_fixed, 0, f), st.unknown_f),
        draw_n=jnp.where(need, m, st.draw_n),
        disc_l=jnp.where(need, 0, st.disc_l),
        disc_f=jnp.where(need, 0, st.disc_f),
        reshuffles=r + need,
        truncated=st.truncated | (need & (r >= MAX_RESHUFFLES)),
    )
    return out, jnp.where(need, m | jnp.left_shift(f, 8), -1)


def order(seed: jax.Array, stream: Any, m: Any, f: Any, size: int) -> jax.Array:
    """The whole pile of a reshuffle, as ``reveal`` decides it position by position: the bits
    of ``m`` policies, ``f`` fascist, from ``stream`` (``size``: the deck, an upper bound)."""
    pile = jnp.zeros((), I32)
    left_f = jnp.asarray(f, I32)
    for i in range(size):
        places = m - i
        take = (places > 0) & _fascist(randoms(seed, stream, places), places, left_f)
        pile = pile | jnp.left_shift(take.astype(I32), i)
        left_f = left_f - take
    return pile
