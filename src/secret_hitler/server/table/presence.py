"""Presence: a table's connections and who is connected.

A seat counts as connected while it has a ready connection (one that said hello). A seat's
connected flag changes the table detail at once; spectators coming and going are gathered for
``presence_delay`` seconds into one detail broadcast, so each costs O(1). When a seated player's
last connection goes, the time is kept (``away_since``): the driver's stand-in moves for that
seat after the grace period.
"""

from __future__ import annotations

from collections.abc import Callable

from .conn import Conn
from .seats import Seating
from .services import Cancellable, Clock


class Presence:
    def __init__(
        self, seating: Seating, clock: Clock, delay: float, announce: Callable[[], None]
    ) -> None:
        self.seating = seating
        self.clock = clock
        self.delay = delay
        self.announce = announce  # send the table detail to everyone
        self.conns: set[Conn] = set()
        self.present: dict[int | None, int] = {}  # ready connections per seat (None: spectators)
        self.away_since: dict[int, float] = {}  # seat -> since when (monotonic) nobody plays it
        # since when no seated player has been connected (the hub's offline expiry)
        self.offline_since: float | None = None
        self.last_seat: dict[str, int | None] = {}  # user -> the seat her last welcome was for
        self._flush: Cancellable | None = None

    def connected(self, seat: int) -> bool:
        return self.present.get(seat, 0) > 0

    def human_connected(self) -> bool:
        return any(
            s.kind == "human" and self.connected(i) for i, s in enumerate(self.seating.seats)
        )

    @property
    def spectators(self) -> int:
        return self.present.get(None, 0)

    def _count(self, seat: int | None, delta: int) -> bool:
        """Count a ready connection in or out of ``seat``; True when the table detail changed
        (a seat became connected or disconnected, or the spectator count moved)."""
        before = self.present.get(seat, 0)
        after = before + delta
        if after:
            self.present[seat] = after
        else:
            self.present.pop(seat, None)
        return seat is None or (before == 0) != (after == 0)

    def _changed(self, seat: int | None) -> None:
        if seat is not None:
            self.announce()
        elif self._flush is None:
            self._flush = self.clock.call_later(self.delay, self.announce)

    def announced(self) -> None:
        """The table detail was just sent: a gathered presence change is no longer pending."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None

    def attach(self, conn: Conn) -> None:
        conn.seat = self.seating.seat_of(conn.user.id if conn.user else None)
        self.conns.add(conn)

    def detach(self, conn: Conn) -> bool:
        """Forget a connection; True when its seat is now played by nobody."""
        if conn not in self.conns:
            return False
        self.conns.discard(conn)
        was_ready = conn.ready
        conn.ready = False
        seat = conn.seat
        changed = was_ready and self._count(seat, -1)
        away = seat is not None and not self.connected(seat)
        if seat is not None and away:
            self.away_since[seat] = self.clock.monotonic()
            if self.offline_since is None and not self.human_connected():
                self.offline_since = self.away_since[seat]
        if changed:
            self._changed(seat)
        return away

    def ready(self, conn: Conn) -> bool:
        """The connection said hello; True when that changes the table detail (``arrived``
        announces it once the connection is welcomed)."""
        was_ready = conn.ready
        conn.ready = True
        return not was_ready and self._count(conn.seat, +1)

    def arrived(self, conn: Conn, changed: bool) -> None:
        if conn.seat is not None:
            self.away_since.pop(conn.seat, None)
            self.offline_since = None
        if changed:
            self._changed(conn.seat)

    def reseat(self, user_id: str, welcome: Callable[[Conn], None]) -> None:
        """A user's seat changed (join, leave): her connections follow, and are welcomed anew."""
        for c in self.conns:
            if c.user is not None and c.user.id == user_id:
                seat = self.seating.seat_of(user_id)
                if seat != c.seat:
                    if c.ready:
                        self._count(c.seat, -1)
                        self._count(seat, +1)
                    c.seat = seat
                    if c.ready:
                        welcome(c)
