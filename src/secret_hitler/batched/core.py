"""The batched rules' entry points: ``init``, the turn-based ``step`` (one decision, the
environment's turns) and the parallel ``step_all`` (every seat the engine waits for at once:
in a secret vote every living seat votes in one step), written for ``jax.vmap`` so thousands
of games advance in lockstep; the transition is in stages.py, the state in state.py.

This is the project's one compiled second form of the rules (developer guide): the engine
(engine/game.py) is the authority, and tests/batched replays every game played here, with
either step, through ``engine.replay`` and compares observations and masks with the
environment's at every step.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp

from ..engine.types import Role
from ..env import encoding as E
from . import observation as O
from . import stages
from .pile import arrange, randoms
from .state import (
    DECISION_PHASES,
    F32,
    FASCIST,
    HITLER,
    I32,
    LIBERAL,
    MAX_RESHUFFLES,
    MERLIN,
    MONARCHIST,
    MORGANA,
    NOMINATE,
    NUM_ACTIONS,
    PERCIVAL,
    REASONS,
    U32,
    VOTE,
    WINNERS,
    Config,
    State,
    _bit,
    current_player,
    field_words,
    legal_mask,
    mask_words,
    seat_mask_words,
)


# ------------------------------------------------------------------------------ the game
def _new(
    cfg: Config,
    roles: Any,
    first: Any,
    deck: Any,
    fixed: Any,
    n_fixed: Any,
    seed: Any,
    special: Any = None,
) -> State:
    n = cfg.players
    z = jnp.zeros((), I32)
    per_seat = n if cfg.claims else 0  # the claim fields are empty without claims
    start_l, start_f = cfg.start_track
    first = jnp.asarray(first, I32)
    hist = field_words(cfg, "history")
    own = field_words(cfg, "own_history")
    roles = jnp.asarray(roles, I32)
    seats = jnp.arange(E.MAX_SEATS, dtype=I32)
    st = State(
        config=cfg,
        roles=roles,
        hitler=jnp.sum(jnp.where(roles == HITLER, seats, 0)),
        team=jnp.sum(jnp.where((roles != LIBERAL) & (seats < n), jnp.left_shift(1, seats), 0)),
        first_president=first,
        deck=jnp.asarray(deck, I32),
        fixed_piles=jnp.asarray(fixed, I32),
        fixed=jnp.asarray(n_fixed, I32),
        seed=jnp.asarray(seed, U32),
        pile=jnp.asarray(deck, I32),
        known=z + cfg.deck_size,
        unknown_f=z,
        draw_n=z + cfg.deck_size,
        disc_l=z,
        disc_f=z,
        reshuffles=z,
        reshuffle_counts=jnp.zeros(MAX_RESHUFFLES, I32),
        phase=z + NOMINATE,
        round=z + 1,  # _start: _begin_round(first_president)
        candidate=first,
        nominee=z - 1,
        president=z - 1,
        chancellor=z - 1,
        liberal=z + start_l,
        fascist=z + start_f,
        tracker=z,
        alive=z + (1 << n) - 1,
        investigated=z,
        not_hitler=z,
        voted=z,
        ja=z,
        last_ja=z,
        last_nein=z,
        hand_l=z,
        hand_f=z,
        veto_enabled=z,
        veto_refused=z,
        veto_choice=z - 1,
        vetoes_used=z,
        power_president=z - 1,
        power_targets=z,
        after_session=z,
        limit_pres=z - 1,
        limit_chan=z - 1,
        limit_round=z - 1,
        rotation=first,
        special_next=z - 1,
        pending_power=z,
        post_power=z,
        winner=z - 1,
        reason=z,
        inv_parties=jnp.zeros(n, I32),
        peeks=jnp.zeros(n, I32),
        row=z,
        row_votes=z,
        hist_words=jnp.zeros(hist[1] - hist[0], U32),
        own_hist=jnp.zeros((n, own[1] - own[0]), U32),
        hist_claims=jnp.zeros(cfg.history if cfg.claims else 0, I32),
        claim_open=jnp.zeros(per_seat, I32),
        session_at=z,
        peek_at=jnp.zeros(per_seat, I32),
        investigation_at=jnp.zeros(per_seat, I32),
        records=z,
        steps=z,
        current_player=first,
        rewards=jnp.zeros(n, F32),
        terminated=jnp.zeros((), bool),
        truncated=jnp.zeros((), bool),
        special=jnp.zeros(E.MAX_SEATS if cfg.special_roles else 0, I32)
        if special is None
        else jnp.asarray(special, I32),
        top_decks=jnp.zeros((0,) if cfg.top_decking == "allowed" else (1,), I32),
    )
    return _outputs(cfg, st, jnp.zeros((), bool))


def init(cfg: Config, key: jax.Array) -> State:
    """A new game dealt from ``key``: four words of it seed the deal, the first president, the
    deck (stream 0 of ``pile.randoms``) and every reshuffle (stream r + 1). Each draw is
    sequential: a seat gets a role, a pile position a policy, with probability (left of that
    kind) / (places left), from 23 random bits: uniform up to 2^-23."""
    n = cfg.players
    words = jax.random.bits(key, (4,), U32)
    v = randoms(words[2:], 0, jnp.arange(n + 1 + cfg.deck_size))
    special_ = None
    if cfg.special_roles:
        roles_, special_ = _deal_cards(cfg, v[:n])
    else:
        hitler, fascists = jnp.ones((), I32), jnp.asarray(cfg.rules.fascist_count(n), I32)
        roles = []
        for i in range(n):
            x = v[i] * (n - i)
            is_hitler = x < jnp.left_shift(hitler, 23)
            is_fascist = ~is_hitler & (x < jnp.left_shift(hitler + fascists, 23))
            roles.append(jnp.where(is_hitler, HITLER, jnp.where(is_fascist, FASCIST, LIBERAL)))
            hitler, fascists = hitler - is_hitler, fascists - is_fascist
        roles_ = jnp.concatenate([jnp.stack(roles).astype(I32), jnp.zeros(E.MAX_SEATS - n, I32)])
    if cfg.rules.first_president == "first_seat":
        first = jnp.zeros((), I32)
    else:
        first = jnp.right_shift(v[n] * n, 23)
    deck = arrange(v[n + 1 :], cfg.deck_size, cfg.deck[1])
    return _new(cfg, roles_, first, deck, jnp.zeros(MAX_RESHUFFLES, I32), 0, words[:2], special_)


#: The engine's role cards as (class, special role) in the batched state.
_CARDS = {
    Role.HITLER: (HITLER, 0),
    Role.FASCIST: (FASCIST, 0),
    Role.MORGANA: (FASCIST, MORGANA),
    Role.MONARCHIST: (FASCIST, MONARCHIST),
    Role.MERLIN: (LIBERAL, MERLIN),
    Role.PERCIVAL: (LIBERAL, PERCIVAL),
    Role.LIBERAL: (LIBERAL, 0),
}


def _deal_cards(cfg: Config, v: jax.Array) -> tuple[jax.Array, jax.Array]:
    """The deal of ``Rules.composition`` (Avalon SH's cards): each seat in turn gets a card
    kind with probability (cards left of it) / (cards left), from 23 random bits."""
    n = cfg.players
    kinds = cfg.resolved.composition(n)
    left = [jnp.asarray(count, I32) for _, count in kinds]
    roles, special = [], []
    for i in range(n):
        x = v[i] * (n - i)
        below = jnp.zeros((), I32)
        taken = jnp.zeros((), bool)
        role, extra = jnp.zeros((), I32), jnp.zeros((), I32)
        for k, (card, _) in enumerate(kinds):
            below = below + left[k]
            this = ~taken & (x < jnp.left_shift(below, 23))
            cls, spec = _CARDS[card]
            role = jnp.where(this, cls, role)
            extra = jnp.where(this, spec, extra)
            left[k] = left[k] - this
            taken = taken | this
        roles.append(role)
        special.append(extra)
    pad = jnp.zeros(E.MAX_SEATS - n, I32)
    return (
        jnp.concatenate([jnp.stack(roles).astype(I32), pad]),
        jnp.concatenate([jnp.stack(special).astype(I32), pad]),
    )


def init_fixed(
    cfg: Config,
    key: jax.Array,
    roles: Any,
    first_president: Any,
    deck: Any,
    fixed_piles: Any,
    fixed: Any,
    special: Any = None,
) -> State:
    """A game whose deal (with Avalon SH its ``special`` roles), first president, deck and
    first ``fixed`` reshuffles are given (as a record fixes them; ``record.from_record`` builds
    these from a record); later reshuffles come from ``key``."""
    seed = jax.random.bits(key, (2,), U32)
    return _new(cfg, roles, first_president, deck, fixed_piles, fixed, seed, special)


def _is_legal(words: jax.Array, a: jax.Array, size: int) -> jax.Array:
    """Whether action ``a`` is set in mask ``words`` (the last axis)."""
    word = jnp.right_shift(jnp.clip(a, 0, size - 1), 5)
    bits = words[..., 0]
    for j in range(1, words.shape[-1]):
        bits = jnp.where(word == j, words[..., j], bits)
    bit = jnp.right_shift(bits, (a & 31).astype(U32)) & 1
    return (bit == 1) & (a >= 0) & (a < size)


def step(cfg: Config, st: State, action: jax.Array) -> State:
    """The current player takes ``action`` (an index of the action space): the environment's
    turns, one decision per step. An index outside its mask, or any action once the game is
    over, changes nothing."""
    return _step_one(cfg, st, action, DECISION_PHASES)


def step_all(cfg: Config, st: State, actions: jax.Array) -> State:
    """Every acting seat (``State.acting``) takes its action at once (``actions``: one per
    seat, the others ignored): in a secret vote every living seat votes in this one step,
    otherwise the one seat the engine waits for decides. An action outside its seat's mask
    is not taken (that seat still acts); in a finished game nothing changes."""
    return _step_seats(cfg, st, actions, DECISION_PHASES)


def step_phase(cfg: Config, st: State, actions: jax.Array, phases: frozenset[int]) -> State:
    """``step_all`` for the games in ``phases`` (static; a turn of ``play.turns``), the others left as
    they are: only what actions of those phases reach is computed. ``actions``: one per seat
    in a secret vote (``phases`` the vote), else one, the current player's."""
    if phases == {VOTE} and cfg.secret_votes:
        return _step_seats(cfg, st, actions, phases)
    return _step_one(cfg, st, actions[0], phases)


def _is_claim(cfg: Config, a: jax.Array) -> jax.Array:
    """Whether index ``a`` is a claim (the game types' action block follows the claims)."""
    if cfg.game_types:
        return (a >= NUM_ACTIONS) & (a < E.assassinate_base(cfg.claims))
    return a >= NUM_ACTIONS


def _step_one(cfg: Config, st: State, action: jax.Array, phases: frozenset[int]) -> State:
    a = jnp.asarray(action, I32)
    seat = st.current_player
    legal = _is_legal(mask_words(cfg, st, seat, phases), a, cfg.num_actions)
    is_vote = (a == E.JA) | (a == E.NEIN)
    is_claim = _is_claim(cfg, a)
    votes = jnp.where(legal & is_vote, _bit(seat), 0)
    ja = jnp.where(legal & (a == E.JA), _bit(seat), 0)
    move = jnp.where(legal & ~is_vote & ~is_claim, a, -1)
    mine = jnp.arange(cfg.players) == seat
    claims = jnp.where(legal & is_claim & mine, a, -1)
    loc = stages.Locals.start(move, seat, votes, ja)
    return _advance(cfg, st, loc, claims, legal, phases)


def _step_seats(cfg: Config, st: State, actions: jax.Array, phases: frozenset[int]) -> State:
    acts = jnp.asarray(actions, I32)
    seats = jnp.arange(cfg.players, dtype=I32)
    legal = _is_legal(seat_mask_words(cfg, st, phases), acts, cfg.num_actions)
    is_vote = (acts == E.JA) | (acts == E.NEIN)
    is_claim = _is_claim(cfg, acts)
    votes = jnp.sum(jnp.where(legal & is_vote, jnp.left_shift(1, seats), 0))
    ja = jnp.sum(jnp.where(legal & (acts == E.JA), jnp.left_shift(1, seats), 0))
    move = jnp.max(jnp.where(legal & ~is_vote & ~is_claim, acts, -1))  # the decider's, or none
    claims = jnp.where(legal & is_claim, acts, -1)
    loc = stages.Locals.start(move, st.current_player, votes, ja)
    return _advance(cfg, st, loc, claims, jnp.sum(legal), phases)


def _advance(
    cfg: Config,
    st: State,
    loc: stages.Locals,
    claims: jax.Array,
    decisions: jax.Array,
    phases: frozenset[int] = DECISION_PHASES,
) -> State:
    """The decoded decisions through the stages, then the history rows and the results."""
    before = st
    if cfg.claims:
        st = stages.claims(cfg, st, claims)
    st, loc = stages.run(cfg, st, loc, phases)
    nom = loc.nom
    if cfg.history and NOMINATE in phases:
        st = _history(cfg, before, st, nom)
    st = st.replace(records=st.records + nom, steps=st.steps + decisions)
    return _outputs(cfg, st, loc.won)


def _history(cfg: Config, before: State, st: State, nom: jax.Array) -> State:
    """A nomination closes the current row: every row the state keeps as the observation holds
    them (``hist_words``, ``own_hist``: the rows before the current one) moves down one, and
    the row just closed goes in as row 1 (the observation builds row 0 from ``State.row``)."""
    record = cfg.layout.record_size
    exists = before.records > 0
    lo, hi = O.history_row(before.row, before.row_votes, exists)
    row = [
        a | b
        for a, b in zip(
            O.place(cfg, "history", 0, 32, lo), O.place(cfg, "history", 32, 30, hi), strict=True
        )
    ]
    closed = O.shift_rows(st.hist_words | jnp.stack(row), record, O.field_mask(cfg, "history"))
    mine = O.own_row(before.row, jnp.arange(cfg.players, dtype=I32))
    own_row = jnp.stack(O.place(cfg, "own_history", 0, O._OWN_BITS, mine), -1)
    own = O.shift_rows(st.own_hist | own_row, O._OWN_BITS, O.field_mask(cfg, "own_history"))
    out = st.replace(
        hist_words=jnp.where(nom, closed, st.hist_words),
        own_hist=jnp.where(nom, own, st.own_hist),
    )
    if cfg.claims:
        claims = st.hist_claims
        shifted = jnp.concatenate([jnp.zeros(1, I32), claims[:-1]])
        out = out.replace(hist_claims=jnp.where(nom, shifted, claims))
    return out


def _outputs(cfg: Config, st: State, just_won: jax.Array) -> State:
    """Who acts next, and the rewards of the step that ended the game."""
    st = st.replace(current_player=current_player(cfg, st))
    team = jnp.right_shift(st.team, jnp.arange(cfg.players, dtype=I32)) & 1
    won = team == st.winner
    if cfg.monarchist:  # roles.winners_of: six fascist policies or Hitler executed
        shot = (jnp.right_shift(st.alive, st.hitler) & 1) == 0
        his = (st.reason == REASONS.index("six_fascist_policies")) | shot
        won = jnp.where(st.special[: cfg.players] == MONARCHIST, his, won)
    reward = jnp.where(won, 1.0, -1.0).astype(F32)
    if cfg.avalon:  # a liberal win opening the assassination ends the step, not the game
        just_won = just_won & (st.winner >= 0)
    return st.replace(
        rewards=jnp.where(just_won, reward, jnp.zeros_like(reward)), terminated=st.winner >= 0
    )


# ------------------------------------------------------------------------------ the API
class Env:
    """A pgx-like functional API over a batch: ``init(keys)`` deals one game per key,
    ``step(state, actions)`` plays one decision in each (the current player's),
    ``step_all(state, actions)`` every acting seat's at once (``actions[batch, players]``),
    all ``jit``-compiled and ``vmap``-ed. ``observe(state, seat)`` is any seat's observation;
    the state's properties give the current player's and every seat's."""

    def __init__(
        self,
        players: int = 7,
        rules: Any = "official",
        history: int = E.DEFAULT_HISTORY,
        claims: bool = False,
    ) -> None:
        self.config = cfg = Config(players, rules, history, claims)
        self.num_players = players
        self.num_actions = cfg.num_actions
        self.observation_size = cfg.layout.size
        self.init = jax.jit(jax.vmap(partial(init, cfg)))
        self.step = jax.jit(jax.vmap(partial(step, cfg)))
        self.step_all = jax.jit(jax.vmap(partial(step_all, cfg)))
        self.init_fixed = jax.jit(jax.vmap(partial(init_fixed, cfg)))
        self.step_one = partial(step, cfg)  # unbatched, for a caller's own vmap/scan
        self.step_all_one = partial(step_all, cfg)
        self.init_one = partial(init, cfg)

        def observe(st: State, seat: jax.Array) -> tuple[jax.Array, jax.Array]:
            return O.observe_seat(cfg, st, seat), legal_mask(cfg, st, seat)

        self.observe = jax.jit(jax.vmap(observe))


__all__ = [
    "MAX_RESHUFFLES",
    "NUM_ACTIONS",
    "REASONS",
    "WINNERS",
    "Config",
    "Env",
    "State",
    "init",
    "init_fixed",
    "legal_mask",
    "step",
    "step_all",
    "step_phase",
]
