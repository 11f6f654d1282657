"""The batched rules: ``init`` and ``step`` for one game, written for ``jax.vmap`` (every
branch is computed and selected, no Python control flow on values), so thousands of games
advance in lockstep; the state they change is in state.py.

This is the project's one compiled second form of the rules (developer guide): the engine
(engine/game.py) is the authority, and tests/batched replays every game played here through
``engine.replay`` and compares observations and masks with the environment's at every step.
The comments cite the engine method each block mirrors.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp

from ..engine.settings import CHAOS_AT, FASCIST_TRACK, LIBERAL_TRACK
from ..env import encoding as E
from .observation import history_row, observe_seat, row_votes, word_count, words_of
from .state import (
    _CHAN_SHIFT,
    _CHAOS,
    _CLAIM_CHAN,
    _CLAIM_PARTY,
    _CLAIM_PEEK,
    _DREW,
    _ELECTED,
    _ENACTED,
    _HAS_TARGET,
    _PASSED,
    _POWER,
    _TARGET,
    _VETO_REFUSED,
    _VETOED,
    DISCARD,
    ENACT,
    EXECUTE,
    F32,
    FASCIST,
    GAME_OVER,
    HITLER,
    I32,
    INVESTIGATE,
    LIBERAL,
    MAX_RESHUFFLES,
    NOMINATE,
    NUM_ACTIONS,
    OPEN_CHANCELLOR,
    OPEN_INVESTIGATION,
    OPEN_PEEK,
    OPEN_PRESIDENT,
    PEEK,
    PHASE,
    REASONS,
    SEATS,
    SPECIAL_ELECTION,
    VETO_RESPONSE,
    VOTE,
    WINNERS,
    Config,
    State,
    _arrange,
    _bit,
    _first_from,
    _popcount,
    current_player,
    legal_mask,
    mask_words,
    randoms,
)


class _S:
    """The state being changed by one step: fields set under a condition (``where``)."""

    def __init__(self, st: State) -> None:
        self.__dict__["v"] = st._asdict()

    def __getattr__(self, name: str) -> Any:
        return self.__dict__["v"][name]

    def set(self, cond: jax.Array, **values: Any) -> None:
        v = self.__dict__["v"]
        for name, value in values.items():
            v[name] = jnp.where(cond, value, v[name]).astype(v[name].dtype)


# ------------------------------------------------------------------------------ the game
def _new(
    cfg: Config, roles: Any, first: Any, deck: Any, fixed: Any, n_fixed: Any, seed: Any
) -> State:
    n, k = cfg.players, cfg.history
    z = jnp.zeros((), I32)
    per_seat = SEATS if cfg.claims else 0  # the claim fields are empty without claims
    start_l, start_f = cfg.rules.start_track
    first = jnp.asarray(first, I32)
    st = State(
        roles=jnp.asarray(roles, I32),
        first_president=first,
        deck=jnp.asarray(deck, I32),
        reshuffle_piles=jnp.zeros(MAX_RESHUFFLES, I32),
        reshuffle_sizes=jnp.zeros(MAX_RESHUFFLES, I32),
        reshuffles=z,
        fixed_piles=jnp.asarray(fixed, I32),
        fixed=jnp.asarray(n_fixed, I32),
        seed=jnp.asarray(seed, jnp.uint32),
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
        inv_known=jnp.zeros(SEATS, I32),
        peek=jnp.full(SEATS, -1, I32),
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
        pile=jnp.asarray(deck, I32),
        draw_n=z + cfg.deck_size,
        disc_l=z,
        disc_f=z,
        hist=jnp.zeros(k, I32),
        hist_row=jnp.zeros((k, 2), jnp.uint32),
        hist_claims=jnp.zeros(k if cfg.claims else 0, I32),
        claim_open=jnp.zeros(per_seat, I32),
        session_at=z,
        peek_at=jnp.zeros(per_seat, I32),
        investigation_at=jnp.zeros(per_seat, I32),
        records=z,
        steps=z,
        current_player=first,
        mask_words=jnp.zeros((cfg.num_actions + 31) // 32, jnp.uint32),
        obs_words=jnp.zeros(word_count(cfg), jnp.uint32),
        obs_tail=jnp.zeros(3, F32),
        rewards=jnp.zeros(n, F32),
        terminated=jnp.zeros((), bool),
        truncated=jnp.zeros((), bool),
    )
    return _outputs(cfg, st, jnp.zeros((), bool))


def init(cfg: Config, key: jax.Array) -> State:
    """A new game dealt from ``key``: four words of it seed the deal, the first president, the
    deck (stream 0 of ``randoms``) and every reshuffle (stream r + 1). Each draw is sequential:
    a seat gets a role, a pile position a policy, with probability (left of that kind) / (places
    left), from 23 random bits: uniform up to 2^-23."""
    n = cfg.players
    words = jax.random.bits(key, (4,), jnp.uint32)
    v = randoms(words[2:], 0, n + 1 + cfg.deck_size)
    hitler, fascists = jnp.ones((), I32), jnp.asarray(cfg.rules.fascist_count(n), I32)
    roles = []
    for i in range(n):
        x = v[i] * (n - i)
        is_hitler = x < jnp.left_shift(hitler, 23)
        is_fascist = ~is_hitler & (x < jnp.left_shift(hitler + fascists, 23))
        roles.append(jnp.where(is_hitler, HITLER, jnp.where(is_fascist, FASCIST, LIBERAL)))
        hitler, fascists = hitler - is_hitler, fascists - is_fascist
    roles_ = jnp.concatenate([jnp.stack(roles).astype(I32), jnp.zeros(SEATS - n, I32)])
    if cfg.rules.first_president == "first_seat":
        first = jnp.zeros((), I32)
    else:
        first = jnp.right_shift(v[n] * n, 23)
    deck = _arrange(v[n + 1 :], cfg.deck_size, cfg.rules.deck[1])
    return _new(cfg, roles_, first, deck, jnp.zeros(MAX_RESHUFFLES, I32), 0, words[:2])


def init_fixed(
    cfg: Config,
    key: jax.Array,
    roles: Any,
    first_president: Any,
    deck: Any,
    fixed_piles: Any,
    fixed: Any,
) -> State:
    """A game whose deal, first president, deck and first ``fixed`` reshuffles are given (as
    a record fixes them; ``record.from_record`` builds these from a record); later reshuffles
    come from ``key``."""
    seed = jax.random.bits(key, (2,), jnp.uint32)
    return _new(cfg, roles, first_president, deck, fixed_piles, fixed, seed)


def step(cfg: Config, st: State, action: jax.Array) -> State:
    """The current player takes ``action`` (an index of the action space). An index outside
    its mask, or any action once the game is over, changes nothing.

    The transition runs as two stages in a loop (``_STAGES``): each stage's results are
    materialized as the loop's carry, which keeps XLA from recomputing the whole chain of
    earlier stages inside every output it fuses (the step was 20 times the work without)."""
    a = jnp.asarray(action, I32)
    size = cfg.num_actions
    word = jnp.right_shift(jnp.clip(a, 0, size - 1), 5)
    bits = st.mask_words[0]
    for j in range(1, st.mask_words.shape[0]):
        bits = jnp.where(word == j, st.mask_words[j], bits)
    legal = ((jnp.right_shift(bits, (a & 31).astype(jnp.uint32)) & 1) == 1) & (a >= 0) & (a < size)
    t = jnp.zeros((), I32)
    f = jnp.zeros((), bool)
    loc = {
        "a": a,
        "legal": legal,
        "h0": st.hist[0] if cfg.history else t,
        "v0": row_votes(st.hist_row[0]) if cfg.history else t,
        **dict.fromkeys(_FLAGS, f),
        **dict.fromkeys(_VALUES, t),
        **({"peeked": f, "peeker": t} if cfg.claims else {}),
    }
    stages = [partial(_run_stage, cfg, group) for group in _STAGES]
    v, loc = jax.lax.fori_loop(
        0, len(stages), lambda i, c: jax.lax.switch(i, stages, *c), (st._asdict(), loc)
    )
    s = _S(State(**v))
    k = cfg.history
    nom = loc["nom"]
    if k:
        h0, v0 = loc["h0"], loc["v0"]
        row = history_row(h0, v0, nom | (st.records > 0))
        s.set(nom, hist=jnp.concatenate([h0[None], st.hist[:-1]]))
        s.set(~nom, hist=st.hist.at[0].set(h0))
        s.set(nom, hist_row=jnp.concatenate([row[None], st.hist_row[:-1]]))
        s.set(~nom, hist_row=st.hist_row.at[0].set(row))
        if cfg.claims:
            claims = s.hist_claims
            s.set(nom, hist_claims=jnp.concatenate([jnp.zeros(1, I32), claims[:-1]]))
    s.set(nom, records=st.records + 1)
    s.set(legal, steps=st.steps + 1)
    return _outputs(cfg, State(**s.v), loc["won"])


_FLAGS = (
    "nom", "won", "go_session", "go_end", "elected", "failed", "accept", "refused_enacts",
    "power_at_election", "inv", "spec", "exe", "gov", "gov_on", "chaos_on", "chaos_powered",
    "resume", "shuffle",
)  # fmt: skip
_VALUES = (
    "target",
    "tbit",
    "seat",
    "gpol",
    "gov_power",
    "chaos_power",
    "shuffled",
    "shuffled_size",
)
_BOOLS = frozenset((*_FLAGS, "legal", "peeked"))


class _Stage:
    """What a stage reads and writes: the state's fields (``s``) and the step's locals."""

    def __init__(self, cfg: Config, v: dict[str, Any], loc: dict[str, Any]) -> None:
        self.cfg = cfg
        self.s = _S.__new__(_S)
        self.s.__dict__["v"] = dict(v)
        self.loc = dict(loc)
        self.seats = jnp.arange(SEATS, dtype=I32)

    def out(self) -> tuple[dict[str, Any], dict[str, Any]]:
        loc = {k: jnp.asarray(v).astype(bool if k in _BOOLS else I32) for k, v in self.loc.items()}
        return self.s.v, loc

    def role_of(self, x: jax.Array) -> jax.Array:
        return jnp.sum(jnp.where(self.seats == x, self.s.roles, 0))

    def mark(self, cond: jax.Array, bits: Any) -> None:
        """Set ``bits`` in the newest history row where ``cond``."""
        self.loc["h0"] = self.loc["h0"] | jnp.where(cond, bits, 0)

    def win(self, cond: jax.Array, winner: int, reason: str) -> None:
        self.s.set(
            cond, winner=winner, reason=REASONS.index(reason), phase=GAME_OVER, hand_l=0, hand_f=0
        )
        self.loc["won"] = self.loc["won"] | cond

    def enact_policy(self, cond: jax.Array, policy: jax.Array, chaos: bool) -> jax.Array:
        """_enact: the policy on its track; true where that ends the game."""
        s = self.s
        liberal = s.liberal + (cond & (policy == 0))
        fascist = s.fascist + (cond & (policy == 1))
        s.set(cond, liberal=liberal, fascist=fascist, tracker=0, hand_l=0, hand_f=0)
        self.mark(cond, jnp.left_shift(1, (_CHAOS if chaos else _ENACTED) + policy))
        lib_win = cond & (liberal >= LIBERAL_TRACK)
        fas_win = cond & ~lib_win & (fascist >= FASCIST_TRACK)
        self.win(lib_win, 0, "five_liberal_policies")
        self.win(fas_win, 1, "six_fascist_policies")
        return jnp.asarray(lib_win | fas_win)

    def slot_power(self, policy: jax.Array) -> jax.Array:
        """_slot_power: the power of the slot a fascist policy just covered."""
        board = jnp.asarray(self.cfg.board + (0,), I32)
        f = self.s.fascist
        return jnp.where((policy == 1) & (f >= 1) & (f <= 5), board[jnp.clip(f - 1, 0, 5)], 0)

    def deck_check(self, cond: jax.Array) -> None:
        """_deck_check: under 3 policies left, shuffle the draw and discard piles together.
        The new pile is the stage's output, written to the state by ``reshuffled`` at the start
        of the next: read in the same stage, XLA shuffled once for each field it reaches."""
        s, L = self.s, self.loc
        L["shuffle"] = cond & (s.draw_n < 3)
        low = jnp.left_shift(1, s.draw_n) - 1
        f = s.disc_f + _popcount(s.pile & low)
        m = s.draw_n + s.disc_l + s.disc_f
        r = s.reshuffles
        bits = randoms(s.seed, r + 1, self.cfg.deck_size)  # stream 0 dealt the game
        fixed = s.fixed_piles[jnp.minimum(r, MAX_RESHUFFLES - 1)]
        L["shuffled"] = jnp.where(r < s.fixed, fixed, _arrange(bits, m, f))
        L["shuffled_size"] = m

    def reshuffled(self) -> None:
        """The last stage's deck check, applied."""
        s, L = self.s, self.loc
        need, pile, m = L["shuffle"], L["shuffled"], L["shuffled_size"]
        r = s.reshuffles
        slot = jnp.arange(MAX_RESHUFFLES, dtype=I32) == jnp.minimum(r, MAX_RESHUFFLES - 1)
        s.set(need & slot, reshuffle_piles=pile, reshuffle_sizes=m)
        s.set(need, pile=pile, draw_n=m, disc_l=0, disc_f=0, reshuffles=r + 1)
        s.set(need & (r >= MAX_RESHUFFLES), truncated=True)
        L["shuffle"] = jnp.zeros((), bool)


