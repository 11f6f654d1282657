"""The lobby's work the server does itself (docs/competitive.md "The queue", "New-player
tables"): forming tables from the matchmaking queue, and keeping new-player tables open.

One node at a time forms for the whole server: the holder of the system lease
(``Ownership.system_fence``; a single server holds it always, on a cluster another node takes it
within a lease's time when its holder stops). Each of its writes is fenced by that lease, and
each checks the queue rows it changes as it changes them (``competition/queue.py``), so a former
that lost its lease, or a person who left meanwhile, changes nothing. Every ``SH_QUEUE_TICK``
seconds it reads the queue (one snapshot) and:

1. seats the people of a ready check that is complete (all in, all ready) at a new table
   (``Hub.open_server_table``, kind ``queue``, the category they queued for), in the transaction
   that stores the table;
2. past a ready check's deadline, drops who did not confirm (a no-show: competition/queue.py);
3. refills a ready check that lost people (left, declined, dropped) with the longest waiting
   people whose bands fit (``matchmaking.refill``), with a new deadline; past its deadline with
   too few to refill, ends it: its people wait again, their waiting time kept;
4. groups each pool's waiting people (player count, category) by rating band and waiting time
   (``matchmaking.form``) into new ready checks, ``SH_QUEUE_READY`` seconds to confirm: never
   two people a blocklist keeps apart, at a rated table never two seats from one address or
   device; a banned person is left waiting;
5. opens a new-player table when fewer than ``SH_NEWBIE_TABLES`` wait for players.

Every node, holder or not, starts its own new-player tables: ``SH_NEWBIE_WAIT`` seconds (on the
tables' clock) after the first person sat at one, its empty seats go to bots and it starts (a
table full of people starts at once, as any). The queue's timestamps are the tables' wall clock
(``Services.clock.time``), so tests move one clock for everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from ...engine.categories import RATED
from ..competition import matchmaking as MM
from ..competition import queue as Q
from ..competition.limits import NEWBIE
from ..storage.writer import Write
from ..table import usecases
from ..table.session import Table

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("secret_hitler.server.system")

#: The lease of the queue's former (a lease row no table has: ``cluster/lease.py``).
LEASE = "~system:queue"
#: Seconds between two sweeps of the queue's old rows (seated entries, no-shows).
SWEEP_EVERY = 60.0
#: The categories a person may queue for: a rated game, or the same game unrated.
CATEGORIES = (RATED, "casual")
#: Who hosts the tables nobody made (no account has this id: ids are hex).
SERVER_HOST = ("~server", "Server")
#: A queue's table of ``players`` and ``category``: the official rules.
QUEUE_RULES = "official"
#: A new-player table: the official rules at seven (the count with both fascist powers and
#: a Hitler who knows nobody: the game most guides teach), casual, bots filling empty seats.
NEWBIE_TABLE: dict[str, Any] = {"players": 7, "rules": "official", "category": "casual"}


class KeptApart(Protocol):
    """The blocklists and bans (``lobby/moderation.py`` ``Moderation``)."""

    def kept_apart(self, user_id: str, others: Iterable[str]) -> bool: ...

    def banned_user(self, user_id: str) -> bool: ...


def queue_table(players: int, category: str) -> dict[str, Any]:
    """The settings of a table the queue forms (checked as any new table's)."""
    return {"players": players, "rules": QUEUE_RULES, "category": category}


class System:
    """The former (while this node holds the system lease) and the new-player tables' starter."""

    def __init__(
        self, hub: Hub, moderation: KeptApart | None = None, band: MM.Band | None = None
    ) -> None:
        self.hub = hub
        self.moderation = moderation  # blocklists keep people apart; a banned person waits
        self.band = band or MM.Band()
        self._task: asyncio.Task[None] | None = None
        self._first_seated: dict[str, float] = {}  # new-player table -> when one first sat
        self._swept = float("-inf")  # when the queue's old rows were last swept

    @property
    def settings(self) -> Any:
        return self.hub.settings

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="queue-and-new-player-tables")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(max(0.05, self.settings.queue_tick))
            try:
                await self.step()
            except Exception:  # the next pass tries again (a database away, a lost lease)
                log.exception("the queue's pass failed")

    async def step(self) -> None:
        """One pass: this node's new-player tables started when due; and, while this node
        holds the system lease, the queue's tables formed and a new-player table kept open."""
        await self._start_newbie_tables()
        fence = await self.hub.ownership.system_fence(LEASE)
        if fence is None:
            return  # another node forms
        now = self.hub.clock.time()
        store = self.hub.store
        snap: Q.Snapshot = await store.read(Q.snapshot())
        taken: set[str] = set()  # waiting people put in a ready check during this pass
        # the complete ready checks' tables together (their writes share the store's commits)
        complete = [m for m in snap.matches if m.complete]
        seated = await asyncio.gather(
            *(self._seat(m, fence, now) for m in complete), return_exceptions=True
        )
        for match, outcome in zip(complete, seated, strict=True):
            if isinstance(outcome, BaseException) and not isinstance(outcome, Q.Stale):
                log.error("a queue table could not be opened", exc_info=outcome,
                          extra={"match": match.id})  # fmt: skip
        for match in snap.matches:
            if match.complete:
                continue
            try:
                await self._mind(match, snap, taken, fence, now)
            except Q.Stale:
                continue  # the queue moved under it: the next pass reads it again
        for (players, category), pool in snap.pools.items():
            left = [e for e in pool if e.user_id not in taken and not self._banned(e.user_id)]
            by_id = {e.user_id: e for e in left}
            waiting = [MM.Waiting(e.user_id, e.rating, e.joined_at) for e in left]
            apart = self._apart(by_id, category)
            deadline = now + self.settings.queue_ready
            opened = [
                fence(
                    Q.open_match("m" + secrets.token_hex(8), players, category, ids, deadline, now)
                )
                for ids in (
                    [w.user_id for w in g] for g in MM.form(waiting, players, now, self.band, apart)
                )
            ]
            # written together; one someone left meanwhile is refused alone (Stale)
            for outcome in await asyncio.gather(
                *(store.write(w) for w in opened), return_exceptions=True
            ):
                if isinstance(outcome, BaseException) and not isinstance(outcome, Q.Stale):
                    raise outcome
        if now - self._swept >= SWEEP_EVERY:
            await store.write(fence(Q.sweep(now)))
            self._swept = now
        await self._keep_newbie_open(fence)

    # ------------------------------------------------------------------ ready checks
    async def _mind(  # a ready check not complete yet
        self,
        match: Q.Match,
        snap: Q.Snapshot,
        taken: set[str],
        fence: Callable[[Write], Write],
        now: float,
    ) -> None:
        store = self.hub.store
        members = list(match.members)
        if now >= match.deadline:
            gone = set(await store.write(fence(Q.drop_unready(match.id, now))))
            members = [e for e in members if e.user_id not in gone]
            if gone:
                log.info("ready check missed", extra={"match": match.id, "dropped": len(gone)})
        need = match.players - len(members)
        if need <= 0:
            return  # all in: waiting for their answers
        pool = [
            e
            for e in snap.pools.get((match.players, match.category), [])
            if e.user_id not in taken and not self._banned(e.user_id)
        ]
        by_id = {e.user_id: e for e in [*pool, *members]}
        chosen = MM.refill(
            [MM.Waiting(e.user_id, e.rating, e.joined_at) for e in members],
            [MM.Waiting(e.user_id, e.rating, e.joined_at) for e in pool],
            need,
            now,
            self.band,
            self._apart(by_id, match.category),
        )
        if chosen is not None:
            ids = [w.user_id for w in chosen]
            deadline = now + self.settings.queue_ready
            await store.write(fence(Q.refill(match.id, ids, deadline, now)))
            taken.update(ids)
        elif now >= match.deadline:
            await store.write(fence(Q.dissolve(match.id, now)))

    async def _seat(self, match: Q.Match, fence: Callable[[Write], Write], now: float) -> None:
        """The complete ready check's table, its people seated in the transaction that stores
        it (a refusal: nothing is kept, the next pass reads the queue again)."""
        first = match.members[0]  # the longest waiting hosts
        table_id = self.hub.new_table_id()
        people = [(e.user_id, e.name, e.admission) for e in match.members]
        table = await self.hub.open_server_table(
            "queue",
            queue_table(match.players, match.category),
            (first.user_id, first.name),
            people,
            stored=lambda write: fence(Q.seat(match, table_id, write, now)),
            table_id=table_id,
        )
        log.info("queue table formed", extra={"game_id": table.id, "match": match.id})

    # ------------------------------------------------------------------ new-player tables
    async def _keep_newbie_open(self, fence: Callable[[Write], Write]) -> None:
        wanted = self.settings.newbie_tables
        if wanted <= 0:
            return
        if await self.hub.store.read(Q.open_tables(NEWBIE)) >= wanted:
            return
        table = await self.hub.open_server_table(
            NEWBIE, NEWBIE_TABLE, SERVER_HOST, stored=fence, table_id=self.hub.new_table_id()
        )
        log.info("new-player table opened", extra={"game_id": table.id})

    async def _start_newbie_tables(self) -> None:
        now = self.hub.clock.monotonic()
        wait = self.settings.newbie_wait
        mine = {t.id: t for t in self.hub.tables.values() if t.kind == NEWBIE}
        for table_id in list(self._first_seated):
            if table_id not in mine or mine[table_id].status != "waiting":
                del self._first_seated[table_id]
        for table in mine.values():
            if table.status != "waiting":
                continue
            if not _has_people(table):
                self._first_seated.pop(table.id, None)
                continue
            since = self._first_seated.setdefault(table.id, now)
            if now - since >= wait and await usecases.start_with_bots(table, _has_people):
                table.log.info("new-player table started with bots")

    def _banned(self, user_id: str) -> bool:
        return self.moderation is not None and self.moderation.banned_user(user_id)

    def _apart(self, entries: dict[str, Q.Entry], category: str) -> MM.Apart:
        """Who may not share a table: two people a blocklist keeps apart (as at a join); at a
        rated table also two seats from one address or one device (the hashes each person
        joined from: competition/eligibility.py)."""
        moderation, rated = self.moderation, category == RATED

        def apart(a: MM.Waiting, b: MM.Waiting) -> bool:
            if moderation is not None and moderation.kept_apart(a.user_id, (b.user_id,)):
                return True
            if not rated:
                return False
            x, y = entries[a.user_id].admission or {}, entries[b.user_id].admission or {}
            if x.get("a") is not None and x.get("a") == y.get("a"):
                return True
            return x.get("d") is not None and x.get("d") == y.get("d")

        return apart


def _has_people(table: Table) -> bool:
    return any(s.kind == "human" for s in table.seats)
