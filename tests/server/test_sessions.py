"""Credentials (docs/security.md): tokens never reach a log, logout revokes them on the server
(for good, across restarts, closing their sockets), and the cookie is Secure over https."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from itsdangerous import URLSafeTimedSerializer
from server_support import Client, HttpError, Server, http, me_status, session, wait_for
from websec_support import cookie_headers, hello, json_post, raw, ws_open


@pytest.mark.timeout(90)
def test_no_token_in_the_server_log(server: Server) -> None:
    """The web client's way (cookie WebSocket), a program's way (Bearer) and a client that still
    puts the token in the URL: the log records every socket, and none of the tokens."""
    tokens = [session(server, f"P{i}") for i in range(3)]
    table = http(server, "POST", "/api/tables", {"players": 5, "public": False}, token=tokens[0])
    path = f"/ws/tables/{table['id']}"

    async def run() -> None:
        ws = await ws_open(server, path, origin=server.url, cookie=tokens[0])
        assert (await hello(ws))["seat"] == 0
        await ws.close()
        c = Client(server, tokens[1])
        await c.connect(table["id"], query=f"?invite={table['invite']}")
        await c.close()
        ws = await ws_open(server, f"{path}?token={tokens[2]}&invite={table['invite']}")
        assert json.loads(await asyncio.wait_for(ws.recv(), 20))["code"] == "token_in_url"
        await ws.close()

    asyncio.run(run())
    server.stop()  # flush and close the log
    log = server.log_path.read_text(encoding="utf-8")
    assert log.count(f"/ws/tables/{table['id']}") >= 3, log[-2000:]  # the sockets are logged
    for secret in (*tokens, table["invite"]):
        assert secret not in log
    assert "token=[redacted]" in log


@pytest.mark.timeout(90)
def test_logout_revokes_the_token_and_closes_its_sockets(make_server: Any, backend: str) -> None:
    server: Server = make_server(backend)
    token = session(server, "Alice")
    other = session(server, "Bob")
    table = http(server, "POST", "/api/tables", {"players": 5}, token=token)

    async def run() -> None:
        c = Client(server, token, "alice")
        welcome = await c.connect(table["id"])
        assert welcome is not None and welcome["seat"] == 0
        copy = Client(server, token, "stolen copy")
        await copy.connect(table["id"])
        r = raw(server, "POST", "/api/logout", *json_post(token, server.url))
        assert r.status == 200 and r.json == {"revoked": 1}
        assert any("Max-Age=0" in c for c in r.set_cookies())  # the cookie is deleted too
        for client in (c, copy):
            m = await client.recv_until(lambda m: m["type"] == "error")
            assert m["code"] == "signed_out"
            await asyncio.wait_for(client.ws.wait_closed(), 20)
        # the same token again, at this public table: refused, not taken for a spectator
        # (issue 37 point 7), as a Bearer token and as the cookie; a token never valid too
        again = Client(server, token)
        await again.connect(table["id"], hello=False)
        cookie = await ws_open(server, f"/ws/tables/{table['id']}", server.url, cookie=token)
        forged = Client(server, token[:-4] + "abcd")
        await forged.connect(table["id"], hello=False)
        for ws in (again.ws, cookie, forged.ws):
            m = json.loads(await asyncio.wait_for(ws.recv(), 20))
            assert (m["type"], m["code"]) == ("error", "unauthorized")
            await asyncio.wait_for(ws.wait_closed(), 20)
            assert ws.close_code == 4401
        spectator = Client(server, None)  # without any credential: a spectator, as ever
        welcome = await spectator.connect(table["id"])
        assert welcome is not None and welcome["seat"] is None
        await spectator.close()

    asyncio.run(run())
    assert me_status(server, token) == 401
    r = raw(server, "GET", "/api/me", cookie_headers(token))
    assert r.status == 401
    # the page's cookie that no longer holds is dropped, so its sockets go without it
    assert any("sh_session=" in c and "Max-Age=0" in c for c in r.set_cookies())
    assert raw(server, "GET", "/api/me", cookie_headers(other)).set_cookies() == []
    assert me_status(server, other) == 200  # Bob is still signed in
    # revoked for good: also after a restart
    server.stop()
    server.start()
    assert me_status(server, token) == 401
    assert me_status(server, other) == 200


@pytest.mark.timeout(60)
def test_sign_out_everywhere(server: Server) -> None:
    token = session(server, "Alice")
    other = session(server, "Bob")
    out = http(server, "POST", "/api/logout", {"everywhere": True}, token=token)
    assert out == {"revoked": 1}
    assert me_status(server, token) == 401
    assert me_status(server, other) == 200
    # signing out without a session, or with a bad body, is a clear answer that changes nothing
    assert http(server, "POST", "/api/logout", {}) == {"revoked": 0}
    with pytest.raises(HttpError) as err:
        http(server, "POST", "/api/logout", {"everywhere": "yes"}, token=other)
    assert err.value.code == "invalid_request"
    assert me_status(server, other) == 200


@pytest.mark.timeout(60)
def test_a_token_without_a_server_side_session_is_refused(server: Server) -> None:
    """Tokens signed before sessions existed (or forged with a leaked key, without a session)."""
    old = URLSafeTimedSerializer("test-secret", salt="secret-hitler-session").dumps(
        {"u": "u_alice", "n": "Alice"}
    )
    assert me_status(server, old) == 401
    made_up = URLSafeTimedSerializer("test-secret", salt="secret-hitler-session").dumps(
        {"u": "u_alice", "n": "Alice", "s": "no-such-session"}
    )
    assert me_status(server, made_up) == 401


def _session_cookie(server: Server, **headers: str) -> str:
    r = raw(
        server,
        "POST",
        "/api/session",
        {"Content-Type": "application/json", **headers},
        '{"name": "Alice"}',
    )
    assert r.status == 200, r.text
    (cookie,) = r.set_cookies()
    return cookie


@pytest.mark.timeout(60)
def test_secure_cookie_behind_a_trusted_tls_proxy(make_server: Any) -> None:
    plain: Server = make_server()
    # X-Forwarded-Proto is not believed unless the proxy is configured
    assert "secure" not in _session_cookie(plain, **{"X-Forwarded-Proto": "https"}).lower()
    proxied: Server = make_server(SH_TRUSTED_PROXIES="127.0.0.1")
    cookie = _session_cookie(proxied, **{"X-Forwarded-Proto": "https"})
    assert "; secure" in cookie.lower() and "httponly" in cookie.lower()
    assert "secure" not in _session_cookie(proxied).lower()  # plain http straight to it
    # behind the proxy the page's origin is https://host: that is the server's own origin
    token = session(proxied, "Bob")
    https_page = f"https://127.0.0.1:{proxied.port}"
    headers, body = json_post(token, https_page)
    headers["X-Forwarded-Proto"] = "https"
    assert raw(proxied, "POST", "/api/logout", headers, body).status == 200
    token = session(proxied, "Carol")
    headers, body = json_post(token, f"http://127.0.0.1:{proxied.port}")
    headers["X-Forwarded-Proto"] = "https"
    assert raw(proxied, "POST", "/api/logout", headers, body).code == "cross_site"


def _refused(server: Server, method: str, path: str, body: Any = None, **headers: str) -> Any:
    with pytest.raises(HttpError) as err:
        http(server, method, path, body, headers=headers)
    return err.value


@pytest.mark.timeout(60)
def test_the_client_address_is_the_nearest_hop_that_is_not_a_trusted_proxy(
    make_server: Any,
) -> None:
    """Each proxy appends the address it saw; what a client wrote itself comes first. So the
    address is taken from the right, past the trusted proxies (SH_TRUSTED_PROXIES), and the
    per-address limits and /admin/drain's loopback check hold behind a proxy."""
    server: Server = make_server(
        SH_TRUSTED_PROXIES="127.0.0.1, 10.0.0.0/8", SH_SESSION_RATE="2/minute"
    )
    for written in ("1.1.1.1", "2.2.2.2"):  # the client's own entries differ; its address not
        fwd = {"X-Forwarded-For": f"{written}, 203.0.113.5, 10.1.2.3"}
        assert http(server, "POST", "/api/session", {"name": "Eve"}, headers=fwd)["token"]
    fwd = {"X-Forwarded-For": "3.3.3.3, 203.0.113.5, 10.1.2.3"}
    err = _refused(server, "POST", "/api/session", {"name": "Eve"}, **fwd)
    assert (err.status, err.code) == (429, "rate_limited")
    fwd = {"X-Forwarded-For": "203.0.113.5, 203.0.113.6"}  # another client, who wrote .5
    assert http(server, "POST", "/api/session", {"name": "Fay"}, headers=fwd)["token"]
    # /admin/drain is for the machine itself: a client behind the proxy cannot pass for it
    err = _refused(
        server, "POST", "/admin/drain", None, **{"X-Forwarded-For": "127.0.0.1, 8.8.8.8"}
    )
    assert (err.status, err.code) == (403, "forbidden")
    err = _refused(server, "POST", "/admin/drain")  # from loopback: allowed (not a cluster here)
    assert (err.status, err.code) == (409, "not_a_cluster")


