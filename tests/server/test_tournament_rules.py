"""A tournament's pure rules (competition/seating.py, scoring.py; docs/competitive.md
"Tournaments"): table sizes, seating that spreads meetings, the points of a game by team and
player count, and the standings with their tie-breaks."""

from __future__ import annotations

import itertools
import random

import pytest

from secret_hitler import ratings as R
from secret_hitler.server.competition import scoring, seating
from secret_hitler.server.competition.scoring import Result


def test_table_sizes_seat_everyone_at_tables_of_five_to_ten_near_the_size_asked() -> None:
    for people in range(5, 121):
        for target in range(5, 11):
            sizes = seating.table_sizes(people, target)
            assert sum(sizes) == people
            assert all(5 <= s <= 10 for s in sizes)
            assert max(sizes) - min(sizes) <= 1
    assert seating.table_sizes(14, 7) == [7, 7]
    assert seating.table_sizes(17, 7) == [6, 6, 5]
    assert seating.table_sizes(11, 10) == [6, 5]  # eleven do not fit one table
    assert seating.table_sizes(9, 5) == [9]  # two tables of 4.5 cannot be
    with pytest.raises(ValueError, match="at least 5"):
        seating.table_sizes(4, 5)


def _met_after(rounds: list[list[list[str]]]) -> dict[tuple[str, str], int]:
    met: dict[tuple[str, str], int] = {}
    for tables in rounds:
        for t in tables:
            for a, b in itertools.combinations(t, 2):
                key = seating.pair(a, b)
                met[key] = met.get(key, 0) + 1
    return met


def test_the_first_round_snakes_the_seeds_over_the_tables() -> None:
    people = [f"p{i:02d}" for i in range(10)]
    seeds = {p: 100.0 - i for i, p in enumerate(people)}  # p00 strongest
    tables = seating.seat_round(people, [5, 5], {}, seeds, {}, random.Random(1), first=True)
    strength = [sum(seeds[p] for p in t) for t in tables]
    assert abs(strength[0] - strength[1]) <= 1  # each table gets its share of strong players
    assert {"p00", "p01"} & set(tables[0]) and {"p00", "p01"} & set(tables[1])


def test_later_rounds_spread_meetings_where_score_groups_alone_would_repeat_them() -> None:
    """25 people at five tables of five for three rounds: the seating finds rounds in which no
    pair meets twice (such rounds exist), where dealing by points alone repeats pairs."""
    people = [f"p{i:02d}" for i in range(25)]
    seeds = {p: float(i) for i, p in enumerate(people)}
    rng = random.Random(7)
    rounds = [seating.seat_round(people, [5] * 5, {}, seeds, {}, rng, first=True)]
    points = {p: 1.0 for t in rounds[0][:2] for p in t}  # two whole tables scored
    met = _met_after(rounds)
    by_points = sorted(people, key=lambda p: (-points.get(p, 0.0), -seeds[p]))
    assert seating.repeats(seating.in_order(by_points, [5] * 5), met) > 0
    for _ in range(2):
        tables = seating.seat_round(people, [5] * 5, points, seeds, met, rng)
        assert sorted(p for t in tables for p in t) == people
        assert seating.repeats(tables, met) == 0
        rounds.append(tables)
        met = _met_after(rounds)
        for t in tables:  # a table's first three won
            for p in t[:3]:
                points[p] = points.get(p, 0.0) + 1.0
    assert max(met.values()) == 1


def test_pairs_kept_apart_never_share_a_table_when_a_seating_allows_it() -> None:
    people = [f"p{i}" for i in range(10)]
    apart = {seating.pair("p0", "p1"), seating.pair("p2", "p3"), seating.pair("p0", "p2")}
    tables = seating.seat_round(
        people, [5, 5], {}, {}, {}, random.Random(3), lambda a, b: seating.pair(a, b) in apart
    )
    for t in tables:
        assert not any(seating.pair(a, b) in apart for a, b in itertools.combinations(t, 2))


def test_a_win_is_worth_twice_the_other_teams_chance_so_both_teams_expect_the_same() -> None:
    for n in R.PLAYERS:
        p = R.liberal_win_rate(n, "official")
        lib = scoring.win_points("balanced", n, "official", True)
        fas = scoring.win_points("balanced", n, "official", False)
        assert lib == pytest.approx(2 * (1 - p), abs=1e-3)
        assert fas == pytest.approx(2 * p, abs=1e-3)
        assert p * lib == pytest.approx((1 - p) * fas, abs=2e-3)  # the same expectation
    assert scoring.win_points("flat", 7, "official", True) == 1.0
    assert scoring.points_table("flat", "official")[10] == {"liberal": 1.0, "fascist": 1.0}


def _results(rows: list[tuple[str, str, int, bool, bool, float]]) -> list[Result]:
    return [Result(u, t, r, "liberal", won, left, pts) for u, t, r, won, left, pts in rows]


