"""A tournament on two nodes of one PostgreSQL and one Redis (docs/competitive.md "Tournaments",
"On a cluster"): made on one node, signed up for through both, its round 1 table's node killed
(SIGKILL) in the middle of the game: the other node takes the table over, the game is played to
its end through it, and that node's director records the result, seats round 2 and finishes the
tournament; the standings are the same from either node while both lived, and whole at the
end."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
import sqlalchemy as sa
from cluster_support import Redis, play_through, start_nodes
from rated_support import account, ask
from server_support import Client, http, wait_for
from tournament_support import detail, round_open

from secret_hitler.server.cluster import lease
from secret_hitler.server.core.config import database_url_for


def _owner_of(database: str, tid: str) -> str | None:
    engine = sa.create_engine(database_url_for(database, None))  # type: ignore[arg-type]
    try:
        with engine.connect() as conn:
            held = lease.holder(tid)(conn)
    finally:
        engine.dispose()
    return None if held is None else str(held[0])


@pytest.mark.timeout(240)
def test_a_tournament_goes_on_when_its_tables_node_dies(
    make_server: Any, database: str, redis: Redis
) -> None:
    nodes = start_nodes(make_server, database, redis, 2)
    players = [account(nodes[i % 2], f"Node{i}", "127.0.0.1") for i in range(6)]
    by_id = {p.user_id: p for p in players}
    body = {"name": "Cluster Cup", "players": 5, "rounds": 2, "starts_at": time.time() + 3600}
    tid = ask(nodes[1], players[0], "POST", "/api/tournaments", {**body, "checkin": 86400})["id"]
    for i, p in enumerate(players):  # through both nodes
        ask(nodes[i % 2], p, "POST", f"/api/tournaments/{tid}/signup")
    ask(nodes[0], players[0], "POST", f"/api/tournaments/{tid}/start")
    first = wait_for(lambda: round_open(nodes[1], tid, 1), what="round 1")
    seated = [(tb["table_id"], tb["seats"]) for tb in first["round_tables"][0]["tables"]]
    again = detail(nodes[0], tid)["round_tables"][0]["tables"]  # one database: the same round
    assert [(tb["table_id"], tb["seats"]) for tb in again] == seated
    (table,) = first["round_tables"][0]["tables"]
    table_id = table["table_id"]
    owner_id = wait_for(lambda: _owner_of(database, table_id), what="the table's lease")
    owner = nodes[int(owner_id.removeprefix("node"))]
    other = next(n for n in nodes if n is not owner)

    async def round_one() -> None:
        rng = random.Random(7)
        clients = []
        for s in table["seats"]:  # everyone plays through the node that does not hold it
            who = by_id[s["user_id"]]
            c = Client(other, who.token, who.name)
            await c.connect(table_id)
            clients.append(c)
        playing = [
            asyncio.create_task(play_through(c, table_id, [other], random.Random(rng.random())))
            for c in clients
        ]
        while max(c.seq for c in clients) < 6 and not any(t.done() for t in playing):
            await asyncio.sleep(0.05)  # (until the game is under way: a few moves made)
        killed_at["seq"] = max(c.seq for c in clients)
        await asyncio.to_thread(owner.kill)
        await asyncio.gather(*playing)
        killed_at["end"] = max(c.seq for c in clients)
        for c in clients:
            await c.close()

    killed_at: dict[str, int] = {}
    asyncio.run(round_one())
    assert owner.proc is not None and owner.proc.poll() is not None  # dead
    assert killed_at["end"] > killed_at["seq"]  # the game went on through the other node
    second = wait_for(lambda: round_open(other, tid, 2), what="round 2")
    assert second["round_tables"][0]["tables"][0]["done"]
    (table2,) = second["round_tables"][1]["tables"]

    async def round_two() -> None:
        rng = random.Random(8)
        clients = []
        for s in table2["seats"]:
            who = by_id[s["user_id"]]
            c = Client(other, who.token, who.name)
            await c.connect(table2["table_id"])
            clients.append(c)
        await asyncio.gather(*(c.play(random.Random(rng.random())) for c in clients))
        for c in clients:
            await c.close()

    asyncio.run(round_two())
    done = wait_for(lambda: (d := detail(other, tid))["status"] == "finished" and d, what="end")
    lines = done["standings"]
    assert len(lines) == 6
    played = {
        s["user_id"]: s for r in done["round_tables"] for tb in r["tables"] for s in tb["seats"]
    }
    assert set(played) == set(by_id)
    for ln in lines:
        total = sum(
            s["points"]
            for r in done["round_tables"]
            for tb in r["tables"]
            for s in tb["seats"]
            if s["user_id"] == ln["user_id"]
        )
        assert ln["points"] == pytest.approx(total)
        assert ln["games"] == sum(
            1
            for r in done["round_tables"]
            for tb in r["tables"]
            for s in tb["seats"]
            if s["user_id"] == ln["user_id"]
        )
    assert http(other, "GET", "/api/tournaments")["tournaments"][0]["status"] == "finished"
