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

And it reads a client's small messages itself: an action, a chat line or a ping is one masked,
final text frame of under 126 bytes, which websockets' frame parser (a generator over a stream
reader, a frame object, an event list) costs more to read than the app costs to act on. While
the connection is open and that parser waits at the start of a frame (nothing buffered, no
fragmented message begun), the complete such frames at the start of the received bytes are
unmasked and handed on here, as uvicorn hands on a text frame; the first byte of anything else
(a longer frame, a control frame, a fragment, an incomplete frame) and all after it go to
websockets as before (``small_text_frames``).

Anything else (handshakes, pings, frames from the client, a server without this protocol, the
tests' in-process clients) is uvicorn's and Starlette's own.
"""

from __future__ import annotations

from typing import Any

try:  # websockets' C unmasking, as its own frame parser uses it
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover (a build without its C extension)
    from websockets.utils import apply_mask

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


def small_text_frames(data: bytes) -> tuple[list[bytes], int]:
    """The payloads (unmasked) of the complete small text frames at the start of ``data``, a
    client's bytes read from a frame's start, and where the rest begins: a final, masked text
    frame without reserved bits and of under 126 bytes (RFC 6455 5.2) is one; anything else
    ends the run, for websockets to read."""
    out: list[bytes] = []
    at, end = 0, len(data)
    while at + 6 <= end and data[at] == 0x81:
        second = data[at + 1]
        length = second & 0x7F
        if not second & 0x80 or length > 125 or at + 6 + length > end:
            break
        start = at + 6
        out.append(apply_mask(data[start : start + length], data[at + 2 : start]))
        at = start + length
    return out, at


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
    from websockets.protocol import State

    class FramedWebSockets(WebSocketsSansIOProtocol):
        def data_received(self, data: bytes) -> None:
            conn = self.conn
            if (
                conn.state is State.OPEN
                and self.handshake_complete
                and conn.current_size is None  # no fragmented message begun
                and not conn.reader.buffer  # its parser waits at a frame's start
                and conn.parser_exc is None
                and not conn.extensions
                and not conn.debug
            ):
                payloads, at = small_text_frames(data)
                for payload in payloads:
                    self.curr_msg_data_type = "text"
                    self.frames = [payload]
                    self.send_receive_event_to_app()  # (decoded as UTF-8 there, as uvicorn does)
                    if conn.state is not State.OPEN:  # it failed the connection: ignore the rest
                        return
                if at == len(data):
                    return
                data = data[at:]
            super().data_received(data)

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
