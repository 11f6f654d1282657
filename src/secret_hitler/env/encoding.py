"""Fixed-size encodings of a seat's knowledge: the observation vectors.

An observation is a function of the seat's engine ``View`` alone (engine/view.py), so it cannot
depend on anything the seat has not observed. ``TableEncoder`` builds it incrementally for every
seat of a game at once: it reads each new event once (the history and private blocks) and the
rest from the seat's view fields. ``SeatEncoder`` runs the same code on one seat's views alone,
and ``encode_view(view)`` runs it from scratch. The engine's observer is the
only place that decides what a seat sees; nothing here reads the game.

Seats are absolute (seat ``s`` is slot ``s``) and every seat block has ``MAX_SEATS`` slots, so
the vector has the same size and meaning for 5 to 10 players. Where each field lies is
``layout.py``'s; the action space is ``actions.py``'s. This module names both again (``encoding``
is the environment's encoding, as its users and the batched engine read it: ``encoding.JA``,
``encoding.Layout``), defining neither; that list is what takes it past 600 lines, the encoders
themselves are about 500.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine import events as E
from ..engine.settings import Rules
from ..engine.view import ELECTION_FIELDS, OWN_FIELDS, TABLE_FIELDS
from ..engine.view import FIELDS as VIEW_FIELDS
from .actions import (
    ACTION_TABLE,
    ACTIONS,
    ASSASSINATE_ACTIONS,
    CLAIM_ACTION_TABLE,
    CLAIM_CHANCELLOR_HAND,
    CLAIM_INVESTIGATION,
    CLAIM_PEEK,
    CLAIM_PRESIDENT_HAND,
    DISCARD_FASCIST,
    DISCARD_LIBERAL,
    ENACT_FASCIST,
    ENACT_LIBERAL,
    EXECUTE,
    INVESTIGATE,
    JA,
    MAX_SEATS,
    NEIN,
    NOMINATE,
    NUM_ACTIONS,
    NUM_ACTIONS_WITH_CLAIMS,
    SPECIAL_ELECTION,
    VETO,
    VETO_ACCEPT,
    VETO_KEEP_FASCIST,
    VETO_KEEP_LIBERAL,
    VETO_REFUSE,
    action_index,
    action_mask,
    assassinate_base,
    claim_action,
    engine_action,
    game_type_action_table,
    num_actions,
)
from .layout import (
    CLAIM_AT,
    CLAIM_RECORD_FIELDS,
    CLAIMS_RECORD_SIZE,
    DEFAULT_HISTORY,
    DYNAMIC_FIELDS,
    GAME_TYPE_FIELDS,
    PHASE_INDEX,
    PHASES,
    POWER_INDEX,
    POWERS,
    PRIVATE_AT,
    PRIVATE_RECORD_FIELDS,
    PRIVATE_RECORD_SIZE,
    RECORD_AT,
    RECORD_FIELDS,
    RECORD_SIZE,
    ROLE_INDEX,
    ROLES,
    SPECIAL_INDEX,
    SPECIAL_ROLES,
    TOP_DECKING,
    Field,
    Layout,
    describe_layout,
    game_types_of,
    static_block,
)

if TYPE_CHECKING:
    from ..engine.observer import Observer
    from ..engine.view import View

_R, _CR, _PR = RECORD_AT, CLAIM_AT, PRIVATE_AT
_ROLE_INDEX, _PHASE_INDEX, _POWER_INDEX = ROLE_INDEX, PHASE_INDEX, POWER_INDEX

# ----------------------------------------------------------------------------- encoders
_AT = {name: i for i, name in enumerate(VIEW_FIELDS)}


class SeatEncoder:
    """The observations of one seat from its successive views alone: each event of the view's
    log is read once, by the same code ``TableEncoder`` reads every seat's events with."""

    def __init__(self, seat: int, players: int, layout: Layout) -> None:
        self.seat = seat
        self.layout = layout
        self._table = TableEncoder(players, layout)
        self._seen = 0

    def encode(self, view: View) -> np.ndarray:
        """The observation vector of ``view`` (a later view of the same seat than the last)."""
        seat = self.seat
        if view.seat != seat:
            raise ValueError(f"this encoder is for seat {seat}, not {view.seat}")
        v = view.values()
        events = v[_EVENTS]
        feed = self._table.feed
        for e in events[self._seen :]:
            feed(e, (seat,) if e.private else None)
        self._seen = len(events)
        return self._table.encode(seat, _TABLE_OF(v), _ELECTION_OF(v), _OWN_OF(v))


