"""The environment's observation vector (env/encoding.py, docs/env.md) from a batched state.

Every field is placed at the offset ``encoding.Layout`` gives it, so the layout has one
definition; what each field means is the environment's, and tests/batched compares this vector
with ``SecretHitlerEnv.observe`` at every step of sampled games, seat by seat.

For speed the vector is built as bits: each field's bit pattern is or-ed into 32-bit words at
its offset; only the last three fields (the pile sizes and the round, fractions) are not bits.
The state keeps the words, and ``state.unpack`` expands them to float32 where they are read.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..env import encoding as E
from . import state as C

F32 = jnp.float32
I32 = jnp.int32
U32 = jnp.uint32
_FRACTIONS = C.OBS_FRACTIONS


def _static(cfg: C.Config) -> np.ndarray:
    """The fields fixed for the game (players, board, zones), as 0/1."""
    layout = cfg.layout
    out = np.zeros(layout.blocks["static"][1], np.uint32)
    out[layout["players"].offset : layout["players"].offset + cfg.players] = 1
    for slot, code in enumerate(cfg.board[:5]):
        if code:
            out[layout["board"].offset + 4 * slot + code - 1] = 1
    for name, zone in (("hitler_zone", cfg.rules.hitler_zone), ("veto_zone", cfg.rules.veto_zone)):
        out[layout[name].offset + zone - 1] = 1
    return out


def word_count(cfg: C.Config) -> int:
    """How many 32-bit words hold the observation's bits."""
    return (C.bits_end(cfg.history, cfg.claims) + 31) // 32


class _Words:
    """The observation's bits as 32-bit words, filled field by field."""

    def __init__(self, cfg: C.Config) -> None:
        self.layout = cfg.layout
        size = word_count(cfg)
        static = np.zeros(size * 32, np.uint32)
        fixed = _static(cfg)
        static[: fixed.size] = fixed
        packed = (static.reshape(size, 32) << np.arange(32, dtype=np.uint32)).sum(1)
        self.words: list[jax.Array] = [jnp.asarray(w, U32) for w in packed.astype(np.uint32)]

    def put(self, name: str, pattern: jax.Array, at: int = 0, width: int | None = None) -> None:
        """Or ``pattern`` (its low bits) into field ``name``, ``at`` bits into it."""
        field = self.layout[name]
        width = field.size - at if width is None else width
        assert at + width <= field.size, name
        C.or_bits(self.words, field.offset + at, width, pattern)


def _one(value: jax.Array) -> jax.Array:
    """The one-hot bit of ``value`` (nothing for -1)."""
    return jnp.where(value >= 0, jnp.left_shift(1, jnp.maximum(value, 0)), 0).astype(I32)


def history_row(h: jax.Array, votes: jax.Array, exists: jax.Array) -> jax.Array:
    """uint32[2]: a history row's public bits (``encoding.RECORD_FIELDS``, 62 bits: 0-31 and
    32-61) from its ``State.hist`` word and its votes (ja bits | nein bits << 10); zeros
    where no row ``exists`` yet."""
    assert E.RECORD_SIZE == 62
    pres, chan = h & 15, jnp.right_shift(h, C._CHAN_SHIFT) & 15
    ja, nein = votes & 1023, jnp.right_shift(votes, 10) & 1023
    lo = 1 | jnp.left_shift(_one(pres), 1) | jnp.left_shift(_one(chan), 11)
    lo = lo | jnp.left_shift(ja, 21) | jnp.left_shift(nein & 1, 31)
    target = jnp.where(
        jnp.right_shift(h, C._HAS_TARGET) & 1, jnp.right_shift(h, C._TARGET) & 15, -1
    )
    hi = jnp.right_shift(nein, 1) | jnp.left_shift(jnp.right_shift(h, C._ELECTED) & 2047, 9)
    hi = hi | jnp.left_shift(_one(target), 20)
    row = jnp.stack([lo, hi]).astype(U32)
    return jnp.where(exists, row, jnp.zeros_like(row))


def row_votes(row: jax.Array) -> jax.Array:
    """The votes of a ``history_row`` (ja bits | nein bits << 10), as int32."""
    lo, hi = row[0], row[1]
    ja = jnp.right_shift(lo, 21) & 1023
    nein = jnp.right_shift(lo, 31) | jnp.left_shift(hi & 511, 1)
    return (ja | jnp.left_shift(nein, 10)).astype(I32)


def observe_seat(cfg: C.Config, st: C.State, seat: jax.Array) -> jax.Array:
    """float32[layout size]: what ``seat`` may know, as the environment encodes it."""
    return C.unpack(*words_of(cfg, st, seat), cfg.history, cfg.claims)


