"""Storage: one writer that group-commits, and the queries the server needs.

Writes are functions of a connection; every write queued during one event-loop step goes into
one transaction (group commit) and each caller is resumed only after COMMIT, so an action is
durable before anyone is told about it. A failing batch is retried write by write so that one bad
write cannot sink the others.

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
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection, Engine

from ..storage import db

log = logging.getLogger("secret_hitler.server.store")

Write = Callable[[Connection], Any]
_STOP = object()
_BATCH = 256
_BACKOFF_MIN = 0.05  # seconds between reconnection attempts: doubles up to _BACKOFF_MAX
_BACKOFF_MAX = 2.0
_ATTEMPT_MAX = (
    2.0  # longest a single SQLite attempt waits for a lock (then the deadline is checked)
)


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
    """

    def __init__(
        self,
        engine: Engine,
        checkpoint_every: float = 1.0,
        inline: bool | None = None,
        write_timeout: float = 5.0,
    ) -> None:
        self.engine = engine
        self.sqlite = engine.dialect.name == "sqlite"
        self.inline = self.sqlite if inline is None else inline
        self.write_timeout = write_timeout
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
                loop.call_soon(self._flush)
            return await afut
        return await asyncio.wrap_future(self._submit(fn, deadline))

    def _submit(self, fn: Write, deadline: float) -> Future[Any]:
        fut: Future[Any] = Future()
        self._queue.put(_Job(fn, fut, deadline))
        return fut

    def _flush(self) -> None:
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
            while len(batch) < _BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is _STOP:
                    stop = True
                    break
                batch.append(nxt)
            try:
                self._process(batch)
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
                return [(_OK, value) for value in _run_writes(conn, fns)]
        except Exception as exc:
            self._drop(slot)
            if is_unavailable(exc):
                return [(_RETRY, exc)] * len(fns)
            if len(fns) == 1:
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


# ---------------------------------------------------------------------- write functions
def save_user(user_id: str, name: str) -> Write:
    def run(conn: Connection) -> None:
        conn.execute(db.users.insert().values(id=user_id, name=name, created_at=time.time()))

    return run


def save_table(row: dict[str, Any], insert: bool) -> Write:
    def run(conn: Connection) -> None:
        if insert:
            conn.execute(db.tables.insert().values(**row))
        else:
            values = {k: v for k, v in row.items() if k != "id"}
            conn.execute(db.tables.update().where(db.tables.c.id == row["id"]).values(**values))

    return run


def start_game(table: dict[str, Any], game: dict[str, Any], replace: bool = False) -> Write:
    """The table row and its new game; ``replace``: a remake deals the table's game anew (the
    old game and its actions are dropped, in the same transaction)."""

    def run(conn: Connection) -> None:
        values = {k: v for k, v in table.items() if k != "id"}
        conn.execute(db.tables.update().where(db.tables.c.id == table["id"]).values(**values))
        if replace:
            conn.execute(db.actions.delete().where(db.actions.c.game_id == game["id"]))
            conn.execute(db.games.delete().where(db.games.c.id == game["id"]))
        conn.execute(db.games.insert().values(**game))

    return run


@dataclass(slots=True)
class ActionWrite:
    game_id: str
    idx: int
    seat: int
    action: dict[str, Any]
    by: str | None
    reshuffles: list[list[str]] | None = None  # the whole list, when it grew
    finished: dict[str, Any] | None = None  # winner/reason when the game ended
    table_update: dict[str, Any] | None = None
    ts: float = field(default_factory=time.time)

    def __call__(self, conn: Connection) -> None:
        ActionWrite.run_many(conn, [self])

    def _game_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {"action_count": self.idx + 1}
        if self.reshuffles is not None:
            values["reshuffles"] = self.reshuffles
        if self.finished is not None:
            values.update(self.finished, status="finished", finished_at=self.ts)
        return values

    @staticmethod
    def run_many(conn: Connection, writes: list[ActionWrite]) -> list[None]:
        """Several actions (any games) with one INSERT and one UPDATE per column set."""
        games: dict[str, dict[str, Any]] = {}
        tables: dict[str, dict[str, Any]] = {}
        for w in writes:  # in order: a game's later action wins
            games.setdefault(w.game_id, {}).update(w._game_values())
            if w.table_update is not None:
                tables.setdefault(w.game_id, {}).update(w.table_update)
        if conn.dialect.name == "sqlite":
            _sqlite_actions(conn, writes, games, tables)
            return [None] * len(writes)
        conn.execute(
            _ACTIONS_INSERT,
            [
                {
                    "game_id": w.game_id,
                    "idx": w.idx,
                    "seat": w.seat,
                    "action": w.action,
                    "by": w.by,
                    "ts": w.ts,
                }
                for w in writes
            ],
        )
        _update_many(conn, _GAMES_UPDATE, "_game_id", games)
        if tables:
            _update_many(conn, _TABLES_UPDATE, "_table_id", tables)
        return [None] * len(writes)