class TableEncoder:
    """The observations of every seat of one game, for an environment that serves them all.

    Each new event is read once for all seats, routed by the audience the engine's observer
    gives it (``Observer.events_from``), into the history block and the seats' private blocks;
    the rest of each vector comes from the fields the observer computes: the public ones,
    shared by every seat (``Observer.public``), and the seat's own (``Observer.own``). The
    vector equals the one ``encode_view`` computes from one view from scratch
    (tests/env/test_env.py); it is built for speed: every block is kept as float32 bytes,
    re-encoded only when what it shows changed, a field's bytes are looked up by its value
    (``_Pieces``), and the vector is one ``bytearray.join`` read by ``np.frombuffer`` (a new
    array each time, so a stored observation never changes), so an observation costs about a
    dozen dictionary look-ups and no NumPy arithmetic.
    """

    def __init__(self, players: int, layout: Layout, deck: int | None = None) -> None:
        self.layout = layout
        self.n = players
        self.k = layout.history
        self._cursor = 0
        self.records = 0
        self._static = b""
        # the policies of the table's deck (``Rules.deck_for``), which the pile fractions divide
        # by: given by a host that holds the rules, else read from the view's on first use
        self._deck_given = deck
        self._deck = 1
        # what comes from the last Observer.table() tuple (kept referenced, so that a new tuple
        # cannot be taken for it): the phase, whether a vote is open, and the bytes of the seat
        # sets (alive to not_hitler), the tracks, and the flags and counts that end the vector
        self._table: Any = None
        self._phase = ""
        self._voting = False
        self._seats_bytes = bytearray()
        self._tracks_bytes = self._rest_bytes = b""
        rel = layout.rel
        self._own_at = rel("own_history", "private")
        # the head of each seat's private block (seat, role, known roles, investigations, peek;
        # changes rarely), its bytes, and the role, known roles and investigations they show
        self.private = [array("f", bytes(4 * self._own_at)) for _ in range(players)]
        self._head_bytes: list[bytes | None] = [None] * players
        self._seen: list[tuple[Any, Any, Any]] = [(None, None, None)] * players
        # the rest, each seat's own history, as bytes, and the number of nominations it is up
        # to: it shifts by a row at every nomination, done when the seat is next observed or
        # learns something (``_own_history``), not for every seat at every nomination
        self._own_zero = bytes(4 * PRIVATE_RECORD_SIZE * self.k)
        self._own_bytes = [self._own_zero] * players
        self._own_records = [0] * players
        self.hist = array("f", bytes(4 * layout.block_size("history")))
        self._hist_bytes: bytes | None = None
        self._seat_at = rel("seat", "private")
        self._role_at = rel("role", "private")
        self._known_at = rel("known_roles", "private")
        self._inv_at = rel("investigations", "private")
        self._peek_at = rel("peek", "private")
        for s in range(players):
            self.private[s][self._seat_at + s] = 1.0
        self._join = bytearray().join
        # the game types' block (``layout.game_types``): its static and dynamic parts from the
        # table, each seat's private part and the own fields it shows
        self._game_types = layout.game_types
        self._types_static = self._types_dynamic = b""
        self._types_private: list[bytes | None] = [None] * players
        self._types_seen: list[tuple[Any, ...]] = [(None,) * 4] * players
        self.handlers: dict[str, Callable[[Any, Any], None]] = {
            E.Nominated.kind: self._nominated,
            E.Votes.kind: self._votes,
            E.Enacted.kind: self._enacted,
            E.Veto.kind: self._veto,
            E.PowerUsed.kind: self._power,
            E.Investigated.kind: self._target,
            E.SpecialElection.kind: self._target,
            E.Executed.kind: self._target,
            E.Drew.kind: self._drew,
            E.Passed.kind: self._passed,
            E.Received.kind: self._passed,
            E.Peek.kind: self._peek_event,
        }
        self._row = layout.record_size
        self._zero_row = array("f", bytes(4 * self._row))
        if layout.claims:
            # the nomination (``records`` then) of the round each claim is about: the last
            # session for the hand claims, each seat's last peek and investigation
            self._session_at = 0
            self._peek_at_record = [0] * players
            self._investigation_at = [0] * players
            self.handlers.update(
                {
                    E.LegislativeSession.kind: self._session,
                    E.Claimed.kind: self._claim,
                    E.Investigated.kind: self._investigated,
                }
            )

    # -- events
    def feed(self, event: E.TypedEvent, audience: Sequence[int] | None) -> None:
        """One event of the log, with the seats that observe it (``None``: everyone)."""
        handler = self.handlers.get(event.kind)
        if handler is not None:
            handler(event, audience)

    def sync(self, observer: Observer) -> Observer:
        """Read the events logged since the last call; returns ``observer``."""
        new = observer.events_from(self._cursor)
        if new:
            get = self.handlers.get
            for e in new:
                handler = get(e.type)
                if handler is not None:
                    handler(e.json, e.audience)
            self._cursor += len(new)
        return observer

    def observe(self, seat: int, observer: Observer) -> np.ndarray:
        """The observation vector of ``seat`` now, from ``observer``'s new events and fields."""
        self.sync(observer)
        return self.encode(seat, observer.table(), observer.election(), observer.own(seat))

    def _nominated(self, e: E.Nominated, _aud: Any) -> None:
        self.records += 1
        k = self.k
        if not k:
            return
        h, r = self.hist, self._row
        h[r:] = h[:-r]
        h[:r] = self._zero_row
        h[_R["valid"]] = 1.0
        h[_R["president"] + e.president] = 1.0
        h[_R["chancellor"] + e.chancellor] = 1.0
        self._hist_bytes = None

    def _set(self, index: int) -> None:
        if self.k and self.records:
            self.hist[index] = 1.0
            self._hist_bytes = None

    def _votes(self, e: E.Votes, _aud: Any) -> None:
        if not (self.k and self.records):
            return
        h = self.hist
        ja, nein = _R["ja"], _R["nein"]
        for s, v in enumerate(e.votes):
            if v is True:
                h[ja + s] = 1.0
            elif v is False:
                h[nein + s] = 1.0
        if e.passed:
            h[_R["elected"]] = 1.0
        self._hist_bytes = None

    def _enacted(self, e: E.Enacted, _aud: Any) -> None:
        i = 0 if e.policy == "liberal" else 1
        self._set((_R["chaos"] if e.chaos else _R["enacted"]) + i)

    def _veto(self, e: E.Veto, _aud: Any) -> None:
        self._set(_R["vetoed"] if e.accepted else _R["veto_refused"])

    def _power(self, e: E.PowerUsed, _aud: Any) -> None:
        self._set(_R["power"] + _POWER_INDEX[e.power])
        if e.power == "peek" and self.layout.claims:
            self._peek_at_record[e.president] = self.records

    # -- claims (``layout.claims``): each in the row of the round it is about
    def _session(self, _e: E.LegislativeSession, _aud: Any) -> None:
        self._session_at = self.records

    def _investigated(self, e: E.Investigated, aud: Any) -> None:
        self._target(e, aud)
        self._investigation_at[e.president] = self.records

    def _claim(self, e: E.Claimed, _aud: Any) -> None:
        seat, subject = e.seat, e.subject
        if subject == "investigation":
            at = self._investigation_at[seat]
            index = _CR["investigation_claim"] + (e.party != "liberal")
        elif subject == "peek":
            at = self._peek_at_record[seat]
            index = _CR["peek_claim"]
            for i, p in enumerate(e.policies or ()):
                self._set_at(at, index + 2 * i + (p != "liberal"))
            return
        else:
            at = self._session_at
            liberals = sum(1 for p in e.policies or () if p == "liberal")
            field = "president_claim" if subject == "president_hand" else "chancellor_claim"
            index = _CR[field] + liberals
        self._set_at(at, index)

    def _set_at(self, record: int, index: int) -> None:
        """Set ``index`` in the row of nomination ``record`` (1 the first), if still shown."""
        row = self.records - record
        if 0 <= row < self.k:
            self.hist[row * self._row + index] = 1.0
            self._hist_bytes = None

    def _target(self, e: E.Investigated | E.SpecialElection | E.Executed, _aud: Any) -> None:
        self._set(_R["target"] + e.target)

    def _own(self, policies: Sequence[str], aud: Sequence[int] | None, field: str) -> None:
        if self.k and self.records and aud:
            libs = sum(1 for p in policies if p == "liberal")
            at = _PR[field] + libs
            for s in aud:
                newest = array("f", self._own_history(s)[:_OWN_ROW_BYTES])
                newest[at] = 1.0
                self._own_bytes[s] = newest.tobytes() + self._own_bytes[s][_OWN_ROW_BYTES:]

    def _own_history(self, seat: int) -> bytes:
        """``seat``'s own history, shifted by a row for each nomination since it was last."""
        own = self._own_bytes[seat]
        shift = (self.records - self._own_records[seat]) * _OWN_ROW_BYTES
        if shift:
            own = self._own_bytes[seat] = (self._own_zero[:shift] + own)[: len(own)]
            self._own_records[seat] = self.records
        return own

    def _drew(self, e: E.Drew, aud: Sequence[int] | None) -> None:
        self._own(e.policies, aud, "drew_liberals")

    def _passed(self, e: E.Passed | E.Received, aud: Sequence[int] | None) -> None:
        self._own(e.policies, aud, "passed_liberals")

    def _peek_event(self, e: E.Peek, aud: Sequence[int] | None) -> None:
        at = self._peek_at
        for s in aud or ():
            row = self.private[s]
            row[at : at + 6] = _ZERO_PEEK
            for i, p in enumerate(e.policies[:3]):
                row[at + 2 * i + (0 if p == "liberal" else 1)] = 1.0
            self._head_bytes[s] = None

    # -- fields
    def _head_of(self, seat: int, own: tuple[Any, ...]) -> bytes:
        """The seat's private block up to its own history; role, known roles and
        investigations from its own fields (``Observer.own``)."""
        role, known, inv = own[_ROLE], own[_KNOWN], own[_INVESTIGATIONS]
        row = self.private[seat]
        at = self._role_at
        row[at : at + 3] = _ZERO_ROLE
        if role is not None:
            row[at + _ROLE_INDEX[role]] = 1.0
        at = self._known_at
        row[at : at + 3 * MAX_SEATS] = _ZERO_KNOWN
        for s, r in enumerate(known):
            if r is not None:
                row[at + 3 * s + _ROLE_INDEX[r]] = 1.0
        at = self._inv_at
        row[at : at + 2 * MAX_SEATS] = _ZERO_INVESTIGATIONS
        for target, party in inv:
            row[at + 2 * target + (0 if party == "liberal" else 1)] = 1.0
        self._seen[seat] = (role, known, inv)
        out = self._head_bytes[seat] = row.tobytes()
        return out

    def encode(
        self, seat: int, table: tuple[Any, ...], election: tuple[Any, ...], own: tuple[Any, ...]
    ) -> np.ndarray:
        """The observation vector of ``seat`` after ``sync``, from the public fields
        (``Observer.table`` and ``Observer.election``) and its own (``Observer.own``). What
        comes from ``table`` alone is kept while the same tuple object comes back (the
        observer's stays the same through the votes of an election)."""
        if table is not self._table:
            self._take_table(table)
        # the head is rebuilt only when the observer hands out a new role, known-roles or
        # investigations object (it replaces them only when the seat learns something)
        head = self._head_bytes[seat]
        seen = self._seen[seat]
        if (
            head is None
            or own[_KNOWN] is not seen[1]
            or own[_INVESTIGATIONS] is not seen[2]
            or own[_ROLE] is not seen[0]
        ):
            head = self._head_of(seat, own)
        if self._own_records[seat] == self.records:
            own_history = self._own_bytes[seat]
        else:
            own_history = self._own_history(seat)
        hist = self._hist_bytes
        if hist is None:
            hist = self._hist_bytes = self.hist.tobytes()
        to_act, voted = election
        types = self._types_bytes(seat, own) if self._game_types else b""
        return np.frombuffer(
            self._join(
                (
                    self._static,
                    head,
                    own_history,
                    hist,
                    _turns((self._phase, seat in to_act, to_act)),
                    self._seats_bytes,
                    _flags(voted) if self._voting else _TEN_ZEROS,
                    _votes(own[_VOTES]),
                    self._tracks_bytes,
                    _hand(own[_HAND]),
                    self._rest_bytes,
                    types,
                )
            ),
            _FLOAT32,
        )

    def _types_bytes(self, seat: int, own: tuple[Any, ...]) -> bytes:
        """The ``game_types`` block of ``seat``: the table's parts (``_take_table``) around the
        seat's own, rebuilt only when the observer hands out a new role, known roles, known
        parties or Merlin candidates object."""
        seen = (own[_ROLE], own[_KNOWN], own[_KNOWN_PARTIES], own[_CANDIDATES])
        private = self._types_private[seat]
        held = self._types_seen[seat]
        if private is None or any(a is not b for a, b in zip(seen, held, strict=True)):
            private = self._types_private[seat] = _float32(_types_private_slots(*seen))
            self._types_seen[seat] = seen
        return self._types_static + private + self._types_dynamic

    def _take_table(self, pub: tuple[Any, ...]) -> None:
        """Keep what comes from an ``Observer.table()`` tuple (``pub``)."""
        if not self._static:
            block = static_block(self.layout, pub[_PLAYERS], pub[_BOARD], pub[_HZ], pub[_VZ])
            self._static = block.tobytes()
            self._deck = self._deck_given or _deck_size(pub[_RULES], pub[_PLAYERS])
            if self._game_types:
                self._types_static = _float32(
                    _types_static_slots(pub[_COMPOSITION], pub[_RULES]["top_decking"])
                )
        if self._game_types:
            self._types_dynamic = _float32(
                [float(pub[_PHASE] == _ASSASSINATE), float(bool(pub[_TOP_DECK_FORBIDDEN]))]
            )
        self._table = pub
        self._phase = phase = pub[_PHASE]
        self._voting = phase == "vote"
        self._seats_bytes = self._join(  # (a bytearray, only ever joined)
            (
                _flags(pub[_ALIVE]),
                _offices(pub[_CANDIDATE:_OFFICES_END]),
                _seats(pub[_TERM_LIMITED]),
                _flags(pub[_INVESTIGATED]),
                _seats(pub[_NOT_HITLER]),
            )
        )
        self._tracks_bytes = _tracks(pub[_LIBERAL:_TRACKS_END])
        self._rest_bytes = _states(
            (pub[_VETO_AVAILABLE], pub[_VETO_PROPOSED], pub[_ZONE_ACTIVE], pub[_WINNER])
        ) + _counts((pub[_DRAW], pub[_DISCARD], min(pub[_ROUND], 32), self._deck))


