"""The batched engine's state (one game as small integers and bit sets), its table
configuration, and what is read from it: who acts, the masks, the observations; core.py has
``init`` and the steps, stages.py the transition, written for ``jax.vmap`` (every branch is
computed and selected, no Python control flow on values), so thousands of games advance in
lockstep.

This is the project's one compiled second form of the rules (developer guide): the engine
(engine/game.py) is the authority, and tests/batched replays every game played here through
``engine.replay`` and compares observations and masks with the environment's at every step.
The comments cite the engine method each block mirrors.

Representation: a seat set is a 10-bit mask (bit ``s`` is seat ``s``); the draw pile is a bit
string, top first (bit 0 is the top policy, 1 = fascist), of which only the top ``known``
positions are drawn yet (pile.py); roles are 0 liberal, 1 fascist, 2 Hitler; powers are 0
none, 1 investigate, 2 special election, 3 peek, 4 execute (``encoding.POWERS`` order, plus
one); phases are ``encoding.PHASES`` indices.

The state holds what the rules need and nothing a step would only write for a reader: the
observations and masks are functions of it, computed where they are read (``State.legal_action_mask``
here, ``observation.current_observation`` and ``observation.all_observations`` for every seat:
the state does not import what reads it), so a loop that does not
read them does not pay for them, and one that does computes them inside its own compiled code.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp

from ..engine.settings import FASCIST_TRACK, MIN_PLAYERS, Rules
from ..env import encoding as E

I32 = jnp.int32
U32 = jnp.uint32
F32 = jnp.float32
SEATS = E.MAX_SEATS
NUM_ACTIONS = E.NUM_ACTIONS  # without claims; ``Config.num_actions`` with
#: The board's slots: one power per fascist policy but the last (which wins).
BOARD_SLOTS = FASCIST_TRACK - 1
#: The table size whose term limits bar only the last chancellor (Game.term_limited: "five
#: or fewer living", "a five-player game"); the smallest table the rules allow.
SMALL_TABLE = MIN_PLAYERS

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
#: the phases in which a power is used
POWER_PHASES = frozenset(POWER_PHASE.values())
#: Avalon SH's assassination (``Config.avalon``): a phase outside the environment's one-hot
ASSASSINATE = len(E.PHASES)
#: the phases in which a seat decides
DECISION_PHASES = frozenset(range(len(E.PHASES))) - {GAME_OVER} | {ASSASSINATE}
LIBERAL, FASCIST, HITLER = 0, 1, 2
#: ``State.special``: 0 none, else ``encoding.SPECIAL_ROLES`` index + 1
MERLIN, PERCIVAL, MORGANA, MONARCHIST = (
    E.SPECIAL_ROLES.index(r) + 1 for r in ("merlin", "percival", "morgana", "monarchist")
)
WINNERS = ("liberal", "fascist")  # state.winner 0, 1 (-1: none)
REASONS = (
    None,
    "five_liberal_policies",
    "six_fascist_policies",
    "hitler_elected",
    "hitler_executed",
    "top_decked",  # no top-decking (``Config.top_decking``): a failed election's chaos ends it
    "merlin_assassinated",  # Avalon SH: Hitler named Merlin
)

# The current history row's word (``State.row``): president, chancellor and what happened in
# that round; the seat's own part (drew, passed) goes to ``State.own_hist``.
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
    """A table: seat count, rules (a preset name, a ``{"preset": ...}`` dict or ``Rules``, as
    the environment's ``raw_env`` takes them), the observation's history length, and whether
    claims are in the action space and observation (the environment's ``claims``). Everything
    is resolved by the engine's ``Rules``: a rebalanced table's deck and starting track
    (``Rules.deck_for``, ``Rules.start_track_for``) are constants of the compiled program, so
    a table that is not rebalanced compiles to the program it always did. No top-decking,
    Avalon SH and the Monarchist add the environment's ``game_types`` observation block and
    action block (``game_types``; docs/batched.md, "Game types")."""

    players: int = 7
    rules: Any = "official"
    history: int = E.DEFAULT_HISTORY
    claims: bool = False
    resolved: Rules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rules = self.rules if isinstance(self.rules, Rules) else Rules.from_json(self.rules)
        rules.validate(self.players)  # the engine's checks, its messages
        if sum(rules.deck_for(self.players)) > 31:
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
    def deck(self) -> tuple[int, int]:
        """The initial draw pile (liberal, fascist) of this table: the engine's
        ``Rules.deck_for`` (a rebalanced table's own deck)."""
        return self.resolved.deck_for(self.players)

    @property
    def start_track(self) -> tuple[int, int]:
        """The policies on the tracks (liberal, fascist) at the start: the engine's
        ``Rules.start_track_for`` (a rebalanced 6-player table starts with one fascist)."""
        return self.resolved.start_track_for(self.players)

    @property
    def deck_size(self) -> int:
        return sum(self.deck)

    @property
    def top_decking(self) -> str:
        """The no top-decking setting (``Rules.top_decking``): "allowed" costs nothing."""
        return str(self.resolved.top_decking)

    @property
    def avalon(self) -> bool:
        """Avalon SH (``Rules.avalon``: Merlin, and with "percival" Percival and Morgana)."""
        return bool(self.resolved.avalon != "off")

    @property
    def percival(self) -> bool:
        return bool(self.resolved.avalon == "percival")

    @property
    def monarchist(self) -> bool:
        """One fascist card is the Monarchist (``Rules.monarchist``)."""
        return bool(self.resolved.monarchist)

    @property
    def special_roles(self) -> bool:
        """The deal has the game types' roles (``State.special`` is not empty)."""
        return self.avalon or self.monarchist

    @property
    def exact_night(self) -> bool:
        """The fascists see their teammates' exact roles (engine/roles.py
        ``shows_exact_roles``): neither Morgana nor the Monarchist is dealt."""
        return not (self.percival or self.monarchist)

    @property
    def game_types(self) -> bool:
        """The table needs the environment's ``game_types`` blocks (``encoding.game_types_of``;
        of those the batched engine plays only no top-decking)."""
        return bool(E.game_types_of(self.resolved))

    @property
    def layout(self) -> E.Layout:
        return _layout(self.history, self.claims, self.game_types)

    @property
    def num_actions(self) -> int:
        return E.num_actions(self.claims, self.game_types)

    @property
    def mask_size(self) -> int:
        """32-bit words of a mask."""
        return (self.num_actions + 31) // 32

    @property
    def secret_votes(self) -> bool:
        """Votes are cast unseen and revealed together, so every living seat may vote at once
        (``Env.step_all``); under public sequential voting each voter sees the votes before."""
        return bool(self.rules.voting != "public_sequential")


@functools.cache
def _layout(history: int, claims: bool, game_types: bool = False) -> E.Layout:
    return E.Layout(history, claims, game_types)


def field_words(cfg: Config, name: str) -> tuple[int, int]:
    """The observation words (first, one past the last) that hold field ``name``'s bits."""
    f = cfg.layout[name]
    return f.offset // 32, (f.offset + f.size + 31) // 32 if f.size else f.offset // 32


@dataclass(frozen=True)
class State:
    """One game (leading batch axes under ``vmap``): fixings, the pile, play, the history, the
    claims, and the step's results; a pytree whose ``config`` is static. The observations and
    masks are properties computed from it where they are read."""

    config: Config
    # -- fixings (a record's: the deal, the first president, the deck, fixed reshuffles)
    roles: jax.Array  # int32[10]: 0 liberal, 1 fascist, 2 Hitler (seats past the table: 0)
    special: jax.Array  # int32[10] with Avalon SH or the Monarchist (else empty): MERLIN, ..., 0
    hitler: jax.Array  # Hitler's seat
    team: jax.Array  # seat set: the fascists and Hitler
    first_president: jax.Array
    deck: jax.Array  # the initial draw pile, bit i = i-th from the top is fascist
    fixed_piles: jax.Array  # int32[MAX_RESHUFFLES]: reshuffles fixed by a record, as ``deck``
    fixed: jax.Array  # how many are fixed
    seed: jax.Array  # uint32[2]: the randomness of reshuffles (pile.py)
    # -- the draw pile (pile.py: positions are drawn from the reshuffle's stream when needed)
    pile: jax.Array  # the known top positions, as bits (top first)
    known: jax.Array  # how many positions from the top are known
    unknown_f: jax.Array  # fascist policies among the positions not known yet
    draw_n: jax.Array
    disc_l: jax.Array
    disc_f: jax.Array
    reshuffles: jax.Array  # how many happened
    reshuffle_counts: jax.Array  # int32[MAX_RESHUFFLES]: each one's size | fascists << 8
    # -- the table
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
    reason: jax.Array  # REASONS index (during the assassination: its trigger)
    top_decks: jax.Array  # int32[1] under no top-decking (else empty): chaos by failed
    # elections since the last passed election (Game._top_decks)
    # -- what each seat learned, as the observation lays it out
    inv_parties: jax.Array  # int32[players]: per seat, the parties it found (bit 2t + party)
    peeks: jax.Array  # int32[players]: per seat, its last peek (bit 2i + policy of the i-th)
    # -- the history: the current nomination's row, and the rows as the observation holds them
    row: jax.Array  # the current row's word (the _CHAN_SHIFT ... _PASSED bits above)
    row_votes: jax.Array  # its revealed votes: ja | nein << 10
    hist_words: jax.Array  # uint32[w]: the observation's words of its ``history`` field
    own_hist: jax.Array  # uint32[players, w]: each seat's words of its ``own_history`` field
    # -- claims (``Config.claims``; without, these arrays are empty and session_at stays 0)
    hist_claims: jax.Array  # int32[history]: the claims about each row's round
    claim_open: jax.Array  # int32[10]: each seat's open claim windows (OPEN_* bits)
    session_at: jax.Array  # the nomination (``records`` then) of the last session
    peek_at: jax.Array  # int32[10]: and of each seat's last peek
    investigation_at: jax.Array  # int32[10]: and of each seat's last investigation
    records: jax.Array  # nominations so far
    steps: jax.Array  # decisions so far (a vote of every living seat at once counts each)
    # -- the step's results
    current_player: jax.Array  # the seat to act (the environment's agent_selection), -1 at the end
    rewards: jax.Array  # float32[players], on the step that ends the game
    terminated: jax.Array
    truncated: jax.Array  # more reshuffles than MAX_RESHUFFLES (never in practice)

    def replace(self, **values: Any) -> State:
        return dataclasses.replace(self, **values)

    def fields(self) -> dict[str, jax.Array]:
        """The arrays by name (the pytree's leaves)."""
        return {name: getattr(self, name) for name in _DATA_FIELDS}

    # -- outputs, computed where read (any leading batch axes)
    @property
    def acting(self) -> jax.Array:
        """The seats that act in ``Env.step_all``: every seat the engine waits for (in a
        secret vote every living seat yet to vote), else the current player alone."""
        return per_game(self, lambda st: acting(st.config, st))

    @property
    def mask_words(self) -> jax.Array:
        """uint32[..., words]: the current player's legal actions as bits (action ``i`` is bit
        ``i % 32`` of word ``i // 32``); the seat sets are bit sets already, so each block of
        the action space is a shift."""
        return per_game(self, lambda st: mask_words(st.config, st, st.current_player))

    @property
    def legal_action_mask(self) -> jax.Array:
        """bool[..., num_actions]: the current player's legal actions."""
        return unpack_mask(self.mask_words, self.config.num_actions)

    @property
    def seat_mask_words(self) -> jax.Array:
        """uint32[..., players, words]: every seat's mask (zeros for a seat not in ``acting``)."""
        return per_game(self, lambda st: seat_mask_words(st.config, st))

    @property
    def legal_action_masks(self) -> jax.Array:
        """bool[..., players, num_actions]: every seat's legal actions in ``Env.step_all``."""
        return unpack_mask(self.seat_mask_words, self.config.num_actions)


_DATA_FIELDS = tuple(f.name for f in dataclasses.fields(State) if f.name != "config")
jax.tree_util.register_dataclass(State, data_fields=list(_DATA_FIELDS), meta_fields=["config"])


def per_game(st: State, fn: Callable[[State], jax.Array]) -> jax.Array:
    """``fn`` of one game applied over any leading batch axes of ``st``."""
    for _ in range(st.phase.ndim):
        fn = jax.vmap(fn)
    out: jax.Array = fn(st)
    return out


#: the observation's last three fields, the only ones that are not bits
OBS_FRACTIONS = ("draw_pile", "discard_pile", "round")


def bits_end(history: int, claims: bool = False) -> int:
    """Where the default layout's bits end (its fractions begin; a ``game_types`` block's bits
    follow them)."""
    return _layout(history, claims)[OBS_FRACTIONS[0]].offset


def _bits(words: jax.Array, size: int) -> jax.Array:
    """The first ``size`` bits of 32-bit words (bit ``i`` of word ``j`` is entry ``32 j + i``),
    as 0/1; any leading batch axes."""
    bits = jnp.right_shift(words[..., None], jnp.arange(32, dtype=U32)) & 1
    return bits.reshape(*words.shape[:-1], -1)[..., :size]


def or_bits(words: list[jax.Array], offset: int, width: int, pattern: jax.Array) -> None:
    """Or the low ``width`` bits of ``pattern`` into 32-bit ``words`` from bit ``offset`` on
    (the layout ``_bits`` reads), spilling into the next word where they cross one: how the
    mask and the observation are packed."""
    assert 0 < width <= 32, width
    word, shift = divmod(offset, 32)
    pattern = pattern.astype(U32)
    words[word] = words[word] | jnp.left_shift(pattern, shift)
    if shift + width > 32:
        words[word + 1] = words[word + 1] | jnp.right_shift(pattern, 32 - shift)


def unpack_mask(words: jax.Array, size: int | None = None) -> jax.Array:
    """bool[..., size] of a mask's words (``Config.num_actions``; by default 51 actions in 2
    words, 68 in 3: with claims)."""
    if size is None:
        size = E.num_actions(claims=words.shape[-1] > 2)
    return _bits(words, size).astype(bool)


def unpack(
    words: jax.Array, tail: jax.Array, history: int, claims: bool = False, game_types: bool = False
) -> jax.Array:
    """The float32 observation vector of its bit words and the three fractions that end the
    default layout (with ``game_types`` the block's bits follow them); any leading batch axes."""
    end = bits_end(history, claims)
    if not game_types:
        return jnp.concatenate([_bits(words, end).astype(F32), tail], axis=-1)
    bits = _bits(words, _layout(history, claims, True).size).astype(F32)
    return jnp.concatenate([bits[..., :end], tail, bits[..., end + len(OBS_FRACTIONS) :]], -1)


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


def _lowest(mask: jax.Array) -> jax.Array:
    """The lowest seat of a non-empty set."""
    return _popcount((mask & -mask) - 1)


def of_seat(values: jax.Array, seat: jax.Array) -> jax.Array:
    """``values[seat]`` of a per-seat array, as a sum of one match (a select per seat, where
    a gather by a per-game index is a slow loop on the CPU); 0 for -1."""
    match = jnp.arange(values.shape[0]).reshape((-1,) + (1,) * (values.ndim - 1)) == seat
    return jnp.sum(jnp.where(match, values, 0), axis=0, dtype=values.dtype)


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
        small = _popcount(st.alive) <= SMALL_TABLE
    else:
        small = jnp.asarray(exception == "started" and cfg.players == SMALL_TABLE)
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
    waiting = to_act(cfg, st)
    voter = _first_from(waiting, (st.candidate + 1) % n, n)
    out = jnp.where(st.phase == VOTE, voter, _lowest(waiting))
    return jnp.where((waiting == 0) | st.truncated, -1, out)


def acting(cfg: Config, st: State) -> jax.Array:
    """``State.acting``: the seats of a parallel step."""
    if cfg.secret_votes:
        return jnp.where(st.truncated, 0, to_act(cfg, st))
    return _bit(st.current_player)


def _phase_mask(cfg: Config, st: State, phases: frozenset[int]) -> list[jax.Array]:
    """The mask of whoever acts now, without claims, as words: each block of the action space
    is a shift of a seat set or a flag; only the blocks of ``phases`` (static)."""
    ph = st.phase
    rules = cfg.rules
    false = jnp.zeros((), bool)
    voting = (ph == VOTE) if VOTE in phases else false
    discard = (ph == DISCARD) if DISCARD in phases else false
    enacting = (ph == ENACT) if ENACT in phases else false
    responding = (ph == VETO_RESPONSE) if VETO_RESPONSE in phases else false
    hl, hf = st.hand_l > 0, st.hand_f > 0
    veto = enacting & (st.veto_enabled != 0) & (st.veto_refused == 0)
    vetoes = [false, veto & hl, veto & hf] if rules.veto_after_choice else [veto, false, false]
    singles = [voting, voting, discard & hl, discard & hf, enacting & hl, enacting & hf]
    singles += vetoes + [responding, responding]
    flags = sum(
        (jnp.left_shift(flag.astype(U32), E.JA + i) for i, flag in enumerate(singles)),
        jnp.zeros((), U32),
    )
    blocks = [(0, E.INVESTIGATE, flags)]  # offset, width, bits
    if cfg.avalon and ASSASSINATE in phases:  # Hitler names a liberal-party seat
        named = jnp.where(ph == ASSASSINATE, st.power_targets, 0).astype(U32)
        blocks.append((E.assassinate_base(cfg.claims), SEATS, named))
    if NOMINATE in phases:
        nominees = jnp.where(ph == NOMINATE, eligible(cfg, st), 0).astype(U32)
        blocks.append((E.NOMINATE, SEATS, nominees))
    targets = st.power_targets.astype(U32)
    for power, offset in (
        (INVESTIGATE, E.INVESTIGATE),
        (SPECIAL_ELECTION, E.SPECIAL_ELECTION),
        (EXECUTE, E.EXECUTE),
    ):
        if POWER_PHASE[power] in phases:
            blocks.append((offset, SEATS, jnp.where(ph == POWER_PHASE[power], targets, 0)))
    words = [jnp.zeros((), U32)] * cfg.mask_size
    for offset, width, pattern in blocks:
        or_bits(words, offset, width, pattern)
    return words


def _claim_mask(cfg: Config, window: jax.Array, words: list[jax.Array]) -> None:
    """Or the claim actions a seat's open ``window`` allows into its mask ``words``."""
    for (bit, size), (_, start, _, _) in zip(_CLAIM_BLOCKS, E.CLAIM_ACTION_TABLE, strict=True):
        all_of = jnp.uint32((1 << size) - 1)
        or_bits(words, start, size, jnp.where((window & bit) != 0, all_of, jnp.uint32(0)))


def mask_words(
    cfg: Config, st: State, seat: jax.Array, phases: frozenset[int] = DECISION_PHASES
) -> jax.Array:
    """uint32[words]: the legal actions of ``seat`` in the turn-based step (none unless it is
    the current player); with claims, those its open windows allow beside its move
    (Game.legal_actions). ``phases``: a step specialised to them (none for other games)."""
    words = _phase_mask(cfg, st, phases)
    if cfg.claims:
        _claim_mask(cfg, of_seat(st.claim_open, seat), words)
    me = (seat == st.current_player) & (seat >= 0)
    return jnp.where(me, jnp.stack(words), jnp.uint32(0))


def legal_mask(cfg: Config, st: State, seat: jax.Array) -> jax.Array:
    """bool[num_actions]: ``mask_words`` unpacked."""
    return unpack_mask(mask_words(cfg, st, seat), cfg.num_actions)


def seat_mask_words(cfg: Config, st: State, phases: frozenset[int] = DECISION_PHASES) -> jax.Array:
    """uint32[players, words]: each seat's legal actions in the parallel step (``acting``):
    the phase's actions for every acting seat, and with claims its own open windows."""
    seats = jnp.arange(cfg.players, dtype=I32)
    words = [jnp.broadcast_to(w, (cfg.players,)) for w in _phase_mask(cfg, st, phases)]
    if cfg.claims:
        _claim_mask(cfg, st.claim_open[: cfg.players], words)
    mine = (jnp.right_shift(acting(cfg, st), seats) & 1) == 1
    return jnp.where(mine[:, None], jnp.stack(words, -1), jnp.uint32(0))


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
