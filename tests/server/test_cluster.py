"""Three server nodes on one PostgreSQL and one Redis (docs/deploy.md): a table's clients spread
over every node, complete games, the owner killed, stopped past its lease, drained, and Redis
restarted; every message checked against its recipient's engine view."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
import sqlalchemy as sa
import websockets
from cluster_support import (
    ChannelTap,
    Redis,
    play_through,
    public,
    start_nodes,
)
from server_support import (
    Client,
    HttpError,
    Server,
    ahttp,
    check_messages,
    http,
    session,
    states,
    wait_for,
)
from server_support import _no_foreign_secrets as no_foreign_secrets

from secret_hitler.engine import game_from_record
from secret_hitler.server.cluster import lease
from secret_hitler.server.cluster.signing import open_once
from secret_hitler.server.core.config import Settings, database_url_for
from secret_hitler.server.storage import db

PLAYERS = 5


async def _table_over_nodes(nodes: list[Server], seed: int) -> tuple[str, list[Client], Client]:
    """A table created on node 0 with five human seats; seat i plays through node i % 3 and
    spectators watch from nodes 1 and 2."""
    owner = nodes[0]
    tokens = [session(nodes[i % len(nodes)], f"P{i}") for i in range(PLAYERS)]
    table = await ahttp(owner, "POST", "/api/tables", {"players": PLAYERS}, tokens[0])
    tid = table["id"]
    for i, tok in enumerate(tokens[1:], 1):  # the lobby works on every node
        joined = await ahttp(nodes[i % len(nodes)], "POST", f"/api/tables/{tid}/join", {}, tok)
        assert joined["seats"][i]["user_id"] is not None
    clients = [Client(nodes[i % len(nodes)], tok, f"seat{i}") for i, tok in enumerate(tokens)]
    for c in clients:
        first = await c.connect(tid)
        assert first is not None and first["type"] == "welcome"
    spectator = Client(nodes[1], None, "spectator")
    await spectator.connect(tid)
    assert [c.seat for c in clients] == list(range(PLAYERS))
    return tid, clients, spectator


def _check_game(tid: str, clients: list[Client], spectators: list[Client], node: Server) -> Any:
    record = clients[0].record
    assert record is not None and game_from_record(record).finished
    for c in [*clients, *spectators]:
        assert c.record == record, c.label
        assert c.seq == len(record["actions"]) + 1, c.label
    table_states = states(record, [*range(PLAYERS), None])
    for c in [*clients, *spectators]:
        check_messages(c, record, table_states)
    stored = http(node, "GET", f"/api/games/{tid}/record")
    assert stored["actions"] == record["actions"]
    return record


def _check_channels(
    tid: str, published: list[tuple[str, bytes]], record: dict[str, Any]
) -> dict[str, int]:
    """Every update published on a recipient's channel equals that recipient's engine view and
    legal actions, carries only events routed to it, and no private event of another seat."""
    table_states = states(record, [*range(PLAYERS), None])
    checked: dict[str, int] = {}
    key_of_nodes = Settings(secret=Server.DEFAULT_ENV["SH_SECRET"]).cluster_key()
    for channel, sealed in published:
        _, _, table_id, key = channel.split(":")
        if table_id != tid:
            continue
        text = open_once(key_of_nodes, channel, sealed)  # (sealed: cluster/signing.py)
        assert text is not None, channel
        m = json.loads(text)
        seat = None if key.startswith("spec") else int(key)
        if m["type"] == "table":
            assert (m["table"]["invite"] is None) == (key == "spec"), (key, m)
        if m["type"] != "update":
            continue
        exp_view, exp_events, exp_legal = table_states[m["seq"]][seat]
        assert m["view"] == exp_view, f"channel {key}: view differs at seq {m['seq']}"
        assert m["legal"] == exp_legal, f"channel {key}: legal differs at seq {m['seq']}"
        new = m["events"]  # the recipient's newest events, exactly
        assert not new or exp_events[-len(new) :] == new, f"channel {key}: events at {m['seq']}"
        if m["view"]["phase"] != "game_over":
            no_foreign_secrets(seat, m, record)
        checked[key] = checked.get(key, 0) + 1
    return checked


def _owner_of(database: str, tid: str) -> tuple[str, int] | None:
    engine = sa.create_engine(database_url_for(database, None))  # type: ignore[arg-type]
    try:
        with engine.connect() as conn:
            held = lease.holder(tid)(conn)
    finally:
        engine.dispose()
    return None if held is None else (held[0], held[1])


def _node(nodes: list[Server], node_id: str) -> Server:
    return nodes[int(node_id.removeprefix("node"))]


# ---------------------------------------------------------------------- fencing, in-process
def test_a_write_under_a_lost_lease_is_refused_by_the_database(database: str) -> None:
    engine = db.make_engine(database_url_for(database, None))  # type: ignore[arg-type]
    db.migrate(engine)
    try:
        with engine.begin() as conn:
            first = lease.acquire("t1", "a", 3.0)(conn)
        assert first == 1
        with engine.begin() as conn:  # held and not expired: another node cannot take it
            assert lease.acquire("t1", "b", 10)(conn) is None
        wait_for(lambda: _expired(engine, "t1"), 15, "the lease to expire")
        with engine.begin() as conn:
            second = lease.acquire("t1", "b", 10)(conn)
        assert second == 2  # the token only grows
        written = []

        def write(conn: Any) -> None:
            written.append(1)
            conn.execute(sa.text("SELECT 1"))

        with pytest.raises(lease.LeaseLost), engine.begin() as conn:
            lease.Fenced("t1", "a", first, 10, write)(conn)
        assert written == []  # the old owner's write never ran
        with engine.begin() as conn:  # the new owner's does
            lease.Fenced("t1", "b", second, 10, write)(conn)
        assert written == [1]
        with engine.begin() as conn:  # released: taken at once, with a higher token
            lease.release("b", {"t1": second})(conn)
            assert lease.acquire("t1", "a", 10)(conn) == 3
    finally:
        engine.dispose()


def _expired(engine: sa.Engine, tid: str) -> bool:
    import time

    with engine.connect() as conn:
        held = lease.holder(tid)(conn)
    return held is not None and held[2] < time.time()


# ---------------------------------------------------------------------- whole games
@pytest.mark.timeout(120)
def test_a_game_with_clients_on_three_nodes(redis: Redis, make_server: Any, database: str) -> None:
    nodes = start_nodes(make_server, database, redis, 3)
    for n in nodes:
        health = http(n, "GET", "/healthz")
        assert health["redis"] == "ok" and health["node"].startswith("node")
        assert http(n, "GET", "/readyz")["ready"] is True

    async def run() -> None:
        rng = random.Random(11)
        tap = await ChannelTap(redis.url).start()  # reads every table channel, as a node does
        host = session(nodes[1], "Waiting host")  # a waiting table owned by node 1
        waiting = await ahttp(nodes[1], "POST", "/api/tables", {"players": 5}, host)
        tid, clients, spectator = await _table_over_nodes(nodes, 11)
        for n in nodes:  # every node lists every open table, and describes any
            listed = {t["id"]: t for t in http(n, "GET", "/api/tables")["tables"]}
            assert {tid, waiting["id"]} <= set(listed)
            assert listed[tid]["status"] == "playing" and listed[waiting["id"]]["invite"] is None
            assert http(n, "GET", f"/api/tables/{tid}")["seats"][3]["connected"] is True
            by_invite = http(n, "GET", f"/api/invite/{waiting['invite']}", token=host)
            assert by_invite["id"] == waiting["id"]
        # a lobby change at a node that does not own the table is made by its owner
        bot = http(nodes[2], "POST", f"/api/tables/{waiting['id']}/bots", {"seat": 4}, host)
        assert bot["seats"][4]["kind"] == "bot"
        assert http(nodes[1], "GET", f"/api/tables/{waiting['id']}")["seats"][4]["kind"] == "bot"
        late = Client(nodes[2], None, "spectator2")
        await late.connect(tid)
        await asyncio.gather(
            *(c.play(random.Random(rng.random()), claim_p=0.3) for c in clients),
            spectator.play(rng),
            late.play(rng),
        )
        record = _check_game(tid, clients, [spectator, late], nodes[2])
        assert _owner_of(database, tid) == ("node0", 1)  # one owner all along
        published = await tap.stop()
        # seats 1, 2, 4 and the spectators are relayed: their channels carried the game, and
        # each channel only what its recipient may know
        checked = _check_channels(tid, published, record)
        assert {"1", "2", "4", "spec"} <= set(checked)
        assert all(n >= len(record["actions"]) // 2 for n in checked.values()), checked
        for c in [*clients, spectator, late]:
            await c.close()

    asyncio.run(run())


async def _failover(
    nodes: list[Server], database: str, disrupt: Any, stop_at: int = 10
) -> tuple[list[Client], dict[int, Any], dict[int, Any], Any]:
    rng = random.Random(5)
    tid, clients, spectator = await _table_over_nodes(nodes, 5)
    await asyncio.gather(
        *(
            c.play(random.Random(rng.random()), claim_p=0.3, stop=lambda c: c.seq >= stop_at)
            for c in clients
        )
    )
    actor = next(
        (c for c in clients if c.view and c.seat in c.view["to_act"] and c.my_turn_actions()), None
    )
    if actor is not None:  # one action in flight when the owner goes
        await actor.send(
            {"v": 1, "type": "action", "id": "last-words", "action": actor.my_turn_actions()[0]}
        )
    await asyncio.to_thread(disrupt, tid)
    await asyncio.gather(
        *(play_through(c, tid, nodes, random.Random(rng.random())) for c in clients),
        play_through(spectator, tid, nodes, rng),
    )
    seen: dict[int, Any] = {}
    acked: dict[int, Any] = {}
    for c in clients:
        for m in c.messages:
            if m["type"] == "update" and m["action"] is not None:
                seen.setdefault(m["seq"], m["action"])
                assert seen[m["seq"]] == m["action"]  # no two different actions at one seq
        acked.update(c.accepted())
    living = next(n for n in nodes if n.proc is not None and n.proc.poll() is None)
    record = _check_game(tid, clients, [spectator], living)
    for seq, action in seen.items():  # nothing anyone was told of was lost
        assert public(record["actions"][seq - 2]) == action
    for seq, action in acked.items():  # every acknowledged action is in the game, once
        assert record["actions"][seq - 2] == action
    for c in [*clients, spectator]:
        await c.close()
    return clients, seen, acked, tid


@pytest.mark.timeout(120)
def test_sigkill_of_the_owner_mid_game(redis: Redis, make_server: Any, database: str) -> None:
    nodes = start_nodes(make_server, database, redis, 3)

    def kill_owner(tid: str) -> None:
        owner = _owner_of(database, tid)
        assert owner is not None and owner[0] == "node0"
        nodes[0].kill()

    async def run() -> None:
        _, _, _, tid = await _failover(nodes, database, kill_owner)
        owner = _owner_of(database, tid)
        assert owner is not None and owner[0] in ("node1", "node2") and owner[1] == 2

    asyncio.run(run())


@pytest.mark.timeout(120)
def test_owner_stopped_past_its_lease_stops_acting(
    redis: Redis, make_server: Any, database: str
) -> None:
    """SIGSTOP of the owner until another node took its table, then SIGCONT: its (stale)
    timers and renewals find the lease gone; any write it tries is refused by the token."""
    nodes = start_nodes(make_server, database, redis, 3)

    def stop_owner(tid: str) -> None:
        import signal

        proc = nodes[0].proc
        assert proc is not None
        proc.send_signal(signal.SIGSTOP)
        try:
            wait_for(
                lambda: (o := _owner_of(database, tid)) is not None and o[0] != "node0",
                30,
                "another node to take the table over",
            )
        finally:
            proc.send_signal(signal.SIGCONT)

    async def run() -> None:
        _, _, _, tid = await _failover(nodes, database, stop_owner)
        owner = _owner_of(database, tid)
        assert owner is not None and owner[0] != "node0" and owner[1] >= 2
        # the stopped node woke up, found it had lost the table and dropped it
        wait_for(lambda: "lease lost" in nodes[0].log_tail(200_000), 10, "node0 to drop it")
        assert http(nodes[0], "GET", "/healthz")["leases"] == 0

    asyncio.run(run())


@pytest.mark.timeout(120)
def test_a_redis_restart_mid_game(redis: Redis, make_server: Any, database: str) -> None:
    nodes = start_nodes(make_server, database, redis, 3)

    async def run() -> None:
        _, _, _, tid = await _failover(nodes, database, lambda tid: redis.restart())
        assert _owner_of(database, tid) == ("node0", 1)  # leases live in PostgreSQL

    asyncio.run(run())
    # each node finds Redis again by itself (its reader's backoff is at most 2 s); the bound is
    # for a machine busy with the whole suite, where 10 s once ran out
    for n in nodes:
        try:
            wait_for(lambda n=n: http(n, "GET", "/healthz")["redis"] == "ok", 30, "redis again")
        except TimeoutError:
            pytest.fail(
                f"{n.env_extra.get('SH_NODE_ID')} did not find Redis again:\n{n.log_tail(6000)}"
            )


@pytest.mark.timeout(120)
@pytest.mark.parametrize("how", ["endpoint", "sigterm"])
def test_rolling_restart_drains_the_owner(
    redis: Redis, make_server: Any, database: str, how: str
) -> None:
    nodes = start_nodes(make_server, database, redis, 3)

    def drain_owner(tid: str) -> None:
        if how == "endpoint":
            assert http(nodes[0], "POST", "/admin/drain") == {"drained": True, "node": "node0"}
            with pytest.raises(HttpError) as err:
                http(nodes[0], "GET", "/readyz")
            assert err.value.status == 503 and err.value.body["reason"] == "draining"
        nodes[0].stop()  # SIGTERM: the node drains (if it did not yet) and exits
        log = nodes[0].log_tail(200_000)
        assert '"node drained"' in log and "Application shutdown complete" in log

    async def run() -> None:
        _, _, _, tid = await _failover(nodes, database, drain_owner)
        owner = _owner_of(database, tid)
        assert owner is not None and owner[0] in ("node1", "node2")

    asyncio.run(run())


def test_a_cluster_needs_postgresql(tmp_path: Any) -> None:
    from secret_hitler.server.core.config import Settings

    with pytest.raises(ValueError, match="PostgreSQL"):
        Settings(data=tmp_path, redis_url="redis://127.0.0.1:1/0").check_cluster()
    with pytest.raises(ValueError, match="node-id"):
        Settings(node_id="a b").check_cluster()
    with pytest.raises(ValueError, match="REDIS_URL"):
        Settings(redis_url="http://x", database_url="postgresql://x/y").check_cluster()
    with pytest.raises(ValueError, match="set SH_SECRET"):  # the key of the nodes' messages
        Settings(redis_url="redis://r", database_url="postgresql://x/y").check_cluster()
    Settings(redis_url="redis://r", database_url="postgresql://x/y", secret="s").check_cluster()


@pytest.mark.timeout(60)
def test_sign_out_and_private_tables_across_nodes(
    redis: Redis, make_server: Any, database: str
) -> None:
    nodes = start_nodes(make_server, database, redis, 3, SH_HELLO_TIMEOUT="2")

    async def run() -> None:
        host = session(nodes[0], "Host")
        table = await ahttp(nodes[0], "POST", "/api/tables", {"players": 5}, host)
        token = session(nodes[1], "Leaver")
        other = session(nodes[1], "Stayer")
        local = Client(nodes[0], token, "local")  # on the table's owner
        relayed = Client(nodes[1], token, "relayed")  # through Redis
        stayer = Client(nodes[1], other, "stayer")
        for c in (local, relayed, stayer):
            assert (await c.connect(table["id"]))["type"] == "welcome"  # type: ignore[index]
        assert await ahttp(nodes[2], "POST", "/api/logout", {}, token) == {"revoked": 1}
        for c in (local, relayed):
            m = await c.recv_until(lambda m: m["type"] == "error")
            assert m["code"] == "signed_out"
            with pytest.raises(websockets.ConnectionClosed):
                await c.recv(5)
        with pytest.raises(HttpError) as err:
            http(nodes[0], "GET", "/api/me", token=token)
        assert err.value.status == 401
        await stayer.send({"v": 1, "type": "ping"})  # another user's socket stays open
        assert (await stayer.recv_until(lambda m: m["type"] == "pong"))["type"] == "pong"
        for c in (local, relayed, stayer):
            await c.close()
        # a private table: a relayed socket is let in by the owner's rules (the invite)
        private = await ahttp(
            nodes[0], "POST", "/api/tables", {"players": 5, "public": False}, host
        )
        outsider = Client(nodes[2], None, "outsider")
        await outsider.connect(private["id"], hello=False)
        refused = await outsider.recv()
        assert refused["type"] == "error" and refused["code"] == "invite_required"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await outsider.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        guest = Client(nodes[2], None, "guest")
        welcome = await guest.connect(private["id"], query=f"?invite={private['invite']}")
        assert welcome is not None and welcome["type"] == "welcome"
        assert welcome["table"]["invite"] is None  # a guest is not a member
        await guest.close()
        # a relayed socket that never says hello is closed as a local one would be
        silent = Client(nodes[1], None, "silent")
        await silent.connect(table["id"], hello=False)
        timeout = await silent.recv(10)
        assert timeout["type"] == "error" and timeout["code"] == "hello_timeout"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await silent.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408

    asyncio.run(run())
