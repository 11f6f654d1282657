"""The observer: what every seat and the spectator has observed, kept up to date incrementally.

This is the one place that decides what a seat may know. Knowledge comes from the events
addressed to the seat (its role, the night, its hands, peeks and investigations, revealed roles)
and from the public state of the table; nothing else is read. The observer reads each new event
once (``sync``) for what it teaches; a seat's event log is extended from the game's log only when
a view shows it, so a view or an update costs the new events only. The public fields are
computed once per change of the game (``public``) and shared by every seat's view; a consumer
that encodes only a few fields (the research environment) reads ``public`` and ``own`` instead
of a whole view. ``Game.view``, the server's per-recipient updates, the research environment
and the bots all receive what this module computes.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from .events import Event, ReadOnlyDict, TypedEvent
from .seat import KNOWLEDGE_READERS, Knowledge
from .settings import CHAOS_AT, FASCIST_TRACK, LIBERAL_TRACK
from .top_decking import ends_game
from .types import Phase
from .view import FIELDS, OWN_FIELDS, PUBLIC_FIELDS, EventLog, View

# ``_values`` joins ``public() + own(seat) + (events,)`` and reorders it into ``FIELDS`` order.
_JOINED = PUBLIC_FIELDS + OWN_FIELDS + ("events",)
_TO_FIELDS = itemgetter(*(_JOINED.index(name) for name in FIELDS))

if TYPE_CHECKING:
    from .game import Game

_ref = weakref.ref
_VOTE = Phase.VOTE
_SESSION = frozenset({Phase.DISCARD, Phase.ENACT, Phase.VETO_RESPONSE})
_POWER_OF_PHASE = {
    Phase.INVESTIGATE: "investigate",
    Phase.SPECIAL_ELECTION: "special_election",
    Phase.EXECUTE: "execute",
}
# By the phase's value (a str, whose hash is cached; an enum member hashes in Python): whether a
# legislative session is open, and the power being used.
_IN_SESSION = {p._value_: p in _SESSION for p in Phase}
_POWER_NOW = {p._value_: _POWER_OF_PHASE.get(p) for p in Phase}


class _Seat(Knowledge):
    """What one seat (or the spectator, ``seat=None``) has observed so far: its ``Knowledge``
    (engine/seat.py) and its event log."""

    __slots__ = ("log", "logged")

    def __init__(self, seat: int | None, n: int) -> None:
        super().__init__(seat, n)
        self.log: list[TypedEvent] = []  # the events this seat observed, up to ``logged``
        self.logged = 0  # index in the game's log up to which ``log`` is extended


class Observer:
    """Per-seat knowledge of one game; created by the game on the first ``Game.view`` call."""

    __slots__ = (
        "_game",
        "_cursor",
        "_seats",
        "_all",
        "_viewers",
        "_lock",
        "_rules",
        "_board",
        "_proven",
        "_public",
        "_public_at",
        "_table",
        "_table_at",
        "_election",
        "_election_at",
        "_fixed",
        "_no_votes",
        "_nones",
        "_secret_votes",
        "_public_voting",
        "_hitler_zone",
        "_top_decking",
    )

    def __init__(self, game: Game) -> None:
        n = game.n
        self._game = game
        self._cursor = 0
        self._seats = [_Seat(s, n) for s in range(n)] + [_Seat(None, n)]
        self._all = tuple(self._seats)
        # The views handed out since the last change, each with its seat; weak, so a view
        # nobody holds any more costs nothing.
        self._viewers: list[weakref.ref[View]] = []
        self._lock = threading.Lock()
        self._rules: ReadOnlyDict = game._setup.resolved
        self._board = game._setup.board_values
        self._proven: tuple[int, ...] = ()  # proven_not_hitler, kept up to date by ``sync``
        self._public: tuple[Any, ...] = ()
        self._public_at = -1  # length of the game's log when ``_public`` was computed
        self._table: tuple[Any, ...] = ()
        self._table_at = -1  # the game's ``stamp`` when ``_table`` was computed
        self._election: tuple[Any, ...] = ()
        self._election_at = -1  # length of the game's log when ``_election`` was computed
        rules = game.rules
        # the public fields fixed for the game: players, names, rules, board, the zones and the
        # role cards
        self._fixed = (
            n,
            game.names,
            self._rules,
            self._board,
            rules.hitler_zone,
            rules.veto_zone,
            game._setup.cards,
        )
        self._no_votes = (False,) * n
        self._nones = (None,) * n
        self._secret_votes = _secret_votes(n)
        self._public_voting = rules.voting == "public_sequential"
        self._hitler_zone = rules.hitler_zone
        self._top_decking = game._setup.top_decking  # None: top-decking allowed

    # ------------------------------------------------------------------ observing events
    def sync(self) -> None:
        """Read the events logged since the last call, each once, for what it teaches."""
        events = self._game.events
        end = len(events)
        if self._cursor == end:
            return
        seats, everyone = self._seats, self._all
        read = _READ.get
        for i in range(self._cursor, end):
            e = events[i]
            readers = read(e.type)  # most events teach nothing: one look-up for them
            if readers is None:
                continue
            learn, prove = readers
            if learn is not None:
                audience, data = e.audience, e.data
                if audience is None:
                    for st in everyone:
                        learn(st, data)
                else:
                    for s in audience:
                        learn(seats[s], data)
            if prove is not None:
                self._proven = prove(e.data, self._proven, self._game.n)
        self._cursor = end

    def _log_of(self, st: _Seat) -> list[TypedEvent]:
        """``st``'s event log, extended to the events read by ``sync`` (only when a view shows
        it: a consumer that never reads a seat's log never pays for it)."""
        log, start, end = st.log, st.logged, self._cursor
        if start < end:
            seat = st.seat
            for e in self._game.events[start:end]:
                audience = e.audience
                if audience is None or (seat is not None and seat in audience):
                    log.append(e.json)
            st.logged = end
        return log

    def events_from(self, start: int) -> list[Event]:
        """The game's events from index ``start``, each with its ``type``, read-only ``data``
        and ``audience`` (``None``: everyone), for a consumer that serves all seats at once and
        routes each event itself."""
        return self._game.events[start:]

    def events_since(self, seat: int | None, start: int) -> list[TypedEvent]:
        """The events from index ``start`` of the game's log that ``seat`` observes."""
        return [e.json for e in self._game.events[start:] if e.visible_to(seat)]

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> View:
        if seat is not None and not (type(seat) is int and 0 <= seat < self._game.n):
            raise ValueError(f"seat must be 0 to {self._game.n - 1} or None")
        view = View(self, seat)
        self._viewers.append(_ref(view))
        return view

    def before_change(self) -> None:
        """Fill every view handed out since the last change that is still referenced."""
        viewers, self._viewers = self._viewers, []
        for ref in viewers:
            view = ref()
            if view is not None and view._values is None:  # usually dropped already: no lock
                self.fill(view)

    def fill(self, view: View) -> None:
        """Take the snapshot of a view now (a no-op when it is already filled)."""
        with self._lock:
            if view._values is None:
                view._fill(self._values(view._seat))

    def _values(self, seat: int | None) -> tuple[Any, ...]:
        """Every field of ``seat``'s view now, in ``view.FIELDS`` order."""
        st = self._seats[self._game.n if seat is None else seat]
        own = self.own(seat)  # syncs
        log = self._log_of(st)
        return _TO_FIELDS(self.public() + own + (EventLog(log, len(log)),))  # type: ignore[no-any-return]

    def public(self) -> tuple[Any, ...]:
        """The fields that are the same for every seat and the spectator, in
        ``view.PUBLIC_FIELDS`` order: ``table() + election()``, the same tuple object until the
        game changes."""
        stamp = len(self._game.events)
        if stamp == self._public_at:
            return self._public
        out = self._public = self.table() + self.election()
        self._public_at = stamp
        return out

    def election(self) -> tuple[Any, ...]:
        """The open election's progress, in ``view.ELECTION_FIELDS`` order (the seats to act,
        who has voted); computed once per change of the game (every action logs at least one
        event, so the log's length stamps the state)."""
        g = self._game
        stamp = len(g.events)
        if stamp == self._election_at:
            return self._election
        to_act = tuple(g.to_act())
        out = (to_act, _voted(tuple(g.votes)) if g.phase is _VOTE else self._no_votes)
        self._election = out
        self._election_at = stamp
        return out

    def table(self) -> tuple[Any, ...]:
        """The public fields but the open election's progress, in ``view.TABLE_FIELDS`` order;
        computed when the game's ``stamp`` moves (a vote that leaves the election open changes
        none of them), so most of an election's votes cost nothing here, and the same tuple
        object until then (a consumer may cache what it derives from it by identity)."""
        g = self._game
        if g.stamp == self._table_at:
            return self._table
        if self._cursor != len(g.events):
            self.sync()
        value = g.phase._value_
        in_session = _IN_SESSION[value]
        nominating = value == "nominate"
        not_hitler = g.not_hitler
        pending = g.pending_power
        winner, reason = g.winner, g.reason
        liberal, fascist = g.liberal, g.fascist
        top_decking = self._top_decking
        out = self._fixed + (
            fascist >= self._hitler_zone,
            value,
            g.round,
            tuple(g.alive),
            g.candidate,
            g.nominee,
            g.president,
            g.chancellor,
            g.term_limited() if nominating else (),
            g.eligible_chancellors() if nominating else (),
            liberal,
            fascist,
            g.tracker,
            LIBERAL_TRACK - liberal,
            FASCIST_TRACK - fascist,
            CHAOS_AT,
            top_decking is not None and ends_game(top_decking, g._top_decks),
            g.draw_pile,
            g.discard_pile,
            in_session and g.veto_enabled and not g.veto_refused,
            in_session and g.veto_refused,
            value == "veto_response",
            _POWER_NOW[value],
            None if pending is None else pending._value_,
            g.next_president(),
            g._assassination,
            tuple(g.investigated),
            tuple(sorted(not_hitler)) if not_hitler else (),
            self._proven,
            None if winner is None else winner._value_,
            None if reason is None else reason._value_,
            None if winner is None else g.winners,
        )
        self._table, self._table_at = out, g.stamp
        return out

    def own(self, seat: int | None) -> tuple[Any, ...]:
        """The fields that may differ between seats, but the event log, in
        ``view.OWN_FIELDS`` order."""
        g = self._game
        if self._cursor != len(g.events):
            self.sync()
        n = g.n
        st = self._seats[n if seat is None else seat]
        phase = g.phase._value_
        if phase == "vote":
            cast = g.votes
            own_vote = None if seat is None else cast[seat]
            if self._public_voting:
                votes = tuple(cast)
            elif seat is None:
                votes = self._nones
            else:
                votes = self._secret_votes[seat][own_vote]
        else:
            last = g.last_votes
            votes = tuple(last) if last is not None else self._nones
            own_vote = None
        return (
            seat,
            st.role,
            st.party,
            st.known_roles,
            st.known_parties,
            st.merlin_candidates,
            votes,
            own_vote,
            st.hand if _IN_SESSION[phase] else (),
            st.found,
            () if seat is None else g.open_claims(seat),
        )


