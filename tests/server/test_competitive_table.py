"""A table's competitive use-cases without HTTP (docs/competitive.md): rated seats taken from
one place each, a rated game left early, and the vote to replace an absent player by a bot, on
the table's clock (``table_support``: a clock the test moves, a writer that can fail)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from table_support import FakeClock, FakeWriter, Notes, frames, make_table, people, run, services

from secret_hitler.server.accounts.auth import User
from secret_hitler.server.competition.eligibility import (
    Admission,
    RatedEntry,
    admission,
    hashing_key,
)
from secret_hitler.server.core.errors import LobbyError
from secret_hitler.server.core.protocol import Hello
from secret_hitler.server.storage.writer import StorageUnavailable
from secret_hitler.server.table import afk, usecases
from secret_hitler.server.table.conn import Conn
from secret_hitler.server.table.seats import Seat
from secret_hitler.server.table.session import Table

KEY = hashing_key("test")
AFK_AFTER = 60.0


class Anyone:
    """``Admission`` of the blocklists: nobody is kept apart."""

    def check_join(self, user_id: str, table: Table) -> None:
        return None


def table_of(seats: list[Seat], rated: bool = False) -> tuple[Table, FakeWriter, FakeClock]:
    writer, clock = FakeWriter(), FakeClock()
    table = make_table(services(writer, clock, Notes(), afk_after=AFK_AFTER), seats)
    table.rated = rated
    return table, writer, clock


def entry(addr: str, device: str | None = None, problem: LobbyError | None = None) -> RatedEntry:
    return RatedEntry(admission(KEY, addr, device, "UA"), problem)


async def refused(code: str, work: Any) -> LobbyError:
    with pytest.raises(LobbyError) as exc:
        await work
    assert exc.value.code == code
    return exc.value


# ---------------------------------------------------------------------- rated seats
def test_a_rated_table_takes_one_seat_per_place_and_device_and_asks_for_standing() -> None:
    async def scenario() -> None:
        table, writer, _ = table_of([Seat() for _ in range(5)], rated=True)
        join = usecases.join
        await refused("rated_needs_account", join(table, User("u1", "A"), None, Anyone()))
        too_new = LobbyError(403, "rated_account_new", "wait")
        await refused(
            "rated_account_new",
            join(table, User("u1", "A"), None, Anyone(), entry("10.0.0.1", problem=too_new)),
        )
        assert all(s.kind == "empty" for s in table.seats) and not writer.writes
        assert await join(table, User("u1", "A"), None, Anyone(), entry("10.0.0.1", "d" * 20)) == 0
        await refused(
            "rated_same_address", join(table, User("u2", "B"), None, Anyone(), entry("10.0.0.1"))
        )
        await refused(
            "rated_same_device",
            join(table, User("u2", "B"), None, Anyone(), entry("10.0.0.2", "d" * 20)),
        )
        assert await join(table, User("u2", "B"), None, Anyone(), entry("10.0.0.2", "e" * 20)) == 1
        stored = table.row()["admissions"]
        assert set(stored) == {"u1", "u2"} and "10.0.0.1" not in json.dumps(stored)
        # a seat freed frees its place
        await usecases.leave(table, User("u1", "A"))
        assert set(table.row()["admissions"]) == {"u2"}
        assert await join(table, User("u3", "C"), None, Anyone(), entry("10.0.0.1")) == 0
        # a join the database refuses puts the admissions back with the seats
        writer.fail = StorageUnavailable("down")
        with pytest.raises(StorageUnavailable):
            await join(table, User("u4", "D"), None, Anyone(), entry("10.0.0.4"))
        assert "u4" not in table.seating.admissions and table.seats[2].kind == "empty"

    run(scenario)


def test_a_stored_tables_admissions_come_back_with_it() -> None:
    table, _, _ = table_of(people(2) + [Seat()] * 3, rated=True)
    table.seating.restore_admissions(
        {"u0": {"a": "x", "d": None}, "u1": {"a": "y", "d": "z"}, "bad": "not one"}
    )
    assert table.seating.seated_admissions() == {
        "u0": Admission("x", None),
        "u1": Admission("y", "z"),
    }
    assert table.row()["admissions"] == {"u0": {"a": "x", "d": None}, "u1": {"a": "y", "d": "z"}}


def test_a_rated_game_left_early_is_stored_with_the_seat_handed_to_a_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    leaves: list[tuple[str, str, str]] = []

    def record(game_id: str, user_id: str, kind: str, ts: float) -> Any:
        leaves.append((game_id, user_id, kind))
        return lambda conn: None

    monkeypatch.setattr(usecases, "record_leave", record)

    async def scenario() -> None:
        table, writer, _ = table_of(people(), rated=True)
        async with table.lock:
            await table.start_game()
        before = len(writer.writes)
        await usecases.leave(table, User("u3", "P3"))
        assert table.seats[3].kind == "bot" and leaves == [("t1", "u3", "left")]
        assert len(writer.writes) == before + 1  # the seat and the leave: one transaction
        await refused("use_afk_vote", usecases.hand_seat(table, User("u0", "P0"), 4, "bot", None))
        await table.close()

    run(scenario)


# ---------------------------------------------------------------------- the AFK vote
def connect(table: Table, user_id: str) -> Conn:
    """A ready connection of ``user_id`` (her seat counts as connected)."""
    conn = Conn(None, User(user_id, user_id))
    table.attach(conn)
    table.hello(conn, Hello(type="hello"))
    frames(conn)
    return conn


async def started(
    seats: list[Seat] | None = None, rated: bool = False
) -> tuple[Table, FakeClock, int, dict[str, Conn]]:
    """A started table whose people are all connected (their connections by user id), and the
    seat the game waits on first (the first president)."""
    table, _, clock = table_of(seats or people(), rated)
    async with table.lock:
        await table.start_game()
    assert table.game is not None
    conns = {s.user_id: connect(table, s.user_id) for s in table.seats if s.user_id}
    [first] = table.game.to_act()
    return table, clock, first, conns


def others(table: Table, seat: int) -> list[User]:
    return [
        User(s.user_id, s.name or "") for i, s in enumerate(table.seats) if i != seat and s.user_id
    ]


def test_a_player_the_game_has_waited_on_long_enough_is_voted_out_by_a_majority() -> None:
    async def scenario() -> None:
        table, clock, seat, conns = await started()
        voters = others(table, seat)
        vote = usecases.afk_vote
        await refused("player_not_absent", vote(table, voters[0], seat, True, "10.0.0.1"))
        assert table.afk.poll is None
        clock.advance(AFK_AFTER)
        await refused(
            "not_a_voter",
            vote(table, User(table.seats[seat].user_id or "", "x"), seat, True, "10.0.0.9"),
        )
        await refused("no_afk_vote", vote(table, voters[0], seat, False, "10.0.0.1"))
        assert not await vote(table, voters[0], seat, True, "10.0.0.1")
        shown = table.detail(False)["afk"]
        assert shown["seat"] == seat and (shown["yes"], shown["no"], shown["needed"]) == (1, 0, 3)
        assert not await vote(table, voters[1], seat, False, "10.0.0.2")
        assert not await vote(table, voters[2], seat, True, "10.0.0.3")
        await refused("afk_vote_open", vote(table, voters[0], (seat + 1) % 5, True, "10.0.0.1"))
        assert await vote(table, voters[3], seat, True, "10.0.0.4")
        assert table.seats[seat].kind == "bot" and table.afk.poll is None
        assert table.afk.result == {
            "seat": seat,
            "passed": True,
            "yes": 3,
            "no": 1,
            "needed": 3,
            "at": clock.time(),
        }
        await table.close()

    run(scenario)


def test_sessions_that_vote_from_one_address_are_one_person() -> None:
    async def scenario() -> None:
        table, clock, seat, conns = await started()
        a, b, c, _ = others(table, seat)
        clock.advance(AFK_AFTER)
        assert not await usecases.afk_vote(table, a, seat, True, "10.0.0.1")
        assert not await usecases.afk_vote(table, b, seat, True, "10.0.0.1")  # the same person
        poll = table.afk.poll
        assert poll is not None and poll.needed == 2 and len(poll.yes) == 2
        assert await usecases.afk_vote(table, c, seat, True, "10.0.0.3")
        await table.close()

    run(scenario)


def test_a_player_who_comes_back_ends_the_vote_and_one_offline_may_be_voted_out() -> None:
    async def scenario() -> None:
        table, clock, seat, conns = await started()
        a, b, *_ = others(table, seat)
        clock.advance(AFK_AFTER)
        assert not await usecases.afk_vote(table, a, seat, True, "10.0.0.1")
        assert table.game is not None
        target = next(x for x in table.game.legal_actions(seat) if x.type == "nominate")
        await table.play(seat, target.to_json())  # she nominates: the game waits on others
        await refused("player_not_absent", usecases.afk_vote(table, b, seat, True, "10.0.0.2"))
        assert table.afk.poll is None and table.afk.result is not None
        assert table.afk.result["passed"] is False
        for voter in range(5):  # the government is elected: the game waits on her again
            await table.play(voter, {"type": "vote", "ja": True})
        assert table.game.to_act() == [seat]
        # a player the game does not wait on may be voted out once offline long enough
        chancellor = target.target
        quiet = next(i for i in range(5) if i not in (seat, chancellor))
        table.detach(conns[table.seats[quiet].user_id or ""])
        clock.advance(AFK_AFTER / 2)
        voters = others(table, quiet)
        await refused(
            "player_not_absent", usecases.afk_vote(table, voters[0], quiet, True, "10.0.0.1")
        )
        clock.advance(AFK_AFTER / 2)
        for i, user in enumerate(voters[:2]):
            assert not await usecases.afk_vote(table, user, quiet, True, f"10.0.1.{i}")
        assert await usecases.afk_vote(table, voters[2], quiet, True, "10.0.1.9")
        assert table.seats[quiet].kind == "bot"
        await table.close()

    run(scenario)


def test_an_open_vote_closes_unpassed_when_its_window_ends_on_the_tables_clock() -> None:
    async def scenario() -> None:
        table, clock, seat, conns = await started()
        watcher = Conn(None, User("w", "W"))
        table.attach(watcher)
        table.hello(watcher, Hello(type="hello"))
        frames(watcher)
        clock.advance(AFK_AFTER)
        assert not await usecases.afk_vote(table, others(table, seat)[0], seat, True, "10.0.0.1")
        clock.advance(afk.VOTE_WINDOW + 1)
        assert table.afk.poll is None
        assert table.afk.result is not None and table.afk.result["passed"] is False
        told = [json.loads(f) for f in frames(watcher)]
        shown = [m["table"]["afk"] for m in told if m.get("type") == "table"]
        assert any(d is not None and d["seat"] == seat for d in shown) and shown[-1] is None
        assert table.seats[seat].kind == "human"
        await table.close()

    run(scenario)


def test_replacing_a_rated_player_counts_her_game_as_left(monkeypatch: pytest.MonkeyPatch) -> None:
    leaves: list[tuple[str, str]] = []

    def record(game_id: str, user_id: str, kind: str, ts: float) -> Any:
        leaves.append((user_id, kind))
        return lambda conn: None

    monkeypatch.setattr(usecases, "record_leave", record)

    async def scenario() -> None:
        table, clock, seat, _ = await started(rated=True)
        target = table.seats[seat].user_id
        clock.advance(AFK_AFTER)
        for i, user in enumerate(others(table, seat)[:3]):
            await usecases.afk_vote(table, user, seat, True, f"10.0.0.{i}")
        assert leaves == [(target, "replaced")]
        await table.close()

    run(scenario)
