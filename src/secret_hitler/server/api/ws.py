"""The WebSocket endpoint ``/ws/tables/{id}`` (docs/protocol.md 2.)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from ...engine import Action, InvalidAction
from ..core import protocol as P
from ..core.guard import client_address
from ..core.text import brief
from ..lobby.hub import Hub
from ..table.session import Conn, Table

router = APIRouter()
log = logging.getLogger("secret_hitler.server.ws")


async def _refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    await ws.accept()
    await ws.send_text(P.dumps(P.error(code, message)))
    await ws.close(close_code)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    app = ws.app
    hub: Hub = app.state.hub
    user = getattr(ws.state, "user", None)  # security.Guard checked the origin and credential
    table = hub.get(table_id)
    if table is None and hub.cluster is not None:  # another node's table, or an orphan
        found = await hub.cluster.locate(table_id)
        if isinstance(found, str):
            await _serve_relayed(ws, hub, table_id, found, user)
            return
        table = found
    if table is None:
        await _refuse(ws, "not_found", f"no live table {brief(table_id)}", 4404)
        return
    invite_ok = ws.query_params.get("invite") == table.invite
    if not table.public and not invite_ok and not table.is_member(user.id if user else None):
        await _refuse(
            ws, "invite_required", "this table is private: the invite code is needed", 4403
        )
        return
    addr = await _admit(ws, hub)
    if addr is None:
        return
    try:
        await ws.accept()
        conn = Conn(ws, user, invite_ok, addr)
        table.attach(conn)
        hub.metrics.ws_connections.inc()
        sender = asyncio.create_task(_sender(conn))
        try:
            await _receive_loop(hub, table, conn)
        finally:
            table.detach(conn)
            hub.metrics.ws_connections.dec()
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 5)
    finally:
        hub.guard.disconnect(addr)


async def _admit(ws: WebSocket, hub: Hub) -> str | None:
    """Count the socket against its address's limit of open connections: the address, which the
    caller must release (``hub.guard.disconnect``) when the socket ends; ``None`` when the limit
    is reached (the socket is then refused)."""
    addr = client_address(ws.client)
    if hub.guard.connect(addr):
        return addr
    limit = hub.settings.connections_per_address
    await _refuse(ws, "too_many_connections", f"at most {limit} open connections per address", 4429)
    return None


async def _serve_relayed(ws: WebSocket, hub: Hub, table_id: str, owner: str, user: Any) -> None:
    """The table is owned by node ``owner``: the socket is served through it (relay.py)."""
    from ..cluster.relay import serve_remote

    assert hub.cluster is not None
    addr = await _admit(ws, hub)
    if addr is None:
        return
    try:
        await ws.accept()
        await serve_remote(hub.cluster, ws, table_id, owner, user, addr)
    finally:
        hub.guard.disconnect(addr)


async def _sender(conn: Conn) -> None:
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


async def _receive_loop(hub: Hub, table: Table, conn: Conn) -> None:
    async for text in client_texts(hub, conn, lambda: conn.ready):
        await handle_text(hub, table, conn, text)


async def client_texts(hub: Hub, conn: Conn, ready: Callable[[], bool]) -> AsyncIterator[str]:
    """The text of each frame a client sends until its socket closes: on this node's sockets and
    on those relayed to a table's owner (relay.py). A frame over the size limit or not UTF-8 is
    answered with an error and skipped; a connection not ``ready()`` (no hello answered) within
    ``hello_timeout`` is told so and closed, so a silent client holds a slot that long at most."""
    ws = conn.ws
    max_bytes = hub.settings.max_message
    too_large = f"a message may have at most {max_bytes} bytes"
    loop = asyncio.get_running_loop()
    hello_by = loop.time() + hub.settings.hello_timeout
    while not conn.closed:
        try:
            if ready():
                message = await ws.receive()
            else:
                message = await asyncio.wait_for(ws.receive(), max(0.0, hello_by - loop.time()))
        except TimeoutError:
            if ready():  # a relayed connection: the owner's welcome came in the meantime
                continue
            timeout = hub.settings.hello_timeout
            _error(hub, conn, P.ProtocolError("hello_timeout", f"no hello within {timeout:g} s"))
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
                _error(hub, conn, P.ProtocolError("message_too_large", too_large))
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                _error(hub, conn, P.ProtocolError("bad_json", "the message is not UTF-8 JSON"))
                continue
        elif len(text) > max_bytes // 4 and len(text.encode("utf-8")) > max_bytes:
            _error(hub, conn, P.ProtocolError("message_too_large", too_large))
            continue
        yield text


async def handle_text(hub: Hub, table: Table, conn: Conn, text: str) -> None:
    """One client frame, from this node's socket or relayed from another node (relay.py)."""
    try:
        msg = P.parse_client(text, hub.settings.max_message)
        await _dispatch(hub, table, conn, msg)
    except P.ProtocolError as exc:
        _error(hub, conn, exc)
    except Exception:
        table.log.exception("error handling a message")
        _error(hub, conn, P.ProtocolError("internal_error", "the server failed on this message"))


def _error(hub: Hub, conn: Conn, exc: P.ProtocolError) -> None:
    hub.metrics.errors_total.labels(code=exc.code).inc()
    conn.send_msg(P.from_exc(exc))


async def _dispatch(hub: Hub, table: Table, conn: Conn, msg: P.ClientMessage) -> None:
    if isinstance(msg, P.Hello):
        async with table.lock:  # never describe a state whose last action is not yet committed
            table.hello(conn, msg)
        return
    if not conn.ready:
        raise P.ProtocolError("hello_required", "send hello first", id=getattr(msg, "id", None))
    if isinstance(msg, P.Ping):
        conn.send_msg(P.pong())
    elif isinstance(msg, P.ActionMsg):
        await _action(table, conn, msg)
    elif isinstance(msg, P.ChatMsg):
        try:
            await table.chat_line(conn, msg.text)
        except P.ProtocolError as exc:
            exc.id = msg.id
            raise
        if msg.id is not None:
            conn.send_msg(P.ack(msg.id))


async def _action(table: Table, conn: Conn, msg: P.ActionMsg) -> None:
    t0 = time.perf_counter()
    g = table.game
    try:
        if table.problem is not None:
            raise P.ProtocolError("table_unavailable", "this table could not be restored")
        if g is None:
            raise P.ProtocolError("game_not_started", "the game has not started")
        if g.finished:
            raise P.ProtocolError("game_over", "the game is over")
        seat = conn.seat
        if seat is None:
            raise P.ProtocolError("not_seated", "spectators cannot act")
        data = dict(msg.action)
        if "seat" in data and data["seat"] != seat:
            raise P.ProtocolError(
                "not_your_seat", f"this connection plays seat {seat}, not {data['seat']!r}"
            )
        data["seat"] = seat
        try:
            action = Action.from_json(data)
        except InvalidAction as exc:
            raise P.ProtocolError("invalid_action", exc.message) from None
        seq = await table.submit(seat, action)
    except P.ProtocolError as exc:
        exc.id = msg.id
        raise
    conn.send_msg(P.ack(msg.id, seq))
    log.debug("action", extra={"game_id": table.id, "ms": (time.perf_counter() - t0) * 1000})
