"""Playing batches: a uniform random legal action, and whole games in one compiled loop that
keeps every step's acting seats and actions (what ``record.to_records`` needs), with the
turn-based step or the parallel one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp

from . import core as C
from . import state as S
from .observation import all_words, tail_of, words_of


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


@partial(jax.jit, static_argnums=(0, 3, 4))
def random_games_all(
    cfg: C.Config, state: C.State, key: jax.Array, steps: int, keep: bool = False
) -> Any:
    """``random_games`` with the parallel step: every acting seat draws a uniform legal action
    of its own mask. Returns the final state and each step's actions ``[steps, batch,
    players]`` (-1 for a seat that did not act), and with ``keep`` the state before each step."""
    step = jax.vmap(partial(C.step_all, cfg))

    def body(st: C.State, u: jax.Array) -> Any:
        actions = random_index(st.seat_mask_words, u)
        return step(st, actions), (actions, st) if keep else (actions,)

    batch = state.phase.shape[0]
    us = jax.random.uniform(key, (steps, batch, cfg.players))
    final, out = jax.lax.scan(body, state, us)
    return (final, *out)


@dataclass(frozen=True)
class Turn:
    """What the seats acting in one turn of a round see (``play_rounds``), for a policy: ``k``
    seats a game, every seat in a secret vote (``seats`` -1 where one does not vote), else
    the one that decides. Leading axes: the batch. A pytree whose ``config`` is static (as in
    ``State``), so the vectors can be unpacked where a policy reads them."""

    config: S.Config
    seats: jax.Array  # int32[..., k]
    obs_words: jax.Array  # uint32[..., k, words]: each one's observation, bits (``State``)
    obs_tail: jax.Array  # float32[..., 3]: and its three fractions (the same for every seat)
    mask_words: jax.Array  # uint32[..., k, mask words]: each one's legal actions, bits

    @property
    def observation(self) -> jax.Array:
        """float32[..., k, layout size]: each one's observation vector."""
        tail = jnp.broadcast_to(
            self.obs_tail[..., None, :], (*self.obs_words.shape[:-1], self.obs_tail.shape[-1])
        )
        cfg = self.config
        return S.unpack(self.obs_words, tail, cfg.history, cfg.claims, cfg.game_types)

    @property
    def legal_action_mask(self) -> jax.Array:
        """bool[..., k, num_actions]: each one's legal actions."""
        return S.unpack_mask(self.mask_words, self.config.num_actions)


jax.tree_util.register_dataclass(
    Turn, data_fields=["seats", "obs_words", "obs_tail", "mask_words"], meta_fields=["config"]
)


#: ``policy(key, turn, carry) -> (actions, carry)``: the acting seats' actions (``[batch,
#: k]``) and whatever the policy keeps between turns (``play_rounds``' ``carry``).
Policy = Callable[[jax.Array, Turn, Any], tuple[jax.Array, Any]]


#: Turns that many rounds of a batch have no game in: skipped when none is.
_RARE = S.POWER_PHASES | {S.VETO_RESPONSE, S.ASSASSINATE}


def turns(cfg: C.Config) -> tuple[frozenset[int], ...]:
    """The turns of a round, each a phase (or the powers') in which seats decide, in the
    order a round goes through them: nominate, vote, (a power before the session, forum
    timing), discard, enact, veto response, power. Under public sequential voting each voter
    has a turn of its own."""
    power = S.POWER_PHASES
    votes = [frozenset({S.VOTE})] * (1 if cfg.secret_votes else cfg.players)
    before = [power] if cfg.rules.power_timing == "next_president" else []
    return (
        frozenset({S.NOMINATE}),
        *votes,
        *before,
        frozenset({S.DISCARD}),
        frozenset({S.ENACT}),
        frozenset({S.VETO_RESPONSE}),
        power,
        *([frozenset({S.ASSASSINATE})] if cfg.avalon else []),
    )


def observe_turn(cfg: C.Config, st: C.State, phases: frozenset[int]) -> Turn:
    """One game's ``Turn``: what its acting seats see in a step specialised to ``phases`` (a
    game in another phase has no seat acting, ``seats`` -1, and its words mean nothing)."""
    tail = tail_of(cfg, st)
    here = jnp.zeros((), bool)
    for phase in phases:
        here = here | (st.phase == phase)
    if phases == {S.VOTE} and cfg.secret_votes:
        seats = jnp.arange(cfg.players, dtype=jnp.int32)
        acting = here & ((jnp.right_shift(S.acting(cfg, st), seats) & 1) == 1)
        return Turn(
            cfg,
            jnp.where(acting, seats, -1),
            all_words(cfg, st, phases),
            tail,
            S.seat_mask_words(cfg, st, phases),
        )
    seat = st.current_player
    words, _ = words_of(cfg, st, seat, phases)
    mask = S.mask_words(cfg, st, seat, phases)
    return Turn(cfg, jnp.where(here, seat, -1)[None], words[None], tail, mask[None])


