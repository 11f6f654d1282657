"""A table's use-cases without HTTP (``table/usecases.py``, ``table/remake.py``): each one checks,
changes, stores and announces under the table's lock, and a refusal or a failed write leaves
the table as it was. The table is built in-process with the fakes of table_support.py: a writer
that can fail, a clock the test moves, the hub's quotas and the blocklists as small fakes."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from table_support import FakeClock, FakeWriter, Notes, frames, make_table, people, run, services

from secret_hitler.server.accounts.auth import User
from secret_hitler.server.core.errors import LobbyError
from secret_hitler.server.core.protocol import Hello
from secret_hitler.server.storage.writer import StorageUnavailable
from secret_hitler.server.table import remake, usecases
from secret_hitler.server.table.conn import Conn
from secret_hitler.server.table.seats import Seat
from secret_hitler.server.table.session import Table

HOST = User("u0", "P0")


class Quotas:
    """The hub's limit of bot-only games: records what it was asked, refuses when told to."""

    def __init__(self) -> None:
        self.asked: list[list[str]] = []
        self.refuse = False

    def check_bot_game(self, host: str, addr: str | None, seats: list[Seat]) -> None:
        self.asked.append([s.kind for s in seats])
        if self.refuse:
            raise LobbyError(429, "too_many_bot_games", "enough")


class Blocklists:
    """``Admission``: the users it names may not sit anywhere."""

    def __init__(self, *blocked: str) -> None:
        self.blocked = set(blocked)

    def check_join(self, user_id: str, table: Table) -> None:
        if user_id in self.blocked:
            raise LobbyError(403, "blocked", "kept apart")


def waiting_table(
    seats: list[Seat], quotas: Quotas | None = None, **settings: Any
) -> tuple[Table, FakeWriter, FakeClock]:
    writer, clock = FakeWriter(), FakeClock()
    svc = services(writer, clock, Notes(), **settings)
    if quotas is not None:
        svc = dataclasses.replace(svc, quotas=quotas)
    return make_table(svc, seats), writer, clock


def watch(table: Table, user: User) -> Conn:
    """A ready connection of ``user`` (its frames are what it was told)."""
    conn = Conn(None, user)
    table.attach(conn)
    table.hello(conn, Hello(type="hello"))
    frames(conn)  # (its welcome)
    return conn


def details(conn: Conn) -> list[dict[str, Any]]:
    """The table details ``conn`` was sent since last asked."""
    out = [json.loads(f) for f in frames(conn)]
    return [m["table"] for m in out if m.get("type") == "table"]


def empty_seats(n: int, humans: int) -> list[Seat]:
    return people(humans) + [Seat() for _ in range(n - humans)]


async def refused(code: str, work: Any) -> None:
    with pytest.raises(LobbyError) as exc:
        await work
    assert exc.value.code == code


# ---------------------------------------------------------------------- seats
def test_a_join_is_stored_then_announced_and_the_last_seat_starts_the_game() -> None:
    async def scenario() -> None:
        table, writer, _ = waiting_table(empty_seats(5, 3))
        watcher = watch(table, HOST)
        seat = await usecases.join(table, User("u3", "Ann"), None, Blocklists())
        assert seat == 3 and table.seats[3] == Seat("human", "u3", "Ann", None)
        assert len(writer.writes) == 1 and table.status == "waiting"
        assert [d["seats"][3]["name"] for d in details(watcher)] == ["Ann"]
        await usecases.join(table, User("u4", "Bo"), 4, Blocklists())
        assert table.status == "playing" and table.game is not None  # full: it started
        await table.close()

    run(scenario)


def test_a_refused_join_changes_nothing() -> None:
    async def scenario() -> None:
        table, writer, _ = waiting_table(empty_seats(5, 3))
        table.removed.add("gone")
        watcher = watch(table, HOST)
        before = list(table.seats)
        blocks = Blocklists("blocked")
        await refused("already_seated", usecases.join(table, User("u1", "P1"), None, blocks))
        await refused("removed", usecases.join(table, User("gone", "G"), None, blocks))
        await refused("blocked", usecases.join(table, User("blocked", "B"), None, blocks))
        await refused("seat_taken", usecases.join(table, User("u9", "Z"), 0, blocks))
        await refused("bad_seat", usecases.join(table, User("u9", "Z"), 5, blocks))
        # a name that looks like a seated player's (P0 with a Cyrillic Р) passes for nobody
        await refused("name_taken", usecases.join(table, User("u9", "\u0420" + "0"), 3, blocks))
        assert table.seats == before and writer.writes == [] and details(watcher) == []

    run(scenario)


