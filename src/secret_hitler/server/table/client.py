"""A client's side of a table: the WebSocket receive loop and what each message does
(docs/protocol.md 2.).

One loop reads every client socket, on this node's tables and on those another node serves
(the frames then go to that node); one dispatcher answers every frame, from this node's sockets
and from those relayed to this node's tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocketDisconnect

from ..core import protocol as P
from ..core.config import Settings
from ..core.metrics import Metrics
from .conn import Conn
from .fanout import Ack
from .session import Table

log = logging.getLogger("secret_hitler.server.ws")


async def sender(conn: Conn) -> None:
    """Send a connection's queued texts until it is closed, then close its socket (a
    connection without a ``FrameSink``: ``conn.py``)."""
    ws = conn.ws
    try:
        while True:
            text = await conn.out.get()
            if text is None:
                break
            await ws.send_text(text)
    except Exception:  # the peer went away, or a text could not be sent
        # Close the socket too: the receive loop then ends and the seat no longer counts as
        # connected (a dead sender behind an open socket would look present forever).
        conn.closed = True
        with contextlib.suppress(Exception):
            await ws.close(1011)
        return
    with contextlib.suppress(Exception):
        await ws.close(conn.close_code)


async def receive(
    conn: Conn,
    settings: Settings,
    metrics: Metrics,
    ready: Callable[[], bool],
    handle: Callable[[str], Awaitable[None]],
) -> None:
    """Hand the text of each frame the client sends to ``handle`` until its socket closes (on
    this node: ``handle_text``; for a table another node serves: the relay to it). A frame
    over the size limit or not UTF-8 is answered with an error and skipped; a connection not
    ``ready()`` (no hello answered) within ``hello_timeout`` is told so and closed, so a silent
    client holds a slot that long at most."""
    ws = conn.ws
    max_bytes = settings.max_message
    too_large = f"a message may have at most {max_bytes} bytes"
    loop = asyncio.get_running_loop()
    hello_by = loop.time() + settings.hello_timeout
    while not conn.closed:
        try:
            if ready():
                message = await ws.receive()
            else:
                message = await asyncio.wait_for(ws.receive(), max(0.0, hello_by - loop.time()))
        except TimeoutError:
            if ready():  # a relayed connection: the owner's welcome came in the meantime
                continue
            timeout = settings.hello_timeout
            error(metrics, conn, P.ProtocolError("hello_timeout", f"no hello within {timeout:g} s"))
            conn.close(4408)
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            data = message.get("bytes") or b""
            if len(data) > max_bytes:
                error(metrics, conn, P.ProtocolError("message_too_large", too_large))
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                error(metrics, conn, P.ProtocolError("bad_json", "the message is not UTF-8 JSON"))
                continue
        elif len(text) > max_bytes // 4 and len(text.encode("utf-8")) > max_bytes:
            error(metrics, conn, P.ProtocolError("message_too_large", too_large))
            continue
        await handle(text)


async def handle_text(table: Table, conn: Conn, text: str) -> None:
    """One client frame, from this node's socket or relayed from another node."""
    metrics = table.services.metrics
    try:
        msg = P.parse_client(text, table.services.settings.max_message)
        await _dispatch(table, conn, msg)
    except P.ProtocolError as exc:
        error(metrics, conn, exc)
    except Exception:
        table.log.exception("error handling a message")
        error(metrics, conn, P.ProtocolError("internal_error", "the server failed on this message"))


def error(metrics: Metrics, conn: Conn, exc: P.ProtocolError) -> None:
    metrics.errors_total.inc(exc.code)
    conn.send_msg(P.from_exc(exc))


async def _dispatch(table: Table, conn: Conn, msg: P.ClientMessage) -> None:
    if isinstance(msg, P.Hello):
        conn.acks_in_updates = msg.acks == "update" and conn.FOLDS_ACKS
        async with table.lock:  # never describe a state whose last action is not yet committed
            table.hello(conn, msg)
        return
    if not conn.ready:
        raise P.ProtocolError("hello_required", "send hello first", id=getattr(msg, "id", None))
    if isinstance(msg, P.Ping):
        conn.send_msg(P.pong())
    elif isinstance(msg, P.ActionMsg):
        ack = None if msg.id is None else Ack(conn, msg.id)
        try:
            seq = await table.play(conn.seat, msg.action, ack)
        except P.ProtocolError as exc:
            exc.id = msg.id
            raise
        if ack is None or not ack.folded:
            conn.send_msg(P.ack(msg.id, seq))
    elif isinstance(msg, P.ChatMsg):
        try:
            _, claim = await table.chat_line(conn, msg.text, msg.lang)
        except P.ProtocolError as exc:
            exc.id = msg.id
            raise
        if msg.id is not None:
            conn.send_msg(P.ack(msg.id, claim=claim))
