"""Storage faults (docs/security.md "Storage faults and supervision"): the database goes away
mid-game (a real PostgreSQL stopped and started with pg_ctl; SQLite locked by another process).
The event loop keeps answering, a failed action is not played and its sender gets an error with
the action's id, health and readiness tell the truth, and the game resumes by itself with gap-free
seq streams and a gap-free action table. A stored game that cannot be replayed is shown as
``broken``."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from server_support import (
    Client,
    HttpError,
    Postgres,
    Server,
    ahttp,
    check_messages,
    find_pg_bin,
    http,
    session,
    states,
)

from secret_hitler.engine import Action, game_from_record
from secret_hitler.server.core.config import database_url_for

DB_TIMEOUT = 1.0  # SH_DB_TIMEOUT of these servers: how long a write waits for the database


@pytest.fixture
def own_postgres() -> Iterator[Postgres]:
    """A PostgreSQL cluster of this test alone: the test stops and starts its server."""
    bindir = find_pg_bin()
    if bindir is None:
        pytest.skip("no PostgreSQL binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or PATH")
    pg = Postgres(bindir).start()
    try:
        yield pg
    finally:
        pg.stop()


def _engine(server: Server) -> sa.Engine:
    return sa.create_engine(database_url_for(server.database_url, server.data))


def _stored_indexes(server: Server, table_id: str) -> list[int]:
    engine = _engine(server)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT idx FROM actions WHERE game_id = :g ORDER BY idx"), {"g": table_id}
            )
            return [r[0] for r in rows]
    finally:
        engine.dispose()


def _status(server: Server, path: str) -> tuple[int, dict[str, Any]]:
    try:
        return 200, http(server, "GET", path)
    except HttpError as exc:
        return exc.status, exc.body


def _wait_status(server: Server, path: str, status: int, timeout: float) -> dict[str, Any]:
    """Poll ``path`` until it answers ``status`` (bounded)."""
    end = time.monotonic() + timeout
    while True:
        got, body = _status(server, path)
        if got == status:
            return body
        if time.monotonic() > end:
            raise AssertionError(f"{path}: still {got} {body} after {timeout} s")
        time.sleep(0.05)


async def _seated(server: Server, players: int = 5) -> tuple[str, list[Client]]:
    tokens = [session(server, f"P{i}") for i in range(players)]
    table = await ahttp(server, "POST", "/api/tables", {"players": players}, tokens[0])
    tid = table["id"]
    for tok in tokens[1:]:
        await ahttp(server, "POST", f"/api/tables/{tid}/join", {}, tok)
    clients = [Client(server, tok, f"seat{i}") for i, tok in enumerate(tokens)]
    for c in clients:
        await c.connect(tid)
    return tid, clients


def _to_act(clients: list[Client]) -> list[Client]:
    return [c for c in clients if c.view and c.seat in c.view["to_act"] and c.my_turn_actions()]


async def _act(c: Client, mid: str) -> dict[str, Any]:
    """Send the client's first legal move; its ack or error."""
    await c.send({"v": 1, "type": "action", "id": mid, "action": c.my_turn_actions()[0]})
    return await c.recv_until(lambda m: m.get("id") == mid and m["type"] in ("ack", "error"))


async def _sync(clients: list[Client], seq: int) -> None:
    for c in clients:
        if c.seq < seq:
            await c.recv_until(lambda m, c=c: c.seq >= seq)


async def _act_while_pinging(actor: Client, watcher: Client, mid: str) -> tuple[dict, int]:
    """Send an action and, until its answer comes, ping on another connection back to back:
    the answer, and how many pongs came while the action was still unanswered."""
    await actor.send({"v": 1, "type": "action", "id": mid, "action": actor.my_turn_actions()[0]})
    reply = asyncio.create_task(
        actor.recv_until(lambda m: m.get("id") == mid and m["type"] in ("ack", "error"))
    )
    answered = 0
    while not reply.done():
        await watcher.send({"v": 1, "type": "ping"})
        await watcher.recv_until(lambda m: m["type"] == "pong")
        answered += not reply.done()
    return await reply, answered


