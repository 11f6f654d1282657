"""The queue's former and the new-player tables (lobby/system.py; docs/competitive.md "The
queue") on the tables' clock: a hub on a migrated SQLite database whose clock the test moves,
and the former's passes called one by one (no waiting)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from table_support import FakeClock

from secret_hitler.server.accounts.auth import User
from secret_hitler.server.competition import queue as Q
from secret_hitler.server.competition.limits import NEWBIE, Player
from secret_hitler.server.core.config import Settings
from secret_hitler.server.core.metrics import Metrics
from secret_hitler.server.lobby.hub import Hub
from secret_hitler.server.lobby.system import System
from secret_hitler.server.storage import db
from secret_hitler.server.storage.writer import Store
from secret_hitler.server.table import usecases
from secret_hitler.server.table.session import Table

READY, NO_SHOW = 30.0, 120.0


class Anyone:
    def check_join(self, user_id: str, table: Table) -> None:
        return None


class Blocks:
    """The blocklists and bans the former is given (``lobby/moderation.py``'s questions)."""

    def __init__(self, pairs: set[tuple[str, str]], banned: set[str]) -> None:
        self.pairs, self.banned = pairs, banned

    def kept_apart(self, user_id: str, others: Iterable[str]) -> bool:
        return any((user_id, o) in self.pairs or (o, user_id) in self.pairs for o in others)

    def banned_user(self, user_id: str) -> bool:
        return user_id in self.banned


@asynccontextmanager
async def hub_at(
    tmp_path: Path, moderation: Blocks | None = None, **settings: Any
) -> AsyncIterator[tuple[Hub, System, FakeClock]]:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'q.db'}")
    db.migrate(engine)
    store = Store(engine)
    base = {"queue_ready": READY, "queue_no_show": NO_SHOW, "newbie_tables": 0, "bot_delay": 0.0}
    hub = Hub(Settings(data=tmp_path, **{**base, **settings}), store, Metrics())
    clock = FakeClock()
    hub.clock = clock
    hub.services = dataclasses.replace(hub.services, clock=clock)
    try:
        yield hub, System(hub, moderation), clock
    finally:
        await hub.close()
        store.close()
        engine.dispose()


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


async def join(hub: Hub, user: str, players: int = 5, rating: float = 25.0) -> None:
    now = hub.clock.time()
    await hub.store.write(Q.join(user, user.title(), players, "casual", rating, None, now, NO_SHOW))


async def state(hub: Hub, user: str) -> dict[str, Any]:
    result: dict[str, Any] = await hub.store.read(Q.state(user, hub.clock.time(), NO_SHOW))
    return result


async def confirm(hub: Hub, user: str, match_id: str, ready: bool = True) -> None:
    await hub.store.write(Q.confirm(user, match_id, ready, hub.clock.time()))


def test_five_waiting_people_get_a_ready_check_and_then_their_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with hub_at(tmp_path) as (hub, system, clock):
            people = [f"p{i}" for i in range(6)]
            for p in people[:5]:
                await join(hub, p)
                clock.advance(1.0)
            await join(hub, "p5", rating=45.0)  # 20 points off: not with them yet
            await system.step()
            check = await state(hub, "p0")
            assert check["state"] == "check"
            match = check["match"]
            assert match["deadline"] == clock.time() + READY and match["in"] == 5
            assert (await state(hub, "p5"))["state"] == "waiting"
            for p in people[:5]:
                await confirm(hub, p, match["id"])
            await system.step()
            seated = await state(hub, "p3")
            assert seated["state"] == "seated"
            table = hub.get(seated["table_id"])
            assert table is not None and table.kind == "queue" and not table.rated
            assert sorted(s.user_id or "" for s in table.seats) == people[:5]
            assert table.status == "playing"  # full: it started
            assert table.host == "p0"  # the longest waiting hosts

    run(scenario)


