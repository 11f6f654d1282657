"""The transition of one step, in stages that pass a typed ``Locals`` on: what the action was,
what it set off, and which of the later stages run. Written for ``jax.vmap``: every stage is
computed for every game and its changes selected where they apply.

A step can be specialised to the phases its games may be in (``phases``, static): a stage
that no action of those phases can reach is left out, and the parts of one that none can
reach too, so a step in which every acting game nominates is a few operations where the step
of any phase is the whole transition. ``play.play_rounds`` plays each phase of a round in its
own specialised step; the general steps (``core.step``, ``core.step_all``) take every phase.
The same code runs either way: leaving a part out is the same as its condition being false.

The stages mirror the engine's methods (engine/game.py), cited in each docstring; the engine
is the authority, and tests/batched replays every game played here through ``engine.replay``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from ..engine.settings import CHAOS_AT, FASCIST_TRACK, LIBERAL_TRACK
from ..env import encoding as E
from . import pile as P
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
    ASSASSINATE,
    DECISION_PHASES,
    DISCARD,
    ENACT,
    EXECUTE,
    GAME_OVER,
    I32,
    INVESTIGATE,
    MAX_RESHUFFLES,
    MERLIN,
    MONARCHIST,
    NOMINATE,
    NUM_ACTIONS,
    OPEN_CHANCELLOR,
    OPEN_INVESTIGATION,
    OPEN_PEEK,
    OPEN_PRESIDENT,
    PEEK,
    PHASE,
    POWER_PHASES,
    REASONS,
    SPECIAL_ELECTION,
    VETO_RESPONSE,
    VOTE,
    Config,
    State,
    _bit,
    _first_from,
    _popcount,
)


class Locals(NamedTuple):
    """What one step's stages hand on to the next (every field a scalar of one game)."""

    move: jax.Array  # the legal move of the seat that decides (not a vote, not a claim), or -1
    seat: jax.Array  # the seat that decides (the current player)
    votes: jax.Array  # seat set: the votes cast in this step
    ja: jax.Array  # seat set: those of them Ja
    target: jax.Array  # the move's seat (a nominee, a power's target)
    nom: jax.Array  # a nomination
    inv: jax.Array  # a power used on ``target``
    spec: jax.Array
    exe: jax.Array
    won: jax.Array  # the game ended in this step
    failed: jax.Array  # an election failed
    accept: jax.Array  # a veto was accepted
    gov: jax.Array  # the government enacts ``gpol``
    gpol: jax.Array
    gov_on: jax.Array  # and the game goes on
    gov_power: jax.Array  # the power that follows (or, at the election, the pending one)
    power_at_election: jax.Array  # forum timing: a pending power before the session
    chaos_on: jax.Array  # chaos enacted a policy and the game goes on
    chaos_power: jax.Array  # summary-zh: the power chaos gives
    resume: jax.Array  # a power is done (or had no target): the round goes on
    go_session: jax.Array  # the president draws three
    go_end: jax.Array  # the round ends
    peeked: jax.Array  # ``peeker`` peeked the top three, ``seen`` (``State.peeks``' bits)
    peeker: jax.Array
    seen: jax.Array
    shuffled: jax.Array  # this step's reshuffle's record (``pile.reshuffle``), -1 none
    shuffled_again: jax.Array  # and a second one's (a veto, then chaos)

    @staticmethod
    def start(move: jax.Array, seat: jax.Array, votes: jax.Array, ja: jax.Array) -> Locals:
        f, z = jnp.zeros((), bool), jnp.zeros((), I32)
        flags = dict.fromkeys(_FLAGS, f)
        values = dict.fromkeys(_VALUES, z)
        none = {"shuffled": z - 1, "shuffled_again": z - 1}
        return Locals(move=move, seat=seat, votes=votes, ja=ja, **flags, **values, **none)


_FLAGS = (
    "nom", "inv", "spec", "exe", "won", "failed", "accept", "gov", "gov_on", "power_at_election",
    "chaos_on", "resume", "go_session", "go_end", "peeked",
)  # fmt: skip
_VALUES = ("target", "gpol", "gov_power", "chaos_power", "peeker", "seen")