def _float32(values: Sequence[float]) -> bytes:
    return array("f", values).tobytes()


_FLOAT32 = np.dtype(np.float32)  # a dtype object: np.frombuffer converts a type on every call
_TEN_ZEROS = _float32([0.0] * MAX_SEATS)
_OWN_ROW_BYTES = 4 * PRIVATE_RECORD_SIZE
_ZERO_PEEK = array("f", bytes(4 * 6))
_ZERO_ROLE = array("f", bytes(4 * 3))
_ZERO_KNOWN = array("f", bytes(4 * 3 * MAX_SEATS))
_ZERO_INVESTIGATIONS = array("f", bytes(4 * 2 * MAX_SEATS))


class _Pieces(dict[Any, bytes]):
    """Float32 bytes of one field (or a few adjacent fields) by value, computed on first use.

    The keys are view values (tuples of seats, flags or votes of at most 10 seats, small ints;
    the round capped where its feature saturates), so every table is bounded whatever the
    number of games played: at most 3**10 entries for votes, 2**10 for a set of seats, and a
    few thousand for the others (9 * 2 * 2**10 for phase, turn and seats to act); shared by
    every environment of the process.
    """

    __slots__ = ("_build",)

    def __init__(self, build: Any) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: Any) -> bytes:
        out = self[key] = _float32(self._build(key))
        return out


