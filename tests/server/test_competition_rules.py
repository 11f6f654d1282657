"""The rules of competitive play without a server (docs/competitive.md): who may take a rated
seat and from where, the cooldown after leaving, a leaver's rating, the faction correction per
preset, the moves against one's own team, seasons and their ladders, and the conduct signals,
on a SQLite database migrated as the server migrates it."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from secret_hitler import ratings as R
from secret_hitler.engine import Game
from secret_hitler.server.competition import eligibility as E
from secret_hitler.server.competition import seasons as SZ
from secret_hitler.server.competition import signals
from secret_hitler.server.storage import db
from secret_hitler.server.storage import ratings as SR

KEY = E.hashing_key("test-secret")
DAY = 86400.0
RULES = E.RatedRules(min_age=DAY, min_games=3, cooldown=600.0)
NOW = 1_800_000_000.0


# ---------------------------------------------------------------------- rated seats
def standing(**changes: Any) -> E.Standing:
    base: dict[str, Any] = {"account": True, "created_at": NOW - 2 * DAY, "games": 5, "leaves": ()}
    return E.Standing(**{**base, **changes})


@pytest.mark.parametrize(
    ("found", "code"),
    [
        (None, "rated_needs_account"),
        (standing(account=False), "rated_needs_account"),
        (standing(created_at=NOW - DAY + 60), "rated_account_new"),
        (standing(games=2), "rated_needs_games"),
        (standing(leaves=(NOW - 60,)), "rated_cooldown"),
        (standing(), None),
        (standing(created_at=NOW - DAY, games=3, leaves=(NOW - 601,)), None),
    ],
)
def test_a_rated_seat_needs_an_account_of_age_and_games_and_no_cooldown(
    found: E.Standing | None, code: str | None
) -> None:
    problem = E.refusal(found, RULES, NOW)
    assert (problem.code if problem else None) == code
    if problem is not None:
        assert problem.status == 403
    assert E.summary(found, RULES, NOW)["eligible"] is (code is None)


def test_each_leave_in_the_window_makes_the_cooldown_three_times_longer_up_to_a_week() -> None:
    assert E.cooldown_until([], 600) is None
    assert E.cooldown_until([NOW], 600) == NOW + 600
    assert E.cooldown_until([NOW - 100, NOW], 600) == NOW + 1800
    assert E.cooldown_until([NOW - 5, NOW - 3, NOW], 600) == NOW + 5400
    assert E.cooldown_until([NOW] * 40, 600) == NOW + E.COOLDOWN_MAX
    summary = E.summary(standing(leaves=(NOW - 100, NOW - 50)), RULES, NOW)
    assert summary["reason"] == "rated_cooldown" and summary["recent_leaves"] == 2
    assert summary["cooldown_until"] == NOW - 50 + 1800


def test_an_address_is_a_place_an_ipv6_household_is_its_prefix() -> None:
    assert E.place("203.0.113.7") == "203.0.113.7"
    assert E.place("2001:db8:1:2:aaaa::1") == E.place("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert E.place("2001:db8:1:3::1") != E.place("2001:db8:1:2::1")
    assert E.place("::ffff:203.0.113.7") == "203.0.113.7"
    assert E.place("unknown") == "unknown"


def test_admissions_are_keyed_hashes_of_the_place_and_the_device() -> None:
    device = "d" * 22
    a = E.admission(KEY, "203.0.113.7", device, "Firefox")
    assert a == E.admission(KEY, "203.0.113.7", device, "Firefox")  # the same on every node
    assert "203.0.113.7" not in a.address and device not in (a.device or "")
    assert a.address != E.admission(E.hashing_key("other"), "203.0.113.7", device, "x").address
    assert E.admission(KEY, "203.0.113.7", device, "Chrome").device != a.device
    assert E.admission(KEY, "203.0.113.7", None, "Firefox").device is None
    assert E.admission(KEY, "203.0.113.7", "short", "Firefox").device is None  # not our id
    assert E.Admission.from_json(a.to_json()) == a
    assert E.Admission.from_json({"a": 3}) is None and E.Admission.from_json(None) is None


def test_one_rated_seat_per_address_and_per_device() -> None:
    ann = E.admission(KEY, "203.0.113.1", "a" * 22, "UA")
    same_address = E.admission(KEY, "203.0.113.1", "b" * 22, "UA")
    same_device = E.admission(KEY, "198.51.100.9", "a" * 22, "UA")
    other = E.admission(KEY, "198.51.100.9", "c" * 22, "UA")
    no_device = E.admission(KEY, "198.51.100.10", None, "UA")
    assert E.table_refusal(same_address, [ann]).code == "rated_same_address"  # type: ignore[union-attr]
    assert E.table_refusal(same_device, [ann]).code == "rated_same_device"  # type: ignore[union-attr]
    assert E.table_refusal(other, [ann]) is None
    assert E.table_refusal(no_device, [ann, E.Admission("x", None)]) is None


def test_the_device_cookie_is_read_from_a_cookie_header() -> None:
    good = "A" * 16
    assert E.device_cookie(f"sh_session=abc; sh_device={good}") == good
    assert E.device_cookie("sh_device=no") is None
    assert E.device_cookie('sh_device="; bad') is None
    assert E.device_cookie("") is None


# ---------------------------------------------------------------------- the rating
def test_a_leaver_gets_the_update_of_a_loss_and_nobody_else_changes() -> None:
    libs = [R.Rating(25 + i, 6) for i in range(3)]
    fas = [R.Rating(24, 7), R.Rating(26, 5)]
    plain_lib, plain_fas = R.rate_game(libs, fas, True)
    lost_lib, _ = R.rate_game(libs, fas, False)
    after = R.rate_with_leavers(libs, fas, True, left=frozenset({1, 3}))
    assert after[0] == plain_lib[0] and after[2] == plain_lib[2]
    assert after[1] == lost_lib[1] and after[1].mu < libs[1].mu  # a winner who left: a loss
    assert after[3] == plain_fas[0]  # a loser who left loses as she would have
    assert after[4] == plain_fas[1]
    assert R.rate_with_leavers(libs, fas, True) == plain_lib + plain_fas


@pytest.mark.parametrize("players", list(R.PLAYERS))
def test_a_preset_shifts_the_liberals_log_odds_by_its_fitted_shift(players: int) -> None:
    base = R.liberal_win_rates()[players]
    assert R.liberal_win_rate(players) == pytest.approx(base)
    for preset in R.rated_presets():
        shift = R.preset_shifts()[preset][players]
        rate = R.liberal_win_rate(players, preset)
        assert math.log(rate / (1 - rate)) - math.log(base / (1 - base)) == pytest.approx(shift)
        libs, fas = R.team_sizes(players)
        expected = R.expected_liberal_win([R.default()] * libs, [R.default()] * fas, preset)
        assert expected == pytest.approx(rate, abs=1e-6)  # the handicap is fitted to it
    with pytest.raises(ValueError, match="no faction correction"):
        R.liberal_win_rate(players, "forum")


def test_a_fitted_shift_moves_the_win_rate_and_the_handicap_with_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A preset whose liberals win more (a shift of +0.5 in log-odds): its target rate is the
    real games' moved by exactly that, and its virtual fascist is weaker to match."""
    fitted = {**R.preset_shifts(), "test-preset": {n: 0.5 for n in R.PLAYERS}}
    monkeypatch.setattr(R, "preset_shifts", lambda: fitted)
    for players in (5, 7, 10):
        base = R.liberal_win_rates()[players]
        rate = R.liberal_win_rate(players, "test-preset")
        assert math.log(rate / (1 - rate)) == pytest.approx(math.log(base / (1 - base)) + 0.5)
        assert rate > base and R.handicap(players, "test-preset") < R.handicap(players)
        libs, fas = R.team_sizes(players)
        team = ([R.default()] * libs, [R.default()] * fas)
        assert R.expected_liberal_win(*team, "test-preset") == pytest.approx(rate, abs=1e-6)


