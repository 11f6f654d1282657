"""A table on the test's clock, built without a hub or a server: fakes of its services (a
writer that can fail, a clock the test moves, listeners that take notes) and the helpers that
build and drive one. The one place these live: every in-process table test imports them.

The table's clock (``FakeClock``) is how tests of timers, delays and waits run without waiting:
the test moves the clock and the table's timers fire, the same on a loaded machine as on an
idle one."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from secret_hitler.bots import Agent
from secret_hitler.engine import Action, Game
from secret_hitler.server.core.config import Settings
from secret_hitler.server.core.guard import Guard
from secret_hitler.server.core.metrics import Metrics
from secret_hitler.server.storage.queries import ActionWrite
from secret_hitler.server.storage.writer import Write
from secret_hitler.server.table.conn import Conn
from secret_hitler.server.table.seats import Seat
from secret_hitler.server.table.services import Services
from secret_hitler.server.table.session import Table
from secret_hitler.server.table.settings import TableSettings

WAIT = 30.0  # a bound on waiting for the driver task, never a timing: it is set at once


class FakeWriter:
    """Keeps every write it is given; ``fail``: the next writes raise it instead."""

    def __init__(self) -> None:
        self.writes: list[Write] = []
        self.fail: BaseException | None = None
        self.wrote = asyncio.Event()

    async def write(self, table_id: str, fn: Write) -> Any:
        if self.fail is not None:
            raise self.fail
        self.writes.append(fn)
        self.wrote.set()
        return None

    async def read(self, fn: Write) -> Any:
        return None  # the database holds no other game (a resync keeps the table's own)

    def actions(self) -> list[ActionWrite]:
        return [w for w in self.writes if isinstance(w, ActionWrite)]


class FakeClock:
    """A monotonic clock the test moves, and a wall clock that moves with it."""

    EPOCH = 1_700_000_000.0

    def __init__(self) -> None:
        self.now = 100.0
        self.timers: list[tuple[float, Callable[[], object], list[bool]]] = []

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return self.EPOCH + self.now

    def call_later(self, delay: float, callback: Callable[[], object]) -> _Timer:
        timer = _Timer()
        self.timers.append((self.now + delay, callback, timer.cancelled))
        return timer

    def advance(self, seconds: float) -> None:
        self.now += seconds
        due = [t for t in self.timers if t[0] <= self.now]
        self.timers = [t for t in self.timers if t[0] > self.now]
        for _, callback, cancelled in due:
            if not cancelled[0]:
                callback()


class _Timer:
    def __init__(self) -> None:
        self.cancelled = [False]

    def cancel(self) -> None:
        self.cancelled[0] = True


class Notes:
    """The webhook sink and the listener: what the table told them, in order."""

    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []
        self.over = asyncio.Event()

    def turn(self, table: Table) -> None:
        self.said.append(("turn", table.id))

    def game_over(self, table: Table) -> None:
        self.said.append(("game_over", table.id))

    def finished(self, table: Table) -> None:
        self.said.append(("finished", table.id))
        self.over.set()

    def idle(self, table: Table) -> None:
        self.said.append(("idle", table.id))


def services(
    writer: FakeWriter,
    clock: FakeClock,
    notes: Notes,
    rng: random.Random | None = None,
    **settings: Any,
) -> Services:
    s = Settings(**{"bot_delay": 0.0, "grace": 30.0, "presence_delay": 1.0, **settings})
    return Services(
        settings=s,
        writer=writer,
        webhooks=notes,
        listener=notes,
        metrics=Metrics(),
        limits=Guard(s),
        standin_level="random",
        clock=clock,
        rng=rng or random.Random(0),
    )


def make_table(svc: Services, seats: list[Seat], timer: int | None = None) -> Table:
    settings = TableSettings(players=len(seats), rules="official", bot_level="random", timer=timer)
    return Table(svc, settings, id="t1", host="u0", host_name="P0", invite="invite", seats=seats)


def people(n: int = 5) -> list[Seat]:
    return [Seat("human", f"u{i}", f"P{i}") for i in range(n)]


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


def frames(conn: Conn) -> list[str]:
    out = []
    while not conn.out.empty():
        text = conn.out.get_nowait()
        assert text is not None
        out.append(text)
    return out


def first_move(game: Game) -> tuple[int, Action]:
    seat = game.to_act()[0]
    return seat, next(a for a in game.legal_actions(seat) if a.type != "claim")


class Agrees(Agent):
    """A bot that votes Ja and otherwise takes its first legal move (the bots of a fixed deal
    elect the government the test needs: ``table.driver.crew.make_agent = Agrees.make``). It
    decides from its legal actions alone, at once on the event loop (no thread: the same every
    run)."""

    name = "agrees"
    needs_view = False

    def choose(self, legal: Sequence[Action]) -> Action:
        return next((a for a in legal if a.type == "vote" and a.ja), legal[0])

    @classmethod
    def make(cls, level: str, seat: int, seed: int | None) -> Agent:
        return cls(seat)


async def settle(rounds: int = 40) -> None:
    """Let every task that can run now run (one thread: no race, the same every time)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
