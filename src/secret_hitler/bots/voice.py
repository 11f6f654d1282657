"""What a bot says at the table, and what it hears: the talk of every level, in one place.

A ``Voice`` belongs to one seat. After each applied action the host asks the agent to
``speak``; the voice reads the seat's new events into the engine's fold of what the seat
knows (``engine.seat.SeatState``: the public state, its hands, peeks and investigations) and,
when the engine's speech rule lets it speak (``View.may_speak``), says, in this order, within
``Style.per_round`` lines a round:

1. its own claims, as a person says them ("RRB, passed RB": ``Claim`` with ``passed``);
2. answers to questions put to this seat by name (``Question(to=seat)``): the real reason
   from the level's beliefs, or for a fascist the reason a liberal would give (a cover);
3. a defence when accused;
4. after a legislative session it sat in: the partner accused when the two stories conflict
   (``lied_to_me``, said as known: the speaker knows what it held);
5. unprompted, now and then (``Style.chatty``): a side taken in other seats' conflicts,
   suspicion of a chancellor who passed a fascist policy or of a Ja voter of a failed or
   fascist government, trust in one who passed a liberal policy, why it voted against the
   table or nominated someone in the Hitler zone, its Hitler read.

What the seat believes comes from its level (``Reading``: P(fascist party) and P(Hitler) per
seat): a liberal's own beliefs; an informed fascist's "liberal eye", the public reading a
liberal in its seat would have, so its lines are the ones a liberal would say, and its
strategy on top (``cover``): it never accuses a teammate, backs a teammate in a conflict and
suspects the liberal who conflicted with one. A seat states a fact (``known``) only about what
it holds itself: its own investigation's result as it claimed it, and what it held in a session
it sat in; every other judgement is ``hedged``. Everything here is a function of the seat's
view, the lines it heard and its own random source, so what it says cannot leak what it has not
seen (tests/bots/test_voice.py changes the hidden world and gets the same words).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import talk
from ..engine import View
from ..engine import actions as A
from ..engine.actions import hand_claims_fit
from ..engine.public import PublicState, Session
from ..engine.seat import Hand, SeatState
from ..engine.settings import Rules
from ..engine.types import Policy
from ..talk.said import ACCUSE, Said, signals

LIBERAL, FASCIST, HITLER = "liberal", "fascist", "hitler"


class Style:
    """How much and how surely a bot talks. Set by hand (none is fitted): lines a round low
    enough that a table of bots does not flood the chat (about 3 to 6 lines a round at 7
    players in bot games, ``evaluate talk``), thresholds halfway between the prior and
    certainty."""

    per_round = 3  # lines a seat says in one round at most (answers first)
    chatty = 0.3  # chance that an unprompted reaction is said (spreads talk over the table)
    accuse_at = 0.5  # suspect a seat past this share of the way from the prior to 1
    trust_at = 0.5  # trust a seat past this share of the way from the prior to 0
    believe_gap = 0.15  # in a conflict, side with the more trusted seat by at least this
    hitler_at = 0.4  # name a Hitler read at this P(Hitler)
    zone_hitler_risk = 0.1  # a Nein in the zone is "he may be Hitler" above this P(Hitler)
    variants = 12  # a line's ``variant`` is drawn below this (phrase families wrap around)


@dataclass(slots=True)
class Reading:
    """What the seat believes now, as it speaks: P(fascist party) of each seat and, where the
    level models it, P(Hitler) of each seat. An informed fascist gives the liberal eye's."""

    suspicion: Sequence[float]
    hitler: Sequence[float] | None = None


@dataclass(slots=True)
class _Vote:
    ja: bool
    president: int
    chancellor: int
    tracker: int
    zone: bool
    passed: bool
    against_table: bool


@dataclass(slots=True)
class _Pending:
    """Lines asked of this seat: questions to answer and accusations to answer."""

    questions: list[tuple[int | None, talk.Question]] = field(default_factory=list)
    accusers: list[int] = field(default_factory=list)