def test_the_preset_balance_file_says_how_it_was_made() -> None:
    import json

    data = json.loads(R.PRESET_BALANCE.read_text(encoding="utf-8"))
    assert data["command"].startswith("python scripts/fit_preset_balance.py")
    for fit in data["presets"].values():
        for n in R.PLAYERS:
            cell = fit["player_counts"][str(n)]
            lo, hi = cell["interval_95"]
            assert lo <= cell["shift"] <= hi and cell["games"] >= 2


# ---------------------------------------------------------------------- moves against one's team
def _scripted() -> Game:
    """Five players, seats 0-2 liberal, 3 fascist, 4 Hitler: the liberal president 0 discards a
    liberal from L F F, the liberal chancellor 2 enacts a fascist from L F, and the fascist
    president 3 executes Hitler."""
    deck = ["liberal" if c == "L" else "fascist" for c in "LFFLFFFFFFFFLLLLF"]
    roles = ["liberal", "liberal", "liberal", "fascist", "hitler"]
    g = Game(5, "official", roles=roles, first_president=0, deck=deck)

    def act(seat: int, **fields: Any) -> None:
        for a in g.legal_actions(seat):
            if all(a.to_json().get(k) == v for k, v in fields.items()):
                g.apply(a)
                return
        raise AssertionError(f"seat {seat} may not {fields}")

    def government(president: int, chancellor: int, discard: str, enact: str) -> None:
        act(president, type="nominate", target=chancellor)
        for seat in range(5):
            if g.view(None).alive[seat]:
                act(seat, type="vote", ja=True)
        act(president, type="discard", policy=discard)
        act(chancellor, type="enact", policy=enact)

    government(0, 1, "liberal", "fascist")  # 0 holds L F F and throws the liberal away
    government(1, 2, "fascist", "fascist")  # 1 passes L F; 2 enacts the fascist
    government(2, 3, "fascist", "fascist")  # F F F: no choice (the peek follows)
    while 2 in g.to_act():  # the peek, seen
        act(2)
    government(3, 0, "fascist", "fascist")  # the fourth fascist policy: an execution
    act(3, type="execute", target=4)
    assert g.finished and g.winner is not None and g.winner.value == "liberal"
    return g


