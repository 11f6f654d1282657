"""Competitive play on two nodes of one PostgreSQL and one Redis (docs/deploy.md,
docs/competitive.md): a season made once is in force on every node, the rated seats' checks hold
for a join one node makes for another (the device cookie goes with the forwarded request), and
the games of tables served by different nodes make one ladder, the same from either node."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from cluster_support import Redis, start_nodes
from rated_support import RATED_ENV, Person, account, ask, people, play_rated
from server_support import HttpError, http, wait_for
from test_competitive import admin


def _devices(players: list[Person], prefix: str) -> list[Person]:
    for i, p in enumerate(players):
        p.device = f"{prefix}-device-{i:06d}"
    return players


@pytest.mark.timeout(240)
def test_seasons_and_their_ladders_are_cluster_wide(
    make_server: Any, database: str, redis: Redis
) -> None:
    nodes = start_nodes(make_server, database, redis, 2, **RATED_ENV)
    admin(nodes[1], "season", "add", "one", "--start", "2020-01-01", "--end", "2100-01-01",
          "--placement", "1")  # fmt: skip
    for node in nodes:
        assert http(node, "GET", "/api/seasons")["current"] == "one"
    a = _devices(people(nodes[0], 5, "Ann", "198.51.100"), "ann")
    b = _devices(people(nodes[1], 5, "Bo", "203.0.113"), "bo")

    # a join that node 1 makes for node 0's table is checked with the browser's device
    tid = ask(nodes[0], a[0], "POST", "/api/tables", {"players": 5, "rated": True})["id"]
    twin = account(nodes[1], "Twin", "192.0.2.50", device=a[0].device)
    with pytest.raises(HttpError) as err:
        ask(nodes[1], twin, "POST", f"/api/tables/{tid}/join", {})
    assert err.value.code == "rated_same_device"
    ask(nodes[0], a[0], "POST", f"/api/tables/{tid}/leave")

    async def both() -> None:  # each table's players join and play through both nodes
        await asyncio.gather(
            play_rated([nodes[0], nodes[1]], a, seed=1),
            play_rated([nodes[1], nodes[0]], b, seed=2),
        )

    asyncio.run(both())
    ladders = [
        wait_for(
            lambda n=n: (
                (board := http(n, "GET", "/api/seasons/one/ladder"))
                and len(board["players"]) == 10
                and board
            )
        )  # fmt: skip
        for n in nodes
    ]
    assert ladders[0] == ladders[1]
    assert {p["user_id"] for p in ladders[0]["players"]} == {p.user_id for p in a + b}
    for who in (a[0], b[0]):
        seen = [http(n, "GET", f"/api/players/{who.user_id}")["seasons"] for n in nodes]
        assert seen[0] == seen[1] and seen[0][0]["season"]["id"] == "one"
        assert seen[0][0]["games"] == 1 and seen[0][0]["placed"] is True