class _Step:
    """One stage's view: the state and the locals, changed where a condition holds."""

    def __init__(self, cfg: Config, st: State, loc: Locals, phases: frozenset[int]) -> None:
        self.cfg, self.st, self.loc, self.phases = cfg, st, loc, phases

    def may(self, *phases: int) -> bool:
        """Whether a game of this step may be in one of ``phases`` (static)."""
        return not self.phases.isdisjoint(phases)

    def set(self, cond: jax.Array, **values: Any) -> None:
        st = self.st
        self.st = st.replace(
            **{
                k: jnp.where(cond, v, getattr(st, k)).astype(getattr(st, k).dtype)
                for k, v in values.items()
            }
        )

    def let(self, **values: Any) -> None:
        loc = self.loc
        self.loc = loc._replace(
            **{k: jnp.asarray(v).astype(getattr(loc, k).dtype) for k, v in values.items()}
        )

    def reshuffle(self, cond: jax.Array) -> None:
        """The deck check (``pile.reshuffle``), its record kept for after the stages."""
        self.st, record = P.reshuffle(self.st, cond)
        first = self.loc.shuffled
        self.let(
            shuffled=jnp.where(first < 0, record, first),
            shuffled_again=jnp.where((first >= 0) & (record >= 0), record, self.loc.shuffled_again),
        )

    def mark(self, cond: jax.Array, bits: Any) -> None:
        """Set ``bits`` in the current history row where ``cond``."""
        self.st = self.st.replace(row=self.st.row | jnp.where(cond, bits, 0))

    def win(self, cond: jax.Array, winner: int, reason: str) -> None:
        self.set(
            cond, winner=winner, reason=REASONS.index(reason), phase=GAME_OVER, hand_l=0, hand_f=0
        )
        self.let(won=self.loc.won | cond)

    def liberal_win(self, cond: jax.Array, reason: str) -> None:
        """A liberal win; under Avalon SH it opens Hitler's assassination instead
        (avalon.open_assassination): he acts, his targets the liberal party, the trigger kept
        in ``reason``. The step ends there either way (``won``)."""
        if not self.cfg.avalon:
            self.win(cond, 0, reason)
            return
        st = self.st
        liberals = ((1 << self.cfg.players) - 1) & ~st.team
        self.set(
            cond,
            phase=ASSASSINATE,
            power_president=st.hitler,
            power_targets=liberals,
            reason=REASONS.index(reason),
            hand_l=0,
            hand_f=0,
        )
        self.let(won=self.loc.won | cond)

    def enact_policy(self, cond: jax.Array, policy: jax.Array, chaos: bool) -> jax.Array:
        """_enact: the policy on its track; true where that ends the game."""
        st = self.st
        liberal = st.liberal + (cond & (policy == 0))
        fascist = st.fascist + (cond & (policy == 1))
        self.set(cond, liberal=liberal, fascist=fascist, tracker=0, hand_l=0, hand_f=0)
        self.mark(cond, jnp.left_shift(1, (_CHAOS if chaos else _ENACTED) + policy))
        lib_win = cond & (liberal >= LIBERAL_TRACK)
        fas_win = cond & ~lib_win & (fascist >= FASCIST_TRACK)
        self.liberal_win(lib_win, "five_liberal_policies")
        self.win(fas_win, 1, "six_fascist_policies")
        return jnp.asarray(lib_win | fas_win)

    def slot_power(self, policy: jax.Array) -> jax.Array:
        """_slot_power: the power of the slot a fascist policy just covered (the board's slots
        by fascist count; none before the first and at the last)."""
        by_count = jnp.asarray((0, *self.cfg.board, 0), I32)
        return jnp.where(policy == 1, by_count[self.st.fascist], 0)


