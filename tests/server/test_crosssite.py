"""Cross-site requests (docs/security.md): a page on another origin of the same site (another
port, a sibling host) cannot use the player's cookie, on the WebSocket or on HTTP; programs
with ``Authorization: Bearer`` are not affected."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_support import Server, free_port, http, session
from websec_support import cookie_headers, hello, json_post, raw, refused, ws_open


def _seated_table(server: Server) -> tuple[str, dict[str, Any]]:
    """A player holding seat 0 of a private waiting table."""
    token = session(server, "Alice")
    table = http(server, "POST", "/api/tables", {"players": 5, "public": False}, token=token)
    return token, table


def _seat0(server: Server, token: str, table_id: str) -> str | None:
    detail = http(server, "GET", f"/api/tables/{table_id}", token=token)
    return detail["seats"][0]["user_id"]  # type: ignore[no-any-return]


@pytest.mark.timeout(60)
def test_cookie_websocket_only_from_the_servers_own_origin(server: Server) -> None:
    token, table = _seated_table(server)
    path = f"/ws/tables/{table['id']}"
    own = server.url  # http://127.0.0.1:PORT
    foreign = [
        f"http://127.0.0.1:{free_port()}",  # another port of the same host
        f"http://localhost:{server.port}",  # a sibling host name
        "null",  # a sandboxed frame
    ]

    async def run() -> None:
        for origin in foreign:
            ws = await ws_open(server, path, origin=origin, cookie=token)
            code, close = await refused(ws)
            assert (code, close) == ("cross_origin", 4403), origin
        # the page of the server itself: the cookie signs the player in, on her seat
        ws = await ws_open(server, path, origin=own, cookie=token)
        welcome = await hello(ws)
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        await ws.close()
        # a program: Bearer, whatever Origin it sends (a browser cannot set this header)
        ws = await ws_open(server, path, origin=foreign[0], bearer=token)
        welcome = await hello(ws)
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        await ws.close()
        # a token in the URL is refused (it would be logged)
        ws = await ws_open(server, f"{path}?token={token}")
        assert await refused(ws) == ("token_in_url", 4403)

    asyncio.run(run())


@pytest.mark.timeout(60)
def test_allowed_origins_may_use_the_cookie(make_server: Any) -> None:
    other = f"http://127.0.0.1:{free_port()}"
    server: Server = make_server(SH_ALLOWED_ORIGINS=f"{other}/, https://play.example.org")
    token, table = _seated_table(server)

    async def run() -> None:
        ws = await ws_open(server, f"/ws/tables/{table['id']}", origin=other, cookie=token)
        welcome = await hello(ws)
        assert welcome["seat"] == 0
        await ws.close()

    asyncio.run(run())
    headers, body = json_post(token, other)
    assert raw(server, "POST", f"/api/tables/{table['id']}/leave", headers, body).status == 200


@pytest.mark.timeout(60)
def test_cross_site_posts_are_refused_and_change_nothing(server: Server) -> None:
    token, table = _seated_table(server)
    leave = f"/api/tables/{table['id']}/leave"
    user_id = _seat0(server, token, table["id"])
    assert user_id is not None
    sibling = f"http://localhost:{server.port}"

    # a cross-site form (the classic CSRF) and a fetch from another origin of the same site
    form = cookie_headers(token, sibling, Content_Type="application/x-www-form-urlencoded")
    assert raw(server, "POST", leave, form, "x=1").code == "cross_site"
    headers, body = json_post(token, sibling)
    r = raw(server, "POST", leave, headers, body)
    assert (r.status, r.code) == (403, "cross_site")
    # no Origin, but the browser says the request comes from a sibling site
    r = raw(server, "POST", leave, cookie_headers(token, Sec_Fetch_Site="same-site"))
    assert (r.status, r.code) == (403, "cross_site")
    # form content types are refused even from the own origin: only JSON bodies are accepted
    for ctype in (
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "text/plain",
    ):
        h = cookie_headers(token, server.url, Content_Type=ctype)
        r = raw(server, "POST", leave, h, "{}")
        assert (r.status, r.code) == (415, "unsupported_media_type"), ctype
    # a body without a content type is not JSON either
    r = raw(server, "POST", leave, cookie_headers(token, server.url), "{}")
    assert r.status == 415
    # a cross-site sign-in (login CSRF) is refused too
    r = raw(
        server,
        "POST",
        "/api/session",
        {"Origin": sibling, "Content-Type": "application/json"},
        '{"name": "Mallory"}',
    )
    assert (r.status, r.set_cookies()) == (403, [])
    assert _seat0(server, token, table["id"]) == user_id  # still seated

    # the page itself (same origin, JSON) may leave
    headers, body = json_post(token, server.url)
    r = raw(server, "POST", leave, headers, body)
    assert r.status == 200, r.text
    assert _seat0(server, token, table["id"]) is None


@pytest.mark.timeout(60)
def test_programs_with_bearer_and_no_origin_are_unaffected(server: Server) -> None:
    token, table = _seated_table(server)
    # a body-less POST with a Bearer token and no Origin (what curl or a bot sends)
    r = raw(
        server, "POST", f"/api/tables/{table['id']}/leave", {"Authorization": f"Bearer {token}"}
    )
    assert r.status == 200, r.text
    # and a cookie without Origin (not a browser) is a program too
    r = raw(
        server,
        "POST",
        f"/api/tables/{table['id']}/join",
        {**cookie_headers(token), "Content-Type": "application/json"},
        '{"seat": 2}',
    )
    assert r.status == 200, r.text
    assert _seat0(server, token, table["id"]) is None
