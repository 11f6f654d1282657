"""Server limits (docs/security.md "Limits"): each is hit on a real server, from 127.0.0.1, with
small configured values; the refused request changes nothing and the allowed ones carry on."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websockets
from server_support import (
    ROOT,
    TIMEOUT,
    Client,
    HttpError,
    Server,
    ahttp,
    http,
    raw_http,
    session,
    wait_for,
)

from secret_hitler.server.core.config import LIMIT_ENV, Settings


def _refused(server: Server, method: str, path: str, body: Any, token: str | None) -> HttpError:
    with pytest.raises(HttpError) as info:
        http(server, method, path, body, token)
    return info.value


async def _closed(c: Client, timeout: float = TIMEOUT) -> tuple[list[dict[str, Any]], int | None]:
    """Everything the server sent until it closed the connection, and the close code."""
    got = []
    end = time.monotonic() + timeout
    try:
        while True:
            got.append(await c.recv(max(0.01, end - time.monotonic())))
    except websockets.ConnectionClosed as exc:
        return got, exc.rcvd.code if exc.rcvd else None


async def _connect_when_free(server: Server, tid: str) -> Client:
    """A connection once the server has released a slot (it does so right after closing)."""
    end = time.monotonic() + TIMEOUT
    while True:
        c = Client(server, None, "late")
        await c.connect(tid, hello=False)
        await c.send({"v": 1, "type": "hello"})
        m = await c.recv()
        if m["type"] == "welcome":
            return c
        assert m["code"] == "too_many_connections", m
        await c.close()
        assert time.monotonic() < end, "no connection slot was released"


# ---------------------------------------------------------------------- connections, hello
async def _connections(server: Server) -> None:
    host = session(server, "Host")
    tid = (await ahttp(server, "POST", "/api/tables", {"players": 5}, host))["id"]
    greeted = Client(server, host, "greeted")
    await greeted.connect(tid)
    silent = [Client(server, None, f"silent{i}") for i in range(2)]
    for c in silent:
        await c.connect(tid, hello=False)
    # the limit (3) is reached: one more connection is refused, with an error and code 4429
    extra = Client(server, None, "extra")
    await extra.connect(tid, hello=False)
    got, code = await _closed(extra)
    assert [m["code"] for m in got] == ["too_many_connections"] and code == 4429
    # connections that never say hello are closed after the hello timeout (1 s) ...
    for c in silent:
        got, code = await _closed(c)
        assert [m["code"] for m in got] == ["hello_timeout"] and code == 4408
    # ... the one that said hello stays, and the freed slots take new connections
    await greeted.send({"v": 1, "type": "ping"})
    assert (await greeted.recv_until(lambda m: m["type"] == "pong"))["type"] == "pong"
    late = await _connect_when_free(server, tid)
    await late.close()
    await greeted.close()


@pytest.mark.timeout(60)
def test_connections_per_address_and_hello_timeout(make_server: Any) -> None:
    server = make_server(SH_CONNECTIONS_PER_ADDRESS="3", SH_HELLO_TIMEOUT="1")
    asyncio.run(_connections(server))


# ---------------------------------------------------------------------- sessions and tables
def test_sessions_and_tables_per_address_and_user(make_server: Any) -> None:
    server = make_server(
        SH_SESSION_RATE="3/minute", SH_TABLES_PER_USER="2", SH_TABLES_PER_ADDRESS="3"
    )
    a, b, c = (session(server, n) for n in ("Ann", "Ben", "Cid"))
    err = _refused(server, "POST", "/api/session", {"name": "Dan"}, None)
    assert err.status == 429 and err.code == "rate_limited"
    for _ in range(2):
        http(server, "POST", "/api/tables", {"players": 5}, a)
    err = _refused(server, "POST", "/api/tables", {"players": 5}, a)
    assert err.status == 429 and err.code == "too_many_tables" and "you host" in str(err.body)
    http(server, "POST", "/api/tables", {"players": 5}, b)
    err = _refused(server, "POST", "/api/tables", {"players": 5}, c)  # the address holds 3
    assert err.status == 429 and err.code == "too_many_tables" and "address" in str(err.body)
    tables = http(server, "GET", "/api/tables")["tables"]
    assert sorted(t["host_name"] for t in tables) == ["Ann", "Ann", "Ben"]


def _status_and_wait(server: Server, path: str, **headers: str) -> tuple[int, str | None]:
    """The status of ``GET path`` and its ``Retry-After``."""
    req = urllib.request.Request(server.url + path, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            return r.status, r.headers.get("retry-after")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("retry-after")


@pytest.mark.timeout(60)
def test_table_and_invite_lookups_per_address(make_server: Any) -> None:
    """Table details and invite codes cannot be tried by the thousand (issue 37 point 7): the
    lookups of one address share ``lookup_rate``, a refusal says when to come back, comes
    before any lookup (an unknown code is refused, not answered), and other addresses go on."""
    server = make_server(SH_LOOKUP_RATE="4/minute", SH_TRUSTED_PROXIES="127.0.0.1")
    tok = session(server, "Ann")
    table = http(server, "POST", "/api/tables", {"players": 5, "public": False}, tok)
    detail, invite = f"/api/tables/{table['id']}", f"/api/invite/{table['invite']}"
    for path in (detail, invite, detail, invite):
        assert _status_and_wait(server, path, Authorization=f"Bearer {tok}")[0] == 200
    for path in (detail, invite, "/api/invite/not-a-code", "/api/tables/tnothing"):
        status, wait = _status_and_wait(server, path)
        assert status == 429 and wait is not None and 1 <= int(wait) <= 60, (path, wait)
    err = _refused(server, "GET", invite, None, tok)
    assert err.code == "rate_limited" and "lookups" in err.body["error"]["message"]
    # another client behind the proxy has lookups of its own; other routes are not counted
    other = {"X-Forwarded-For": "203.0.113.7"}
    assert _status_and_wait(server, "/api/invite/not-a-code", **other)[0] == 404
    assert [t["id"] for t in http(server, "GET", "/api/tables")["tables"]] == []  # (private)
    assert http(server, "GET", "/api/me", token=tok)["name"] == "Ann"


@pytest.mark.timeout(60)
def test_bot_only_games_per_user_and_address(make_server: Any) -> None:
    # bots think 2.5-7.5 s per decision: the games are still running while the test asks
    server = make_server(SH_BOT_DELAY="5", SH_BOT_GAMES_PER_USER="1", SH_BOT_GAMES_PER_ADDRESS="2")
    a, b, c = (session(server, n) for n in ("Ann", "Ben", "Cid"))
    bots = {str(i): None for i in range(5)}
    only_bots = {"players": 5, "seat": None, "bots": bots}
    assert http(server, "POST", "/api/tables", only_bots, a)["status"] == "playing"
    err = _refused(server, "POST", "/api/tables", only_bots, a)
    assert err.status == 429 and err.code == "too_many_bot_games"
    # filling a waiting table with bots at the start is refused the same way, and changes nothing
    waiting = http(server, "POST", "/api/tables", {"players": 5, "seat": None}, a)
    err = _refused(
        server, "POST", f"/api/tables/{waiting['id']}/start", {"fill_with_bots": "random"}, a
    )
    assert err.code == "too_many_bot_games"
    after = http(server, "GET", f"/api/tables/{waiting['id']}")
    assert after["status"] == "waiting" and {s["kind"] for s in after["seats"]} == {"empty"}
    # a game with a person in it is not limited; the address allows a second bot-only game
    assert (
        http(
            server,
            "POST",
            "/api/tables",
            {"players": 5, "bots": {str(i): None for i in range(1, 5)}},
            a,
        )["status"]
        == "playing"
    )
    assert http(server, "POST", "/api/tables", only_bots, b)["status"] == "playing"
    err = _refused(server, "POST", "/api/tables", only_bots, c)
    assert err.code == "too_many_bot_games"
    # the last bot of an auto-starting table is the start: refused too
    t = http(
        server,
        "POST",
        "/api/tables",
        {"players": 5, "seat": None, "bots": {str(i): None for i in range(4)}},
        c,
    )
    err = _refused(server, "POST", f"/api/tables/{t['id']}/bots", {}, c)
    assert err.code == "too_many_bot_games"
    assert http(server, "GET", f"/api/tables/{t['id']}")["seats"][4]["kind"] == "empty"
    playing = [t for t in http(server, "GET", "/api/tables")["tables"] if t["status"] == "playing"]
    assert len(playing) == 3


# ---------------------------------------------------------------------- chat
async def _chat(server: Server) -> None:
    a, b = session(server, "Ann"), session(server, "Ben")
    tid = (await ahttp(server, "POST", "/api/tables", {"players": 5}, a))["id"]
    ca, cb = Client(server, a, "ann"), Client(server, b, "ben")
    await ca.connect(tid)
    await cb.connect(tid)

    async def say(c: Client, text: str) -> dict[str, Any]:
        await c.send({"v": 1, "type": "chat", "id": text, "text": text})
        return await c.recv_until(lambda m: m["type"] in ("ack", "error") and m["id"] == text)

    for i in range(3):  # 3 per user
        assert (await say(ca, f"a{i}"))["type"] == "ack"
    assert (await say(ca, "a3"))["code"] == "rate_limited"
    assert (await say(cb, "b0"))["type"] == "ack"  # 4 per address
    assert (await say(cb, "b1"))["code"] == "rate_limited"
    texts = [m["message"]["text"] for m in cb.messages if m["type"] == "chat"]
    assert texts == ["a0", "a1", "a2", "b0"]
    await ca.close()
    await cb.close()


@pytest.mark.timeout(60)
def test_chat_per_user_and_per_address(make_server: Any) -> None:
    server = make_server(SH_CHAT_RATE="3/minute", SH_CHAT_RATE_ADDRESS="4/minute")
    asyncio.run(_chat(server))


# ---------------------------------------------------------------------- request bodies
def test_request_body_limit(server: Server) -> None:
    limit = Settings().max_body
    # a declared length over the limit: refused before a byte of the body is sent
    head = (
        f"POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {100 << 20}\r\n\r\n"
    )
    status, body = raw_http(server, head)
    assert status == 413 and b'"too_large"' in body and str(limit).encode() in body
    # a chunked body is counted as it arrives: refused once past the limit, never finished
    head = (
        "POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    piece = b"x" * 65536
    chunks = [b"%x\r\n%s\r\n" % (len(piece), piece)] * (limit // len(piece) + 1)
    status, body = raw_http(server, head, chunks)
    assert status == 413 and b'"too_large"' in body
    # at the limit itself it is read (and judged on its content)
    with pytest.raises(HttpError) as info:
        http(server, "POST", "/api/replay", raw=b" " * (limit - 2) + b"{}")
    assert info.value.status == 400 and info.value.code == "invalid_record"
    assert "request failed" not in server.log_tail(1 << 20)


# ---------------------------------------------------------------------- waiting tables expire
async def _expiry(server: Server) -> None:
    host = session(server, "Host")
    t = await ahttp(server, "POST", "/api/tables", {"players": 5}, host)
    c = Client(server, host, "host")
    await c.connect(t["id"])
    got, code = await _closed(c)
    assert code == 4410 and got[-1]["type"] == "table" and got[-1]["table"]["status"] == "expired"
    assert (await ahttp(server, "GET", f"/api/tables/{t['id']}"))["status"] == "expired"
    assert (await ahttp(server, "GET", "/api/tables"))["tables"] == []
    late = Client(server, host, "late")
    await late.connect(t["id"], hello=False)
    assert (await late.recv())["code"] == "not_found"
    # the host's slot is free again
    assert (await ahttp(server, "POST", "/api/tables", {"players": 5}, host))["status"] == "waiting"


@pytest.mark.timeout(60)
def test_waiting_tables_expire(make_server: Any) -> None:
    server = make_server(SH_WAITING_EXPIRY="1", SH_TABLES_PER_USER="1")
    asyncio.run(_expiry(server))


# ---------------------------------------------------------------------- presence
async def _presence(server: Server) -> None:
    """Spectators coming and going are gathered for the presence delay (an hour here, so it
    never runs out in the test): none of them is announced alone. A seat's connection is
    announced at once, and its detail carries every spectator gathered so far. All of it is
    read from the order of one connection's frames, without timing anything (the gathering's
    timer itself is tested on the table's clock, test_table.py)."""
    host = session(server, "Host")
    tid = (await ahttp(server, "POST", "/api/tables", {"players": 5}, host))["id"]
    guest = session(server, "Guest")
    await ahttp(server, "POST", f"/api/tables/{tid}/join", {}, guest)
    watcher = Client(server, host, "watcher")
    await watcher.connect(tid)
    n = 8

    def seat_connected(connected: bool) -> Any:
        return lambda m: m["type"] == "table" and m["table"]["seats"][1]["connected"] is connected

    async def details_until(pred: Any) -> list[dict[str, Any]]:
        """The table details the watcher gets up to and including the one ``pred`` takes."""
        start = len(watcher.messages)
        await watcher.recv_until(pred)
        return [m["table"] for m in watcher.messages[start:] if m["type"] == "table"]

    await watcher.recv_until(  # the host's own seat, announced at once too
        lambda m: m["type"] == "table" and m["table"]["seats"][0]["connected"]
    )
    spectators = [Client(server, None, f"spec{i}") for i in range(n)]
    for s in spectators:
        await s.connect(tid)  # each one's welcome: the server has counted it
    g = Client(server, guest, "guest")
    await g.connect(tid)
    details = await details_until(seat_connected(True))
    assert [d["spectators"] for d in details] == [n], details  # no spectator announced alone
    for s in spectators:
        await s.close()

    def counted_out() -> bool:  # the server has seen every spectator go
        return http(server, "GET", f"/api/tables/{tid}", token=host)["spectators"] == 0

    await asyncio.to_thread(wait_for, counted_out, what="the spectators counted out")
    await g.close()
    details = await details_until(seat_connected(False))
    assert [d["spectators"] for d in details] == [0], details
    await watcher.close()