def test_a_join_the_database_does_not_take_puts_the_seats_back() -> None:
    async def scenario() -> None:
        table, writer, _ = waiting_table(empty_seats(5, 3))
        watcher = watch(table, HOST)
        writer.fail = StorageUnavailable("down")
        with pytest.raises(StorageUnavailable):
            await usecases.join(table, User("u3", "Ann"), None, Blocklists())
        assert table.seats[3] == Seat() and details(watcher) == []
        writer.fail = None
        assert await usecases.join(table, User("u3", "Ann"), None, Blocklists()) == 3

    run(scenario)


def test_a_leaving_host_hands_the_role_on_and_a_player_leaving_a_game_leaves_a_bot() -> None:
    async def scenario() -> None:
        table, _, _ = waiting_table(empty_seats(5, 3))
        await usecases.leave(table, HOST)
        assert table.seats[0] == Seat() and table.host == "u1"
        await refused("not_seated", usecases.leave(table, HOST))

        playing, _, _ = waiting_table(people())
        async with playing.lock:
            await playing.start_game()
        await usecases.leave(playing, User("u2", "P2"))
        assert playing.seats[2] == Seat("bot", None, "P2", "random")
        await playing.close()

    run(scenario)


def test_a_bot_that_would_start_a_game_asks_the_hosts_quotas_first() -> None:
    async def scenario() -> None:
        quotas = Quotas()
        table, writer, _ = waiting_table(empty_seats(5, 3), quotas)
        await refused("not_host", usecases.add_bot(table, User("u1", "P1"), None, None))
        await refused("invalid_bot", usecases.add_bot(table, HOST, None, "no-such-level"))
        assert await usecases.add_bot(table, HOST, None, None) == 3
        assert table.seats[3] == Seat("bot", None, "Bot 4", "random")
        assert quotas.asked == []  # a seat is still empty: no game would start
        quotas.refuse = True
        await refused("too_many_bot_games", usecases.add_bot(table, HOST, 4, None))
        assert table.seats[4] == Seat() and len(writer.writes) == 1
        quotas.refuse = False
        await usecases.add_bot(table, HOST, 4, None)
        assert quotas.asked[-1] == ["human"] * 3 + ["bot"] * 2
        assert table.status == "playing"
        await table.close()

    run(scenario)


def test_a_rated_table_takes_no_bot_by_any_use_case() -> None:
    async def scenario() -> None:
        table, writer, _ = waiting_table(empty_seats(5, 4))
        table.rated = True
        await refused("rated_table", usecases.add_bot(table, HOST, None, None))
        await refused("rated_table", usecases.start(table, HOST, "random"))
        await refused("rated_table", usecases.hand_seat(table, HOST, 1, "bot", None))
        assert table.seats == empty_seats(5, 4) and writer.writes == []

    run(scenario)


def test_the_host_removes_a_player_who_may_not_come_back_unless_the_database_failed() -> None:
    async def scenario() -> None:
        table, writer, _ = waiting_table(empty_seats(5, 3))
        writer.fail = StorageUnavailable("down")
        with pytest.raises(StorageUnavailable):
            await usecases.hand_seat(table, HOST, 1, "empty", None)
        assert table.seats[1].user_id == "u1" and table.removed == set()
        writer.fail = None
        await usecases.hand_seat(table, HOST, 1, "empty", None)
        assert table.seats[1] == Seat() and table.removed == {"u1"}
        await refused("removed", usecases.join(table, User("u1", "P1"), None, Blocklists()))
        await refused("bad_seat", usecases.hand_seat(table, HOST, 0, "bot", None))  # own seat

    run(scenario)


def test_start_fills_the_empty_seats_with_bots_of_the_level_asked() -> None:
    async def scenario() -> None:
        quotas = Quotas()
        table, _, _ = waiting_table(empty_seats(5, 2), quotas)
        await refused("not_enough_players", usecases.start(table, HOST, None))
        await usecases.start(table, HOST, "rule")
        assert [s.level for s in table.seats[2:]] == ["rule"] * 3
        assert quotas.asked == [["human"] * 2 + ["bot"] * 3]
        assert table.status == "playing" and table.game is not None
        await refused("not_waiting", usecases.start(table, HOST, None))
        await table.close()

    run(scenario)


