"""Tables that look after themselves (docs/protocol.md "Hosting"): the host role passes on, abandoned
waiting tables close, the host names the table and frees or hands over seats, rematch, and the
remake vote."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from server_support import Client, HttpError, Server, http, session, wait_for

BOTS = {str(i): "random" for i in range(1, 5)}


def _err(fn: Any, *args: Any, **kw: Any) -> HttpError:
    with pytest.raises(HttpError) as info:
        fn(*args, **kw)
    return info.value


def _me(server: Server, token: str) -> str:
    return str(http(server, "GET", "/api/me", token=token)["user_id"])


@pytest.mark.timeout(90)
def test_the_host_role_passes_on_leave_and_when_offline(make_server: Any) -> None:
    server: Server = make_server(SH_GRACE="1")
    a, b, c = (session(server, n) for n in ("Ann", "Ben", "Cat"))
    t = http(server, "POST", "/api/tables", {"players": 5}, token=a)["id"]
    for tok in (b, c):
        http(server, "POST", f"/api/tables/{t}/join", {}, token=tok)
    http(server, "POST", f"/api/tables/{t}/leave", token=a)
    detail = http(server, "GET", f"/api/tables/{t}")
    assert (detail["host"], detail["host_name"]) == (_me(server, b), "Ben")  # the next seat

    async def run() -> None:
        cb, cc = Client(server, b, "ben"), Client(server, c, "cat")
        await cb.connect(t)
        await cc.connect(t)
        await cb.close()  # Ben goes offline; Cat stays
        m = await cc.recv_until(
            lambda m: m["type"] == "table" and m["table"]["host"] != _me(server, b), timeout=15
        )
        assert m["table"]["host_name"] == "Cat"
        await cc.close()

    asyncio.run(run())
    assert _err(http, server, "POST", f"/api/tables/{t}/bots", {}, token=b).code == "not_host"


@pytest.mark.timeout(90)
def test_waiting_tables_nobody_is_at_close(make_server: Any) -> None:
    server: Server = make_server(SH_OFFLINE_EXPIRY="1.5")
    a, b = session(server, "Dan"), session(server, "Eve")
    empty = http(server, "POST", "/api/tables", {"players": 5}, token=a)["id"]
    watched = http(server, "POST", "/api/tables", {"players": 5}, token=b)["id"]

    async def run() -> None:
        cb = Client(server, b, "eve")
        await cb.connect(watched)
        await asyncio.to_thread(
            wait_for, lambda: http(server, "GET", f"/api/tables/{empty}")["status"] == "expired"
        )
        # Eve is connected: her table stays, even though it is as old
        assert http(server, "GET", f"/api/tables/{watched}")["status"] == "waiting"
        await cb.close()
        await asyncio.to_thread(
            wait_for, lambda: http(server, "GET", f"/api/tables/{watched}")["status"] == "expired"
        )

    asyncio.run(run())
    assert all(
        t["id"] not in (empty, watched) for t in http(server, "GET", "/api/tables")["tables"]
    )


@pytest.mark.timeout(120)
def test_the_host_names_the_table_and_frees_or_hands_over_seats(server: Server) -> None:
    a, b, c = (session(server, n) for n in ("Fay", "Gus", "Hob"))
    t = http(server, "POST", "/api/tables", {"players": 5, "auto_start": False}, token=a)["id"]
    http(server, "POST", f"/api/tables/{t}/join", {"seat": 1}, token=b)
    http(server, "POST", f"/api/tables/{t}/join", {"seat": 2}, token=c)
    assert (
        http(server, "PATCH", f"/api/tables/{t}", {"name": "Friday game"}, token=a)["name"]
        == "Friday game"
    )
    assert (
        _err(http, server, "PATCH", f"/api/tables/{t}", {"name": "x"}, token=b).code == "not_host"
    )
    e = _err(http, server, "PATCH", f"/api/tables/{t}", {"name": "a\u202eb"}, token=a)
    assert (e.code, e.field) == ("invalid_table_name", "name")
    assert http(server, "GET", f"/api/tables/{t}")["name"] == "Friday game"  # unchanged

    async def kick() -> None:
        cb = Client(server, b, "gus")
        assert (await cb.connect(t))["seat"] == 1  # type: ignore[index]
        http(server, "POST", f"/api/tables/{t}/seats/1", {"to": "empty"}, token=a)
        m = await cb.recv_until(lambda m: m["type"] == "welcome")
        assert m["seat"] is None  # Gus watches now
        await cb.close()

    asyncio.run(kick())
    seats = http(server, "GET", f"/api/tables/{t}")["seats"]
    assert seats[1]["kind"] == "empty"
    assert _err(http, server, "POST", f"/api/tables/{t}/join", {}, token=b).code == "removed"
    http(server, "PATCH", f"/api/tables/{t}", {"name": ""}, token=a)
    assert http(server, "GET", f"/api/tables/{t}")["name"] is None
    assert (
        _err(http, server, "POST", f"/api/tables/{t}/seats/0", {"to": "empty"}, token=a).code
        == "bad_seat"
    )
    assert (
        _err(http, server, "POST", f"/api/tables/{t}/seats/2", {"to": "empty"}, token=c).code
        == "not_host"
    )
    assert (
        _err(http, server, "POST", f"/api/tables/{t}/seats/2", {"to": "away"}, token=a).status
        == 400
    )
    detail = http(server, "POST", f"/api/tables/{t}/seats/2", {"to": "bot"}, token=a)
    assert detail["seats"][2]["kind"] == "bot"
    # during a game: only an offline player's seat, and only to a bot
    g = http(
        server,
        "POST",
        "/api/tables",
        {"players": 5, "bots": {"2": "random", "3": "random", "4": "random"}},
        token=a,
    )["id"]
    http(server, "POST", f"/api/tables/{g}/join", {"seat": 1}, token=b)

    async def in_game() -> None:
        cb = Client(server, b, "gus")
        await cb.connect(g)
        e = _err(http, server, "POST", f"/api/tables/{g}/seats/1", {"to": "bot"}, token=a)
        assert e.code == "player_online"
        assert (
            _err(http, server, "POST", f"/api/tables/{g}/seats/1", {"to": "empty"}, token=a).code
            == "not_waiting"
        )
        await cb.close()
        await asyncio.to_thread(
            wait_for, lambda: not http(server, "GET", f"/api/tables/{g}")["seats"][1]["connected"]
        )
        d = http(server, "POST", f"/api/tables/{g}/seats/1", {"to": "bot"}, token=a)
        assert d["seats"][1]["kind"] == "bot" and d["seats"][1]["name"] == "Gus"

    asyncio.run(in_game())


@pytest.mark.timeout(120)
def test_rematch_opens_a_table_with_the_same_people_and_settings(server: Server) -> None:
    a, b = session(server, "Ida"), session(server, "Jon")
    rules = {"preset": "forum"}
    first = http(
        server,
        "POST",
        "/api/tables",
        {
            "players": 5,
            "bots": BOTS,
            "rules": rules,
            "public": False,
            "timer": 7200,
            "name": "League",
        },
        token=a,
    )
    t = first["id"]
    assert (
        _err(http, server, "POST", f"/api/tables/{t}/rematch", token=a).code == "game_not_finished"
    )

    async def play() -> None:
        c = Client(server, a, "ida")
        await c.connect(t)
        await c.play(random.Random(5), claim_p=0.0, timeout=90)
        await c.close()

    asyncio.run(play())
    assert _err(http, server, "POST", f"/api/tables/{t}/rematch", token=b).status == 404  # private
    new = http(server, "POST", f"/api/tables/{t}/rematch", token=a)
    assert new["id"] != t and new["status"] == "waiting" and new["auto_start"] is False
    for key in ("players", "rules", "public", "timer", "bot_level", "name"):
        assert new[key] == first[key], key
    assert [(s["kind"], s["name"], s["user_id"]) for s in new["seats"]] == [
        (s["kind"], s["name"], s["user_id"]) for s in first["seats"]
    ]
    assert http(server, "GET", f"/api/tables/{t}", token=a)["rematch"] == new["id"]
    assert http(server, "POST", f"/api/tables/{t}/rematch", token=a)["id"] == new["id"]  # once
    started = http(server, "POST", f"/api/tables/{new['id']}/start", token=a)
    assert started["status"] == "playing"


@pytest.mark.timeout(150)
def test_rematch_of_a_finished_table_the_server_no_longer_holds(make_server: Any) -> None:
    server: Server = make_server()
    a, b = session(server, "Ola"), session(server, "Pia")
    first = http(
        server, "POST", "/api/tables", {"players": 5, "bots": BOTS, "name": "Later"}, token=a
    )
    t = first["id"]

    async def play() -> None:
        c = Client(server, a, "ola")
        await c.connect(t)
        await c.play(random.Random(3), claim_p=0.0, timeout=90)
        await c.close()

    asyncio.run(play())
    server.stop()
    server.start()  # finished tables are not restored: only the database knows this one
    assert _err(http, server, "POST", f"/api/tables/{t}/rematch", token=b).code == "not_seated"
    new = http(server, "POST", f"/api/tables/{t}/rematch", token=a)
    assert new["id"] != t and new["status"] == "waiting" and new["name"] == "Later"
    assert [(s["kind"], s["user_id"]) for s in new["seats"]] == [
        (s["kind"], s["user_id"]) for s in first["seats"]
    ]
    assert http(server, "GET", f"/api/tables/{t}", token=a)["rematch"] == new["id"]
    assert http(server, "POST", f"/api/tables/{t}/rematch", token=a)["id"] == new["id"]  # once


async def _vote_down_the_first_government(cl: Client) -> None:
    """Nominate if asked, vote nein, and stop once round 1's vote is in: the three humans outvote
    the two bots, so no policy can be enacted and the game waits in round 2 for people."""
    while cl.view is None or cl.view["round"] == 1:
        turn = cl.my_turn_actions() if cl.view is not None else []
        if turn and cl.seat in cl.view["to_act"]:  # type: ignore[index]
            action = next(a for a in turn if a["type"] != "vote" or a["ja"] is False)
            await cl.send({"v": 1, "type": "action", "id": f"a{cl.seq}", "action": action})
        await cl.recv_until(lambda m: m["type"] in ("update", "welcome"))


# Each person's requests come from an address of her own (the server believes 127.0.0.1 as a
# proxy): sessions that vote from one address count as one person (issue 37 point 4).
PROXIED = {"SH_TRUSTED_PROXIES": "127.0.0.1"}


def _from(addr: str) -> dict[str, str]:
    return {"X-Forwarded-For": addr}


@pytest.mark.timeout(150)
def test_a_remake_vote_deals_the_game_anew(make_server: Any) -> None:
    server: Server = make_server(SH_REMAKE_WINDOW="2", **PROXIED)
    a, b, c = (session(server, n) for n in ("Kai", "Lea", "Max"))
    spectator = session(server, "Ned")
    t = http(
        server,
        "POST",
        "/api/tables",
        {"players": 5, "bots": {"3": "random", "4": "random"}},
        token=a,
    )["id"]
    http(server, "POST", f"/api/tables/{t}/join", {"seat": 1}, token=b)
    http(server, "POST", f"/api/tables/{t}/join", {"seat": 2}, token=c)
    path = f"/api/tables/{t}/remake"

    async def run() -> None:
        clients = [Client(server, tok, f"seat{i}") for i, tok in enumerate((a, b, c))]
        for cl in clients:
            await cl.connect(t)
        await asyncio.gather(*(_vote_down_the_first_government(cl) for cl in clients))
        watcher = clients[2]
        assert (
            _err(http, server, "POST", path, {"vote": True}, token=spectator).code == "not_a_voter"
        )
        assert _err(http, server, "POST", path, {"vote": False}, token=a).code == "no_vote"
        d = http(server, "POST", path, {"vote": True}, token=a, headers=_from("198.51.100.1"))
        assert d["remade"] is False and d["remake"]["yes"] == 1 and d["remake"]["needed"] == 2
        m = await watcher.recv_until(lambda m: m["type"] == "table" and m["table"]["remake"])
        assert _me(server, a) not in str(m["table"]["remake"])  # anonymous: counts only
        # nobody joins in within the window: the poll closes, and everyone sees how it went
        m = await watcher.recv_until(
            lambda m: m["type"] == "table" and m["table"]["remake"] is None
        )
        result = m["table"]["remake_result"]
        assert (result["passed"], result["yes"], result["no"], result["needed"]) == (
            False,
            1,
            0,
            2,
        )
        lea = _from("198.51.100.2")
        assert http(server, "POST", path, {"vote": True}, token=b, headers=lea)["remade"] is False
        done = http(server, "POST", path, {"vote": True}, token=a, headers=_from("198.51.100.1"))
        assert done["remade"] is True and done["remake_result"]["passed"] is True
        m = await watcher.recv_until(lambda m: m["type"] == "welcome")
        # a new game from its start (only the first nomination and bot votes can be in it)
        assert m["view"]["round"] == 1 and m["seq"] <= 4 and not m["view"]["votes"][0]
        for cl in clients:
            await cl.close()

    asyncio.run(run())
    server.stop()
    server.start()
    assert http(server, "GET", f"/api/tables/{t}")["status"] == "playing"  # the new game restores


@pytest.mark.timeout(90)
def test_a_host_who_never_connects_hands_over_to_someone_who_is_here(make_server: Any) -> None:
    server: Server = make_server(SH_GRACE="1")
    a, b, c = (session(server, n) for n in ("Ivy", "Jon", "Kim"))
    t = http(server, "POST", "/api/tables", {"players": 5, "auto_start": False}, token=a)["id"]
    for tok in (b, c):
        http(server, "POST", f"/api/tables/{t}/join", {}, token=tok)

    async def run() -> None:
        cc = Client(server, c, "kim")  # Ivy (host) and Jon never connect; Kim does
        await cc.connect(t)
        m = await cc.recv_until(
            lambda m: m["type"] == "table" and m["table"]["host"] != _me(server, a), timeout=15
        )
        assert m["table"]["host_name"] == "Kim"  # not Jon, the next seat, who is not here
        await cc.close()

    asyncio.run(run())


@pytest.mark.timeout(120)
def test_a_removed_person_stays_removed_after_a_restart(
    make_server: Any, backend: str, tmp_path: Any
) -> None:
    data = tmp_path / "restart"
    server: Server = make_server(backend, data=data)
    a, b = session(server, "Lou"), session(server, "Max")
    t = http(server, "POST", "/api/tables", {"players": 5, "auto_start": False}, token=a)["id"]
    http(server, "POST", f"/api/tables/{t}/join", {}, token=b)
    http(server, "POST", f"/api/tables/{t}/seats/1", {"to": "empty"}, token=a)
    url = server.database_url
    server.stop()
    again: Server = make_server(backend, data=data, database_url=url)
    assert http(again, "GET", f"/api/tables/{t}")["status"] == "waiting"
    assert _err(http, again, "POST", f"/api/tables/{t}/join", {}, token=b).code == "removed"


def _enacted(cl: Client) -> bool:
    view = cl.view or {}
    return bool(view.get("liberal_policies") or view.get("fascist_policies"))


@pytest.mark.timeout(150)
def test_a_remake_poll_that_passes_after_the_first_policy_fails(make_server: Any) -> None:
    """The too-late check runs again when the poll passes, not only when it opens."""
    server: Server = make_server(SH_REMAKE_WINDOW="600", **PROXIED)
    a, b = session(server, "Oda"), session(server, "Pia")
    bots = {str(i): "random" for i in range(2, 5)}
    t = http(server, "POST", "/api/tables", {"players": 5, "bots": bots}, token=a)["id"]
    http(server, "POST", f"/api/tables/{t}/join", {"seat": 1}, token=b)
    path = f"/api/tables/{t}/remake"

    async def run() -> None:
        clients = [Client(server, tok, f"seat{i}") for i, tok in enumerate((a, b))]
        for cl in clients:
            await cl.connect(t)
        opened = http(server, "POST", path, {"vote": True}, token=a, headers=_from("198.51.100.1"))
        # (before any policy)
        assert opened["remade"] is False and opened["remake"]["needed"] == 2
        rng = random.Random(3)
        await asyncio.gather(*(cl.play(rng, claim_p=0.0, stop=_enacted) for cl in clients))
        err = _err(  # the deciding vote
            http, server, "POST", path, {"vote": True}, token=b, headers=_from("198.51.100.2")
        )
        assert (err.status, err.code) == (409, "too_late")
        detail = http(server, "GET", f"/api/tables/{t}")
        assert detail["remake"] is None and detail["remake_result"]["passed"] is False
        m = await clients[0].recv_until(
            lambda m: m["type"] == "table" and m["table"]["remake"] is None
        )
        assert m["table"]["remake_result"]["passed"] is False  # everyone is told
        assert clients[0].seq > 1 and _enacted(clients[0])  # the game was not dealt again
        for cl in clients:
            await cl.close()

    asyncio.run(run())


@pytest.mark.timeout(60)
def test_a_lone_person_among_bots_cannot_remake(server: Server) -> None:
    tok = session(server, "Quinn")
    t = http(server, "POST", "/api/tables", {"players": 5, "bots": BOTS}, token=tok)["id"]
    err = _err(http, server, "POST", f"/api/tables/{t}/remake", {"vote": True}, token=tok)
    assert (err.status, err.code) == (409, "remake_needs_people")
    assert http(server, "GET", f"/api/tables/{t}")["remake"] is None  # no poll was opened


@pytest.mark.timeout(60)
def test_a_lone_person_with_a_second_session_cannot_remake(make_server: Any) -> None:
    """A second guest session from the same address is not a second person (issue 37 point 4):
    the poll it would pass fails, the game is not dealt again, and so on each try; the same two
    seats voting from two addresses do pass it."""
    server: Server = make_server(**PROXIED)
    one, two = session(server, "Rae"), session(server, "Sam")  # one person, two sessions
    bots = {str(i): "random" for i in range(2, 5)}
    t = http(server, "POST", "/api/tables", {"players": 5, "bots": bots}, token=one)["id"]
    http(server, "POST", f"/api/tables/{t}/join", {"seat": 1}, token=two)
    path = f"/api/tables/{t}/remake"
    first = http(server, "GET", f"/api/tables/{t}")
    for attempt in range(3):
        home = _from("203.0.113.9")
        opened = http(server, "POST", path, {"vote": True}, token=one, headers=home)
        assert opened["remade"] is False, attempt
        err = _err(http, server, "POST", path, {"vote": True}, token=two, headers=home)
        assert (err.status, err.code) == (409, "remake_needs_people")
        detail = http(server, "GET", f"/api/tables/{t}")
        assert detail["remake"] is None and detail["remake_result"]["passed"] is False
        assert detail["game_id"] == first["game_id"] and detail["status"] == "playing"
    # the same two seats from two addresses are two people: it passes
    http(server, "POST", path, {"vote": True}, token=one, headers=_from("203.0.113.9"))
    done = http(server, "POST", path, {"vote": True}, token=two, headers=_from("198.51.100.7"))
    assert done["remade"] is True and done["remake_result"]["passed"] is True