def _decide(g: _Step) -> None:
    """The action itself: nominate, votes and the tally, the election, discard, veto; which
    of the later stages run."""
    L, rules = g.loc, g.cfg.rules
    a = L.move
    if g.may(NOMINATE, *POWER_PHASES):
        target = jnp.where(a >= E.INVESTIGATE, (a - E.INVESTIGATE) % E.MAX_SEATS, a)
        g.let(target=target)
    if g.may(*POWER_PHASES):
        g.let(
            inv=(a >= E.INVESTIGATE) & (a < E.SPECIAL_ELECTION),
            spec=(a >= E.SPECIAL_ELECTION) & (a < E.EXECUTE),
            exe=(a >= E.EXECUTE) & (a < NUM_ACTIONS),
        )
    if g.may(NOMINATE):  # _nominate: a new history row
        nom = (a >= 0) & (a < E.JA)
        st = g.st
        g.let(nom=nom)
        g.st = st.replace(
            row=jnp.where(nom, st.candidate | jnp.left_shift(g.loc.target, _CHAN_SHIFT), st.row),
            row_votes=jnp.where(nom, 0, st.row_votes),
        )
        g.set(nom, nominee=g.loc.target, voted=0, ja=0, phase=VOTE)
    if g.may(VOTE):
        _vote(g)
    if g.may(DISCARD):  # _discard
        disc = (a == E.DISCARD_LIBERAL) | (a == E.DISCARD_FASCIST)
        st = g.st
        pol = (a - E.DISCARD_LIBERAL) & 1
        hand_l = st.hand_l - jnp.where(disc & (pol == 0), 1, 0)
        g.set(disc, hand_l=hand_l, hand_f=st.hand_f - jnp.where(pol == 1, 1, 0))
        g.set(disc, disc_l=st.disc_l + (pol == 0), disc_f=st.disc_f + (pol == 1), phase=ENACT)
        g.mark(disc, jnp.left_shift(1, _PASSED + hand_l))
    gov = jnp.zeros((), bool)
    if g.may(ENACT):  # an enactment, or a veto proposed (the "veto" action)
        gov = (a == E.ENACT_LIBERAL) | (a == E.ENACT_FASCIST)
        veto = (a >= E.VETO) & (a <= E.VETO_KEEP_FASCIST)
        choice = jnp.where(a == E.VETO, -1, a - E.VETO_KEEP_LIBERAL)
        g.set(veto, veto_choice=choice, phase=VETO_RESPONSE)
        g.let(gpol=jnp.where(gov, (a - E.ENACT_LIBERAL) & 1, 0))
    if g.may(VETO_RESPONSE):  # _veto_response
        accept = a == E.VETO_ACCEPT
        refuse = a == E.VETO_REFUSE
        g.mark(accept, 1 << _VETOED)
        g.mark(refuse, 1 << _VETO_REFUSED)
        refused_enacts = refuse & (g.st.veto_choice >= 0) & rules.veto_after_choice
        g.set(refuse & ~refused_enacts, veto_refused=1, phase=ENACT)
        g.let(accept=accept, gpol=jnp.where(refused_enacts, g.st.veto_choice, g.loc.gpol))
        gov = gov | refused_enacts
    g.let(gov=gov)


def _vote(g: _Step) -> None:
    """Votes (_vote), and the tally when the last living seat has voted (_tally); the
    election (_elected)."""
    L, rules = g.loc, g.cfg.rules
    cast = L.votes != 0
    voted = g.st.voted | L.votes
    g.set(cast, voted=voted, ja=g.st.ja | L.ja)
    st = g.st
    tally = cast & (voted == st.alive)
    ja_set = st.ja
    nein_set = st.alive & ~ja_set
    passed = 2 * _popcount(ja_set) > _popcount(st.alive)
    g.set(tally, last_ja=ja_set, last_nein=nein_set)
    g.st = g.st.replace(
        row_votes=jnp.where(tally, ja_set | jnp.left_shift(nein_set, 10), g.st.row_votes)
    )
    g.mark(tally & passed, 1 << _ELECTED)
    elected = tally & passed
    g.let(failed=tally & ~passed)
    st = g.st
    pres, chan, fascist = st.candidate, st.nominee, st.fascist
    g.set(elected, president=pres, chancellor=chan)
    if g.cfg.top_decking != "allowed":  # a passed election clears the count (Game._elected)
        g.set(elected, top_decks=jnp.zeros(1, I32))
    if rules.term_limits != "last_enacted":
        g.set(elected, limit_pres=pres, limit_chan=chan, limit_round=st.round)
    if rules.tracker_resets_on_election:
        g.set(elected, tracker=0)
    zone = fascist >= rules.hitler_zone
    hitler_elected = elected & zone & (chan == st.hitler)
    g.win(hitler_elected, 1, "hitler_elected")
    g.set(elected & zone & ~hitler_elected, not_hitler=g.st.not_hitler | _bit(chan))
    going = elected & ~hitler_elected
    if rules.power_timing == "next_president":
        pend = g.st.pending_power
        has = going & (pend != 0)
        g.set(has & (pend == SPECIAL_ELECTION), post_power=SPECIAL_ELECTION)
        at_election = has & (pend != SPECIAL_ELECTION)
        g.let(power_at_election=at_election, gov_power=jnp.where(at_election, pend, 0))
        g.set(has, pending_power=0)
    g.let(go_session=going & ~g.loc.power_at_election)


