"""What one client address or one user may hold or do (docs/security.md "Limits").

Rates use the ``limits`` library (moving windows, in memory, or in Redis on a cluster); counts
of things held (connections, tables, games) are counted where they live. Every setting is in
``config.Settings`` / ``config.LIMIT_ENV``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .config import Settings
from .errors import LobbyError

UNKNOWN_ADDRESS = "unknown"
log = logging.getLogger("secret_hitler.server.guard")
# failed sign-ins of one username, from any address (counted to slow them down, not to refuse)
FAILURES = parse("100000/10 minutes")


class Guard:
    """Rate limits by name and key, and open WebSocket connections per address."""

    RATES = (
        "session_rate",
        "signin_rate",
        "signin_rate_user",
        "chat_rate",
        "chat_rate_address",
        "analysis_rate",
        "report_rate",
        "lookup_rate",
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
        with _no_redis():
            if not all(self._limiter.test(item, name, key) for item, name, key in items):
                return False
            for item, name, key in items:
                self._limiter.hit(item, name, key)
        return True

    def allows(self, *checks: tuple[str, str]) -> bool:
        """Whether one more event is allowed now, without counting it."""
        with _no_redis():
            return all(self._limiter.test(self._rates[n], n, key) for n, key in checks)
        return True

    def limit(self, message: str, *checks: tuple[str, str]) -> None:
        """``hit``, or ``LobbyError`` 429 ``rate_limited`` saying ``message``, with the seconds
        until one more is allowed in ``Retry-After``."""
        if self.hit(*checks):
            return
        wait = self.retry_after(*checks)
        raise LobbyError(429, "rate_limited", message, headers={"Retry-After": str(wait)})

    def retry_after(self, *checks: tuple[str, str]) -> int:
        """Whole seconds until every one of ``checks`` allows one more event (at least 1): what
        a refusal tells the client to wait (HTTP ``Retry-After``, a WebSocket error's
        ``detail.retry_after``)."""
        wait = 1
        with _no_redis():
            now = time.time()
            for name, key in checks:
                stats = self._limiter.get_window_stats(self._rates[name], name, key)
                if stats.remaining <= 0:
                    wait = max(wait, math.ceil(stats.reset_time - now))
        return wait

    def failed(self, key: str) -> None:
        """One more failed attempt on ``key`` (a username), within ``FAILURES``' window."""
        with _no_redis():
            self._limiter.hit(FAILURES, "failed", key)

    def failures(self, key: str) -> int:
        with _no_redis():
            return (
                FAILURES.amount - self._limiter.get_window_stats(FAILURES, "failed", key).remaining
            )
        return 0

    def forget_failures(self, key: str) -> None:
        with _no_redis():
            self._limiter.clear(FAILURES, "failed", key)

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


@contextlib.contextmanager
def _no_redis() -> Iterator[None]:
    """Redis away (a cluster): rates are not enforced meanwhile, and a warning says so."""
    try:
        yield
    except Exception as exc:  # noqa: BLE001
        log.warning("rate limits unavailable (%s)", type(exc).__name__[:60])


def client_address(scope_client: Any) -> str:
    """The client address of a request or WebSocket (``request.client``, or a scope's
    ``client`` pair): the peer, or behind a trusted proxy the nearest address in
    X-Forwarded-For that is not a trusted proxy (uvicorn's proxy headers, SH_TRUSTED_PROXIES)."""
    host = scope_client[0] if isinstance(scope_client, tuple | list) and scope_client else None
    host = getattr(scope_client, "host", host)
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


def guarded_http(settings: Settings) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (``uvicorn.run(http=...)``) with two checks uvicorn lacks:

    - a request's headers must arrive within ``header_timeout`` seconds of the connection (or
      of the previous answer on a kept-alive one), else the connection is closed: a client that
      trickles its headers a byte at a time cannot hold a connection open for ever;
    - at most ``http_connections_per_address`` connections are open at once from one peer
      address (a connection that becomes a WebSocket is counted by ``Guard.connect`` instead,
      and the proxies of ``trusted_proxies`` are not counted: the proxy guards its own side);
      one more is closed at once.
    """
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    base: Any = AutoHTTPProtocol
    open_from: Counter[str] = Counter()

    class GuardedHTTP(base):  # type: ignore[misc]
        counted: str | None = None
        header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            host = self.client[0] if self.client else UNKNOWN_ADDRESS
            if not settings.trusted_proxy(host):
                if open_from[host] >= settings.http_connections_per_address:
                    log.warning("HTTP connection refused: too many from one address")
                    transport.close()
                    return
                open_from[host] += 1
                self.counted = host
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self.header_timer = self.loop.call_later(settings.header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def _too_slow(self) -> None:
            self.header_timer = None
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                return  # the headers came: a request is being served
            if not self.transport.is_closing():
                self.transport.close()

        def _release(self) -> None:
            self._disarm()
            if self.counted is not None:
                open_from[self.counted] -= 1
                if open_from[self.counted] <= 0:
                    del open_from[self.counted]
                self.counted = None

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()  # the next request's headers get the same time

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._release()  # from now on a WebSocket (Guard.connect counts those)
            super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

    return GuardedHTTP
