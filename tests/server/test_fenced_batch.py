"""A cluster node's writes are fenced by its leases (cluster/lease.py ``Fenced``); the writer
groups a commit's fenced writes (``Fenced.run_many``): one statement checks and extends every
lease, the actions go in one batch, and a lease another node took fails that table's write
alone, every other write of the commit made (the writer retries a failed batch write by write).
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from secret_hitler.server.cluster import lease
from secret_hitler.server.cluster.lease import Fenced, LeaseLost
from secret_hitler.server.storage import db
from secret_hitler.server.storage.writer import Store


def _note(table_id: str) -> lease.Write:
    """A write of the table's state: one row of a table of the test's own."""

    def run(conn: sa.Connection) -> str:
        conn.exec_driver_sql("INSERT INTO notes (table_id) VALUES (?)", (table_id,))
        return table_id

    return run


def test_a_commits_fenced_writes_share_one_lease_check_and_a_lost_lease_fails_alone(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'game.db'}")
        db.migrate(engine)
        with engine.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE notes (table_id TEXT)")
        statements: list[str] = []
        sa.event.listen(
            engine, "before_cursor_execute", lambda *a: statements.append(str(a[2])), retval=False
        )
        store = Store(engine)
        tokens = {}
        for t in ("t1", "t2", "t3"):
            tokens[t] = await store.write(lease.acquire(t, "node0", 30.0))
        with sqlite3.connect(tmp_path / "game.db") as raw:  # node1 took t2 over
            raw.execute(
                "UPDATE table_leases SET owner = 'node1', token = token + 1 WHERE table_id = 't2'"
            )
        statements.clear()
        writes = [Fenced(t, "node0", tokens[t], 30.0, _note(t)) for t in ("t1", "t2", "t3")]
        results = await asyncio.gather(*(store.write(w) for w in writes), return_exceptions=True)
        assert results[0] == "t1" and results[2] == "t3"
        assert isinstance(results[1], LeaseLost) and results[1].table_id == "t2"
        with sqlite3.connect(tmp_path / "game.db") as raw:
            assert sorted(r[0] for r in raw.execute("SELECT table_id FROM notes")) == ["t1", "t3"]
        fences = [s for s in statements if s.startswith("UPDATE table_leases")]
        assert len(fences) == 1 + 3  # the batch's one check, then each write's own
        statements.clear()
        ok = [Fenced(t, "node0", tokens[t], 30.0, _note(t)) for t in ("t1", "t3")]
        assert await asyncio.gather(*(store.write(w) for w in ok)) == ["t1", "t3"]
        assert len([s for s in statements if s.startswith("UPDATE table_leases")]) == 1
        store.close()

    asyncio.run(scenario())


def test_a_fenced_write_alone_is_refused_once_the_lease_is_gone(tmp_path: Path) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'game.db'}")
    db.migrate(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE notes (table_id TEXT)")
        token = lease.acquire("t1", "node0", 30.0)(conn)
        assert token is not None
        assert Fenced("t1", "node0", token, 30.0, _note("t1"))(conn) == "t1"
        with pytest.raises(LeaseLost):
            Fenced("t1", "node0", token + 1, 30.0, _note("t1"))(conn)
    engine.dispose()
