"""Optional accounts (docs/protocol.md "Accounts"): a guest claims a username and keeps every seat;
sign-in on another device is the same user; rename, password change, deletion with anonymised
games; sign-in failures say nothing about which part was wrong and are rate-limited; my games."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from server_support import Client, HttpError, Server, http, session

from secret_hitler.server.api.accounts import SLOW_AFTER, SLOW_MAX, slowdown

BOTS = {str(i): "random" for i in range(1, 5)}


def _err(fn: Any, *args: Any, **kw: Any) -> HttpError:
    with pytest.raises(HttpError) as info:
        fn(*args, **kw)
    return info.value


def _play_out(server: Server, token: str, table_id: str) -> dict[str, Any]:
    """Play seat 0 of a table of bots to the end; the record."""

    async def run() -> dict[str, Any]:
        c = Client(server, token, "seat0")
        await c.connect(table_id)
        await c.play(random.Random(3), claim_p=0.2, timeout=90)
        await c.close()
        assert c.record is not None
        return c.record

    return asyncio.run(run())


@pytest.mark.timeout(120)
def test_a_claimed_guest_signs_in_elsewhere_and_keeps_the_seat(
    make_server: Any, backend: str
) -> None:
    server: Server = make_server(backend)
    guest = session(server, "Alice")
    me = http(server, "GET", "/api/me", token=guest)
    table = http(server, "POST", "/api/tables", {"players": 5, "public": False}, token=guest)
    claimed = http(
        server, "POST", "/api/account", {"username": "alice", "password": "correct horse"}, guest
    )
    account = claimed.pop("token")  # a new session for the account; the guest's is revoked
    assert claimed == {"user_id": me["user_id"], "name": "Alice", "username": "alice"}
    assert account != guest and _err(http, server, "GET", "/api/me", token=guest).status == 401
    assert (
        _err(
            http,
            server,
            "POST",
            "/api/account",
            {"username": "b", "password": "x" * 8},
            token=account,
        ).code
        == "already_claimed"
    )
    # another guest cannot take the same username, nor one that looks the same
    other = session(server, "Bob")
    for taken in ("alice", "ALICE", "аlice"):  # the last one starts with a Cyrillic a
        e = _err(
            http,
            server,
            "POST",
            "/api/account",
            {"username": taken, "password": "y" * 8},
            token=other,
        )
        assert (e.status, e.code) == (409, "username_taken")
    # a second device: a new session of the same user, seated at the private table
    signed = http(server, "POST", "/api/signin", {"username": "Alice", "password": "correct horse"})
    assert signed["user_id"] == me["user_id"] and signed["token"] != guest
    second = signed["token"]
    assert http(server, "GET", "/api/me", token=second)["user_id"] == me["user_id"]
    mine = http(server, "GET", "/api/me/games", token=second)["games"]
    assert [(g["id"], g["seat"], g["status"], g["public"]) for g in mine] == [
        (table["id"], 0, "waiting", False)
    ]

    async def connect() -> None:
        c = Client(server, second, "second device")
        welcome = await c.connect(table["id"])
        assert welcome is not None and welcome["seat"] == 0
        await c.close()

    asyncio.run(connect())
    # the first device's session still works too
    assert http(server, "GET", "/api/me", token=account)["user_id"] == me["user_id"]


@pytest.mark.timeout(60)
def test_failed_sign_ins_look_the_same_and_bad_input_is_refused(server: Server) -> None:
    tok = session(server, "Carol")
    http(server, "POST", "/api/account", {"username": "carol", "password": "secret pass"}, tok)
    wrong = _err(
        http, server, "POST", "/api/signin", {"username": "carol", "password": "nope nope"}
    )
    unknown = _err(http, server, "POST", "/api/signin", {"username": "nobody", "password": "x" * 9})
    assert wrong.status == unknown.status == 401
    assert wrong.body == unknown.body  # no hint whether the username exists
    assert "carol" not in str(wrong.body) and "nobody" not in str(unknown.body)
    for body in ({"username": 3, "password": "x"}, {"username": "carol"}, {"extra": 1}):
        assert _err(http, server, "POST", "/api/signin", body).status == 400
    # a huge password is refused without being hashed whole, and never echoed
    e = _err(http, server, "POST", "/api/signin", {"username": "carol", "password": "p" * 100_000})
    assert e.status == 401 and "ppp" not in str(e.body)
    for bad in (
        {"username": "Bot 3", "password": "x" * 8},
        {"username": "dave", "password": "short"},
    ):
        other = session(server, "Dave")
        e = _err(http, server, "POST", "/api/account", bad, token=other)
        assert e.status == 400 and e.code in ("invalid_username", "invalid_password")
    assert (
        _err(http, server, "POST", "/api/account", {"username": "x", "password": "y" * 8}).status
        == 401
    )


@pytest.mark.timeout(60)
def test_sign_in_attempts_are_limited_per_username_and_per_address(make_server: Any) -> None:
    server: Server = make_server(SH_SIGNIN_RATE_USER="3/minute", SH_SIGNIN_RATE="6/minute")
    tok = session(server, "Erin")
    http(server, "POST", "/api/account", {"username": "erin", "password": "right password"}, tok)
    for _ in range(2):
        assert (
            _err(
                http,
                server,
                "POST",
                "/api/signin",
                {"username": "erin", "password": "wrong password"},
            ).status
            == 401
        )
    # (the claim above was attempt 1 for "erin") now even the right password waits
    e = _err(
        http, server, "POST", "/api/signin", {"username": "erin", "password": "right password"}
    )
    assert (e.status, e.code) == (429, "rate_limited")
    # the same answer for a username that does not exist: nothing to learn from the limit
    for _ in range(3):
        assert (
            _err(
                http, server, "POST", "/api/signin", {"username": "ghost", "password": "x" * 8}
            ).status
            == 401
        )
    e = _err(http, server, "POST", "/api/signin", {"username": "ghost", "password": "x" * 8})
    assert (e.status, e.code) == (429, "rate_limited")  # the address's 6 attempts are used up
    e = _err(http, server, "POST", "/api/signin", {"username": "frank", "password": "x" * 8})
    assert e.status == 429


@pytest.mark.timeout(90)
def test_a_flood_from_other_addresses_does_not_lock_the_owner_out(make_server: Any) -> None:
    """Attempts are limited per (username, address): addresses that try a username's passwords
    use up their own attempts, not its owner's; they only slow its sign-ins down."""
    server: Server = make_server(
        SH_TRUSTED_PROXIES="127.0.0.1", SH_SIGNIN_RATE_USER="3/10 minutes", SH_SIGNIN_RATE="5/hour"
    )

    def at(addr: str) -> dict[str, str]:
        return {"X-Forwarded-For": addr}

    owner = at("198.51.100.7")
    guest = http(server, "POST", "/api/session", {"name": "Olga"}, headers=owner)["token"]
    right = {"username": "olga", "password": "right password"}
    http(server, "POST", "/api/account", right, guest, headers=owner)
    wrong = {"username": "olga", "password": "wrong password"}
    for i in range(4):  # four addresses, three wrong passwords each: twelve failures
        for _ in range(3):
            e = _err(http, server, "POST", "/api/signin", wrong, headers=at(f"203.0.113.{i}"))
            assert e.status == 401
        e = _err(http, server, "POST", "/api/signin", right, headers=at(f"203.0.113.{i}"))
        assert (e.status, e.code) == (429, "rate_limited")  # that address's attempts are used
    assert http(server, "POST", "/api/signin", right, headers=owner)["username"] == "olga"
    assert http(server, "POST", "/api/signin", right, headers=at("192.0.2.1"))  # anywhere else