def test_moves_against_ones_own_team_are_counted_per_seat() -> None:
    assert signals.throws(_scripted()) == {0: 1, 2: 1, 3: 1}


def test_an_honest_game_has_no_move_against_its_team() -> None:
    g = Game(7, "official", seed=5)
    import random

    rng = random.Random(1)
    while not g.finished:
        seat = g.to_act()[0]
        g.apply(rng.choice([a for a in g.legal_actions(seat) if a.type != "claim"]))
    for seat, n in signals.throws(g).items():  # random moves may throw; never a fascist's
        assert n >= 1 and (
            g.roles[seat].party.value == "liberal" or g.roles[seat].value == "fascist"
        )


# ---------------------------------------------------------------------- storage
@pytest.fixture
def engine(tmp_path: Path) -> Iterator[sa.Engine]:
    e = db.make_engine(f"sqlite:///{tmp_path / 'c.db'}")
    db.migrate(e)
    yield e
    e.dispose()


def _season(id: str, start: float, end: float, placement: int = 2) -> SZ.Season:
    return SZ.new_season(id, id.title(), start, end, placement)


def test_seasons_are_checked_and_never_overlap(engine: sa.Engine) -> None:
    for bad in (
        lambda: SZ.new_season("Bad Id", "x", 0, 1, 1),
        lambda: SZ.new_season("s", " ", 0, 1, 1),
        lambda: SZ.new_season("s", "x", 5, 5, 1),
        lambda: SZ.new_season("s", "x", 0, 1, 101),
    ):
        with pytest.raises(SZ.SeasonError):
            bad()
    with engine.begin() as conn:
        SZ.add_season(_season("one", NOW, NOW + 10 * DAY), NOW)(conn)
        with pytest.raises(SZ.SeasonError, match="overlaps"):
            SZ.add_season(_season("two", NOW + 9 * DAY, NOW + 20 * DAY), NOW)(conn)
        with pytest.raises(SZ.SeasonError, match="exists"):
            SZ.add_season(_season("one", NOW + 30 * DAY, NOW + 40 * DAY), NOW)(conn)
        SZ.add_season(_season("two", NOW + 10 * DAY, NOW + 20 * DAY), NOW)(conn)
        assert SR.season_at(conn, NOW - 1) is None
        assert SR.season_at(conn, NOW) == "one"
        assert SR.season_at(conn, NOW + 10 * DAY) == "two"
        ended = SZ.end_season("one", NOW + DAY)(conn)
        assert ended.ends_at == NOW + DAY and SR.season_at(conn, NOW + 2 * DAY) is None
        with pytest.raises(SZ.SeasonError, match="before it starts"):
            SZ.end_season("two", NOW)(conn)
        assert [s.id for s in SZ.all_seasons(conn)] == ["one", "two"]
    assert SZ.parse_time("2027-01-01") == 1798761600.0
    assert SZ.parse_time("2027-01-01T01:00+01:00") == 1798761600.0
    with pytest.raises(SZ.SeasonError, match="not a date"):
        SZ.parse_time("soon")


def _finished_game(conn: Any, game_id: str, roles: list[str], winner: str, at: float) -> None:
    conn.execute(
        db.games.insert().values(
            id=game_id,
            table_id=game_id,
            players=len(roles),
            names=[f"P{i}" for i in range(len(roles))],
            rules="official",
            seed=1,
            roles=roles,
            first_president=0,
            deck=[],
            reshuffles=[],
            status="finished",
            winner=winner,
            reason="x",
            action_count=0,
            created_at=at,
            finished_at=at,
        )
    )


