"""Who moves when a table's timer runs out (``on_timeout``, docs/game-types.md "Timed tables"):
the table's stand-in bot unless its host chose secrethitler.io's timed mode (``random``). The
hub checks the setting where it checks a new table, stores it with the table, and a rematch and
a restart keep it; a table stored before the setting keeps the stand-in. Here the hub runs
in-process on SQLite (the moves themselves: test_table_game_types.py; over HTTP:
test_game_types_api.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from migration_support import database_at, playing_table_row

from secret_hitler.server.accounts.auth import User
from secret_hitler.server.core.config import Settings
from secret_hitler.server.core.errors import LobbyError
from secret_hitler.server.core.metrics import Metrics
from secret_hitler.server.lobby.hub import Hub
from secret_hitler.server.storage import db
from secret_hitler.server.storage import queries as S
from secret_hitler.server.storage.writer import Store
from secret_hitler.server.table.options import stored_on_timeout, stored_section

ANN = User("u0", "Ann")


def _hub(store: Store, tmp_path: Path) -> Hub:
    return Hub(Settings(data=tmp_path, min_timer=2), store, Metrics())


def test_the_hub_checks_stores_and_carries_who_moves_when_the_timer_runs_out(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'game.db'}")
        db.migrate(engine)
        store = Store(engine)
        hub = _hub(store, tmp_path)
        refused = [
            ({"timer": 60, "on_timeout": "bot"}, "on_timeout: one of standin, random"),
            ({"on_timeout": "random"}, "a random move needs a timer"),
        ]
        for body, message in refused:
            with pytest.raises(LobbyError) as info:
                await hub.create_table(ANN, {"players": 5, **body}, "10.0.0.1")
            assert (info.value.code, info.value.field) == ("invalid_settings", "on_timeout")
            assert message in info.value.message
        assert hub.tables == {}  # nothing was made
        timed = await hub.create_table(
            ANN, {"players": 5, "timer": 60, "on_timeout": "random"}, "10.0.0.1"
        )
        plain = await hub.create_table(ANN, {"players": 5, "timer": 86400}, "10.0.0.1")
        assert (timed.on_timeout, timed.driver.on_timeout) == ("random", "random")
        assert (plain.on_timeout, plain.driver.on_timeout) == ("standin", "standin")
        # the timed mode forces no category: only the timer's length does (engine/categories.py)
        for on_timeout in ("standin", "random"):
            body = {"players": 5, "timer": 60, "on_timeout": on_timeout, "category": "rated"}
            plan = hub.plan_table(ANN, body)
            assert (plan.category.category, plan.rated) == ("rated", True)
            plan = hub.plan_table(ANN, {**body, "timer": 10, "category": "casual"})
            assert plan.category.reasons == ("category.reason.fast_timer",)
        rematch = await hub.open_rematch(timed.row(), ANN, "10.0.0.1")
        assert rematch.on_timeout == "random"
        stored = {st.table["id"]: st for st in await store.read(S.load_active)}
        assert stored[timed.id].table["on_timeout"] == "random"
        assert stored_section(stored[plain.id].table, None)["on_timeout"] == "standin"
        await hub.close()

        restarted = _hub(store, tmp_path)
        await restarted.load()
        shown = {t.id: t.detail(False)["on_timeout"] for t in restarted.tables.values()}
        assert shown == {timed.id: "random", plain.id: "standin", rematch.id: "random"}
        assert restarted.tables[timed.id].driver.on_timeout == "random"
        await restarted.close()
        store.close()

    asyncio.run(scenario())


def _store_at_0011(engine: sa.Engine) -> None:
    """A timed table, stored with the schema before ``on_timeout``."""
    meta = sa.MetaData()
    meta.reflect(engine)
    assert "on_timeout" not in meta.tables["tables"].c
    record = {"players": ["Ann", "Ben", "Cat", "Dan", "Eve"], "rules": "official"}
    row = {**playing_table_row("old", record, 0.0), "timer": 86400, "status": "waiting"}
    with engine.begin() as conn:
        conn.execute(meta.tables["tables"].insert().values(**row))


def test_a_table_stored_before_the_setting_keeps_the_stand_in(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url, _, _ = database_at(backend, tmp_path, request, "0011", _store_at_0011)
    engine = db.make_engine(url)
    try:
        db.migrate(engine)
        with engine.connect() as conn:
            query = sa.select(db.tables).where(db.tables.c.id == "old")
            row: dict[str, Any] = dict(conn.execute(query).one()._mapping)
    finally:
        engine.dispose()
    assert row["on_timeout"] == "standin" and stored_on_timeout(row) == "standin"
    assert stored_on_timeout({k: v for k, v in row.items() if k != "on_timeout"}) == "standin"
