"""The environment's observation vector (env/encoding.py, docs/env.md) from a batched state.

Every field is placed at the offset ``encoding.Layout`` gives it, so the layout has one
definition; what each field means is the environment's, and tests/batched compares this vector
with ``SecretHitlerEnv.observe`` at every step of sampled games, seat by seat.

For speed the vector is built as bits: each field's bit pattern is or-ed into 32-bit words at
its offset; only the last three fields (the pile sizes and the round, fractions) are not bits.
It is built in two parts: the public words (the table, the history rows, which the state keeps
as the observation lays them out) once, and each seat's own bits (its seat, role, what it
knows, its own history, its turn, vote and hand) laid over them, so every seat's observation
(``all_words``, a parallel step's) costs the public part once.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..engine.settings import CHAOS_AT, FASCIST_TRACK, LIBERAL_TRACK
from ..env import encoding as E
from . import state as C

F32 = jnp.float32
I32 = jnp.int32
U32 = jnp.uint32
_FRACTIONS = C.OBS_FRACTIONS
#: A history row's public bits (``encoding.RECORD_FIELDS``), kept as two words.
_ROW_BITS = E.RECORD_SIZE
assert _ROW_BITS == 62
#: A seat's own part of a history row (``encoding.PRIVATE_RECORD_FIELDS``).
_OWN_BITS = E.PRIVATE_RECORD_SIZE
assert _OWN_BITS == 7


def _static(cfg: C.Config) -> np.ndarray:
    """The fields fixed for the game (players, board, zones), as 0/1."""
    layout = cfg.layout
    out = np.zeros(layout.size if cfg.game_types else layout.blocks["static"][1], np.uint32)
    out[layout["players"].offset : layout["players"].offset + cfg.players] = 1
    for slot, code in enumerate(cfg.board[: C.BOARD_SLOTS]):
        if code:
            out[layout["board"].offset + len(E.POWERS) * slot + code - 1] = 1
    for name, zone in (("hitler_zone", cfg.rules.hitler_zone), ("veto_zone", cfg.rules.veto_zone)):
        out[layout[name].offset + zone - 1] = 1
    if cfg.game_types:  # the block's table part: the game types' roles dealt, the setting
        out[layout["top_decking"].offset + E.TOP_DECKING.index(cfg.top_decking)] = 1
        dealt = {role.value for role, _ in cfg.resolved.composition(cfg.players)}
        for i, role in enumerate(E.SPECIAL_ROLES):
            if role in dealt:
                out[layout["composition"].offset + i] = 1
    return out


def word_count(cfg: C.Config) -> int:
    """How many 32-bit words hold the observation's bits (with a ``game_types`` block, every
    position of the layout: the fractions' three stay zero there)."""
    end = cfg.layout.size if cfg.game_types else C.bits_end(cfg.history, cfg.claims)
    return (end + 31) // 32


def _pack(bits: np.ndarray, size: int) -> np.ndarray:
    """uint32[size] of 0/1 entries (entry ``32 j + i`` is bit ``i`` of word ``j``)."""
    out = np.zeros(size * 32, np.uint32)
    out[: bits.size] = bits
    words: np.ndarray = (out.reshape(size, 32) << np.arange(32, dtype=np.uint32)).sum(1)
    return words.astype(np.uint32)


def field_mask(cfg: C.Config, name: str, at: int = 0, width: int | None = None) -> np.ndarray:
    """uint32[w]: bits ``at`` to ``at + width`` of field ``name`` (all of it by default), in
    the field's words (``state.field_words``)."""
    f = cfg.layout[name]
    width = f.size - at if width is None else width
    first, end = C.field_words(cfg, name)
    bits = np.zeros((end - first) * 32, np.uint32)
    start = f.offset - 32 * first + at
    bits[start : start + width] = 1
    return _pack(bits, end - first)


class _Words:
    """The observation's bits as 32-bit words, filled field by field (a word left ``None``
    has none of them yet)."""

    def __init__(self, cfg: C.Config, words: list[jax.Array | None] | None = None) -> None:
        self.layout = cfg.layout
        self.words: list[jax.Array | None] = words or [None] * word_count(cfg)

    def put(self, name: str, pattern: jax.Array, at: int = 0, width: int | None = None) -> None:
        """Or ``pattern`` (its low bits) into field ``name``, ``at`` bits into it."""
        field = self.layout[name]
        width = field.size - at if width is None else width
        assert at + width <= field.size, name
        word, shift = divmod(field.offset + at, 32)
        pattern = pattern.astype(U32)
        self._or(word, jnp.left_shift(pattern, shift))
        if shift + width > 32:
            self._or(word + 1, jnp.right_shift(pattern, 32 - shift))

    def _or(self, word: int, bits: jax.Array) -> None:
        held = self.words[word]
        self.words[word] = bits if held is None else held | bits