def _decide(cfg: Config, v: dict[str, Any], loc: dict[str, Any]) -> Any:
    """The action itself: nominate, vote and tally, election, discard, veto; which of the
    later stages run."""
    g = _Stage(cfg, v, loc)
    s, L, rules = g.s, g.loc, cfg.rules
    a, legal = L["a"], L["legal"]
    seat = s.current_player
    nom = legal & (a < E.JA)
    vote = legal & ((a == E.JA) | (a == E.NEIN))
    disc = legal & ((a == E.DISCARD_LIBERAL) | (a == E.DISCARD_FASCIST))
    enact = legal & ((a == E.ENACT_LIBERAL) | (a == E.ENACT_FASCIST))
    veto = legal & (a >= E.VETO) & (a <= E.VETO_KEEP_FASCIST)
    vresp = legal & ((a == E.VETO_ACCEPT) | (a == E.VETO_REFUSE))
    target = jnp.where(a >= E.INVESTIGATE, (a - E.INVESTIGATE) % SEATS, a)
    L.update(
        nom=nom,
        seat=seat,
        target=target,
        tbit=_bit(target),
        inv=legal & (a >= E.INVESTIGATE) & (a < E.SPECIAL_ELECTION),
        spec=legal & (a >= E.SPECIAL_ELECTION) & (a < E.EXECUTE),
        exe=legal & (a >= E.EXECUTE) & (a < NUM_ACTIONS),
    )
    if cfg.claims:
        _claim(g, legal & (a >= NUM_ACTIONS))

    # -- nominate (_nominate): a new history row
    L["h0"] = jnp.where(nom, s.candidate | jnp.left_shift(target, _CHAN_SHIFT), L["h0"])
    L["v0"] = jnp.where(nom, 0, L["v0"])
    s.set(nom, nominee=target, voted=0, ja=0, phase=VOTE)

    # -- vote (_vote), and the tally when the last living seat has voted (_tally)
    voted = s.voted | _bit(seat)
    s.set(vote, voted=voted, ja=s.ja | jnp.where(a == E.JA, _bit(seat), 0))
    tally = vote & (voted == s.alive)
    ja_set = s.ja
    nein_set = s.alive & ~ja_set
    passed = 2 * _popcount(ja_set) > _popcount(s.alive)
    s.set(tally, last_ja=ja_set, last_nein=nein_set)
    L["v0"] = jnp.where(tally, ja_set | jnp.left_shift(nein_set, 10), L["v0"])
    g.mark(tally & passed, 1 << _ELECTED)
    elected = tally & passed
    L["failed"] = tally & ~passed

    # -- elected (_elected)
    pres, chan, fascist = s.candidate, s.nominee, s.fascist
    s.set(elected, president=pres, chancellor=chan)
    if rules.term_limits != "last_enacted":
        s.set(elected, limit_pres=pres, limit_chan=chan, limit_round=s.round)
    if rules.tracker_resets_on_election:
        s.set(elected, tracker=0)
    zone = fascist >= rules.hitler_zone
    hitler_elected = elected & zone & (g.role_of(chan) == HITLER)
    g.win(hitler_elected, 1, "hitler_elected")
    s.set(elected & zone & ~hitler_elected, not_hitler=s.not_hitler | _bit(chan))
    going = elected & ~hitler_elected
    if rules.power_timing == "next_president":
        pend = s.pending_power
        has = going & (pend != 0)
        s.set(has & (pend == SPECIAL_ELECTION), post_power=SPECIAL_ELECTION)
        L["power_at_election"] = has & (pend != SPECIAL_ELECTION)
        L["gov_power"] = jnp.where(L["power_at_election"], pend, 0)  # (read by _power)
        s.set(has, pending_power=0)
    L["go_session"] = going & ~L["power_at_election"]

    # -- discard (_discard)
    pol = (a - E.DISCARD_LIBERAL) & 1
    hand_l = s.hand_l - jnp.where(disc & (pol == 0), 1, 0)
    s.set(disc, hand_l=hand_l, hand_f=s.hand_f - jnp.where(pol == 1, 1, 0))
    s.set(disc, disc_l=s.disc_l + (pol == 0), disc_f=s.disc_f + (pol == 1), phase=ENACT)
    g.mark(disc, jnp.left_shift(1, _PASSED + hand_l))

    # -- veto proposal and response (the "veto" action, _veto_response)
    s.set(
        veto, veto_choice=jnp.where(a == E.VETO, -1, a - E.VETO_KEEP_LIBERAL), phase=VETO_RESPONSE
    )
    accept = vresp & (a == E.VETO_ACCEPT)
    refuse = vresp & (a == E.VETO_REFUSE)
    g.mark(accept, 1 << _VETOED)
    g.mark(refuse, 1 << _VETO_REFUSED)
    refused_enacts = refuse & (s.veto_choice >= 0) & rules.veto_after_choice
    s.set(refuse & ~refused_enacts, veto_refused=1, phase=ENACT)
    L["accept"] = accept
    L["gov"] = enact | refused_enacts
    L["gpol"] = jnp.where(enact, (a - E.ENACT_LIBERAL) & 1, s.veto_choice)
    return g.out()


