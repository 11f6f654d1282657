"""A table's rating limit and a new-player table's rule at the join (competition/limits.py;
docs/competitive.md "Rating limits", "New-player tables"): the use-case on the table's clock,
and the hub that checks, stores and restores a new table's limits."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from table_support import FakeClock, FakeWriter, Notes, make_table, services

from secret_hitler.server.accounts.auth import User
from secret_hitler.server.competition.limits import NEWBIE, Player
from secret_hitler.server.core.config import Settings
from secret_hitler.server.core.errors import LobbyError
from secret_hitler.server.core.metrics import Metrics
from secret_hitler.server.lobby.hub import Hub
from secret_hitler.server.storage import db
from secret_hitler.server.storage import queries as S
from secret_hitler.server.storage.writer import Store
from secret_hitler.server.table import usecases
from secret_hitler.server.table.seats import Seat
from secret_hitler.server.table.session import Table

ANN, BO, CY = User("u1", "Ann"), User("u2", "Bo"), User("u3", "Cy")


class Anyone:
    def check_join(self, user_id: str, table: Table) -> None:
        return None


def waiting_table(**settings: Any) -> tuple[Table, FakeWriter]:
    writer = FakeWriter()
    table = make_table(services(writer, FakeClock(), Notes(), **settings), [Seat()] * 5)
    return table, writer


async def refused(code: str, table: Table, user: User, player: Player | None) -> LobbyError:
    with pytest.raises(LobbyError) as caught:
        await usecases.join(table, user, None, Anyone(), None, player)
    assert caught.value.code == code
    return caught.value


def test_a_rating_limit_refuses_players_outside_it_and_changes_nothing() -> None:
    async def scenario() -> None:
        table, writer = waiting_table()
        table.rating_min, table.rating_max = 5.0, 20.0
        low = await refused("rating_too_low", table, ANN, Player(rating=1.5, games=40))
        assert "at least 5.00" in low.message and "1.50" in low.message
        high = await refused("rating_too_high", table, BO, Player(rating=22.25, games=40))
        assert "at most 20.00" in high.message
        assert all(s.kind == "empty" for s in table.seats) and not writer.writes
        assert await usecases.join(table, CY, None, Anyone(), None, Player(5.0, 3)) == 0
        assert table.seats[0].user_id == "u3" and writer.writes
        detail = table.detail(member=False)
        assert (detail["rating_min"], detail["rating_max"], detail["kind"]) == (5.0, 20.0, None)

    asyncio.run(scenario())


def test_a_new_player_table_takes_people_with_few_finished_games() -> None:
    async def scenario() -> None:
        table, writer = waiting_table(newbie_games=10)
        table.kind = NEWBIE
        veteran = await refused("newbie_table", table, ANN, Player(rating=0.0, games=10))
        assert "fewer than 10" in veteran.message and "you have 10" in veteran.message
        assert not writer.writes
        assert await usecases.join(table, BO, None, Anyone(), None, Player(0.0, 9)) == 0
        assert table.detail(member=False)["kind"] == NEWBIE

    asyncio.run(scenario())


def test_a_table_without_limits_asks_nothing() -> None:
    async def scenario() -> None:
        table, _ = waiting_table()
        assert await usecases.join(table, ANN, None, Anyone()) == 0

    asyncio.run(scenario())


def test_the_hub_checks_stores_and_restores_a_new_tables_limits(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'l.db'}")
        db.migrate(engine)
        store = Store(engine)
        hub = Hub(Settings(data=tmp_path), store, Metrics())
        for body, field in [
            ({"rating_min": 30, "rating_max": 10}, "rating_min"),
            ({"rating_max": 10_000}, "rating_max"),
        ]:
            with pytest.raises(LobbyError) as caught:
                hub.plan_table(ANN, {"players": 5, **body})
            assert (caught.value.code, caught.value.field) == ("invalid_settings", field)
        # a maker outside her own limit is refused (she sits at seat 0 by default)
        with pytest.raises(LobbyError) as caught:
            await hub.create_table(
                ANN, {"players": 5, "rating_min": 10}, "10.0.0.1", None, Player(rating=2.0, games=5)
            )
        assert caught.value.code == "rating_too_low" and not hub.tables
        # one who only hosts sets any limit
        table = await hub.create_table(
            ANN, {"players": 5, "rating_min": 10.004, "rating_max": 30, "seat": None}, "10.0.0.1"
        )
        assert (table.rating_min, table.rating_max) == (10.0, 30.0)
        stored = await store.read(S.load_active)
        (row,) = [st.table for st in stored]
        assert (row["rating_min"], row["rating_max"], row["kind"]) == (10.0, 30.0, None)
        again = Hub(Settings(data=tmp_path), store, Metrics())
        restored = again.restore(stored[0])
        assert restored is not None
        assert (restored.rating_min, restored.rating_max) == (10.0, 30.0)
        await hub.close()
        await again.close()
        store.close()
        engine.dispose()

    asyncio.run(scenario())
