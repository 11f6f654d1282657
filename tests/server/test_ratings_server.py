"""Rated tables on a real server: who may open one, the rating update after the game (checked
against openskill through ``secret_hitler.ratings``), the leaderboard and player profiles. The
players of a rated game are accounts from addresses of their own (``rated_support``)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from rated_support import RATED_ENV, play_rated
from rated_support import people as accounts
from server_support import Client, HttpError, Server, ahttp, http, session, wait_for

from secret_hitler import ratings as R


def _user(server: Server, token: str) -> str:
    return str(http(server, "GET", "/api/me", token=token)["user_id"])


async def _play_humans(server: Server, players: int, rated: bool, seed: int) -> dict[str, Any]:
    """A full game of ``players`` people (test clients playing random moves): accounts from
    addresses of their own at a rated table, guests at a casual one."""
    if rated:
        who = accounts(server, players)
        game = await play_rated([server], who, seed)
        return {**game, "users": [p.user_id for p in who]}
    rng = random.Random(seed)
    tokens = [session(server, f"Player {i}") for i in range(players)]
    table = await ahttp(
        server, "POST", "/api/tables", {"players": players, "rated": rated}, tokens[0]
    )
    assert table["rated"] is rated
    tid = table["id"]
    clients = []
    for i, token in enumerate(tokens):
        c = Client(server, token, f"seat{i}")
        await c.connect(tid)
        if i:
            await ahttp(server, "POST", f"/api/tables/{tid}/join", {"seat": i}, token)
        clients.append(c)
    await asyncio.gather(*(c.play(random.Random(rng.random())) for c in clients))
    for c in clients:
        await c.close()
    record = clients[0].record
    assert record is not None and record["result"] is not None
    users = [_user(server, t) for t in tokens]
    return {"id": tid, "record": record, "tokens": tokens, "users": users}


def test_rated_tables_are_people_only_official_5_to_10(server: Server) -> None:
    host = session(server, "Host")
    refused = [
        ({"players": 7, "rated": True, "rules": "forum"}, "not_ratable"),
        ({"players": 7, "rated": True, "bots": {"3": "rule"}}, "not_ratable"),
        ({"players": 7, "rated": True, "public": False}, "not_ratable"),
        ({"players": 4, "rated": True}, "invalid_settings"),
        ({"players": 7, "rated": "yes"}, "invalid_request"),
    ]
    for body, code in refused:
        with pytest.raises(HttpError) as err:
            http(server, "POST", "/api/tables", body, host)
        assert err.value.code == code, body
    # a guest may host a rated table she does not sit at (a rated seat needs an account)
    with pytest.raises(HttpError) as err:
        http(server, "POST", "/api/tables", {"players": 5, "rated": True}, host)
    assert err.value.code == "rated_needs_account"
    table = http(server, "POST", "/api/tables", {"players": 5, "rated": True, "seat": None}, host)
    tid = table["id"]
    for path, body in (
        (f"/api/tables/{tid}/bots", {}),
        (f"/api/tables/{tid}/start", {"fill_with_bots": "rule"}),
    ):
        with pytest.raises(HttpError) as err:
            http(server, "POST", path, body, host)
        assert err.value.status == 409 and err.value.code == "rated_table"
    detail = http(server, "GET", f"/api/tables/{tid}")
    assert detail["rated"] is True and all(s["kind"] != "bot" for s in detail["seats"])


def test_a_rated_game_updates_every_players_rating(make_server: Any, backend: str) -> None:
    server = make_server(backend, **RATED_ENV)
    game = asyncio.run(_play_humans(server, 5, rated=True, seed=7))
    record, users = game["record"], game["users"]
    profiles = {
        u: wait_for(
            lambda u=u: (
                (p := http(server, "GET", f"/api/players/{u}"))["rating"]["games"] == 1 and p
            )
        )
        for u in users
    }
    # the same update, computed from the record with the model (tests/ratings checks the model
    # against openskill's own API)
    roles = record["roles"]
    lib = [i for i, r in enumerate(roles) if r == "liberal"]
    fas = [i for i, r in enumerate(roles) if r != "liberal"]
    won = record["result"]["winner"] == "liberal"
    new_lib, new_fas = R.rate_game([R.default()] * len(lib), [R.default()] * len(fas), won)
    expected = dict(zip(lib + fas, new_lib + new_fas, strict=True))
    for seat, uid in enumerate(users):
        p = profiles[uid]
        assert p["rating"]["mu"] == pytest.approx(expected[seat].mu, abs=1e-3)
        assert p["rating"]["sigma"] == pytest.approx(expected[seat].sigma, abs=1e-3)
        assert p["games"] == 1 and p["rated_games"] == 1
        winner = (roles[seat] == "liberal") == won
        assert p["wins"] == int(winner)
        assert p["by_role"][roles[seat]] == {
            "games": 1,
            "wins": int(winner),
            "win_rate": float(winner),
        }
        assert p["by_players"] == {
            "5": {"games": 1, "wins": int(winner), "win_rate": float(winner)}
        }
        [point] = p["history"]
        assert point["game_id"] == game["id"] and point["role"] == roles[seat]
        assert point["won"] is winner
    # the leaderboard: everyone, best first, the same ratings; the week's too
    for period in ("all", "week", "month"):
        board = http(server, "GET", f"/api/leaderboard?period={period}")
        assert board["period"] == period
        assert {e["user_id"] for e in board["players"]} == set(users)
        ratings = [e["rating"] for e in board["players"]]
        assert ratings == sorted(ratings, reverse=True)
        assert {b["level"] for b in board["bots"]} >= {"random", "rule"}
    week = http(server, "GET", "/api/leaderboard?period=week")["players"]
    assert sum(e["wins"] for e in week) == (len(lib) if won else len(fas))
    with pytest.raises(HttpError) as err:
        http(server, "GET", "/api/leaderboard?period=year")
    assert err.value.status == 400 and "week, month, all" in err.value.body["error"]["message"]


def test_casual_games_count_in_the_profile_but_not_the_rating(server: Server) -> None:
    game = asyncio.run(_play_humans(server, 5, rated=False, seed=3))
    uid = game["users"][0]
    p = wait_for(lambda: (p := http(server, "GET", f"/api/players/{uid}"))["games"] == 1 and p)
    assert p["rated_games"] == 0 and p["history"] == []
    assert p["rating"]["games"] == 0 and p["rating"]["mu"] == pytest.approx(R.default().mu)
    assert http(server, "GET", "/api/leaderboard")["players"] == []
    with pytest.raises(HttpError) as err:
        http(server, "GET", "/api/players/u_nobody")
    assert err.value.status == 404 and err.value.code == "not_found"


def test_a_game_left_unrated_is_rated_at_the_next_start(make_server: Any, tmp_path: Any) -> None:
    """A crash (or an unavailable database) between the game's end and its rating: the next
    start rates it, once, with the same result."""

    from secret_hitler.server.core.config import database_url_for
    from secret_hitler.server.storage import db

    data = tmp_path / "rated"
    server = make_server(data=data, **RATED_ENV)
    game = asyncio.run(_play_humans(server, 5, rated=True, seed=21))
    uid = game["users"][0]
    before = wait_for(
        lambda: (p := http(server, "GET", f"/api/players/{uid}"))["rating"]["games"] == 1 and p
    )
    server.stop()
    engine = db.make_engine(database_url_for(None, data))
    with engine.begin() as conn:  # as if the rating had never been committed
        conn.execute(db.ratings.delete())
        conn.execute(db.rating_history.delete())
        conn.execute(db.rated_games.update().values(rated_at=None))
    engine.dispose()
    again = make_server(data=data, **RATED_ENV)
    after = http(again, "GET", f"/api/players/{uid}")  # rated during startup, before serving
    assert after["rating"] == before["rating"]
    assert after["history"] == before["history"]
    again.stop()
    third = make_server(data=data, **RATED_ENV)  # and never twice
    assert http(third, "GET", f"/api/players/{uid}")["rating"]["games"] == 1
