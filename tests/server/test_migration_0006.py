"""Migration 0006 (the people a host removed, stored with the table) on SQLite and PostgreSQL: a
database at 0005 holding a game in progress and a waiting table is upgraded, the server restores
both, and a person removed after the upgrade is still removed after a restart."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from migration_support import database_at, playing_game_row
from server_support import Client, HttpError, http, session
from test_migration_0004 import _game_in_progress

from secret_hitler.server.storage import db


def _store_at_0005(engine: sa.Engine, host: str, game_actions: list[dict[str, Any]]) -> Any:
    """A playing table with its game and a waiting table, written with the 0005 schema (reflected,
    not today's models)."""
    meta = sa.MetaData()
    meta.reflect(engine)
    assert "removed" not in meta.tables["tables"].c  # really the old schema
    game = _game_in_progress(12)
    rec = game.to_record()
    now = time.time()
    common = {
        "host_name": "Ann",
        "rules": rec["rules"],
        "public": True,
        "timer": None,
        "bot_level": "random",
        "created_at": now,
        "published": False,
        "rated": False,
    }
    people = [
        {"kind": "human", "user_id": f"u_{i}", "name": n, "level": None}
        for i, n in enumerate(rec["players"])
    ]
    waiting = [{"kind": "human", "user_id": host, "name": "Ann", "level": None}] + [
        {"kind": "empty", "user_id": None, "name": None, "level": None} for _ in range(4)
    ]
    with engine.begin() as conn:
        t = meta.tables["tables"]
        conn.execute(
            t.insert(),
            [
                {
                    **common,
                    "id": "tplaying",
                    "host": "u_0",
                    "players": 5,
                    "invite": "inv-p",
                    "auto_start": True,
                    "status": "playing",
                    "seats": people,
                },
                {
                    **common,
                    "id": "twaiting",
                    "host": host,
                    "players": 5,
                    "invite": "inv-w",
                    "auto_start": False,
                    "status": "waiting",
                    "seats": waiting,
                },
            ],
        )
        conn.execute(meta.tables["games"].insert().values(**playing_game_row("tplaying", rec, now)))
        conn.execute(
            meta.tables["actions"].insert(),
            [
                {
                    "game_id": "tplaying",
                    "idx": i,
                    "seat": a["seat"],
                    "action": a,
                    "by": None,
                    "ts": now,
                }
                for i, a in enumerate(rec["actions"])
            ],
        )
    game_actions.extend(rec["actions"])
    return game


@pytest.mark.timeout(120)
def test_upgrade_from_0005_keeps_games_and_stores_removals(
    backend: str, tmp_path: Path, make_server: Any, request: Any
) -> None:
    data = tmp_path / "data"
    actions: list[dict[str, Any]] = []
    url, served, game = database_at(
        backend, data, request, "0005", lambda engine: _store_at_0005(engine, "u_host", actions)
    )

    server = make_server(backend, data=data, database_url=served)
    inspector_engine = db.make_engine(url)
    try:
        cols = {c["name"] for c in sa.inspect(inspector_engine).get_columns("tables")}
        assert "removed" in cols  # the server migrated to the newest revision
    finally:
        inspector_engine.dispose()
    assert http(server, "GET", "/api/tables/tplaying")["status"] == "playing"
    assert http(server, "GET", "/api/tables/twaiting")["status"] == "waiting"

    async def watch() -> dict[str, Any] | None:
        c = Client(server, None, "spectator")
        welcome = await c.connect("tplaying")
        await c.close()
        return welcome

    welcome = asyncio.run(watch())
    assert welcome is not None and welcome["seq"] >= len(game.actions) + 1  # it resumed

    # A table made on the upgraded schema: its host removes someone, the server restarts.
    host, guest = session(server, "Bea"), session(server, "Cal")
    t = http(server, "POST", "/api/tables", {"players": 5, "auto_start": False}, token=host)["id"]
    http(server, "POST", f"/api/tables/{t}/join", {}, token=guest)
    http(server, "POST", f"/api/tables/{t}/seats/1", {"to": "empty"}, token=host)
    server.stop()
    again = make_server(backend, data=data, database_url=served)
    with pytest.raises(HttpError) as info:
        http(again, "POST", f"/api/tables/{t}/join", {}, token=guest)
    assert info.value.code == "removed"
    other = session(again, "Dee")  # someone else may still take the seat
    assert (
        http(again, "POST", f"/api/tables/{t}/join", {}, token=other)["seats"][1]["name"] == "Dee"
    )
    # the old waiting table (NULL: nobody removed) takes anyone
    assert http(again, "POST", "/api/tables/twaiting/join", {}, token=guest)["status"] == "waiting"