def claims(cfg: Config, st: State, actions: jax.Array) -> State:
    """Claims (Game._claim), one per seat at most (``actions``: each seat's claim action, -1
    none): each closes its window and is written in the history row of the round it is about
    (the last session, or the claimant's last peek or investigation), while that row is still
    shown. The turn stays with the claimant."""
    a = actions
    me = a >= 0
    is_pres = a < E.CLAIM_CHANCELLOR_HAND
    is_chan = ~is_pres & (a < E.CLAIM_PEEK)
    is_peek = (a >= E.CLAIM_PEEK) & (a < E.CLAIM_INVESTIGATION)
    is_inv = a >= E.CLAIM_INVESTIGATION
    subject = jnp.where(is_pres, OPEN_PRESIDENT, OPEN_CHANCELLOR)
    subject = jnp.where(is_peek, OPEN_PEEK, jnp.where(is_inv, OPEN_INVESTIGATION, subject))
    about = jnp.where(is_peek, st.peek_at, jnp.where(is_inv, st.investigation_at, st.session_at))
    row = st.records - about
    peek = a - E.CLAIM_PEEK
    three = jnp.arange(3, dtype=I32)
    peeked = jnp.sum(
        jnp.left_shift(1, _CLAIM_PEEK + 2 * three + (jnp.right_shift(peek[:, None], three) & 1)),
        axis=-1,
    )
    bits = jnp.where(is_pres, jnp.left_shift(1, a - E.CLAIM_PRESIDENT_HAND), 0)
    bits = jnp.where(is_chan, jnp.left_shift(1, _CLAIM_CHAN + a - E.CLAIM_CHANCELLOR_HAND), bits)
    bits = jnp.where(is_peek, peeked, bits)
    bits = jnp.where(is_inv, jnp.left_shift(1, _CLAIM_PARTY + a - E.CLAIM_INVESTIGATION), bits)
    rows = jnp.arange(st.hist_claims.shape[0], dtype=I32) == row[:, None]
    new = jax.lax.reduce(
        jnp.where(me[:, None] & rows, bits[:, None], 0), jnp.int32(0), jax.lax.bitwise_or, (0,)
    )
    return st.replace(
        claim_open=jnp.where(me, st.claim_open & ~subject, st.claim_open),
        hist_claims=st.hist_claims | new,
    )


def _enact(g: _Step) -> None:
    """The chancellor enacts (_chancellor_enacts, _government_enacts), then the deck check."""
    cfg, L = g.cfg, g.loc
    gov, gpol = L.gov, L.gpol
    st = g.st
    g.set(
        gov,
        disc_l=st.disc_l + (st.hand_l - (gpol == 0)),
        disc_f=st.disc_f + (st.hand_f - (gpol == 1)),
    )
    if cfg.rules.term_limits == "last_enacted":
        g.set(gov, limit_pres=g.st.president, limit_chan=g.st.chancellor)
    gov_on = gov & ~g.enact_policy(gov, gpol, chaos=False)
    g.let(gov_on=gov_on, gov_power=jnp.where(gov_on, g.slot_power(gpol), g.loc.gov_power))
    # a consented veto: the policies to the discard pile, the deck check first (A7)
    accept = L.accept
    st = g.st
    g.set(accept, disc_l=st.disc_l + st.hand_l, disc_f=st.disc_f + st.hand_f, hand_l=0, hand_f=0)
    g.set(accept, vetoes_used=g.st.vetoes_used + 1)
    g.reshuffle(gov_on | accept)  # a step enacts or vetoes, never both


