"""Helpers for the web-security tests: HTTP with exactly the headers a browser would send, and
WebSocket handshakes with an Origin and the session cookie."""

from __future__ import annotations

import http.client
import json
from email.message import Message
from typing import Any

import websockets
from server_support import TIMEOUT, Server

COOKIE = "sh_session"


class Reply:
    def __init__(self, status: int, headers: Message, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.text = body.decode("utf-8", errors="replace")
        try:
            self.json: Any = json.loads(body) if body else None
        except ValueError:
            self.json = None

    @property
    def code(self) -> str | None:
        if isinstance(self.json, dict):
            return (self.json.get("error") or {}).get("code")
        return None

    def set_cookies(self) -> list[str]:
        return self.headers.get_all("set-cookie") or []


def raw(
    server: Server,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: bytes | str | None = None,
) -> Reply:
    """One request with only the given headers (no Content-Type unless given)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    try:
        data = body.encode() if isinstance(body, str) else body
        conn.request(method, path, body=data, headers=headers or {})
        r = conn.getresponse()
        return Reply(r.status, r.headers, r.read())
    finally:
        conn.close()


def cookie_headers(token: str, origin: str | None = None, **more: str) -> dict[str, str]:
    """What a browser sends along: the cookie, and on a POST its page's origin."""
    headers = {"Cookie": f"{COOKIE}={token}"}
    if origin is not None:
        headers["Origin"] = origin
    headers.update({k.replace("_", "-"): v for k, v in more.items()})
    return headers


def json_post(token: str, origin: str, body: Any = None) -> tuple[dict[str, str], str]:
    headers = cookie_headers(token, origin)
    headers["Content-Type"] = "application/json"
    return headers, json.dumps({} if body is None else body)


async def ws_open(
    server: Server,
    path: str,
    origin: str | None = None,
    cookie: str | None = None,
    bearer: str | None = None,
) -> Any:
    headers: dict[str, str] = {}
    if cookie is not None:
        headers["Cookie"] = f"{COOKIE}={cookie}"
    if bearer is not None:
        headers["Authorization"] = f"Bearer {bearer}"
    return await websockets.connect(
        server.ws_url + path,
        origin=origin,  # type: ignore[arg-type]
        additional_headers=headers,
        open_timeout=TIMEOUT,
    )


async def hello(ws: Any) -> dict[str, Any]:
    """Say hello; the first welcome (or error) back."""
    await ws.send(json.dumps({"v": 1, "type": "hello"}))
    while True:
        m = json.loads(await _recv(ws))
        if m["type"] in ("welcome", "error"):
            return m  # type: ignore[no-any-return]


async def refused(ws: Any) -> tuple[str, int | None]:
    """The error code a refused socket was sent, and its close code."""
    m = json.loads(await _recv(ws))
    assert m["type"] == "error", m
    await ws.wait_closed()
    return m["code"], ws.close_code


async def _recv(ws: Any) -> Any:
    import asyncio

    return await asyncio.wait_for(ws.recv(), TIMEOUT)