def _one(value: jax.Array) -> jax.Array:
    """The one-hot bit of ``value`` (nothing for -1)."""
    return jnp.where(value >= 0, jnp.left_shift(1, jnp.maximum(value, 0)), 0).astype(I32)


def history_row(h: jax.Array, votes: jax.Array, exists: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A history row's public bits (``encoding.RECORD_FIELDS``, 62 bits: 0-31 and 32-61) from
    its ``State.row`` word and its votes (ja bits | nein bits << 10); zeros where no row
    ``exists`` yet."""
    pres, chan = h & 15, jnp.right_shift(h, C._CHAN_SHIFT) & 15
    ja, nein = votes & 1023, jnp.right_shift(votes, 10) & 1023
    lo = 1 | jnp.left_shift(_one(pres), 1) | jnp.left_shift(_one(chan), 11)
    lo = lo | jnp.left_shift(ja, 21) | jnp.left_shift(nein & 1, 31)
    target = jnp.where(
        jnp.right_shift(h, C._HAS_TARGET) & 1, jnp.right_shift(h, C._TARGET) & 15, -1
    )
    hi = jnp.right_shift(nein, 1) | jnp.left_shift(jnp.right_shift(h, C._ELECTED) & 2047, 9)
    hi = hi | jnp.left_shift(_one(target), 20)
    return jnp.where(exists, lo, 0).astype(U32), jnp.where(exists, hi, 0).astype(U32)


def own_row(h: jax.Array, seat: jax.Array) -> jax.Array:
    """``seat``'s own part of the row of word ``h`` (``PRIVATE_RECORD_FIELDS``): what it drew
    as president, what was passed in its government."""
    pres, chan = h & 15, jnp.right_shift(h, C._CHAN_SHIFT) & 15
    was_pres = pres == seat
    drew = jnp.where(was_pres, jnp.right_shift(h, C._DREW) & 15, 0)
    passed = jnp.where(was_pres | (chan == seat), jnp.right_shift(h, C._PASSED) & 7, 0)
    return (drew | jnp.left_shift(passed, 4)).astype(U32)


def shift_rows(words: jax.Array, bits: int, keep: np.ndarray) -> jax.Array:
    """Words holding rows of ``bits`` bits, moved up one row (a new nomination becomes row 0):
    a left shift across words (the last axis), cut to the field's bits ``keep``."""
    q, r = divmod(bits, 32)
    pad = jnp.zeros((*words.shape[:-1], q + 1), U32)
    wide = jnp.concatenate([pad, words], axis=-1)
    size = words.shape[-1]
    moved = jnp.left_shift(wide[..., 1 : 1 + size], r)
    if r:
        moved = moved | jnp.right_shift(wide[..., :size], 32 - r)
    return moved & jnp.asarray(keep)


def place(cfg: C.Config, name: str, at: int, width: int, pattern: jax.Array) -> list[jax.Array]:
    """``pattern``'s low ``width`` bits at bit ``at`` of field ``name``, as that field's words
    (``state.field_words``); for writing a row into the words the state keeps."""
    first, end = C.field_words(cfg, name)
    w = _Words(cfg)
    w.put(name, pattern, at, width)
    zero = jnp.zeros(pattern.shape, U32)
    return [zero if x is None else x for x in w.words[first:end]]


def tail_of(cfg: C.Config, st: C.State) -> jax.Array:
    """float32[3]: the counts as the environment divides them (float64, then float32), by
    table look-up."""
    deck = max(1, cfg.deck_size)
    fractions = jnp.asarray((np.arange(64) / deck).astype(np.float32))
    rounds = jnp.asarray((np.minimum(np.arange(33) / 32.0, 1.0)).astype(np.float32))
    return jnp.stack(
        [fractions[st.draw_n], fractions[st.disc_l + st.disc_f], rounds[jnp.minimum(st.round, 32)]]
    )


def _public(cfg: C.Config, st: C.State) -> _Words:
    """The words every seat sees alike: the table, the history rows (and their claims)."""
    layout = cfg.layout
    end = layout.blocks["dynamic"][1]  # the fractions end the default layout
    fields = sorted((f for f in layout.fields.values() if f.offset < end), key=lambda f: f.offset)
    assert [f.name for f in fields][-3:] == list(_FRACTIONS)
    static = _pack(_static(cfg), word_count(cfg))
    w = _Words(cfg, [jnp.asarray(x, U32) if x else None for x in static])
    if cfg.history:  # the rows before, and the current one
        first, _ = C.field_words(cfg, "history")
        for j in range(st.hist_words.shape[0]):
            w._or(first + j, st.hist_words[j])
        lo, hi = history_row(st.row, st.row_votes, st.records > 0)
        w.put("history", lo, 0, 32)
        w.put("history", hi, 32, _ROW_BITS - 32)
    if cfg.claims:
        for i in range(cfg.history):
            w.put("history", st.hist_claims[i], layout.record_size * i + _ROW_BITS, C._CLAIM_BITS)
    ph = st.phase
    if cfg.avalon:  # the assassination has no place in the phase one-hot
        w.put("phase", _one(jnp.where(ph == C.ASSASSINATE, -1, ph)))
        w.put("assassinating", ph == C.ASSASSINATE)
    else:
        w.put("phase", _one(ph))
    w.put("to_act", C.to_act(cfg, st))
    w.put("alive", st.alive)
    for name in ("candidate", "nominee", "president", "chancellor"):
        w.put(name, _one(getattr(st, name)))
    w.put("term_limited", jnp.where(ph == C.NOMINATE, C.term_limited(cfg, st), 0))
    w.put("investigated", st.investigated)
    w.put("not_hitler", st.not_hitler)
    voting = ph == C.VOTE
    w.put("voted", jnp.where(voting, st.voted, 0))
    if cfg.secret_votes:  # during a vote each seat sees its own (``_private``)
        w.put("votes_ja", jnp.where(voting, 0, st.last_ja))
        w.put("votes_nein", jnp.where(voting, 0, st.last_nein))
    else:
        w.put("votes_ja", jnp.where(voting, st.ja & st.voted, st.last_ja))
        w.put("votes_nein", jnp.where(voting, st.voted & ~st.ja, st.last_nein))
    w.put("liberal_policies", _one(jnp.minimum(st.liberal, LIBERAL_TRACK)))
    w.put("fascist_policies", _one(jnp.minimum(st.fascist, FASCIST_TRACK)))
    w.put("election_tracker", _one(jnp.minimum(st.tracker, CHAOS_AT - 1)))
    in_session = (ph == C.DISCARD) | (ph == C.ENACT) | (ph == C.VETO_RESPONSE)
    w.put("veto_available", in_session & (st.veto_enabled != 0) & (st.veto_refused == 0))
    w.put("veto_proposed", ph == C.VETO_RESPONSE)
    w.put("hitler_zone_active", st.fascist >= cfg.rules.hitler_zone)
    w.put("winner", _one(st.winner))
    if cfg.game_types:  # a chaos by failed elections now ends the game (top_decking.ends_game)
        if cfg.top_decking == "not_twice":
            w.put("top_deck_forbidden", st.top_decks[0] > 0)
        elif cfg.top_decking == "forbidden":
            w.put("top_deck_forbidden", jnp.ones((), I32))
    return w


def _private(cfg: C.Config, st: C.State, w: _Words, seat: jax.Array, own: jax.Array) -> None:
    """Or into ``w`` what ``seat`` alone sees: ``seat`` a seat or ``int32[players]`` of them
    (every value then per seat); ``own`` its own-history words (``State.own_hist``'s row)."""
    n = cfg.players
    seats = jnp.arange(n, dtype=I32)
    roles = st.roles[:n]
    spread = jnp.left_shift(7, 3 * seats)  # a seat's three role bits
    roles30 = jnp.sum(jnp.left_shift(1, 3 * seats + roles))
    team = roles != C.LIBERAL
    team30 = jnp.sum(jnp.where(team, jnp.left_shift(1, 3 * seats + roles), 0))
    per_seat = seat.ndim > 0
    role = roles if per_seat else C.of_seat(roles, seat)
    w.put("seat", _one(seat))
    w.put("role", _one(role))
    # the roles it knows (own, night N1-N2, revealed, all at the end)
    sees_team = role == C.FASCIST
    if cfg.rules.hitler_knows(n):
        sees_team = sees_team | (role == C.HITLER)
    own30 = roles30 & jnp.left_shift(7, 3 * jnp.maximum(seat, 0))
    monarch = jnp.zeros((), bool)
    if cfg.special_roles:
        special = st.special[:n]
        monarch = (special if per_seat else C.of_seat(special, seat)) == C.MONARCHIST
    if not cfg.exact_night:  # Morgana or the Monarchist dealt: teammates shown by party, Hitler
        # exactly, but not to the Monarchist (roles.night)
        hitler30 = roles30 & jnp.left_shift(7, 3 * st.hitler)
        known = own30 | jnp.where((role == C.FASCIST) & ~monarch, hitler30, 0)
    else:
        known = own30 | jnp.where(sees_team, team30, 0)
    if cfg.avalon:  # the assassination: Hitler's card face up; he sees the Fascists and Morgana
        assassinating = st.phase == C.ASSASSINATE
        known = known | jnp.where(assassinating, roles30 & jnp.left_shift(7, 3 * st.hitler), 0)
        shown = team30
        if cfg.monarchist:  # neither marked nor a target
            shown = team30 & ~jnp.sum(jnp.where(special == C.MONARCHIST, spread, 0))
        known = known | jnp.where(assassinating & (role == C.HITLER), shown, 0)
    if cfg.rules.reveal_executed_role:
        dead = (jnp.right_shift(st.alive, seats) & 1) == 0
        known = known | (roles30 & jnp.sum(jnp.where(dead, spread, 0)))
    known = jnp.where(st.winner >= 0, roles30, known)
    w.put("known_roles", known)
    if per_seat:
        found = st.inv_parties
        w.put("investigations", found)
        w.put("peek", st.peeks)
    else:
        found = C.of_seat(st.inv_parties, seat)
        w.put("investigations", found)
        w.put("peek", C.of_seat(st.peeks, seat))
    if cfg.game_types:  # the block's known parties: the roles' known, and the investigations
        parties = _parties(known, n) | found
        if cfg.special_roles:
            parties = parties | _avalon_private(cfg, st, w, seat, role, sees_team, known)
        w.put("known_parties", parties)
    if cfg.history:  # the rows before, and the current one
        first, _ = C.field_words(cfg, "own_history")
        for j in range(own.shape[-1]):
            w._or(first + j, own[..., j])
        w.put("own_history", own_row(st.row, seat), 0, _OWN_BITS)
    # the table now, as this seat sees it
    ph = st.phase
    w.put("my_turn", jnp.right_shift(C.to_act(cfg, st), seat) & 1)
    if cfg.secret_votes:
        voting = ph == C.VOTE
        mine = jnp.where(voting, jnp.left_shift(1, seat) & st.voted, 0)
        w.put("votes_ja", mine & st.ja)
        w.put("votes_nein", mine & ~st.ja)
    holds = ((ph == C.DISCARD) & (seat == st.president)) | (
        ((ph == C.ENACT) | (ph == C.VETO_RESPONSE))
        & ((seat == st.president) | (seat == st.chancellor))
    )
    w.put("hand_liberal", _one(jnp.where(holds, st.hand_l, 0)))
    w.put("hand_fascist", _one(jnp.where(holds, st.hand_f, 0)))


def _avalon_private(
    cfg: C.Config,
    st: C.State,
    w: _Words,
    seat: jax.Array,
    role: jax.Array,
    sees_team: jax.Array,
    known: jax.Array,
) -> jax.Array:
    """Avalon SH's part of the block (seat.Knowledge): the own special role, the special
    roles of the seats known exactly, Percival's pair; returns the parties the night and the
    assassination show beyond the roles known (Merlin's and the fascists' teammates by party,
    Hitler's targets)."""
    n = cfg.players
    seats = jnp.arange(n, dtype=I32)
    special = st.special[:n]
    mine = special if seat.ndim > 0 else C.of_seat(special, seat)
    w.put("special_role", _one(mine - 1))
    # 4 bits a seat: seats 0-7 in the field's first 32 bits, 8 and 9 in the next 8
    halves = [jnp.zeros(known.shape, U32), jnp.zeros(known.shape, U32)]
    for s in range(n):
        knows = ((jnp.right_shift(known, 3 * s) & 7) != 0) & (special[s] > 0)
        at = (4 * (s % 8) + special[s] - 1).astype(U32)
        halves[s // 8] = halves[s // 8] | jnp.where(knows, jnp.left_shift(jnp.uint32(1), at), 0)
    w.put("known_special", halves[0], 0, 32)
    w.put("known_special", halves[1], 32, 8)
    pair = jnp.sum(jnp.where((special == C.MERLIN) | (special == C.MORGANA), 1 << seats, 0))
    w.put("merlin_candidates", jnp.where(mine == C.PERCIVAL, pair, 0))
    team = (jnp.right_shift(st.team, seats) & 1) == 1
    team_f = jnp.sum(jnp.where(team, jnp.left_shift(2, 2 * seats), 0))
    liberals = jnp.sum(jnp.where(team, 0, jnp.left_shift(1, 2 * seats)))
    night = jnp.where((mine == C.MERLIN) | sees_team, team_f, 0)
    if cfg.monarchist:  # the Monarchist is never shown Hitler
        night = jnp.where(mine == C.MONARCHIST, team_f & ~jnp.left_shift(2, 2 * st.hitler), night)
    targets = (st.phase == C.ASSASSINATE) & (role == C.HITLER)
    return night | jnp.where(targets, liberals, 0)


def _parties(known: jax.Array, n: int) -> jax.Array:
    """The parties (2 bits a seat: liberal, fascist) of the roles in ``known`` (3 bits a seat:
    liberal, fascist, Hitler)."""
    out = jnp.zeros_like(known)
    for s in range(n):
        liberal = jnp.right_shift(known, 3 * s) & 1
        fascist = (jnp.right_shift(known, 3 * s + 1) | jnp.right_shift(known, 3 * s + 2)) & 1
        out = out | jnp.left_shift(liberal, 2 * s) | jnp.left_shift(fascist, 2 * s + 1)
    return out


def _stack(w: _Words, shape: tuple[int, ...]) -> jax.Array:
    zero = jnp.zeros(shape, U32)
    return jnp.stack([zero if x is None else jnp.broadcast_to(x, shape) for x in w.words], -1)


def _in_phase(st: C.State, phases: frozenset[int] | None) -> C.State:
    """The state as seen by a step specialised to one phase (``phases``): its phase a constant,
    so that what depends on it is decided when compiling (exact for the games in that phase,
    the only ones that act then)."""
    if phases is not None and len(phases) == 1:
        (phase,) = phases
        return st.replace(phase=jnp.asarray(phase, I32))
    return st


def words_of(
    cfg: C.Config, st: C.State, seat: jax.Array, phases: frozenset[int] | None = None
) -> tuple[jax.Array, jax.Array]:
    """``seat``'s observation as bits in 32-bit words, and the three fractions that end it (a
    seat of -1, after the end, is seen as seat 0). ``phases``: for a game in them only."""
    st = _in_phase(st, phases)
    seat = jnp.maximum(jnp.asarray(seat, I32), 0)
    w = _public(cfg, st)
    own = C.of_seat(st.own_hist, seat) if cfg.history else st.own_hist
    _private(cfg, st, w, seat, own)
    return _stack(w, ()), tail_of(cfg, st)


def all_words(cfg: C.Config, st: C.State, phases: frozenset[int] | None = None) -> jax.Array:
    """uint32[players, words]: every seat's observation words (the public part built once).
    ``phases``: for a game in them only."""
    st = _in_phase(st, phases)
    w = _public(cfg, st)
    _private(cfg, st, w, jnp.arange(cfg.players, dtype=I32), st.own_hist)
    return _stack(w, (cfg.players,))


def observe_seat(cfg: C.Config, st: C.State, seat: jax.Array) -> jax.Array:
    """float32[layout size]: what ``seat`` may know, as the environment encodes it."""
    return C.unpack(*words_of(cfg, st, seat), cfg.history, cfg.claims, cfg.game_types)


# ---------------------------------------------------------------- a batch's observations
# Functions of a state with any leading batch axes (``State.legal_action_mask``'s companions):
# the state does not hold them and does not import this module, which reads it.
def current_obs_words(st: C.State) -> jax.Array:
    """uint32[..., words]: the current player's observation as bits, 32 to a word (all of the
    vector but the three fractions that end it, ``obs_tail``)."""
    return C.per_game(st, lambda g: words_of(g.config, g, g.current_player)[0])


def obs_tail(st: C.State) -> jax.Array:
    """float32[..., 3]: the observation's three fractions (the piles, the round)."""
    return C.per_game(st, lambda g: tail_of(g.config, g))


def current_observation(st: C.State) -> jax.Array:
    """float32[..., layout size]: the current player's observation, the environment's vector;
    inside a caller's ``jit`` the unpacking fuses into what reads it."""
    cfg = st.config
    return C.unpack(current_obs_words(st), obs_tail(st), cfg.history, cfg.claims, cfg.game_types)


def all_obs_words(st: C.State) -> jax.Array:
    """uint32[..., players, words]: every seat's observation as bits (the public words built
    once and each seat's own bits laid over them)."""
    return C.per_game(st, lambda g: all_words(g.config, g))


def all_observations(st: C.State) -> jax.Array:
    """float32[..., players, layout size]: every seat's observation (``Env.step_all``'s)."""
    words = all_obs_words(st)
    tail = jnp.expand_dims(obs_tail(st), -2)
    tail = jnp.broadcast_to(tail, (*words.shape[:-1], tail.shape[-1]))
    cfg = st.config
    return C.unpack(words, tail, cfg.history, cfg.claims, cfg.game_types)