def test_who_lets_the_ready_check_pass_is_dropped_and_the_check_refilled(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with hub_at(tmp_path) as (hub, system, clock):
            for i in range(5):
                await join(hub, f"p{i}")
            await system.step()
            match_id = (await state(hub, "p0"))["match"]["id"]
            for i in range(4):
                await confirm(hub, f"p{i}", match_id)
            await join(hub, "late")  # arrives during the check
            clock.advance(READY - 1)
            await system.step()
            assert (await state(hub, "p4"))["state"] == "check"  # not yet past the deadline
            clock.advance(1.0)
            await system.step()
            assert (await state(hub, "p4"))["state"] == "idle"  # dropped: a no-show
            refilled = await state(hub, "late")
            assert refilled["state"] == "check" and refilled["match"]["id"] == match_id
            assert refilled["match"]["deadline"] == clock.time() + READY
            await confirm(hub, "late", match_id)
            await system.step()
            assert (await state(hub, "late"))["state"] == "seated"
            # a second no-show within the hour keeps p4 out of the queue for a while
            clock.advance(5.0)
            await join(hub, "p4")
            for i in range(5, 9):
                await join(hub, f"q{i}")
            await system.step()
            second = (await state(hub, "p4"))["match"]["id"]
            await confirm(hub, "p4", second, ready=False)
            cooling = await state(hub, "p4")
            assert cooling["state"] == "idle"
            assert cooling["cooldown_until"] == clock.time() + NO_SHOW

    run(scenario)


def test_a_ready_check_too_few_can_refill_ends_and_its_people_wait_again(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with hub_at(tmp_path) as (hub, system, clock):
            for i in range(5):
                await join(hub, f"p{i}")
                clock.advance(1.0)
            await system.step()
            match_id = (await state(hub, "p0"))["match"]["id"]
            await confirm(hub, "p0", match_id)
            await hub.store.write(Q.leave("p1", clock.time()))  # she leaves the queue
            clock.advance(READY)
            await system.step()
            back = await state(hub, "p0")
            assert back["state"] == "waiting" and back["joined_at"] == FakeClock.EPOCH + 100.0
            assert [await state(hub, f"p{i}") for i in (2, 3, 4)] == [
                {"state": "idle", "cooldown_until": None, "version": 0.0}
            ] * 3
            assert not hub.tables

    run(scenario)


def test_a_new_player_table_stays_open_and_starts_with_bots_after_its_wait(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with hub_at(tmp_path, newbie_tables=1, newbie_wait=45.0, newbie_games=10) as (
            hub,
            system,
            clock,
        ):
            await system.step()
            (table,) = hub.tables.values()
            assert table.kind == NEWBIE and table.status == "waiting" and table.public
            await system.step()
            assert len(hub.tables) == 1  # one is open: no second
            newcomer = User("u1", "Newcomer")
            await usecases.join(table, newcomer, None, Anyone(), None, Player(0.0, 2))
            await system.step()  # the wait starts now
            clock.advance(44.0)
            await system.step()
            assert table.status == "waiting"
            clock.advance(1.0)
            await system.step()
            assert table.status == "playing"
            kinds = [s.kind for s in table.seats]
            assert kinds.count("human") == 1 and kinds.count("bot") == 6
            # and the next new-player table is open
            await system.step()
            waiting = [t for t in hub.tables.values() if t.status == "waiting"]
            assert [t.kind for t in waiting] == [NEWBIE]

    run(scenario)


def test_blocklists_bans_and_a_rated_tables_places_keep_people_apart(tmp_path: Path) -> None:
    async def scenario() -> None:
        blocks = Blocks({("p0", "p1")}, banned={"p6"})
        async with hub_at(tmp_path, blocks) as (hub, system, clock):
            for i in range(7):
                await join(hub, f"p{i}")
                clock.advance(1.0)
            await system.step()
            match = (await state(hub, "p0"))["match"]
            assert match["in"] == 5
            assert (await state(hub, "p1"))["state"] == "waiting"  # p0 blocked her
            assert (await state(hub, "p6"))["state"] == "waiting"  # banned: never seated
            # a rated queue: two people who joined from one address never share a table
            now = hub.clock.time()
            for i in range(6):
                where = {"a": "home" if i < 2 else f"addr{i}", "d": None}
                write = Q.join(f"r{i}", f"R{i}", 5, "rated", 25.0, where, now, NO_SHOW)
                await hub.store.write(write)
            await system.step()
            r0, r1 = await state(hub, "r0"), await state(hub, "r1")
            assert {r0["state"], r1["state"]} == {"check", "waiting"}

    run(scenario)
