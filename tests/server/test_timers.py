"""Timers and presence: a stand-in bot moves when the decision timer runs out or a player has
been away longer than the grace period; reconnecting resumes from the last seq seen."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from server_support import Client, Server, ahttp, check_messages, session, states


async def _timer(server: Server) -> None:
    host = session(server, "Sleepy")
    bots = {str(s): "random" for s in range(1, 5)}
    table = await ahttp(
        server, "POST", "/api/tables", {"players": 5, "bots": bots, "timer": 1}, host
    )
    assert table["status"] == "playing" and table["timer"] == 1
    c = Client(server, host, "sleepy")
    welcome = await c.connect(table["id"])
    assert welcome is not None and welcome["seat"] == 0
    timed = []
    while len(timed) < 2:  # the player never acts: the server plays for them when time is up
        m = await c.recv_until(lambda m: m["type"] in ("update", "game_over"), timeout=30)
        if m["type"] == "game_over":
            break
        if m.get("by") == "timer":
            timed.append(m)
            assert m["action"]["seat"] == 0
        if m["view"]["phase"] != "game_over" and 0 in m["view"]["to_act"]:
            assert m["deadline"] is not None
    assert timed or c.record is not None
    await c.close()


@pytest.mark.timeout(90)
def test_decision_timer_stand_in(make_server: Any) -> None:
    asyncio.run(_timer(make_server(SH_MIN_TIMER="1")))  # 1 s timers, for a quick test


async def _absent(server: Server) -> None:
    tokens = [session(server, n) for n in ("Ann", "Ben")]
    bots = {str(s): "random" for s in range(2, 5)}
    table = await ahttp(server, "POST", "/api/tables", {"players": 5, "bots": bots}, tokens[0])
    tid = table["id"]
    await ahttp(server, "POST", f"/api/tables/{tid}/join", {"seat": 1}, tokens[1])
    ann, ben = Client(server, tokens[0], "ann"), Client(server, tokens[1], "ben")
    watcher = Client(server, None, "watcher")
    await watcher.connect(tid)
    await ann.connect(tid)
    await ben.connect(tid)
    # Ben leaves without a word; Ann plays. After the grace period (1 s) Ben's moves are made for him.
    await ben.close()
    rng = random.Random(5)

    def ben_was_replaced(_: Client) -> bool:
        return any(
            m["type"] == "update" and m.get("by") == "absent" and m["action"]["seat"] == 1
            for m in watcher.messages
        )

    async def watch() -> None:
        while not ben_was_replaced(watcher) and watcher.record is None:
            await watcher.recv(30)

    await asyncio.gather(ann.play(rng, stop=lambda c: ben_was_replaced(c)), watch())
    assert ben_was_replaced(ben) or watcher.record is not None
    table_now = await ahttp(server, "GET", f"/api/tables/{tid}")
    assert table_now["seats"][1]["connected"] is False
    # when the stand-in took over (Unix time, like `deadline`): past, within the grace period
    if table_now["status"] == "playing":
        assert time.time() - 30 < table_now["seats"][1]["standin_at"] <= time.time()
    assert "standin_at" not in table_now["seats"][0]  # connected
    # Ben comes back with the last seq he saw: he gets exactly the updates he missed
    last = ben.seq
    first = await ben.connect(tid, since=last)
    assert first is not None and first["type"] == "resumed" and first["since"] == last
    missed = first["seq"] - last
    for _ in range(missed):
        await ben.recv_until(lambda m: m["type"] == "update")
    assert ben.seq == first["seq"]
    # a seq the server cannot serve gives a fresh welcome instead
    other = Client(server, tokens[1], "ben2")
    welcome = await other.connect(tid, since=10_000)
    assert welcome is not None and welcome["type"] == "welcome" and welcome["seat"] == 1
    await other.close()
    # both play to the end; everything Ben and the watcher got matches their views
    await asyncio.gather(ann.play(rng), ben.play(rng), watcher.play(rng))
    record = ann.record
    assert record is not None
    table_states = states(record, [0, 1, None])
    for c in (ann, ben, watcher):
        check_messages(c, record, table_states)
    assert any(a.get("by") == "absent" for a in _actions_by(record, watcher))
    for c in (ann, ben, watcher):
        await c.close()


def _actions_by(record: dict[str, Any], c: Client) -> list[dict[str, Any]]:
    return [m for m in c.messages if m["type"] == "update" and m.get("by")]


@pytest.mark.timeout(120)
def test_absent_player_stand_in_and_resume(make_server: Any) -> None:
    asyncio.run(_absent(make_server(SH_GRACE="1")))