# ---------------------------------------------------------------------- people who go
def test_a_deleted_account_leaves_a_bot_a_placeholder_and_a_new_host() -> None:
    async def scenario() -> None:
        table, _, _ = waiting_table(people())
        async with table.lock:
            await table.start_game()
        table.chat.lines.append({"id": 1, "seat": 0, "user_id": "u0", "name": "P0", "text": "x"})
        await usecases.forget_user(table, "u0")
        assert table.seats[0] == Seat("bot", None, "Deleted player 1", "random")
        assert table.renamed == {0: "Deleted player 1"}
        assert table.chat.lines[0]["user_id"] is None
        assert table.chat.lines[0]["name"] == "Deleted player 1"
        assert table.host == "u1"
        await table.close()

    run(scenario)


def test_expiry_and_closure_hold_only_if_still_due_under_the_lock() -> None:
    async def scenario() -> None:
        table, _, _ = waiting_table(empty_seats(5, 1))
        conn = watch(table, HOST)
        assert not await usecases.expire(table, lambda t: False)
        assert table.status == "waiting" and not conn.closed
        assert await usecases.expire(table, lambda t: True)
        assert table.status == "expired" and conn.close_code == 4410
        assert not await usecases.close(table)  # no longer open: nothing to close

        open_table, _, _ = waiting_table(empty_seats(5, 1))
        assert await usecases.close(open_table) and open_table.status == "closed"

    run(scenario)


# ---------------------------------------------------------------------- the remake vote
def remake_table() -> tuple[Table, FakeClock]:
    table, _, clock = waiting_table(people(), remake_window=60.0)
    return table, clock


def test_a_remake_passes_with_more_than_half_of_the_people_and_deals_anew() -> None:
    async def scenario() -> None:
        table, _ = remake_table()
        async with table.lock:
            await table.start_game()
        first = table.game
        assert not await remake.vote(table, "u0", True, "10.0.0.1")
        assert table.remake is not None and table.remake["needed"] == 3
        assert not await remake.vote(table, "u1", True, "10.0.0.2")
        assert await remake.vote(table, "u2", True, "10.0.0.3")
        assert table.game is not first and table.remake is None
        assert table.remake_result is not None and table.remake_result["passed"]
        assert (table.remake_result["yes"], table.remake_result["needed"]) == (3, 3)
        await table.close()

    run(scenario)


def test_sessions_that_vote_from_one_address_are_one_person() -> None:
    async def scenario() -> None:
        table, _ = remake_table()
        async with table.lock:
            await table.start_game()
        first = table.game
        for user in ("u0", "u1", "u2"):
            assert not await remake.vote(table, user, True, "10.0.0.1")
        assert table.game is first and table.remake is not None
        await table.close()

    run(scenario)


def test_an_open_poll_closes_as_not_passed_when_its_window_ends_on_the_tables_clock() -> None:
    async def scenario() -> None:
        table, clock = remake_table()
        async with table.lock:
            await table.start_game()
        watcher = watch(table, HOST)
        await refused("no_vote", remake.vote(table, "u0", False, "10.0.0.1"))
        await remake.vote(table, "u0", True, "10.0.0.1")
        assert table.remake is not None
        assert table.remake["ends_at"] == round(clock.time() + 60.0, 3)
        details(watcher)
        clock.advance(59.0)
        assert table.remake is not None
        clock.advance(1.1)
        assert table.remake is None
        assert table.remake_result is not None and not table.remake_result["passed"]
        shown = details(watcher)
        assert shown and shown[-1]["remake"] is None and shown[-1]["remake_result"]["yes"] == 1
        await table.close()

    run(scenario)


def test_only_living_people_vote_and_only_while_a_game_is_played() -> None:
    async def scenario() -> None:
        table, _ = remake_table()
        await refused("not_playing", remake.vote(table, "u0", True, "10.0.0.1"))
        async with table.lock:
            await table.start_game()
        await refused("not_a_voter", remake.vote(table, "nobody", True, "10.0.0.1"))
        await table.close()

    run(scenario)


def test_a_rematch_is_opened_once_and_stored_on_the_finished_table() -> None:
    async def scenario() -> None:
        table, writer, _ = waiting_table(people())
        table.status = "finished"
        opened: list[Table] = []

        async def open_new() -> Table:
            new, _, _ = waiting_table(people())
            new.id = f"t{len(opened) + 2}"
            opened.append(new)
            return new

        def known(table_id: str) -> Table | None:
            return next((t for t in opened if t.id == table_id), None)

        await refused("not_seated", usecases.rematch(table, User("x", "X"), known, open_new))
        new = await usecases.rematch(table, User("u1", "P1"), known, open_new)
        assert table.rematch == new.id and len(writer.writes) == 1
        assert await usecases.rematch(table, HOST, known, open_new) is new
        assert len(opened) == 1

    run(scenario)
