"""What a bot says at the table, and what it hears: the talk of every level, in one place.

A ``Voice`` belongs to one seat. After each applied action the host asks the agent to
``speak``; the voice reads the seat's new events into the engine's fold of what the seat
knows (``engine.seat.SeatState``: the public state, its hands, peeks and investigations) and,
when the engine's speech rule lets it speak (``View.may_speak``), says, in this order, within
``Style.per_round`` lines a round:

1. its own claims, as a person says them ("RRB, passed RB": ``Claim`` with ``passed``: what it
   really passed when its claim is true, ``claims.is_true`` on its own fold);
2. answers to questions put to it by name, or to the table (one seat after the asker always
   answers, others now and then): what it did, in the past tense, and when the question got it
   wrong, the correction (``Correct``: "I voted Ja, not Nein: ..."); whom it suspects, trusts,
   takes for Hitler, would nominate; consistent with what it said before (the same reason for
   the same vote, no suspicion of a seat it last vouched for);
3. one defence a round when accused or named Hitler;
4. reactions: a partner who lied about the hand it held (``lied_to_me``), a claim that cannot be
   true (``CallOut``: a hand without the enacted policy, a peek its own draw disproved), and now
   and then (``Style.chatty``) a side in a conflict, suspicion of a chancellor who passed a
   fascist policy or of a Ja voter of a failed or fascist government, trust in one who passed a
   liberal one, why it voted against the table or nominated in the Hitler zone, its Hitler read;
5. now and then a question (``Style.ask``): why a seat voted against the table, why a president
   nominated a seat it suspects, whom a quiet seat suspects, whom it should nominate.

A line another seat said this round (the same kind, seats and reason) is not said again.

**One speech policy for both teams.** What the seat believes comes from its level
(``Reading``: P(fascist party) and P(Hitler) per seat): a liberal its own beliefs; a fascist or
Hitler the reading of the liberal it pretends to be (what a liberal with the same public
information would believe: ``bayes`` its public posterior given that the seat is liberal), so
its lines are drawn from the same policy on the same kind of reading. Its own claims are its
story: the partner who contradicts them is accused as a liberal accuses one who contradicts
what it held. Where the level gives a ``judge`` (the team's value of the table hearing some
lines: ``bayes`` prices them on the public posterior with the listeners' model), a fascist then
bends the lines where its team gains by ``Style.bend_gain`` or more: the other side of a
conflict (or none), another seat accused, trusted, suggested or named Hitler (with the same
reason), the other member of a government it voted on, chosen by expected value; a teammate is
accused (bussed) when that buys trust. The judge also reads the kind of each line as a player
who counts kinds does (``talk_kinds``: a seat that defends itself, hits back at its accusers or
explains its Nein votes more often than a liberal gives itself away), so a fascist keeps a line
to itself when silence is worth more to its team (``_quiet``: with a chance that grows with the
gap, so its rates settle near a liberal's rather than swinging from all to none), even an
answer to another bot (a deaf fascist never answers at all); a person's question it always
answers (what it says bent at most), as every liberal answers every question.
Every kind of line is said by both teams (``secret-hitler evaluate tells`` measures how well
talk hides a team).

A seat states a fact (``known``) only about what it holds itself (a partner who contradicts the
hand it held, a peek its draw disproves) or what the table saw (a claim without the enacted
policy); every other judgement is ``hedged``. Everything here is a function of the seat's view,
the lines it heard and its own random source, so what it says cannot leak what it has not seen
(tests/bots/test_voice.py changes the hidden world and gets the same words).

It is past 1,000 lines because ``Voice`` is one policy over one state: every kind of line above
reads and writes what the seat said, heard and answered this round and its story so far (the
claims it stands by, the seats it vouched for), and a fascist's bending weighs each line against
the others; what stands alone is elsewhere (the table's fold, ``engine.seat``; a line's value,
``talk_value.py``; how a reader takes a line's kind, ``talk_kinds.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from .. import talk
from ..engine import View
from ..engine import actions as A
from ..engine.actions import hand_claims_fit
from ..engine.claims import hand_conflicts, is_true
from ..engine.public import Election, PublicState, Session
from ..engine.seat import Hand, SeatState
from ..engine.settings import Rules
from ..engine.types import Policy
from ..talk.said import ACCUSE, HITLER, TRUST, Said, signals
from .team import team_known, team_role

LIBERAL, FASCIST = "liberal", "fascist"
_FASCIST_ROLES = ("fascist", "hitler")


class Judge(Protocol):
    """The team's value of the table hearing ``lines`` from this seat now (higher: better for
    the speaker's team), as the level prices it; what a fascist's voice bends its lines by.
    ``unanswered``: the value of leaving a question put to this seat by name unanswered, which
    a table may read as more than silence (evasion)."""

    def __call__(self, lines: Sequence[talk.Line]) -> float: ...

    def unanswered(self) -> float: ...


@dataclass(frozen=True, slots=True)
class ByLines:
    """A ``Judge`` from a function of the lines alone: an unanswered question is worth what
    silence is (``value(())``), as for a table that does not read evasion."""

    value: Callable[[Sequence[talk.Line]], float]

    def __call__(self, lines: Sequence[talk.Line]) -> float:
        return self.value(lines)

    def unanswered(self) -> float:
        return self.value(())


class Style:
    """How much and how surely a bot talks. Set by hand (none is fitted): lines a round low
    enough that a table of bots does not flood the chat, thresholds halfway between the prior
    and certainty, questions and table answers rare enough that a table answers, not chatters."""

    per_round = 3  # lines a seat says in one round at most (answers first)
    chatty = 0.3  # chance that an unprompted reaction is said (spreads talk over the table)
    accuse_at = 0.5  # suspect a seat past this share of the way from the prior to 1
    trust_at = 0.5  # trust a seat past this share of the way from the prior to 0
    believe_gap = 0.15  # in a conflict, side with the more trusted seat by at least this
    hitler_at = 0.4  # name a Hitler read at this P(Hitler)
    zone_hitler_risk = 0.1  # a Nein in the zone is "he may be Hitler" above this P(Hitler)
    ask = 0.06  # chance of asking why a seat voted as it did (half: nominated), per election
    ask_open = 0.05  # chance, once a round, of asking a seat (or the table) for its read
    answer_table = 0.3  # chance that a seat not first after the asker answers a table question
    bend_gain = 0.01  # a fascist says a bent line only if its team gains this much by it
    quiet_scale = 0.1  # a fascist keeps a line to itself surely when silence gains this much
    variants = 12  # a line's ``variant`` is drawn below this (phrase families wrap around)


@dataclass(slots=True)
class Reading:
    """What the seat believes now, as it speaks: P(fascist party) of each seat and, where the
    level models it, P(Hitler) of each seat. A fascist or Hitler gives the reading of the
    liberal it pretends to be."""

    suspicion: Sequence[float]
    hitler: Sequence[float] | None = None


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


def line_key(line: talk.Line) -> tuple[Any, ...]:
    """What a line says, whoever it is addressed to and however it is worded: two lines with
    the same key repeat each other."""
    if isinstance(line, talk.Answer):
        line = line.line
    data = line.to_json()
    data.pop("variant", None)
    return tuple(sorted((k, repr(v)) for k, v in data.items()))


def _unwrap(line: talk.Line) -> talk.Line:
    return line.line if isinstance(line, talk.Answer) else line


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
        self.pretends = False  # of the fascist party: speaks as the liberal it pretends to be
        self.people: tuple[bool, ...] | None = None  # which seats people play, when told
        self.my_claims: list[tuple[int, Any]] = []  # (session index, claim event), not said yet
        self.claimed: dict[tuple[int, str], Any] = {}  # (session index, subject) -> my claim
        self.investigations: dict[int, str] = {}  # target -> party I claimed (or found)
        self.executed: list[int] = []  # seats this seat shot
        self.reviewed: set[int] = set()  # sessions reacted to
        self.failed: list[tuple[tuple[int, ...], int, int]] = []  # failed votes, not reacted to
        self.ja_by_session: dict[int, tuple[int, ...]] = {}  # who elected each session's government
        self._elected_by: tuple[int, ...] = ()
        self.vote_news = False  # an election's votes were revealed since the last speech
        self.vote_context: dict[int, tuple[int, bool]] = {}  # election -> (tracker, zone) then
        self.nominations: list[tuple[int, int]] = []  # (round, chancellor) this seat nominated
        self.nomination_news = False
        self.eligible_count = 0
        self.chaos = 0  # policies enacted by chaos so far (a peek's cards, then the top one)
        self.peeks: list[tuple[int, int, tuple[str, ...], int]] = []  # others' peek claims:
        # (seat, index of the session whose draw it foretells, policies, chaos count then)
        self.called_out: set[tuple[int, str, int]] = set()  # (seat, subject, session index)
        self.hitler_said: int | None = None
        self.pending = _Pending()
        self.round = -1
        self.said_this_round = 0
        self.defended_round = -1
        self.defences: list[str | None] = []  # reasons of this seat's defences, in order
        self.stance: dict[int, str] = {}  # target -> this seat's last stance on it
        self.vote_lines: dict[int, talk.ExplainVote] = {}  # election index -> its explanation
        self.nomination_lines: dict[int, talk.ExplainNomination] = {}  # round -> explanation
        self.heard_keys: dict[tuple[Any, ...], int] = {}  # what others said -> round said
        self.my_keys: dict[tuple[Any, ...], int] = {}  # what this seat said -> round said
        self.lines_by: dict[int, int] = {}  # lines heard from each seat
        self.asked: set[tuple[str, int | None, int]] = set()  # (topic, to, round) asked
        self.asked_open = -1  # the round this seat last thought of an open question
        self.questioned: set[tuple[str, int]] = set()  # (topic, elections then) asked at the table
        self.heard_passed: dict[int, tuple[str, ...]] = {}  # session -> its president's "passed"

    # ------------------------------------------------------------------ reading the view
    def _start(self, view: View) -> None:
        n = view.players
        rules = Rules.from_json({k: v for k, v in view.rules.items() if v is not None})
        self.prior = (rules.fascist_count(n) + 1) / (n - 1)
        role = team_role(view) or LIBERAL
        team = {s for s, r in enumerate(team_known(view)) if r in _FASCIST_ROLES}
        team.discard(self.seat)
        self.pretends = role in _FASCIST_ROLES
        self.team = frozenset(team) if self.pretends else frozenset()

    def seated_with(self, people: Sequence[bool]) -> None:
        """Which seats people play (a host that knows says so): the first bot after an asker
        answers a question put to the table."""
        self.people = tuple(bool(p) for p in people)

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
                self.nominations.append((table.round, e.chancellor))
                self.nomination_news = True
            elif kind == "votes":
                self._on_votes(e)
            elif kind == "elected":
                self._elected_by = tuple(v for v, ja in enumerate(table.votes) if ja)
            elif kind == "legislative_session":
                self.ja_by_session[index + 1] = self._elected_by
            elif kind == "chaos":
                self.chaos += 1
            elif kind == "executed" and e.president == me:
                self.executed.append(e.target)
            elif kind == "claim" and e.seat == me:
                self.my_claims.append((index, e))
                if e.subject == A.CLAIM_INVESTIGATION:
                    self.investigations[e.target] = e.party  # what I said I found
                if index >= 0:
                    self.claimed[(index, e.subject)] = e
            elif kind == "claim" and e.subject == A.CLAIM_PEEK:
                # a peek made after session ``index`` foretells the next session's draw
                self.peeks.append((e.seat, index + 1, tuple(e.policies or ()), self.chaos))
            table.feed(e)
        self._seen = len(view.events)

    def _on_votes(self, e: Any) -> None:
        table = self.table
        p, c = table.candidate, table.nominee
        if p is None or c is None:
            return
        if not e.passed:
            self.failed.append((tuple(s for s, v in enumerate(e.votes) if v), p, c))
        # the tracker and the Hitler zone as the voters saw them (the election's index next)
        self.vote_context[len(table.elections)] = (table.tracker, table.hitler_zone_active)
        self.vote_news = True

    # ------------------------------------------------------------------ hearing
    def hear(self, view: View, said: Sequence[Said]) -> list[tuple[int | None, talk.Line]]:
        """Note the questions put to this seat (or the table), the accusations against it and
        what others said (not to repeat it); returns every line heard (not this seat's own),
        with its speaker, for the level to weigh."""
        self.read(view)
        me = self.seat
        heard: list[tuple[int | None, talk.Line]] = []
        for entry in said:
            if entry.seat == me:
                continue
            for line in lines_of(entry, self.table):
                heard.append((entry.seat, line))
                self.heard_keys[line_key(line)] = view.round
                if entry.seat is not None:
                    self.lines_by[entry.seat] = self.lines_by.get(entry.seat, 0) + 1
                self._note(entry.seat, line)
                if isinstance(line, talk.Question) and line.to in (me, None):
                    if line.to == me or self._answers_table(entry.seat, view):
                        self.pending.questions.append((entry.seat, line))
                elif entry.seat is not None and any(
                    s.stance in (ACCUSE, HITLER) and s.target == me for s in signals(line)
                ):
                    if entry.seat not in self.pending.accusers:
                        self.pending.accusers.append(entry.seat)
        return heard

    def _note(self, seat: int | None, line: talk.Line) -> None:
        """Remember what a heard line tells this seat's talk: a question about the last
        election (nobody asks it again), the two a president says he passed (his chancellor
        can tell whether that is what came)."""
        table = self.table
        if isinstance(line, talk.Question) and line.topic in ("vote", "nomination"):
            self.questioned.add((line.topic, len(table.elections)))
        line = _unwrap(line)
        s = table.session
        if (
            isinstance(line, talk.Claim)
            and line.subject == A.CLAIM_PRESIDENT_HAND
            and line.passed is not None
            and s is not None
            and seat == s.president
        ):
            self.heard_passed[len(table.sessions) - 1] = tuple(p.value for p in line.passed)

    def _answers_table(self, asker: int | None, view: View) -> bool:
        """Whether this seat answers a question put to the whole table: the first living seat
        after the asker that a bot plays always does, any other now and then."""
        n = view.players
        start = asker if asker is not None else -1
        for step in range(1, n + 1):
            seat = (start + step) % n
            if seat == asker or not view.alive[seat]:
                continue
            if self.people is not None and self.people[seat]:
                continue
            if seat == self.seat:
                return True
            break
        return self._chance(Style.answer_table)

    # ------------------------------------------------------------------ speaking
    def speak(
        self, view: View, reading: Callable[[], Reading], judge: Judge | None = None
    ) -> list[talk.Line]:
        """The lines this seat says now (at most the round's budget left). ``judge``: the
        team's value of the table hearing lines from this seat (a fascist bends by it)."""
        self.read(view)
        if view.winner is not None or not view.may_speak:
            return []  # the engine's speech rule: the government keeps quiet during its session
        if view.round != self.round:
            self.round, self.said_this_round = view.round, 0
        budget = Style.per_round - self.said_this_round
        if budget <= 0:
            return []
        cached: list[Reading] = []

        def read() -> Reading:
            if not cached:
                cached.append(reading())
            return cached[0]

        claims = self._claims()
        prompted, direct, owed = self._prompted(view, read)
        reactions = self._reactions(view, read)
        out: list[talk.Line] = list(claims)
        seen: set[tuple[Any, ...]] = set()
        for line in (*prompted, *reactions):
            if len(out) >= budget:
                break
            answered = id(line) in direct
            if judge is not None and self.pretends:
                kept = id(line) in owed
                line = self._bend(line, view, read, judge)
                if not kept and self._quiet(line, judge, answered):
                    continue
            if self._fresh(line, answered, seen):
                out.append(line)
        out = out[:budget]
        for line in out:
            self._remember(line)
        self.said_this_round += len(out)
        return out

    def _fresh(self, line: talk.Line, answered: bool, seen: set[tuple[Any, ...]]) -> bool:
        """Whether ``line`` is new this round: neither another seat nor this one said it (nor
        this one is about to); an answer to a seat that asked this one by name (``answered``)
        is always given. ``seen`` collects what is about to be said."""
        key = line_key(line)
        said = self.heard_keys.get(key) == self.round or self.my_keys.get(key) == self.round
        if key in seen or (said and not answered):
            return False
        seen.add(key)
        return True

    def _remember(self, line: talk.Line) -> None:
        self.my_keys[line_key(line)] = self.round
        inner = _unwrap(line)
        if isinstance(inner, talk.Correct) and inner.line is not None:
            inner = inner.line
        for sig in signals(inner):
            self.stance[sig.target] = sig.stance
        if isinstance(inner, talk.HitlerGuess):
            self.hitler_said = inner.target

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

    # -- bending (a fascist's): the lines a liberal would say, where the team gains otherwise
    def _bend(
        self, line: talk.Line, view: View, read: Callable[[], Reading], judge: Judge
    ) -> talk.Line:
        """The best of ``line`` and what a fascist could say instead, by the team's value of
        the table hearing it; ``line`` itself unless another gains ``Style.bend_gain``. A line
        is bent, never dropped (a fascist says as much as the liberal it pretends to be), and a
        partner accused of lying about the seat's own story is never bent (its story holds)."""
        inner = _unwrap(line)
        if isinstance(inner, talk.Accuse) and inner.reason == "lied_to_me":
            return line
        if not signals(inner) and not isinstance(inner, talk.Conflict):
            return line
        options: list[talk.Line] = [line]
        for alt in self._alternatives(inner, view, read):
            options.append(replace(line, line=alt) if isinstance(line, talk.Answer) else alt)
        if len(options) == 1:
            return line
        values = [judge((o,)) for o in options]
        best = max(range(len(options)), key=lambda k: values[k])
        if values[best] < values[0] + Style.bend_gain:
            return line
        bent = _unwrap(options[best])
        if isinstance(inner, talk.ExplainVote) and isinstance(bent, talk.ExplainVote):
            for index, said in list(self.vote_lines.items()):
                if _same(said, line_key(inner)):
                    self.vote_lines[index] = bent  # asked again, it gives the same reason
        return options[best]

    def _person(self, seat: int) -> bool:
        return self.people is not None and 0 <= seat < len(self.people) and self.people[seat]

    def _quiet(self, line: talk.Line, judge: Judge, answered: bool = False) -> bool:
        """Whether a fascist keeps ``line`` to itself: silence is worth more to its team than
        the line (``judge(())`` against ``judge((line,))``, the kind of line read as the table
        reads kinds: ``talk_value``), kept quiet with a chance that grows with the gap up to
        certainty at ``Style.quiet_scale``. A line worth as much as silence is always said (a
        liberal says it), and the chance keeps the team's rates near the liberals' instead of
        swinging from all to none as the table's reading of them is refitted. The silence of a
        seat asked by name (``answered``) is priced as the table reads it (``unanswered``: a
        question left unanswered may be read as evasion, ``bots.listening``)."""
        silence = judge.unanswered() if answered else judge(())
        gap = silence - judge((line,))
        if gap <= 0:
            return False
        return self._chance(min(1.0, gap / Style.quiet_scale))

    def _alternatives(
        self, line: talk.Line, view: View, read: Callable[[], Reading]
    ) -> list[talk.Line]:
        """What a fascist may say instead of ``line``: the other side of a conflict (or none),
        another seat accused (the most suspect seat not of its team), trusted, suggested (a
        teammate) or named Hitler (the likeliest seat not of its team)."""
        r = read()
        alive = [s for s in range(view.players) if view.alive[s] and s != self.seat]
        outsiders = [s for s in alive if s not in self.team]
        mates = [s for s in alive if s in self.team]
        v = self._variant()
        if isinstance(line, talk.Conflict) and line.president is not None:
            sides = [s for s in (line.president, line.chancellor, None) if s != line.believe]
            return [replace(line, believe=s) for s in sides]
        if isinstance(line, talk.ExplainVote) and line.reason in ("trust", "distrust"):
            return self._vote_alternatives(line)
        target = getattr(line, "target", None)
        reason = getattr(line, "reason", None)
        if isinstance(line, talk.Accuse) and line.certainty == talk.HEDGED:
            pool = [s for s in outsiders if s != target and self._accuse_reason(s)[0] == reason]
            if pool:
                worst = max(pool, key=lambda s: r.suspicion[s])
                return [
                    talk.Accuse(
                        worst, talk.HEDGED, reason, variant=v, **self._accuse_reason(worst)[1]
                    )
                ]
        if isinstance(line, talk.Trust) and line.certainty == talk.HEDGED:
            pool = [s for s in mates if s != target and self._trust_reason(s)[0] == reason]
            if pool:
                best = min(pool, key=lambda s: r.suspicion[s])
                return [
                    talk.Trust(best, talk.HEDGED, reason, variant=v, **self._trust_reason(best)[1])
                ]
        if isinstance(line, talk.Suggest):
            pool = [
                s for s in mates if s != target and (view.phase != "nominate" or s in view.eligible)
            ]
            if pool:
                return [talk.Suggest(min(pool, key=lambda s: r.suspicion[s]), variant=v)]
        if isinstance(line, talk.HitlerGuess) and outsiders:
            hitler = r.hitler if r.hitler is not None else r.suspicion
            likeliest = max(outsiders, key=lambda s: hitler[s])
            if likeliest != target:
                return [talk.HitlerGuess(likeliest, talk.HEDGED, variant=v)]
        return []

    def _vote_alternatives(self, line: talk.ExplainVote) -> list[talk.Line]:
        """Another reason for the same vote: (dis)trust of the government's other member (a
        "why?" is answered with a reason)."""
        key = line_key(line)
        election = next(
            (
                e
                for i, e in self._my_votes()
                if i in self.vote_lines and _same(self.vote_lines[i], key)
            ),
            None,
        )
        out: list[talk.Line] = []
        if election is not None:
            for member in (election.president, election.chancellor):
                if member not in (self.seat, line.other):
                    out.append(replace(line, other=member))
        return out

    # -- 1: claims as a person says them
    def _claims(self) -> list[talk.Line]:
        made, self.my_claims = self.my_claims, []
        return [self._claim_line(e, index) for index, e in made]

    def _claim_line(self, e: Any, index: int) -> talk.Claim:
        v = self._variant()
        if e.subject == A.CLAIM_INVESTIGATION:
            return talk.Claim(e.subject, target=e.target, party=e.party, variant=v)
        policies = tuple(e.policies)
        passed = None
        if e.subject == A.CLAIM_PRESIDENT_HAND:
            passed = self._passed(e, index)
        return talk.Claim(e.subject, policies, passed=passed, variant=v)

    def _passed(self, e: Any, index: int) -> tuple[Policy, ...]:
        """The two policies a president says he handed on: a liberal whose claim is true says
        what he really passed (``claims.is_true`` on his own fold); otherwise the story a
        liberal tells, that he threw away a fascist policy if he had one (a fascist's claim
        is his cover story)."""
        held = self._held(index)
        mine = self.table.hands
        if (
            not self.pretends
            and held is not None
            and held.passed
            and mine
            and mine[-1].session == index
            and is_true(self.table, e)
        ):
            return tuple(Policy(p) for p in held.passed)
        rest = list(e.policies)
        rest.remove(FASCIST if FASCIST in rest else LIBERAL)
        return tuple(Policy(p) for p in sorted(rest, key=lambda p: p == LIBERAL))

    def _last_own_claim(self) -> tuple[int, Any] | None:
        hands = [
            (index, e)
            for (index, subject), e in sorted(self.claimed.items(), key=lambda kv: kv[0][0])
            if subject in (A.CLAIM_PRESIDENT_HAND, A.CLAIM_CHANCELLOR_HAND)
        ]
        return hands[-1] if hands else None

    # -- 2, 3: answers and defences
    def _prompted(
        self, view: View, read: Callable[[], Reading]
    ) -> tuple[list[talk.Line], set[int], set[int]]:
        """Answers to the questions heard and one defence; with the ids of the answers to
        questions put to this seat by name, and of the answers owed to a person (a fascist says
        them whatever silence would be worth, bent at most)."""
        out: list[talk.Line] = []
        direct: set[int] = set()
        owed: set[int] = set()
        pending, self.pending = self.pending, _Pending()
        for asker, question in pending.questions:
            line = self._answer(question, view, read)
            if line is not None:
                answer = talk.Answer(line, to=asker)
                out.append(answer)
                if question.to == self.seat:
                    direct.add(id(answer))
                if asker is None or self._person(asker):
                    owed.add(id(answer))
        if pending.accusers and self.defended_round != view.round:
            self.defended_round = view.round
            out.append(self._defence(pending.accusers[-1], read))
        return out, direct, owed

    def _answer(
        self, q: talk.Question, view: View, read: Callable[[], Reading]
    ) -> talk.Line | None:
        """The answer to ``q``: what this seat did and why, a correction when the question got
        it wrong, or its read of the table."""
        topic = q.topic
        if topic == "vote":
            return self._answer_vote(q.ja, read)
        if topic == "nomination":
            return self._answer_nomination(q.other, read)
        if topic in ("policy", "claim"):
            return self._answer_policy(topic)
        if topic in ("investigation", "execution"):
            return self._answer_power(topic, q.other, read)
        if topic == "accusation" and q.other is not None:
            if self.stance.get(q.other) in (ACCUSE, HITLER):
                reason, extra = self._accuse_reason(q.other)
                return talk.Accuse(q.other, talk.HEDGED, reason, variant=self._variant(), **extra)
            return talk.Correct("accusation", other=q.other, variant=self._variant())
        if topic.startswith("who_"):
            return self._read_of_table(topic, view, read)
        return None

    def _my_votes(self) -> list[tuple[int, Election]]:
        """The elections this seat voted in: (index, election)."""
        me = self.seat
        return [
            (i, e)
            for i, e in enumerate(self.table.elections)
            if me < len(e.votes) and e.votes[me] is not None
        ]

    def _answer_vote(self, ja: bool | None, read: Callable[[], Reading]) -> talk.Line:
        votes = self._my_votes()
        if not votes:
            return talk.Correct("vote", variant=self._variant())
        index, election = votes[-1]
        line = self._vote_line(index, election, read())
        if ja is not None and ja != line.ja:
            return talk.Correct("vote", line, variant=self._variant())
        return line

    def _answer_nomination(self, other: int | None, read: Callable[[], Reading]) -> talk.Line:
        v = self._variant()
        asked = [(r, c) for r, c in self.nominations if c == other]
        if asked:
            return self._nomination_line(*asked[-1], read())
        if self.nominations:
            line = self._nomination_line(*self.nominations[-1], read())
            return talk.Correct("nomination", line, other=other, variant=v)
        return talk.Correct("nomination", other=other, variant=v)

    def _answer_policy(self, topic: str) -> talk.Line | None:
        """ "Why did you pass a fascist policy?", "what did you get?": its hand claim, or that it
        did not (it was in no government, or its last one enacted no fascist policy)."""
        me = self.seat
        sessions = self.table.sessions
        last = next((i for i in range(len(sessions) - 1, -1, -1) if me in _pair(sessions[i])), None)
        v = self._variant()
        if last is None or (topic == "policy" and sessions[last].enacted != FASCIST):
            return talk.Correct(topic, variant=v)
        mine = self._last_own_claim()
        if mine is not None and mine[0] == last:
            return self._claim_line(mine[1], last)
        return talk.Defend("forced", variant=v) if topic == "policy" else None

    def _answer_power(
        self, topic: str, other: int | None, read: Callable[[], Reading]
    ) -> talk.Line | None:
        if other is None:
            return None
        mine = (
            [t for p, t in self.table.investigations if p == self.seat]
            if topic == "investigation"
            else self.executed
        )
        v = self._variant()
        if other not in mine:
            target = mine[-1] if mine else None
            return talk.Correct(topic, other=other, target=target, variant=v)
        hitler = read().hitler
        if topic == "execution" and hitler is not None and hitler[other] >= Style.hitler_at:
            return talk.HitlerGuess(other, talk.HEDGED, variant=v)
        reason, extra = self._accuse_reason(other)
        return talk.Accuse(other, talk.HEDGED, reason, variant=v, **extra)

    def _read_of_table(
        self, topic: str, view: View, read: Callable[[], Reading]
    ) -> talk.Line | None:
        """Whom this seat suspects, takes for Hitler, trusts or would nominate: its reading,
        kept consistent with what it said (a seat it last vouched for is not its suspect, one
        it last suspected is not its pick)."""
        r = read()
        others = [s for s in range(view.players) if view.alive[s] and s != self.seat]
        if not others:
            return None
        v = self._variant()
        sus = r.suspicion
        if topic in ("who_suspect", "who_hitler"):
            pool = [s for s in others if self.stance.get(s) != TRUST] or others
            if topic == "who_hitler":
                hitler = r.hitler if r.hitler is not None else sus
                pool = [s for s in pool if s not in self.table.proven_not_hitler] or pool
                return talk.HitlerGuess(max(pool, key=lambda s: hitler[s]), talk.HEDGED, variant=v)
            said = [s for s in pool if self.stance.get(s) == ACCUSE and sus[s] >= self.prior]
            worst = said[-1] if said else max(pool, key=lambda s: sus[s])
            reason, extra = self._accuse_reason(worst)
            return talk.Accuse(worst, talk.HEDGED, reason, variant=v, **extra)
        pool = [s for s in others if self.stance.get(s) not in (ACCUSE, HITLER)] or others
        if topic == "who_nominate":
            eligible = [s for s in view.eligible if s in pool and s != self.seat]
            if view.phase == "nominate" and eligible:
                pool = eligible
            return talk.Suggest(min(pool, key=lambda s: sus[s]), variant=v)
        best = min(pool, key=lambda s: sus[s])
        reason, extra = self._trust_reason(best)
        return talk.Trust(best, talk.HEDGED, reason, variant=v, **extra)

    def _defence(self, accuser: int, read: Callable[[], Reading]) -> talk.Line:
        """One defence a round, its reason not the one it gave last time when it has another."""
        v = self._variant()
        table, me = self.table, self.seat
        options: list[talk.Defend] = []
        last = next((s for s in reversed(table.sessions) if me in _pair(s)), None)
        if last is not None and last.enacted == FASCIST:
            mine = last.president_claim if me == last.president else last.chancellor_claim
            if mine == 0:
                options.append(talk.Defend("forced", variant=v))
        record = self._enacted(me, LIBERAL, member=True)
        if record:
            options.append(talk.Defend("liberal_record", count=record, variant=v))
        if read().suspicion[accuser] >= self.accuse_level:
            options.append(talk.Defend("accuser_suspicious", against=accuser, variant=v))
        if last is not None and (
            last.president_claim is not None or last.chancellor_claim is not None
        ):
            options.append(talk.Defend("told_truth", variant=v))
        options.append(talk.Defend("check_me", variant=v))
        options.append(talk.Defend(variant=v))
        previous = self.defences[-1] if self.defences else "-"
        fresh = [d for d in options if d.reason != previous] or options
        pick = fresh[self.rng.randrange(len(fresh))]
        self.defences.append(pick.reason)
        return pick

    # -- 4, 5: reactions to what happened, and questions
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
        out.extend(self._call_outs())
        failed, self.failed = self.failed, []
        for ja, p, c in failed:
            line = self._suspect_voter(ja, (p, c), "voted_failed_government", read)
            if line is not None:
                out.append(line)
        if self.vote_news:
            self.vote_news = False
            out.extend(self._after_votes(view, read))
        if self.nomination_news:
            self.nomination_news = False
            if self.nominations and view.hitler_zone_active and self._chance():
                out.append(self._nomination_line(*self.nominations[-1], read()))
        guess = self._hitler_read(view, read)
        if guess is not None:
            out.append(guess)
        question = self._open_question(view, read)
        if question is not None:
            out.append(question)
        return out

    def _after_votes(self, view: View, read: Callable[[], Reading]) -> list[talk.Line]:
        """After the votes: now and then why it voted against the table in the Hitler zone, or
        a question to the most suspect seat that voted against the table."""
        out: list[talk.Line] = []
        elections = self.table.elections
        if not elections:
            return out
        index, election = len(elections) - 1, elections[-1]
        me = self.seat
        mine = election.votes[me] if me < len(election.votes) else None
        zone = self.table.hitler_zone_active
        if mine is not None and bool(mine) != election.passed and zone and self._chance():
            out.append(self._vote_line(index, election, read()))
        against = [
            s
            for s, v in enumerate(election.votes)
            if v is not None and s != me and bool(v) != election.passed and view.alive[s]
        ]
        count = len(elections)
        if against and ("vote", count) not in self.questioned and self._chance(Style.ask):
            self.questioned.add(("vote", count))
            who = against[self.rng.randrange(len(against))]
            asked = self._question("vote", who, ja=bool(election.votes[who]))
            out.extend([asked] if asked is not None else [])
        p, c = election.president, election.chancellor
        if (
            me not in (p, c)
            and view.alive[p]
            and ("nomination", count) not in self.questioned
            and self._chance(Style.ask / 2)
        ):
            self.questioned.add(("nomination", count))
            asked = self._question("nomination", p, other=c)
            out.extend([asked] if asked is not None else [])
        return out

    def _open_question(self, view: View, read: Callable[[], Reading]) -> talk.Line | None:
        """At a nomination, now and then: the candidate asks the table whom to nominate, or a
        seat asks the quietest living seat whom it suspects."""
        if view.phase != "nominate" or self.asked_open == view.round:
            return None
        self.asked_open = view.round
        if not self._chance(Style.ask_open):
            return None
        if view.candidate == self.seat:
            return self._question("who_nominate", None)
        others = [s for s in range(view.players) if view.alive[s] and s != self.seat]
        if not others:
            return None
        quiet = min(others, key=lambda s: (self.lines_by.get(s, 0), self.rng.random()))
        return self._question("who_suspect", quiet)

    def _question(
        self, topic: str, to: int | None, ja: bool | None = None, other: int | None = None
    ) -> talk.Question | None:
        """A question, unless this seat asked it this round already."""
        key = (topic, to, self.round)
        if key in self.asked:
            return None
        self.asked.add(key)
        return talk.Question(topic, to=to, ja=ja, other=other, variant=self._variant())

    def _review(self, index: int, s: Session, read: Callable[[], Reading]) -> list[talk.Line]:
        me = self.seat
        pair = _pair(s)
        if me in pair:
            partner = pair[1] if me == pair[0] else pair[0]
            if self._caught_lying(index, s, partner):
                return [talk.Accuse(partner, talk.KNOWN, "lied_to_me", variant=self._variant())]
            return []
        if self._conflict(s):
            if not self._chance():
                return []
            sus = read().suspicion
            p, c = pair
            believe = None
            if abs(sus[p] - sus[c]) >= Style.believe_gap:
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

    def _call_outs(self) -> list[talk.Line]:
        """Claims that cannot be true: a hand claim without the policy its government enacted
        (``claims.hand_conflicts``, as the table saw), and a peek claim the next draw disproves,
        said by the seat that saw that draw (as president, or two of it as chancellor)."""
        out: list[talk.Line] = []
        for index, s in enumerate(self.table.sessions):
            if s.enacted is None:
                continue
            for c in s.claims:
                if c.subject == A.CLAIM_PRESIDENT_HAND and c.seat == s.president:
                    bad = hand_conflicts(c.policies, None, s.enacted)[0]
                elif c.subject == A.CLAIM_CHANCELLOR_HAND and c.seat == s.chancellor:
                    bad = hand_conflicts(None, c.policies, s.enacted)[1]
                else:
                    continue
                key = (c.seat, c.subject, index)
                if bad and key not in self.called_out and c.seat != self.seat:
                    self.called_out.add(key)
                    out.append(self._call_out(c.seat, c.subject, c.policies or (), "enacted"))
        for seat, index, policies, chaos in self.peeks:
            key = (seat, A.CLAIM_PEEK, index)
            held = self._held(index)
            if key in self.called_out or held is None or chaos != self.chaos or seat == self.seat:
                continue
            saw = held.drew or held.received
            if not saw:
                continue
            self.called_out.add(key)
            if not _within(saw, policies):
                out.append(self._call_out(seat, A.CLAIM_PEEK, policies, "drew"))
        return out

    def _call_out(
        self, seat: int, subject: str, policies: Sequence[str], reason: str
    ) -> talk.CallOut:
        cards = tuple(Policy(p) for p in policies)
        return talk.CallOut(seat, subject, cards, reason, variant=self._variant())

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
        if sus[worst] < self.accuse_level:
            return None
        return talk.Accuse(worst, talk.HEDGED, reason, variant=self._variant())

    def _hitler_read(self, view: View, read: Callable[[], Reading]) -> talk.Line | None:
        if not view.hitler_zone_active or view.phase != "nominate":
            return None
        if not self._chance(Style.chatty / 2):
            return None
        hitler = read().hitler
        if hitler is None:
            return None
        alive = [s for s in range(view.players) if s != self.seat and view.alive[s]]
        if not alive:
            return None
        best = max(alive, key=lambda s: hitler[s])
        if hitler[best] < Style.hitler_at or best == self.hitler_said:
            return None
        return talk.HitlerGuess(best, talk.HEDGED, variant=self._variant())

    # ------------------------------------------------------------------ reasons
    def _vote_line(self, index: int, election: Election, r: Reading) -> talk.ExplainVote:
        """Why this seat voted as it did in ``election``: the reason it gave before, if any."""
        said = self.vote_lines.get(index)
        if said is not None:
            return replace(said, variant=self._variant())
        v = self._variant()
        me = self.seat
        p, c = election.president, election.chancellor
        ja = bool(election.votes[me])
        sus = r.suspicion
        line: talk.ExplainVote
        if ja:
            if me in (p, c):
                line = talk.ExplainVote(True, "trust", other=c if me == p else p, variant=v)
            elif self.vote_context.get(index, (0, False))[0] >= 2:
                line = talk.ExplainVote(True, "tracker", variant=v)
            elif max(sus[p], sus[c]) <= self.prior:
                line = talk.ExplainVote(True, "trust_government", variant=v)
            elif min(sus[p], sus[c]) <= self.prior:
                trusted = p if sus[p] <= sus[c] else c
                line = talk.ExplainVote(True, "trust", other=trusted, variant=v)
            else:
                line = talk.ExplainVote(True, "need_information", variant=v)
        else:
            hitler = r.hitler
            zone = self.vote_context.get(index, (0, False))[1]
            if (
                zone
                and c not in self.table.not_hitler
                and (hitler is None or hitler[c] >= Style.zone_hitler_risk)
            ):
                line = talk.ExplainVote(False, "hitler_zone", variant=v)
            else:
                named = [s for s in (p, c) if s != me]
                if named:
                    worst = max(named, key=lambda s: sus[s])
                    line = talk.ExplainVote(False, "distrust", other=worst, variant=v)
                else:
                    line = talk.ExplainVote(False, variant=v)
        self.vote_lines[index] = line
        return line

    def _nomination_line(self, round_: int, target: int, r: Reading) -> talk.ExplainNomination:
        said = self.nomination_lines.get(round_)
        if said is not None and said.target == target:
            return replace(said, variant=self._variant())
        v = self._variant()
        line: talk.ExplainNomination
        if self.investigations.get(target) == LIBERAL:
            line = talk.ExplainNomination(target, "investigated", variant=v)
        elif self.table.hitler_zone_active and target in self.table.not_hitler:
            line = talk.ExplainNomination(target, "not_hitler", variant=v)
        elif record := self._enacted(target, LIBERAL, member=True):
            line = talk.ExplainNomination(target, "enacted_liberal", count=record, variant=v)
        elif self.eligible_count == 1:
            line = talk.ExplainNomination(target, "only_choice", variant=v)
        elif r.suspicion[target] < self.accuse_level:
            line = talk.ExplainNomination(target, "trust", variant=v)
        else:
            line = talk.ExplainNomination(target, "test", variant=v)
        self.nomination_lines[round_] = line
        return line

    def _accuse_reason(self, target: int) -> tuple[str | None, dict[str, int]]:
        """The public reason to suspect ``target``, if there is one: its fascist record as
        chancellor, a conflict with its partner, a Ja for a government that passed a fascist
        policy."""
        fascist = self._enacted(target, FASCIST)
        if fascist:
            return "enacted_fascist", {"count": fascist}
        for s in reversed(self.table.sessions):
            if target in _pair(s) and self._conflict(s):
                other = s.chancellor if target == s.president else s.president
                if other != self.seat:
                    return "conflict", {"other": other}
        for index, s in enumerate(self.table.sessions):
            if s.enacted == FASCIST and target in self.ja_by_session.get(index, ()):
                if target not in _pair(s):
                    return "voted_fascist_government", {}
        return None, {}

    def _trust_reason(self, target: int) -> tuple[str | None, dict[str, int]]:
        """The public reason to trust ``target``, if there is one: its liberal record, or
        confirmed not Hitler in the zone."""
        record = self._enacted(target, LIBERAL, member=True)
        if record:
            return "enacted_liberal", {"count": record}
        if self.table.hitler_zone_active and target in self.table.not_hitler:
            return "not_hitler", {}
        return None, {}

    # ------------------------------------------------------------------ facts
    def _conflict(self, s: Session) -> bool:
        pc, cc = s.president_claim, s.chancellor_claim
        return pc is not None and cc is not None and not hand_claims_fit(pc, cc)

    def _caught_lying(self, index: int, s: Session, partner: int) -> bool:
        """Whether this seat, in session ``index``, holds proof that ``partner``'s claim is
        false: a liberal from what it held; a fascist or Hitler from its story (what its claim
        says it held, and as president the two it says it passed), as the liberal it pretends
        to be would."""
        held = self._story(index, s) if self.pretends else self._held(index)
        if held is None:
            return False
        if partner == s.chancellor and held.passed and s.chancellor_claim is not None:
            return s.chancellor_claim != list(held.passed).count(LIBERAL)
        if partner == s.president and held.received:
            passed = self.heard_passed.get(index)
            if passed is not None and sorted(passed) != sorted(held.received):
                return True  # he says he passed what this seat did not receive
            if s.president_claim is not None:
                return not hand_claims_fit(s.president_claim, list(held.received).count(LIBERAL))
        return False

    def _story(self, index: int, s: Session) -> Hand | None:
        """What this seat's claims say it held in session ``index`` (None: no claim)."""
        if s.president == self.seat:
            claim = self.claimed.get((index, A.CLAIM_PRESIDENT_HAND))
            if claim is None:
                return None
            passed = tuple(p.value for p in self._passed(claim, index))
            return Hand(index, drew=tuple(claim.policies or ()), passed=passed)
        claim = self.claimed.get((index, A.CLAIM_CHANCELLOR_HAND))
        return None if claim is None else Hand(index, received=tuple(claim.policies or ()))

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


def _same(line: talk.Line, key: tuple[Any, ...]) -> bool:
    return line_key(line) == key


def _pair(s: Session) -> tuple[int, int]:
    return s.president, s.chancellor


def _office(s: Session, seat: int) -> str:
    return A.CLAIM_PRESIDENT_HAND if seat == s.president else A.CLAIM_CHANCELLOR_HAND


def _within(saw: Sequence[str], claimed: Sequence[str]) -> bool:
    """Whether the policies a seat saw can be (some of) those claimed: each one claimed at
    least as often."""
    return all(list(saw).count(p) <= list(claimed).count(p) for p in set(saw))


def suspicion_from_scores(scores: Sequence[float], prior: float, scale: float = 0.8) -> list[float]:
    """P(fascist party) from suspicion scores (the rule bot's): a logistic around the prior."""
    base = math.log(prior / (1 - prior)) if 0 < prior < 1 else 0.0
    return [1 / (1 + math.exp(-max(-30.0, min(30.0, base + scale * s)))) for s in scores]


__all__ = [
    "ByLines",
    "Judge",
    "Reading",
    "Style",
    "Voice",
    "line_key",
    "lines_of",
    "suspicion_from_scores",
    "talk_rng",
]
