"""How the queue groups the people waiting for one player count and category into tables: by
rating band and waiting time (docs/competitive.md "The queue").

Each person waits with a rating (her all-time openskill ``mu``, the default for a new player:
the hidden skill, not the shown ``mu - 3 sigma``, which would rank every newcomer at the bottom)
and a band around it that widens the longer she waits: ``Band.width`` is ``base`` rating points
at first, ``widen`` more per second of waiting, at most ``widest`` (by then anyone will do).
Two people may share a table when each one's band holds the other (the band is mutual, so a
newcomer's patience never drags a veteran who just joined into a lopsided game).

``form`` takes the longest waiting person first (the anchor) and seats the ``size - 1`` people
nearest her rating whose bands and hers hold each other, pairwise, and who keep every constraint
of ``apart`` (a rated table: one seat per address and device; anyone: blocklists); then the next
longest waiting person not seated yet, and so on. It scans outwards from the anchor in a list
sorted by rating, so a formation over 2,000 people costs milliseconds (benchmarks/queue_load.py).
The function is pure: who waits comes in, the groups come out, in the order they were formed.
``refill`` finds the people a ready check that lost some still needs, by the same bands.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Waiting:
    """A person in the queue, as the matchmaker weighs her."""

    user_id: str
    rating: float
    since: float  # when she joined the queue (seconds; any clock the caller's ``now`` shares)


@dataclass(frozen=True, slots=True)
class Band:
    """The rating band: ``base`` points either way at first, ``widen`` more per second waited,
    at most ``widest``."""

    base: float = 3.0
    widen: float = 0.1
    widest: float = 50.0

    def width(self, waited: float) -> float:
        return min(self.widest, self.base + self.widen * max(0.0, waited))


#: Whether two people may not share a table (None: anyone may sit with anyone).
Apart = Callable[[Waiting, Waiting], bool]


def form(
    waiting: Sequence[Waiting],
    size: int,
    now: float,
    band: Band,
    apart: Apart | None = None,
) -> list[list[Waiting]]:
    """Groups of ``size`` people, each person in at most one, in the order they were formed
    (longest waiting anchor first). People nobody fits with yet stay out of every group."""
    if size < 1:
        raise ValueError("size: at least 1")
    by_rating = sorted(waiting, key=lambda w: (w.rating, w.since, w.user_id))
    ratings = [w.rating for w in by_rating]
    free = [True] * len(by_rating)
    index = {w.user_id: i for i, w in enumerate(by_rating)}
    groups: list[list[Waiting]] = []
    for anchor in sorted(waiting, key=lambda w: (w.since, w.user_id)):
        at = index[anchor.user_id]
        if not free[at]:
            continue
        group = _around(by_rating, ratings, free, at, size, now, band, apart)
        if group is None:
            continue
        for i in group:
            free[i] = False
        groups.append([by_rating[i] for i in group])
    return groups


def _around(
    people: list[Waiting],
    ratings: list[float],
    free: list[bool],
    at: int,
    size: int,
    now: float,
    band: Band,
    apart: Apart | None,
) -> list[int] | None:
    """The anchor ``people[at]`` and the ``size - 1`` nearest free people by rating who fit
    (mutual bands, ``apart``), or None when fewer fit."""
    anchor = people[at]
    reach = band.width(now - anchor.since)
    lo = bisect.bisect_left(ratings, anchor.rating - reach)
    hi = bisect.bisect_right(ratings, anchor.rating + reach)
    chosen = [at]
    left, right = at - 1, at + 1
    while len(chosen) < size:
        # the nearer of the next one down and the next one up (within the anchor's band)
        while left >= lo and not free[left]:
            left -= 1
        while right < hi and not free[right]:
            right += 1
        down = anchor.rating - ratings[left] if left >= lo else None
        up = ratings[right] - anchor.rating if right < hi else None
        if down is None and up is None:
            return None
        if up is None or (down is not None and down <= up):
            i, left = left, left - 1
        else:
            i, right = right, right + 1
        other = people[i]
        if not all(_fits(people[j], other, now, band) for j in chosen):
            continue  # a band does not reach yet
        if apart is not None and any(apart(people[j], other) for j in chosen):
            continue
        chosen.append(i)
    return chosen


def _fits(a: Waiting, b: Waiting, now: float, band: Band) -> bool:
    """Each one's band holds the other."""
    gap = abs(a.rating - b.rating)
    return gap <= band.width(now - a.since) and gap <= band.width(now - b.since)


def refill(
    members: Sequence[Waiting],
    waiting: Sequence[Waiting],
    need: int,
    now: float,
    band: Band,
    apart: Apart | None = None,
) -> list[Waiting] | None:
    """``need`` people for a ready check that lost some: the longest waiting of ``waiting``
    whose bands and each of ``members``' (and each other's) hold each other, or None when
    fewer fit (the check ends and its people wait again)."""
    chosen: list[Waiting] = []
    for other in sorted(waiting, key=lambda w: (w.since, w.user_id)):
        if len(chosen) == need:
            break
        group = [*members, *chosen]
        if not all(_fits(m, other, now, band) for m in group):
            continue
        if apart is not None and any(apart(m, other) for m in group):
            continue
        chosen.append(other)
    return chosen if len(chosen) == need else None