def _tracker(g: _Step) -> None:
    """The election tracker (_advance_tracker) and chaos (_chaos), and its deck check."""
    cfg, L = g.cfg, g.loc
    moved = L.failed | L.accept
    tracker = g.st.tracker + moved
    g.set(moved, tracker=tracker)
    chaos = moved & (tracker >= CHAOS_AT)
    if cfg.top_decking != "allowed":  # no top-decking (Game._top_deck): a failed election's
        # chaos ends the game (forbidden, or not_twice after one since the last passed election)
        count = g.st.top_decks
        ends = count > 0 if cfg.top_decking == "not_twice" else jnp.ones(1, bool)
        top_decked = chaos & L.failed & ends[0]
        g.win(top_decked, 1, "top_decked")
        g.set(chaos & L.failed & ~top_decked, top_decks=count + 1)
        chaos = chaos & ~top_decked
    g.st, top = P.draw(g.st, chaos, 1)
    g.set(chaos, tracker=0)
    if cfg.rules.chaos_clears_term_limits:
        g.set(chaos, limit_pres=-1, limit_chan=-1)
    chaos_on = chaos & ~g.enact_policy(chaos, top, chaos=True)
    g.let(chaos_on=chaos_on)
    if cfg.rules.chaos_power:
        g.let(chaos_power=jnp.where(chaos_on, g.slot_power(top), 0))
    g.reshuffle(chaos_on)


def _power(g: _Step) -> None:
    """After the session (_after_session), then a power begins (_begin_power): at the
    election (forum timing), after chaos (summary-zh), or after the session."""
    L, rules = g.loc, g.cfg.rules
    chaos_powered = L.chaos_on & (L.chaos_power != 0)
    failed, accept, gov_on = L.failed, L.accept, L.gov_on
    go_end = failed & ~L.won & ~chaos_powered  # _tally: "if self.phase is _VOTE"
    after = gov_on | (accept & ~L.won & ~chaos_powered)
    power = jnp.where(gov_on, L.gov_power, 0)
    post = g.st.post_power
    g.set(after, post_power=0)
    if rules.power_timing == "next_president":
        g.set(after & (power != 0), pending_power=power)
        power = jnp.zeros((), I32)
    after_power = after & ((power != 0) | (post != 0))
    go_end = go_end | (after & ~after_power)
    at_election = L.power_at_election
    begin = at_election | chaos_powered | after_power
    bp_power = jnp.where(
        at_election,
        L.gov_power,
        jnp.where(chaos_powered, L.chaos_power, jnp.where(power != 0, power, post)),
    )
    st = g.st
    bp_pres = jnp.where(chaos_powered, st.candidate, st.president)
    g.set(begin, after_session=at_election, power_president=bp_pres)
    is_peek = begin & (bp_power == PEEK)
    g.st, top = P.top_three(g.st, is_peek)
    seen = sum(jnp.left_shift(1, 2 * i + (jnp.right_shift(top, i) & 1)) for i in range(3))
    g.let(peeked=is_peek, peeker=bp_pres, seen=seen)
    st = g.st
    targets = st.alive & ~_bit(bp_pres)
    targets = jnp.where(
        at_election & (bp_power == EXECUTE), targets & ~_bit(st.chancellor), targets
    )
    targets = jnp.where(bp_power == INVESTIGATE, targets & ~st.investigated, targets)
    if not rules.fascist_may_execute_hitler:
        hitler = _bit(st.hitler)
        fascist = (st.team & ~hitler & _bit(bp_pres)) != 0
        if g.cfg.monarchist:  # plain Fascists and Morgana may not; the Monarchist may
            mine = jnp.sum(jnp.where(jnp.arange(E.MAX_SEATS) == bp_pres, st.special, 0))
            fascist = fascist & (mine != MONARCHIST)
        targets = jnp.where((bp_power == EXECUTE) & fascist, targets & ~hitler, targets)
    g.mark(begin & (is_peek | (targets != 0)), jnp.left_shift(1, _POWER + bp_power - 1))
    targeted = begin & ~is_peek & (targets != 0)
    phase = jnp.where(bp_power == INVESTIGATE, PHASE["investigate"], PHASE["execute"])
    phase = jnp.where(bp_power == SPECIAL_ELECTION, PHASE["special_election"], phase)
    g.set(targeted, power_targets=targets, phase=phase)
    g.let(resume=begin & ~targeted, go_end=go_end)  # a peek, or no target (A11): _continue


