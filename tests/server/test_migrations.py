"""Migration 0003 (accounts, table name/webhook/rematch) upgrades a database made at revision
0002 without losing its games: a game stored there resumes after the upgrade, and its player
can claim an account and keep the seat (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from migration_support import playing_game_row
from server_support import Client, Server, http

from secret_hitler.engine import Game
from secret_hitler.server.accounts.auth import Tokens, User
from secret_hitler.server.core.config import database_url_for
from secret_hitler.server.storage import db

SEED = 11


def _at_0002(url: str) -> sa.Engine:
    engine = db.make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    return engine


def _stored_game(engine: sa.Engine) -> tuple[str, Game]:
    """A game in progress, written with the 0002 schema (reflected, not today's models)."""
    names = ["Old Timer", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]
    game = Game(names, "official", SEED)
    rng = random.Random(SEED)
    while len(game.actions) < 12:
        seat = game.to_act()[0]
        game.apply(rng.choice([a for a in game.legal_actions(seat) if a.type != "claim"]))
    assert not game.finished
    rec = game.to_record()
    meta = sa.MetaData()
    meta.reflect(engine)
    assert "username" not in meta.tables["users"].c  # really the old schema
    now = time.time()
    seats = [{"kind": "human", "user_id": "u_old", "name": names[0], "level": None}] + [
        {"kind": "bot", "user_id": None, "name": n, "level": "random"} for n in names[1:]
    ]
    with engine.begin() as conn:
        conn.execute(
            meta.tables["users"].insert().values(id="u_old", name=names[0], created_at=now)
        )
        conn.execute(
            meta.tables["sessions"].insert().values(id="s_old", user_id="u_old", created_at=now)
        )
        conn.execute(
            meta.tables["tables"]
            .insert()
            .values(
                id="told",
                host="u_old",
                host_name=names[0],
                players=5,
                rules="official",
                public=True,
                invite="inv-old",
                timer=None,
                bot_level="random",
                auto_start=True,
                status="playing",
                seats=seats,
                created_at=now,
                published=False,
            )
        )
        conn.execute(
            meta.tables["games"]
            .insert()
            .values(**playing_game_row("told", rec, now, names=names, seed=SEED))
        )
        conn.execute(
            meta.tables["actions"].insert(),
            [
                {"game_id": "told", "idx": i, "seat": a["seat"], "action": a, "by": None, "ts": now}
                for i, a in enumerate(rec["actions"])
            ],
        )
    engine.dispose()
    return "told", game


@pytest.mark.timeout(120)
def test_upgrade_from_0002_keeps_a_game_in_progress(
    make_server: Any, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    data = tmp_path / "data"
    if backend == "sqlite":
        url: str | None = None
        engine = _at_0002(database_url_for(None, data))
    else:
        pg = request.getfixturevalue("postgres")
        url = pg if isinstance(pg, str) else pg.new_database()
        engine = _at_0002(database_url_for(url, data))
    table_id, game = _stored_game(engine)
    server: Server = make_server(backend, data=data, database_url=url or "")
    token = Tokens("test-secret", 3600).issue(User("u_old", "Old Timer", "s_old"))
    detail = http(server, "GET", f"/api/tables/{table_id}")
    assert detail["status"] == "playing" and detail["name"] is None and detail["webhook"] is False

    async def resume() -> None:
        c = Client(server, token, "old timer")
        welcome = await c.connect(table_id)
        assert welcome is not None and welcome["seat"] == 0
        assert welcome["seq"] >= len(game.actions) + 1  # the bots went on at once
        assert welcome["view"]["role"] == game.view(0).role
        await c.play(random.Random(1), claim_p=0.0, timeout=60)  # the game goes on to its end
        assert c.record is not None and c.record["actions"][:12] == game.to_record()["actions"]
        await c.close()

    asyncio.run(resume())
    # the old guest claims an account on the upgraded schema and keeps the game
    body = {"username": "oldtimer", "password": "pass word"}
    account = http(server, "POST", "/api/account", body, token)["token"]
    games = http(server, "GET", "/api/me/games", token=account)["games"]
    assert [(g["id"], g["status"]) for g in games] == [(table_id, "finished")]
