"""A bot candidate's wait for people's claims before it nominates (``SH_CLAIM_WAIT``).

Claims stay open until the next legislative session begins (docs/engine.md, "Claims"), but a
nomination is better made once the last government has told its story: after a government
with a connected person in it, a bot candidate waits up to ``claim_wait`` seconds before its
nomination is put to its bot, and stops waiting as soon as those people have no claim left to
make (they claimed, or left). Only the windows opened since the previous nomination are waited
for: a person who let one pass is not waited for again. The driver (``driver.py``) asks this
at every new decision and on every turn of its task.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...engine import Game
from .seats import Seat

#: A claim window: (seat, subject)
Window = tuple[int, str]


@dataclass(frozen=True, slots=True)
class Hold:
    """A bot candidate (``seat``) waits to nominate until ``until`` (monotonic) while any of the
    ``awaited`` claim windows of connected people is still open."""

    seat: int
    until: float
    awaited: frozenset[Window]


class ClaimHold:
    """The wait now (``hold``), and the windows already open at the last nomination."""

    def __init__(self) -> None:
        self.hold: Hold | None = None
        self.seen: set[Window] = set()

    def clear(self) -> None:
        self.hold = None
        self.seen.clear()

    def windows(self, game: Game) -> set[Window]:
        """The claim windows open now; one that closed and opens again is a new one."""
        open_now = {(s, subject) for s in game.claimants() for subject in game.open_claims(s)}
        self.seen &= open_now
        return open_now

    def nomination(
        self,
        game: Game,
        now: float,
        open_now: set[Window],
        wait: float,
        seats: Sequence[Seat],
        connected: Callable[[int], bool],
    ) -> None:
        """A nomination is due: a bot candidate waits ``wait`` seconds for the windows opened
        since the last nomination of connected people."""
        fresh = open_now - self.seen
        self.seen |= open_now
        candidate = game.candidate
        if wait <= 0 or candidate is None or seats[candidate].kind != "bot":
            return
        awaited = {
            (s, subject) for s, subject in fresh if seats[s].kind == "human" and connected(s)
        }
        if awaited:
            self.hold = Hold(candidate, now + wait, frozenset(awaited))

    def holds(self, seat: int) -> bool:
        """Whether the seat's decision waits for people's claims (and has not been put yet)."""
        return self.hold is not None and self.hold.seat == seat

    def ended(self, game: Game, now: float, connected: Callable[[int], bool]) -> int | None:
        """The candidate whose wait just ended (the awaited people claimed, left or saw their
        windows close, or the time is up), else None."""
        hold = self.hold
        if hold is None:
            return None
        waiting = now < hold.until and any(
            subject in game.open_claims(s) and connected(s) for s, subject in hold.awaited
        )
        if waiting:
            return None
        self.hold = None
        return hold.seat