@pytest.mark.timeout(60)
def test_a_wildcard_list_of_proxies_stops_the_server(make_server: Any) -> None:
    def words(failed: Any) -> str:  # the message, out of the box the command line draws
        return " ".join(re.sub("[│╭╮╰╯─]", " ", str(failed.value)).split())

    with pytest.raises(RuntimeError) as failed:
        make_server(SH_TRUSTED_PROXIES="*")
    assert "SH_TRUSTED_PROXIES: '*' would believe the X-Forwarded-For" in words(failed)
    with pytest.raises(RuntimeError) as failed:
        make_server(SH_TRUSTED_PROXIES="127.0.0.1, proxy.example")
    assert "'proxy.example' is not an IP address or network" in words(failed)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("proxies", "named"),
    [
        ("0.0.0.0/0", "'0.0.0.0/0' is too wide"),
        ("::/0", "'::/0' is too wide"),
        ("127.0.0.1, 0.0.0.0/1, 128.0.0.0/1", "'0.0.0.0/1' is too wide"),  # all IPv4, in halves
        ("::ffff:0:0/96", "'::ffff:0:0/96' is too wide"),  # every IPv4 address, mapped
        ("2000::/3", "'2000::/3' is too wide"),
        # five /8s, each allowed alone: the list holds too many addresses
        ("10.0.0.0/8, 11.0.0.0/8, 12.0.0.0/8, 13.0.0.0/8, 14.0.0.0/8", "the networks listed"),
    ],
)
def test_a_list_of_proxies_wider_than_a_few_networks_stops_the_server(
    make_server: Any, proxies: str, named: str
) -> None:
    """Behind a proxy the client's address is what the trusted hops say: a trusted network that
    holds clients would believe the address each of them writes (issue 37 point 3)."""
    with pytest.raises(RuntimeError) as failed:
        make_server(SH_TRUSTED_PROXIES=proxies)
    said = " ".join(re.sub("[│╭╮╰╯─]", " ", str(failed.value)).split())
    assert f"SH_TRUSTED_PROXIES: {named}" in said
    assert "could write its own address into X-Forwarded-For" in said


