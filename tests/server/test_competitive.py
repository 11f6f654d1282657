"""Competitive play on a real server (docs/competitive.md): the farming of issue 42 replayed and
gaining nothing, a season's ladder with its placement games and a leave it counts, and the vote
to replace an absent player by a bot."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from rated_support import RATED_ENV, Person, aask, account, ask, people, play_rated
from server_support import Client, HttpError, Server, http, wait_for
from typer.testing import CliRunner

from secret_hitler.cli import app

PROXIED = {"SH_TRUSTED_PROXIES": "127.0.0.1"}


def admin(server: Server, *args: str) -> Any:
    """``secret-hitler admin ARGS`` on the server's database (its data folder or DATABASE_URL)."""
    env = {"SH_DATA": str(server.data), "DATABASE_URL": server.database_url or ""}
    result = CliRunner().invoke(app, ["admin", *args], env=env)
    assert result.exit_code == 0, result.output
    return result.output


def refused(server: Server, who: Person, method: str, path: str, body: Any = None) -> HttpError:
    with pytest.raises(HttpError) as err:
        ask(server, who, method, path, body)
    return err.value


def test_one_address_filling_a_rated_table_alone_gains_nothing(make_server: Any) -> None:
    """Issue 42's finding: one address with five guest sessions filled a rated table alone and
    steered three games to rank 1. Now no rated seat goes to a guest, nor to a new account,
    nor a second one to the same address or device; no game starts and nobody is rated."""
    server = make_server(**PROXIED)  # the server's own rules: a day-old account, 3 games
    home = "203.0.113.5"
    guests = []
    for i in range(5):
        made = http(
            server, "POST", "/api/session", {"name": f"Farm{i}"}, headers={"X-Forwarded-For": home}
        )
        guests.append(Person(made["token"], made["user_id"], f"Farm{i}", home))
    assert refused(
        server, guests[0], "POST", "/api/tables", {"players": 5, "rated": True}
    ).code == ("rated_needs_account")
    hosted = ask(
        server, guests[0], "POST", "/api/tables", {"players": 5, "rated": True, "seat": None}
    )
    tid = hosted["id"]
    for guest in guests:
        assert refused(server, guest, "POST", f"/api/tables/{tid}/join", {}).code == (
            "rated_needs_account"
        )
    fresh = account(server, "FarmAccount", home)
    error = refused(server, fresh, "POST", f"/api/tables/{tid}/join", {})
    assert error.code == "rated_account_new" and error.status == 403
    standing = ask(server, fresh, "GET", "/api/me/standing")
    assert standing["eligible"] is False and standing["reason"] == "rated_account_new"
    assert standing["games"] == 0 and standing["min_games"] == 3

    # the farmer waited a day and played her games: one address still holds one seat
    relaxed = make_server(**RATED_ENV)
    farm = [account(relaxed, f"Farm{i}", home, device=f"farm-device-{i:08d}") for i in range(5)]
    table = ask(relaxed, farm[0], "POST", "/api/tables", {"players": 5, "rated": True})
    tid = table["id"]
    for who in farm[1:]:
        error = refused(relaxed, who, "POST", f"/api/tables/{tid}/join", {})
        assert error.code == "rated_same_address" and error.status == 409
    # another address through the same browser: the device is refused
    hopped = Person(farm[1].token, farm[1].user_id, farm[1].name, "192.0.2.77", farm[0].device)
    assert (
        refused(relaxed, hopped, "POST", f"/api/tables/{tid}/join", {}).code == "rated_same_device"
    )
    # (a player from an address and device of her own is taken: the checks are not blanket)
    neighbour = account(relaxed, "Neighbour", "192.0.2.8", device="neighbour-device-01")
    assert (
        ask(relaxed, neighbour, "POST", f"/api/tables/{tid}/join", {})["seats"][1]["kind"]
        == "human"
    )
    detail = http(relaxed, "GET", f"/api/tables/{tid}")
    assert detail["status"] == "waiting"  # never filled: no game, nothing to rate
    for srv in (server, relaxed):
        assert http(srv, "GET", "/api/leaderboard")["players"] == []
    assert http(relaxed, "GET", f"/api/players/{farm[0].user_id}")["rating"]["games"] == 0


def _ladder(server: Server, season: str) -> dict[str, Any]:
    return http(server, "GET", f"/api/seasons/{season}/ladder")  # type: ignore[no-any-return]


