"""One client connection of a table: a WebSocket on this node, or one that another node holds
and relays to the node serving the table (a subclass that sends through the relay)."""

from __future__ import annotations

import asyncio
from typing import Any

from ..accounts.auth import User
from ..core import protocol as P

SEND_QUEUE_MAX = 2000


class Conn:
    """One WebSocket connection; messages go through a queue so a slow client blocks nobody."""

    __slots__ = ("ws", "user", "seat", "ready", "out", "closed", "invite_ok", "addr", "close_code")

    def __init__(
        self, ws: Any, user: User | None, invite_ok: bool = False, addr: str | None = None
    ) -> None:
        self.ws = ws
        self.user = user
        self.seat: int | None = None
        self.ready = False
        self.out: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.invite_ok = invite_ok
        self.addr = addr  # the client address, for per-address limits (guard.Guard)
        self.close_code = 1000

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.out.qsize() > SEND_QUEUE_MAX:  # a client that does not read: drop it
            self.close()
            return
        self.out.put_nowait(text)

    def send_msg(self, msg: dict[str, Any]) -> None:
        self.send(P.dumps(msg))

    def send_own(self, text: str, starts: bool = False) -> None:
        """A frame for this connection alone (a welcome, a resume's updates), not one shared
        by every connection of its seat; ``starts``: it begins the connection's stream."""
        self.send(text)

    def close(self, code: int = 1000) -> None:
        """Close after the queued messages have been sent, with WebSocket close ``code``."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.out.put_nowait(None)
