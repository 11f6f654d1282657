"""The cross-site guard and security headers: one ASGI middleware in front of every route.

- Credentials: ``Authorization: Bearer`` (programs) or the ``sh_session`` cookie (the web page)
  are resolved to a user once per request (``request.state.user``), through ``Sessions``. A
  banned user, and any credential or new session from a banned address, is refused here; so
  is a WebSocket whose credential no longer holds (``unauthorized``, close 4401).
- Cross-site: a state-changing HTTP request from a foreign ``Origin`` (or ``Sec-Fetch-Site``
  cross-site/same-site) is refused, and so is any non-JSON body (HTML forms cannot send JSON);
  a WebSocket that carries the cookie is accepted only from the server's own origin or
  ``SH_ALLOWED_ORIGINS``. A token in a WebSocket URL is refused (URLs end up in logs).
- Headers: CSP without inline script or style, no framing, nosniff, no referrer.

See docs/security.md for the threat model.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..accounts.auth import COOKIE
from ..core import protocol as P
from ..core.config import Settings
from ..core.guard import client_address

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# where a session is opened without one: refused from a banned address
OPENS_SESSION = frozenset({"/api/session", "/api/signin"})
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# Swagger UI (only when SH_API_DOCS=1): FastAPI's page loads its scripts from a CDN and starts
# them with an inline script.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
_HTTP_SCHEME = {"ws": "http", "wss": "https"}


def own_origin(scope: Scope, headers: Headers) -> str | None:
    """``scheme://host`` of this request as the browser sees it (the scheme is https behind a
    trusted TLS proxy: uvicorn rewrites it from X-Forwarded-Proto, see SH_TRUSTED_PROXIES)."""
    host = headers.get("host")
    if not host:
        return None
    scheme = scope.get("scheme", "http")
    return f"{_HTTP_SCHEME.get(scheme, scheme)}://{host}".lower()


def is_https(scope: Scope) -> bool:
    return scope.get("scheme") in ("https", "wss")


class Guard:
    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.allowed = frozenset(settings.allowed_origins)

    def _origin_ok(self, scope: Scope, headers: Headers) -> bool:
        """No Origin (not a browser, or a same-origin GET) or an allowed one."""
        origin = headers.get("origin")
        if origin is None:
            site = headers.get("sec-fetch-site")
            return site is None or site in ("same-origin", "none")
        origin = origin.strip().rstrip("/").lower()
        return origin == own_origin(scope, headers) or origin in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        path: str = scope.get("path", "")
        if kind == "http":
            send = _with_headers(
                send, DOCS_CSP if path.startswith("/api/docs") else CSP, path.startswith("/api/")
            )
            if scope.get("method") in UNSAFE:
                refusal = self._refuse_http(scope, headers)
                if refusal is not None:
                    await _json(send, *refusal)
                    return
        if path.startswith(("/api/", "/ws/")):
            bearer = _bearer(headers.get("authorization"))
            cookie = cookie_parser(headers.get("cookie", "")).get(COOKIE) or None
            if kind == "websocket":
                why = self._refuse_ws(scope, headers, bearer, cookie)
                if why is not None:
                    await _ws_refuse(receive, send, *why)
                    return
            token = bearer if bearer is not None else cookie
            state = scope.setdefault("state", {})
            moderation = scope["app"].state.moderation
            if (token or path in OPENS_SESSION) and moderation.banned_address(
                client_address(scope.get("client"))
            ):
                await _refuse(kind, receive, send, "this address is banned")
                return
            user = await scope["app"].state.sessions.user(token) if token else None
            if user is not None and moderation.banned_user(user.id):
                await _refuse(kind, receive, send, "this account is banned")
                return
            if token and user is None and kind == "websocket":
                # a credential that no longer holds (signed out, expired, forged) is refused,
                # not taken for nobody: a client must not spectate thinking it is seated
                await _ws_refuse(
                    receive,
                    send,
                    "unauthorized",
                    "this session is signed out or expired: sign in again",
                    4401,
                )
                return
            state["user"] = user
            state["token_source"] = (
                None if token is None else "bearer" if bearer is not None else "cookie"
            )
        await self.app(scope, receive, send)

    def _refuse_http(self, scope: Scope, headers: Headers) -> tuple[int, str, str] | None:
        if not self._origin_ok(scope, headers):
            return 403, "cross_site", "requests from another site are refused"
        ctype = headers.get("content-type")
        has_body = headers.get("content-length", "0").strip() not in ("", "0") or (
            "transfer-encoding" in headers
        )
        if ctype is not None or has_body:
            media = (ctype or "").split(";", 1)[0].strip().lower()
            if media != "application/json":
                return 415, "unsupported_media_type", "the request body must be application/json"
        return None

    def _refuse_ws(
        self, scope: Scope, headers: Headers, bearer: str | None, cookie: str | None
    ) -> tuple[str, str] | None:
        query = scope.get("query_string", b"").decode("latin-1")
        if any(part.split("=", 1)[0] == "token" for part in query.split("&")):
            return (
                "token_in_url",
                "a token in the URL is refused: send Authorization: Bearer (or use the cookie)",
            )
        if cookie is not None and bearer is None and not self._origin_ok(scope, headers):
            return "cross_origin", "the session cookie is accepted only from this server's pages"
        return None


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


def _with_headers(send: Send, csp: str, api: bool) -> Send:
    extra = [*HEADERS, (b"content-security-policy", csp.encode())]
    if api:  # answers carry tokens and private views: never kept by a shared cache
        extra.append((b"cache-control", b"no-store"))

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {k.lower() for k, _ in message.get("headers", [])}
            add = [(k, v) for k, v in extra if k not in present]
            message = {**message, "headers": [*message.get("headers", []), *add]}
        await send(message)

    return wrapped


async def _json(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _refuse(kind: str, receive: Receive, send: Send, message: str) -> None:
    """A ban: ``403 banned`` over HTTP, error ``banned`` and close 4403 on a WebSocket."""
    if kind == "websocket":
        await _ws_refuse(receive, send, "banned", message)
    else:
        await _json(send, 403, "banned", message)


async def _ws_refuse(
    receive: Receive, send: Send, code: str, message: str, close: int = 4403
) -> None:
    """Accept, say why in a protocol error message, close with ``close`` (4403 unless said;
    browsers see no HTTP body)."""
    msg: dict[str, Any] = dict(await receive())
    if msg["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": P.dumps(P.error(code, message))})
    await send({"type": "websocket.close", "code": close})