def test_a_season_ranks_its_placed_players_counts_a_leave_and_becomes_history(
    make_server: Any,
) -> None:
    server = make_server(**RATED_ENV, SH_LEAVE_COOLDOWN="3600")
    admin(
        server,
        "season",
        "add",
        "spring",
        "--name",
        "Spring",
        "--start",
        "2020-01-01",
        "--end",
        "2100-01-01",
        "--placement",
        "2",
    )
    seasons = http(server, "GET", "/api/seasons")
    assert seasons["current"] == "spring"
    [spring] = seasons["seasons"]
    assert (spring["name"], spring["placement"], spring["state"]) == ("Spring", 2, "current")
    five = people(server, 5)
    asyncio.run(play_rated([server], five, seed=11))
    first = wait_for(lambda: (b := _ladder(server, "spring"))["placing"] == 5 and b)
    assert first["players"] == []  # nobody has played the placement games yet
    profile = http(server, "GET", f"/api/players/{five[0].user_id}")
    [mine] = profile["seasons"]
    assert mine["games"] == 1 and mine["placed"] is False and mine["rank"] is None
    asyncio.run(play_rated([server], five, seed=12))
    board = wait_for(lambda: (b := _ladder(server, "spring"))["placing"] == 0 and b)
    ranks = [p["rank"] for p in board["players"]]
    assert len(ranks) == 5 and ranks[0] == 1 and ranks == sorted(ranks)
    assert all(p["games"] == 2 and p["leaves"] == 0 for p in board["players"])
    for p in board["players"]:
        seasons_of = http(server, "GET", f"/api/players/{p['user_id']}")["seasons"]
        assert seasons_of[0]["rank"] == p["rank"] and seasons_of[0]["wins"] == p["wins"]
        by_role = seasons_of[0]["by_role"]
        assert sum(r["games"] for r in by_role.values()) == 2
        assert seasons_of[0]["by_players"]["5"]["games"] == 2

    # a third game: the last player leaves it at once; she is rated as a loss and cools down
    leaver = five[4]
    asyncio.run(_game_with_a_leaver(server, five, seed=13))
    after = wait_for(
        lambda: (
            (b := _ladder(server, "spring")) and all(p["games"] == 3 for p in b["players"]) and b
        )
    )
    ranked = {p["user_id"]: p for p in after["players"]}
    assert ranked[leaver.user_id]["leaves"] == 1
    history = http(server, "GET", f"/api/players/{leaver.user_id}")["history"]
    assert history[-1]["left"] is True and history[-1]["won"] is False
    table = ask(server, five[0], "POST", "/api/tables", {"players": 5, "rated": True})
    error = refused(server, leaver, "POST", f"/api/tables/{table['id']}/join", {})
    assert error.code == "rated_cooldown"
    standing = ask(server, leaver, "GET", "/api/me/standing")
    assert standing["reason"] == "rated_cooldown" and standing["recent_leaves"] == 1
    assert standing["cooldown_until"] is not None

    # the season ends: its ladder stays as it was, as a past season
    assert "ends" in admin(server, "season", "end", "spring")
    past = http(server, "GET", "/api/seasons")
    assert past["current"] is None and past["seasons"][0]["state"] == "past"
    assert _ladder(server, "spring")["players"] == after["players"]
    assert "spring (Spring) past" in admin(server, "season", "list")
    with pytest.raises(HttpError) as err:
        http(server, "GET", "/api/seasons/winter/ladder")
    assert err.value.code == "not_found"


async def _game_with_a_leaver(server: Server, players: list[Person], seed: int) -> None:
    """A rated game whose last player leaves as soon as it starts (a bot plays her seat)."""
    rng = random.Random(seed)
    table = await aask(server, players[0], "POST", "/api/tables", {"players": 5, "rated": True})
    tid = table["id"]
    clients = []
    for i, who in enumerate(players):
        if i:
            await aask(server, who, "POST", f"/api/tables/{tid}/join", {"seat": i})
        if i < 4:
            c = Client(server, who.token, f"seat{i}", headers=who.headers)
            await c.connect(tid)
            clients.append(c)
    left = await aask(server, players[4], "POST", f"/api/tables/{tid}/leave")
    assert left["seats"][4]["kind"] == "bot"
    await asyncio.gather(*(c.play(random.Random(rng.random())) for c in clients))
    for c in clients:
        await c.close()


def test_the_table_votes_an_absent_player_out_and_a_bot_plays_her_seat(make_server: Any) -> None:
    """Three people and two bots; Cleo never comes: Ann and Bo vote her out. A vote on a seat
    that holds a bot, or by the absent player herself, is refused."""
    server = make_server(**PROXIED, SH_AFK_AFTER="0")
    ann, bo, cleo = (
        account(server, n, f"192.0.2.{i}") for i, n in enumerate(("Ann", "Bo", "Cleo"), 1)
    )
    body = {"players": 5, "bots": {"3": "random", "4": "random"}}
    tid = ask(server, ann, "POST", "/api/tables", body)["id"]

    async def scenario() -> None:
        watchers = [Client(server, p.token, p.name, headers=p.headers) for p in (ann, bo)]
        for c in watchers:
            await c.connect(tid)
        await aask(server, bo, "POST", f"/api/tables/{tid}/join", {"seat": 1})
        await aask(server, cleo, "POST", f"/api/tables/{tid}/join", {"seat": 2})
        detail = await aask(server, ann, "GET", f"/api/tables/{tid}")
        assert detail["status"] == "playing" and not detail["seats"][2]["connected"]
        with pytest.raises(HttpError) as err:
            await aask(server, ann, "POST", f"/api/tables/{tid}/afk", {"seat": 3})
        assert err.value.code == "not_a_player"
        with pytest.raises(HttpError) as err:
            await aask(server, cleo, "POST", f"/api/tables/{tid}/afk", {"seat": 2})
        assert err.value.code == "not_a_voter"
        opened = await aask(server, ann, "POST", f"/api/tables/{tid}/afk", {"seat": 2})
        assert opened["replaced"] is False and opened["afk"]["seat"] == 2
        assert (opened["afk"]["yes"], opened["afk"]["needed"]) == (1, 2)
        # everyone connected is told of the open vote (counts only)
        told = await watchers[1].recv_until(
            lambda m: m["type"] == "table" and (m["table"].get("afk") or {}).get("yes") == 1
        )
        assert "voted_from" not in told["table"]["afk"]
        done = await aask(server, bo, "POST", f"/api/tables/{tid}/afk", {"seat": 2})
        assert done["replaced"] is True and done["seats"][2]["kind"] == "bot"
        assert done["afk"] is None and done["afk_result"]["passed"] is True
        for c in watchers:
            await c.close()

    asyncio.run(scenario())