def _claim(g: _Stage, claim: jax.Array) -> None:
    """A claim (Game._claim): its window closes, and it is written in the history row of the
    round it is about (the last session, or the claimant's last peek or investigation), while
    that row is still shown. The turn stays with the claimant."""
    s, a, seat = g.s, g.loc["a"], g.loc["seat"]
    me = g.seats == seat
    is_pres = a < E.CLAIM_CHANCELLOR_HAND
    is_chan = ~is_pres & (a < E.CLAIM_PEEK)
    is_peek = (a >= E.CLAIM_PEEK) & (a < E.CLAIM_INVESTIGATION)
    is_inv = a >= E.CLAIM_INVESTIGATION
    subject = jnp.where(is_pres, OPEN_PRESIDENT, OPEN_CHANCELLOR)
    subject = jnp.where(is_peek, OPEN_PEEK, jnp.where(is_inv, OPEN_INVESTIGATION, subject))
    s.set(claim & me, claim_open=s.claim_open & ~subject)
    about = jnp.where(is_peek, s.peek_at, jnp.where(is_inv, s.investigation_at, s.session_at))
    row = s.records - jnp.sum(jnp.where(me, about, 0))
    peek = a - E.CLAIM_PEEK
    three = jnp.arange(3, dtype=I32)
    peeked = jnp.sum(
        jnp.left_shift(1, _CLAIM_PEEK + 2 * three + (jnp.right_shift(peek, three) & 1))
    )
    bits = jnp.where(is_pres, jnp.left_shift(1, a - E.CLAIM_PRESIDENT_HAND), 0)
    bits = jnp.where(is_chan, jnp.left_shift(1, _CLAIM_CHAN + a - E.CLAIM_CHANCELLOR_HAND), bits)
    bits = jnp.where(is_peek, peeked, bits)
    bits = jnp.where(is_inv, jnp.left_shift(1, _CLAIM_PARTY + a - E.CLAIM_INVESTIGATION), bits)
    rows = jnp.arange(s.hist_claims.shape[0], dtype=I32) == row
    s.set(claim & rows, hist_claims=s.hist_claims | bits)