@pytest.mark.timeout(60)
def test_spectator_presence_is_coalesced(make_server: Any) -> None:
    server = make_server(SH_PRESENCE_DELAY="3600")
    asyncio.run(_presence(server))


# ---------------------------------------------------------------------- settings and docs
def _closed_by_server(s: socket.socket, trickle: bytes = b"", within: float = 10.0) -> bool:
    """Whether the server closes ``s`` within ``within`` seconds while the client sends
    ``trickle`` one byte at a time (a byte every 0.2 s: the wait for an answer between two)."""
    end = time.monotonic() + within
    i = 0
    s.settimeout(0.2)
    while time.monotonic() < end:
        if i < len(trickle):
            try:
                s.sendall(trickle[i : i + 1])
            except OSError:
                return True
            i += 1
        try:
            if s.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


@pytest.mark.timeout(60)
def test_slow_headers_time_out(make_server: Any) -> None:
    """A client that trickles its headers (slowloris) is cut off after ``header_timeout``."""
    server: Server = make_server(SH_HEADER_TIMEOUT="1")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        assert _closed_by_server(s, b"X-Slow: " + b"a" * 200)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:  # nothing sent
        assert _closed_by_server(s)
    # a kept-alive connection gets the same time for its next request's headers
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert s.recv(4096).startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /healthz HTTP/1.1\r\n")
        assert _closed_by_server(s, b"X-Slow: " + b"a" * 200)
    assert http(server, "GET", "/healthz")["ok"] is True  # whole requests are served


