"""Migration 0004 (ratings, moderation) on SQLite and PostgreSQL: a database at 0002 holding a
game in progress is upgraded, and the server restores that game from it."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from migration_support import playing_game_row
from server_support import Client, http

from secret_hitler.engine import Game, game_from_record
from secret_hitler.engine.actions import CLAIM
from secret_hitler.server.core.config import database_url_for
from secret_hitler.server.storage import db
from secret_hitler.server.storage import queries as S

NEW_TABLES = (
    "rated_games",
    "ratings",
    "rating_history",
    "reports",
    "blocks",
    "bans",
    "closed_tables",
)


def _alembic(engine: sa.engine.Engine, target: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, target)


def _game_in_progress(actions: int) -> Game:
    rng = random.Random(5)
    game = Game(["Ann", "Ben", "Cat", "Dan", "Eve"], "official", 1234)
    while len(game.actions) < actions and not game.finished:
        seat = game.to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.type != CLAIM]
        game.apply(rng.choice(legal))
    assert not game.finished
    return game


def _store_at_0002(conn: sa.Connection, game: Game) -> None:
    """The rows the server of migration 0002 wrote for a started game (no ``rated`` column)."""
    rec = game.to_record()
    now = time.time()
    seats = [
        {"kind": "human", "user_id": f"u_{i}", "name": name, "level": None}
        for i, name in enumerate(rec["players"])
    ]
    tables_0002 = sa.Table(
        "tables", sa.MetaData(), *(c._copy() for c in db.tables.c if c.name != "rated")
    )
    conn.execute(
        tables_0002.insert().values(
            id="tmigrated",
            host="u_0",
            host_name="Ann",
            players=5,
            rules=rec["rules"],
            public=True,
            invite="inv",
            timer=None,
            bot_level="random",
            auto_start=True,
            status="playing",
            seats=seats,
            created_at=now,
            published=False,
        )
    )
    conn.execute(db.games.insert().values(**playing_game_row("tmigrated", rec, now)))
    for i, action in enumerate(rec["actions"]):
        conn.execute(
            db.actions.insert().values(
                game_id="tmigrated", idx=i, seat=action["seat"], action=action, by=None, ts=now
            )
        )


def _url(backend: str, tmp_path: Path, postgres: Any) -> str:
    if backend == "sqlite":
        return database_url_for(None, tmp_path / "data")
    return database_url_for(
        postgres if isinstance(postgres, str) else postgres.new_database(), tmp_path
    )


def test_upgrade_from_0002_keeps_a_game_that_still_restores(
    backend: str, tmp_path: Path, make_server: Any, request: Any
) -> None:
    postgres = request.getfixturevalue("postgres") if backend == "postgresql" else None
    url = _url(backend, tmp_path, postgres)
    engine = db.make_engine(url)
    game = _game_in_progress(12)
    try:
        _alembic(engine, "0002")
        assert not set(NEW_TABLES) & set(sa.inspect(engine).get_table_names())
        with engine.begin() as conn:
            _store_at_0002(conn, game)
        db.migrate(engine)  # what the server does at startup: up to the newest revision
        inspector = sa.inspect(engine)
        assert set(NEW_TABLES) <= set(inspector.get_table_names())
        assert "rated" in {c["name"] for c in inspector.get_columns("tables")}
        with engine.connect() as conn:
            [stored] = S.load_active(conn)
        assert stored.table["rated"] is False  # old tables are casual
        restored = game_from_record(S.record_of(stored))
        assert restored.to_record()["actions"] == game.to_record()["actions"]
    finally:
        engine.dispose()
    # and the server itself resumes it
    if backend == "sqlite":
        server = make_server(data=tmp_path / "data")
    else:
        server = make_server(database_url=url.replace("postgresql+psycopg://", "postgresql://"))
    detail = http(server, "GET", "/api/tables/tmigrated")
    assert detail["status"] == "playing" and detail["rated"] is False

    async def watch() -> dict[str, Any] | None:
        c = Client(server, None, "spectator")
        welcome = await c.connect("tmigrated")
        await c.close()
        return welcome

    welcome = asyncio.run(watch())
    assert welcome is not None and welcome["seq"] == len(game.actions) + 1
