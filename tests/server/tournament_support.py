"""A tournament played on a real server for the tests (tests/server/test_tournaments.py and the
browser's tests/web/test_web_tournaments.py): its people, its rounds played over WebSockets by
random moves, one of them leaving her game so that a bot finishes it."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from rated_support import Person, account, ask
from server_support import Client, Server, http, wait_for


def _run(play: Coroutine[Any, Any, None]) -> None:
    """``play`` run to its end in a thread of its own: a browser test's thread has Playwright's
    event loop marked as running, where ``asyncio.run`` refuses to start."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play).result(timeout=240)


def detail(server: Server, tid: str) -> dict[str, Any]:
    return http(server, "GET", f"/api/tournaments/{tid}")  # type: ignore[no-any-return]


async def play_round(
    server: Server, people: dict[str, Person], table: dict[str, Any], seed: int, leaver: str | None
) -> None:
    """Everyone seated at ``table`` plays random moves to the end; ``leaver`` leaves the table
    as soon as her game has begun (a bot plays her seat)."""
    rng = random.Random(seed)
    clients = []
    for s in table["seats"]:
        who = people[s["user_id"]]
        c = Client(server, who.token, who.name)
        await c.connect(table["table_id"])
        if s["user_id"] == leaver:
            path = f"/api/tables/{table['table_id']}/leave"
            await asyncio.to_thread(ask, server, who, "POST", path)
            await c.close()
            continue
        clients.append(c)
    await asyncio.gather(*(c.play(random.Random(rng.random())) for c in clients))
    for c in clients:
        await c.close()


def round_open(server: Server, tid: str, number: int) -> dict[str, Any] | None:
    """The tournament's detail once round ``number``'s tables are all open (their games
    started: a table's row is stored a moment before its node serves it), else None."""
    found = detail(server, tid)
    rounds = [r for r in found["round_tables"] if r["round"] == number]
    if not rounds or any(tb["status"] not in ("playing", "finished") for tb in rounds[0]["tables"]):
        return None
    return found


def finished_swiss(server: Server, prefix: str = "Entrant") -> tuple[str, list[Person], str]:
    """A Swiss tournament of six accounts, two rounds, tables of five, played to its end; in
    round 1 the third seat's player leaves her game. Its id, its people (the first hosts), and
    the leaver's user id."""
    players = [account(server, f"{prefix}{i}", "127.0.0.1") for i in range(6)]
    by_id = {p.user_id: p for p in players}
    body = {"name": "Friday Cup", "players": 5, "rounds": 2, "starts_at": time.time() + 3600}
    tid = ask(server, players[0], "POST", "/api/tournaments", {**body, "checkin": 86400})["id"]
    for p in players:
        ask(server, p, "POST", f"/api/tournaments/{tid}/signup")  # (checked in at once)
    ask(server, players[0], "POST", f"/api/tournaments/{tid}/start")
    first = wait_for(lambda: round_open(server, tid, 1), what="round 1")
    (table,) = first["round_tables"][0]["tables"]
    leaver = table["seats"][2]["user_id"]
    _run(play_round(server, by_id, table, 1, leaver))
    second = wait_for(lambda: round_open(server, tid, 2), what="round 2")
    _run(play_round(server, by_id, second["round_tables"][1]["tables"][0], 2, None))
    wait_for(lambda: detail(server, tid)["status"] == "finished", what="the end")
    return tid, players, leaver


def finished_elimination(server: Server, prefix: str = "Knock") -> tuple[str, list[Person]]:
    """A single elimination tournament of ten accounts at tables of five played to its final:
    two tables in round 1, the final of their winners (made up to five). Its id and people."""
    players = [account(server, f"{prefix}{i}", "127.0.0.1") for i in range(10)]
    by_id = {p.user_id: p for p in players}
    body = {"name": "Knockout", "format": "elimination", "players": 5}
    body |= {"starts_at": time.time() + 3600, "checkin": 86400}
    tid = ask(server, players[0], "POST", "/api/tournaments", body)["id"]
    for p in players:
        ask(server, p, "POST", f"/api/tournaments/{tid}/signup")
    ask(server, players[0], "POST", f"/api/tournaments/{tid}/start")
    first = wait_for(lambda: round_open(server, tid, 1), what="round 1")

    async def both(tables: list[dict[str, Any]]) -> None:
        await asyncio.gather(
            *(play_round(server, by_id, tb, i, None) for i, tb in enumerate(tables))
        )

    _run(both(first["round_tables"][0]["tables"]))
    final = wait_for(lambda: round_open(server, tid, 2), what="the final")
    _run(both(final["round_tables"][1]["tables"]))
    wait_for(lambda: detail(server, tid)["status"] == "finished", what="the final's end")
    return tid, players
