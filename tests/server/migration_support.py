"""Rows as the migration tests write them into an old schema: a game in progress, built from a
record, with the columns every revision since 0001 has."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from secret_hitler.server.core.config import database_url_for


def database_for(
    backend: str, data: Path, request: pytest.FixtureRequest
) -> tuple[str, str | None]:
    """The SQLAlchemy URL of a fresh database of ``backend`` (SQLite in ``data``, or a new
    PostgreSQL database) and the ``database_url`` to give the server (None: its SQLite)."""
    if backend == "sqlite":
        return database_url_for(None, data), None
    pg = request.getfixturevalue("postgres")
    served = pg if isinstance(pg, str) else pg.new_database()
    return database_url_for(served, data), served


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