def lines_of(said: Said, table: PublicState) -> list[talk.Line]:
    """The talk lines of one entry: its structured line, or what the recogniser reads in its
    text, with the speaker's context from the engine's public fold: the claims the speaker may
    still make (its open claim windows, the seat it may claim to have investigated) and the
    last government."""
    if said.line is not None:
        return [said.line]
    if said.text is None or table.players < 1:
        return []
    context = None
    seat = said.seat
    if seat is not None:
        government = None
        if table.president is not None and table.chancellor is not None:
            government = (table.president, table.chancellor)
        context = talk.Context(table.open_claims(seat), table.claim_target(seat), government)
    return talk.recognise(said.text, players=table.players, context=context)


def talk_rng(rng: random.Random, salt: int) -> random.Random:
    """A random source for talk, derived from ``rng``'s state without drawing from it: a bot
    that talks decides exactly as the same bot silent."""
    twin = random.Random()
    twin.setstate(rng.getstate())
    return random.Random(twin.getrandbits(64) ^ salt)


class Voice:
    """The talk of one seat (see the module's docstring)."""

    SALT = 0x7A1C

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = talk_rng(rng, self.SALT)
        self.table = SeatState(seat)  # what this seat knows: the public state, its hands
        self._seen = 0
        self.prior = 0.5  # P(fascist party) of another seat at the start
        self.team: frozenset[int] = frozenset()  # teammates this seat knows (a fascist)
        self.role = LIBERAL
        self.informed = False  # knows the fascist team
        self.my_claims: list[Any] = []  # this seat's claim events, not said yet
        self.claimed: dict[tuple[int, str], Any] = {}  # (session index, subject) -> my claim
        self.investigations: dict[int, str] = {}  # target -> party I claimed (or found)
        self.reviewed: set[int] = set()  # sessions reacted to
        self.failed: list[tuple[tuple[int, ...], int, int]] = []  # failed votes, not reacted to
        self.ja_by_session: dict[int, tuple[int, ...]] = {}  # who elected each session's government
        self._elected_by: tuple[int, ...] = ()
        self.last_vote: _Vote | None = None
        self.vote_news = False
        self.nominated: tuple[int, int] | None = None  # (round, target) of my last nomination
        self.nomination_news = False
        self.eligible_count = 0
        self.hitler_said: int | None = None
        self.pending = _Pending()
        self.round = -1
        self.said_this_round = 0
        self.last_said: dict[tuple[str, int], int] = {}  # (stance, target) -> round said

    # ------------------------------------------------------------------ reading the view
    def _start(self, view: View) -> None:
        n = view.players
        rules = Rules.from_json({k: v for k, v in view.rules.items() if v is not None})
        self.prior = (rules.fascist_count(n) + 1) / (n - 1)
        self.role = view.role or LIBERAL
        team = {s for s, r in enumerate(view.known_roles) if r in (FASCIST, HITLER)}
        team.discard(self.seat)
        self.team = frozenset(team) if self.role != LIBERAL else frozenset()
        self.informed = self.role == FASCIST or (self.role == HITLER and bool(self.team))

    def read(self, view: View) -> None:
        """Read the events of ``view`` not read yet."""
        if self._seen == 0:
            self._start(view)
        table = self.table
        me = self.seat
        events: Sequence[Any] = view.events  # typed events (``engine.events``)
        for e in events[self._seen :]:
            kind = e["type"]
            index = len(table.sessions) - 1
            if kind == "investigation":
                self.investigations.setdefault(e.target, e.party)
            elif kind == "candidate":
                self.eligible_count = len(e.eligible)
            elif kind == "nominated" and e.president == me:
                self.nominated = (table.round, e.chancellor)
                self.nomination_news = True
            elif kind == "votes":
                self._on_votes(e)
            elif kind == "elected":
                self._elected_by = tuple(v for v, ja in enumerate(table.votes) if ja)
            elif kind == "legislative_session":
                self.ja_by_session[index + 1] = self._elected_by
            elif kind == "claim" and e.seat == me:
                self.my_claims.append(e)
                if e.subject == A.CLAIM_INVESTIGATION:
                    self.investigations[e.target] = e.party  # what I said I found
                if index >= 0:
                    self.claimed[(index, e.subject)] = e
            table.feed(e)
        self._seen = len(view.events)

    def _on_votes(self, e: Any) -> None:
        table = self.table
        p, c = table.candidate, table.nominee
        if p is None or c is None:
            return
        votes = e.votes
        ja = tuple(s for s, v in enumerate(votes) if v)
        if not e.passed:
            self.failed.append((ja, p, c))
        mine = votes[self.seat] if self.seat < len(votes) else None
        if mine is None:
            return
        self.last_vote = _Vote(
            bool(mine),
            p,
            c,
            table.tracker,
            table.hitler_zone_active,
            bool(e.passed),
            bool(mine) != bool(e.passed),
        )
        self.vote_news = True

    # ------------------------------------------------------------------ hearing
    def hear(self, view: View, said: Sequence[Said]) -> list[tuple[int | None, talk.Line]]:
        """Note the questions put to this seat and the accusations against it; returns every
        line heard (not this seat's own), with its speaker, for the level to weigh."""
        self.read(view)
        me = self.seat
        heard: list[tuple[int | None, talk.Line]] = []
        for entry in said:
            if entry.seat == me:
                continue
            for line in lines_of(entry, self.table):
                heard.append((entry.seat, line))
                if isinstance(line, talk.Question) and line.to == me:
                    self.pending.questions.append((entry.seat, line))
                elif entry.seat is not None and any(
                    s.stance == ACCUSE and s.target == me for s in signals(line)
                ):
                    if entry.seat not in self.pending.accusers:
                        self.pending.accusers.append(entry.seat)
        return heard

    # ------------------------------------------------------------------ speaking
    def speak(self, view: View, reading: Callable[[], Reading]) -> list[talk.Line]:
        """The lines this seat says now (at most the round's budget left)."""
        self.read(view)
        if view.winner is not None or not view.may_speak:
            return []  # the engine's speech rule: the government keeps quiet during its session
        if view.round != self.round:
            self.round, self.said_this_round = view.round, 0
        budget = Style.per_round - self.said_this_round
        out: list[talk.Line] = []
        cached: list[Reading] = []

        def read() -> Reading:
            if not cached:
                cached.append(self.cover(reading()))
            return cached[0]

        for line in (*self._claims(), *self._prompted(read)):
            if len(out) < budget:
                out.append(line)
        if len(out) < budget:
            out.extend(self._reactions(view, read)[: budget - len(out)])
        self.said_this_round += len(out)
        return out

    def cover(self, reading: Reading) -> Reading:
        """An informed fascist's talk strategy on the liberal eye's reading: teammates never
        above the prior (never accused), a liberal who conflicted with a teammate at least at
        the accusation level. Others speak their own beliefs."""
        if not self.informed:
            return reading
        sus = list(reading.suspicion)
        for s in self.team:
            sus[s] = min(sus[s], self.prior)
        for session in self.table.sessions:
            pair = (session.president, session.chancellor)
            if self._conflict(session) and len(self.team.intersection(pair)) == 1:
                liberal = pair[1] if pair[0] in self.team else pair[0]
                if liberal != self.seat:
                    sus[liberal] = max(sus[liberal], self.accuse_level)
        return Reading(sus, None)

    @property
    def accuse_level(self) -> float:
        return self.prior + (1 - self.prior) * Style.accuse_at

    @property
    def trust_level(self) -> float:
        return self.prior * (1 - Style.trust_at)

    def _variant(self) -> int:
        return self.rng.randrange(Style.variants)

    def _chance(self, p: float = Style.chatty) -> bool:
        return self.rng.random() < p

    # -- 1, 2: answers and defences
    def _prompted(self, read: Callable[[], Reading]) -> list[talk.Line]:
        out: list[talk.Line] = []
        pending, self.pending = self.pending, _Pending()
        for asker, question in pending.questions:
            line = self._answer(question, read)
            if line is not None:
                out.append(talk.Answer(line, to=asker))
        for accuser in pending.accusers:
            out.append(self._defence(accuser, read))
        return out

    def _answer(self, q: talk.Question, read: Callable[[], Reading]) -> talk.Line | None:
        if q.topic == "vote" and self.last_vote is not None:
            return self._explain_vote(self.last_vote, read())
        if q.topic == "nomination" and self.nominated is not None:
            return self._explain_nomination(self.nominated[1], read())
        if q.topic == "policy":
            last = self._last_own_claim()
            if last is not None:
                return self._claim_line(last)
            return talk.Defend("forced", variant=self._variant())
        if q.topic in ("investigation", "execution") and q.other is not None:
            hitler = read().hitler
            if q.topic == "execution" and hitler is not None and hitler[q.other] >= Style.hitler_at:
                return talk.HitlerGuess(q.other, talk.HEDGED, variant=self._variant())
            return talk.Accuse(q.other, talk.HEDGED, variant=self._variant())
        return None

    def _defence(self, accuser: int, read: Callable[[], Reading]) -> talk.Line:
        v = self._variant()
        table, me = self.table, self.seat
        last = next(
            (s for s in reversed(table.sessions) if me in (s.president, s.chancellor)), None
        )
        if last is not None and last.enacted == FASCIST:
            mine = last.president_claim if me == last.president else last.chancellor_claim
            if mine == 0:
                return talk.Defend("forced", variant=v)
        record = self._enacted(me, LIBERAL, member=True)
        if record:
            return talk.Defend("liberal_record", count=record, variant=v)
        if read().suspicion[accuser] >= self.accuse_level:
            return talk.Defend("accuser_suspicious", against=accuser, variant=v)
        if last is not None and (
            last.president_claim is not None or last.chancellor_claim is not None
        ):
            return talk.Defend("told_truth", variant=v)
        return talk.Defend("check_me", variant=v)

    # -- 3: claims as a person says them
    def _claims(self) -> list[talk.Line]:
        made, self.my_claims = self.my_claims, []
        return [self._claim_line(e) for e in made]

    def _claim_line(self, e: Any) -> talk.Claim:
        v = self._variant()
        if e.subject == A.CLAIM_INVESTIGATION:
            return talk.Claim(e.subject, target=e.target, party=e.party, variant=v)
        policies = tuple(e.policies)
        passed = None
        if e.subject == A.CLAIM_PRESIDENT_HAND:
            # The story a liberal tells: he threw away a fascist policy if he had one (a
            # liberal's claim is true and he did; a fascist's claim is his cover story).
            rest = list(policies)
            rest.remove(Policy.FASCIST if Policy.FASCIST in rest else Policy.LIBERAL)
            passed = tuple(sorted(rest, key=lambda p: p is Policy.LIBERAL))
        return talk.Claim(e.subject, policies, passed=passed, variant=v)

    def _last_own_claim(self) -> Any:
        hands = [
            e
            for (_, subject), e in sorted(self.claimed.items(), key=lambda kv: kv[0][0])
            if subject in (A.CLAIM_PRESIDENT_HAND, A.CLAIM_CHANCELLOR_HAND)
        ]
        return hands[-1] if hands else None

    # -- 4, 5: reactions to what happened
    def _reactions(self, view: View, read: Callable[[], Reading]) -> list[talk.Line]:
        out: list[talk.Line] = []
        table = self.table
        sessions = table.sessions
        for index, session in enumerate(sessions):
            if index in self.reviewed:
                continue
            closed = session is not table.session
            both = session.president_claim is not None and session.chancellor_claim is not None
            if not (closed or both):
                continue  # the stories are not all in yet
            self.reviewed.add(index)
            out.extend(self._review(index, session, read))
        failed, self.failed = self.failed, []
        for ja, p, c in failed:
            line = self._suspect_voter(ja, (p, c), "voted_failed_government", read)
            if line is not None:
                out.append(line)
        if self.vote_news:
            self.vote_news = False
            vote = self.last_vote
            if vote is not None and vote.zone and vote.against_table and self._chance():
                out.append(self._explain_vote(vote, read()))
        if self.nomination_news:
            self.nomination_news = False
            if self.nominated is not None and view.hitler_zone_active and self._chance():
                out.append(self._explain_nomination(self.nominated[1], read()))
        guess = self._hitler_read(view, read)
        if guess is not None:
            out.append(guess)
        return out

    def _review(self, index: int, s: Session, read: Callable[[], Reading]) -> list[talk.Line]:
        me = self.seat
        pair = (s.president, s.chancellor)
        if me in pair:
            partner = pair[1] if me == pair[0] else pair[0]
            if self._caught_lying(index, s, partner):
                self._mark(ACCUSE, partner)
                return [talk.Accuse(partner, talk.KNOWN, "lied_to_me", variant=self._variant())]
            return []
        if self._conflict(s):
            if not self._chance():
                return []
            sus = read().suspicion
            believe = None
            p, c = pair
            mates = [x for x in pair if x in self.team]
            if mates:  # a fascist backs his teammate, and takes no side between two
                believe = mates[0] if len(mates) == 1 else None
            elif abs(sus[p] - sus[c]) >= Style.believe_gap:
                believe = p if sus[p] < sus[c] else c
            return [talk.Conflict(p, c, believe, variant=self._variant())]
        if s.enacted in (FASCIST, LIBERAL):
            line = self._judge_chancellor(s.chancellor, s.enacted, read)
            if line is None and s.enacted == FASCIST:
                ja = self.ja_by_session.get(index, ())
                line = self._suspect_voter(ja, pair, "voted_fascist_government", read)
            if line is not None:
                return [line]
        return []

    def _judge_chancellor(
        self, chancellor: int, policy: str, read: Callable[[], Reading]
    ) -> talk.Line | None:
        """Now and then: suspicion of a chancellor who passed a fascist policy, or (half as
        often) trust in one who passed a liberal one, when this seat's reading agrees."""
        fascist = policy == FASCIST
        if not self._chance(Style.chatty if fascist else Style.chatty / 2):
            return None
        sus = read().suspicion[chancellor]
        if sus < self.accuse_level if fascist else sus > self.trust_level:
            return None
        if not self._new(ACCUSE if fascist else "trust", chancellor):
            return None
        kind = talk.Accuse if fascist else talk.Trust
        reason = "enacted_fascist" if fascist else "enacted_liberal"
        count = self._enacted(chancellor, policy, member=not fascist)
        return kind(chancellor, talk.HEDGED, reason, count=count, variant=self._variant())

    def _suspect_voter(
        self,
        ja: Sequence[int],
        government: tuple[int, int],
        reason: str,
        read: Callable[[], Reading],
    ) -> talk.Line | None:
        """The most suspect Ja voter outside ``government``, if suspect enough (now and then)."""
        voters = [v for v in ja if v not in government and v != self.seat]
        if not voters or not self._chance(Style.chatty / 2):
            return None
        sus = read().suspicion
        worst = max(voters, key=lambda v: sus[v])
        if sus[worst] < self.accuse_level or not self._new(ACCUSE, worst):
            return None
        return talk.Accuse(worst, talk.HEDGED, reason, variant=self._variant())

    def _hitler_read(self, view: View, read: Callable[[], Reading]) -> talk.Line | None:
        if self.informed or not view.hitler_zone_active or view.phase != "nominate":
            return None
        if not self._chance(Style.chatty / 2):
            return None
        hitler = read().hitler
        if hitler is None:
            return None
        alive = [s for s in range(view.players) if s != self.seat and view.alive[s]]
        best = max(alive, key=lambda s: hitler[s])
        if hitler[best] < Style.hitler_at or best == self.hitler_said:
            return None
        self.hitler_said = best
        return talk.HitlerGuess(best, talk.HEDGED, variant=self._variant())

    # ------------------------------------------------------------------ reasons
    def _explain_vote(self, vote: _Vote, r: Reading) -> talk.ExplainVote:
        v = self._variant()
        me = self.seat
        p, c = vote.president, vote.chancellor
        sus = r.suspicion
        if vote.ja:
            if me in (p, c):
                return talk.ExplainVote(True, "trust", other=c if me == p else p, variant=v)
            if vote.tracker >= 2:
                return talk.ExplainVote(True, "tracker", variant=v)
            if max(sus[p], sus[c]) <= self.prior:
                return talk.ExplainVote(True, "trust_government", variant=v)
            return talk.ExplainVote(True, "need_information", variant=v)
        hitler = r.hitler
        if vote.zone and c not in self.table.not_hitler:
            if hitler is None or hitler[c] >= Style.zone_hitler_risk:
                return talk.ExplainVote(False, "hitler_zone", variant=v)
        named = [s for s in (p, c) if s != me and s not in self.team]  # never a teammate
        if not named:
            return talk.ExplainVote(False, variant=v)
        worst = max(named, key=lambda s: sus[s])
        return talk.ExplainVote(False, "distrust", other=worst, variant=v)

    def _explain_nomination(self, target: int, r: Reading) -> talk.ExplainNomination:
        v = self._variant()
        if self.investigations.get(target) == LIBERAL:
            return talk.ExplainNomination(target, "investigated", variant=v)
        if self.table.hitler_zone_active and target in self.table.not_hitler:
            return talk.ExplainNomination(target, "not_hitler", variant=v)
        record = self._enacted(target, LIBERAL, member=True)
        if record:
            return talk.ExplainNomination(target, "enacted_liberal", count=record, variant=v)
        if self.eligible_count == 1:
            return talk.ExplainNomination(target, "only_choice", variant=v)
        if r.suspicion[target] <= self.prior:
            return talk.ExplainNomination(target, "trust", variant=v)
        return talk.ExplainNomination(target, "test", variant=v)

    # ------------------------------------------------------------------ facts
    def _conflict(self, s: Session) -> bool:
        pc, cc = s.president_claim, s.chancellor_claim
        return pc is not None and cc is not None and not hand_claims_fit(pc, cc)

    def _caught_lying(self, index: int, s: Session, partner: int) -> bool:
        """Whether this seat, in session ``index``, holds proof that ``partner``'s claim is
        false: a liberal from what it held; an informed fascist says so when the stories
        publicly conflict and the partner is not a teammate (its own claim is its story)."""
        if self.informed:
            return self._conflict(s) and partner not in self.team
        held = self._held(index)
        if held is None:
            return False
        if partner == s.chancellor and held.passed and s.chancellor_claim is not None:
            return s.chancellor_claim != held.passed.count(LIBERAL)
        if partner == s.president and held.received and s.president_claim is not None:
            return not hand_claims_fit(s.president_claim, held.received.count(LIBERAL))
        return False

    def _held(self, index: int) -> Hand | None:
        """What this seat held in session ``index`` (None: it did not sit in it)."""
        return next((h for h in self.table.hands if h.session == index), None)

    def _enacted(self, seat: int, policy: str, member: bool = False) -> int:
        """Policies of ``policy`` enacted by governments ``seat`` sat in as chancellor (or, with
        ``member``, as either member)."""
        return sum(
            1
            for s in self.table.sessions
            if s.enacted == policy and (seat == s.chancellor or (member and seat == s.president))
        )

    def _new(self, stance: str, target: int) -> bool:
        """Whether this stance on ``target`` was not said this round yet (then marked said)."""
        if self.last_said.get((stance, target)) == self.round:
            return False
        self._mark(stance, target)
        return True

    def _mark(self, stance: str, target: int) -> None:
        self.last_said[(stance, target)] = self.round


def suspicion_from_scores(scores: Sequence[float], prior: float, scale: float = 0.8) -> list[float]:
    """P(fascist party) from suspicion scores (the rule bot's): a logistic around the prior."""
    base = math.log(prior / (1 - prior)) if 0 < prior < 1 else 0.0
    return [1 / (1 + math.exp(-max(-30.0, min(30.0, base + scale * s)))) for s in scores]


__all__ = [
    "Reading",
    "Style",
    "Voice",
    "lines_of",
    "suspicion_from_scores",
    "talk_rng",
]