async def _outage(server: Server, down: Callable[[], None], up: Callable[[], None]) -> None:
    tid, clients = await _seated(server)
    # the president nominates, one vote is cast: both stored
    (president,) = _to_act(clients)
    assert (await _act(president, "nominate"))["seq"] == 2
    await _sync(clients, 2)
    first, second, third, *_ = _to_act(clients)
    assert (await _act(first, "vote-ok"))["seq"] == 3
    await _sync(clients, 3)

    down()
    reply, answered = await _act_while_pinging(second, third, "outage-1")
    assert reply["type"] == "error" and reply["id"] == "outage-1", reply
    assert reply["code"] == "unavailable"
    # the event loop answered while the write waited for the database (it retries until its
    # deadline, SH_DB_TIMEOUT, and blocks nothing): pongs came before the action's answer. A
    # loop stalled by the write (7.6 s, the fault this guards against) answers the ping it
    # holds together with the error, so one pong at most would come first.
    assert answered >= 2, answered
    # liveness: alive, and says the storage is away; readiness: 503
    health = http(server, "GET", "/healthz")
    assert health["ok"] is True and health["storage"] == "unavailable", health
    ready = _wait_status(server, "/readyz", 503, 10)
    assert ready["ready"] is False and ready["reason"], ready
    # another action, a chat line and a new session are refused quickly, nothing changes
    reply = await _act(third, "outage-2")
    assert (reply["type"], reply["id"], reply["code"]) == ("error", "outage-2", "unavailable")
    await third.send({"v": 1, "type": "chat", "id": "chat-1", "text": "anyone?"})
    reply = await third.recv_until(lambda m: m.get("id") == "chat-1")
    assert (reply["type"], reply["code"]) == ("error", "unavailable"), reply
    with pytest.raises(HttpError) as refused:
        await ahttp(server, "POST", "/api/session", {"name": "Late"})
    assert refused.value.status == 503 and refused.value.code == "unavailable"
    assert all(c.seq == 3 for c in clients)

    up()  # the server notices by itself
    _wait_status(server, "/readyz", 200, 30)
    assert http(server, "GET", "/healthz")["storage"] == "ok"
    assert (await _act(second, "after-1"))["seq"] == 4
    rng = random.Random(11)
    await asyncio.gather(*(c.play(random.Random(rng.random())) for c in clients))

    record = clients[0].record
    assert record is not None and game_from_record(record).finished
    actions = record["actions"]
    # the votes refused during the outage were never played; the later one was
    acked = {}
    for c in clients:
        acked.update(c.accepted())
        assert "outage-1" not in {m.get("id") for m in c.messages if m["type"] == "ack"}
        assert c.seq == len(actions) + 1  # every update exactly once, in order (Client checks)
    for seq, action in acked.items():
        assert actions[seq - 2] == action
    table_states = states(record, list(range(5)))
    for c in clients:
        check_messages(c, record, table_states)
    # the database holds exactly the announced actions, without a gap
    assert _stored_indexes(server, tid) == list(range(len(actions)))
    stored = http(server, "GET", f"/api/games/{tid}/record")
    assert stored["actions"] == actions


@pytest.mark.timeout(180)
def test_postgres_stopped_and_started(own_postgres: Postgres, make_server: Any) -> None:
    server = make_server(database_url=own_postgres.new_database(), SH_DB_TIMEOUT=str(DB_TIMEOUT))
    asyncio.run(_outage(server, own_postgres.pause, own_postgres.resume))
    # and after a restart the finished game is shown as finished
    server.stop()
    again = make_server(database_url=server.database_url, port=server.port)
    assert http(again, "GET", "/healthz")["games_active"] == 0


@pytest.mark.timeout(180)
def test_sqlite_locked_by_another_process(make_server: Any) -> None:
    server = make_server("sqlite", SH_DB_TIMEOUT=str(DB_TIMEOUT))
    locker = sqlite3.connect(server.data / "secret-hitler.db", isolation_level=None, timeout=0)

    def down() -> None:
        locker.execute("BEGIN IMMEDIATE")  # holds the write lock until up()

    def up() -> None:
        locker.execute("ROLLBACK")

    try:
        asyncio.run(_outage(server, down, up))
    finally:
        locker.close()


def test_unrestorable_game_is_broken(make_server: Any, backend: str) -> None:
    asyncio.run(_unrestorable(make_server, backend))


async def _unrestorable(make_server: Any, backend: str) -> None:
    server = make_server(backend)
    tid, clients = await _seated(server)
    (president,) = _to_act(clients)
    await _act(president, "nominate")
    await _sync(clients, 2)
    for i, c in enumerate(_to_act(clients)):
        await _act(c, f"vote-{i}")
    for c in clients:
        await c.close()
    server.stop()
    engine = _engine(server)
    with engine.begin() as conn:  # the first action is lost: the rest cannot be replayed
        conn.execute(sa.text("DELETE FROM actions WHERE game_id = :g AND idx = 0"), {"g": tid})
    engine.dispose()

    again = make_server(backend, data=server.data, database_url=server.database_url)
    detail = http(again, "GET", f"/api/tables/{tid}")
    assert detail["status"] == "broken" and "could not be replayed" in detail["problem"]
    assert tid not in {t["id"] for t in http(again, "GET", "/api/tables")["tables"]}
    assert http(again, "GET", "/healthz")["games_active"] == 0
    ready = http(again, "GET", "/readyz")
    assert ready["ready"] is True and ready["broken_tables"] == [tid]
    c = Client(again, clients[0].token, "seat0")
    welcome = await c.connect(tid)
    assert welcome is not None and welcome["table"]["status"] == "broken"
    await c.send({"v": 1, "type": "action", "id": "x1", "action": {"type": "vote", "vote": True}})
    err = await c.recv_until(lambda m: m.get("id") == "x1")
    assert (err["type"], err["code"]) == ("error", "table_unavailable")
    await c.close()
    assert f'"game_id": "{tid}"' in again.log_tail(100_000)


