"""Per-seat views: exactly what one seat (or a spectator) may know, as an immutable snapshot.

A ``View`` is handed out by ``Game.view(seat)``; the ``Observer`` (engine/observer.py) computes
its fields. Building every field for every decision would cost more than the decision itself
in a simulation, so a view is a snapshot taken lazily: its fields are computed the first time
one is read, and at the latest just before the game changes (the observer fills every view it
handed out that is still referenced). Either way a view describes the game as it was when it
was created, and nothing in it can be changed: tuples, ``ReadOnlyDict``/``ReadOnlyList`` event
data, a read-only ``rules`` mapping.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from .events import ReadOnlyDict, TypedEvent, freeze, thaw, typed
from .speech import may_speak

if TYPE_CHECKING:
    from .observer import Observer

#: Every field of a view, in ``to_json`` order.
FIELDS: tuple[str, ...] = (
    "seat",  # None: a spectator
    "players",
    "names",
    "rules",  # the game's rules resolved for its table size (Rules.resolved), read-only
    "board",  # the power of each fascist slot 1-5
    "hitler_zone",
    "veto_zone",
    "composition",  # the role cards dealt, {role: count} in card order (Rules.composition)
    "hitler_zone_active",  # electing Hitler chancellor now wins for the fascists (E8)
    "phase",
    "to_act",  # the seats the game waits for
    "round",
    "role",
    "party",
    "known_roles",  # per seat: the role this seat knows, else None (every role after the end)
    "known_parties",  # per seat: the party this seat knows, else None (see seat.Knowledge)
    "merlin_candidates",  # Percival: the two seats that are Merlin and Morgana, else None
    "alive",
    "candidate",  # presidential candidate (or the president in office during a session)
    "nominee",
    "president",  # the last elected government
    "chancellor",
    "term_limited",  # barred from the chancellorship at this nomination (E3)
    "eligible",  # the chancellors the candidate may nominate now (E2, E3, A11)
    "liberal_policies",
    "fascist_policies",
    "election_tracker",
    "liberal_to_win",  # liberal policies still needed for the liberals to win (L4)
    "fascist_to_win",  # fascist policies still needed for the fascists to win (L4)
    "chaos_at",  # the election tracker's value that brings chaos (E7, C1)
    "top_deck_forbidden",  # a chaos by failed elections now ends the game (no top-decking)
    "draw_pile",
    "discard_pile",
    "voted",  # who has voted in the open election
    "votes",  # the last revealed votes; during a vote only what this seat saw
    "own_vote",  # this seat's vote in the open election, before the reveal
    "hand",  # the policies this seat holds right now
    "veto_available",  # the chancellor may propose a veto now
    "veto_refused",  # the president refused a veto in this session
    "veto_proposed",
    "power",  # the power being used now
    "pending_power",  # a power the next elected president will use (power_timing next_president)
    "next_president",  # the next presidential candidate if this round ended now (A10), None at the end
    "assassination",  # Avalon SH: None, or {hitler, trigger, target} once a liberal win opened it
    "investigated",
    "not_hitler",
    "proven_not_hitler",  # seats publicly proven not Hitler: not_hitler, executed (P4), all at the end
    "investigations",  # (target, party) this seat learned
    "open_claims",  # the claim subjects this seat may still claim
    "winner",
    "reason",
    "winners",  # the seats that won (the winning party's; the Monarchist's own way), None before
    "events",  # every event this seat has observed, read-only
)

#: The fields whose value may differ between seats at one moment; every other field is the
#: same for every seat and for a spectator (property-tested), so a server can encode it once.
SEAT_FIELDS: tuple[str, ...] = (
    "seat",
    "role",
    "party",
    "known_roles",
    "known_parties",
    "merlin_candidates",
    "votes",
    "own_vote",
    "hand",
    "investigations",
    "open_claims",
    "events",
)
#: The public fields that a vote changes while the election stays open (the election's
#: progress); a vote changes nothing else a view shows but the seats' own votes.
ELECTION_FIELDS: tuple[str, ...] = ("to_act", "voted")
#: The other public fields (``Observer.table``), in ``FIELDS`` order.
TABLE_FIELDS: tuple[str, ...] = tuple(
    f for f in FIELDS if f not in SEAT_FIELDS and f not in ELECTION_FIELDS
)
#: The fields every seat and the spectator share at one moment (``Observer.public``): the
#: table's, then the election's progress.
PUBLIC_FIELDS: tuple[str, ...] = TABLE_FIELDS + ELECTION_FIELDS
#: The fields of one seat but its event log (``Observer.own``), in ``FIELDS`` order.
OWN_FIELDS: tuple[str, ...] = tuple(f for f in SEAT_FIELDS if f != "events")
assert tuple(f for f in FIELDS if f in SEAT_FIELDS and f != "events") == OWN_FIELDS


class EventLog(Sequence[TypedEvent]):
    """The first ``length`` events a seat observed: a read-only window on an append-only log of
    typed events (``events.TypedEvent``)."""

    __slots__ = ("_items", "_len")

    def __init__(self, items: list[TypedEvent], length: int) -> None:
        self._items = items
        self._len = length

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> TypedEvent: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[TypedEvent, ...]: ...

    def __getitem__(self, index: int | slice) -> TypedEvent | tuple[TypedEvent, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)  # never past this view's moment
            return tuple(self._items[start:stop:step])
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("event index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[TypedEvent]:
        items = self._items
        for i in range(self._len):
            yield items[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            return self._len == other._len and self[:] == other[:]
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        raise TypeError("an EventLog is not hashable")

    def __repr__(self) -> str:
        return f"<EventLog of {self._len} events>"


class View:
    """What one seat may know at one moment. Fields: ``FIELDS`` (see docs/engine.md)."""

    __slots__ = ("_observer", "_seat", "_values", "__weakref__")

    # Declared for type checkers; each is a read-only property over the snapshot.
    if TYPE_CHECKING:
        players: int
        names: tuple[str, ...] | None
        rules: ReadOnlyDict
        board: tuple[str | None, ...]
        hitler_zone: int
        veto_zone: int
        composition: ReadOnlyDict
        hitler_zone_active: bool
        phase: str
        to_act: tuple[int, ...]
        round: int
        role: str | None
        party: str | None
        known_roles: tuple[str | None, ...]
        known_parties: tuple[str | None, ...]
        merlin_candidates: tuple[int, ...] | None
        alive: tuple[bool, ...]
        candidate: int | None
        nominee: int | None
        president: int | None
        chancellor: int | None
        term_limited: tuple[int, ...]
        eligible: tuple[int, ...]
        liberal_policies: int
        fascist_policies: int
        election_tracker: int
        liberal_to_win: int
        fascist_to_win: int
        chaos_at: int
        top_deck_forbidden: bool
        draw_pile: int
        discard_pile: int
        voted: tuple[bool, ...]
        votes: tuple[bool | None, ...]
        own_vote: bool | None
        hand: tuple[str, ...]
        veto_available: bool
        veto_refused: bool
        veto_proposed: bool
        power: str | None
        pending_power: str | None
        next_president: int | None
        assassination: ReadOnlyDict | None
        investigated: tuple[bool, ...]
        not_hitler: tuple[int, ...]
        proven_not_hitler: tuple[int, ...]
        investigations: tuple[tuple[int, str], ...]
        open_claims: tuple[str, ...]
        winner: str | None
        reason: str | None
        winners: tuple[int, ...] | None
        events: EventLog

    def __init__(
        self, observer: Observer | None, seat: int | None, values: tuple[Any, ...] | None = None
    ) -> None:
        # Every field is a property without a setter, so a view cannot be changed.
        self._observer = observer
        self._seat = seat
        self._values = values

    @property
    def seat(self) -> int | None:
        """The seat this view is of (``None``: a spectator); known before the snapshot."""
        return self._seat

    def _fill(self, values: tuple[Any, ...]) -> None:
        """Set every field, in ``FIELDS`` order (the observer calls this once)."""
        self._values = values

    def values(self) -> tuple[Any, ...]:
        """Every field at once, in ``FIELDS`` order (for code that reads them all, fast)."""
        values = self._values
        if values is None:
            observer = self._observer
            assert observer is not None
            observer.fill(self)
            values = self._values
            assert values is not None
        return values

    @property
    def filled(self) -> bool:
        return self._values is not None

    @property
    def may_speak(self) -> bool:
        """Whether this seat may speak at the table now (``engine/speech.py``: the living, but
        the government during its legislative session; a spectator only after the game)."""
        return may_speak(self, self._seat)

    def to_json(self, events: bool = True) -> dict[str, Any]:
        """The view as plain JSON values (lists, dicts); ``events=False`` leaves the log out."""
        out: dict[str, Any] = {}
        for name in FIELDS:
            if name == "events":
                if events:
                    out[name] = [thaw(e) for e in self.events]
                continue
            out[name] = thaw(getattr(self, name))
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, View):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in FIELDS)

    def __hash__(self) -> int:
        raise TypeError("a View is not hashable")

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return f"<View {who} round={self.round} phase={self.phase}>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_view, (self.to_json(),))


def _field(index: int, name: str) -> property:
    def get(self: View) -> Any:
        values = self._values
        return (values if values is not None else self.values())[index]

    get.__name__ = name
    return property(get)


for _i, _name in enumerate(FIELDS):
    if _name != "seat":
        setattr(View, _name, _field(_i, _name))


_FIELD_SET = frozenset(FIELDS)


def _rebuild_view(data: dict[str, Any]) -> View:
    """A detached copy of a pickled view (no observer behind it)."""
    values: list[Any] = []
    for name in FIELDS:
        value = data[name]
        if name == "events":
            items = [typed(e) for e in value]
            value = EventLog(items, len(items))
        elif name in ("rules", "composition") or (name == "assassination" and value is not None):
            value = freeze(value)
        elif isinstance(value, list):
            value = _tuples(value)
        values.append(value)
    return View(None, data["seat"], tuple(values))


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value
