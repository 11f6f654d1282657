"""The public state of a game, folded one event at a time: what any spectator knows after event i.

``PublicState`` reads a game's events in order (``feed``), the public ones only, so the log of any
seat, the spectator's and the game's own give the same state: who is alive, the tracks and the
election tracker, the piles' sizes, the round, the candidate and the nominee, every election with
its votes, every legislative session with its outcome and claims, the seats proven not Hitler,
the investigated seats, the power in use, the open claim windows and the result. Bots, the
research environment and the evaluation read it instead of keeping their own copies; every
value is immutable (tuples) but the open ``Session``, which ``copy`` copies: a copy is cheap and
never shares a change. ``engine/seat.py``'s ``SeatState`` adds what one seat alone knows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from . import events as E
from .actions import (
    CLAIM_CHANCELLOR_HAND,
    CLAIM_INVESTIGATION,
    CLAIM_PEEK,
    CLAIM_PRESIDENT_HAND,
    CLAIM_SUBJECTS,
)
from .events import ReadOnlyDict, TypedEvent
from .roles import winners_of
from .settings import CHAOS_AT, FASCIST_TRACK, LIBERAL_TRACK, Rules
from .top_decking import ALLOWED, ends_game
from .types import Role


@dataclass(frozen=True, slots=True)
class Election:
    """One election's nomination and its revealed votes (``None``: the dead)."""

    president: int
    chancellor: int
    votes: tuple[bool | None, ...]
    passed: bool


@dataclass(slots=True)
class Session:
    """One legislative session as the public saw it, with the claims made in its window (until
    the next legislative session begins, or the game ends). The fold changes it while its window
    is open (``PublicState.copy`` copies it then), never after."""

    president: int
    chancellor: int
    veto_available: bool
    votes: tuple[bool | None, ...] = ()  # the votes that elected this government
    veto_proposed: bool = False
    vetoed: bool = False  # the president consented to a veto
    enacted: str | None = None  # the policy the chancellor enacted (None while open, or vetoed)
    president_claim: int | None = None  # liberal policies among the president's claimed three
    chancellor_claim: int | None = None  # ...among the chancellor's claimed two
    claims: tuple[E.Claimed, ...] = ()  # every claim event of the window, in order

    def copy(self) -> Session:
        return Session(
            self.president,
            self.chancellor,
            self.veto_available,
            self.votes,
            self.veto_proposed,
            self.vetoed,
            self.enacted,
            self.president_claim,
            self.chancellor_claim,
            self.claims,
        )


