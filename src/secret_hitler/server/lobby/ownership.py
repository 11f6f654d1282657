"""Which node serves a table: the one question the hub and the routes ask about other nodes, as
a port with two answers.

A single server serves every table it holds (``Local``: nothing to claim, nothing to relay, its
tables write straight to the store). One node of a cluster serves a table while it holds the
table's lease (``cluster.node.Cluster``, given to the hub at wiring: ``app.py``): it claims new
and stored tables, fences its tables' writes by their leases, relays a socket to the node that
serves the table, and tells the others of revoked sessions. Nothing below the wiring knows which
answer it gets, so the hub and the tables are the same code on one server and on many.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..storage import queries as S
from ..storage.writer import Store, Write
from ..table.services import StoreWriter, Writer
from ..table.session import Table

if TYPE_CHECKING:
    from ..accounts.auth import User


class Ownership(Protocol):
    """Which tables this node serves, and how it reaches the others."""

    @property
    def node(self) -> str | None:
        """This node's id among several; None on a single server."""

    @property
    def writer(self) -> Writer:
        """What the tables of this node write through (fenced by ownership where it is shared)."""

    async def claim_new(self, table_id: str) -> None:
        """A table made here is this node's (``LobbyError`` 503 when it cannot take one now)."""

    async def claim_stored(self, stored: list[S.StoredTable]) -> list[S.StoredTable]:
        """At startup: the stored live tables this node serves."""

    async def locate(self, table_id: str) -> Table | str | None:
        """A table this node does not hold: taken over now (its server is gone), the id of the
        node that serves it, or None (no such live table)."""

    async def serve_socket(
        self, ws: Any, table_id: str, owner: str, user: User | None, addr: str
    ) -> None:
        """Serve an accepted WebSocket of a table that node ``owner`` serves, until it ends."""

    def announce_revoked(self, user_id: str) -> None:
        """Sessions of ``user_id`` were revoked: every other node ends their sockets too."""

    def health(self) -> dict[str, Any]:
        """What ``/healthz`` and ``/readyz`` add about this node (nothing on a single server)."""

    def unready(self) -> str | None:
        """Why this node should get no new traffic now (draining, Redis away), or None."""

    async def drain(self) -> None:
        """Hand every table over to the other nodes (before a restart)."""

    async def system_fence(self, name: str) -> Callable[[Write], Write] | None:
        """Hold the lease ``name`` of a task one node at a time runs for the whole server (the
        queue's former, ``system.py``): a function that fences a write by it (the write is
        refused, nothing kept, once the lease is another node's), or None while another node
        holds it. Each call extends the lease."""


class Local:
    """A single server: every table it holds is its own, and there is nobody to tell."""

    node: str | None = None

    def __init__(self, store: Store) -> None:
        self.writer: Writer = StoreWriter(store)

    async def claim_new(self, table_id: str) -> None:
        return None

    async def claim_stored(self, stored: list[S.StoredTable]) -> list[S.StoredTable]:
        return stored

    async def locate(self, table_id: str) -> Table | str | None:
        return None  # a table this server does not hold does not exist

    async def serve_socket(
        self, ws: Any, table_id: str, owner: str, user: User | None, addr: str
    ) -> None:
        raise AssertionError("a single server never locates a table elsewhere")

    def announce_revoked(self, user_id: str) -> None:
        return None

    def health(self) -> dict[str, Any]:
        return {}

    def unready(self) -> str | None:
        return None

    async def drain(self) -> None:
        return None

    async def system_fence(self, name: str) -> Callable[[Write], Write] | None:
        return _unfenced  # nobody else forms


def _unfenced(fn: Write) -> Write:
    return fn