def _open(g: _Stage, cond: jax.Array, seat: jax.Array, window: int, at: str = "") -> None:
    """A claim window of ``seat`` opens where ``cond``, about the round of this row."""
    mine = cond & (g.seats == seat)
    g.s.set(mine, claim_open=g.s.claim_open | window)
    if at:
        g.s.set(mine, **{at: g.s.records})


def _enact(cfg: Config, v: dict[str, Any], loc: dict[str, Any]) -> Any:
    """The chancellor enacts (_chancellor_enacts, _government_enacts), then the deck check."""
    g = _Stage(cfg, v, loc)
    s, L = g.s, g.loc
    gov, gpol = L["gov"], L["gpol"]
    s.set(
        gov, disc_l=s.disc_l + (s.hand_l - (gpol == 0)), disc_f=s.disc_f + (s.hand_f - (gpol == 1))
    )
    if cfg.rules.term_limits == "last_enacted":
        s.set(gov, limit_pres=s.president, limit_chan=s.chancellor)
    gov_on = gov & ~g.enact_policy(gov, gpol, chaos=False)
    L["gov_on"] = gov_on
    L["gov_power"] = jnp.where(gov_on, g.slot_power(gpol), L["gov_power"])
    # a consented veto: the policies to the discard pile, the deck check first (A7)
    accept = L["accept"]
    s.set(accept, disc_l=s.disc_l + s.hand_l, disc_f=s.disc_f + s.hand_f, hand_l=0, hand_f=0)
    s.set(accept, vetoes_used=s.vetoes_used + 1)
    if cfg.claims:  # _open_hand_claims, after a session enacted or vetoed
        _open(g, gov | accept, s.president, OPEN_PRESIDENT)
        _open(g, gov | accept, s.chancellor, OPEN_CHANCELLOR)
    g.deck_check(gov_on | accept)  # one check for both: a step enacts or vetoes, never both
    return g.out()


