"""The `rule` level: hand-written heuristics per role, acting only on the seat's View.

Liberals keep a suspicion score per seat from public events (fascist policies from a government,
claims that contradict each other, yes votes on governments that went bad, investigation claims)
and from what only they saw (their own hands and investigations, which turn some suspicions
into certainties). They enact liberal policies, claim the truth, trust the least suspicious
and refuse unconfirmed chancellors in the Hitler zone.

Fascists know their team (Hitler does only at 5-6 players) and play for a fascist win without
exposing Hitler: they pass fascist policies when the deck can take the blame, lie in claims so
that their story stays consistent with what a liberal partner saw, frame liberals they
investigate, clear Hitler, and push him into the chancellorship in the Hitler zone. Hitler
plays like a careful liberal to earn trust and only breaks cover to block or win.

The bot reads each new event once (views only grow), so a decision is a few microseconds of
arithmetic over the seats.

It is about 750 lines because ``RuleAgent`` is one level: every decision of every role (a
nomination, a vote, a discard, a power, a claim, a veto) reads the same suspicion state the
events build once; split by decision or by role, each part would read that state again or
reach into another's.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

from ..engine import Action, View
from ..engine import actions as A
from ..engine import events as E
from ..engine.actions import hand_claims_fit
from ..engine.public import Session
from ..engine.seat import SEAT_READERS, Hand, SeatState
from ..engine.types import Policy
from ..talk.lines import Claim, Line
from ..talk.said import Said
from .base import Agent, register, twin_rng
from .voice import Reading, Voice, suspicion_from_scores

LIB = "liberal"
FAS = "fascist"
KNOWN = 10.0  # the score of a seat known to be fascist


class Weights:
    """Every weight of the rule bot, in one place. None is fitted: they were set by hand when
    the bot was written and kept because the rule-vs-rule games come out balanced (52.5%
    liberal wins at 7 players, docs/bots.md "Results"); ``zone_penalty`` and ``zone_refuse``
    were tuned by simulation at 7 players. docs/bots.md, ``rule``, describes each in words."""

    # Suspicion from public events (added to the seat's public score).
    fascist_gov = 1.0  # both members of a government that enacted a fascist policy
    fascist_gov_ja = 0.3  # ...each other ja voter
    liberal_gov = -0.5  # both members of a government that enacted a liberal policy
    liberal_gov_ja = -0.1  # ...each other ja voter
    conflict = 1.5  # both seats of two contradicting claims
    chancellor_lied = 3.0  # admitted a liberal and enacted a fascist, or FF and enacted liberal
    president_threw = 2.0  # a president who admits throwing a liberal away
    fff_forgiven = -0.7  # an FFF / FF story, times how likely the draw was (deck counting)
    fff_likely = 0.25  # P(FFF) at which that story is fully forgiven
    two_to_one = 0.4  # a president who claims 2+ liberals while the chancellor claims 1
    silent_fascist = 0.6  # no claim by the window's close, after a fascist policy
    silent_liberal = 0.3  # ...after a liberal one
    investigated_fascist = 2.5  # an investigation claim "fascist", times credibility
    investigated_liberal = -1.0  # ...claim "liberal"
    known_tiebreak = 0.01  # known fascists are ranked among themselves by public score
    # Private adjustments (what only this seat saw).
    drew_fff = 0.8  # the president who handed me FF (drew FFF, or threw a liberal away)
    backed_known = 0.4  # a ja voter of a government with a seat I know is fascist
    # Fascists' sense of who knows too much about the team.
    threat_investigated = 3.0  # investigated a teammate / claims a teammate is fascist
    threat_conflict = 2.0  # contradicted a teammate
    # Liberal decisions.
    zone_penalty = 3.0  # Hitler zone: distrust of a nominee not known to be not-Hitler
    zone_refuse = 0.0  # ...score above which a liberal refuses him (1.0 at tracker 2)
    zone_refuse_desperate = 1.0
    vote_limit = 1.2  # nein when the worse member's score reaches this (2.2 at tracker 2)
    vote_limit_desperate = 2.2
    vote_above_mean = 1.5  # ...or exceeds the table's average by this much
    execute_unsafe = 0.5  # preference for shooting a seat not confirmed not-Hitler
    tiebreak = 0.05  # random jitter added to keys to break ties
    # Fascist decisions (probabilities).
    nominate_mate = 0.55  # nominate a teammate (Hitler blind: 0.35)
    nominate_mate_careful = 0.35
    tracker2_nein = 0.5  # a fascist votes nein on a non-team government at tracker 2
    pass_ff_to_hitler = 0.6  # pass FF to Hitler as chancellor before the zone (1.0 in it)
    force_power = 0.75  # force a fascist policy that gives a power (0.55 otherwise)
    force_plain = 0.55
    force_suspected = 0.3  # ...less this when the president's public score exceeds 1.5
    force_suspected_above = 1.5
    force_hitler = 0.3  # ...less this for Hitler
    enact_with_mate = 0.6  # a Hitler chancellor enacts fascist with a teammate president
    betray_power = 0.45  # a fascist chancellor with a liberal president enacts fascist (power)
    betray_plain = 0.25
    betray_hitler = 0.4  # ...times this for Hitler
    investigate_hitler = 0.5  # investigate Hitler (and call him liberal)
    frame = 0.5  # call an investigated liberal fascist
    execute_public = 0.5  # weight of the public score when choosing a liberal to shoot


def _nlib(policies: Sequence[str]) -> int:
    return sum(1 for p in policies if p == LIB)


_NOTHING_HELD = Hand(-1)  # ``RuleAgent._held`` of a session this seat did not sit in


def _hand(liberals: int, size: int) -> tuple[Policy, ...]:
    """A claimed hand in the engine's canonical order (fascist first)."""
    return tuple([Policy.FASCIST] * (size - liberals) + [Policy.LIBERAL] * liberals)


