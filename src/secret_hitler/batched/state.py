"""The batched engine's state (one game as small integers and bit sets), its table
configuration, and what is read from it (who acts, the mask); core.py has ``init`` and ``step``,
written for ``jax.vmap`` (every branch is computed and selected, no Python control flow on
values), so thousands of games advance in lockstep.

This is the project's one compiled second form of the rules (developer guide): the engine
(engine/game.py) is the authority, and tests/batched replays every game played here through
``engine.replay`` and compares observations and masks with the environment's at every step.
The comments cite the engine method each block mirrors.

Representation: a seat set is a 10-bit mask (bit ``s`` is seat ``s``); the draw pile is a bit
string, top first (bit 0 is the top policy, 1 = fascist), with its length; roles are 0 liberal,
1 fascist, 2 Hitler; powers are 0 none, 1 investigate, 2 special election, 3 peek, 4 execute
(``encoding.POWERS`` order, plus one); phases are ``encoding.PHASES`` indices.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from ..engine.settings import Rules
from ..env import encoding as E

I32 = jnp.int32
F32 = jnp.float32
SEATS = E.MAX_SEATS
NUM_ACTIONS = E.NUM_ACTIONS  # without claims; ``Config.num_actions`` with

PHASE = {name: i for i, name in enumerate(E.PHASES)}
NOMINATE, VOTE, DISCARD, ENACT = PHASE["nominate"], PHASE["vote"], PHASE["discard"], PHASE["enact"]
VETO_RESPONSE, GAME_OVER = PHASE["veto_response"], PHASE["game_over"]
POWER_CODE = {name: i + 1 for i, name in enumerate(E.POWERS)}
INVESTIGATE, SPECIAL_ELECTION, PEEK, EXECUTE = (POWER_CODE[p] for p in E.POWERS)
#: the phase in which each targeted power is used (by power code)
POWER_PHASE = {
    INVESTIGATE: PHASE["investigate"],
    SPECIAL_ELECTION: PHASE["special_election"],
    EXECUTE: PHASE["execute"],
}
LIBERAL, FASCIST, HITLER = 0, 1, 2
WINNERS = ("liberal", "fascist")  # state.winner 0, 1 (-1: none)
REASONS = (
    None,
    "five_liberal_policies",
    "six_fascist_policies",
    "hitler_elected",
    "hitler_executed",
)

# History row word (``State.hist``): president, chancellor and what happened in that round.
_CHAN_SHIFT = 4
_ELECTED = 8
_ENACTED = 9  # +0 liberal, +1 fascist
_VETO_REFUSED = 11
_VETOED = 12
_CHAOS = 13  # +0 liberal, +1 fascist
_POWER = 15  # +code-1
_TARGET = 19  # 4 bits: the seat
_HAS_TARGET = 23
_DREW = 24  # one-hot liberals among the 3 drawn (4 bits)
_PASSED = 28  # one-hot liberals among the 2 passed (3 bits)
# Claims word of a history row (``State.hist_claims``): ``encoding.CLAIM_RECORD_FIELDS`` bit
# for bit: the president's (4 bits), the chancellor's (3), the peek's (6), the party (2).
_CLAIM_CHAN = 4
_CLAIM_PEEK = 7
_CLAIM_PARTY = 13
_CLAIM_BITS = 15
assert _CLAIM_BITS == E.CLAIMS_RECORD_SIZE - E.RECORD_SIZE
# Claim windows of a seat (``State.claim_open``): the subjects it may still claim.
OPEN_PRESIDENT, OPEN_CHANCELLOR, OPEN_PEEK, OPEN_INVESTIGATION = 1, 2, 4, 8
#: Most reshuffles one game can record; a game that needs more is truncated (random games
#: need at most 3; the longest possible game about 16).
MAX_RESHUFFLES = 16


@dataclass(frozen=True)
class Config:
    """A table: seat count, rules (a preset name, a ``{"preset": ...}`` dict or ``Rules``), the
    observation's history length, and whether claims are in the action space and observation
    (the environment's ``claims``). Everything is resolved by the engine's ``Rules``."""

    players: int = 7
    rules: Any = "official"
    history: int = E.DEFAULT_HISTORY
    claims: bool = False
    resolved: Rules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rules = self.rules if isinstance(self.rules, Rules) else Rules.from_json(self.rules)
        rules.validate(self.players)  # the engine's checks, its messages
        if sum(rules.deck) > 31:
            raise ValueError("the batched engine holds decks of at most 31 policies")
        if self.history < 0:
            raise ValueError("history must be >= 0")
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "resolved", rules)

    def __hash__(self) -> int:
        return hash((self.players, self.rules, self.history, self.claims))

    @property
    def board(self) -> tuple[int, ...]:
        return tuple(
            0 if p is None else POWER_CODE[p.value] for p in self.rules.board(self.players)
        )

    @property
    def deck_size(self) -> int:
        return sum(self.rules.deck)

    @property
    def layout(self) -> E.Layout:
        return _layout(self.history, self.claims)

    @property
    def num_actions(self) -> int:
        return E.num_actions(self.claims)


@functools.cache
def _layout(history: int, claims: bool) -> E.Layout:
    return E.Layout(history, claims)


class State(NamedTuple):
    """One game (a leading batch axis under ``vmap``). Fixings, then play, then outputs."""

    roles: jax.Array  # int32[10]: 0 liberal, 1 fascist, 2 Hitler (seats past the table: 0)
    first_president: jax.Array
    deck: jax.Array  # the initial draw pile, bit i = i-th from the top is fascist
    reshuffle_piles: jax.Array  # int32[MAX_RESHUFFLES]: each reshuffle's pile, as ``deck``
    reshuffle_sizes: jax.Array  # int32[MAX_RESHUFFLES]: and its length
    reshuffles: jax.Array  # how many happened
    fixed_piles: jax.Array  # int32[MAX_RESHUFFLES]: reshuffles fixed by a record
    fixed: jax.Array  # how many are fixed
    seed: jax.Array  # uint32[2]: the randomness of reshuffles (``randoms``)
    phase: jax.Array
    round: jax.Array
    candidate: jax.Array
    nominee: jax.Array  # -1: none
    president: jax.Array  # the last elected government, -1 before one
    chancellor: jax.Array
    liberal: jax.Array
    fascist: jax.Array
    tracker: jax.Array
    alive: jax.Array  # seat set
    investigated: jax.Array  # seat set
    not_hitler: jax.Array  # seat set: elected chancellors in the Hitler zone (E8)
    inv_known: jax.Array  # int32[10]: the seats each seat has investigated
    peek: jax.Array  # int32[10]: each seat's last peek (3 bits, top first), -1 none
    voted: jax.Array  # seat set, open election
    ja: jax.Array  # seat set, open election
    last_ja: jax.Array  # the last revealed votes
    last_nein: jax.Array
    hand_l: jax.Array  # the policies in the open session's hand
    hand_f: jax.Array
    veto_enabled: jax.Array
    veto_refused: jax.Array
    veto_choice: jax.Array  # -1, or the policy a veto_after_choice veto keeps
    vetoes_used: jax.Array
    power_president: jax.Array
    power_targets: jax.Array  # seat set
    after_session: jax.Array  # a power used before the session (forum timing)
    limit_pres: jax.Array  # term limits' government, -1 none
    limit_chan: jax.Array
    limit_round: jax.Array
    rotation: jax.Array
    special_next: jax.Array  # -1 none
    pending_power: jax.Array  # power_timing next_president: for the next elected president
    post_power: jax.Array  # a special election to use after the session
    winner: jax.Array  # -1 none, 0 liberal, 1 fascist
    reason: jax.Array  # REASONS index
    pile: jax.Array  # draw pile bits, top first
    draw_n: jax.Array
    disc_l: jax.Array
    disc_f: jax.Array
    hist: jax.Array  # int32[history]: a word per nomination, newest first
    hist_row: jax.Array  # uint32[history, 2]: each row's public bits as the observation lays
    # them out (``observation.history_row``: bits 0-31 and 32-61 of the row), so that each
    # step places them instead of rebuilding eight rows
    # claims (``Config.claims``; without, these arrays are empty and session_at stays 0)
    hist_claims: jax.Array  # int32[history]: the claims about each row's round
    claim_open: jax.Array  # int32[10]: each seat's open claim windows (OPEN_* bits)
    session_at: jax.Array  # the nomination (``records`` then) of the last session
    peek_at: jax.Array  # int32[10]: and of each seat's last peek
    investigation_at: jax.Array  # int32[10]: and of each seat's last investigation
    records: jax.Array  # nominations so far
    steps: jax.Array  # decisions so far
    current_player: jax.Array  # the seat to act (the environment's agent_selection), -1 at the end
    mask_words: jax.Array  # uint32[2, or 3 with claims]: the current player's mask, bits
    obs_words: jax.Array  # uint32[words]: the current player's observation, bits (below)
    obs_tail: jax.Array  # float32[3]: and the three fractions that end it
    rewards: jax.Array  # float32[players], on the step that ends the game
    terminated: jax.Array
    truncated: jax.Array  # more reshuffles than MAX_RESHUFFLES (never in practice)

    @property
    def observation(self) -> jax.Array:
        """float32[..., layout size]: the current player's observation, the environment's
        vector. The step computes it as bits (``obs_words``, 26 words at the default history:
        the same values, 32 to a word) and the floats are unpacked here, where they are read:
        inside a caller's ``jit`` the unpacking fuses into what reads it (a policy's first
        layer) instead of writing 3.3 kB per game and step."""
        return unpack(
            self.obs_words, self.obs_tail, self.hist.shape[-1], self.hist_claims.shape[-1] > 0
        )

    @property
    def legal_action_mask(self) -> jax.Array:
        """bool[..., num_actions]: the current player's legal actions. The step computes them
        as bits (``mask_words``: action ``i`` is bit ``i % 32`` of word ``i // 32``), unpacked
        here where they are read, as the observation is."""
        return unpack_mask(self.mask_words)


#: the observation's last three fields, the only ones that are not bits
OBS_FRACTIONS = ("draw_pile", "discard_pile", "round")


def bits_end(history: int, claims: bool = False) -> int:
    """Where the observation's bits end (its fractions begin)."""
    return _layout(history, claims)[OBS_FRACTIONS[0]].offset


def _bits(words: jax.Array, size: int) -> jax.Array:
    """The first ``size`` bits of 32-bit words (bit ``i`` of word ``j`` is entry ``32 j + i``),
    as 0/1; any leading batch axes."""
    bits = jnp.right_shift(words[..., None], jnp.arange(32, dtype=jnp.uint32)) & 1
    return bits.reshape(*words.shape[:-1], -1)[..., :size]


def or_bits(words: list[jax.Array], offset: int, width: int, pattern: jax.Array) -> None:
    """Or the low ``width`` bits of ``pattern`` into 32-bit ``words`` from bit ``offset`` on
    (the layout ``_bits`` reads), spilling into the next word where they cross one: how the
    mask and the observation are packed."""
    assert 0 < width <= 32, width
    word, shift = divmod(offset, 32)
    pattern = pattern.astype(jnp.uint32)
    words[word] = words[word] | jnp.left_shift(pattern, shift)
    if shift + width > 32:
        words[word + 1] = words[word + 1] | jnp.right_shift(pattern, 32 - shift)


def unpack_mask(words: jax.Array) -> jax.Array:
    """bool[..., num_actions] of a mask's words (2 words: 51 actions, 3: with claims)."""
    return _bits(words, E.num_actions(claims=words.shape[-1] > 2)).astype(bool)


def unpack(words: jax.Array, tail: jax.Array, history: int, claims: bool = False) -> jax.Array:
    """The float32 observation vector of its bit words and the three fractions that end it;
    any leading batch axes."""
    bits = _bits(words, bits_end(history, claims))
    return jnp.concatenate([bits.astype(F32), tail], axis=-1)


# ------------------------------------------------------------------------------ bit helpers
def _bit(seat: jax.Array) -> jax.Array:
    """The set {seat}; empty for -1."""
    return jnp.where(seat >= 0, jnp.left_shift(1, jnp.maximum(seat, 0)), 0).astype(I32)


def _popcount(x: jax.Array) -> jax.Array:
    return jax.lax.population_count(x).astype(I32)


def _first_from(mask: jax.Array, start: jax.Array, n: int) -> jax.Array:
    """The first seat of ``mask`` at or after ``start`` going left (seat+1), wrapping at n."""
    full = (1 << n) - 1
    rot = (jnp.right_shift(mask, start) | jnp.left_shift(mask, n - start)) & full
    k = _popcount((rot & -rot) - 1)
    return (start + k) % n


def _seat_bits(mask: jax.Array) -> jax.Array:
    return (jnp.right_shift(mask, jnp.arange(SEATS, dtype=I32)) & 1).astype(bool)


def _mix(x: jax.Array) -> jax.Array:
    """A 32-bit integer hash (lowbias32: two multiply-xorshift rounds; a bijection, each input
    bit flipping every output bit with probability 1/2 within 0.02%)."""
    x = x ^ jnp.right_shift(x, 16)
    x = x * jnp.uint32(0x7FEB352D)
    x = x ^ jnp.right_shift(x, 15)
    x = x * jnp.uint32(0x846CA68B)
    return x ^ jnp.right_shift(x, 16)


def randoms(seed: jax.Array, stream: Any, size: int) -> jax.Array:
    """int32[size]: 23-bit uniform values, the ``stream``-th run of ``seed`` (uint32[2], drawn
    from a game's JAX key): the hash of counter x odd stride + offset, the stride and offset
    being the seed's words. A reshuffle computes only its own values instead of a game carrying
    them all from its deal."""
    counter = jnp.left_shift(jnp.asarray(stream, jnp.uint32), 6) + jnp.arange(
        size, dtype=jnp.uint32
    )
    value = _mix(counter * (seed[0] | 1) + seed[1])
    return jnp.right_shift(value, 9).astype(I32)


def _arrange(bits: jax.Array, m: Any, f: Any) -> jax.Array:
    """A uniformly shuffled pile of ``m`` policies, ``f`` of them fascist, as pile bits:
    position i is fascist with probability (fascists left)/(positions left), from 23 random
    bits each (``bits``)."""
    pile = jnp.zeros((), I32)
    left_f = f
    for i in range(bits.shape[0]):
        take = (i < m) & (bits[i] * (m - i) < jnp.left_shift(left_f, 23))
        pile = pile | jnp.left_shift(take.astype(I32), i)
        left_f = left_f - take
    return pile


# ------------------------------------------------------------------------------ outputs
def term_limited(cfg: Config, st: State) -> jax.Array:
    """Game.term_limited: the seats barred from the chancellorship at this nomination."""
    rules = cfg.rules
    chan, pres = st.limit_chan, st.limit_pres
    active = chan >= 0
    if rules.term_limits == "previous_round":
        active = active & (st.limit_round == st.round - 1)
    exception = rules.small_table_exception
    if exception == "living":
        small = _popcount(st.alive) <= 5
    else:
        small = jnp.asarray(exception == "started" and cfg.players == 5)
    barred = _bit(chan) | jnp.where(small, 0, _bit(pres))
    return jnp.where(active, barred, 0)


def eligible(cfg: Config, st: State) -> jax.Array:
    """Game.eligible_chancellors (E2, E3, A11) as a seat set."""
    others = st.alive & ~_bit(st.candidate)
    free = others & ~term_limited(cfg, st)
    return jnp.where(free != 0, free, others)


def to_act(cfg: Config, st: State) -> jax.Array:
    """Game.to_act as a seat set: every seat yet to vote during an election."""
    ph = st.phase
    decider = jnp.where(ph == NOMINATE, st.candidate, st.power_president)
    decider = jnp.where((ph == DISCARD) | (ph == VETO_RESPONSE), st.president, decider)
    decider = jnp.where(ph == ENACT, st.chancellor, decider)
    out = jnp.where(ph == VOTE, st.alive & ~st.voted, _bit(decider))
    return jnp.where(ph == GAME_OVER, 0, out)


def current_player(cfg: Config, st: State) -> jax.Array:
    """The seat that acts next: the voters one after another from the candidate's left (the
    environment's agent_selection), else the one seat the engine waits for; -1 at the end."""
    n = cfg.players
    acting = to_act(cfg, st)
    voter = _first_from(acting, (st.candidate + 1) % n, n)
    single = _popcount((acting & -acting) - 1)
    out = jnp.where(st.phase == VOTE, voter, single)
    return jnp.where((acting == 0) | st.truncated, -1, out)


def legal_mask(cfg: Config, st: State, seat: jax.Array) -> jax.Array:
    """bool[num_actions]: the legal actions of ``seat`` (all false unless it is the current
    player); with claims, those its open windows allow beside its move (Game.legal_actions)."""
    return unpack_mask(mask_words(cfg, st, seat))


def mask_words(cfg: Config, st: State, seat: jax.Array) -> jax.Array:
    """``legal_mask`` as bits in 32-bit words (action ``i`` is bit ``i % 32`` of word
    ``i // 32``): the seat sets are bit sets already, so each block is a shift."""
    ph = st.phase
    rules = cfg.rules
    voting = ph == VOTE
    hl, hf = st.hand_l > 0, st.hand_f > 0
    discard, enacting = ph == DISCARD, ph == ENACT
    veto = enacting & (st.veto_enabled != 0) & (st.veto_refused == 0)
    if rules.veto_after_choice:
        vetoes = [jnp.zeros((), bool), veto & hl, veto & hf]
    else:
        vetoes = [veto, jnp.zeros((), bool), jnp.zeros((), bool)]
    responding = ph == VETO_RESPONSE
    singles = [voting, voting, discard & hl, discard & hf, enacting & hl, enacting & hf]
    singles += vetoes + [responding, responding]
    flags = sum(
        (jnp.left_shift(flag.astype(jnp.uint32), E.JA + i) for i, flag in enumerate(singles)),
        jnp.zeros((), jnp.uint32),
    )
    targets = st.power_targets.astype(jnp.uint32)
    blocks = [  # offset, width, bits
        (E.NOMINATE, SEATS, jnp.where(ph == NOMINATE, eligible(cfg, st), 0).astype(jnp.uint32)),
        (0, E.INVESTIGATE, flags),
        (E.INVESTIGATE, SEATS, jnp.where(ph == PHASE["investigate"], targets, 0)),
        (E.SPECIAL_ELECTION, SEATS, jnp.where(ph == PHASE["special_election"], targets, 0)),
        (E.EXECUTE, SEATS, jnp.where(ph == PHASE["execute"], targets, 0)),
    ]
    if cfg.claims:
        window = jnp.sum(jnp.where(jnp.arange(SEATS) == seat, st.claim_open, 0))
        for (bit, size), (_, start, _, _) in zip(_CLAIM_BLOCKS, E.CLAIM_ACTION_TABLE, strict=True):
            all_of = jnp.uint32((1 << size) - 1)
            blocks.append((start, size, jnp.where((window & bit) != 0, all_of, jnp.uint32(0))))
    words = [jnp.zeros((), jnp.uint32)] * ((cfg.num_actions + 31) // 32)
    for offset, width, pattern in blocks:
        or_bits(words, offset, width, pattern)
    me = (seat == st.current_player) & (seat >= 0)
    return jnp.where(me, jnp.stack(words), jnp.uint32(0))


#: The claim blocks of the action space (``encoding.CLAIM_ACTION_TABLE``) by window.
_CLAIM_BLOCKS = tuple(
    zip(
        (OPEN_PRESIDENT, OPEN_CHANCELLOR, OPEN_PEEK, OPEN_INVESTIGATION),
        (size for _, _, size, _ in E.CLAIM_ACTION_TABLE),
        strict=True,
    )
)


def pile_bits(policies: Any) -> int:
    """Pile bits of a list of ``liberal``/``fascist`` (top first)."""
    return sum(1 << i for i, p in enumerate(policies) if str(p) == "fascist")
