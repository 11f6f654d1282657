"""How the queue groups people (competition/matchmaking.py; docs/competitive.md "The queue"):
by rating band and waiting time, each person once, the longest waiting first."""

from __future__ import annotations

import random

import pytest

from secret_hitler.server.competition.matchmaking import Band, Waiting, form, refill

BAND = Band(base=3.0, widen=0.1, widest=50.0)


def _fits(a: Waiting, b: Waiting, now: float) -> bool:
    gap = abs(a.rating - b.rating)
    return gap <= BAND.width(now - a.since) and gap <= BAND.width(now - b.since)


def test_people_far_apart_in_rating_wait_until_their_bands_meet() -> None:
    low = [Waiting(f"l{i}", 20.0 + i * 0.1, 0.0) for i in range(4)]
    high = [Waiting("h", 30.0, 0.0)]
    people = low + high
    assert form(people, 5, now=0.0, band=BAND) == []  # 10 points apart: not yet
    # after 70 s each band is 3 + 7 = 10 points wide: the five may play
    groups = form(people, 5, now=70.0, band=BAND)
    assert [sorted(w.user_id for w in g) for g in groups] == [["h", "l0", "l1", "l2", "l3"]]


def test_the_longest_waiting_are_seated_first_with_the_nearest_ratings() -> None:
    people = [Waiting(f"p{i}", 25.0 + i * 0.2, since=float(i)) for i in range(12)]
    groups = form(people, 5, now=20.0, band=BAND)
    assert len(groups) == 2
    first = {w.user_id for w in groups[0]}
    assert "p0" in first  # the anchor: who waited longest
    assert first == {"p0", "p1", "p2", "p3", "p4"}  # the nearest to her rating
    seated = [w.user_id for g in groups for w in g]
    assert len(seated) == len(set(seated)) == 10


def test_every_group_fits_everyone_pairwise_and_nobody_is_seated_twice() -> None:
    rng = random.Random(11)
    people = [Waiting(f"u{i}", rng.gauss(25, 6), rng.uniform(0, 120)) for i in range(500)]
    groups = form(people, 7, now=120.0, band=BAND)
    seated = [w.user_id for g in groups for w in g]
    assert len(seated) == len(set(seated))
    assert all(len(g) == 7 for g in groups)
    for g in groups:
        for i, a in enumerate(g):
            for b in g[i + 1 :]:
                assert _fits(a, b, 120.0)
    assert len(groups) >= 60  # most of 500 people fit somewhere (71 tables at most)


def test_people_kept_apart_never_share_a_group() -> None:
    people = [Waiting(f"u{i}", 25.0, 0.0) for i in range(10)]

    def apart(a: Waiting, b: Waiting) -> bool:  # one place: u0 and u1
        return {a.user_id, b.user_id} == {"u0", "u1"}

    groups = form(people, 5, now=0.0, band=BAND, apart=apart)
    assert len(groups) == 2
    assert not any({"u0", "u1"} <= {w.user_id for w in g} for g in groups)


def test_a_band_grows_with_waiting_up_to_its_widest() -> None:
    assert BAND.width(0) == 3.0
    assert BAND.width(10) == pytest.approx(4.0)
    assert BAND.width(10_000) == 50.0
    with pytest.raises(ValueError):
        form([], 0, 0.0, BAND)


def test_a_ready_check_is_refilled_by_the_longest_waiting_who_fit_it() -> None:
    members = [Waiting(f"m{i}", 25.0, 0.0) for i in range(3)]
    waiting = [
        Waiting("far", 40.0, 0.0),  # waited longest, but 15 points off: not yet
        Waiting("late", 25.5, 9.0),
        Waiting("early", 24.0, 5.0),
        Waiting("latest", 25.0, 10.0),
    ]
    chosen = refill(members, waiting, 2, now=10.0, band=BAND)
    assert chosen is not None and [w.user_id for w in chosen] == ["early", "late"]
    assert refill(members, waiting, 4, now=10.0, band=BAND) is None  # too few fit

    def apart(a: Waiting, b: Waiting) -> bool:
        return {a.user_id, b.user_id} == {"m0", "early"}

    kept = refill(members, waiting, 2, now=10.0, band=BAND, apart=apart)
    assert kept is not None and [w.user_id for w in kept] == ["late", "latest"]
