"""The hub asks one port which tables are its own (``lobby/ownership.py``): every table it opens
is claimed through it, only the stored tables it claims are restored, its tables write through
the port's writer, and revoked sessions are announced through it. A single server's port
(``Local``) claims everything and tells nobody; a cluster's (``cluster/node.py``) is tested
with real nodes in test_cluster.py. Here the hub runs in-process on SQLite with a port that
records what it was asked."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from secret_hitler.server.accounts.auth import User
from secret_hitler.server.core.config import Settings
from secret_hitler.server.core.metrics import Metrics
from secret_hitler.server.lobby.hub import Hub
from secret_hitler.server.lobby.ownership import Local
from secret_hitler.server.storage import db
from secret_hitler.server.storage import queries as S
from secret_hitler.server.storage.writer import Store, Write
from secret_hitler.server.table import usecases
from secret_hitler.server.table.session import Table

ANN, BO = User("u0", "Ann"), User("u1", "Bo")


class Recording(Local):
    """A port that serves what it claims (``keep``: the stored tables it takes at startup)
    and records every question."""

    def __init__(self, store: Store, keep: bool = True) -> None:
        super().__init__(store)
        self.keep = keep
        self.claimed: list[str] = []
        self.written: list[str] = []
        self.revoked: list[str] = []
        self.store_writer = self.writer
        self.writer = self  # every write of this node's tables passes here

    async def claim_new(self, table_id: str) -> None:
        self.claimed.append(table_id)

    async def claim_stored(self, stored: list[S.StoredTable]) -> list[S.StoredTable]:
        return stored if self.keep else []

    def announce_revoked(self, user_id: str) -> None:
        self.revoked.append(user_id)

    async def write(self, table_id: str, fn: Write) -> Any:
        self.written.append(table_id)
        return await self.store_writer.write(table_id, fn)

    async def read(self, fn: Write) -> Any:
        return await self.store_writer.read(fn)


class Anyone:
    def check_join(self, user_id: str, table: Table) -> None:
        return None


def test_the_hub_claims_writes_and_announces_through_its_ownership_port(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'game.db'}")
        db.migrate(engine)
        store = Store(engine)
        settings = Settings(data=tmp_path)
        hub = Hub(settings, store, Metrics())
        port = Recording(store)
        hub.set_ownership(port)
        table = await hub.create_table(ANN, {"players": 5}, "10.0.0.1")
        rematch = await hub.open_rematch(table.row(), ANN, "10.0.0.1")
        assert port.claimed == [table.id, rematch.id]  # a rematch is a new table too

        await usecases.join(table, BO, None, Anyone())
        assert port.written == [table.id]
        hub.sessions_ended(BO.id, set())
        hub.sessions_ended(BO.id, {"s1"})
        assert port.revoked == [BO.id]
        await hub.close()

        # at startup only the stored tables the port claims are this node's
        elsewhere = Hub(settings, store, Metrics())
        elsewhere.set_ownership(Recording(store, keep=False))
        await elsewhere.load()
        assert elsewhere.tables == {}
        await elsewhere.close()
        alone = Hub(settings, store, Metrics())  # a single server: ``Local`` claims them all
        await alone.load()
        assert set(alone.tables) == {table.id, rematch.id}
        assert alone.tables[table.id].seats[1].user_id == BO.id
        await alone.close()
        store.close()

    asyncio.run(scenario())
