"""The matchmaking queue and new-player tables on two nodes of one PostgreSQL and one Redis
(docs/competitive.md "The queue"): people join and answer through either node, one node at a
time forms (the system lease), their table is formed once, a cluster keeps one new-player table
open, and when the forming node dies the other takes over within a lease's time."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from cluster_support import Redis, start_nodes
from rated_support import RATED_ENV, Person, ask, people
from server_support import wait_for

from secret_hitler.server.lobby.system import LEASE

ENV = {**RATED_ENV, "SH_QUEUE_TICK": "0.2", "SH_QUEUE_READY": "60", "SH_NEWBIE_TABLES": "1"}


def _sql(engine: sa.Engine, query: str) -> Any:
    with engine.connect() as conn:
        return conn.execute(sa.text(query)).all()


def _former(engine: sa.Engine) -> tuple[str, int] | None:
    """The node holding the system lease, and its token (it grows with every pass)."""
    rows = _sql(engine, f"SELECT owner, token FROM table_leases WHERE table_id = '{LEASE}'")
    return (str(rows[0][0]), int(rows[0][1])) if rows else None


def _seated(nodes: list[Any], group: list[Person]) -> str:
    """Everyone of ``group`` answers her ready check through alternating nodes; the table id."""
    matches = [
        wait_for(
            lambda p=p, n=nodes[i % 2]: ask(n, p, "GET", "/api/queue").get("match"),
            what="the ready check",
        )
        for i, p in enumerate(group)
    ]
    assert len({m["id"] for m in matches}) == 1
    for i, (p, m) in enumerate(zip(group, matches, strict=True)):
        ask(nodes[(i + 1) % 2], p, "POST", "/api/queue/ready", {"match_id": m["id"], "ready": True})
    states = [
        wait_for(
            lambda p=p, n=nodes[i % 2]: (
                (s := ask(n, p, "GET", "/api/queue"))["state"] == "seated" and s
            ),
            what="the table",
        )
        for i, p in enumerate(group)
    ]
    assert len({s["table_id"] for s in states}) == 1
    return str(states[0]["table_id"])


@pytest.mark.timeout(240)
def test_the_queue_forms_once_on_a_cluster_and_survives_its_former(
    make_server: Any, database: str, redis: Redis
) -> None:
    nodes = start_nodes(make_server, database, redis, 2, **ENV)
    engine = sa.create_engine(database.replace("postgresql://", "postgresql+psycopg://"))
    try:
        former = wait_for(lambda: _former(engine), what="a former")
        # one node forms: the lease stays its own while its passes go on
        wait_for(lambda: (f := _former(engine)) and f[1] >= former[1] + 5, what="five passes")
        assert _former(engine)[0] == former[0]  # type: ignore[index]
        newbie = "SELECT count(*) FROM tables WHERE kind = 'newbie' AND status = 'waiting'"
        assert _sql(engine, newbie)[0][0] == 1  # one new-player table for the whole cluster

        # five people of five places join a rated queue through both nodes
        group = people(nodes[0], 3, "Ann", "198.51.100") + people(nodes[1], 2, "Bo", "203.0.113")
        for i, p in enumerate(group):
            ask(nodes[i % 2], p, "POST", "/api/queue", {"players": 5, "category": "rated"})
        table_id = _seated(nodes, group)
        for node in nodes:  # the table is served by one node, seen from both
            detail = ask(node, group[0], "GET", f"/api/tables/{table_id}")
            assert detail["kind"] == "queue" and detail["rated"] and detail["status"] == "playing"
        assert _sql(engine, "SELECT count(*) FROM tables WHERE kind = 'queue'")[0][0] == 1

        # the forming node dies: the other takes the lease over and forms the next table
        dead = next(n for n in nodes if f"node{nodes.index(n)}" == former[0])
        alive = next(n for n in nodes if n is not dead)
        dead.kill()
        wait_for(
            lambda: (f := _former(engine)) is not None and f[0] != former[0],
            what="the other node forming",
        )
        late = people(alive, 5, "Cy", "192.0.2")
        for p in late:
            ask(alive, p, "POST", "/api/queue", {"players": 5, "category": "rated"})
        second = _seated([alive, alive], late)
        assert second != table_id
        assert ask(alive, late[0], "GET", f"/api/tables/{second}")["kind"] == "queue"
        assert _sql(engine, newbie)[0][0] == 1  # still one open (the dead node's, taken over)
    finally:
        engine.dispose()
