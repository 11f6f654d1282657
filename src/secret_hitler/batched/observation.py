"""The environment's observation vector (env/encoding.py, docs/env.md) from a batched state.

Every field is placed at the offset ``encoding.Layout`` gives it, so the layout has one
definition; what each field means is the environment's, and tests/batched compares this vector
with ``SecretHitlerEnv.observe`` at every step of sampled games, seat by seat.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..env import encoding as E
from . import core as C

F32 = jnp.float32
I32 = jnp.int32


def _one_hot(value: jax.Array, size: int) -> jax.Array:
    """One-hot of ``value`` (none for a value outside 0..size-1, e.g. -1)."""
    return (jnp.arange(size, dtype=I32) == value).astype(F32)


def _bits(mask: jax.Array, size: int = E.MAX_SEATS) -> jax.Array:
    return (jnp.right_shift(mask, jnp.arange(size, dtype=I32)) & 1).astype(F32)


def _static(cfg: C.Config) -> np.ndarray:
    """The fields fixed for the game: players, board, zones."""
    layout = cfg.layout
    out = np.zeros(layout.blocks["static"][1], np.float32)
    out[layout["players"].offset : layout["players"].offset + cfg.players] = 1.0
    for slot, code in enumerate(cfg.board[:5]):
        if code:
            out[layout["board"].offset + 4 * slot + code - 1] = 1.0
    for name, zone in (("hitler_zone", cfg.rules.hitler_zone), ("veto_zone", cfg.rules.veto_zone)):
        out[layout[name].offset + zone - 1] = 1.0
    return out


def observe_seat(cfg: C.Config, st: C.State, seat: jax.Array) -> jax.Array:
    """float32[layout size]: what ``seat`` may know, as the environment encodes it."""
    layout = cfg.layout
    n, k = cfg.players, cfg.history
    seats = jnp.arange(E.MAX_SEATS, dtype=I32)
    roles = st.roles
    me = seats == seat
    my_role = jnp.sum(jnp.where(me, roles, 0))
    present = seats < n
    alive = _bits(st.alive).astype(bool)
    finished = st.winner >= 0
    ph = st.phase
    parts: dict[str, jax.Array] = {}

    # -- private: seat, role, the roles it knows (own, night N1-N2, revealed, all at the end)
    parts["seat"] = me.astype(F32)
    parts["role"] = _one_hot(my_role, 3)
    team = roles != C.LIBERAL
    knows = me | (team & (my_role == C.FASCIST))
    if cfg.rules.hitler_knows(n):
        knows = knows | (team & (my_role == C.HITLER))
    if cfg.rules.reveal_executed_role:
        knows = knows | ~alive
    knows = (knows | finished) & present
    parts["known_roles"] = (
        (knows[:, None] & (roles[:, None] == jnp.arange(3, dtype=I32))).astype(F32).ravel()
    )
    mine = jnp.sum(jnp.where(me, st.inv_known, 0))
    party = team.astype(I32)
    found = _bits(mine)[:, None] * _one_hot(party[:, None], 2)
    parts["investigations"] = found.ravel()
    peek = jnp.sum(jnp.where(me, st.peek, 0))
    peek_bits = _bits(peek, 3)[:, None]
    parts["peek"] = (jnp.concatenate([1.0 - peek_bits, peek_bits], axis=1) * (peek >= 0)).ravel()

    # -- history rows, newest first, and this seat's part of each
    if k:
        rows = jnp.arange(k, dtype=I32)
        valid = (rows < st.records)[:, None]
        h = st.hist[:, None]
        v = st.hist_votes[:, None]
        pres = h & 15
        chan = jnp.right_shift(h, C._CHAN_SHIFT) & 15

        def field(shift: int, size: int) -> jax.Array:
            return (jnp.right_shift(h, shift + jnp.arange(size, dtype=I32)) & 1).astype(F32)

        target = jnp.where(
            jnp.right_shift(h, C._HAS_TARGET) & 1, jnp.right_shift(h, C._TARGET) & 15, -1
        )
        history = jnp.concatenate(
            [
                valid.astype(F32),
                _one_hot(pres, E.MAX_SEATS) * valid,
                _one_hot(chan, E.MAX_SEATS) * valid,
                (jnp.right_shift(v, seats) & 1).astype(F32),
                (jnp.right_shift(v, seats + 10) & 1).astype(F32),
                field(C._ELECTED, 1),
                field(C._ENACTED, 2),
                field(C._VETO_REFUSED, 1),
                field(C._VETOED, 1),
                field(C._CHAOS, 2),
                field(C._POWER, 4),
                _one_hot(target, E.MAX_SEATS),
            ],
            axis=1,
        )
        parts["history"] = history.ravel()
        was_pres = (pres == seat) & valid
        in_gov = was_pres | ((chan == seat) & valid)
        own = jnp.concatenate(
            [field(C._DREW, 4) * was_pres, field(C._PASSED, 3) * in_gov], axis=1
        )
        parts["own_history"] = own.ravel()
    else:
        parts["history"] = jnp.zeros(0, F32)
        parts["own_history"] = jnp.zeros(0, F32)

    # -- the table now
    acting = C.to_act(cfg, st)
    parts["phase"] = _one_hot(ph, len(E.PHASES))
    parts["my_turn"] = ((jnp.right_shift(acting, seat) & 1) == 1).astype(F32)[None]
    parts["to_act"] = _bits(acting)
    parts["alive"] = _bits(st.alive)
    parts["candidate"] = _one_hot(st.candidate, E.MAX_SEATS)
    parts["nominee"] = _one_hot(st.nominee, E.MAX_SEATS)
    parts["president"] = _one_hot(st.president, E.MAX_SEATS)
    parts["chancellor"] = _one_hot(st.chancellor, E.MAX_SEATS)
    parts["term_limited"] = _bits(jnp.where(ph == C.NOMINATE, C.term_limited(cfg, st), 0))
    parts["investigated"] = _bits(st.investigated)
    parts["not_hitler"] = _bits(st.not_hitler)
    voting = ph == C.VOTE
    parts["voted"] = _bits(jnp.where(voting, st.voted, 0))
    cast_ja, cast_nein = st.ja & st.voted, st.voted & ~st.ja
    if cfg.rules.voting != "public_sequential":
        own_bit = jnp.left_shift(1, seat)
        cast_ja, cast_nein = cast_ja & own_bit, cast_nein & own_bit
    parts["votes_ja"] = _bits(jnp.where(voting, cast_ja, st.last_ja))
    parts["votes_nein"] = _bits(jnp.where(voting, cast_nein, st.last_nein))
    parts["liberal_policies"] = _one_hot(jnp.minimum(st.liberal, 5), 6)
    parts["fascist_policies"] = _one_hot(jnp.minimum(st.fascist, 6), 7)
    parts["election_tracker"] = _one_hot(jnp.minimum(st.tracker, 2), 3)
    in_session = (ph == C.DISCARD) | (ph == C.ENACT) | (ph == C.VETO_RESPONSE)
    holds = ((ph == C.DISCARD) & (seat == st.president)) | (
        ((ph == C.ENACT) | (ph == C.VETO_RESPONSE))
        & ((seat == st.president) | (seat == st.chancellor))
    )
    parts["hand_liberal"] = _one_hot(jnp.where(holds, st.hand_l, 0), 4)
    parts["hand_fascist"] = _one_hot(jnp.where(holds, st.hand_f, 0), 4)
    flags = [
        in_session & (st.veto_enabled != 0) & (st.veto_refused == 0),
        ph == C.VETO_RESPONSE,
        st.fascist >= cfg.rules.hitler_zone,
    ]
    parts["veto_available"] = flags[0].astype(F32)[None]
    parts["veto_proposed"] = flags[1].astype(F32)[None]
    parts["hitler_zone_active"] = flags[2].astype(F32)[None]
    parts["winner"] = _one_hot(st.winner, 2)
    # the counts as the environment divides them (float64, then float32), by table look-up
    deck = max(1, cfg.deck_size)
    fractions = jnp.asarray((np.arange(64) / deck).astype(np.float32))
    rounds = jnp.asarray((np.minimum(np.arange(33) / 32.0, 1.0)).astype(np.float32))
    parts["draw_pile"] = fractions[st.draw_n][None]
    parts["discard_pile"] = fractions[st.disc_l + st.disc_f][None]
    parts["round"] = rounds[jnp.minimum(st.round, 32)][None]

    static = jnp.asarray(_static(cfg))
    pieces = [static]
    end = layout.blocks["static"][1]
    for f in sorted(layout.fields.values(), key=lambda f: f.offset):
        if f.offset < end:
            continue
        piece = parts[f.name]
        assert piece.shape == (f.size,), (f.name, piece.shape, f.size)
        pieces.append(piece)
    return jnp.concatenate(pieces)