# ---------------------------------------------------------------------- supervised table work
FAULT_ENV = {
    "SH_BOT_MODULES": "fault_bots",
    "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[2] / "src")]
        + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    ),
}


def _wait_finished(server: Server, tid: str, timeout: float = 60) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        detail = http(server, "GET", f"/api/tables/{tid}")
        if detail["status"] == "finished":
            return detail
        if time.monotonic() > end:
            raise AssertionError(f"the game did not finish: {detail}\n{server.log_tail()}")
        time.sleep(0.05)


def _log_lines(server: Server, tid: str, text: str) -> list[str]:
    return [
        line
        for line in server.log_tail(10_000_000).splitlines()
        if text in line and f'"game_id": "{tid}"' in line
    ]


def test_failing_bots_are_replaced(make_server: Any, backend: str) -> None:
    server = make_server(backend, SH_BOT_TIMEOUT="0.2", **FAULT_ENV)
    host = session(server, "Host")
    bots = {"0": "raising", "1": "unbuildable", "2": "raising", "3": "slow", "4": "raising"}
    table = http(server, "POST", "/api/tables", {"players": 5, "seat": None, "bots": bots}, host)
    tid = table["id"]
    detail = _wait_finished(server, tid)
    assert detail["winner"] in ("liberal", "fascist")
    record = http(server, "GET", f"/api/games/{tid}/record")
    assert game_from_record(record).finished
    moved = {a["seat"] for a in record["actions"]}
    assert {0, 1, 2, 4} & moved  # the failing seats played (the fallback's moves)
    assert _log_lines(server, tid, "bot raising failed; rule moves instead")
    assert _log_lines(server, tid, "bot unbuildable could not be created; seat 1 plays rule")
    assert _log_lines(server, tid, "bot claims hook failed")
    assert len(_log_lines(server, tid, "bot slow thought longer than 0.2 s; seat 3 plays rule"))
    assert len(_log_lines(server, tid, "thought longer")) == 1  # then the fallback plays it


def test_bots_are_told_which_seats_people_play(make_server: Any) -> None:
    """Every bot the table makes (and an absent person's stand-in) is told which seats people
    play, so that a level can read people with a model fitted to people (``seated_with``)."""
    server = make_server(SH_GRACE="0.2", **FAULT_ENV)
    host = session(server, "Host")
    bots = {str(s): "seated" for s in range(1, 5)}
    table = http(server, "POST", "/api/tables", {"players": 5, "seat": 0, "bots": bots}, host)
    _wait_finished(server, table["id"])
    told = [line for line in server.log_tail(10_000_000).splitlines() if "seated with" in line]
    for seat in range(1, 5):
        assert any(f"seat {seat} seated with people at [0]" in line for line in told), told


def test_the_fallback_plays_with_plain_sense(make_server: Any) -> None:
    """Seats whose bot fails at every move are played by the fallback level (`rule`), which
    keeps liberal policies when a liberal holds one, where random moves would discard about
    half of them, and makes claims."""
    server = make_server(**FAULT_ENV)
    host = session(server, "Host")
    bots = {str(s): "raising" for s in range(7)}
    tables = [
        http(server, "POST", "/api/tables", {"players": 7, "seat": None, "bots": bots}, host)["id"]
        for _ in range(3)
    ]
    kept: list[bool] = []
    for tid in tables:
        _wait_finished(server, tid)
        record = http(server, "GET", f"/api/games/{tid}/record")
        kept += _liberal_policy_choices(record)
        assert any(a["type"] == "claim" for a in record["actions"])  # the fallback claims
    assert len(kept) >= 6 and all(kept), kept


def _liberal_policy_choices(record: dict[str, Any]) -> list[bool]:
    """For each discard or enactment by a liberal holding both kinds of policy: whether he kept
    a liberal one (discarded a fascist as president, enacted the liberal as chancellor)."""
    game = game_from_record(record, apply_actions=False)
    out = []
    for raw in record["actions"]:
        action = Action.from_json(raw)
        if action.type in ("discard", "enact") and game.roles[action.seat].value == "liberal":
            hand = game.view(action.seat).hand
            if "liberal" in hand and "fascist" in hand:
                out.append(action.policy == ("fascist" if action.type == "discard" else "liberal"))
        game.apply(action)
    return out


def test_failing_standin_is_replaced(make_server: Any) -> None:
    """An absent player's stand-in (the default level, here one that raises) is replaced."""
    server = make_server(SH_GRACE="0.2", SH_TEST_RAISING_STANDIN="1", **FAULT_ENV)
    host = session(server, "Host")
    bots = {str(s): "random" for s in range(1, 5)}
    table = http(server, "POST", "/api/tables", {"players": 5, "seat": 0, "bots": bots}, host)
    tid = table["id"]
    _wait_finished(server, tid)
    record = http(server, "GET", f"/api/games/{tid}/record")
    assert any(a["seat"] == 0 and a["type"] != "claim" for a in record["actions"])
    assert _log_lines(server, tid, "bot raising failed; rule moves instead")