def test_failed_sign_ins_slow_a_username_down_without_refusing_it() -> None:
    pauses = [slowdown(n) for n in range(SLOW_AFTER + 8)]
    assert pauses[:SLOW_AFTER] == [0.0] * SLOW_AFTER
    assert all(
        b == min(SLOW_MAX, 2 * a)
        for a, b in zip(pauses[SLOW_AFTER:], pauses[SLOW_AFTER + 1 :], strict=False)
    )
    assert slowdown(10_000) == SLOW_MAX


@pytest.mark.timeout(60)
def test_rename_and_password_change(server: Server) -> None:
    guest = session(server, "Gina")
    body = {"username": "gina", "password": "first password"}
    first = http(server, "POST", "/api/account", body, guest)["token"]
    second = http(
        server, "POST", "/api/signin", {"username": "gina", "password": "first password"}
    )["token"]
    renamed = http(server, "PATCH", "/api/account", {"name": "Gina B"}, token=first)
    assert renamed["name"] == "Gina B"
    assert http(server, "GET", "/api/me", token=second)["name"] == "Gina B"  # every device
    e = _err(
        http,
        server,
        "PATCH",
        "/api/account",
        {"password": "second password", "current_password": "not it at all"},
        token=first,
    )
    assert (e.status, e.code) == (403, "wrong_password")
    assert (
        _err(http, server, "PATCH", "/api/account", {"name": "Bot 2"}, token=first).code
        == "invalid_name"
    )
    http(
        server,
        "PATCH",
        "/api/account",
        {"password": "second password", "current_password": "first password"},
        token=first,
    )
    # the other session is signed out; this one stays
    assert _err(http, server, "GET", "/api/me", token=second).status == 401
    assert http(server, "GET", "/api/me", token=first)["username"] == "gina"
    assert (
        _err(
            http, server, "POST", "/api/signin", {"username": "gina", "password": "first password"}
        ).status
        == 401
    )
    assert http(server, "POST", "/api/signin", {"username": "gina", "password": "second password"})
    # a guest may rename, but has no password to change
    guest = session(server, "Hal")
    assert http(server, "PATCH", "/api/account", {"name": "Hal 9"}, token=guest)["name"] == "Hal 9"
    assert (
        _err(
            http,
            server,
            "PATCH",
            "/api/account",
            {"password": "x" * 8, "current_password": "y" * 8},
            token=guest,
        ).code
        == "not_claimed"
    )


