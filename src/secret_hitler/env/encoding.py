"""Fixed-size encodings of a seat's knowledge and of the action space.

An observation is a function of the seat's engine ``View`` alone (engine/view.py), so it cannot
depend on anything the seat has not observed. ``TableEncoder`` builds it incrementally for every
seat of a game at once: it reads each new event once (the history and private blocks) and the
rest from the seat's view fields. ``SeatEncoder`` runs the same code on one seat's views alone,
and ``encode_view(view)`` runs it from scratch. The engine's observer is the
only place that decides what a seat sees; nothing here reads the game.

Seats are absolute (seat ``s`` is slot ``s``) and every seat block has ``MAX_SEATS`` slots, so
the vector has the same size and meaning for 5 to 10 players.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine import actions as A
from ..engine import events as E
from ..engine.actions import Action
from ..engine.settings import MAX_PLAYERS
from ..engine.types import Party, Phase, Policy
from ..engine.view import ELECTION_FIELDS, OWN_FIELDS, TABLE_FIELDS
from ..engine.view import FIELDS as VIEW_FIELDS

if TYPE_CHECKING:
    from ..engine.observer import Observer
    from ..engine.view import View

MAX_SEATS = MAX_PLAYERS  # seats are absolute slots of the largest table
DEFAULT_HISTORY = 8

ROLES = ("liberal", "fascist", "hitler")
# Avalon SH's assassination is not encoded yet (the environment plays the official roles;
# issue 41 point 3), so the layout stays that of the official phases.
_ENCODED_PHASES = tuple(p for p in Phase if p is not Phase.ASSASSINATE)
PHASES = tuple(p.value for p in _ENCODED_PHASES)
POWERS = ("investigate", "special_election", "peek", "execute")
_ROLE_INDEX = {r: i for i, r in enumerate(ROLES)}
_PHASE_INDEX: dict[Any, int] = {}
for _i, _p in enumerate(_ENCODED_PHASES):
    _PHASE_INDEX[_p] = _i  # enum members hash by name, so index both spellings
    _PHASE_INDEX[_p.value] = _i
_POWER_INDEX = {p: i for i, p in enumerate(POWERS)}

# ----------------------------------------------------------------------------- action space
NOMINATE = 0  # + target seat
JA = NOMINATE + MAX_SEATS
NEIN = 11
DISCARD_LIBERAL = 12
DISCARD_FASCIST = 13
ENACT_LIBERAL = 14
ENACT_FASCIST = 15
VETO = 16  # propose a veto (presets where the veto names no policy)
VETO_KEEP_LIBERAL = 17  # propose a veto, enact liberal if refused (veto_after_choice presets)
VETO_KEEP_FASCIST = 18  # propose a veto, enact fascist if refused (veto_after_choice presets)
VETO_ACCEPT = 19
VETO_REFUSE = 20
INVESTIGATE = 21  # + target seat
SPECIAL_ELECTION = 31  # + target seat
EXECUTE = 41  # + target seat
NUM_ACTIONS = 51
# Claims (``claims=True`` only; RULES.md A9, docs/engine.md "Claims"): optional statements the
# engine offers beside a seat's move while its window is open; a claim leaves the turn with
# the claimant, who then still makes its move.
CLAIM_PRESIDENT_HAND = 51  # + liberals among the 3 the president says he drew
CLAIM_CHANCELLOR_HAND = 55  # + liberals among the 2 the chancellor says he received
CLAIM_PEEK = 58  # + the 3 policies said peeked, as bits top first (bit i: i-th is fascist)
CLAIM_INVESTIGATION = 66  # + the party said found: 0 liberal, 1 fascist
NUM_ACTIONS_WITH_CLAIMS = 68

ACTION_TABLE: tuple[tuple[str, int, int, str], ...] = (
    ("nominate", NOMINATE, MAX_SEATS, "candidate nominates seat i as chancellor"),
    ("ja", JA, 1, "vote Ja"),
    ("nein", NEIN, 1, "vote Nein"),
    ("discard_liberal", DISCARD_LIBERAL, 1, "president discards a liberal policy"),
    ("discard_fascist", DISCARD_FASCIST, 1, "president discards a fascist policy"),
    ("enact_liberal", ENACT_LIBERAL, 1, "chancellor enacts a liberal policy"),
    ("enact_fascist", ENACT_FASCIST, 1, "chancellor enacts a fascist policy"),
    ("veto", VETO, 1, "chancellor proposes a veto"),
    (
        "veto_keep_liberal",
        VETO_KEEP_LIBERAL,
        1,
        "veto; liberal enacted if refused (veto_after_choice)",
    ),
    (
        "veto_keep_fascist",
        VETO_KEEP_FASCIST,
        1,
        "veto; fascist enacted if refused (veto_after_choice)",
    ),
    ("veto_accept", VETO_ACCEPT, 1, "president consents to the veto"),
    ("veto_refuse", VETO_REFUSE, 1, "president refuses the veto"),
    ("investigate", INVESTIGATE, MAX_SEATS, "president investigates seat i"),
    ("special_election", SPECIAL_ELECTION, MAX_SEATS, "president makes seat i the next candidate"),
    ("execute", EXECUTE, MAX_SEATS, "president executes seat i"),
)
#: The claim blocks that follow with ``claims=True`` (same columns as ``ACTION_TABLE``).
CLAIM_ACTION_TABLE: tuple[tuple[str, int, int, str], ...] = (
    (
        "claim_president_hand",
        CLAIM_PRESIDENT_HAND,
        4,
        "the last president claims i liberals among the 3 he drew",
    ),
    (
        "claim_chancellor_hand",
        CLAIM_CHANCELLOR_HAND,
        3,
        "the last chancellor claims i liberals among the 2 he received",
    ),
    (
        "claim_peek",
        CLAIM_PEEK,
        8,
        "the peeking president claims the top 3: bit j of i set if the j-th from the top is fascist",
    ),
    (
        "claim_investigation",
        CLAIM_INVESTIGATION,
        2,
        "the investigator claims the party found: liberal, fascist",
    ),
)


def num_actions(claims: bool = False) -> int:
    """The size of the action space, with or without the claim blocks."""
    return NUM_ACTIONS_WITH_CLAIMS if claims else NUM_ACTIONS


_L, _F = Policy.LIBERAL, Policy.FASCIST
_TARGET_BASE = {
    A.NOMINATE: NOMINATE,
    A.INVESTIGATE: INVESTIGATE,
    A.SPECIAL_ELECTION: SPECIAL_ELECTION,
    A.EXECUTE: EXECUTE,
}


def action_index(action: Action, claims: bool = False) -> int:
    """The Discrete index of an engine action; for a claim, its index in the claim blocks
    with ``claims=True``, else -1 (not in the action space)."""
    kind = action.type
    if kind == A.VOTE:  # the commonest (most steps are votes)
        return JA if action.ja else NEIN
    base = _TARGET_BASE.get(kind)
    if base is not None:
        return base + action.target  # type: ignore[operator]
    if kind == A.DISCARD:
        return DISCARD_LIBERAL if action.policy is _L else DISCARD_FASCIST
    if kind == A.ENACT:
        return ENACT_LIBERAL if action.policy is _L else ENACT_FASCIST
    if kind == A.VETO:
        if action.policy is None:
            return VETO
        return VETO_KEEP_LIBERAL if action.policy is _L else VETO_KEEP_FASCIST
    if kind == A.VETO_RESPONSE:
        return VETO_ACCEPT if action.accept else VETO_REFUSE
    if kind == A.CLAIM and claims:
        return _claim_index(action)
    return -1


def _claim_index(action: Action) -> int:
    subject = action.subject
    if subject == A.CLAIM_INVESTIGATION:
        return CLAIM_INVESTIGATION + (action.party is not Party.LIBERAL)
    policies = action.policies or ()
    if subject == A.CLAIM_PEEK:
        return CLAIM_PEEK + sum(1 << i for i, p in enumerate(policies) if p is _F)
    liberals = sum(1 for p in policies if p is _L)
    base = CLAIM_PRESIDENT_HAND if subject == A.CLAIM_PRESIDENT_HAND else CLAIM_CHANCELLOR_HAND
    return base + liberals


def claim_action(seat: int, index: int, investigated: int | None = None) -> Action:
    """The engine claim a claim index stands for (hands as fascist-first multisets, as the
    engine lists them); an investigation claim names ``investigated``, the seat the claimant
    investigated last (the one its window is about)."""
    if CLAIM_INVESTIGATION <= index < NUM_ACTIONS_WITH_CLAIMS:
        if investigated is None:
            raise ValueError("an investigation claim needs the investigated seat")
        party = Party.LIBERAL if index == CLAIM_INVESTIGATION else Party.FASCIST
        return Action.claim_investigation(seat, investigated, party)
    if CLAIM_PEEK <= index < CLAIM_INVESTIGATION:
        bits = index - CLAIM_PEEK
        peek = [_F if (bits >> i) & 1 else _L for i in range(3)]
        return Action.claim_policies(seat, A.CLAIM_PEEK, peek)
    if CLAIM_PRESIDENT_HAND <= index < CLAIM_PEEK:
        president = index < CLAIM_CHANCELLOR_HAND
        size, liberals = (
            (3, index - CLAIM_PRESIDENT_HAND) if president else (2, index - CLAIM_CHANCELLOR_HAND)
        )
        subject = A.CLAIM_PRESIDENT_HAND if president else A.CLAIM_CHANCELLOR_HAND
        return Action.claim_policies(seat, subject, [_F] * (size - liberals) + [_L] * liberals)
    raise ValueError(f"{index} is not a claim index")


def _actions_for(seat: int) -> tuple[Action, ...]:
    out: list[Action] = [Action.nominate(seat, t) for t in range(MAX_SEATS)]
    out += [Action.vote(seat, True), Action.vote(seat, False)]
    out += [Action.discard(seat, _L), Action.discard(seat, _F)]
    out += [Action.enact(seat, _L), Action.enact(seat, _F)]
    out += [Action.veto(seat), Action.veto(seat, _L), Action.veto(seat, _F)]
    out += [Action.veto_response(seat, True), Action.veto_response(seat, False)]
    out += [Action.investigate(seat, t) for t in range(MAX_SEATS)]
    out += [Action.special_election(seat, t) for t in range(MAX_SEATS)]
    out += [Action.execute(seat, t) for t in range(MAX_SEATS)]
    return tuple(out)


#: ``ACTIONS[seat][index]``: the engine action a Discrete index stands for.
ACTIONS: tuple[tuple[Action, ...], ...] = tuple(_actions_for(s) for s in range(MAX_SEATS))


def action_mask(legal: Sequence[Action], claims: bool = False) -> np.ndarray:
    """int8 mask over the action space; claims are left out unless ``claims``."""
    mask = np.zeros(num_actions(claims), dtype=np.int8)
    idx = [i for i in (action_index(a, claims) for a in legal) if i >= 0]
    if idx:
        mask[idx] = 1
    return mask


# ----------------------------------------------------------------------------- layout
@dataclass(frozen=True, slots=True)
class Field:
    name: str
    offset: int
    size: int
    doc: str


#: History record (one per nomination, newest first): field name, size, doc.
RECORD_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("valid", 1, "1 if this row holds a nomination"),
    ("president", MAX_SEATS, "presidential candidate one-hot"),
    ("chancellor", MAX_SEATS, "nominee one-hot"),
    ("ja", MAX_SEATS, "seats that voted Ja (revealed votes)"),
    ("nein", MAX_SEATS, "seats that voted Nein"),
    ("elected", 1, "the vote passed"),
    ("enacted", 2, "policy the government enacted: liberal, fascist"),
    ("veto_refused", 1, "a veto was proposed and refused"),
    ("vetoed", 1, "a veto was proposed and accepted"),
    ("chaos", 2, "policy enacted by chaos after this round: liberal, fascist"),
    ("power", 4, "power used this round: investigate, special_election, peek, execute"),
    ("target", MAX_SEATS, "target of that power"),
)
#: Private part of a history record: only what this seat saw of that session.
PRIVATE_RECORD_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("drew_liberals", 4, "as president: liberal policies among the 3 drawn, one-hot 0-3"),
    ("passed_liberals", 3, "as president or chancellor: liberals among the 2 passed, one-hot 0-2"),
)


#: With ``claims=True`` each history row goes on with the claims made about its round (zeros
#: until made; a claim about a round older than the history is not shown).
CLAIM_RECORD_FIELDS: tuple[tuple[str, int, str], ...] = (
    (
        "president_claim",
        4,
        "the president's claim of the 3 he drew in this session: liberals, one-hot 0-3",
    ),
    (
        "chancellor_claim",
        3,
        "the chancellor's claim of the 2 he received: liberals, one-hot 0-2",
    ),
    (
        "peek_claim",
        3 * 2,
        "the claim of this round's Policy Peek, top first, each one-hot liberal/fascist",
    ),
    (
        "investigation_claim",
        2,
        "the party claimed for this round's investigation: liberal, fascist",
    ),
)


def _offsets(
    fields: tuple[tuple[str, int, str], ...], start: int = 0
) -> tuple[dict[str, int], int]:
    out, off = {}, start
    for name, size, _ in fields:
        out[name] = off
        off += size
    return out, off


_R, RECORD_SIZE = _offsets(RECORD_FIELDS)
_CR, CLAIMS_RECORD_SIZE = _offsets(CLAIM_RECORD_FIELDS, RECORD_SIZE)
_PR, PRIVATE_RECORD_SIZE = _offsets(PRIVATE_RECORD_FIELDS)

_STATIC = (
    ("players", MAX_SEATS, "1 for each seat at the table (seat < players)"),
    (
        "board",
        5 * 4,
        "power of fascist slots 1-5, each one-hot investigate/special_election/peek/execute",
    ),
    ("hitler_zone", 6, "fascist policies from which electing Hitler wins, one-hot 1-6"),
    ("veto_zone", 6, "fascist policies from which the veto is unlocked, one-hot 1-6"),
)
_PRIVATE = (
    ("seat", MAX_SEATS, "own seat one-hot"),
    ("role", 3, "own role one-hot: liberal, fascist, hitler"),
    (
        "known_roles",
        MAX_SEATS * 3,
        "per seat, role this seat knows (own, night, reveals, game end); zeros if unknown",
    ),
    (
        "investigations",
        MAX_SEATS * 2,
        "per seat, party this seat learned by investigating it: liberal, fascist",
    ),
    ("peek", 3 * 2, "last Policy Peek this seat made, top first, each one-hot liberal/fascist"),
)
_DYNAMIC = (
    ("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES)),
    ("my_turn", 1, "1 if the engine waits for this seat (in a vote: every seat yet to vote)"),
    ("to_act", MAX_SEATS, "seats the game waits for"),
    ("alive", MAX_SEATS, "living seats"),
    ("candidate", MAX_SEATS, "presidential candidate (president in office during a session)"),
    ("nominee", MAX_SEATS, "nominated chancellor"),
    ("president", MAX_SEATS, "last elected president"),
    ("chancellor", MAX_SEATS, "last elected chancellor"),
    ("term_limited", MAX_SEATS, "barred from the chancellorship at this nomination"),
    ("investigated", MAX_SEATS, "seats investigated so far (public)"),
    ("not_hitler", MAX_SEATS, "seats confirmed not Hitler (elected chancellor in the Hitler zone)"),
    ("voted", MAX_SEATS, "seats that have voted in the open election"),
    (
        "votes_ja",
        MAX_SEATS,
        "Ja votes: the last revealed vote, or during a vote what this seat saw (own vote; all cast votes under public voting)",
    ),
    ("votes_nein", MAX_SEATS, "Nein votes, same rule"),
    ("liberal_policies", 6, "liberal track one-hot 0-5"),
    ("fascist_policies", 7, "fascist track one-hot 0-6"),
    ("election_tracker", 3, "election tracker one-hot 0-2"),
    ("hand_liberal", 4, "liberal policies in this seat's hand, one-hot 0-3"),
    ("hand_fascist", 4, "fascist policies in this seat's hand, one-hot 0-3"),
    ("veto_available", 1, "the veto may be proposed in this session"),
    ("veto_proposed", 1, "a veto awaits the president's answer"),
    (
        "hitler_zone_active",
        1,
        "electing Hitler chancellor wins now (the view's hitler_zone_active)",
    ),
    ("winner", 2, "winning team at the end: liberal, fascist"),
    ("draw_pile", 1, "policies in the draw pile / deck size"),
    ("discard_pile", 1, "policies in the discard pile / deck size"),
    ("round", 1, "round number / 32, capped at 1"),
)


class Layout:
    """Offsets of every field for a history length, with or without the claims made (``claims``:
    each history row goes on with ``CLAIM_RECORD_FIELDS``)."""

    def __init__(self, history: int = DEFAULT_HISTORY, claims: bool = False) -> None:
        if history < 0:
            raise ValueError("history must be >= 0")
        self.history = history
        self.claims = claims
        self.record_size = record_size = CLAIMS_RECORD_SIZE if claims else RECORD_SIZE
        blocks = [
            ("static", _STATIC),
            (
                "private",
                _PRIVATE
                + (
                    (
                        "own_history",
                        history * PRIVATE_RECORD_SIZE,
                        f"{history} rows of {PRIVATE_RECORD_SIZE}, aligned with history: what this seat saw of each session",
                    ),
                ),
            ),
            (
                "history",
                (
                    (
                        "history",
                        history * record_size,
                        f"last {history} nominations newest first, rows of {record_size}",
                    ),
                ),
            ),
            ("dynamic", _DYNAMIC),
        ]
        self.fields: dict[str, Field] = {}
        self.blocks: dict[str, tuple[int, int]] = {}
        off = 0
        for block, fields in blocks:
            start = off
            for name, size, doc in fields:
                self.fields[name] = Field(name, off, size, doc)
                off += size
            self.blocks[block] = (start, off)
        self.size = off

    def __getitem__(self, name: str) -> Field:
        return self.fields[name]

    def block_size(self, block: str) -> int:
        start, end = self.blocks[block]
        return end - start

    def rel(self, name: str, block: str) -> int:
        """Offset of a field inside its block."""
        return self.fields[name].offset - self.blocks[block][0]


# ----------------------------------------------------------------------------- event blocks
# ----------------------------------------------------------------------------- static & dynamic
def _static_block(
    layout: Layout, n: int, board: Sequence[str | None], hz: int, vz: int
) -> np.ndarray:
    out = np.zeros(layout.block_size("static"), dtype=np.float32)
    rel = layout.rel
    out[rel("players", "static") : rel("players", "static") + n] = 1.0
    b = rel("board", "static")
    for slot, power in enumerate(board[:5]):
        if power is not None:
            out[b + 4 * slot + _POWER_INDEX[power]] = 1.0
    if 1 <= hz <= 6:
        out[rel("hitler_zone", "static") + hz - 1] = 1.0
    if 1 <= vz <= 6:
        out[rel("veto_zone", "static") + vz - 1] = 1.0
    return out


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

    def __init__(self, players: int, layout: Layout) -> None:
        self.layout = layout
        self.n = players
        self.k = layout.history
        self._cursor = 0
        self.records = 0
        self._static = b""
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
                )
            ),
            _FLOAT32,
        )

    def _take_table(self, pub: tuple[Any, ...]) -> None:
        """Keep what comes from an ``Observer.table()`` tuple (``pub``)."""
        if not self._static:
            block = _static_block(self.layout, pub[_PLAYERS], pub[_BOARD], pub[_HZ], pub[_VZ])
            self._static = block.tobytes()
            self._deck = _deck_size(pub[_RULES])
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
    phase, mine, to_act = key
    return _one_hot(len(PHASES), _PHASE_INDEX[phase]) + [float(mine)] + _seat_slots(to_act)


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
assert [f for group in _JOIN_ORDER for f in group] == [name for name, _, _ in _DYNAMIC]


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
    """The observation vector of ``view.seat``, computed from the view alone, from scratch."""
    if view.seat is None:
        raise ValueError("a spectator view has no seat to encode")
    return SeatEncoder(view.seat, view.players, layout or Layout(history)).encode(view)


def _deck_size(rules: Any) -> int:
    deck = rules["deck"] if isinstance(rules, dict) else rules.deck
    if isinstance(deck, dict):
        return max(1, int(deck["liberal"]) + int(deck["fascist"]))
    return max(1, int(deck[0]) + int(deck[1]))


def describe_layout(history: int = DEFAULT_HISTORY) -> list[Field]:
    """Every field with its offset and size, in vector order (used by docs/env.md)."""
    return sorted(Layout(history).fields.values(), key=lambda f: f.offset)