_ACTIONS_INSERT = db.actions.insert()
_GAMES_UPDATE = db.games.update().where(db.games.c.id == sa.bindparam("_game_id"))
_TABLES_UPDATE = db.tables.update().where(db.tables.c.id == sa.bindparam("_table_id"))


def _run_writes(conn: Connection, fns: list[Write]) -> list[Any]:
    """Run writes in order; consecutive ``ActionWrite``s go to the database as one batch."""
    out: list[Any] = []
    acts: list[ActionWrite] = []
    for fn in fns:
        if type(fn) is ActionWrite:
            acts.append(fn)
            continue
        if acts:
            out.extend(ActionWrite.run_many(conn, acts))
            acts = []
        out.append(fn(conn))
    if acts:
        out.extend(ActionWrite.run_many(conn, acts))
    return out


def _update_many(conn: Connection, stmt: Any, key: str, rows: dict[str, dict[str, Any]]) -> None:
    """One executemany per set of columns (most batches have a single set)."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row_id, values in rows.items():
        groups.setdefault(tuple(sorted(values)), []).append({key: row_id, **values})
    for params in groups.values():
        conn.execute(stmt, params)


_JSON_COLUMNS = frozenset({"reshuffles", "seats", "rules"})
_SQLITE_INSERT = (
    'INSERT INTO actions (game_id, idx, seat, action, "by", ts) VALUES (?, ?, ?, ?, ?, ?)'
)


def _sqlite_actions(
    conn: Connection,
    writes: list[ActionWrite],
    games: dict[str, dict[str, Any]],
    tables: dict[str, dict[str, Any]],
) -> None:
    """The SQLite path of ``ActionWrite.run_many``: plain DB-API ``executemany`` on the
    transaction's own connection (the SQLAlchemy statement machinery costs more than SQLite
    itself at this size). JSON columns are stored as ``json.dumps`` text, as ``sa.JSON`` does."""
    cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cur.executemany(
            _SQLITE_INSERT,
            [(w.game_id, w.idx, w.seat, json.dumps(w.action), w.by, w.ts) for w in writes],
        )
        for name, rows in (("games", games), ("tables", tables)):
            groups: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
            for row_id, values in rows.items():
                cols = tuple(sorted(values))
                params = tuple(
                    json.dumps(values[c]) if c in _JSON_COLUMNS else values[c] for c in cols
                )
                groups.setdefault(cols, []).append((*params, row_id))
            for cols, params_list in groups.items():
                sets = ", ".join(f'"{c}" = ?' for c in cols)
                cur.executemany(f"UPDATE {name} SET {sets} WHERE id = ?", params_list)
    except sqlite3.Error as exc:  # classified as SQLAlchemy would (a lock: OperationalError)
        raise sa_exc.DBAPIError.instance(_SQLITE_INSERT, None, exc, sqlite3.Error) from exc
    finally:
        cur.close()


def save_chat(table_id: str, message: dict[str, Any]) -> Write:
    def run(conn: Connection) -> None:
        conn.execute(
            db.chat.insert().values(
                table_id=table_id,
                id=message["id"],
                seat=message["seat"],
                user_id=message["user_id"],
                name=message["name"],
                text=message["text"],
                ts=message["ts"],
            )
        )

    return run


# ---------------------------------------------------------------------- read functions
@dataclass(slots=True)
class StoredTable:
    table: dict[str, Any]
    game: dict[str, Any] | None
    actions: list[dict[str, Any]]
    chat: list[dict[str, Any]]


def _chat_rows(conn: Connection, table_id: str, limit: int | None = None) -> list[dict[str, Any]]:
    c = db.chat.c
    query = sa.select(db.chat).where(c.table_id == table_id).order_by(c.id.desc())
    if limit is not None:
        query = query.limit(limit)
    rows = [dict(r._mapping) for r in conn.execute(query)]
    rows.reverse()
    for r in rows:
        r.pop("table_id", None)
    return rows


def load_table(conn: Connection, table_id: str, chat_limit: int | None = 200) -> StoredTable | None:
    row = conn.execute(sa.select(db.tables).where(db.tables.c.id == table_id)).first()
    if row is None:
        return None
    game = conn.execute(sa.select(db.games).where(db.games.c.id == table_id)).first()
    acts: list[dict[str, Any]] = []
    if game is not None:
        a = db.actions.c
        acts = [
            dict(r._mapping)
            for r in conn.execute(
                sa.select(a.idx, a.seat, a.action, a.by)
                .where(a.game_id == table_id)
                .order_by(a.idx)
            )
        ]
    return StoredTable(
        dict(row._mapping),
        None if game is None else dict(game._mapping),
        acts,
        _chat_rows(conn, table_id, chat_limit),
    )


def load_active(conn: Connection) -> list[StoredTable]:
    ids = [
        r[0]
        for r in conn.execute(
            sa.select(db.tables.c.id)
            .where(db.tables.c.status.in_(("waiting", "playing")))
            .order_by(db.tables.c.created_at)
        )
    ]
    out = []
    for table_id in ids:
        stored = load_table(conn, table_id)
        if stored is not None:
            out.append(stored)
    return out


_ACCESS = ("public", "published", "invite", "host", "seats")


def table_row(table_id: str) -> Write:
    """The table's row (without its game), or None."""

    def run(conn: Connection) -> dict[str, Any] | None:
        row = conn.execute(sa.select(db.tables).where(db.tables.c.id == table_id)).first()
        return None if row is None else dict(row._mapping)

    return run


