"""The vote to replace an absent player by a bot (docs/competitive.md "Away from the table").

A seated person is absent when she has been offline, or the game has been waiting on her
decision, for at least ``SH_AFK_AFTER`` seconds (``absent_since``): a stand-in already moves for
an offline seat after ``SH_GRACE`` and for a late one when the table has a timer, but without a
timer a connected player who stopped playing holds the table forever. Then the other living
people at the table may vote to hand her seat to a bot for good. The first vote opens the poll
for ``VOTE_WINDOW`` seconds; it passes when more than half of them say yes, counted as people:
sessions that vote from one address are one person (``remake.people``). She is checked absent
when the poll opens, at every vote and when it passes; the poll is shown to everyone (counts
only: the vote is anonymous), her included, so she can come back and make her move. At a rated
table the replaced player's game counts as left (``storage.ratings.record_leave``, kind
``replaced``). The use-case is ``usecases.afk_vote``; times are the table's clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import LobbyError

if TYPE_CHECKING:
    from .session import Table

VOTE_WINDOW = 60.0  # seconds an AFK poll stays open


@dataclass(slots=True)
class Poll:
    seat: int  # whose seat the vote would hand to a bot
    ends: float  # monotonic
    ends_at: float  # Unix seconds, for clients
    yes: set[str] = field(default_factory=set)
    no: set[str] = field(default_factory=set)
    voted_from: dict[str, str] = field(default_factory=dict)  # user id -> address (never shown)
    needed: int = 0


@dataclass(slots=True)
class AfkVote:
    """A table's AFK poll (one at a time) and how the last one went."""

    poll: Poll | None = None
    result: dict[str, Any] | None = None

    def shown(self) -> dict[str, Any] | None:
        """The open poll as the table detail shows it: counts only."""
        p = self.poll
        if p is None:
            return None
        return {
            "seat": p.seat,
            "yes": len(p.yes),
            "no": len(p.no),
            "needed": p.needed,
            "ends_at": p.ends_at,
        }


def absent_since(table: Table, seat: int) -> float | None:
    """Since when (the table's monotonic clock) the seat's person has been absent: offline, or
    the game waiting on her decision, whichever began first; None: she is here and nothing
    waits on her."""
    since: list[float] = []
    away = table.presence.away_since.get(seat)
    if away is not None and not table.connected(seat):
        since.append(away)
    g = table.game
    decided = table.driver.decision_at
    if g is not None and not g.finished and decided is not None and seat in g.to_act():
        since.append(decided)
    return min(since) if since else None


def voters(table: Table, seat: int) -> set[str]:
    """Who may vote on replacing ``seat``: the living people at the table but its own."""
    g = table.game
    assert g is not None
    alive = g.view(None).alive
    target = table.seats[seat].user_id
    return {
        s.user_id
        for i, s in enumerate(table.seats)
        if s.kind == "human" and s.user_id is not None and alive[i] and s.user_id != target
    }


def refusal(table: Table, seat: int) -> LobbyError | None:
    """Why the seat may not be voted out now: it holds no person, or she is not absent (yet)."""
    s = table.seats[seat]
    if s.kind != "human" or s.user_id is None:
        return LobbyError(409, "not_a_player", f"seat {seat} holds no person")
    since = absent_since(table, seat)
    after = table.services.settings.afk_after
    if since is None or table.services.clock.monotonic() - since < after:
        return LobbyError(
            409,
            "player_not_absent",
            f"seat {seat}'s player is here: a vote needs her away or silent for {after:g} s",
        )
    return None
