"""Migration 0008 (table talk: the bots-talk switch, each chat line's place in the game and a
bot's structured line) on SQLite and PostgreSQL: a database at 0007 holding a game in progress
and a chat line is upgraded; the table's bots talk (the default), the old line is still there,
said before anyone knows when (no ``after``: not in the record's talk)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from migration_support import action_rows, database_at, playing_game_row, playing_table_row
from server_support import Client, http
from test_migration_0004 import _game_in_progress

from secret_hitler.server.storage import db


def _store_at_0007(engine: sa.Engine) -> None:
    """A playing table, its game and one chat line, with the 0007 schema (reflected)."""
    meta = sa.MetaData()
    meta.reflect(engine)
    assert "after" not in meta.tables["chat"].c  # really the old schema
    rec = _game_in_progress(12).to_record()
    now = time.time()
    with engine.begin() as conn:
        conn.execute(meta.tables["tables"].insert().values(**playing_table_row("tp", rec, now)))
        conn.execute(meta.tables["games"].insert().values(**playing_game_row("tp", rec, now)))
        conn.execute(meta.tables["actions"].insert(), action_rows("tp", rec, now))
        chat = {"table_id": "tp", "id": 1, "seat": 0, "user_id": "u_0", "name": "Ann"}
        conn.execute(meta.tables["chat"].insert().values(**chat, text="RRB", ts=now))


@pytest.mark.timeout(120)
def test_upgrade_from_0007_keeps_chat_and_lets_the_bots_talk(
    backend: str, tmp_path: Path, make_server: Any, request: Any
) -> None:
    data = tmp_path / "data"
    url, served, _ = database_at(backend, data, request, "0007", _store_at_0007)
    server = make_server(backend, data=data, database_url=served)
    engine = db.make_engine(url)
    try:
        inspect = sa.inspect(engine)
        assert {"after", "line"} <= {c["name"] for c in inspect.get_columns("chat")}
        assert "bots_talk" in {c["name"] for c in inspect.get_columns("tables")}
    finally:
        engine.dispose()
    detail = http(server, "GET", "/api/tables/tp")
    assert detail["status"] == "playing" and detail["bots_talk"] is True

    async def watch() -> dict[str, Any] | None:
        c = Client(server, None, "spectator")
        welcome = await c.connect("tp")
        await c.close()
        return welcome

    welcome = asyncio.run(watch())
    assert welcome is not None
    [line] = welcome["chat"]
    assert (line["text"], line["after"]) == ("RRB", None) and "line" not in line