def words_of(cfg: C.Config, st: C.State, seat: jax.Array) -> tuple[jax.Array, jax.Array]:
    """``seat``'s observation as bits in 32-bit words, and the three fractions that end it."""
    layout = cfg.layout
    assert [f.name for f in sorted(layout.fields.values(), key=lambda f: f.offset)][-3:] == list(
        _FRACTIONS
    )
    n, k = cfg.players, cfg.history
    seats = jnp.arange(E.MAX_SEATS, dtype=I32)
    roles = st.roles
    me = seats == seat
    my_role = jnp.sum(jnp.where(me, roles, 0))
    ph = st.phase
    w = _Words(cfg)

    # -- private: seat, role, the roles it knows (own, night N1-N2, revealed, all at the end)
    w.put("seat", _one(seat))
    w.put("role", _one(my_role))
    team = roles != C.LIBERAL
    knows = me | (team & (my_role == C.FASCIST))
    if cfg.rules.hitler_knows(n):
        knows = knows | (team & (my_role == C.HITLER))
    if cfg.rules.reveal_executed_role:
        knows = knows | ((jnp.right_shift(st.alive, seats) & 1) == 0)
    knows = (knows | (st.winner >= 0)) & (seats < n)
    w.put("known_roles", jnp.sum(jnp.where(knows, jnp.left_shift(1, 3 * seats + roles), 0)))
    mine = jnp.sum(jnp.where(me, st.inv_known, 0))
    found = (jnp.right_shift(mine, seats) & 1) == 1
    w.put("investigations", jnp.sum(jnp.where(found, jnp.left_shift(1, 2 * seats + team), 0)))
    peek = jnp.sum(jnp.where(me, st.peek, 0))
    three = jnp.arange(3, dtype=I32)
    peeked = jnp.sum(jnp.left_shift(1, 2 * three + (jnp.right_shift(peek, three) & 1)))
    w.put("peek", jnp.where(peek >= 0, peeked, 0))

    # -- history rows, newest first, and this seat's part of each
    for i in range(k):
        h = st.hist[i]
        valid = i < st.records
        pres, chan = h & 15, jnp.right_shift(h, C._CHAN_SHIFT) & 15
        row = layout.record_size * i
        w.put("history", st.hist_row[i, 0], row, 32)
        w.put("history", st.hist_row[i, 1], row + 32, E.RECORD_SIZE - 32)
        if cfg.claims:
            w.put("history", st.hist_claims[i], row + E.RECORD_SIZE, C._CLAIM_BITS)
        was_pres = valid & (pres == seat)
        in_gov = was_pres | (valid & (chan == seat))
        own = jnp.where(was_pres, jnp.right_shift(h, C._DREW) & 15, 0) | jnp.where(
            in_gov, jnp.left_shift(jnp.right_shift(h, C._PASSED) & 7, 4), 0
        )
        w.put("own_history", own, 7 * i, 7)

    # -- the table now
    acting = C.to_act(cfg, st)
    w.put("phase", _one(ph))
    w.put("my_turn", jnp.right_shift(acting, seat) & 1)
    w.put("to_act", acting)
    w.put("alive", st.alive)
    for name in ("candidate", "nominee", "president", "chancellor"):
        w.put(name, _one(getattr(st, name)))
    w.put("term_limited", jnp.where(ph == C.NOMINATE, C.term_limited(cfg, st), 0))
    w.put("investigated", st.investigated)
    w.put("not_hitler", st.not_hitler)
    voting = ph == C.VOTE
    w.put("voted", jnp.where(voting, st.voted, 0))
    cast_ja, cast_nein = st.ja & st.voted, st.voted & ~st.ja
    if cfg.rules.voting != "public_sequential":
        own_bit = jnp.left_shift(1, seat)
        cast_ja, cast_nein = cast_ja & own_bit, cast_nein & own_bit
    w.put("votes_ja", jnp.where(voting, cast_ja, st.last_ja))
    w.put("votes_nein", jnp.where(voting, cast_nein, st.last_nein))
    w.put("liberal_policies", _one(jnp.minimum(st.liberal, 5)))
    w.put("fascist_policies", _one(jnp.minimum(st.fascist, 6)))
    w.put("election_tracker", _one(jnp.minimum(st.tracker, 2)))
    in_session = (ph == C.DISCARD) | (ph == C.ENACT) | (ph == C.VETO_RESPONSE)
    holds = ((ph == C.DISCARD) & (seat == st.president)) | (
        ((ph == C.ENACT) | (ph == C.VETO_RESPONSE))
        & ((seat == st.president) | (seat == st.chancellor))
    )
    w.put("hand_liberal", _one(jnp.where(holds, st.hand_l, 0)))
    w.put("hand_fascist", _one(jnp.where(holds, st.hand_f, 0)))
    w.put("veto_available", in_session & (st.veto_enabled != 0) & (st.veto_refused == 0))
    w.put("veto_proposed", ph == C.VETO_RESPONSE)
    w.put("hitler_zone_active", st.fascist >= cfg.rules.hitler_zone)
    w.put("winner", _one(st.winner))
    # the counts as the environment divides them (float64, then float32), by table look-up
    deck = max(1, cfg.deck_size)
    fractions = jnp.asarray((np.arange(64) / deck).astype(np.float32))
    rounds = jnp.asarray((np.minimum(np.arange(33) / 32.0, 1.0)).astype(np.float32))
    tail = jnp.stack(
        [fractions[st.draw_n], fractions[st.disc_l + st.disc_f], rounds[jnp.minimum(st.round, 32)]]
    )
    return jnp.stack(w.words), tail
