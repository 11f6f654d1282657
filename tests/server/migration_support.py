"""Rows as the migration tests write them into an old schema: a game in progress, built from a
record, with the columns every revision since 0001 has."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from secret_hitler.server.core.config import database_url_for
from secret_hitler.server.storage import db

T = TypeVar("T")


def database_at(
    backend: str,
    data: Path,
    request: pytest.FixtureRequest,
    revision: str,
    fill: Callable[[sa.Engine], T],
) -> tuple[str, str | None, T]:
    """A fresh database of ``backend`` (SQLite in ``data``, or a new PostgreSQL database)
    migrated to ``revision`` and filled by ``fill(engine)``: its SQLAlchemy URL, the
    ``database_url`` to give the server (None: its SQLite) and what ``fill`` returned."""
    if backend == "sqlite":
        url, served = database_url_for(None, data), None
    else:
        pg = request.getfixturevalue("postgres")
        served = pg if isinstance(pg, str) else pg.new_database()
        url = database_url_for(served, data)
    engine = db.make_engine(url)
    try:
        cfg = Config()
        cfg.set_main_option("script_location", str(db.MIGRATIONS))
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
        return url, served, fill(engine)
    finally:
        engine.dispose()


def playing_game_row(
    game_id: str,
    record: dict[str, Any],
    now: float,
    names: list[str] | None = None,
    seed: Any = None,
) -> dict[str, Any]:
    """The ``games`` row of ``record`` still being played at table ``game_id``."""
    return {
        "id": game_id,
        "table_id": game_id,
        "players": len(record["players"]),
        "names": record["players"] if names is None else names,
        "rules": record["rules"],
        "seed": record.get("seed") if seed is None else seed,
        "roles": record["roles"],
        "first_president": record["first_president"],
        "deck": record["deck"],
        "reshuffles": record["reshuffles"],
        "status": "playing",
        "winner": None,
        "reason": None,
        "action_count": len(record["actions"]),
        "created_at": now,
        "finished_at": None,
    }


def playing_table_row(table_id: str, record: dict[str, Any], now: float) -> dict[str, Any]:
    """The ``tables`` row (as revision 0004 and later have it) of a playing table whose people
    are ``u_0``... in seat order, hosted by the first of them."""
    return {
        "id": table_id,
        "host": "u_0",
        "host_name": record["players"][0],
        "players": len(record["players"]),
        "rules": record["rules"],
        "public": True,
        "invite": f"inv-{table_id}",
        "timer": None,
        "bot_level": "random",
        "auto_start": True,
        "status": "playing",
        "seats": [
            {"kind": "human", "user_id": f"u_{i}", "name": n, "level": None}
            for i, n in enumerate(record["players"])
        ],
        "created_at": now,
        "published": False,
        "rated": False,
    }


def action_rows(game_id: str, record: dict[str, Any], now: float) -> list[dict[str, Any]]:
    """The ``actions`` rows of ``record``'s actions."""
    return [
        {"game_id": game_id, "idx": i, "seat": a["seat"], "action": a, "by": None, "ts": now}
        for i, a in enumerate(record["actions"])
    ]
