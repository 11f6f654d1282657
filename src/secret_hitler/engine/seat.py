"""What one seat knows, folded one event at a time: the public state and the seat's own secrets.

``Knowledge`` is the private half: the seat's role and party, the roles it knows (its own, the
night's, an executed seat's under ``reveal_executed_role``, Hitler's and the assassinated seat's
under Avalon SH, every role at the end), the parties it knows (those roles' parties, the seats
the night showed by party only, its investigations, Hitler's targets at the assassination),
Percival's pair of Merlin candidates, and per legislative session what it held (``Hand``: drawn, discarded and passed as president, received
as chancellor), its peeks (``Peek``) and the parties it found investigating. The engine's
observer keeps one per seat for the views (``View.role``, ``known_roles``, ``hand``,
``investigations``), so these facts are derived in this one place.

``SeatState`` is ``PublicState`` (engine/public.py) plus ``Knowledge``, fed with one seat's log
(``View.events``): everything that seat knows, session by session. A bot, the evaluation or a
report reads it instead of keeping its own copy of the seat's hands, and ``claims.is_true``
judges a claim against it. Like ``PublicState``, every value is immutable (tuples, named
tuples), so ``copy`` is cheap and a copy never shares a change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from .events import TypedEvent
from .public import READERS, PublicState
from .types import PARTY_OF_NAME


class Hand(NamedTuple):
    """What a seat held in one legislative session it sat in (``session``: its index among
    ``PublicState.sessions``). A president's ``drew``, ``discarded`` and ``passed``, or a
    chancellor's ``received``; the other office's fields stay empty."""

    session: int
    drew: tuple[str, ...] = ()
    discarded: str | None = None
    passed: tuple[str, ...] = ()
    received: tuple[str, ...] = ()


class Peek(NamedTuple):
    """A Policy Peek this seat made: the top three, top first, seen before legislative session
    ``session`` began (the sessions begun until then)."""

    session: int
    policies: tuple[str, ...]


def _knowing(known: tuple[str | None, ...], seat: int, role: str) -> tuple[str | None, ...]:
    return known[:seat] + (role,) + known[seat + 1 :]


_LIBERAL = "liberal"


class Knowledge:
    """What one seat (``seat``; ``None``: a spectator, who learns only the public reveals) has
    learned that others may not have: ``role``, ``party``, ``known_roles`` (per seat, the role
    it knows, else None), ``known_parties`` (per seat, the party it knows, else None: the party
    of every role it knows, the seats the night showed by party, its investigations, Hitler's
    targets at the assassination), ``merlin_candidates`` (Percival's two seats, Merlin's and
    Morgana's, else None), ``found`` ((target, party) of its investigations, in order), ``hand``
    (the policies it holds in the open session: the last drawn, passed or received), ``hands``
    (a ``Hand`` per session it sat in, in order) and ``peeks``.

    Each ``learn_<kind>`` method reads one event's data (an ``Event.data`` or a typed event:
    the same keys), ``KNOWLEDGE_READERS`` maps the event kinds to them."""

    __slots__ = (
        "seat",
        "role",
        "party",
        "known_roles",
        "known_parties",
        "merlin_candidates",
        "found",
        "hand",
        "hands",
        "peeks",
        "begun",
    )

    def __init__(self, seat: int | None, players: int) -> None:
        self.seat = seat
        self.role: str | None = None
        self.party: str | None = None
        # replaced, never changed in place: the same tuple until this seat learns a role
        self.known_roles: tuple[str | None, ...] = (None,) * players
        self.known_parties: tuple[str | None, ...] = self.known_roles
        self.merlin_candidates: tuple[int, ...] | None = None
        self.found: tuple[tuple[int, str], ...] = ()
        self.hand: tuple[str, ...] = ()
        self.hands: tuple[Hand, ...] = ()
        self.peeks: tuple[Peek, ...] = ()
        self.begun = 0  # legislative sessions begun: the index of the open one is begun - 1

    def copy_knowledge(self, other: Knowledge) -> None:
        """Give ``other`` this seat's knowledge (immutable values: shared)."""
        for name in Knowledge.__slots__:
            setattr(other, name, getattr(self, name))

    # ------------------------------------------------------------------ the hand last held
    def last_hand(self, office: str) -> tuple[str, ...]:
        """The policies this seat last held as ``office`` (``"president"``: the three drawn;
        ``"chancellor"``: the two received); () if it never did."""
        president = office == "president"
        for hand in reversed(self.hands):
            held = hand.drew if president else hand.received
            if held:
                return held
        return ()

    # ------------------------------------------------------------------ reading events
    def _learn_role_of(self, seat: int, role: str) -> None:
        """``seat``'s role, and so its party."""
        self.known_roles = _knowing(self.known_roles, seat, role)
        self.known_parties = _knowing(self.known_parties, seat, PARTY_OF_NAME[role])

    def learn_game_started(self, d: Mapping[str, Any]) -> None:
        self.known_roles = self.known_parties = (None,) * d["players"]

    def learn_role(self, d: Mapping[str, Any]) -> None:
        seat, self.role, self.party = d["seat"], d["role"], d["party"]
        self.known_roles = _knowing(self.known_roles, seat, d["role"])
        self.known_parties = _knowing(self.known_parties, seat, d["party"])

    def learn_night(self, d: Mapping[str, Any]) -> None:
        known, parties = self.known_roles, self.known_parties
        for seat, role in d["known"].items():
            known = _knowing(known, int(seat), role)
            parties = _knowing(parties, int(seat), PARTY_OF_NAME[role])
        for seat, party in (d.get("parties") or {}).items():
            parties = _knowing(parties, int(seat), party)
        self.known_roles, self.known_parties = known, parties
        candidates = d.get("merlin_candidates")
        if candidates is not None:
            self.merlin_candidates = tuple(candidates)

    def learn_executed(self, d: Mapping[str, Any]) -> None:
        role = d.get("role")  # present under reveal_executed_role
        if role is not None:
            self._learn_role_of(d["target"], role)

    def learn_game_over(self, d: Mapping[str, Any]) -> None:
        self.known_roles = roles = tuple(d["roles"])
        self.known_parties = tuple(map(PARTY_OF_NAME.__getitem__, roles))

    def learn_investigation(self, d: Mapping[str, Any]) -> None:
        self.found += ((d["target"], d["party"]),)
        self.known_parties = _knowing(self.known_parties, d["target"], d["party"])

    def learn_assassination(self, d: Mapping[str, Any]) -> None:
        self._learn_role_of(d["hitler"], "hitler")  # his card is turned face up for all

    def learn_assassin_sight(self, d: Mapping[str, Any]) -> None:
        for seat, role in d["known"].items():
            self._learn_role_of(int(seat), role)
        parties = self.known_parties
        for seat in d["targets"]:
            parties = _knowing(parties, seat, _LIBERAL)
        self.known_parties = parties

    def learn_assassinated(self, d: Mapping[str, Any]) -> None:
        self._learn_role_of(d["target"], d["role"])

    def learn_legislative_session(self, d: Mapping[str, Any]) -> None:
        self.begun += 1
        self.hand = ()

    def learn_drew(self, d: Mapping[str, Any]) -> None:
        self.hand = drew = tuple(d["policies"])
        self.hands += (Hand(self.begun - 1, drew),)

    def learn_passed(self, d: Mapping[str, Any]) -> None:
        self.hand = passed = tuple(d["policies"])
        hands = self.hands
        session = self.begun - 1
        if hands and hands[-1].session == session:
            drew = hands[-1].drew
            self.hands = hands[:-1] + (Hand(session, drew, d["discarded"], passed),)
        else:  # a log without its ``drew`` (a test's few events)
            self.hands = hands + (Hand(session, (), d["discarded"], passed),)

    def learn_received(self, d: Mapping[str, Any]) -> None:
        self.hand = received = tuple(d["policies"])
        self.hands += (Hand(self.begun - 1, received=received),)

    def learn_peek(self, d: Mapping[str, Any]) -> None:
        self.peeks += (Peek(self.begun, tuple(d["policies"])),)


