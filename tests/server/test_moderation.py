"""Moderation on a real server: reports, blocklists (blocked players never share a table), and
``secret-hitler admin`` on the server's database while it runs (bans, closing a table)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from server_support import Client, HttpError, Server, http, session, wait_for
from typer.testing import CliRunner

from secret_hitler.cli import app

FAST = {"SH_MODERATION_REFRESH": "0.1", "SH_REPORT_RATE": "1000/hour"}


def _works(fn: Any) -> Any:
    """``fn()``, or False while the server still refuses it (a ban is read within a moment)."""

    def attempt() -> Any:
        try:
            return fn()
        except HttpError:
            return False

    return attempt


def _me(server: Server, token: str) -> str:
    return str(http(server, "GET", "/api/me", token=token)["user_id"])


def _admin(server: Server, *args: str) -> Any:
    """``secret-hitler admin ARGS`` on the server's database (its data folder or DATABASE_URL)."""
    env = {"SH_DATA": str(server.data), "DATABASE_URL": server.database_url or ""}
    return CliRunner().invoke(app, ["admin", *args], env=env)


def _refused(server: Server, method: str, path: str, body: Any, token: str | None) -> HttpError:
    with pytest.raises(HttpError) as err:
        http(server, method, path, body, token)
    return err.value


def _code(server: Server, method: str, path: str, body: Any = None) -> str | None:
    """The error code of a request, or None when it succeeds."""
    try:
        http(server, method, path, body)
    except HttpError as exc:
        return exc.code
    return None


@pytest.fixture
def mserver(make_server: Any, backend: str) -> Server:
    return make_server(backend, **FAST)  # type: ignore[no-any-return]


def test_reports_are_checked_and_listed_by_admin(mserver: Server) -> None:
    server = mserver
    alice, bob = session(server, "Alice"), session(server, "Bob")
    bob_id = _me(server, bob)
    table = http(
        server,
        "POST",
        "/api/tables",
        {"players": 5, "bots": {str(i): "random" for i in range(1, 5)}},
        alice,
    )
    gid = table["id"]
    report = http(
        server,
        "POST",
        "/api/reports",
        {"player": bob_id, "reason": "insults in chat", "game": gid, "moment": 0},
        alice,
    )
    assert isinstance(report["id"], int)
    bad = [  # (body, token, status, code, the refused field the answer names)
        ({"player": bob_id, "reason": "x"}, None, 401, "unauthorized", None),
        ({"player": "u_nobody", "reason": "x"}, alice, 404, "not_found", "player"),
        ({"player": _me(server, alice), "reason": "x"}, alice, 400, "invalid_request", "player"),
        ({"player": bob_id, "reason": "   "}, alice, 400, "invalid_request", None),
        ({"player": bob_id, "reason": "x" * 501}, alice, 400, "invalid_request", None),
        ({"player": bob_id, "reason": "x", "moment": 3}, alice, 400, "invalid_request", "moment"),
        ({"player": bob_id, "reason": "x", "game": "tnothing"}, alice, 404, "not_found", "game"),
        (
            {"player": bob_id, "reason": "x", "game": gid, "moment": 100000},
            alice,
            400,
            "invalid_request",
            "moment",
        ),
        ({"player": bob_id, "reason": "x", "extra": 1}, alice, 400, "invalid_request", None),
    ]
    for body, token, status, code, field in bad:
        err = _refused(server, "POST", "/api/reports", body, token)
        assert (err.status, err.code) == (status, code), body
        if field is not None:
            assert err.body["error"].get("field") == field, body
    result = _admin(server, "reports", "list", "--json")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == 1  # the refused reports changed nothing
    assert rows[0]["target"] == bob_id and rows[0]["game_id"] == gid and rows[0]["moment"] == 0
    text = _admin(server, "reports", "list")
    assert f"reported {bob_id} game {gid} at action 0: 'insults in chat'" in text.output


def test_a_report_tells_nothing_of_a_private_game_and_is_limited_first(make_server: Any) -> None:
    server: Server = make_server(SH_REPORT_RATE="6/hour")
    alice, bob, carol = session(server, "Alice"), session(server, "Bob"), session(server, "Carol")
    bob_id = _me(server, bob)
    bots = {str(i): "random" for i in range(1, 5)}
    private = http(
        server, "POST", "/api/tables", {"players": 5, "bots": bots, "public": False}, carol
    )
    gid = private["id"]
    # Alice, an outsider, gets the answer a game that does not exist gets, whatever the moment
    answers = []
    for game, moment in ((gid, 0), (gid, 100000), ("tnothing", 0), ("tnothing", 100000)):
        body = {"player": bob_id, "reason": "x", "game": game, "moment": moment}
        err = _refused(server, "POST", "/api/reports", body, alice)
        answers.append((err.status, err.code, err.body["error"]["message"].replace(game, "?")))
    assert len(set(answers)) == 1 and answers[0][:2] == (404, "not_found"), answers
    # a member may report at a moment of it (the count is not told either way)
    body = {"player": bob_id, "reason": "x", "game": gid, "moment": 100000}
    err = _refused(server, "POST", "/api/reports", body, carol)
    assert (err.code, str(100000) in err.body["error"]["message"]) == ("invalid_request", False)
    assert http(server, "POST", "/api/reports", {**body, "moment": 0}, carol)["id"]
    # the address's limit (6 an hour here) is checked before anything is looked up
    err = _refused(server, "POST", "/api/reports", {"player": "u_nobody", "reason": "x"}, carol)
    assert (err.status, err.code) == (429, "rate_limited")