def _seat_slots(seats: Sequence[int]) -> list[float]:
    out = [0.0] * MAX_SEATS
    for s in seats:
        out[s] = 1.0
    return out


def _flag_slots(flags: Sequence[bool]) -> list[float]:
    return [1.0 if f else 0.0 for f in flags] + [0.0] * (MAX_SEATS - len(flags))


def _one_hot(size: int, index: int | None) -> list[float]:
    out = [0.0] * size
    if index is not None:
        out[index] = 1.0
    return out


def _turn_slots(key: tuple[str, bool, tuple[int, ...]]) -> list[float]:
    phase, mine, to_act = key  # (the assassination has no place in the phase one-hot)
    return _one_hot(len(PHASES), _PHASE_INDEX.get(phase)) + [float(mine)] + _seat_slots(to_act)


def _types_static_slots(composition: Any, top_decking: str) -> list[float]:
    """The ``game_types`` block's table part: the game types' roles dealt, the top-decking."""
    dealt = [1.0 if role in composition else 0.0 for role in SPECIAL_ROLES]
    return dealt + _one_hot(len(TOP_DECKING), TOP_DECKING.index(top_decking))


def _types_private_slots(
    role: str | None,
    known: Sequence[str | None],
    parties: Sequence[str | None],
    candidates: Sequence[int] | None,
) -> list[float]:
    """The ``game_types`` block's part of one seat: its own role and the roles it knows when
    they are the game types', the parties it knows, Percival's pair."""
    width = len(SPECIAL_ROLES)
    out = _one_hot(width, SPECIAL_INDEX.get(role or ""))
    known_special = [0.0] * (MAX_SEATS * width)
    for s, r in enumerate(known):
        index = SPECIAL_INDEX.get(r or "")
        if index is not None:
            known_special[width * s + index] = 1.0
    known_parties = [0.0] * (MAX_SEATS * 2)
    for s, party in enumerate(parties):
        if party is not None:
            known_parties[2 * s + (party != "liberal")] = 1.0
    return out + known_special + known_parties + _seat_slots(candidates or ())


