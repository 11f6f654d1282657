"""Migration 0009 (competitive play: seasons, admissions, leaves, conduct flags) on SQLite and
PostgreSQL: a database at 0008 holding a rated game already rated and a rated table in play is
upgraded; the old game keeps its rating and shows in no season, its history says nobody left,
and the table in play, whose seats were taken before admissions existed, finishes and is rated
with the others'."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from migration_support import action_rows, database_at, playing_game_row, playing_table_row
from rated_support import RATED_ENV
from server_support import Client, http, wait_for
from test_migration_0004 import _game_in_progress

from secret_hitler.server.accounts.auth import Tokens, User
from secret_hitler.server.storage import db

USERS = [f"u_{i}" for i in range(5)]


def _store_at_0008(engine: sa.Engine) -> None:
    """A rated game rated under 0008, and a rated table in play, with the 0008 schema."""
    meta = sa.MetaData()
    meta.reflect(engine)
    assert "seasons" not in meta.tables and "left_early" not in meta.tables["rating_history"].c
    now = time.time()
    t = meta.tables
    with engine.begin() as conn:
        conn.execute(
            t["users"].insert(),
            [{"id": u, "name": f"P{i}", "created_at": now} for i, u in enumerate(USERS)],
        )
        conn.execute(
            t["ratings"].insert(),
            [
                {"user_id": u, "mu": 26.0, "sigma": 8.0, "games": 1, "updated_at": now}
                for u in USERS
            ],
        )
        conn.execute(
            t["rated_games"]
            .insert()
            .values(game_id="old", user_ids=USERS, created_at=now, rated_at=now)
        )
        conn.execute(
            t["rating_history"].insert(),
            [
                {
                    "game_id": "old",
                    "user_id": u,
                    "players": 5,
                    "role": "liberal",
                    "won": True,
                    "mu_before": 25.0,
                    "sigma_before": 8.333,
                    "mu": 26.0,
                    "sigma": 8.0,
                    "ts": now,
                }
                for u in USERS
            ],
        )
        rec = _game_in_progress(5).to_record()
        table = {**playing_table_row("tp", rec, now), "rated": True}
        conn.execute(t["tables"].insert().values(**table))
        conn.execute(t["games"].insert().values(**playing_game_row("tp", rec, now)))
        conn.execute(t["actions"].insert(), action_rows("tp", rec, now))
        conn.execute(
            t["rated_games"]
            .insert()
            .values(game_id="tp", user_ids=USERS, created_at=now, rated_at=None)
        )


@pytest.mark.timeout(180)
def test_upgrade_from_0008_keeps_ratings_and_rates_the_game_in_play(
    backend: str, tmp_path: Path, make_server: Any, request: Any
) -> None:
    data = tmp_path / "data"
    url, served, _ = database_at(backend, data, request, "0008", _store_at_0008)
    server = make_server(backend, data=data, database_url=served, **RATED_ENV)
    engine = db.make_engine(url)
    try:
        names = set(sa.inspect(engine).get_table_names())
        assert {"seasons", "season_ratings", "rated_admissions", "rated_leaves"} <= names
    finally:
        engine.dispose()
    before = http(server, "GET", f"/api/players/{USERS[0]}")
    assert before["rating"]["games"] == 1 and before["seasons"] == []
    assert before["history"][0]["left"] is False
    assert http(server, "GET", "/api/seasons") == {"seasons": [], "current": None}

    # the table's people come back to finish it (their sessions, as the server issues them)
    tokens = [
        Tokens("test-secret", 3600).issue(User(u, f"P{i}", f"s{i}")) for i, u in enumerate(USERS)
    ]
    engine = db.make_engine(url)
    try:
        with engine.begin() as conn:
            now = time.time()
            rows = [{"id": f"s{i}", "user_id": u, "created_at": now} for i, u in enumerate(USERS)]
            conn.execute(db.sessions.insert(), rows)
    finally:
        engine.dispose()

    async def play() -> None:
        rng = random.Random(3)
        clients = [Client(server, tok, f"seat{i}") for i, tok in enumerate(tokens)]
        for c in clients:
            await c.connect("tp")
        await asyncio.gather(*(c.play(random.Random(rng.random())) for c in clients))
        for c in clients:
            await c.close()

    asyncio.run(play())
    after = wait_for(
        lambda: (p := http(server, "GET", f"/api/players/{USERS[0]}"))["rating"]["games"] == 2 and p
    )
    assert [h["game_id"] for h in after["history"]] == ["old", "tp"]
    assert after["seasons"] == []  # no season was in force: all-time only
