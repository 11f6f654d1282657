"""What a table is given by whoever hosts it, as boardgame.io's ``Master(game, storage,
transport)``: where its state is written, what it counts, whom it notifies, what time it is.

A table never reaches up to its host: the hub (``lobby.hub``) builds one ``Services`` for all of
its tables, and a test builds one of fakes (tests/server/test_table.py).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..core.config import Settings
from ..core.guard import Guard
from ..core.metrics import Metrics
from ..storage.writer import Store, Write

if TYPE_CHECKING:
    from .models import ModelSeats
    from .seats import Seat
    from .session import Table


class Writer(Protocol):
    """Where a table's state is stored."""

    async def write(self, table_id: str, fn: Write) -> Any:
        """Commit ``fn``, a write of table ``table_id``'s state; where several nodes serve
        tables it is fenced by this node's ownership of the table (``ProtocolError`` ``moved``
        when another node holds it now)."""

    async def read(self, fn: Write) -> Any:
        """Run the query ``fn`` off the event loop."""


class Webhooks(Protocol):
    """The play-by-post notifications (``lobby.webhooks.Webhooks``)."""

    def turn(self, table: Table) -> None:
        """A new decision is awaited."""

    def game_over(self, table: Table) -> None:
        """The game's last action is stored."""


class Listener(Protocol):
    """Whoever keeps the table (the hub), told of the moments that concern it."""

    def finished(self, table: Table) -> None:
        """The game is over and stored (a rated game is rated now)."""

    def idle(self, table: Table) -> None:
        """A finished table has no connection left (it may be forgotten)."""


class Quotas(Protocol):
    """The host's limits across every table of the node (the hub's), asked by a table's
    use-cases (``usecases.py``) before a game of bots only starts."""

    def check_bot_game(self, host: str, addr: str | None, seats: list[Seat]) -> None:
        """``LobbyError`` ``too_many_bot_games`` if a game of ``seats`` (bots only) would be one
        too many for this host or address."""


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """The times a table keeps: timers on a monotonic clock, Unix time for what clients see."""

    def monotonic(self) -> float: ...

    def time(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], object]) -> Cancellable: ...


class LoopClock:
    """The event loop's clock (``loop.time()``, so timers agree with ``call_later``)."""

    def monotonic(self) -> float:
        try:
            return asyncio.get_running_loop().time()
        except RuntimeError:  # no loop: the clock loop.time() is based on
            return time.monotonic()

    def time(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], object]) -> Cancellable:
        return asyncio.get_running_loop().call_later(delay, callback)


class StoreWriter:
    """The writer of a single server: the store itself (no lease to fence by)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def write(self, table_id: str, fn: Write) -> Any:
        return await self.store.write(fn)

    async def read(self, fn: Write) -> Any:
        return await self.store.read(fn)


@dataclass(frozen=True, slots=True)
class Services:
    settings: Settings
    writer: Writer
    webhooks: Webhooks
    listener: Listener
    metrics: Metrics
    limits: Guard  # per-user and per-address rates (chat)
    standin_level: str  # the bot that moves for an absent player
    clock: Clock
    # Where bots' delays are drawn (``BotDriver``): unpredictable by default; a test gives a
    # seeded one to replay the same delays.
    rng: random.Random = field(default_factory=random.SystemRandom)
    # The language models a host may seat (``models.py``); None: none are configured.
    models: ModelSeats | None = None
    # Where bots compute their moves (``BotDriver``): the hub's bounded pool of its own, so
    # that bots never wait behind database reads or password hashes, nor they behind bots;
    # None (tests): the event loop's default executor.
    bot_pool: Executor | None = None
    # The host's limits across the node's tables (the hub); None (tests): no such limit.
    quotas: Quotas | None = None