def _vote_slots(votes: Sequence[bool | None]) -> list[float]:
    return _seat_slots([s for s, v in enumerate(votes) if v is True]) + _seat_slots(
        [s for s, v in enumerate(votes) if v is False]
    )


def _office_slots(seats: tuple[int | None, ...]) -> list[float]:
    out: list[float] = []
    for s in seats:
        out += _one_hot(MAX_SEATS, s)
    return out


def _track_slots(key: tuple[int, int, int]) -> list[float]:
    liberal, fascist, tracker = key
    return (
        _one_hot(6, min(liberal, 5)) + _one_hot(7, min(fascist, 6)) + _one_hot(3, min(tracker, 2))
    )


def _hand_slots(hand: Sequence[str]) -> list[float]:
    liberal = sum(1 for p in hand if p == "liberal")
    return _one_hot(4, liberal) + _one_hot(4, len(hand) - liberal)


def _state_slots(key: tuple[Any, ...]) -> list[float]:
    veto_available, veto_proposed, zone, winner = key
    out = [float(bool(veto_available)), float(bool(veto_proposed)), float(bool(zone))]
    return out + _one_hot(2, None if winner is None else (0 if winner == "liberal" else 1))


def _count_slots(key: tuple[int, int, int, int]) -> list[float]:
    draw, discard, round_, deck = key
    return [draw / deck, discard / deck, min(round_ / 32.0, 1.0)]