def _round(cfg: C.Config, policy: Policy) -> Callable[[C.State, jax.Array, Any], Any]:
    """``one_round(state, key, carry) -> (state, key, carry)``: a round of every game, each turn
    of it (``turns``) a step specialised to its phase (``core.step_phase``), the acting seats'
    actions asked of ``policy`` between them."""

    def take(phases: frozenset[int]) -> Callable[[Any], Any]:
        observe = jax.vmap(partial(observe_turn, cfg, phases=phases))

        def go(args: tuple[C.State, Any, jax.Array]) -> tuple[C.State, Any]:
            st, carry, key = args
            actions, carry = policy(key, observe(st), carry)
            return jax.vmap(partial(C.step_phase, cfg, phases=phases))(st, actions), carry

        return go

    def one_round(st: C.State, key: jax.Array, carry: Any) -> tuple[C.State, jax.Array, Any]:
        for phases in turns(cfg):
            key, sub = jax.random.split(key)
            if phases & _RARE:  # a turn no game takes costs nothing
                here = jnp.any(jnp.isin(st.phase, jnp.asarray(sorted(phases))))
                st, carry = jax.lax.cond(here, take(phases), lambda a: a[:2], (st, carry, sub))
            else:
                st, carry = take(phases)((st, carry, sub))
        return st, key, carry

    return one_round


@partial(jax.jit, static_argnums=(0, 1, 5))
def play_rounds(
    cfg: C.Config,
    policy: Policy,
    state: C.State,
    key: jax.Array,
    carry: Any = None,
    rounds: int = 64,
) -> tuple[C.State, Any]:
    """Whole games in one compiled loop, a round of every game at a time: each turn of a
    round (``turns``) is a step specialised to its phase (``core.step_phase``), between which
    ``policy(key, turn, carry)`` gives the acting seats' actions (``[batch, k]``, from what
    they see, ``Turn``) and its next ``carry``. A game whose round takes a turn again (a
    refused veto, a claim) goes on in the next round of the loop. Plays until every game is
    over, or ``rounds`` rounds; returns the final state and carry."""
    one_round = _round(cfg, policy)

    def body(loop: tuple[C.State, jax.Array, Any, jax.Array]) -> Any:
        st, key, carry, r = loop
        st, key, carry = one_round(st, key, carry)
        return st, key, carry, r + 1

    def going(loop: tuple[C.State, jax.Array, Any, jax.Array]) -> jax.Array:
        st, _, _, r = loop
        return ~jnp.all(st.terminated | st.truncated) & (r < rounds)

    start = (state, key, carry, jnp.zeros((), jnp.int32))
    final, _, carry, _ = jax.lax.while_loop(going, body, start)
    return final, carry


#: ``deal(key) -> State``: a fresh batch of games (``Env.init`` of as many keys as the batch).
Deal = Callable[[jax.Array], C.State]
#: ``finished(carry, state, done) -> carry``: what a stream keeps of the games that ended in a
#: round (``done``: bool[batch]; ``state`` holds them as they ended) before they are dealt again.
Finished = Callable[[Any, C.State, jax.Array], Any]


@partial(jax.jit, static_argnums=(0, 1, 2, 3, 7))
def stream_rounds(
    cfg: C.Config,
    policy: Policy,
    deal: Deal,
    finished: Finished,
    state: C.State,
    key: jax.Array,
    carry: Any = None,
    rounds: int = 64,
) -> tuple[C.State, Any]:
    """``play_rounds`` as a stream of whole games: ``rounds`` rounds of every game, after each
    of which the games that ended are given to ``finished`` and their places dealt again from
    ``deal``. A batch that waits for its longest game idles most of its places in the last
    rounds (at 7 players a game takes about 7 rounds at Secret-Jitler's policy, the longest of
    4,096 about 10); a stream keeps them playing, as an autoreset does for a learner.

    Round ``r``'s turns draw their keys from ``jax.random.fold_in(play, r)`` and its deal is
    ``deal(jax.random.fold_in(dealing, r))``, where ``play, dealing = jax.random.split(key)``:
    a stream is a function of its key. Returns the last state (games still going) and carry."""
    one_round = _round(cfg, policy)
    play_key, deal_key = jax.random.split(key)

    def body(loop: tuple[C.State, Any], r: jax.Array) -> tuple[tuple[C.State, Any], None]:
        st, carry = loop
        st, _, carry = one_round(st, jax.random.fold_in(play_key, r), carry)
        done = st.terminated | st.truncated
        carry = finished(carry, st, done)
        fresh = deal(jax.random.fold_in(deal_key, r))
        st = jax.tree.map(
            lambda new, old: jnp.where(done.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
            fresh,
            st,
        )
        return (st, carry), None

    (final, carry), _ = jax.lax.scan(body, (state, carry), jnp.arange(rounds))
    return final, carry