@pytest.mark.timeout(60)
def test_http_connections_are_counted_per_address(make_server: Any) -> None:
    server: Server = make_server(SH_HTTP_CONNECTIONS_PER_ADDRESS="3", SH_HEADER_TIMEOUT="30")
    held = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(3)]
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as extra:
            assert _closed_by_server(extra)  # one more from this address: closed at once
        for s in held:  # the first three are served
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert s.recv(4096).startswith(b"HTTP/1.1 200")
    finally:
        for s in held:
            s.close()

    def served() -> bool:
        try:
            return bool(http(server, "GET", "/healthz")["ok"])
        except OSError:  # (the server has not seen every close yet)
            return False

    assert wait_for(served, what="a slot freed by a closed connection")


def test_limit_settings_env_cli_and_docs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for env in LIMIT_ENV.values():
        monkeypatch.delenv(env, raising=False)
    defaults = Settings.from_env()
    assert defaults == Settings()
    monkeypatch.setenv("SH_CONNECTIONS_PER_ADDRESS", "7")
    monkeypatch.setenv("SH_SESSION_RATE", "2/second")
    s = Settings.from_env(limits={"connections_per_address": "9", "hello_timeout": "2.5"})
    assert (s.connections_per_address, s.session_rate, s.hello_timeout) == (9, "2/second", 2.5)
    for bad in (
        {"connections_per_address": "many"},
        {"session_rate": "often"},
        {"max_body": "0"},
        {"nope": "1"},
    ):
        with pytest.raises(ValueError):
            Settings.from_env(limits=bad)
    # a port out of range (the OS would bind 99999 modulo 65536) or not a number: refused
    with pytest.raises(ValueError, match="1 to 65535"):
        Settings.from_env(port=99999)
    monkeypatch.setenv("SH_PORT", "eighty" * 1000)
    with pytest.raises(ValueError, match="must be a port number") as info:
        Settings.from_env()
    assert len(str(info.value)) < 100  # the value is not echoed whole
    monkeypatch.delenv("SH_PORT")
    # the command line refuses a bad --limit or --port before it binds anything
    for flags, message in (
        (["--limit", "nope=1"], "unknown limit"),
        (["--port", "99999"], "1 to 65535"),
    ):
        out = subprocess.run(
            [sys.executable, "-m", "secret_hitler.cli", "serve", *flags],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert out.returncode == 2 and message in out.stderr, (flags, out.stderr[-300:])
        assert "Traceback" not in out.stderr
    # docs/security.md lists every limit with its setting, variable and default
    doc = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    section = doc.split("## Limits", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[1] in LIMIT_ENV:
            rows[cells[1]] = (cells[2], cells[3])
    assert set(rows) == set(LIMIT_ENV)
    for name, (env, default) in rows.items():
        assert env == LIMIT_ENV[name], name
        assert default == str(getattr(defaults, name)), name
