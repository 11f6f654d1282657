"""The observer: what every seat and the spectator has observed, kept up to date incrementally.

This is the one place that decides what a seat may know. Knowledge comes from the events
addressed to the seat (its role, the night, its hands, peeks and investigations, revealed roles)
and from the public state of the table; nothing else is read. The observer reads each new event
once (``sync``) and appends it to the log of every seat that observes it, so a view or an update
costs the new events only. ``Game.view``, the server's per-recipient updates, the research
environment and the bots all receive what this module computes.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .events import Event, ReadOnlyDict
from .types import Phase
from .view import FIELDS, EventLog, View

assert FIELDS[0] == "seat" and FIELDS[-1] == "events"  # the order ``_values`` follows

if TYPE_CHECKING:
    from .game import Game

_ref = weakref.ref
_SESSION = frozenset({Phase.DISCARD, Phase.ENACT, Phase.VETO_RESPONSE})
_POWER_OF_PHASE = {
    Phase.INVESTIGATE: "investigate",
    Phase.SPECIAL_ELECTION: "special_election",
    Phase.EXECUTE: "execute",
}


class _Seat:
    """What one seat (or the spectator, ``seat=None``) has observed so far."""

    __slots__ = ("seat", "log", "known", "investigations", "hand", "role", "party")

    def __init__(self, seat: int | None, n: int) -> None:
        self.seat = seat
        self.log: list[ReadOnlyDict] = []
        self.known: list[str | None] = [None] * n
        self.investigations: tuple[tuple[int, str], ...] = ()
        self.hand: tuple[str, ...] = ()  # the policies last drawn, passed or received
        self.role: str | None = None
        self.party: str | None = None


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
        self._rules: ReadOnlyDict = game._setup.describe
        self._board = game._setup.board_values
        self._proven: tuple[int, ...] = ()  # proven_not_hitler, kept up to date by ``sync``

    # ------------------------------------------------------------------ observing events
    def sync(self) -> None:
        """Read the events logged since the last call: each event once, for every audience."""
        events = self._game.events
        end = len(events)
        if self._cursor == end:
            return
        seats, everyone = self._seats, self._all
        for i in range(self._cursor, end):
            e = events[i]
            j = e.json
            audience = e.audience
            if audience is None:
                for st in everyone:
                    st.log.append(j)
                observers: tuple[_Seat, ...] = everyone
            else:
                observers = tuple(seats[s] for s in audience)
                for st in observers:
                    st.log.append(j)
            learn = _LEARN.get(e.type)
            if learn is not None:
                learn(e, observers)
            prove = _PROOF.get(e.type)
            if prove is not None:
                self._proven = prove(e.data, self._proven)
        self._cursor = end

    def routed(self, start: int) -> list[tuple[ReadOnlyDict, tuple[int, ...] | None]]:
        """Every event from index ``start`` of the log with its audience (``None``: everyone),
        for a consumer that serves all seats at once and routes each event itself."""
        return [(e.json, e.audience) for e in self._game.events[start:]]

    def events_since(self, seat: int | None, start: int) -> list[ReadOnlyDict]:
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
        self.sync()
        g = self._game
        n = g.n
        st = self._seats[n if seat is None else seat]
        phase = g.phase
        if phase is Phase.VOTE:
            cast = g.votes
            if g.rules.voting == "public_sequential":
                votes = tuple(cast)
            elif seat is None:
                votes = (None,) * n
            else:
                votes = tuple(cast[s] if s == seat else None for s in range(n))
            voted = tuple(v is not None for v in cast)
            own_vote = None if seat is None else cast[seat]
        else:
            last = g.last_votes
            votes = tuple(last) if last is not None else (None,) * n
            voted = (False,) * n
            own_vote = None
        in_session = phase in _SESSION
        nominating = phase is Phase.NOMINATE
        pending = g.pending_power
        rules = g.rules
        winner, reason = g.winner, g.reason
        log = st.log
        return (
            seat,
            n,
            g.names,
            self._rules,
            self._board,
            rules.hitler_zone,
            rules.veto_zone,
            phase.value,
            tuple(g.to_act()),
            g.round,
            st.role,
            st.party,
            tuple(st.known),
            tuple(g.alive),
            g.candidate,
            g.nominee,
            g.president,
            g.chancellor,
            g.term_limited() if nominating else (),
            g.eligible_chancellors() if nominating else (),
            g.liberal,
            g.fascist,
            g.tracker,
            g.draw_pile,
            g.discard_pile,
            voted,
            votes,
            own_vote,
            st.hand if in_session else (),
            in_session and g.veto_enabled and not g.veto_refused,
            in_session and g.veto_refused,
            phase is Phase.VETO_RESPONSE,
            _POWER_OF_PHASE.get(phase),
            None if pending is None else pending.value,
            tuple(g.investigated),
            tuple(sorted(g.not_hitler)),
            self._proven,
            st.investigations,
            () if seat is None else g.open_claims(seat),
            None if winner is None else winner.value,
            None if reason is None else reason.value,
            EventLog(log, len(log)),
        )


# ---------------------------------------------------------------------- what events teach
def _learn_role(e: Event, observers: tuple[_Seat, ...]) -> None:
    for st in observers:
        st.role, st.party = e.data["role"], e.data["party"]
        st.known[e.data["seat"]] = e.data["role"]


def _learn_night(e: Event, observers: tuple[_Seat, ...]) -> None:
    for st in observers:
        for seat, role in e.data["known"].items():
            st.known[int(seat)] = role


def _learn_execution(e: Event, observers: tuple[_Seat, ...]) -> None:
    role = e.data.get("role")  # present under reveal_executed_role
    if role is not None:
        for st in observers:
            st.known[e.data["target"]] = role


def _learn_roles(e: Event, observers: tuple[_Seat, ...]) -> None:
    for st in observers:
        st.known[:] = e.data["roles"]


def _learn_investigation(e: Event, observers: tuple[_Seat, ...]) -> None:
    found = (e.data["target"], e.data["party"])
    for st in observers:
        st.investigations += (found,)


def _learn_hand(e: Event, observers: tuple[_Seat, ...]) -> None:
    hand = tuple(e.data["policies"])
    for st in observers:
        st.hand = hand


def _new_session(e: Event, observers: tuple[_Seat, ...]) -> None:
    for st in observers:
        st.hand = ()


_LEARN: dict[str, Callable[[Event, tuple[_Seat, ...]], None]] = {
    "role": _learn_role,
    "night": _learn_night,
    "executed": _learn_execution,
    "game_over": _learn_roles,
    "investigation": _learn_investigation,
    "drew": _learn_hand,
    "passed": _learn_hand,
    "received": _learn_hand,
    "legislative_session": _new_session,
}

# ---------------------------------------------------------------------- public proofs
# What makes a seat publicly not Hitler: E8 (elected chancellor in the Hitler zone, the game went
# on), P4 (executed: had it been Hitler, ``game_over`` follows in the same action), W2 (the end).
_PROOF: dict[str, Callable[[Any, tuple[int, ...]], tuple[int, ...]]] = {
    "not_hitler": lambda d, p: tuple(sorted({*p, d["seat"]})),
    "executed": lambda d, p: tuple(sorted({*p, d["target"]})),
    "game_over": lambda d, p: tuple(s for s, r in enumerate(d["roles"]) if r != "hitler"),
}

__all__ = ["FIELDS", "Observer"]