@pytest.mark.timeout(60)
def test_the_trusted_networks_are_logged_at_start(make_server: Any) -> None:
    """The usual private networks and a proxy's own IPv6 network are accepted, and the
    start-up log says which networks are believed."""
    proxies = "127.0.0.1, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10, 2001:db8::/32"
    server: Server = make_server(SH_TRUSTED_PROXIES=proxies)
    wait_for(lambda: "server ready" in server.log_tail(100_000), what="the start-up log")
    logged = server.log_tail(100_000)
    assert "trusted proxies: 127.0.0.1/32,10.0.0.0/8,172.16.0.0/12" in logged
    assert "2001:db8::/32" in logged


@pytest.mark.timeout(60)
def test_signing_in_and_claiming_give_a_new_session_and_end_the_old(server: Server) -> None:
    """A token planted in a browser (session fixation) never becomes an account's session."""
    planted = session(server, "Ann")
    table = http(server, "POST", "/api/tables", {"players": 5}, planted)

    async def scenario() -> None:
        c = Client(server, planted, "planted")
        await c.connect(table["id"])
        body = {"username": "ann", "password": "ann password"}
        account = http(server, "POST", "/api/account", body, planted)["token"]
        m = await c.recv_until(lambda m: m["type"] == "error")
        assert m["code"] == "signed_out"  # its sockets end too
        await c.close()
        assert account != planted and me_status(server, planted) == 401
        assert me_status(server, account) == 200
        # signing in with a token in hand (a guest's, or another account's) ends that one
        guest = session(server, "Bea")
        signed = http(server, "POST", "/api/signin", body, guest)["token"]
        assert me_status(server, guest) == 401 and me_status(server, signed) == 200
        assert me_status(server, account) == 200  # other sessions of the account stay

    asyncio.run(scenario())


@pytest.mark.timeout(90)
def test_a_second_hello_resynchronises_the_same_seat_and_counts_it_once(server: Server) -> None:
    """A client may send ``hello`` again on an open connection (docs/protocol.md): it gets a
    fresh welcome for its own seat, and its seat is not counted as
    present twice: when the connection closes, the seat shows as disconnected."""
    token = session(server, "H0")
    table = http(server, "POST", "/api/tables", {"players": 5, "public": False}, token=token)
    path = f"/api/tables/{table['id']}"

    def connected(seat: int) -> bool:
        return bool(http(server, "GET", path, token=token)["seats"][seat]["connected"])

    async def run() -> None:
        c = Client(server, token, "host")
        first = await c.connect(table["id"])
        assert first is not None and first["type"] == "welcome" and first["seat"] == 0
        await c.send({"v": 1, "type": "hello", "since": None, "chat_since": None})
        again = await c.recv_until(lambda m: m["type"] == "welcome")
        assert again["seat"] == 0 and again["seq"] == first["seq"]
        assert connected(0)
        await c.close()
        wait_for(lambda: not connected(0), what="the seat shown as disconnected")

    asyncio.run(run())
