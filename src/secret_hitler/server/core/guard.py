"""What one client address or one user may hold or do (docs/security.md "Limits").

Rates use the ``limits`` library (moving windows, in memory, or in Redis on a cluster); counts
of things held (connections, tables, games) are counted where they live. Every setting is in
``config.Settings`` / ``config.LIMIT_ENV``.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .config import Settings

UNKNOWN_ADDRESS = "unknown"
log = logging.getLogger("secret_hitler.server.guard")


class Guard:
    """Rate limits by name and key, and open WebSocket connections per address."""

    RATES = (
        "session_rate",
        "signin_rate",
        "signin_rate_user",
        "chat_rate",
        "chat_rate_address",
        "analysis_rate",
    )

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        # One process: in memory. A cluster: in Redis, so every node counts the same events.
        storage = (
            MemoryStorage()
            if settings.redis_url is None
            else storage_from_string(settings.redis_url, socket_timeout=1, socket_connect_timeout=1)
        )
        self._limiter = MovingWindowRateLimiter(storage)
        self._rates: dict[str, RateLimitItem] = {n: parse(getattr(settings, n)) for n in self.RATES}
        self.connections: Counter[str] = Counter()

    def hit(self, *checks: tuple[str, str]) -> bool:
        """Count one event against every ``(rate name, key)``, only if all of them allow it."""
        items = [(self._rates[name], name, key) for name, key in checks]
        try:
            if not all(self._limiter.test(item, name, key) for item, name, key in items):
                return False
            for item, name, key in items:
                self._limiter.hit(item, name, key)
        except Exception as exc:  # noqa: BLE001 - Redis away: rates are not enforced meanwhile
            log.warning("rate limits unavailable (%s)", type(exc).__name__[:60])
        return True

    def connect(self, addr: str) -> bool:
        """Take one connection slot of ``addr``; False when it holds the maximum already."""
        if self.connections[addr] >= self.settings.connections_per_address:
            return False
        self.connections[addr] += 1
        return True

    def disconnect(self, addr: str) -> None:
        self.connections[addr] -= 1
        if self.connections[addr] <= 0:
            del self.connections[addr]


def client_address(scope_client: Any) -> str:
    """The peer address of a request or WebSocket (``request.client``)."""
    host = getattr(scope_client, "host", None)
    return host if isinstance(host, str) and host else UNKNOWN_ADDRESS


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body may have at most {limit} bytes")


class BodyLimit:
    """ASGI middleware: refuse HTTP bodies over ``max_body`` bytes with 413 ``too_large``.

    A declared ``Content-Length`` over the limit is refused before anything is read; otherwise
    the bytes are counted as they arrive, so a chunked body is refused as soon as it passes the
    limit (never buffered whole).
    """

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_body
        for key, value in scope.get("headers", ()):
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0  # the HTTP parser refuses malformed lengths itself
                if declared > limit:
                    await _too_large(limit)(scope, receive, send)
                    return
        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLarge:  # not turned into a response by the app's handlers
            if started:
                raise
            await _too_large(limit)(scope, receive, send)


def _too_large(limit: int) -> JSONResponse:
    message = f"the request body may have at most {limit} bytes"
    return JSONResponse({"error": {"code": "too_large", "message": message}}, status_code=413)