def test_blocked_players_do_not_meet_at_a_table(server: Server) -> None:
    alice, bob, carol = (session(server, n) for n in ("Alice", "Bob", "Carol"))
    bob_id = _me(server, bob)
    assert http(server, "POST", "/api/blocks", {"player": bob_id}, alice) == {"blocked": bob_id}
    listed = http(server, "GET", "/api/blocks", token=alice)["blocked"]
    assert listed == [{"user_id": bob_id, "name": "Bob"}]
    assert http(server, "GET", "/api/blocks", token=bob)["blocked"] == []  # hers, not his
    by_alice = http(server, "POST", "/api/tables", {"players": 5}, alice)["id"]
    by_bob = http(server, "POST", "/api/tables", {"players": 5}, bob)["id"]
    # both directions are refused, with a code that does not say who blocked whom
    for tid, token in ((by_alice, bob), (by_bob, alice)):
        err = _refused(server, "POST", f"/api/tables/{tid}/join", {}, token)
        assert (err.status, err.code) == (403, "blocked")
        assert "Alice" not in err.body["error"]["message"]
    assert all(
        s["user_id"] != bob_id for s in http(server, "GET", f"/api/tables/{by_alice}")["seats"]
    )
    http(server, "POST", f"/api/tables/{by_alice}/join", {}, carol)  # others are not affected
    err = _refused(server, "POST", "/api/blocks", {"player": "u_nobody"}, alice)
    assert err.code == "not_found"
    http(server, "DELETE", f"/api/blocks/{bob_id}", token=alice)
    assert http(server, "GET", "/api/blocks", token=alice)["blocked"] == []
    http(server, "POST", f"/api/tables/{by_alice}/join", {}, bob)
    err = _refused(server, "DELETE", f"/api/blocks/{bob_id}", None, alice)
    assert err.code == "not_found"


def test_a_banned_user_is_refused_and_an_address_ban_stops_new_sessions(mserver: Server) -> None:
    server = mserver
    alice, bob = session(server, "Alice"), session(server, "Bob")
    bob_id = _me(server, bob)
    table = http(server, "POST", "/api/tables", {"players": 5}, alice)["id"]

    async def connected() -> Client:
        c = Client(server, bob, "bob")
        await c.connect(table)
        return c

    async def scenario() -> None:
        client = await connected()
        result = await asyncio.to_thread(_admin, server, "ban", "user", bob_id, "--reason", "spam")
        assert result.exit_code == 0, result.output
        # the open connection is told and closed; new requests and connections are refused
        m = await client.recv_until(lambda m: m["type"] == "error" and m["code"] == "banned")
        assert m["code"] == "banned"
        again = Client(server, bob, "bob again")
        await again.connect(table, hello=False)
        refusal = await again.recv()
        assert refusal["code"] == "banned"
        await client.close()
        await again.close()

    asyncio.run(scenario())
    err = _refused(server, "GET", "/api/me", None, bob)
    assert (err.status, err.code) == (403, "banned")
    assert _me(server, alice)  # others are not affected
    assert "already banned" in _admin(server, "ban", "user", bob_id).output
    assert _admin(server, "ban", "user", "u_nobody").exit_code == 1
    assert _admin(server, "unban", "user", bob_id).exit_code == 0
    wait_for(_works(lambda: _me(server, bob)))
    # an address: no new sessions from it, and no credential either (test below)
    assert _admin(server, "ban", "address", "not-an-ip").exit_code == 2
    assert _admin(server, "ban", "address", "127.0.0.0/8").exit_code == 0
    wait_for(lambda: _code(server, "POST", "/api/session", {"name": "Mallory"}) == "banned")
    assert _refused(server, "GET", "/api/me", None, alice).code == "banned"
    assert _admin(server, "unban", "address", "127.0.0.1").exit_code == 1  # not what was banned
    assert _admin(server, "unban", "address", "127.0.0.0/8").exit_code == 0
    wait_for(_works(lambda: session(server, "Mallory")))
    assert _me(server, alice)