class _Voted(dict[tuple[bool | None, ...], tuple[bool, ...]]):
    """Who has voted, by the votes cast so far (``None``: not yet, or dead): a table filled on
    first use, bounded by 3**10 keys, shared by every game (a look-up is cheaper than the
    comparisons)."""

    def __missing__(self, votes: tuple[bool | None, ...]) -> tuple[bool, ...]:
        out = self[votes] = tuple(v is not None for v in votes)
        return out


_voted = _Voted().__getitem__


@functools.cache
def _secret_votes(n: int) -> tuple[dict[bool | None, tuple[bool | None, ...]], ...]:
    """What each of ``n`` seats sees of a secret vote in progress, by its own vote: that vote
    alone (built once per table size, not per game)."""
    nones = (None,) * n
    return tuple(
        {v: nones[:s] + (v,) + nones[s + 1 :] for v in (None, True, False)} for s in range(n)
    )


# ---------------------------------------------------------------------- public proofs
# What makes a seat publicly not Hitler: E8 (elected chancellor in the Hitler zone, the game went
# on), P4 (executed: had it been Hitler, ``game_over`` follows in the same action, or under Avalon
# SH the assassination, which shows Hitler), Hitler's card turned face up at the assassination,
# W2 (the end). Each reads the event's data, the seats proven so far and the table size.
_PROOF: dict[str, Callable[[Any, tuple[int, ...], int], tuple[int, ...]]] = {
    "not_hitler": lambda d, p, n: tuple(sorted({*p, d["seat"]})),
    "executed": lambda d, p, n: tuple(sorted({*p, d["target"]})),
    "assassination": lambda d, p, n: tuple(s for s in range(n) if s != d["hitler"]),
    "game_over": lambda d, p, n: tuple(s for s, r in enumerate(d["roles"]) if r != "hitler"),
}

#: by event type: what it teaches the seats that observe it (``Knowledge``), and what it
#: proves publicly
_READ: dict[str, tuple[Any, Any]] = {
    t: (KNOWLEDGE_READERS.get(t), _PROOF.get(t)) for t in sorted({*KNOWLEDGE_READERS, *_PROOF})
}

__all__ = ["FIELDS", "Observer"]