# bound ``dict.__getitem__`` (C level; ``__missing__`` fills a new key)
_seats = _Pieces(_seat_slots).__getitem__
_turns = _Pieces(_turn_slots).__getitem__
_flags = _Pieces(_flag_slots).__getitem__
_votes = _Pieces(_vote_slots).__getitem__
_offices = _Pieces(_office_slots).__getitem__
_tracks = _Pieces(_track_slots).__getitem__
_hand = _Pieces(_hand_slots).__getitem__
_states = _Pieces(_state_slots).__getitem__
_counts = _Pieces(_count_slots).__getitem__

#: The dynamic fields in the order ``TableEncoder.encode`` joins its pieces (checked below).
_JOIN_ORDER = (
    ("phase", "my_turn", "to_act"),
    ("alive",),
    ("candidate", "nominee", "president", "chancellor"),
    ("term_limited",),
    ("investigated",),
    ("not_hitler",),
    ("voted",),
    ("votes_ja", "votes_nein"),
    ("liberal_policies", "fascist_policies", "election_tracker"),
    ("hand_liberal", "hand_fascist"),
    ("veto_available", "veto_proposed", "hitler_zone_active", "winner"),
    ("draw_pile", "discard_pile", "round"),
)
assert [f for group in _JOIN_ORDER for f in group] == [name for name, _, _ in DYNAMIC_FIELDS]


