"""A table's rating limit (docs/competitive.md "Rating limits"): a minimum and a maximum of the
rating a person must have to take a seat, set by the host on any table (secrethitler.io's open
request 991), checked at the join with a clear message and shown on the table card.

The rating compared is the one every page shows, ``mu - 3 sigma`` (``ratings.Rating.ordinal``),
of the all-time rating; a person without rated games has the default's (0), so a table with a
minimum above 0 is for rated players only.
"""

from __future__ import annotations

import math

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ... import ratings as R
from ..core.errors import LobbyError
from ..storage import db
from ..storage.writer import Write

#: The range a limit may be set in (a displayed rating rarely leaves 0-50).
LIMIT_RANGE = (-50.0, 100.0)


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
