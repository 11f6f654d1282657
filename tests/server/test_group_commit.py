"""Group commit (storage/writer.py): while actions keep coming, those of a short window share
one transaction, across tables; each is announced only once that transaction is committed, and
when the database cannot take it, every action in it fails and none is announced.

Two tables of five people share one real SQLite store, each watched by a connection; the store's
window is long (``WINDOW``) so that actions sent one after another surely fall into one window:
the test counts commits and what each watcher had heard when each COMMIT went out, never time.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from table_support import FakeClock, Notes, first_move, frames, people, run, services

from secret_hitler.server.accounts.auth import User
from secret_hitler.server.core import protocol as P
from secret_hitler.server.storage import db
from secret_hitler.server.storage import queries as S
from secret_hitler.server.storage.writer import Store
from secret_hitler.server.table.conn import Conn
from secret_hitler.server.table.services import StoreWriter
from secret_hitler.server.table.session import Table
from secret_hitler.server.table.settings import TableSettings

WINDOW = 1.0  # seconds between two commits while writes keep coming (far above a loop step)


class Scene:
    """Two started tables on one store, a watcher at each, and every COMMIT noted."""

    def __init__(self, path: Path, write_timeout: float = 5.0) -> None:
        engine = db.make_engine(f"sqlite:///{path / 'game.db'}")
        db.migrate(engine)
        self.file = path / "game.db"
        self.store = Store(engine, write_timeout=write_timeout, window=WINDOW)
        # at each COMMIT (just before the database makes it): the updates each watcher had
        self.commits: list[list[int]] = []
        sa.event.listen(engine, "commit", lambda _conn: self.commits.append(self.heard()))
        self.tables: list[Table] = []
        self.watchers: list[Conn] = []
        self.updates: list[list[dict[str, Any]]] = [[], []]

    async def open(self) -> None:
        for k in range(2):
            svc = services(StoreWriter(self.store), FakeClock(), Notes())  # type: ignore[arg-type]
            table = Table(
                svc,
                TableSettings(players=5, rules="official", bot_level="random", auto_start=False),
                id=f"t{k}",
                host="u0",
                host_name="P0",
                invite=f"invite{k}",
                seats=people(5),
            )
            await self.store.write(S.save_table(table.row(), insert=True))
            watcher = Conn(None, User(f"w{k}", "Watcher"))
            table.attach(watcher)
            async with table.lock:
                table.hello(watcher, P.Hello(type="hello"))
                await table.start_game()
            self.tables.append(table)
            self.watchers.append(watcher)
        self.heard()

    def heard(self) -> list[int]:
        """Take the watchers' new frames; the updates each has heard so far."""
        for k, watcher in enumerate(self.watchers):
            for text in frames(watcher):
                msg = json.loads(text)
                if msg["type"] == "update":
                    self.updates[k].append(msg)
        return [len(u) for u in self.updates]

    async def play(self, k: int) -> int:
        game = self.tables[k].game
        assert game is not None
        seat, action = first_move(game)
        return await self.tables[k].play(seat, action.to_json())

    def stored(self, k: int) -> int:
        with sqlite3.connect(self.file) as raw:
            (count,) = raw.execute(
                "SELECT count(*) FROM actions WHERE game_id = ?", (f"t{k}",)
            ).fetchone()
        return int(count)

    async def close(self) -> None:
        for table in self.tables:
            await table.close()
        self.store.close()


def test_actions_of_one_window_share_a_commit_and_are_announced_only_after_it(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        scene = Scene(tmp_path)
        await scene.open()
        try:
            await scene.play(0)  # a commit just went out: the next actions wait for the window
            before, commits = scene.heard(), len(scene.commits)
            first = asyncio.create_task(scene.play(0))
            for _ in range(5):
                await asyncio.sleep(0)  # the first write is queued, waiting for the window
            second = asyncio.create_task(scene.play(1))
            await asyncio.gather(first, second)
            assert len(scene.commits) == commits + 1  # one transaction for both tables
            assert scene.commits[-1] == before  # nobody heard of either before its COMMIT
            assert scene.heard() == [before[0] + 1, before[1] + 1]  # then everyone did
            assert [scene.stored(0), scene.stored(1)] == [2, 1]
        finally:
            await scene.close()

    run(scenario)


def test_a_group_commit_the_database_cannot_take_fails_every_action_in_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        scene = Scene(tmp_path, write_timeout=0.5)
        await scene.open()
        try:
            await scene.play(0)
            before = scene.heard()
            counts = [len(t.game.actions) for t in scene.tables if t.game is not None]
            locker = sqlite3.connect(scene.file, isolation_level=None)
            locker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            try:
                results = await asyncio.gather(scene.play(0), scene.play(1), return_exceptions=True)
            finally:
                locker.execute("ROLLBACK")
                locker.close()
            assert all(isinstance(r, P.ProtocolError) for r in results), results
            assert {r.code for r in results if isinstance(r, P.ProtocolError)} == {"unavailable"}
            assert scene.heard() == before  # no update of either action went out
            assert [len(t.game.actions) for t in scene.tables if t.game is not None] == counts
            assert [scene.stored(0), scene.stored(1)] == [1, 0]
            # the database is back: the next actions are stored, then announced
            await asyncio.gather(scene.play(0), scene.play(1))
            assert scene.heard() == [before[0] + 1, before[1] + 1]
            assert [scene.stored(0), scene.stored(1)] == [2, 1]
        finally:
            await scene.close()

    run(scenario)


@pytest.mark.parametrize("value", ["-0.1", "0.5", "soon"])
def test_a_commit_window_out_of_range_is_refused(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from secret_hitler.server.core.config import Settings

    monkeypatch.setenv("SH_COMMIT_WINDOW", value)
    with pytest.raises(ValueError, match="SH_COMMIT_WINDOW"):
        Settings.from_env()
