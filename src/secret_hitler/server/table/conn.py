"""One client connection of a table: a WebSocket on this node, or one that another node holds
and relays to the node serving the table (a subclass that sends through the relay)."""

from __future__ import annotations

import asyncio
from typing import Any

from ..accounts.auth import User
from ..core import protocol as P
from ..core.sockets import FrameSink

SEND_QUEUE_MAX = 2000


class Conn:
    """One WebSocket connection. A frame goes straight to the socket when the server offers a
    ``FrameSink`` (``core/sockets.py``: written at once, in order, a peer that stops reading cut
    off), else through a queue that a sender task empties (``client.sender``); either way a slow
    client blocks nobody.

    ``acks_in_updates``: the client asked (``hello``) to find the acknowledgement of its action
    in the update that action caused (``ack``: the message id) instead of in a message of its
    own (docs/protocol.md 2.2)."""

    #: Whether an update may carry this connection's ack: not for a connection another node
    #: holds (its seat's frames reach it on a channel every connection of the seat reads).
    FOLDS_ACKS = True

    __slots__ = (
        "ws",
        "user",
        "seat",
        "ready",
        "out",
        "closed",
        "invite_ok",
        "addr",
        "close_code",
        "sink",
        "acks_in_updates",
    )

    def __init__(
        self,
        ws: Any,
        user: User | None,
        invite_ok: bool = False,
        addr: str | None = None,
        sink: FrameSink | None = None,
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
        self.sink = sink
        self.acks_in_updates = False

    def send(self, frame: bytes) -> None:
        """One frame (a server message's UTF-8 JSON, ``protocol.encode``)."""
        if self.closed:
            return
        sink = self.sink
        if sink is not None:
            if not sink.write(frame):  # the peer stopped reading: it was cut off
                self.closed = True
            return
        if self.out.qsize() > SEND_QUEUE_MAX:  # a client that does not read: drop it
            self.close()
            return
        self.out.put_nowait(frame.decode())

    def send_msg(self, msg: dict[str, Any]) -> None:
        self.send(P.encode(msg))

    def send_own(self, frame: bytes, starts: bool = False) -> None:
        """A frame for this connection alone (a welcome, a resume's updates), not one shared
        by every connection of its seat; ``starts``: it begins the connection's stream."""
        self.send(frame)

    def close(self, code: int = 1000) -> None:
        """Close after the messages sent so far, with WebSocket close ``code``."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            if self.sink is not None:
                self.sink.close(code)
            else:
                self.out.put_nowait(None)