class _Story:
    """What this bot makes of the last elected government's stories, from its election to the
    next: the hand claims it heard (the engine's or said in the chat), whether it scored them,
    the peek claim made before the government's draw. The government, its session and what
    this seat held in it are the engine's (``SeatState``: ``RuleAgent._session``, ``_held``)."""

    __slots__ = ("pres", "chan", "begun", "pres_claim", "chan_claim", "scored", "peek")

    def __init__(self, pres: int, chan: int) -> None:
        self.pres = pres
        self.chan = chan
        self.begun = False  # its legislative session has begun (it is the fold's ``session``)
        self.pres_claim: int | None = None  # liberal policies claimed
        self.chan_claim: int | None = None
        self.scored = False
        self.peek: tuple[int, int] | None = None  # (peeker, claimed liberals) of the next draw


class RuleAgent(Agent):
    name = "rule"
    zone_penalty = Weights.zone_penalty
    zone_refuse = Weights.zone_refuse

    def __init__(self, seat: int, rng: random.Random | None = None) -> None:
        super().__init__(seat, rng)
        self._seen = 0
        self.n = 0
        self.role = LIB
        self.team: frozenset[int] = frozenset()  # fascist team members this seat knows
        self.hitler: int | None = None
        self.pub: list[float] = []  # suspicion any observer could compute
        self.priv: list[float] = []  # adjustments from what only this seat saw
        self.threat: list[float] = []  # (fascists) how much a liberal seems to know about us
        self.known_fas: set[int] = set()
        self.known_lib: set[int] = set()
        self.sess: _Story | None = None
        self.peek_claim: tuple[int, int] | None = None
        # what this seat knows as of the events read (the engine's fold): the last votes, the
        # deck's policies not yet on the tracks, its hands and peeks
        self.table = SeatState(seat)
        self.voice: Voice | None = None  # made when first asked to talk (``speak``/``listen``)
        self.seated: tuple[bool, ...] | None = None  # which seats people play, when told
        self.heard_investigations: set[tuple[int, int]] = set()  # claims read (engine or chat)

    def fork(self) -> RuleAgent:
        """A copy sharing nothing mutable: its lists, sets and open session copied."""
        other = copy.copy(self)
        for key, value in vars(other).items():
            if type(value) in (list, set, dict):
                setattr(other, key, type(value)(value))
        other.rng = twin_rng(self.rng)
        other.table = self.table.copy()
        if self.sess is not None:
            other.sess = copy.copy(self.sess)
        if self.voice is not None:
            other.voice = copy.deepcopy(self.voice)
        return other

    # ------------------------------------------------------------------ knowledge
    def _start(self, view: View) -> None:
        n = view.players
        self.n = n
        self.role = view.role or LIB
        self.pub = [0.0] * n
        self.priv = [0.0] * n
        self.threat = [0.0] * n
        if self.role != LIB:
            team = {s for s, r in enumerate(view.known_roles) if r in (FAS, "hitler")}
            team.add(self.seat)
            self.team = frozenset(team)
            for s, r in enumerate(view.known_roles):
                if r == "hitler":
                    self.hitler = s
        if self.role == LIB:
            self.known_lib.add(self.seat)

    @property
    def knows_team(self) -> bool:
        return self.role == FAS or (self.role == "hitler" and len(self.team) > 1)

    def _update(self, view: View) -> None:
        if not self.n:
            self._start(view)
        events = view.events
        table, step = self.table, SEAT_READERS.get
        for e in events[self._seen :]:  # one slice: an index per event costs a call each
            self._observe(e)  # sees the public state before the event
            fold = step(e.kind)  # then the fold (``table.feed(e)``, a call less)
            if fold is not None:
                fold(table, e)
        self._seen = len(events)

    def _observe(self, e: Any) -> None:
        """Read one typed event (``engine.events``)."""
        t = e["type"]
        if t == "elected":
            self._close_session()
            self.sess = _Story(e.president, e.chancellor)
        elif t == "legislative_session":
            if self.sess is not None:
                self.sess.peek = self.peek_claim
                self.sess.begun = True
            self.peek_claim = None
        elif t == "drew" and self.sess is not None:
            self._check_peek_draw(self.sess, e.policies)
        elif t == "enacted":
            self._on_enacted(e)
        elif t == "chaos":
            self.peek_claim = None
        elif t == "claim":
            self._on_claim(e)
        elif t == "investigation":
            target = e.target
            (self.known_fas if e.party == FAS else self.known_lib).add(target)
        elif t == "investigated":
            if e.target in self.team and e.president not in self.team:
                self.threat[e.president] += Weights.threat_investigated
        elif t == "nominated":
            self._close_session()

    # ------------------------------------------------------------------ the engine's facts
    def _session(self) -> Session | None:
        """The last government's legislative session (the fold's open one), once it began."""
        s = self.sess
        return self.table.session if s is not None and s.begun else None

    def _enacted(self) -> str | None:
        """The policy the last government enacted (None before, or after a veto)."""
        session = self._session()
        return session.enacted if session is not None else None

    def _held(self) -> Hand:
        """What this seat held in the last government's session (empty if it sat out)."""
        s = self.sess
        if s is None or not s.begun or self.seat not in (s.pres, s.chan):
            return _NOTHING_HELD
        hands, table = self.table.hands, self.table
        if hands and hands[-1].session == len(table.closed):  # the open session's
            return hands[-1]
        return _NOTHING_HELD

    def _my_peek(self) -> tuple[str, ...]:
        """The policies of this seat's last peek, top first."""
        peeks = self.table.peeks
        return peeks[-1].policies if peeks else ()

    def _on_enacted(self, e: E.Enacted) -> None:
        policy = e.policy
        if e.chaos:
            self.peek_claim = None
        s = self.sess
        if e.chaos or s is None or not s.begun:
            return
        session = self.table.session  # the government's (``_session``)
        if session is None or session.enacted is not None:
            return  # (the fold reads the event next: this one sets ``enacted``)
        ja = [v for v, yes in enumerate(session.votes) if yes]  # who elected the government
        held = self._held() if self.seat in (s.pres, s.chan) else _NOTHING_HELD
        pub = self.pub
        if policy == FAS:
            pub[s.pres] += Weights.fascist_gov
            pub[s.chan] += Weights.fascist_gov
            for v in ja:
                if v not in (s.pres, s.chan):
                    pub[v] += Weights.fascist_gov_ja
            if held.passed and LIB in held.passed:
                self._caught(s.chan)  # I passed a liberal and the chancellor chose fascist
            if held.received == (FAS, FAS):
                self.priv[s.pres] += (
                    Weights.drew_fff
                )  # drew three fascists, or threw a liberal away
        else:
            pub[s.pres] += Weights.liberal_gov
            pub[s.chan] += Weights.liberal_gov
            for v in ja:
                if v not in (s.pres, s.chan):
                    pub[v] += Weights.liberal_gov_ja
        for v in ja:
            if v in self.known_fas or s.pres in self.known_fas or s.chan in self.known_fas:
                self.priv[v] += Weights.backed_known

    def _caught(self, seat: int) -> None:
        """This seat saw ``seat`` lie or betray: a certainty for a liberal."""
        if seat == self.seat:
            return
        self.known_fas.add(seat)
        self.known_lib.discard(seat)

    def _on_claim(self, e: E.Claimed) -> None:
        seat, subject = e.seat, e.subject
        s = self.sess
        liberals = _nlib(e.policies or ())  # of a hand or peek claim
        if subject == A.CLAIM_INVESTIGATION:
            assert e.target is not None and e.party is not None
            self._on_investigation_claim(seat, e.target, e.party)
        elif subject == A.CLAIM_PEEK:
            claimed = liberals
            self.peek_claim = (seat, claimed)
            mine = self._my_peek()
            if seat != self.seat and mine and _nlib(mine) != claimed:
                self._caught(seat)
        elif s is not None and subject == A.CLAIM_PRESIDENT_HAND and seat == s.pres:
            s.pres_claim = liberals
            received = self._held().received if self.seat == s.chan else ()
            if received and not hand_claims_fit(s.pres_claim, _nlib(received)):
                self._caught(seat)
            if s.peek is not None and s.peek[1] != s.pres_claim:
                self._conflict(s.peek[0], seat)
                if s.peek[0] == self.seat and self.role == LIB:
                    self._caught(seat)
            self._score_claims(s)
        elif s is not None and subject == A.CLAIM_CHANCELLOR_HAND and seat == s.chan:
            s.chan_claim = liberals
            passed = self._held().passed if self.seat == s.pres else ()
            if passed and _nlib(passed) != s.chan_claim:
                self._caught(seat)
            self._score_claims(s)

    def _check_peek_draw(self, s: _Story, drew: Sequence[str]) -> None:
        if s.peek is not None and s.pres == self.seat and s.peek[1] != _nlib(drew):
            self._caught(s.peek[0])

    def _conflict(self, a: int, b: int) -> None:
        self.pub[a] += Weights.conflict
        self.pub[b] += Weights.conflict
        for x, y in ((a, b), (b, a)):
            if x in self.team and y not in self.team:
                self.threat[y] += Weights.threat_conflict

    def _score_claims(self, s: _Story) -> None:
        """Once both members have claimed: do the stories fit each other and the policy?"""
        if s.scored or s.pres_claim is None or s.chan_claim is None:
            return
        s.scored = True
        pl, cl, pub = s.pres_claim, s.chan_claim, self.pub
        if not hand_claims_fit(pl, cl):
            self._conflict(s.pres, s.chan)
            return
        enacted = self._enacted()
        if enacted == FAS:
            if cl >= 1:
                pub[s.chan] += Weights.chancellor_lied  # had a liberal and enacted a fascist
            elif pl >= 1:
                pub[s.pres] += Weights.president_threw  # threw a liberal away
            else:
                blame = min(1.0, self._p_fff() / Weights.fff_likely)
                pub[s.pres] += Weights.fff_forgiven * blame
                pub[s.chan] += Weights.fff_forgiven * blame
        elif enacted == LIB and cl == 0:
            pub[s.chan] += (
                Weights.chancellor_lied
            )  # claims fascists only but enacted a liberal: a lie
        elif enacted == LIB and pl >= 2 and cl == 1:
            pub[s.pres] += Weights.two_to_one

    def _p_fff(self) -> float:
        lib, fas = self.table.unenacted
        lib_left = max(0, lib)
        total = max(1, lib + fas)
        q = 1.0 - lib_left / total
        return q * q * q

    def _close_session(self) -> None:
        """The claim window closed: a government member with nothing to say hides something."""
        s = self.sess
        if s is None or s.scored:
            return
        s.scored = True
        silence = Weights.silent_fascist if self._enacted() == FAS else Weights.silent_liberal
        if s.pres_claim is None:
            self.pub[s.pres] += silence
        if s.chan_claim is None:
            self.pub[s.chan] += silence

    def _on_investigation_claim(self, pres: int, target: int, party: str) -> None:
        if pres == self.seat:
            return
        if (pres, target) in self.heard_investigations:
            return  # read once, from the chat or the engine, whichever came first
        self.heard_investigations.add((pres, target))
        if target in self.known_lib and party == FAS:
            self._caught(pres)
            return
        if target in self.known_fas and party == LIB and target not in self.team:
            self._caught(pres)
            return
        if target in self.team and party == FAS and pres not in self.team:
            self.threat[pres] += Weights.threat_investigated
        credibility = 1.0 / (1.0 + max(0.0, self.score(pres)))
        if party == FAS:
            self.pub[target] += Weights.investigated_fascist * credibility
        else:
            self.pub[target] += Weights.investigated_liberal * credibility

    def score(self, seat: int) -> float:
        """Suspicion from this seat's point of view (liberal reasoning)."""
        if seat in self.known_fas:
            return KNOWN + self.pub[seat] * Weights.known_tiebreak
        if seat in self.known_lib:
            return -KNOWN
        return self.pub[seat] + self.priv[seat]

    def public(self, seat: int) -> float:
        return self.pub[seat]

    # ------------------------------------------------------------------ decisions
    def act(self, view: View, legal: Sequence[Action]) -> Action:
        self._update(view)
        turn = [a for a in legal if a.type != A.CLAIM]
        if not turn:
            made = self.claims(view, legal)
            return made[0] if made else legal[0]
        kind = turn[0].type
        if kind == A.VOTE:
            ja = self._vote(view)
            return next((a for a in turn if a.ja is ja), turn[0])
        if kind == A.NOMINATE:
            return self._pick_target(turn, self._nominee(view, [a.target for a in turn]))  # type: ignore[misc]
        if kind == A.DISCARD:
            want = self._discard(view)
            return next((a for a in turn if a.policy == want), turn[0])
        if kind in (A.ENACT, A.VETO):
            return self._enact(view, turn)
        if kind == A.VETO_RESPONSE:
            accept = self._accept_veto(view)
            return next((a for a in turn if a.accept is accept), turn[0])
        targets = [a.target for a in turn if a.target is not None]
        if kind == A.INVESTIGATE:
            return self._pick_target(turn, self._investigate(view, targets))
        if kind == A.SPECIAL_ELECTION:
            return self._pick_target(turn, self._special(view, targets))
        if kind == A.EXECUTE:
            return self._pick_target(turn, self._execute(view, targets))
        return turn[self.rng.randrange(len(turn))]

    @staticmethod
    def _pick_target(turn: Sequence[Action], target: int) -> Action:
        return next((a for a in turn if a.target == target), turn[0])

    def _best(self, seats: Sequence[int], key: Callable[[int], float]) -> int:
        """The seat with the smallest key, ties broken at random."""
        rnd = self.rng.random
        return min(seats, key=lambda s: key(s) + rnd() * Weights.tiebreak)

    def _fascist_play(self) -> bool:
        return self.role == FAS or (self.role == "hitler" and self.knows_team)

    def _zone(self, view: View) -> bool:
        return view.hitler_zone_active

    # -- nomination and votes
    def _nominee(self, view: View, targets: list[int]) -> int:
        if not self._fascist_play():
            return self._trusted(view, targets)
        team = self.team
        hitler = self.hitler
        if self._zone(view) and hitler in targets and hitler != self.seat:
            return hitler
        mates = [t for t in targets if t in team and t != hitler]
        if not mates and not self._zone(view):
            mates = [t for t in targets if t == hitler]
        careful = self.role == "hitler"
        if mates and self.rng.random() < (
            Weights.nominate_mate_careful if careful else Weights.nominate_mate
        ):
            return self._best(mates, self.public)
        others = [t for t in targets if t not in team] or targets
        return self._best(others, self.public)

    def _trusted(self, view: View, targets: list[int]) -> int:
        zone = self._zone(view)
        safe = set(view.not_hitler)

        def key(s: int) -> float:
            k = self.score(s)
            if zone and s not in safe and s not in self.known_lib:
                k += self.zone_penalty
            return k

        return self._best(targets, key)

    def _vote(self, view: View) -> bool:
        c, m = view.candidate, view.nominee
        if c is None or m is None:
            return True
        if self._fascist_play():
            team = self.team
            if self._zone(view) and m == self.hitler:
                return True
            if c in team or m in team:
                return True
            if view.election_tracker == 2 and self.rng.random() < Weights.tracker2_nein:
                return False
            return self._liberal_vote(view, c, m, self.public)
        return self._liberal_vote(view, c, m, self.score)

    def _liberal_vote(self, view: View, c: int, m: int, score: Callable[[int], float]) -> bool:
        if self.seat in (c, m):
            return True
        if c in self.known_fas or m in self.known_fas:
            return False
        desperate = view.election_tracker == 2
        if (
            self._zone(view)
            and m not in view.not_hitler
            and m not in self.known_lib
            and score(m) > (Weights.zone_refuse_desperate if desperate else self.zone_refuse)
        ):
            return False
        limit = Weights.vote_limit_desperate if desperate else Weights.vote_limit
        living = [s for s in range(self.n) if view.alive[s] and s != self.seat]
        mean = sum(score(s) for s in living) / max(1, len(living))
        risk = max(score(c), score(m))
        return risk < limit and risk <= mean + Weights.vote_above_mean

    # -- legislation
    def _discard(self, view: View) -> Policy:
        hand = view.hand
        fas = hand.count(FAS)
        if fas == 0:
            return Policy.LIBERAL
        if fas == 3 or LIB not in hand:
            return Policy.FASCIST
        chan = view.chancellor
        if self.role == LIB:
            return Policy.FASCIST
        must_block = view.liberal_to_win <= 1
        if self.role == "hitler" and not self.knows_team:
            # Careful liberal, except that a fifth liberal policy would lose the game.
            return Policy.LIBERAL if must_block and fas >= 2 else Policy.FASCIST
        if fas < 2 and not must_block:
            return Policy.FASCIST  # a lone fascist would not get past a liberal chancellor
        if chan in self.team:
            p = Weights.pass_ff_to_hitler if chan == self.hitler and not self._zone(view) else 1.0
        elif must_block:
            p = 1.0
        else:
            slot = view.fascist_policies  # the next fascist policy covers board[slot]
            power = view.board[slot] if slot < len(view.board) else None
            powers = ("execute", "investigate", "special_election")
            p = Weights.force_power if power in powers else Weights.force_plain
            if self.public(self.seat) > Weights.force_suspected_above:
                p -= Weights.force_suspected
            if self.role == "hitler":
                p -= Weights.force_hitler
        return Policy.LIBERAL if self.rng.random() < p else Policy.FASCIST

    def _enact(self, view: View, turn: list[Action]) -> Action:
        hand = view.hand
        enacts = {a.policy: a for a in turn if a.type == A.ENACT}
        vetoes = [a for a in turn if a.type == A.VETO]
        choice = self._enact_choice(view, hand)
        veto = self._want_veto(view, hand)
        if veto and vetoes:
            return next((a for a in vetoes if a.policy in (None, choice)), vetoes[0])
        return enacts.get(choice) or next(iter(enacts.values()), turn[0])

    def _enact_choice(self, view: View, hand: Sequence[str]) -> Policy:
        if LIB not in hand:
            return Policy.FASCIST
        if FAS not in hand:
            return Policy.LIBERAL
        if self.role == LIB:
            return Policy.LIBERAL
        pres = view.president
        if view.liberal_to_win <= 1 or view.fascist_to_win <= 1:
            return Policy.FASCIST  # block the liberal win, or take the fascist one
        if self.role == "hitler" and not self.knows_team:
            return Policy.LIBERAL
        if pres in self.team:
            fascist = self.role == FAS or self.rng.random() < Weights.enact_with_mate
            return Policy.FASCIST if fascist else Policy.LIBERAL
        slot = view.fascist_policies
        power = view.board[slot] if slot < len(view.board) else None
        p = (
            Weights.betray_power
            if power in ("execute", "special_election")
            else Weights.betray_plain
        )
        if self.role == "hitler":
            p *= Weights.betray_hitler
        return Policy.FASCIST if self.rng.random() < p else Policy.LIBERAL

    def _want_veto(self, view: View, hand: Sequence[str]) -> bool:
        if not view.veto_available:
            return False
        if self.role == LIB or (self.role == "hitler" and not self.knows_team):
            block = self.role == "hitler" and view.liberal_to_win <= 1
            return FAS not in hand if block else LIB not in hand
        return FAS not in hand and (view.president in self.team or view.liberal_to_win <= 1)

    def _accept_veto(self, view: View) -> bool:
        passed = self._held().passed
        if not passed:
            return view.election_tracker < 2
        fascist_side = self._fascist_play() or (self.role == "hitler" and view.liberal_to_win <= 1)
        if fascist_side:
            return FAS not in passed
        return LIB not in passed

    # -- powers
    def _investigate(self, view: View, targets: list[int]) -> int:
        if self._fascist_play():
            hitler = self.hitler
            if hitler in targets and self.rng.random() < Weights.investigate_hitler:
                return hitler  # then claim him liberal
            libs = [t for t in targets if t not in self.team] or targets
            return self._best(libs, self.public)  # frame the most trusted
        known = self.known_fas | self.known_lib
        unknown = [t for t in targets if t not in known] or targets
        return self._best(unknown, lambda s: -self.score(s))

    def _special(self, view: View, targets: list[int]) -> int:
        if self._fascist_play():
            mates = [t for t in targets if t in self.team and t != self.hitler]
            mates = mates or [t for t in targets if t in self.team]
            if mates:
                return self._best(mates, self.public)
            return self._best(targets, self.public)
        return self._trusted(view, targets)

    def _execute(self, view: View, targets: list[int]) -> int:
        if self._fascist_play():
            libs = [t for t in targets if t not in self.team] or targets
            return self._best(
                libs, lambda s: -self.threat[s] + Weights.execute_public * self.public(s)
            )
        safe = set(view.not_hitler)
        return self._best(
            targets, lambda s: -self.score(s) - (Weights.execute_unsafe if s not in safe else 0.0)
        )

    # ------------------------------------------------------------------ talk
    def _voice(self) -> Voice:
        if self.voice is None:
            self.voice = Voice(self.seat, self.rng)
            if self.seated is not None:
                self.voice.seated_with(self.seated)
        return self.voice

    def seated_with(self, people: Sequence[bool]) -> None:
        """Which seats people play: told to the voice (the first bot after an asker answers a
        question put to the table)."""
        self.seated = tuple(people)

    def speak(self, view: View) -> list[Line]:
        """The rule bot's talk (``bots.voice``) on its suspicion scores: a liberal's own, a
        fascist's the public ones (what the rule liberals would read)."""
        self._update(view)
        voice = self._voice()

        def reading() -> Reading:
            if self._fascist_play():
                scores = list(self.pub)
            else:
                scores = [self.score(s) for s in range(self.n)]
            return Reading(suspicion_from_scores(scores, voice.prior))

        return voice.speak(view, reading)

    def listen(self, view: View, said: Sequence[Said]) -> None:
        """Hear the table: questions and accusations for the voice; a claim said in the chat
        before any engine claim of its subject is read as that claim (docs/bots.md, "Talk")."""
        self._update(view)
        for seat, line in self._voice().hear(view, said):
            if isinstance(line, Claim) and seat is not None and seat != self.seat:
                self._hear_claim(seat, line)

    def _hear_claim(self, seat: int, line: Claim) -> None:
        s = self.sess
        subject = line.subject
        if subject == A.CLAIM_INVESTIGATION:
            assert line.target is not None and line.party is not None
            if (seat, line.target) not in self.table.investigations:
                return  # he did not investigate that seat
            self._on_investigation_claim(seat, line.target, line.party.value)
            return
        if s is None or subject not in (A.CLAIM_PRESIDENT_HAND, A.CLAIM_CHANCELLOR_HAND):
            return
        if subject == A.CLAIM_PRESIDENT_HAND and (seat != s.pres or s.pres_claim is not None):
            return
        if subject == A.CLAIM_CHANCELLOR_HAND and (seat != s.chan or s.chan_claim is not None):
            return
        if self._enacted() is None:
            return  # the session is not over: nothing to claim yet
        event = E.typed(line.to_action(seat).to_json())
        assert isinstance(event, E.Claimed)
        self._on_claim(event)

    # ------------------------------------------------------------------ claims
    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        self._update(view)
        made: list[Action] = []
        subjects = dict.fromkeys(a.subject for a in options)  # the offered order: no hash order
        for subject in subjects:
            claim = self._claim(view, subject, [a for a in options if a.subject == subject])
            if claim is not None:
                made.append(claim)
        return made

    def _claim(self, view: View, subject: str | None, options: list[Action]) -> Action | None:
        s = self.sess
        liar = self.role != LIB
        if subject == A.CLAIM_INVESTIGATION:
            target = options[0].target
            truth = next((p for t, p in view.investigations if t == target), None)
            if truth is None:
                return None
            party = truth
            if liar and target is not None:
                if target in self.team or truth == FAS:
                    party = LIB  # protect a teammate (Hitler learns one this way)
                elif self.knows_team and self.rng.random() < Weights.frame:
                    party = FAS  # frame a liberal
            return next((a for a in options if a.party == party), None)
        if subject == A.CLAIM_PEEK:
            want = tuple(Policy(p) for p in self._my_peek())
            return next((a for a in options if a.policies == want), None)
        if s is None:
            return None
        held = self._held()
        if subject == A.CLAIM_PRESIDENT_HAND:
            if not held.drew:
                return None
            lib = _nlib(held.drew)
            if liar and held.passed:
                if self._enacted() == FAS and s.chan in self.team and self.knows_team:
                    lib = 0
                else:
                    lib = _nlib(held.passed)  # "the one I threw away was fascist"
            want = _hand(lib, 3)
        elif subject == A.CLAIM_CHANCELLOR_HAND:
            if not held.received:
                return None
            lib = _nlib(held.received)
            if liar and self._enacted() == FAS:
                lib = 0
            want = _hand(lib, 2)
        else:
            return None
        return next((a for a in options if a.policies == want), None)


register("rule", RuleAgent)