_TAB = {name: i for i, name in enumerate(TABLE_FIELDS)}
_OWN = {name: i for i, name in enumerate(OWN_FIELDS)}
#: ``View.values()`` (``FIELDS`` order) to the ``Observer.table``, ``Observer.election`` and
#: ``Observer.own`` tuples
_TABLE_OF = itemgetter(*(_AT[name] for name in TABLE_FIELDS))
_ELECTION_OF = itemgetter(*(_AT[name] for name in ELECTION_FIELDS))
_OWN_OF = itemgetter(*(_AT[name] for name in OWN_FIELDS))
assert ELECTION_FIELDS == ("to_act", "voted")  # ``encode`` unpacks it so
_EVENTS = _AT["events"]
_PHASE, _HZ, _ZONE_ACTIVE = _TAB["phase"], _TAB["hitler_zone"], _TAB["hitler_zone_active"]
_PLAYERS, _BOARD, _VZ, _RULES = _TAB["players"], _TAB["board"], _TAB["veto_zone"], _TAB["rules"]
_ROLE, _KNOWN, _INVESTIGATIONS = _OWN["role"], _OWN["known_roles"], _OWN["investigations"]
_KNOWN_PARTIES, _CANDIDATES = _OWN["known_parties"], _OWN["merlin_candidates"]
_COMPOSITION, _TOP_DECK_FORBIDDEN = _TAB["composition"], _TAB["top_deck_forbidden"]
_ASSASSINATE = "assassinate"
_VOTES, _HAND = _OWN["votes"], _OWN["hand"]
_ALIVE, _TERM_LIMITED = _TAB["alive"], _TAB["term_limited"]
# candidate, nominee, president, chancellor are adjacent (one slice); so are the three tracks
_CANDIDATE, _OFFICES_END = _TAB["candidate"], _TAB["chancellor"] + 1
assert _OFFICES_END - _CANDIDATE == 4 and _TAB["nominee"] == _CANDIDATE + 1
_LIBERAL, _TRACKS_END = _TAB["liberal_policies"], _TAB["election_tracker"] + 1
assert _TRACKS_END - _LIBERAL == 3 and _TAB["fascist_policies"] == _LIBERAL + 1
_INVESTIGATED, _NOT_HITLER = _TAB["investigated"], _TAB["not_hitler"]
_VETO_AVAILABLE, _VETO_PROPOSED, _WINNER = (
    _TAB["veto_available"],
    _TAB["veto_proposed"],
    _TAB["winner"],
)
_DRAW, _DISCARD, _ROUND = _TAB["draw_pile"], _TAB["discard_pile"], _TAB["round"]