def _use_power(g: _Step) -> None:
    """Powers used (_investigate, _special_election, _execute), then _continue."""
    L = g.loc
    inv, spec, exe, target, seat = L.inv, L.spec, L.exe, L.target, L.seat
    tbit = _bit(target)
    g.mark(inv | spec | exe, (1 << _HAS_TARGET) | jnp.left_shift(target, _TARGET))
    g.set(inv, investigated=g.st.investigated | tbit)
    g.set(spec, special_next=target, rotation=seat)
    g.set(exe, alive=g.st.alive & ~tbit)
    shot_hitler = exe & (target == g.st.hitler)
    g.liberal_win(shot_hitler, "hitler_executed")
    resume = L.resume | inv | spec | (exe & ~shot_hitler)
    g.set(resume, power_targets=0)
    after = g.st.after_session != 0
    g.let(go_session=L.go_session | (resume & after), go_end=L.go_end | (resume & ~after))


def _next_round(g: _Step) -> None:
    """_end_round and _begin_round; or _begin_session: the president draws 3."""
    cfg, L, rules, n = g.cfg, g.loc, g.cfg.rules, g.cfg.players
    go_end, go_session = L.go_end, L.go_session
    st = g.st
    nxt = jnp.where(
        st.special_next >= 0, st.special_next, _first_from(st.alive, (st.rotation + 1) % n, n)
    )
    g.set(go_end & (st.special_next < 0), rotation=nxt)
    g.set(go_end, special_next=-1, round=st.round + 1, candidate=nxt, nominee=-1, phase=NOMINATE)
    st = g.st
    veto_on = st.fascist >= rules.veto_zone
    if rules.veto_limit is not None:
        veto_on = veto_on & (st.vetoes_used < rules.veto_limit)
    g.st, drawn = P.draw(g.st, go_session, 3)
    drawn_f = _popcount(drawn)
    g.set(go_session, veto_enabled=veto_on, veto_refused=0, veto_choice=-1, hand_f=drawn_f)
    g.set(go_session, hand_l=3 - drawn_f, phase=DISCARD)
    if cfg.claims:
        g.set(go_session, session_at=g.st.records)
    g.mark(go_session, jnp.left_shift(1, _DREW + 3 - drawn_f))


def _assassinate(g: _Step) -> None:
    """Avalon SH: Hitler names a seat (avalon.assassinate): Merlin found is a fascist win,
    any other seat the liberals' win for the trigger (kept in ``reason``)."""
    cfg = g.cfg
    if not cfg.avalon:
        return
    st, a = g.st, g.loc.move
    base = E.assassinate_base(cfg.claims)
    named = (st.phase == ASSASSINATE) & (a >= base)
    target = jnp.clip(a - base, 0, E.MAX_SEATS - 1)
    merlin = jnp.sum(jnp.where(jnp.arange(E.MAX_SEATS) == target, st.special, 0)) == MERLIN
    g.set(named, power_targets=0)
    g.win(named & merlin, 1, "merlin_assassinated")
    g.set(named & ~merlin, winner=0, phase=GAME_OVER)
    g.let(won=g.loc.won | named)


Stage = Callable[[_Step], None]

#: Each stage, and the phases whose actions reach it.
_REACHED_FROM: tuple[tuple[Stage, frozenset[int]], ...] = (
    (_decide, DECISION_PHASES),
    (_assassinate, frozenset({ASSASSINATE})),
    (_enact, frozenset({ENACT, VETO_RESPONSE})),
    (_tracker, frozenset({VOTE, VETO_RESPONSE})),
    (_power, frozenset({VOTE, ENACT, VETO_RESPONSE})),
    (_use_power, frozenset({VOTE, ENACT, VETO_RESPONSE}) | POWER_PHASES),  # and _continue
    (_next_round, frozenset({VOTE, ENACT, VETO_RESPONSE}) | POWER_PHASES),
)
#: The stages of a step, each group one switch branch of a loop whose carry is materialized
#: between them: XLA on the CPU fuses each output of a long chain of ``where``s with the whole
#: chain, so one piece recomputed everything for each of the state's fields. Every branch
#: copies the fields it leaves alone, so fewer groups are cheaper until the chains grow.
GROUPS: tuple[tuple[Stage, ...], ...] = (
    (_decide, _enact, _tracker, _assassinate),
    (_power, _use_power, _next_round),
)


