"""A table's rating limit (docs/competitive.md "Rating limits"): a minimum and a maximum of the
rating a person must have to take a seat, set by the host on any table (secrethitler.io's open
request 991), checked at the join with a clear message and shown on the table card.

The rating compared is the one every page shows, ``mu - 3 sigma`` (``ratings.Rating.ordinal``),
of the all-time rating; a person without rated games has the default's (0), so a table with a
minimum above 0 is for rated players only.

A new-player table (``kind`` ``newbie``: docs/competitive.md "New-player tables") takes only
people who have finished fewer than ``SH_NEWBIE_GAMES`` games; ``seat_refusal`` is the one check
of both, which the join asks with the person's ``Player`` record when ``applies``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ... import ratings as R
from ..core.errors import LobbyError
from ..storage import db
from ..storage.writer import Write
from .eligibility import games_played

#: The range a limit may be set in (a displayed rating rarely leaves 0-50).
LIMIT_RANGE = (-50.0, 100.0)
#: A new-player table's kind.
NEWBIE = "newbie"


@dataclass(frozen=True, slots=True)
class Player:
    """What a limited table asks of a person: her shown rating and her finished games."""

    rating: float
    games: int


def player(user_id: str) -> Write:
    """``user_id``'s ``Player`` record."""

    def run(conn: Connection) -> Player:
        return Player(shown(player_rating(user_id)(conn)), games_played(conn, user_id))

    return run


def applies(kind: str | None, low: float | None, high: float | None) -> bool:
    """Whether a seat at this table is checked (``seat_refusal``) at all."""
    return kind == NEWBIE or low is not None or high is not None


def seat_refusal(
    kind: str | None,
    low: float | None,
    high: float | None,
    found: Player | None,
    newbie_games: int,
) -> LobbyError | None:
    """Why a person may not take a seat at this table (its kind and rating limit), or None.
    ``found`` must be given where the table ``applies``."""
    if not applies(kind, low, high):
        return None
    if found is None:
        raise ValueError("a limited table's seat needs the person's record")
    if kind == NEWBIE and found.games >= newbie_games:
        return LobbyError(
            403,
            "newbie_table",
            f"new-player tables are for people with fewer than {newbie_games} finished games; "
            f"you have {found.games}",
        )
    return refusal(low, high, found.rating)


def player_rating(user_id: str) -> Write:
    """``user_id``'s all-time rating (the default for a player without rated games)."""

    def run(conn: Connection) -> R.Rating:
        r = db.ratings.c
        row = conn.execute(sa.select(r.mu, r.sigma).where(r.user_id == user_id)).first()
        return R.default() if row is None else R.Rating(float(row.mu), float(row.sigma))

    return run


def shown(rating: R.Rating) -> float:
    """The rating as pages show it and as limits compare it (two decimals)."""
    return round(rating.ordinal, 2)


def check_limits(low: float | None, high: float | None) -> tuple[float | None, float | None]:
    """A limit a host may set (``LobbyError`` 400 ``invalid_settings`` naming the field)."""
    lo, hi = LIMIT_RANGE
    for field, value in (("rating_min", low), ("rating_max", high)):
        if value is not None and not (math.isfinite(value) and lo <= value <= hi):
            raise LobbyError(
                400, "invalid_settings", f"{field}: a rating from {lo:g} to {hi:g}", field
            )
    if low is not None and high is not None and low > high:
        raise LobbyError(
            400, "invalid_settings", "rating_min: at most the maximum rating", "rating_min"
        )
    return (
        None if low is None else round(float(low), 2),
        None if high is None else round(float(high), 2),
    )


def refusal(low: float | None, high: float | None, rating: float) -> LobbyError | None:
    """Why a person of ``rating`` (``shown``) may not sit at a table limited to ``low``-``high``."""
    if low is not None and rating < low:
        return LobbyError(
            403,
            "rating_too_low",
            f"this table takes players rated at least {low:.2f}; your rating is {rating:.2f}",
        )
    if high is not None and rating > high:
        return LobbyError(
            403,
            "rating_too_high",
            f"this table takes players rated at most {high:.2f}; your rating is {rating:.2f}",
        )
    return None