def _tracker(cfg: Config, v: dict[str, Any], loc: dict[str, Any]) -> Any:
    """The election tracker (_advance_tracker) and chaos (_chaos), and its deck check."""
    g = _Stage(cfg, v, loc)
    g.reshuffled()
    s, L = g.s, g.loc
    moved = L["failed"] | L["accept"]
    tracker = s.tracker + moved
    s.set(moved, tracker=tracker)
    chaos = moved & (tracker >= CHAOS_AT)
    top = s.pile & 1
    s.set(chaos, pile=jnp.right_shift(s.pile, 1), draw_n=s.draw_n - 1, tracker=0)
    if cfg.rules.chaos_clears_term_limits:
        s.set(chaos, limit_pres=-1, limit_chan=-1)
    chaos_on = chaos & ~g.enact_policy(chaos, top, chaos=True)
    L["chaos_on"] = chaos_on
    if cfg.rules.chaos_power:
        L["chaos_power"] = jnp.where(chaos_on, g.slot_power(top), 0)
    g.deck_check(chaos_on)
    return g.out()


def _power(cfg: Config, v: dict[str, Any], loc: dict[str, Any]) -> Any:
    """After the session (_after_session), then a power begins (_begin_power): at the
    election (forum timing), after chaos (summary-zh), or after the session."""
    g = _Stage(cfg, v, loc)
    g.reshuffled()
    s, L, rules = g.s, g.loc, cfg.rules
    chaos_powered = L["chaos_on"] & (L["chaos_power"] != 0)
    won = L["won"]
    failed, accept, gov_on = L["failed"], L["accept"], L["gov_on"]
    go_end = failed & ~won & ~chaos_powered  # _tally: "if self.phase is _VOTE"
    after = gov_on | (accept & ~won & ~chaos_powered)
    power = jnp.where(gov_on, L["gov_power"], 0)
    post = s.post_power
    s.set(after, post_power=0)
    if rules.power_timing == "next_president":
        s.set(after & (power != 0), pending_power=power)
        power = jnp.zeros((), I32)
    after_power = after & ((power != 0) | (post != 0))
    go_end = go_end | (after & ~after_power)
    at_election = L["power_at_election"]
    begin = at_election | chaos_powered | after_power
    bp_power = jnp.where(
        at_election,
        L["gov_power"],
        jnp.where(chaos_powered, L["chaos_power"], jnp.where(power != 0, power, post)),
    )
    bp_pres = jnp.where(chaos_powered, s.candidate, s.president)
    s.set(begin, after_session=at_election, power_president=bp_pres)
    is_peek = begin & (bp_power == PEEK)
    s.set(is_peek & (g.seats == bp_pres), peek=s.pile & 7)
    if cfg.claims:
        _open(g, is_peek, bp_pres, OPEN_PEEK, "peek_at")
        L["peeked"], L["peeker"] = is_peek, bp_pres
    targets = s.alive & ~_bit(bp_pres)
    targets = jnp.where(at_election & (bp_power == EXECUTE), targets & ~_bit(s.chancellor), targets)
    targets = jnp.where(bp_power == INVESTIGATE, targets & ~s.investigated, targets)
    if not rules.fascist_may_execute_hitler:
        hitler = jnp.sum(jnp.where(s.roles == HITLER, jnp.left_shift(1, g.seats), 0))
        no_hitler = (bp_power == EXECUTE) & (g.role_of(bp_pres) == FASCIST)
        targets = jnp.where(no_hitler, targets & ~hitler, targets)
    g.mark(begin & (is_peek | (targets != 0)), jnp.left_shift(1, _POWER + bp_power - 1))
    targeted = begin & ~is_peek & (targets != 0)
    phase = jnp.where(bp_power == INVESTIGATE, PHASE["investigate"], PHASE["execute"])
    phase = jnp.where(bp_power == SPECIAL_ELECTION, PHASE["special_election"], phase)
    s.set(targeted, power_targets=targets, phase=phase)
    L["resume"] = begin & ~targeted  # a peek, or no legal target (A11): _continue
    L["go_end"] = go_end
    return g.out()