def _rated(conn: Any, game_id: str, users: list[str], roles: list[str], winner: str) -> None:
    """A rated game started now (its season: the one in force) and finished."""
    admissions = {u: {"a": f"addr-{u}", "d": None} for u in users}
    SR.with_rated_start(lambda c: None, game_id, list(users), admissions)(conn)
    _finished_game(conn, game_id, roles, winner, NOW)
    assert SR.rate_game(game_id)(conn)


ROLES = ["liberal", "liberal", "liberal", "fascist", "hitler"]


def _users(conn: Any, n: int) -> list[str]:
    ids = [f"u{i}" for i in range(n)]
    conn.execute(db.users.insert(), [{"id": u, "name": f"P{u}", "created_at": 0.0} for u in ids])
    return ids


def test_a_season_ladder_ranks_placed_players_and_a_leaver_loses(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SR.time, "time", lambda: NOW)
    with engine.begin() as conn:
        users = _users(conn, 5)
        SZ.add_season(_season("spring", NOW - DAY, NOW + DAY, placement=2), NOW)(conn)
        _rated(conn, "g1", users, ROLES, "liberal")
        first = SZ.ladder("spring", 50, NOW)(conn)
        assert first["players"] == [] and first["placing"] == 5  # nobody placed after one game
        SR.record_leave("g2pre", "u0", "left", NOW)(conn)  # a leave of another game
        # u0 (a liberal) leaves the second game, which the liberals win
        SR.with_rated_start(lambda c: None, "g2", users, None)(conn)
        SR.record_leave("g2", "u0", "left", NOW)(conn)
        SR.record_leave("g2", "u0", "replaced", NOW)(conn)  # counted once per game
        _finished_game(conn, "g2", ROLES, "liberal", NOW)
        assert SR.rate_game("g2")(conn) and not SR.rate_game("g2")(conn)  # rated once
        board = SZ.ladder("spring", 50, NOW)(conn)
        assert board["placing"] == 0 and len(board["players"]) == 5
        ranked = {p["user_id"]: p for p in board["players"]}
        # u1 and u2 won both games as liberals, u3 and u4 lost both: equal ratings share a rank
        assert [p["rank"] for p in board["players"]] == [1, 1, 3, 4, 4]
        assert ranked["u1"]["rank"] == ranked["u2"]["rank"] == 1 and ranked["u0"]["rank"] == 3
        ratings = [p["rating"] for p in board["players"]]
        assert ratings == sorted(ratings, reverse=True)
        assert ranked["u0"]["wins"] == 1 and ranked["u1"]["wins"] == 2
        assert ranked["u0"]["leaves"] == 1 and ranked["u1"]["leaves"] == 0
        assert ranked["u0"]["rating"] < ranked["u1"]["rating"]  # same games, but a loss
        h = db.rating_history.c
        row = conn.execute(
            sa.select(h.won, h.left_early, h.season_id).where(h.game_id == "g2", h.user_id == "u0")
        ).one()
        assert (row.won, row.left_early, row.season_id) == (False, True, "spring")
        mine = SZ.player_seasons(conn, "u1", NOW)
        assert [s["season"]["id"] for s in mine] == ["spring"]
        [spring] = mine
        assert spring["games"] == 2 and spring["placed"] and spring["rank"] == ranked["u1"]["rank"]
        assert spring["by_role"]["liberal"] == {"games": 2, "wins": 2, "win_rate": 1.0}
        assert spring["by_players"] == {"5": {"games": 2, "wins": 2, "win_rate": 1.0}}
        with pytest.raises(SZ.SeasonError, match="rated games belong"):
            SZ.remove_season("spring")(conn)
        assert SZ.ladder("autumn", 50, NOW)(conn) is None


def test_a_game_outside_every_season_counts_all_time_only(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SR.time, "time", lambda: NOW)
    with engine.begin() as conn:
        users = _users(conn, 5)
        SZ.add_season(_season("later", NOW + DAY, NOW + 2 * DAY), NOW)(conn)
        _rated(conn, "g1", users, ROLES, "fascist")
        assert conn.execute(sa.select(sa.func.count()).select_from(db.season_ratings)).scalar() == 0
        assert conn.execute(sa.select(sa.func.count()).select_from(db.ratings)).scalar() == 5
        assert SZ.player_seasons(conn, "u0", NOW) == []


