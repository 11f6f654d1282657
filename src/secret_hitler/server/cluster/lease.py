"""Table leases in the database: which node owns a live table, and the fencing of its writes.

A node may apply actions, run bots and timers of a table only while it holds the table's lease
(row of ``table_leases``). Taking a lease over (free, or expired) raises its ``token``; every
write of the owner runs ``fence`` first, in the same transaction, which updates the lease row
only if it still carries the owner's node id and token. A node that lost its lease (it was
stopped past ``expires_at`` and another node took over) therefore has its writes refused by the
database itself, whatever its clock or its idea of time: two nodes can never both advance a game.
Clocks matter only for liveness (when a lease counts as expired).

Every function here returns a store ``Write`` (a function of a connection).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..storage import db
from ..storage.writer import run_writes

Write = Callable[[Connection], Any]
L = db.table_leases


class LeaseLost(Exception):
    """The table's lease is no longer this node's: the write was refused (nothing written)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"the lease of table {table_id} is held by another node")
        self.table_id = table_id


def _upsert(conn: Connection) -> Any:
    """INSERT ... ON CONFLICT of the connection's dialect (PostgreSQL; SQLite for tools)."""
    from sqlalchemy.dialects import postgresql, sqlite

    return (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(L)


def acquire(table_id: str, node: str, ttl: float) -> Write:
    """Take the lease if it is free, expired or already this node's; returns the new token,
    or ``None`` when another node holds it. The row lock of the upsert serializes rivals."""

    def run(conn: Connection) -> int | None:
        now = time.time()
        stmt = _upsert(conn).values(table_id=table_id, owner=node, token=1, expires_at=now + ttl)
        stmt = stmt.on_conflict_do_update(
            index_elements=[L.c.table_id],
            set_={"owner": node, "token": L.c.token + 1, "expires_at": now + ttl},
            where=sa.or_(L.c.expires_at < now, L.c.owner == node),
        ).returning(L.c.token)
        row = conn.execute(stmt).first()
        return None if row is None else int(row[0])

    return run


def fence(table_id: str, node: str, token: int, ttl: float) -> Write:
    """The check that runs first in the transaction of every write of a table's owner: it also
    extends the lease. Raises ``LeaseLost`` when the row no longer carries this owner's token."""

    def run(conn: Connection) -> None:
        result = conn.execute(
            L.update()
            .where(L.c.table_id == table_id, L.c.owner == node, L.c.token == token)
            .values(expires_at=time.time() + ttl)
        )
        if result.rowcount != 1:
            raise LeaseLost(table_id)

    return run


class Fenced:
    """A write of table ``table_id`` made only if its lease still carries this owner's
    ``token`` (``fence``), in the same transaction.

    The writer groups the fenced writes of one commit (``run_many``): every lease is checked and
    extended by one statement, then the writes themselves are batched as the writer batches
    them (every action of the commit in one INSERT), instead of three statements, three round
    trips to the database, per action. If one lease is gone the whole batch fails and the
    writer retries its writes one by one, so that only that table's is refused."""

    __slots__ = ("table_id", "node", "token", "ttl", "write")

    def __init__(self, table_id: str, node: str, token: int, ttl: float, write: Write) -> None:
        self.table_id, self.node, self.token, self.ttl = table_id, node, token, ttl
        self.write = write

    def __call__(self, conn: Connection) -> Any:
        fence(self.table_id, self.node, self.token, self.ttl)(conn)
        return self.write(conn)

    @staticmethod
    def run_many(conn: Connection, writes: list[Fenced]) -> list[Any]:
        leases = {(w.table_id, w.node, w.token): w.ttl for w in writes}
        if len({node for _, node, _ in leases}) != 1:  # (one node writes its own)
            return [w(conn) for w in writes]
        node = writes[0].node
        pairs = [(table_id, token) for table_id, _, token in leases]
        held = conn.execute(
            L.update()
            .where(L.c.owner == node, sa.tuple_(L.c.table_id, L.c.token).in_(pairs))
            .values(expires_at=time.time() + max(leases.values()))
            .returning(L.c.table_id)
        ).scalars()
        lost = {table_id for table_id, _ in pairs} - set(held)
        if lost:
            raise LeaseLost(min(lost))
        return run_writes(conn, [w.write for w in writes])


def renew(node: str, held: dict[str, int], ttl: float) -> Write:
    """Extend every lease in ``held`` (table id -> token); returns the ids no longer held."""

    def run(conn: Connection) -> list[str]:
        exp = time.time() + ttl
        lost = []
        for table_id, token in held.items():
            result = conn.execute(
                L.update()
                .where(L.c.table_id == table_id, L.c.owner == node, L.c.token == token)
                .values(expires_at=exp)
            )
            if result.rowcount != 1:
                lost.append(table_id)
        return lost

    return run


def release(node: str, held: dict[str, int]) -> Write:
    """Give leases up at once (a draining node): expired now, the token kept (it only grows)."""

    def run(conn: Connection) -> None:
        for table_id, token in held.items():
            conn.execute(
                L.update()
                .where(L.c.table_id == table_id, L.c.owner == node, L.c.token == token)
                .values(expires_at=0.0)
            )

    return run


def holder(table_id: str) -> Write:
    """``(owner, token, expires_at)`` of the table's lease, or ``None``."""

    def run(conn: Connection) -> tuple[str, int, float] | None:
        row = conn.execute(
            sa.select(L.c.owner, L.c.token, L.c.expires_at).where(L.c.table_id == table_id)
        ).first()
        return None if row is None else (str(row[0]), int(row[1]), float(row[2]))

    return run


def orphans(limit: int = 50) -> Write:
    """Waiting or playing tables whose lease is missing or expired (their owner died)."""

    def run(conn: Connection) -> list[str]:
        t = db.tables.c
        now = time.time()
        query = (
            sa.select(t.id)
            .select_from(db.tables.outerjoin(L, L.c.table_id == t.id))
            .where(t.status.in_(("waiting", "playing")))
            .where(sa.or_(L.c.table_id.is_(None), L.c.expires_at < now))
            .order_by(t.created_at)
            .limit(limit)
        )
        return [str(r[0]) for r in conn.execute(query)]

    return run
