"""The server's WebSocket protocol: uvicorn's sans-I/O one, offering the app a frame writer.

A table sends every update to several connections at once. Through ASGI each text would take a
queue, a task per connection and four layers (Starlette, uvicorn, websockets' frame builder) on
its way to the socket; half of the server's time at load went there. ``FramedWebSockets``
(``uvicorn.run(ws=...)``, ``cli.py``) gives each accepted socket a ``FrameSink`` in the ASGI
scope's ``extensions`` (``SINK``), which writes a text frame straight to the transport, in the
caller's order, without waiting:

- RFC 6455 text frames from the server are unmasked and unfragmented: a two- to ten-byte header
  and the payload, the header cached by length (an update's frames all have one length).
- Only where nothing transforms the payload: no extension was negotiated (the server turns
  compression off), else the app is offered no sink and sends through ASGI as before.
- Nobody waits for a slow reader: the transport keeps what the peer has not read yet; a peer
  more than ``SEND_BUFFER_MAX`` bytes behind is cut off (it reconnects and resumes from its last
  ``seq``, docs/protocol.md), so it holds at most that much memory and blocks nobody.
- A close is the one uvicorn makes for ``websocket.close`` (close frame, the app's receive loop
  told, the peer given ``close_timeout`` to answer), written after every frame before it.

It also reads on while the app keeps up: uvicorn pauses the socket's reading after every message
from the client and resumes it once the app has taken it, two changes of the poller's interest
per message; here reading pauses only once ``RECEIVE_BACKLOG`` messages wait, or one message
larger than ``RECEIVE_SMALL`` bytes, so a client that floods is still held back.

Anything else (handshakes, pings, frames from the client, a server without this protocol, the
tests' in-process clients) is uvicorn's and Starlette's own.
"""

from __future__ import annotations

from typing import Any

#: The ASGI scope extension under which an accepted socket's ``FrameSink`` is found.
SINK = "secret_hitler.frame_sink"

#: Bytes a peer may leave unread before it is cut off: hundreds of updates (a few KiB each),
#: far more than a client that reads at all ever lags.
SEND_BUFFER_MAX = 4 << 20

#: Client messages that may wait for the app before the socket's reading pauses, and the size
#: (bytes) above which one message pauses it at once: the protocol's largest accepted message.
RECEIVE_BACKLOG = 4
RECEIVE_SMALL = 65536

_HEADERS: dict[int, bytes] = {}


def text_header(length: int) -> bytes:
    """The header of an unmasked, final text frame of ``length`` payload bytes (RFC 6455 5.2)."""
    header = _HEADERS.get(length)
    if header is None:
        if length < 126:
            header = bytes((0x81, length))
        elif length < 1 << 16:
            header = b"\x81\x7e" + length.to_bytes(2, "big")
        else:
            header = b"\x81\x7f" + length.to_bytes(8, "big")
        if len(_HEADERS) < 4096:
            _HEADERS[length] = header
    return header


def frame_sink(ws: Any) -> FrameSink | None:
    """The sink of an accepted Starlette ``WebSocket`` (None: send through ASGI)."""
    extensions = ws.scope.get("extensions") or {}
    sink = extensions.get(SINK)
    return sink if isinstance(sink, FrameSink) else None


class FrameSink:
    """Writes text frames straight to one accepted WebSocket's transport."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol

    @property
    def open(self) -> bool:
        p = self._protocol
        return not (p.close_sent or p.disconnected or p.transport.is_closing())

    def write(self, payload: bytes) -> bool:
        """Send one text frame (``payload``: UTF-8 text). False when the peer is too far behind
        and was cut off; a socket already closing takes nothing (True)."""
        p = self._protocol
        if p.close_sent or p.disconnected:
            return True
        transport = p.transport
        if transport.is_closing():
            return True
        if transport.get_write_buffer_size() > SEND_BUFFER_MAX:
            transport.abort()  # uvicorn's connection_lost tells the app's receive loop
            return False
        transport.write(text_header(len(payload)) + payload)
        return True

    def close(self, code: int = 1000) -> None:
        """Close after every frame written so far, as uvicorn closes for ``websocket.close``."""
        p = self._protocol
        if p.close_sent or p.disconnected or p.transport.is_closing():
            return
        p.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": ""})
        p.conn.send_close(code, "")
        p.transport.write(b"".join(p.conn.data_to_send()))
        p.close_sent = True
        if p.read_paused:
            p.read_paused = False
            p.transport.resume_reading()
        p.close_timer = p.loop.call_later(p.close_timeout, p.transport.close)


def framed_websockets() -> type[Any]:
    """uvicorn's sans-I/O WebSocket protocol, each accepted socket offered a ``FrameSink``."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    class FramedWebSockets(WebSocketsSansIOProtocol):
        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None and not self.conn.extensions:  # (the app has not run yet)
                scope["extensions"][SINK] = FrameSink(self)

        def send_receive_event_to_app(self) -> None:
            small = sum(map(len, self.frames)) <= RECEIVE_SMALL
            if self.read_paused or not small or self.queue.qsize() >= RECEIVE_BACKLOG:
                super().send_receive_event_to_app()  # queued, and reading paused
                return
            self.read_paused = True  # queued by uvicorn, which then skips its pause
            try:
                super().send_receive_event_to_app()
            finally:
                self.read_paused = False

    return FramedWebSockets