def _use_power(cfg: Config, v: dict[str, Any], loc: dict[str, Any]) -> Any:
    """Powers used (_investigate, _special_election, _execute), then _continue."""
    g = _Stage(cfg, v, loc)
    s, L = g.s, g.loc
    inv, spec, exe, target, tbit, seat = (
        L[k] for k in ("inv", "spec", "exe", "target", "tbit", "seat")
    )
    g.mark(inv | spec | exe, (1 << _HAS_TARGET) | jnp.left_shift(target, _TARGET))
    s.set(inv, investigated=s.investigated | tbit)
    s.set(inv & (g.seats == seat), inv_known=s.inv_known | tbit)
    if cfg.claims:
        _open(g, inv, seat, OPEN_INVESTIGATION, "investigation_at")
    s.set(spec, special_next=target, rotation=seat)
    s.set(exe, alive=s.alive & ~tbit)
    shot_hitler = exe & (g.role_of(target) == HITLER)
    g.win(shot_hitler, 0, "hitler_executed")
    resume = L["resume"] | inv | spec | (exe & ~shot_hitler)
    s.set(resume, power_targets=0)
    L["go_session"] = L["go_session"] | (resume & (s.after_session != 0))
    L["go_end"] = L["go_end"] | (resume & (s.after_session == 0))
    return g.out()