def _entrants(*ids: str) -> list[dict[str, object]]:
    return [{"user_id": u, "name": u.upper(), "state": "playing", "seed": 0.0} for u in ids]


def test_standings_rank_by_points_then_table_strength_then_head_to_head_then_seed() -> None:
    entrants = _entrants("a", "b", "c", "d", "e", "f", "g", "h")
    entrants[4]["seed"] = 5.0  # e
    rows = [
        ("a", "t1", 1, True, False, 1.0),
        ("c", "t1", 1, False, False, 0.0),
        ("b", "t2", 1, True, False, 1.0),
        ("d", "t2", 1, False, False, 0.0),
        ("c", "t3", 2, True, False, 1.0),
        ("e", "t3", 2, False, False, 0.0),
        ("d", "t4", 2, False, False, 0.0),
        ("f", "t4", 2, False, True, 0.0),  # f left: a bot finished her game
    ]
    lines = scoring.standings(entrants, _results(rows))
    # a, b, c have a point: a and c sat with a one-point player (strength 1), b did not; a beat
    # c at their table. d and e have none, strength 1 each, never met: e's seed is higher.
    assert [ln.user_id for ln in lines] == ["a", "c", "b", "e", "d", "f", "g", "h"]
    assert [ln.rank for ln in lines] == [1, 2, 3, 4, 5, 6, 6, 6]  # f, g, h: an exact tie
    f = next(ln for ln in lines if ln.user_id == "f")
    assert f.left == 1 and f.points == 0 and f.to_json()["left"] == 1


def test_head_to_head_breaks_a_tie_of_points_and_strength() -> None:
    entrants = _entrants("a", "b", "x", "y")
    rows = [
        ("a", "t1", 1, True, False, 2.0),
        ("b", "t1", 1, False, False, 0.0),
        ("x", "t1", 1, False, False, 0.0),
        ("b", "t2", 2, True, False, 2.0),
        ("y", "t2", 2, False, False, 0.0),
        ("a", "t3", 2, False, False, 0.0),
        ("x", "t3", 2, True, False, 0.0),
    ]
    lines = scoring.standings(entrants, _results(rows))
    a, b = (next(ln for ln in lines if ln.user_id == u) for u in "ab")
    assert a.points == b.points == 2.0
    assert a.strength == b.strength
    assert a.head_to_head == 2.0 and b.head_to_head == 0.0  # a won the game they shared
    assert [ln.user_id for ln in lines][:2] == ["a", "b"]


def test_elimination_standings_put_the_champions_first_then_the_round_reached() -> None:
    entrants = _entrants("a", "b", "c")
    rows = [
        ("a", "t1", 1, True, False, 1.0),
        ("b", "t1", 1, True, False, 1.0),
        ("c", "t1", 1, False, False, 0.0),
        ("a", "t2", 2, False, False, 0.0),
        ("b", "t2", 2, True, False, 1.0),
    ]
    lines = scoring.standings(entrants, _results(rows), elimination=True, champions=["b"])
    assert [ln.user_id for ln in lines] == ["b", "a", "c"]
    assert lines[0].champion and lines[0].to_json()["champion"] is True


def test_each_tables_winners_go_on_made_up_to_a_table_by_the_best_of_the_rest() -> None:
    from secret_hitler.server.competition.tournaments import advancing

    playing = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]  # by seed
    rows = [
        ("a", "t1", 1, True, False, 1.0),
        ("b", "t1", 1, True, True, 0.0),  # her team won, but a bot finished her game
        ("c", "t1", 1, False, False, 0.0),
        ("d", "t2", 1, True, False, 1.2),
        ("e", "t2", 1, True, False, 1.2),
        ("f", "t2", 1, True, False, 1.2),
        ("g", "t2", 1, False, False, 0.0),
        ("h", "t3", 1, True, False, 0.8),
        ("i", "t3", 1, False, False, 0.0),
        ("j", "t3", 1, False, False, 0.0),
    ]
    assert advancing(_results(rows), playing, 5) == ["a", "d", "e", "f", "h"]
    # fewer winners than a table: the best of the rest by points, then seed
    few = [r for r in rows if r[0] not in ("e", "f")]
    assert advancing(_results(few), [p for p in playing if p not in ("e", "f")], 5) == [
        "a",
        "b",
        "c",
        "d",
        "h",
    ]
    # who is out already does not go on, even as a winner
    assert "d" not in advancing(_results(rows), [p for p in playing if p != "d"], 5)


def test_two_entrants_of_one_place_are_kept_apart_in_a_rated_tournament() -> None:
    from secret_hitler.server.competition.tournaments import places

    home = {"a": "addr1", "d": None}
    assert places(home) == frozenset({"a:addr1"})
    assert places({"a": "addr2", "d": "dev1"}) == frozenset({"a:addr2", "d:dev1"})
    assert places(None) == frozenset() and places({"d": "x"}) == frozenset()
    assert places(home) & places({"a": "addr1", "d": "dev9"})  # one address: apart
    assert not places(home) & places({"a": "addr3", "d": "dev9"})