def username_of(user_id: str) -> Write:
    """The account's username (None for a guest)."""

    def run(conn: Connection) -> str | None:
        u = db.users.c
        return conn.execute(sa.select(u.username).where(u.id == user_id)).scalar()

    return run


def set_published(table_id: str, published: bool) -> Write:
    def run(conn: Connection) -> None:
        t = db.tables
        conn.execute(t.update().where(t.c.id == table_id).values(published=published))

    return run


def list_finished(
    limit: int,
    visible: Callable[[dict[str, Any]], bool],
    user_id: str | None,
    before: float | None = None,
) -> Write:
    """The newest finished games whose table row passes ``visible`` (finished before ``before``,
    for the next page). SQL keeps public and published tables and those that mention ``user_id``
    (a superset of hers); ``visible`` decides."""

    def run(conn: Connection) -> list[dict[str, Any]]:
        g = db.games.c
        t = db.tables.c
        query = (
            sa.select(
                g.id,
                g.players,
                g.names,
                g.rules,
                g.winner,
                g.reason,
                g.action_count,
                g.created_at,
                g.finished_at,
                *(t[name] for name in _ACCESS),
            )
            .join_from(db.games, db.tables, t.id == g.table_id)
            .where(g.status == "finished")
            .order_by(g.finished_at.desc())
        )
        if before is not None:
            query = query.where(g.finished_at < before)
        shown: list[sa.ColumnElement[bool]] = [t.public, t.published]
        if user_id is not None:
            shown += [
                t.host == user_id,
                sa.cast(t.seats, sa.Text).contains(user_id, autoescape=True),
            ]
        out = []
        for r in conn.execute(query.where(sa.or_(*shown))):
            d = dict(r._mapping)
            if not visible(d):
                continue
            for name in _ACCESS:
                d.pop(name)
            d["actions"] = d.pop("action_count")
            out.append(d)
            if len(out) >= limit:
                break
        return out

    return run


def record_of(stored: StoredTable) -> dict[str, Any]:
    """The game record (RECORD-FORMAT.md) of a stored game, from its fixings and actions."""
    g = stored.game
    assert g is not None
    record: dict[str, Any] = {
        "format": "secret-hitler-record",
        "version": 1,
        "rules": g["rules"],
        "players": g["names"],
        "roles": g["roles"],
        "first_president": g["first_president"],
        "deck": g["deck"],
        "reshuffles": g["reshuffles"],
    }
    if g["seed"] is not None:
        record["seed"] = g["seed"]
    record["actions"] = [a["action"] for a in stored.actions]
    if g["winner"] is not None:
        record["result"] = {"winner": g["winner"], "reason": g["reason"]}
    return record