def test_a_seat_a_stand_in_played_for_most_of_the_game_counts_as_left(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SR.time, "time", lambda: NOW)
    with engine.begin() as conn:
        users = _users(conn, 5)
        SR.with_rated_start(lambda c: None, "g1", users, None)(conn)
        _finished_game(conn, "g1", ROLES, "liberal", NOW)
        moves = [(0, "absent"), (0, "absent"), (0, None), (1, "timer"), (1, None), (1, None)]
        conn.execute(
            db.actions.insert(),
            [
                {"game_id": "g1", "idx": i, "seat": s, "action": {}, "by": by, "ts": NOW}
                for i, (s, by) in enumerate(moves)
            ],
        )
        assert SR.rate_game("g1")(conn)
        lv = db.rated_leaves.c
        left = conn.execute(sa.select(lv.user_id, lv.kind).where(lv.game_id == "g1")).all()
        assert [tuple(r) for r in left] == [("u0", "absent")]


def test_conduct_signals_flag_shared_places_pairs_that_feed_and_throws(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two accounts from one place at different tables, always together, one always winning
    against the other; and a player who threw six times. Each flag once; a cleared flag opens
    again only when its evidence grows."""
    monkeypatch.setattr(SR.time, "time", lambda: NOW)
    with engine.begin() as conn:
        _users(conn, 10)
        a, b = "u0", "u5"
        for k in range(signals.FED_MIN):
            seats = [a, "u1", "u2", b, "u3"] if k % 2 else [a, "u6", "u7", b, "u8"]
            admissions = {u: {"a": f"addr-{u}", "d": None} for u in seats}
            admissions[b] = {"a": "addr-u0", "d": None}  # b sits from a's place
            SR.with_rated_start(lambda c: None, f"g{k}", seats, admissions)(conn)
            _finished_game(conn, f"g{k}", ROLES, "liberal", NOW)  # a liberal, b the fascist
            SR.rate_game(f"g{k}", {1: 3} if k < 2 else None)(conn)  # seat 1 throws 3 + 3
        # the last game's players: a, u6, u7, b, u8 (u6 threw in game 0)
        opened = signals.scan(f"g{signals.FED_MIN - 1}", NOW)(conn)
        found = {(f["kind"], tuple(f["users"])): f for f in signals.flags()(conn)}
        assert set(found) == {
            ("shared_place", (a, b)),
            ("always_together", (a, b)),
            ("fed", (a, b)),
            ("thrown_games", ("u6",)),
        }
        assert opened == 4
        assert found[("always_together", (a, b))]["detail"]["games"] == signals.FED_MIN
        fed = found[("fed", (a, b))]["detail"]
        assert fed["winner"] == a and fed["wins"] == fed["games"] == signals.FED_MIN
        assert found[("thrown_games", ("u6",))]["detail"]["throws"] == 3
        signals.scan("g1", NOW)(conn)  # u1 threw in game 1
        assert ("thrown_games", ("u1",)) in {
            (f["kind"], tuple(f["users"])) for f in signals.flags()(conn)
        }
        flag_id = found[("fed", (a, b))]["id"]
        assert signals.clear(flag_id, NOW)(conn) and not signals.clear(flag_id, NOW)(conn)
        signals.scan(f"g{signals.FED_MIN - 1}", NOW)(conn)  # nothing new: stays cleared
        assert flag_id not in {f["id"] for f in signals.flags()(conn)}
        assert flag_id in {f["id"] for f in signals.flags(include_cleared=True)(conn)}


def test_the_rated_settings_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from secret_hitler.server.core.config import Settings

    for name, value in (
        ("SH_RATED_MIN_AGE", "0"),
        ("SH_RATED_MIN_GAMES", "0"),
        ("SH_LEAVE_COOLDOWN", "30"),
        ("SH_AFK_AFTER", "1.5"),
    ):
        monkeypatch.setenv(name, value)
    s = Settings.from_env()
    assert (s.rated_min_age, s.rated_min_games, s.leave_cooldown, s.afk_after) == (0, 0, 30, 1.5)
    assert E.RatedRules.of(s) == E.RatedRules(0, 0, 30)
    for name, value in (
        ("SH_RATED_MIN_GAMES", "-1"),
        ("SH_RATED_MIN_GAMES", "x"),
        ("SH_AFK_AFTER", "-2"),
    ):
        monkeypatch.setenv(name, value)
        with pytest.raises(ValueError, match=name):
            Settings.from_env()
        monkeypatch.setenv(name, "0")