#: What each kind of event teaches a seat that observes it (``Knowledge.learn_<kind>``).
KNOWLEDGE_READERS: dict[str, Callable[[Knowledge, Mapping[str, Any]], None]] = {
    "game_started": Knowledge.learn_game_started,
    "role": Knowledge.learn_role,
    "night": Knowledge.learn_night,
    "executed": Knowledge.learn_executed,
    "game_over": Knowledge.learn_game_over,
    "investigation": Knowledge.learn_investigation,
    "assassination": Knowledge.learn_assassination,
    "assassin_sight": Knowledge.learn_assassin_sight,
    "assassinated": Knowledge.learn_assassinated,
    "legislative_session": Knowledge.learn_legislative_session,
    "drew": Knowledge.learn_drew,
    "passed": Knowledge.learn_passed,
    "received": Knowledge.learn_received,
    "peek": Knowledge.learn_peek,
}


class SeatState(PublicState, Knowledge):
    """Everything ``seat`` knows after the events of its log fed so far (``feed``): the public
    state (``PublicState``'s attributes) and its ``Knowledge``. Feed it the seat's own log
    (``View.events``) only: an event of another seat's would be read as this seat's."""

    def __init__(self, seat: int | None, players: int = 0, **table: Any) -> None:
        PublicState.__init__(self, players, **table)
        Knowledge.__init__(self, seat, players)

    @classmethod
    def of_seat(cls, seat: int | None, events: Iterable[TypedEvent]) -> SeatState:
        """What ``seat`` knows after ``events`` (its log, as its view gives it)."""
        state = cls(seat)
        for e in events:
            state.feed(e)
        return state

    def copy(self) -> SeatState:
        other = PublicState.copy(self)
        assert isinstance(other, SeatState)
        self.copy_knowledge(other)
        return other

    def feed(self, e: TypedEvent) -> None:
        """Read the next event of the seat's log (public and private)."""
        handler = SEAT_READERS.get(e.kind)
        if handler is not None:
            handler(self, e)


def _both(
    public: Callable[[PublicState, Any], None],
    private: Callable[[Knowledge, Mapping[str, Any]], None],
) -> Callable[[SeatState, Any], None]:
    def read(state: SeatState, e: Any) -> None:
        public(state, e)
        private(state, e)

    return read


#: Each event kind's step of a seat's fold: the public step (``READERS``), the private one
#: (``KNOWLEDGE_READERS``), or both in that order. ``SEAT_READERS.get(e.kind)`` then
#: ``step(state, e)`` is ``state.feed(e)`` for a reader that dispatches on the kind itself.
SEAT_READERS: dict[str, Callable[[SeatState, Any], None]] = {
    kind: (
        _both(READERS[kind], KNOWLEDGE_READERS[kind])
        if kind in READERS and kind in KNOWLEDGE_READERS
        else READERS.get(kind) or KNOWLEDGE_READERS[kind]
    )
    for kind in (*READERS, *(k for k in KNOWLEDGE_READERS if k not in READERS))
}

__all__ = ["KNOWLEDGE_READERS", "SEAT_READERS", "Hand", "Knowledge", "Peek", "SeatState"]