def _next_round(cfg: Config, v: dict[str, Any], loc: dict[str, Any]) -> Any:
    """_end_round and _begin_round; or _begin_session: the president draws 3."""
    g = _Stage(cfg, v, loc)
    s, L, rules, n = g.s, g.loc, cfg.rules, cfg.players
    go_end, go_session = L["go_end"], L["go_session"]
    nxt = jnp.where(
        s.special_next >= 0, s.special_next, _first_from(s.alive, (s.rotation + 1) % n, n)
    )
    s.set(go_end & (s.special_next < 0), rotation=nxt)
    s.set(go_end, special_next=-1, round=s.round + 1, candidate=nxt, nominee=-1, phase=NOMINATE)
    veto_on = s.fascist >= rules.veto_zone
    if rules.veto_limit is not None:
        veto_on = veto_on & (s.vetoes_used < rules.veto_limit)
    drawn_f = _popcount(s.pile & 7)
    s.set(go_session, veto_enabled=veto_on, veto_refused=0, veto_choice=-1, hand_f=drawn_f)
    s.set(go_session, hand_l=3 - drawn_f, pile=jnp.right_shift(s.pile, 3), draw_n=s.draw_n - 3)
    s.set(go_session, phase=DISCARD)
    if cfg.claims:  # a new session closes every window but those of a power it came after
        kept = jnp.where(L["peeked"] & (g.seats == L["peeker"]), OPEN_PEEK, 0)
        kept = kept | jnp.where(L["inv"] & (g.seats == L["seat"]), OPEN_INVESTIGATION, 0)
        s.set(go_session, claim_open=kept, session_at=s.records)
    g.mark(go_session, jnp.left_shift(1, _DREW + 3 - drawn_f))
    return g.out()


