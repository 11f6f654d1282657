"""Persistence: the server is killed with SIGKILL mid-game and restarted on the same data; the
game goes on with no accepted action lost (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from server_support import Client, Server, ahttp, check_messages, http, session, states

from secret_hitler.engine import game_from_record


def _public(action: dict[str, Any]) -> dict[str, Any]:
    out = {"seat": action["seat"], "type": action["type"]}
    if "target" in action and action["type"] != "claim":
        out["target"] = action["target"]
    return out if action["type"] != "claim" else action


async def _kill_and_resume(make_server: Any, backend: str) -> None:
    server: Server = make_server(backend)
    rng = random.Random(7)
    tokens = [session(server, f"P{i}") for i in range(4)]
    table = await ahttp(
        server, "POST", "/api/tables", {"players": 5, "bots": {"4": "random"}}, tokens[0]
    )
    tid = table["id"]
    for tok in tokens[1:]:
        await ahttp(server, "POST", f"/api/tables/{tid}/join", {}, tok)
    clients = [Client(server, tok, f"seat{i}") for i, tok in enumerate(tokens)]
    for c in clients:
        await c.connect(tid)
    # play until seq 12, then one more action is sent and the server dies at once
    await asyncio.gather(
        *(
            c.play(random.Random(rng.random()), claim_p=0.3, stop=lambda c: c.seq >= 12)
            for c in clients
        )
    )
    actor = next(
        (c for c in clients if c.view and c.seat in c.view["to_act"] and c.my_turn_actions()), None
    )
    if actor is not None:
        await actor.send(
            {"v": 1, "type": "action", "id": "last-words", "action": actor.my_turn_actions()[0]}
        )
    server.kill()
    seen_before: dict[int, dict[str, Any]] = {}
    acked_before: dict[int, dict[str, Any]] = {}
    for c in clients:
        for m in c.messages:
            if m["type"] == "update" and m["action"] is not None:
                seen_before[m["seq"]] = m["action"]
        acked_before.update(c.accepted())
        await c.close()
    assert max(seen_before) >= 12

    # restart on the same data folder / database and port
    again = make_server(
        backend, data=server.data, database_url=server.database_url, port=server.port
    )
    health = http(again, "GET", "/healthz")
    assert health["games_active"] == 1
    assert health["database"] == backend
    for c in clients:
        c.server = again
        first = await c.connect(tid, since=c.seq)
        assert first is not None and first["type"] == "resumed"
    await asyncio.gather(*(c.play(random.Random(rng.random())) for c in clients))
    record = clients[0].record
    assert record is not None and game_from_record(record).finished
    actions = record["actions"]
    # nothing that anyone was told about, or that was acknowledged, was lost
    for seq, public in seen_before.items():
        assert _public(actions[seq - 2]) == public
    for seq, action in acked_before.items():
        assert actions[seq - 2] == action
    # every message before and after the restart matches each seat's view
    table_states = states(record, list(range(5)))
    for c in clients:
        assert c.record == record
        check_messages(c, record, table_states)
        assert c.seq == len(actions) + 1
    stored = http(again, "GET", f"/api/games/{tid}/record")
    assert stored["actions"] == actions
    for c in clients:
        await c.close()


@pytest.mark.timeout(180)
def test_sigkill_mid_game_then_restart(make_server: Any, backend: str) -> None:
    asyncio.run(_kill_and_resume(make_server, backend))
