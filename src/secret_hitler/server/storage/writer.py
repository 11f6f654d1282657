"""The writer: every write of the server, group-committed.

Writes are functions of a connection (``queries.py`` has the server's); every write queued during
one event-loop step goes into one transaction (group commit) and each caller is resumed only after
COMMIT, so an action is durable before anyone is told about it. While writes keep coming (a busy
server), a commit waits until ``window`` seconds have passed since the one before, so that the
actions of many tables share one transaction; a write after a quiet moment is committed at once.
If the database cannot take a commit before the writes' deadline, every write in it fails
(``StorageUnavailable``) and none of their callers announces anything. A batch that fails because one of its writes is bad is retried write by write so that
one bad write cannot sink the others.

Database faults. A write that fails because the database is unreachable or busy (server down,
connection lost, SQLite locked by another process) is not an error of that write: the writer
thread keeps it, reconnects with backoff and retries it until the write's deadline
(``write_timeout``), then fails it with ``StorageUnavailable``. A write that was failed is never
committed later. No wait for the database ever happens on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection, Engine

from ..core.errors import LobbyError

log = logging.getLogger("secret_hitler.server.store")

Write = Callable[[Connection], Any]
_STOP = object()
_BATCH = 256
_BACKOFF_MIN = 0.05  # seconds between reconnection attempts: doubles up to _BACKOFF_MAX
_BACKOFF_MAX = 2.0
_ATTEMPT_MAX = (
    2.0  # longest a single SQLite attempt waits for a lock (then the deadline is checked)
)


class Refused(Exception):
    """A write that refuses by design, its rows having changed under it (the queue's former's,
    competition/queue.py ``Stale``): nothing was written, the caller is told; not logged as a
    failure, as a ``LobbyError`` raised in a write (a person's step refused) is not."""


class StorageUnavailable(Exception):
    """The database could not be reached (or stayed locked) until the write's deadline; the write
    was not made and never will be."""


def is_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database is away or busy (retry later), not that a write is bad."""
    if isinstance(exc, StorageUnavailable):
        return True
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(
        exc,
        sa_exc.OperationalError
        | sa_exc.InterfaceError
        | sa_exc.DisconnectionError
        | sa_exc.TimeoutError,
    )


def _reason(exc: BaseException) -> str:
    """A short, bounded description of a database fault (no URL, no statement, no data)."""
    orig = getattr(exc, "orig", None) or exc
    return type(orig).__name__[:60]


@dataclass(slots=True, eq=False)
class _Job:
    fn: Write
    fut: Future[Any]
    deadline: float  # time.monotonic()


_OK, _ERR, _RETRY = 0, 1, 2


class Store:
    """Queued writes, group-committed; reads on worker threads.

    With SQLite (``inline``) the writes queued during one event-loop step are first tried
    together at the next step, on the loop itself, with no lock wait at all: a local commit takes
    well under a millisecond, and this avoids handing the GIL back and forth with a thread. If the
    database is locked or failing, that batch, and every later write until the thread's backlog is
    gone, go to the writer thread, which waits and retries. With a server database (network round
    trips) every write goes through the writer thread.

    ``window`` (seconds, ``SH_COMMIT_WINDOW``): a commit comes at least that long after the one
    before; writes that arrive meanwhile wait for it and share its transaction. A write after a
    quiet moment is not held. At hundreds of actions a second this makes one commit of several
    tables' actions instead of one each (a commit costs more than the rows in it).
    """

    def __init__(
        self,
        engine: Engine,
        checkpoint_every: float = 1.0,
        inline: bool | None = None,
        write_timeout: float = 5.0,
        window: float = 0.0,
    ) -> None:
        self.engine = engine
        self.sqlite = engine.dialect.name == "sqlite"
        self.inline = self.sqlite if inline is None else inline
        self.write_timeout = write_timeout
        # the shortest time between two commits while writes keep coming (group commit)
        self.window = window
        self._flushed_at = float("-inf")  # loop time of the last inline commit
        self._committed_at = float("-inf")  # time.monotonic() of the writer thread's last one
        self._pending: list[tuple[Write, asyncio.Future[Any], float]] = []
        self._conns: dict[str, Connection] = {}  # "inline" (event loop) and "thread" (writer)
        self._handed = 0  # writes given to the thread and not resolved yet (event-loop side)
        self._queue: queue.Queue[Any] = queue.Queue()
        self._stopping = threading.Event()
        self.ok = True  # the last write attempt (or the writer's probe) reached the database
        self.error: str | None = None  # why not, in a few words
        self.down_since: float | None = None  # epoch seconds
        self._backoff = _BACKOFF_MIN
        self._thread = threading.Thread(target=self._run, name="sh-db-writer", daemon=True)
        self._thread.start()
        self._checkpointer: threading.Thread | None = None
        if self.sqlite:
            self._checkpointer = threading.Thread(
                target=self._checkpoints,
                args=(checkpoint_every,),
                name="sh-db-checkpoint",
                daemon=True,
            )
            self._checkpointer.start()

    def _checkpoints(self, every: float) -> None:
        """SQLite WAL checkpoints off the commit path (a PASSIVE checkpoint never blocks writers)."""
        while not self._stopping.wait(every):
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # noqa: BLE001 - retried at the next tick
                log.warning("WAL checkpoint failed", exc_info=True)

    # ------------------------------------------------------------------ health
    @property
    def alive(self) -> bool:
        """The writer thread runs (if it did not, no write could ever complete)."""
        return self._thread.is_alive()

    async def check(self, timeout: float = 2.0) -> str | None:
        """``None`` when writes reach the database and it answers a query now; else a reason."""
        if not self.alive:
            return "writer stopped"
        if not self.ok:
            return self.error or "unavailable"
        try:
            await asyncio.wait_for(asyncio.to_thread(self.read_sync, _select_one), timeout)
        except TimeoutError:
            return "timeout"
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            return _reason(exc)
        return None

    def _mark_ok(self) -> None:
        if not self.ok:
            log.warning("database reachable again", extra={"down_since": self.down_since})
        self.ok, self.error, self.down_since = True, None, None
        self._backoff = _BACKOFF_MIN

    def _mark_down(self, exc: BaseException) -> None:
        if self.ok:
            log.error("database unavailable (%s); retrying", _reason(exc))
            self.down_since = time.time()
        self.ok, self.error = False, _reason(exc)

    # ------------------------------------------------------------------ writer
    async def write(self, fn: Write) -> Any:
        """Run ``fn(connection)`` in a transaction; returns once it is committed. Raises
        ``StorageUnavailable`` (nothing written) when the database stays away ``write_timeout``."""
        deadline = time.monotonic() + self.write_timeout
        if self.inline:
            loop = asyncio.get_running_loop()
            afut: asyncio.Future[Any] = loop.create_future()
            self._pending.append((fn, afut, deadline))
            if len(self._pending) == 1:
                due = self._flushed_at + self.window
                if due <= loop.time():  # quiet: at the next step
                    loop.call_soon(self._flush)
                else:  # busy: with the others of the window
                    loop.call_at(due, self._flush)
            return await afut
        return await asyncio.wrap_future(self._submit(fn, deadline))

    def _submit(self, fn: Write, deadline: float) -> Future[Any]:
        fut: Future[Any] = Future()
        self._queue.put(_Job(fn, fut, deadline))
        return fut

    def _flush(self) -> None:
        self._flushed_at = asyncio.get_running_loop().time()
        batch = [item for item in self._pending if not item[1].done()]
        self._pending = []
        if not batch:
            return
        if self._handed == 0:  # nothing older is waiting in the thread: try now, without waiting
            rest = []
            for item, (kind, value) in zip(
                batch, self._commit("inline", [fn for fn, _, _ in batch]), strict=True
            ):
                fut = item[1]
                if kind == _RETRY:
                    rest.append(item)
                elif fut.done():
                    continue
                elif kind == _OK:
                    fut.set_result(value)
                else:
                    fut.set_exception(value)
            if not rest:
                if not self.ok:
                    self._mark_ok()
                return
            batch = rest
        loop = asyncio.get_running_loop()
        for fn, afut, deadline in batch:
            self._handed += 1
            cfut = self._submit(fn, deadline)
            cfut.add_done_callback(functools.partial(self._handed_back, loop, afut))

    def _handed_back(
        self, loop: asyncio.AbstractEventLoop, afut: asyncio.Future[Any], cfut: Future[Any]
    ) -> None:
        """(writer thread) A handed-over write is resolved: pass the outcome to the loop."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting
            loop.call_soon_threadsafe(self._resolve_handed, afut, cfut)

    def _resolve_handed(self, afut: asyncio.Future[Any], cfut: Future[Any]) -> None:
        self._handed -= 1
        if afut.done():
            return
        if cfut.cancelled():
            afut.cancel()
        elif (exc := cfut.exception()) is not None:
            afut.set_exception(exc)
        else:
            afut.set_result(cfut.result())

    def close(self) -> None:
        self._stopping.set()
        self._queue.put(_STOP)
        self._thread.join(timeout=10)
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
        for conn in list(self._conns.values()):
            with contextlib.suppress(Exception):
                conn.close()
        self._conns.clear()
        self.engine.dispose()

    def _run(self) -> None:
        """The writer thread: it outlives any database error (only ``close`` ends it)."""
        while True:
            try:
                item = self._queue.get(timeout=None if self.ok else self._backoff)
            except queue.Empty:
                self._probe()  # idle while the database is away: find out when it is back
                continue
            if item is _STOP:
                return
            batch = [item]
            stop = False
            gather_until = self._committed_at + self.window  # busy: the window's writes too
            while len(batch) < _BATCH:
                wait = gather_until - time.monotonic()
                try:
                    nxt = self._queue.get(timeout=wait) if wait > 0 else self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is _STOP:
                    stop = True
                    break
                batch.append(nxt)
            try:
                self._process(batch)
                self._committed_at = time.monotonic()
            except Exception as exc:  # a bug here must not kill the writer
                log.exception("database writer failed on a batch")
                for job in batch:
                    if not job.fut.done():
                        job.fut.set_exception(exc)
            if stop:
                return

    def _process(self, jobs: list[_Job]) -> None:
        """Commit ``jobs``; retry those the database could not take until their deadlines."""
        jobs = [j for j in jobs if j.fut.set_running_or_notify_cancel()]
        while jobs:
            now = time.monotonic()
            for j in jobs:
                if j.deadline <= now:
                    j.fut.set_exception(StorageUnavailable("the database is unavailable"))
            jobs = [j for j in jobs if j.deadline > now]
            if not jobs:
                return
            lock_wait = min(min(j.deadline for j in jobs) - now, _ATTEMPT_MAX)
            retry: list[_Job] = []
            last: BaseException | None = None
            for j, (kind, value) in zip(
                jobs, self._commit("thread", [j.fn for j in jobs], lock_wait), strict=True
            ):
                if kind == _RETRY:
                    retry.append(j)
                    last = value
                elif kind == _OK:
                    j.fut.set_result(value)
                else:
                    j.fut.set_exception(value)
            if last is None:
                self._mark_ok()
                return
            self._mark_down(last)
            jobs = retry
            wait = min(self._backoff, max(0.0, min(j.deadline for j in jobs) - time.monotonic()))
            self._backoff = min(self._backoff * 2, _BACKOFF_MAX)
            if self._stopping.wait(wait):
                for j in jobs:
                    j.fut.set_exception(StorageUnavailable("the server is stopping"))
                return

    def _probe(self) -> None:
        """(writer thread) Could a write go through now? Updates ``ok``."""
        try:
            conn = self._connection("thread")
            if self.sqlite:  # the write lock, without waiting for it
                raw = conn.connection.driver_connection
                assert raw is not None
                raw.execute("PRAGMA busy_timeout=0")
                raw.execute("BEGIN IMMEDIATE")
                raw.execute("ROLLBACK")
            else:
                conn.exec_driver_sql("SELECT 1")
                conn.rollback()
        except Exception as exc:  # noqa: BLE001 - the state is what we want
            self._drop("thread")
            self._mark_down(exc)
            self._backoff = min(self._backoff * 2, _BACKOFF_MAX)
            return
        self._mark_ok()

    def _connection(self, slot: str) -> Connection:
        conn = self._conns.get(slot)
        if conn is None or conn.closed or conn.invalidated:
            conn = self.engine.connect()
            self._conns[slot] = conn
            if self.sqlite and slot == "inline":  # the event loop never waits for a lock
                raw = conn.connection.driver_connection
                assert raw is not None
                raw.execute("PRAGMA busy_timeout=0")
        return conn

    def _drop(self, slot: str) -> None:
        conn = self._conns.pop(slot, None)
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()
            with contextlib.suppress(Exception):
                conn.close()

    def _commit(
        self, slot: str, fns: list[Write], lock_wait: float | None = None
    ) -> list[tuple[int, Any]]:
        """Run the writes in one transaction; if one is bad, run each alone (isolate it).

        Each result is ``(_OK, value)``, ``(_ERR, exception)`` or ``(_RETRY, exception)``: the
        database was unavailable and the write was not made."""
        try:
            conn = self._connection(slot)
            if lock_wait is not None and self.sqlite:
                raw = conn.connection.driver_connection
                assert raw is not None
                raw.execute(f"PRAGMA busy_timeout={max(1, int(lock_wait * 1000))}")
            with conn.begin():
                return [(_OK, value) for value in run_writes(conn, fns)]
        except Exception as exc:
            self._drop(slot)
            if is_unavailable(exc):
                return [(_RETRY, exc)] * len(fns)
            if len(fns) == 1:
                if not isinstance(exc, (Refused, LobbyError)):  # (a refusal is no failure)
                    log.exception("database write failed")
                return [(_ERR, exc)]
        out: list[tuple[int, Any]] = []
        for i, fn in enumerate(fns):
            result = self._commit(slot, [fn], lock_wait)
            out.extend(result)
            if result[0][0] == _RETRY:  # the database went away: the rest waits too
                out.extend([result[0]] * (len(fns) - i - 1))
                break
        return out

    # ------------------------------------------------------------------ reads
    async def read(self, fn: Write) -> Any:
        return await asyncio.to_thread(self.read_sync, fn)

    def read_sync(self, fn: Write) -> Any:
        with self.engine.connect() as conn:
            return fn(conn)


def _select_one(conn: Connection) -> Any:
    return conn.exec_driver_sql("SELECT 1").scalar()


def run_writes(conn: Connection, fns: list[Write]) -> list[Any]:
    """Run writes in order; consecutive writes of one type that has a ``run_many(conn, writes)``
    (``queries.ActionWrite``, a cluster's ``lease.Fenced``) go to the database as one batch."""
    out: list[Any] = []
    batch: list[Any] = []
    for fn in fns:
        if batch and type(fn) is not type(batch[0]):
            out.extend(type(batch[0]).run_many(conn, batch))
            batch = []
        if getattr(type(fn), "run_many", None) is not None:
            batch.append(fn)
            continue
        out.append(fn(conn))
    if batch:
        out.extend(type(batch[0]).run_many(conn, batch))
    return out
