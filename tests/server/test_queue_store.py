"""The matchmaking queue's transactions (competition/queue.py) and a table's rating limit
(competition/limits.py), on a SQLite database migrated as the server migrates it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from secret_hitler import ratings as R
from secret_hitler.server.competition import limits as L
from secret_hitler.server.competition import queue as Q
from secret_hitler.server.core.errors import LobbyError
from secret_hitler.server.storage import db
from secret_hitler.server.storage.writer import Store, Write

NO_SHOW = 60.0  # the first no-show cooldown these tests use


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[sa.Engine]:
    e = db.make_engine(f"sqlite:///{tmp_path / 'q.db'}")
    db.migrate(e)
    yield e
    e.dispose()


def run(engine: sa.Engine, fn: Write) -> Any:
    with engine.begin() as conn:
        return fn(conn)


def join(engine: sa.Engine, user: str, now: float = 0.0, rating: float = 25.0) -> Q.Entry:
    entry: Q.Entry = run(engine, Q.join(user, user.title(), 5, "rated", rating, None, now, NO_SHOW))
    return entry


def test_a_person_joins_once_and_leaves(engine: sa.Engine) -> None:
    join(engine, "ann")
    with pytest.raises(LobbyError) as caught:
        join(engine, "ann", now=1.0)
    assert caught.value.code == "already_queued"
    assert run(engine, Q.counts()) == [{"players": 5, "category": "rated", "waiting": 1}]
    state = run(engine, Q.state("ann", 2.0, NO_SHOW))
    assert state["state"] == "waiting" and state["players"] == 5
    gone = run(engine, Q.leave("ann", 3.0))
    assert gone is not None and gone.user_id == "ann"
    assert run(engine, Q.leave("ann", 4.0)) is None
    assert run(engine, Q.state("ann", 5.0, NO_SHOW))["state"] == "idle"


def test_a_ready_check_seats_its_people_in_the_transaction_that_stores_the_table(
    engine: sa.Engine,
) -> None:
    people = [f"p{i}" for i in range(5)]
    for i, p in enumerate(people):
        join(engine, p, now=float(i))
    run(engine, Q.open_match("m1", 5, "rated", people, deadline=40.0, now=10.0))
    state = run(engine, Q.state("p0", 11.0, NO_SHOW))
    assert state["state"] == "check"
    assert state["match"] == {
        "id": "m1",
        "deadline": 40.0,
        "players": 5,
        "in": 5,
        "ready": 0,
        "you_ready": False,
    }
    for p in people:
        run(engine, Q.confirm(p, "m1", True, 12.0))
    (match,) = run(engine, Q.snapshot()).matches
    assert match.complete
    stored: list[str] = []
    run(engine, Q.seat(match, "t1", lambda conn: stored.append("t1"), 13.0))
    assert stored == ["t1"]
    state = run(engine, Q.state("p3", 14.0, NO_SHOW))
    assert state["state"] == "seated" and state["table_id"] == "t1"
    assert run(engine, Q.snapshot()).matches == []
    # a seated entry tells its client for a while, then goes
    run(engine, Q.sweep(14.0 + Q.SEATED_KEPT + 1))
    assert run(engine, Q.state("p3", 14.0 + Q.SEATED_KEPT + 2, NO_SHOW))["state"] == "idle"


def test_someone_leaving_before_the_seating_makes_it_stale_and_nothing_is_written(
    engine: sa.Engine,
) -> None:
    people = [f"p{i}" for i in range(5)]
    for p in people:
        join(engine, p)
    run(engine, Q.open_match("m1", 5, "rated", people, deadline=40.0, now=1.0))
    for p in people:
        run(engine, Q.confirm(p, "m1", True, 2.0))
    (match,) = run(engine, Q.snapshot()).matches
    run(engine, Q.leave("p2", 3.0))  # after the former read the queue
    stored: list[str] = []
    with pytest.raises(Q.Stale):
        run(engine, Q.seat(match, "t1", lambda conn: stored.append("t1"), 4.0))
    assert stored == []
    assert run(engine, Q.state("p0", 5.0, NO_SHOW))["state"] == "check"  # rolled back
    # and a second former cannot take people who are no longer waiting
    with pytest.raises(Q.Stale):
        run(engine, Q.open_match("m2", 5, "rated", people[:1], deadline=40.0, now=5.0))


def test_non_confirmers_leave_and_the_second_no_show_cools_down_growing(
    engine: sa.Engine,
) -> None:
    people = [f"p{i}" for i in range(5)]
    for p in people:
        join(engine, p)
    run(engine, Q.open_match("m1", 5, "rated", people, deadline=30.0, now=0.0))
    run(engine, Q.confirm("p0", "m1", True, 1.0))
    gone = run(engine, Q.drop_unready("m1", 30.0))
    assert sorted(gone) == ["p1", "p2", "p3", "p4"]
    assert run(engine, Q.state("p0", 31.0, NO_SHOW))["state"] == "check"
    back = run(engine, Q.dissolve("m1", 31.0))
    assert back == ["p0"]
    assert run(engine, Q.state("p0", 32.0, NO_SHOW))["state"] == "waiting"
    # p1 missed one check: forgiven; she joins, declines the next: cooling down
    join(engine, "p1", now=40.0)
    run(engine, Q.open_match("m2", 5, "rated", ["p1"], deadline=70.0, now=41.0))
    run(engine, Q.confirm("p1", "m2", False, 42.0))
    with pytest.raises(LobbyError) as caught:
        join(engine, "p1", now=43.0)
    assert caught.value.code == "queue_cooldown"
    assert run(engine, Q.state("p1", 43.0, NO_SHOW))["cooldown_until"] == 42.0 + NO_SHOW
    join(engine, "p1", now=42.0 + NO_SHOW)  # over
    assert Q.no_show_until([0.0, 10.0, 20.0], NO_SHOW) == 20.0 + 3 * NO_SHOW
    assert Q.no_show_until([float(i) for i in range(30)], NO_SHOW) == 29.0 + Q.NO_SHOW_MAX


def test_an_answer_to_a_ready_check_one_is_not_in_is_refused(engine: sa.Engine) -> None:
    join(engine, "ann")
    with pytest.raises(LobbyError) as caught:
        run(engine, Q.confirm("ann", "m9", True, 1.0))
    assert caught.value.code == "no_ready_check"


def test_rating_limits_are_checked_and_refuse_outside_players(engine: sa.Engine) -> None:
    assert L.check_limits(None, None) == (None, None)
    assert L.check_limits(5.123, 20.0) == (5.12, 20.0)
    for low, high, field in [
        (30.0, 10.0, "rating_min"),
        (float("nan"), None, "rating_min"),
        (None, 1e9, "rating_max"),
    ]:
        with pytest.raises(LobbyError) as caught:
            L.check_limits(low, high)
        assert caught.value.code == "invalid_settings" and field in str(caught.value)
    assert L.refusal(5.0, 20.0, 10.0) is None
    too_low = L.refusal(5.0, None, 0.0)
    assert too_low is not None and too_low.code == "rating_too_low"
    too_high = L.refusal(None, 20.0, 20.5)
    assert too_high is not None and too_high.code == "rating_too_high"
    # a player without rated games has the default's shown rating
    assert L.shown(run(engine, L.player_rating("nobody"))) == L.shown(R.default())
    run(engine, lambda conn: conn.execute(db.ratings.insert().values(**_rating("ann", 30.0, 2.0))))
    assert L.shown(run(engine, L.player_rating("ann"))) == 24.0


def _rating(user_id: str, mu: float, sigma: float) -> dict[str, Any]:
    return {"user_id": user_id, "mu": mu, "sigma": sigma, "games": 1, "updated_at": 0.0}


def test_a_refused_step_reaches_its_caller_and_is_no_logged_failure(
    engine: sa.Engine, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        store = Store(engine)
        try:
            await store.write(Q.join("ann", "Ann", 5, "casual", 25.0, None, 0.0, NO_SHOW))
            with pytest.raises(LobbyError):
                await store.write(Q.join("ann", "Ann", 5, "casual", 25.0, None, 1.0, NO_SHOW))
            with pytest.raises(Q.Stale):
                await store.write(Q.open_match("m1", 5, "casual", ["bo"], 30.0, 1.0))
            assert await store.read(Q.counts()) == [
                {"players": 5, "category": "casual", "waiting": 1}
            ]
        finally:
            store.close()

    with caplog.at_level(logging.ERROR):
        asyncio.run(scenario())
    assert "database write failed" not in caplog.text