def test_an_address_ban_ends_every_session_used_from_it(make_server: Any) -> None:
    """Sign-in, new sessions, tokens issued before the ban and open sockets: nothing works from
    a banned address (the client's, behind a trusted proxy), and nobody else is touched."""
    server: Server = make_server(SH_TRUSTED_PROXIES="127.0.0.1", **FAST)
    banned = {"X-Forwarded-For": "198.51.100.1, 203.0.113.9"}  # the proxy saw 203.0.113.9
    other = {"X-Forwarded-For": "203.0.113.9, 198.51.100.20"}  # one who wrote it herself
    guest = http(server, "POST", "/api/session", {"name": "Mallory"}, headers=banned)["token"]
    account = {"username": "mallory", "password": "mallory password"}
    mallory = http(server, "POST", "/api/account", account, guest, headers=banned)["token"]
    alice = http(server, "POST", "/api/session", {"name": "Alice"}, headers=other)["token"]
    table = http(server, "POST", "/api/tables", {"players": 5}, alice, headers=other)["id"]

    async def scenario() -> None:
        c = Client(server, mallory, "mallory", headers=banned)
        await c.connect(table)
        result = await asyncio.to_thread(_admin, server, "ban", "address", "203.0.113.0/24")
        assert result.exit_code == 0, result.output
        m = await c.recv_until(lambda m: m["type"] == "error")
        assert m["code"] == "banned"  # the open socket is told and closed
        await c.close()
        again = Client(server, mallory, "mallory again", headers=banned)
        await again.connect(table, hello=False)
        assert (await again.recv())["code"] == "banned"
        await again.close()

    asyncio.run(scenario())
    for method, path, body, token in (
        ("GET", "/api/me", None, mallory),  # a token issued before the ban
        ("POST", "/api/session", {"name": "Mallory"}, None),
        ("POST", "/api/signin", account, None),  # the right password
    ):
        with pytest.raises(HttpError) as err:
            http(server, method, path, body, token, headers=banned)
        assert (err.value.status, err.value.code) == (403, "banned"), path
    assert http(server, "GET", "/api/me", token=alice, headers=other)["name"] == "Alice"


def test_admin_closes_a_playing_table(mserver: Server) -> None:
    server = mserver
    alice = session(server, "Alice")
    bots = {str(i): "random" for i in range(1, 5)}
    tid = http(server, "POST", "/api/tables", {"players": 5, "bots": bots, "seat": 0}, alice)["id"]

    async def scenario() -> None:
        c = Client(server, alice, "alice")
        await c.connect(tid)
        result = await asyncio.to_thread(_admin, server, "close-table", tid)
        assert result.exit_code == 0, result.output
        m = await c.recv_until(lambda m: m["type"] == "error" and m["code"] == "table_closed")
        assert m["code"] == "table_closed"
        await c.close()

    asyncio.run(scenario())
    detail = wait_for(
        lambda: (d := http(server, "GET", f"/api/tables/{tid}"))["status"] == "closed" and d
    )
    assert detail["status"] == "closed"
    assert tid not in [t["id"] for t in http(server, "GET", "/api/tables")["tables"]]
    assert _admin(server, "close-table", tid).exit_code == 1  # only waiting or playing tables


def test_admin_works_without_a_server(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["admin", "--data", str(tmp_path / "d"), "reports", "list"], env={"DATABASE_URL": ""}
    )
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "no reports"


def test_a_closure_outlives_the_server_rewriting_the_table(
    make_server: Any, tmp_path: Path
) -> None:
    """The closure is kept apart from the table's row: if the server wrote the row back as
    ``waiting`` after the admin's write (a join at that moment), the table still closes, at
    once or at the next start."""
    import sqlalchemy as sa

    from secret_hitler.server.core.config import database_url_for
    from secret_hitler.server.storage import db

    data = tmp_path / "closing"
    server = make_server(data=data, **FAST)
    alice = session(server, "Alice")
    tid = http(server, "POST", "/api/tables", {"players": 5}, alice)["id"]
    server.stop()
    assert _admin(server, "close-table", tid).exit_code == 0
    engine = db.make_engine(database_url_for(None, data))
    with engine.begin() as conn:  # the row as a racing join would have written it
        conn.execute(db.tables.update().where(db.tables.c.id == tid).values(status="waiting"))
        assert conn.execute(sa.select(db.closed_tables.c.table_id)).scalars().all() == [tid]
    engine.dispose()
    again = make_server(data=data, **FAST)
    assert http(again, "GET", f"/api/tables/{tid}")["status"] == "closed"
    assert http(again, "GET", "/api/tables")["tables"] == []
    assert _refused(again, "POST", f"/api/tables/{tid}/join", {}, alice).code == "not_found"