class PublicState:
    """The public state after the events fed so far (``feed``; private events are skipped).

    Attributes (immutable values, but the open ``session``): ``players``, ``board``,
    ``hitler_zone``, ``veto_zone``, ``deck`` and ``deck_liberal`` (policies in the game, liberal
    ones), ``start`` (policies on the tracks at the start), ``round``, ``candidate``,
    ``eligible``, ``nominee``, ``president`` and ``chancellor`` (the last elected government),
    ``votes`` (the last revealed votes), ``elections`` (every election, in order), ``alive``,
    ``living``, ``liberal``, ``fascist``, ``tracker``, ``draw_pile``, ``discard_pile``,
    ``session`` (the last legislative session while its claim window is open, else None),
    ``closed`` (the sessions before), ``sessions`` (all of them), ``not_hitler`` (E8), ``proven_not_hitler`` (E8, P4, W2), ``investigated`` and
    ``investigations`` (who investigated whom, in order), ``power`` and ``power_president`` (the
    last power used), ``top_decking`` (the rules' no top-decking setting) and ``top_decks``
    (chaos by failed elections since the last passed election), ``assassination`` (Avalon SH:
    ``{hitler, trigger, target}`` once opened), ``winner``, ``reason``, ``roles`` (revealed at the
    end), ``winners`` (the seats that won); the open claim windows are read with
    ``open_claims(seat)`` and ``claim_target(seat)``.
    """

    def __init__(
        self,
        players: int = 0,
        *,
        hitler_zone: int = 0,
        deck: tuple[int, int] = (0, 0),
        start: tuple[int, int] = (0, 0),
    ) -> None:
        """An empty state; the ``game_started`` event that opens every log sets the table and
        its rules. A reader that feeds events without it (a test's few events) gives the table
        size, the Hitler zone, the deck and the start of the tracks here instead."""
        self.players = players
        self.board: tuple[str | None, ...] = ()
        self.hitler_zone, self.veto_zone = hitler_zone, 0
        self.deck_liberal, self.deck = deck[0], deck[0] + deck[1]
        self.start = start
        self.liberal, self.fascist = start
        self.round = 0
        self.candidate: int | None = None
        self.eligible: tuple[int, ...] = ()
        self.nominee: int | None = None
        self.elections: tuple[Election, ...] = ()
        self.president: int | None = None
        self.chancellor: int | None = None
        self.votes: tuple[bool | None, ...] = (None,) * players
        self.alive: tuple[bool, ...] = (True,) * players
        self.living = players
        self.tracker = 0
        self.draw_pile, self.discard_pile = self.deck, 0
        self.session: Session | None = None
        self.closed: tuple[Session, ...] = ()  # the sessions whose claim window has closed
        self.not_hitler: tuple[int, ...] = ()
        self.proven_not_hitler: tuple[int, ...] = ()
        self.investigated: tuple[bool, ...] = (False,) * players
        self.investigations: tuple[tuple[int, int], ...] = ()  # (president, target), in order
        self.power: str | None = None
        self.power_president: int | None = None
        self.top_decking = ALLOWED
        self.top_decks = 0
        self._election_chaos = False  # whether a chaos now would come from a failed election
        self.assassination: ReadOnlyDict | None = None
        self.winner: str | None = None
        self.reason: str | None = None
        self.roles: tuple[str, ...] | None = None
        self.winners: tuple[int, ...] | None = None
        # The claim windows (A9, docs/engine.md "Claims") as what happened to them since they
        # last all closed, in order: (seat, subject, the investigated seat of an investigation
        # window, else None) when one opens, (seat, subject, CLAIMED) when it is claimed; the
        # last entry of a seat's subject says whether it is open (``open_claims``). Appending
        # is all a claim costs, for every bot's fold; the question is rarely asked.
        self._windows: tuple[tuple[int, str, int | None], ...] = ()
        # ``_windows``'s length at the last election: the entries after it (a power used
        # before the session) outlive that session's start, which closes the others.
        self._elected_at = 0

    @classmethod
    def of(cls, events: Iterable[TypedEvent]) -> PublicState:
        """The state after ``events`` (a game's log as views or ``Event.json`` give it)."""
        state = cls()
        for e in events:
            state.feed(e)
        return state

    def copy(self) -> PublicState:
        """An independent copy (every value is immutable but the open session: copied)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        if self.session is not None:
            other.session = self.session.copy()
        return other

    # ------------------------------------------------------------------ claim windows
    def open_claims(self, seat: int) -> tuple[str, ...]:
        """The claim subjects ``seat`` may still claim now (A9), in ``CLAIM_SUBJECTS`` order:
        what ``Game.open_claims`` says (property-tested), derived from the public events, so
        any seat can tell what another may claim (the talk recogniser's context)."""
        window = self._windows_of(seat)
        return tuple(s for s in CLAIM_SUBJECTS if s in window) if window else ()

    def claim_target(self, seat: int) -> int | None:
        """The seat ``seat`` may claim to have investigated now (its open investigation
        window), else None."""
        return self._windows_of(seat).get(CLAIM_INVESTIGATION)

    def _open_hand_windows(self) -> None:
        """The government's hand-claim windows open: its session is over (enacted or
        vetoed)."""
        pres, chan = self.president, self.chancellor
        if pres is not None and chan is not None:
            self._windows += (
                (pres, CLAIM_PRESIDENT_HAND, None),
                (chan, CLAIM_CHANCELLOR_HAND, None),
            )

    def _windows_of(self, seat: int) -> dict[str, int | None]:
        """``seat``'s open windows: subject -> the investigated seat (None but for an
        investigation). A window opened again (a second peek or investigation, by a chaos
        power) stands for the new result."""
        out: dict[str, int | None] = {}
        for s, subject, target in self._windows:
            if s == seat:
                if target == CLAIMED:
                    out.pop(subject, None)
                else:
                    out[subject] = target
        return out

    @property
    def sessions(self) -> tuple[Session, ...]:
        """Every legislative session so far, the open one last."""
        return self.closed if self.session is None else (*self.closed, self.session)

    # ------------------------------------------------------------------ derived rule facts
    @property
    def hitler_zone_active(self) -> bool:
        """Electing Hitler chancellor now wins for the fascists (E8)."""
        return self.fascist >= self.hitler_zone

    @property
    def liberal_to_win(self) -> int:
        """Liberal policies still needed for the liberals to win (L4)."""
        return LIBERAL_TRACK - self.liberal

    @property
    def fascist_to_win(self) -> int:
        """Fascist policies still needed for the fascists to win (L4)."""
        return FASCIST_TRACK - self.fascist

    @property
    def chaos_at(self) -> int:
        return CHAOS_AT

    @property
    def top_deck_forbidden(self) -> bool:
        """A chaos by failed elections now ends the game (no top-decking, engine/top_decking.py)."""
        return ends_game(self.top_decking, self.top_decks)

    @property
    def unenacted(self) -> tuple[int, int]:
        """The deck's liberal and fascist policies not on the tracks (in the piles or a hand)."""
        lib, fas = self.start
        liberals = self.deck_liberal - (self.liberal - lib)
        return liberals, self.deck - self.deck_liberal - (self.fascist - fas)

    # ------------------------------------------------------------------ reading events
    def feed(self, e: TypedEvent) -> None:
        """Read the next event of the log (one a seat observes, or ``Event.json``; a client's
        plain copy goes through ``events.typed`` first)."""
        handler = READERS.get(e.kind)
        if handler is not None:
            handler(self, e)

    def _game_started(self, e: E.GameStarted) -> None:
        n = e.players
        self.players = n
        self.board = tuple(e.board)
        self.hitler_zone, self.veto_zone = e.hitler_zone, e.veto_zone
        self.liberal, self.fascist = e.liberal_policies, e.fascist_policies
        self.start = (self.liberal, self.fascist)
        self.deck = self.draw_pile = e.draw_pile
        self.deck_liberal, self.top_decking = _rules_facts(e)
        self.alive = (True,) * n
        self.living = n
        self.investigated = (False,) * n
        self.votes = (None,) * n

    def _candidate(self, e: E.Candidate) -> None:
        self.round, self.candidate, self.eligible = e.round, e.seat, tuple(e.eligible)
        self.nominee = None
        self.power = None

    def _nominated(self, e: E.Nominated) -> None:
        self.nominee = e.chancellor

    def _votes(self, e: E.Votes) -> None:
        self.votes = votes = tuple(e.votes)
        self._election_chaos = not e.passed
        if e.passed and self.top_decks:
            self.top_decks = 0
        if self.candidate is not None and self.nominee is not None:  # (the candidate nominated)
            self.elections += (Election(self.candidate, self.nominee, votes, e.passed),)

    def _tracker(self, e: E.Tracker) -> None:
        self.tracker = e.value

    def _elected(self, e: E.Elected) -> None:
        self.president, self.chancellor = e.president, e.chancellor
        self._elected_at = len(self._windows)

    def _not_hitler(self, e: E.NotHitler) -> None:
        self.not_hitler = tuple(sorted({*self.not_hitler, e.seat}))
        self.proven_not_hitler = tuple(sorted({*self.proven_not_hitler, e.seat}))

    def _legislative_session(self, e: E.LegislativeSession) -> None:
        self.draw_pile = e.draw_pile
        self._close()  # a new session closes the last one's claim window
        self.session = Session(e.president, e.chancellor, bool(e.veto), self.votes)
        # ...and every claim window but those of a power used before it, since the election
        self._windows = self._windows[self._elected_at :]
        self._elected_at = 0

    def _close(self) -> None:
        if self.session is not None:
            self.closed += (self.session,)
            self.session = None

    def _president_discarded(self, e: E.PresidentDiscarded) -> None:
        self.discard_pile += 1

    def _veto_proposed(self, e: E.VetoProposed) -> None:
        if self.session is not None:
            self.session.veto_proposed = True

    def _veto(self, e: E.Veto) -> None:
        if e.accepted:
            self._election_chaos = False
            self.discard_pile += 2
            if self.session is not None:
                self.session.vetoed = True
            self._open_hand_windows()

    def _chaos(self, e: E.Chaos) -> None:
        self.draw_pile -= 1  # the last session's claim window stays open
        if self._election_chaos:
            self.top_decks += 1

    def _enacted(self, e: E.Enacted) -> None:
        self.liberal, self.fascist = e.liberal_policies, e.fascist_policies
        self.tracker = 0
        if not e.chaos:
            self.discard_pile += 1  # the chancellor's other policy
            if self.session is not None:
                self.session.enacted = e.policy
            self._open_hand_windows()

    def _reshuffled(self, e: E.Reshuffled) -> None:
        self.draw_pile, self.discard_pile = e.draw_pile, 0

    def _power(self, e: E.PowerUsed) -> None:
        self.power, self.power_president = e.power, e.president
        if e.power == CLAIM_PEEK:
            self._windows += ((e.president, CLAIM_PEEK, None),)

    def _investigated(self, e: E.Investigated) -> None:
        t = e.target
        self.investigations += ((e.president, t),)
        self._windows += ((e.president, CLAIM_INVESTIGATION, t),)
        self.investigated = self.investigated[:t] + (True,) + self.investigated[t + 1 :]

    def _executed(self, e: E.Executed) -> None:
        t = e.target
        self.alive = self.alive[:t] + (False,) + self.alive[t + 1 :]
        self.living -= 1
        self.proven_not_hitler = tuple(sorted({*self.proven_not_hitler, t}))

    def _claim(self, e: E.Claimed) -> None:
        subject, seat = e.subject, e.seat
        self._windows += ((seat, subject, CLAIMED),)
        session = self.session
        if session is None:
            return
        session.claims += (e,)
        if subject == CLAIM_PRESIDENT_HAND and seat == session.president:
            session.president_claim = list(e.policies or ()).count("liberal")
        elif subject == CLAIM_CHANCELLOR_HAND and seat == session.chancellor:
            session.chancellor_claim = list(e.policies or ()).count("liberal")

    def _assassination(self, e: E.Assassination) -> None:
        self.assassination = ReadOnlyDict(hitler=e.hitler, trigger=e.trigger, target=None)
        hitler = e.hitler
        self.proven_not_hitler = tuple(s for s in range(self.players) if s != hitler)

    def _assassinated(self, e: E.Assassinated) -> None:
        if self.assassination is not None:
            self.assassination = ReadOnlyDict(self.assassination, target=e.target)

    def _game_over(self, e: E.GameOver) -> None:
        self.winner, self.reason = e.winner, e.reason
        self.roles = roles = tuple(e.roles)
        self.proven_not_hitler = tuple(s for s, r in enumerate(roles) if r != "hitler")
        if e.winners is not None:
            self.winners = tuple(e.winners)
        else:
            dealt = [Role(r) for r in roles]
            hitler = dealt.index(Role.HITLER)
            self.winners = winners_of(dealt, e.winner, e.reason, not self.alive[hitler])
        self._close()
        self._windows, self._elected_at = (), 0


#: Each public event type's step of the fold (``PublicState._<type>``; private events teach
#: nothing public): ``READERS.get(e.kind)`` then ``step(state, e)`` is ``state.feed(e)`` for a
#: reader that already dispatches on the type (the rule bot: a call less per event).
READERS: dict[str, Callable[[PublicState, Any], None]] = {
    "game_started": PublicState._game_started,
    "candidate": PublicState._candidate,
    "nominated": PublicState._nominated,
    "votes": PublicState._votes,
    "tracker": PublicState._tracker,
    "elected": PublicState._elected,
    "not_hitler": PublicState._not_hitler,
    "legislative_session": PublicState._legislative_session,
    "president_discarded": PublicState._president_discarded,
    "veto_proposed": PublicState._veto_proposed,
    "veto": PublicState._veto,
    "chaos": PublicState._chaos,
    "enacted": PublicState._enacted,
    "reshuffled": PublicState._reshuffled,
    "power": PublicState._power,
    "investigated": PublicState._investigated,
    "executed": PublicState._executed,
    "claim": PublicState._claim,
    "assassination": PublicState._assassination,
    "assassinated": PublicState._assassinated,
    "game_over": PublicState._game_over,
}


# What the fold needs of a game_started event's rules (the deck's liberal policies at this table
# size, the no top-decking setting), by the event: most games share theirs (one per rules and
# table size, ``game._setup``), and reading rules costs tens of µs, more than a whole fold.
_FACTS: dict[int, tuple[E.GameStarted, tuple[int, str]]] = {}


def _rules_facts(e: E.GameStarted) -> tuple[int, str]:
    known = _FACTS.get(id(e))
    if known is not None and known[0] is e:
        return known[1]
    rules = Rules.from_json(e.rules)
    facts = (rules.deck_for(e.players)[0], rules.top_decking)
    if len(_FACTS) >= 256:
        _FACTS.clear()
    _FACTS[id(e)] = (e, facts)
    return facts


#: The entry of ``PublicState._windows`` that closes a window: its claim.
CLAIMED = -1


def public_states(events: Iterable[TypedEvent]) -> Iterator[PublicState]:
    """The public state after each of ``events`` in turn (a new object each time)."""
    state = PublicState()
    for e in events:
        state.feed(e)
        yield state.copy()


__all__ = ["READERS", "Election", "PublicState", "Session", "public_states"]
