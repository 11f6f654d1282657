"""The WebSocket endpoint ``/ws/tables/{id}`` (docs/protocol.md 2.): a socket is admitted here
and served by the table's client loop (``table.client``), or, when another node serves the
table, through that node (``Ownership.serve_socket``: lobby/ownership.py)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket

from ..core import protocol as P
from ..core.guard import client_address
from ..core.sockets import frame_sink
from ..core.text import brief
from ..lobby.hub import Hub
from ..table.client import handle_text, receive, sender
from ..table.conn import Conn

router = APIRouter()


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
    if table is None:  # another node's table, or one whose node is gone
        found = await hub.ownership.locate(table_id)
        if isinstance(found, str):
            await _serve_elsewhere(ws, hub, table_id, found, user)
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
        sink = frame_sink(ws)
        conn = Conn(ws, user, invite_ok, addr, sink)
        table.attach(conn)
        hub.metrics.ws_connections.inc()
        # frames go straight to the socket (core/sockets.py), else through a sender task
        sending = None if sink is not None else asyncio.create_task(sender(conn))
        try:
            await receive(
                conn,
                hub.settings,
                hub.metrics,
                lambda: conn.ready,
                lambda text: handle_text(table, conn, text),
            )
        finally:
            table.detach(conn)
            hub.metrics.ws_connections.dec()
            conn.close()
            if sending is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(sending, 5)
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


async def _serve_elsewhere(ws: WebSocket, hub: Hub, table_id: str, owner: str, user: Any) -> None:
    """The table is served by node ``owner``: the socket is served through it."""
    addr = await _admit(ws, hub)
    if addr is None:
        return
    try:
        await ws.accept()
        await hub.ownership.serve_socket(ws, table_id, owner, user, addr)
    finally:
        hub.guard.disconnect(addr)