@pytest.mark.timeout(180)
def test_a_deleted_account_leaves_its_games_anonymised(make_server: Any, backend: str) -> None:
    server: Server = make_server(backend)
    guest = session(server, "Ivy")
    me = http(server, "GET", "/api/me", token=guest)
    body = {"username": "ivy", "password": "ivy password"}
    tok = http(server, "POST", "/api/account", body, guest)["token"]
    table = http(server, "POST", "/api/tables", {"players": 5, "bots": BOTS}, token=tok)
    _play_out(server, tok, table["id"])

    async def chat() -> None:
        c = Client(server, tok, "ivy")
        await c.connect(table["id"])
        await c.send({"v": 1, "type": "chat", "id": "c1", "text": "good game"})
        await c.recv_until(lambda m: m["type"] == "ack")
        await c.close()

    asyncio.run(chat())
    waiting = http(server, "POST", "/api/tables", {"players": 5}, token=tok)
    assert (
        _err(http, server, "DELETE", "/api/account", {"password": "wrong one!"}, token=tok).code
        == "wrong_password"
    )
    assert http(server, "DELETE", "/api/account", {"password": "ivy password"}, token=tok) == {
        "deleted": True
    }
    assert _err(http, server, "GET", "/api/me", token=tok).status == 401
    assert (
        _err(
            http, server, "POST", "/api/signin", {"username": "ivy", "password": "ivy password"}
        ).status
        == 401
    )

    def check() -> None:
        record = http(server, "GET", f"/api/games/{table['id']}/record")
        assert record["players"][0] == "Deleted player 1"
        assert "Ivy" not in str(record) and me["user_id"] not in str(record)
        assert [(m["name"], m["user_id"]) for m in record["chat"]] == [("Deleted player 1", None)]
        detail = http(server, "GET", f"/api/tables/{table['id']}")
        assert "Ivy" not in str(detail) and me["user_id"] not in str(detail)

    check()  # from the live table
    assert http(server, "GET", f"/api/tables/{waiting['id']}")["seats"][0]["kind"] == "empty"
    server.stop()
    server.start()
    check()  # from the database
    # the username is free again
    fresh = session(server, "Ivy again")
    http(server, "POST", "/api/account", {"username": "ivy", "password": "new ivy pass"}, fresh)


@pytest.mark.timeout(180)
def test_my_games_lists_every_seat_with_whose_turn_it_is(server: Server) -> None:
    tok = session(server, "Jo")
    other = session(server, "Kim")
    waiting = http(server, "POST", "/api/tables", {"players": 5, "public": False}, token=tok)
    done = http(server, "POST", "/api/tables", {"players": 5, "bots": BOTS}, token=tok)
    _play_out(server, tok, done["id"])
    playing = http(
        server,
        "POST",
        "/api/tables",
        {
            "players": 5,
            "bots": {"0": "random", "2": "random", "3": "random", "4": "random"},
            "seat": None,
            "timer": 3 * 86400,
        },
        token=other,
    )
    http(server, "POST", f"/api/tables/{playing['id']}/join", {"seat": 1}, token=tok)
    not_mine = http(server, "POST", "/api/tables", {"players": 5}, token=other)

    async def view() -> tuple[dict[str, Any], dict[str, Any]]:
        """Jo's view once the game waits for her alone, and her games asked while it still
        does: the bots act at once, so a view where Jo is one of several to act (a vote still
        open to the bots) may be gone by the time the games are asked; a decision that waits
        on Jo alone stays while she is connected (no stand-in moves for her; the timer is
        days long). The first round always comes to one: her nomination, or the vote once the
        bots have voted."""
        c = Client(server, tok, "jo")
        welcome = await c.connect(playing["id"])
        assert welcome is not None
        await c.recv_until(lambda m: c.view is not None and c.view["to_act"] == [1], timeout=30)
        assert c.view is not None
        mine = await asyncio.to_thread(http, server, "GET", "/api/me/games", None, tok)
        await c.close()
        return c.view, mine

    seen, mine = asyncio.run(view())
    games = {g["id"]: g for g in mine["games"]}
    assert set(games) == {waiting["id"], done["id"], playing["id"]}
    assert not_mine["id"] not in games
    assert games[waiting["id"]]["status"] == "waiting" and not games[waiting["id"]]["public"]
    assert games[done["id"]]["status"] == "finished" and games[done["id"]]["winner"]
    p = games[playing["id"]]
    assert p["status"] == "playing" and p["seat"] == 1 and p["timer"] == 3 * 86400
    assert p["to_act"] == seen["to_act"] and p["your_turn"] is True and p["deadline"]
    assert _err(http, server, "GET", "/api/me/games").status == 401
