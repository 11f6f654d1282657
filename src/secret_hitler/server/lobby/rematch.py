"""A rematch (docs/protocol.md "Hosting"): after the game, a new table with the same people (in
the same seats), bots and settings, hosted by whoever asks first; asking again gives the same
table. A finished table the hub still holds answers through its use-case
(``table.usecases.rematch``, under its lock); one known only to the database answers here.
"""

from __future__ import annotations

import asyncio

from sqlalchemy import Connection

from ..accounts.auth import User
from ..core.errors import LobbyError
from ..core.text import brief
from ..storage import db
from ..storage import queries as S
from ..storage.writer import Write
from ..table import usecases
from ..table.session import Table
from .hub import Hub

_STORED_REMATCH = asyncio.Lock()  # one stored table's rematch at a time (they are rare)


async def rematch(hub: Hub, table: Table, user: User, addr: str | None) -> Table:
    """The rematch of a finished table the hub holds."""
    return await usecases.rematch(
        table, user, hub.get, lambda: hub.open_rematch(table.row(), user, addr)
    )


async def rematch_stored(hub: Hub, table_id: str, user: User, addr: str | None) -> Table:
    """The rematch of a finished table known only to the database (after a restart, or once the
    hub forgot it): the same checks, and the new table's id is stored on the old row only if no
    rematch was stored first."""
    async with _STORED_REMATCH:
        row = await hub.store.read(S.table_row(table_id))
        seated = row is not None and any(
            s.get("kind") == "human" and s.get("user_id") == user.id for s in row["seats"]
        )
        if row is None or not (row["public"] or seated or user.id == row["host"]):
            raise LobbyError(404, "not_found", f"no table {brief(table_id)}")
        if not seated:
            raise LobbyError(403, "not_seated", "only the players of this game may ask")
        if row["status"] != "finished":
            raise LobbyError(409, "game_not_finished", "the game is still being played")
        if row.get("rematch") is not None:
            existing = hub.get(row["rematch"])
            if existing is not None:
                return existing
        new = await hub.open_rematch(row, user, addr)
        await hub.store.write(_set_rematch(table_id, new.id))
    return new


def _set_rematch(table_id: str, new_id: str) -> Write:
    def run(conn: Connection) -> None:
        t = db.tables
        conn.execute(t.update().where(t.c.id == table_id).values(rematch=new_id))

    return run