#: The stages of a step, each one switch branch of a loop. Every branch copies the fields it
#: leaves alone, so fewer is cheaper until XLA's fused chains grow: measured on one core
#: (1,024 games, ns per game and step): these two 320, one stage per function 470-510, three
#: (01|23|45) 370-410, everything in one 1,160.
_STAGES = ((_decide, _enact), (_tracker, _power, _use_power, _next_round))


def _run_stage(cfg: Config, group: Any, v: dict[str, Any], loc: dict[str, Any]) -> Any:
    for fn in group:
        v, loc = fn(cfg, v, loc)
    return v, loc


def _outputs(cfg: Config, st: State, just_won: jax.Array) -> State:

    st = st._replace(current_player=current_player(cfg, st))
    team = (st.roles[: cfg.players] != LIBERAL).astype(I32)
    reward = jnp.where(team == st.winner, 1.0, -1.0).astype(F32)
    words, tail = words_of(cfg, st, jnp.maximum(st.current_player, 0))
    return st._replace(
        mask_words=mask_words(cfg, st, st.current_player),
        obs_words=words,
        obs_tail=tail,
        rewards=jnp.where(just_won, reward, jnp.zeros_like(reward)),
        terminated=st.winner >= 0,
    )


# ------------------------------------------------------------------------------ the API
class Env:
    """A pgx-like functional API over a batch: ``init(keys)`` deals one game per key,
    ``step(state, actions)`` plays one decision in each (the current player's), both
    ``jit``-compiled and ``vmap``-ed. ``observe(state, seat)`` is any seat's observation."""

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
        self.init_fixed = jax.jit(jax.vmap(partial(init_fixed, cfg)))
        self.step_one = partial(step, cfg)  # unbatched, for a caller's own vmap/scan
        self.init_one = partial(init, cfg)

        def observe(st: State, seat: jax.Array) -> tuple[jax.Array, jax.Array]:
            return observe_seat(cfg, st, seat), legal_mask(cfg, st, seat)

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
]