def run(
    cfg: Config, st: State, loc: Locals, phases: frozenset[int] = DECISION_PHASES
) -> tuple[State, Locals]:
    """The stages that actions of ``phases`` reach, group after group (``GROUPS``)."""
    reached = {stage for stage, sources in _REACHED_FROM if not sources.isdisjoint(phases)}
    groups = [tuple(s for s in group if s in reached) for group in GROUPS]
    groups = [group for group in groups if group]

    # The loop carries only the fields the stages write (found by tracing them once: the
    # probe's results are dropped, and XLA drops its operations): a switch branch copies every
    # field of the carry it leaves alone, and the others are read where they are.
    probe = _Step(cfg, st, loc, phases)
    for group in groups:
        for stage in group:
            stage(probe)
    written = [name for name, value in probe.st.fields().items() if value is not getattr(st, name)]

    def branch(group: tuple[Stage, ...]) -> Callable[[Any], Any]:
        def go(carry: tuple[dict[str, jax.Array], Locals]) -> Any:
            fields, loc = carry
            g = _Step(cfg, st.replace(**fields), loc, phases)
            for stage in group:
                stage(g)
            return {name: getattr(g.st, name) for name in written}, g.loc

        return go

    branches = [branch(group) for group in groups]
    start = ({name: getattr(st, name) for name in written}, loc)
    if len(branches) == 1:
        fields, loc = branches[0](start)
    else:
        fields, loc = jax.lax.fori_loop(
            0, len(branches), lambda i, c: jax.lax.switch(i, branches, c), start
        )
    return _settle(cfg, st, st.replace(**fields), loc), loc


def _settle(cfg: Config, before: State, st: State, loc: Locals) -> State:
    """The per-seat and per-reshuffle arrays, written after the stages from what they found:
    written inside them, XLA recomputed each element's whole chain of conditions."""
    seats = jnp.arange(cfg.players, dtype=I32)
    r = jnp.arange(MAX_RESHUFFLES, dtype=I32)
    counts = st.reshuffle_counts
    counts = jnp.where((r == before.reshuffles) & (loc.shuffled >= 0), loc.shuffled, counts)
    again = (r == before.reshuffles + 1) & (loc.shuffled_again >= 0)
    counts = jnp.where(again, loc.shuffled_again, counts)
    peeker = loc.peeked & (seats == loc.peeker)
    investigator = loc.inv & (seats == loc.seat)
    party = jnp.right_shift(st.team, loc.target) & 1
    found = jnp.left_shift(1, 2 * loc.target + party)
    st = st.replace(
        reshuffle_counts=counts,
        peeks=jnp.where(peeker, loc.seen, st.peeks),
        inv_parties=jnp.where(investigator, st.inv_parties | found, st.inv_parties),
    )
    if not cfg.claims:
        return st
    # windows open (_open_hand_claims after a session enacted or vetoed, a peek, an
    # investigation), then a new session closes every one but those of a power it came after
    session = loc.gov | loc.accept
    window = jnp.where(session & (seats == st.president), OPEN_PRESIDENT, 0)
    window = window | jnp.where(session & (seats == st.chancellor), OPEN_CHANCELLOR, 0)
    powers = jnp.where(peeker, OPEN_PEEK, 0) | jnp.where(investigator, OPEN_INVESTIGATION, 0)
    open_ = st.claim_open | window | powers
    return st.replace(
        claim_open=jnp.where(loc.go_session, powers, open_),
        peek_at=jnp.where(peeker, st.records, st.peek_at),
        investigation_at=jnp.where(investigator, st.records, st.investigation_at),
    )