def encode_view(
    view: View, history: int = DEFAULT_HISTORY, layout: Layout | None = None
) -> np.ndarray:
    """The observation vector of ``view.seat``, computed from the view alone, from scratch
    (by default in the layout its rules need: ``game_types_of``)."""
    if view.seat is None:
        raise ValueError("a spectator view has no seat to encode")
    if layout is None:
        layout = Layout(history, game_types=game_types_of(Rules.from_json(dict(view.rules))))
    return SeatEncoder(view.seat, view.players, layout).encode(view)


def _deck_size(rules: Any, players: int) -> int:
    """The policies a table of ``players`` starts its draw pile with, as the engine resolves
    them (a rebalanced table's deck, ``Rules.deck_for``): what the pile fractions divide by."""
    parsed = rules if isinstance(rules, Rules) else Rules.from_json(dict(rules))
    return max(1, sum(parsed.deck_for(players)))


__all__ = [
    "ACTIONS",
    "ACTION_TABLE",
    "ASSASSINATE_ACTIONS",
    "GAME_TYPE_FIELDS",
    "SPECIAL_ROLES",
    "TOP_DECKING",
    "CLAIMS_RECORD_SIZE",
    "CLAIM_ACTION_TABLE",
    "CLAIM_CHANCELLOR_HAND",
    "CLAIM_INVESTIGATION",
    "CLAIM_PEEK",
    "CLAIM_PRESIDENT_HAND",
    "CLAIM_RECORD_FIELDS",
    "DEFAULT_HISTORY",
    "DISCARD_FASCIST",
    "DISCARD_LIBERAL",
    "ENACT_FASCIST",
    "ENACT_LIBERAL",
    "EXECUTE",
    "INVESTIGATE",
    "JA",
    "MAX_SEATS",
    "NEIN",
    "NOMINATE",
    "NUM_ACTIONS",
    "NUM_ACTIONS_WITH_CLAIMS",
    "PHASES",
    "POWERS",
    "PRIVATE_RECORD_FIELDS",
    "PRIVATE_RECORD_SIZE",
    "RECORD_FIELDS",
    "RECORD_SIZE",
    "ROLES",
    "SPECIAL_ELECTION",
    "VETO",
    "VETO_ACCEPT",
    "VETO_KEEP_FASCIST",
    "VETO_KEEP_LIBERAL",
    "VETO_REFUSE",
    "Field",
    "Layout",
    "SeatEncoder",
    "TableEncoder",
    "action_index",
    "action_mask",
    "assassinate_base",
    "claim_action",
    "describe_layout",
    "encode_view",
    "engine_action",
    "game_type_action_table",
    "game_types_of",
    "num_actions",
]
