"""Moderation: reports, per-user blocklists, bans, and tables closed by an administrator
(docs/protocol.md "Moderation", docs/server.md "Administration").

Bans and closed tables are made by ``secret-hitler admin`` in another process, on the same
database, so the server reads them again every ``moderation_refresh`` seconds: a new ban then
ends the user's open connections and refuses her requests, a closed table is closed live.
Blocklists change only through this server, so they are kept in memory after the first load.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..core import protocol as P
from ..core.errors import LobbyError
from ..core.text import brief
from ..storage import db
from ..storage.writer import Store
from ..table import usecases
from .hub import Hub

if TYPE_CHECKING:
    from ..table.session import Table

log = logging.getLogger("secret_hitler.server.moderation")


REASON_MAX = 500  # characters of a report's reason
REPORTS_PER_DAY = 20  # reports one user may file in 24 hours
BLOCKS_MAX = 500  # entries of one user's blocklist
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_address(raw: str) -> str:
    """An IP address or network (CIDR) in its normal form; ``ValueError`` otherwise."""
    try:
        return str(ipaddress.ip_network(raw.strip(), strict=False))
    except ValueError:
        raise ValueError(f"not an IP address or network: {brief(raw)}") from None


class Moderation:
    def __init__(self, store: Store, refresh: float) -> None:
        self.store = store
        self.refresh = refresh
        self.users: frozenset[str] = frozenset()  # banned user ids
        self.networks: tuple[Network, ...] = ()  # banned addresses
        self.blocks: set[tuple[str, str]] = set()  # (user, the user she blocked)
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ checks
    def banned_user(self, user_id: str) -> bool:
        return user_id in self.users

    def banned_address(self, addr: str) -> bool:
        try:
            ip = ipaddress.ip_address(addr)
        except ValueError:
            return False
        return any(ip in net for net in self.networks if net.version == ip.version)

    def kept_apart(self, user_id: str, others: Iterable[str]) -> bool:
        """Whether ``user_id`` blocked, or was blocked by, one of ``others``."""
        return any((user_id, o) in self.blocks or (o, user_id) in self.blocks for o in others)

    def check_join(self, user_id: str, table: Table) -> None:
        """Refuse a seat at a table where someone on either side's blocklist sits or hosts."""
        others = {s.user_id for s in table.seats if s.kind == "human" and s.user_id}
        others.add(table.host)
        others.discard(user_id)
        if self.kept_apart(user_id, others):
            raise LobbyError(
                403,
                "blocked",
                "you cannot sit at this table: a blocklist keeps you and a player here apart",
            )

    # ------------------------------------------------------------------ state
    async def load(self) -> None:
        def run(conn: Connection) -> set[tuple[str, str]]:
            b = db.blocks.c
            return {(r.user_id, r.blocked) for r in conn.execute(sa.select(b.user_id, b.blocked))}

        self.blocks = await self.store.read(run)
        await self.reload_bans()

    async def reload_bans(self) -> bool:
        """Read the bans again; whether they changed."""

        def run(conn: Connection) -> list[tuple[str, str]]:
            b = db.bans.c
            return [(r.kind, r.value) for r in conn.execute(sa.select(b.kind, b.value))]

        users, nets = set(), []
        for kind, value in await self.store.read(run):
            if kind == "user":
                users.add(value)
            elif kind == "address":
                with contextlib.suppress(ValueError):
                    nets.append(ipaddress.ip_network(value, strict=False))
        changed = (frozenset(users), tuple(nets)) != (self.users, self.networks)
        self.users, self.networks = frozenset(users), tuple(nets)
        return changed

    def start(self, hub: Hub) -> None:
        self._task = asyncio.create_task(self._watch(hub), name="moderation")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _watch(self, hub: Hub) -> None:
        while True:
            await asyncio.sleep(self.refresh)
            try:
                await self.sync(hub)
            except Exception:  # the database may be away: try again next time
                log.warning("could not read bans and closed tables", exc_info=True)

    async def sync(self, hub: Hub) -> None:
        """Apply what an administrator changed: bans (their connections end), closed tables.
        The open connections are looked over only when the bans changed: a connection opened
        later was checked against them when it opened (``api/security.py``)."""
        if await self.reload_bans():
            self._end_banned(hub)
        live = [t.id for t in hub.tables.values() if t.status in ("waiting", "playing")]
        if not live:
            return

        def closed(conn: Connection) -> list[str]:
            c = db.closed_tables.c
            query = sa.select(c.table_id).where(c.table_id.in_(live))
            return list(conn.execute(query).scalars())

        for table_id in await self.store.read(closed):
            live_table = hub.get(table_id)
            if live_table is not None:
                await close_live(hub, live_table)

    def _end_banned(self, hub: Hub) -> None:
        """End the open connections of banned users and from banned addresses."""
        for table in list(hub.tables.values()):
            for conn in list(table.conns):
                if conn.user is None:
                    continue  # (a spectator without credentials)
                if self.banned_user(conn.user.id):
                    why = "this account is banned"
                elif conn.addr is not None and self.banned_address(conn.addr):
                    why = "this address is banned"
                else:
                    continue
                conn.send_msg(P.error("banned", why))
                conn.close(4403)

    async def block(self, user_id: str, other: str) -> None:
        if (user_id, other) in self.blocks:
            return
        if sum(1 for u, _ in self.blocks if u == user_id) >= BLOCKS_MAX:
            raise LobbyError(409, "too_many_blocks", f"a blocklist holds at most {BLOCKS_MAX}")

        def run(conn: Connection) -> None:
            conn.execute(
                db.blocks.insert().values(user_id=user_id, blocked=other, created_at=time.time())
            )

        await self.store.write(run)
        self.blocks.add((user_id, other))

    async def unblock(self, user_id: str, other: str) -> bool:
        def run(conn: Connection) -> int:
            b = db.blocks.c
            return conn.execute(
                db.blocks.delete().where(b.user_id == user_id, b.blocked == other)
            ).rowcount

        removed = await self.store.write(run)
        self.blocks.discard((user_id, other))
        return bool(removed)


async def close_live(hub: Hub, table: Table) -> None:
    """Close a live table an administrator closed (``usecases.close``): its game stops, everyone
    is told, it is forgotten here, and it is not restored at the next start (its status in the
    database is ``closed``)."""
    if await usecases.close(table):
        hub.forget(table)
        await table.close()


# ---------------------------------------------------------------------- admin writes
def close_table(table_id: str) -> Any:
    """(admin) Close a waiting or playing table: its closure is recorded (a running server closes
    it live) and the table and its game are marked closed. Returns whether it was open."""

    def run(conn: Connection) -> bool:
        t, g, c = db.tables.c, db.games.c, db.closed_tables.c
        done = conn.execute(
            db.tables.update()
            .where(t.id == table_id, t.status.in_(("waiting", "playing")))
            .values(status="closed")
        ).rowcount
        if not done:
            return False
        conn.execute(
            db.games.update().where(g.id == table_id, g.status == "playing").values(status="closed")
        )
        if conn.execute(sa.select(c.table_id).where(c.table_id == table_id)).first() is None:
            conn.execute(
                db.closed_tables.insert().values(table_id=table_id, created_at=time.time())
            )
        return True

    return run
