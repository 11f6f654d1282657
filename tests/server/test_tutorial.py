"""The tutorial table (server/tutorial.py): a real game whose chance is fixed and whose bots follow
a script, so that a newcomer who does what the coach says meets a nomination, a vote, a
legislative session, a power and the veto; and a table that behaves like any other otherwise."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from server_support import Client, HttpError, Server, ahttp, http, session

from secret_hitler.engine import Game, game_from_record
from secret_hitler.server.lobby import tutorial as T


async def _my_turn(client: Client) -> list[dict[str, Any]]:
    """Wait until the seat has a decision; its legal non-claim actions."""
    while not (client.view and client.seat in client.view["to_act"] and client.my_turn_actions()):
        await client.recv()
    return client.my_turn_actions()


async def _do(client: Client, action: dict[str, Any]) -> None:
    await client.send({"v": 1, "type": "action", "id": f"a{client.seq}", "action": action})
    await client.recv_until(lambda m: m["type"] == "ack" or m["type"] == "error")
    assert client.messages[-1]["type"] == "ack", client.messages[-1]


async def _follow_the_coach(server: Server) -> tuple[Client, list[str]]:
    token = session(server, "Newcomer")
    table = await ahttp(server, "POST", "/api/tutorial", None, token)
    assert table["status"] == "playing" and table["public"] is False
    assert [s["kind"] for s in table["seats"]] == ["human"] + ["bot"] * 4
    me = Client(server, token, "newcomer")
    await me.connect(table["id"])
    assert me.seat == T.PLAYER and me.view["role"] == "liberal"  # the night: his role
    seen: list[str] = []

    legal = await _my_turn(me)  # round 1: he is the presidential candidate
    seen.append(legal[0]["type"])
    assert {a["target"] for a in legal} == {1, 2, 3, 4}
    await _do(me, {"type": "nominate", "target": 1})
    legal = await _my_turn(me)
    seen.append(legal[0]["type"])
    await _do(me, {"type": "vote", "ja": True})
    legal = await _my_turn(me)  # elected: the legislative session
    seen.append(legal[0]["type"])
    assert me.view["hand"] == ["fascist"] * 3
    await _do(me, {"type": "discard", "policy": "fascist"})
    legal = await _my_turn(me)  # the bot chancellor enacted the 5th fascist policy: Execution
    seen.append(legal[0]["type"])
    assert me.view["fascist_policies"] == 5 and me.view["power"] == "execute"
    assert me.view["proven_not_hitler"] == [1]  # elected chancellor in the Hitler zone
    await _do(me, {"type": "execute", "target": 2})
    legal = await _my_turn(me)  # round 2: the bot nominated him; he votes
    assert me.view["nominee"] == T.PLAYER
    await _do(me, {"type": "vote", "ja": True})
    legal = await _my_turn(me)  # chancellor with two fascist policies and the veto
    seen.append(legal[0]["type"])
    assert me.view["hand"] == ["fascist", "fascist"] and me.view["veto_available"] is True
    assert {"type": "veto", "seat": 0} in legal
    await _do(me, {"type": "veto"})
    await me.recv_until(
        lambda m: m["type"] == "update" and any(e["type"] == "veto" for e in m.get("events", []))
    )
    veto = [
        {k: v for k, v in e.items() if k != "told"}  # (what the log says of it aside)
        for m in me.messages
        if m["type"] == "update"
        for e in m["events"]
    ]
    assert {"type": "veto", "accepted": True, "president": 1} in veto
    seen.append("veto")
    return me, seen


def test_the_scripted_tutorial_reaches_every_step(server: Server) -> None:
    me, seen = asyncio.run(_follow_the_coach(server))
    assert seen == ["nominate", "vote", "discard", "execute", "enact", "veto"]
    assert me.view["election_tracker"] == 1 and me.view["fascist_policies"] == 5


async def _play_out(server: Server, seed: int) -> dict[str, Any]:
    token = session(server, f"Player {seed}")
    table = await ahttp(server, "POST", "/api/tutorial", None, token)
    me = Client(server, token, "player")
    await me.connect(table["id"])
    await me.play(random.Random(seed))  # whatever he does, the game goes on to its end
    assert me.record is not None
    stored = await ahttp(server, "GET", f"/api/games/{table['id']}/record", None, token)
    assert stored["actions"] == me.record["actions"]
    return stored


def test_the_tutorial_deal_is_fixed_and_the_game_replays(server: Server) -> None:
    for seed in (1, 2):
        rec = asyncio.run(_play_out(server, seed))
        assert rec["roles"] == T.ROLES and rec["first_president"] == T.FIRST_PRESIDENT
        assert rec["deck"] == T.DECK
        assert game_from_record(rec).finished  # the stored record is the game: it replays
    # the fixings are a legal deal for these rules (the engine checks the deck's composition)
    Game(T.PLAYERS, T.RULES, **T.fixings())


def test_a_tutorial_needs_a_session_and_is_not_in_the_lobby(server: Server) -> None:
    with pytest.raises(HttpError) as err:
        http(server, "POST", "/api/tutorial")
    assert err.value.status == 401
    token = session(server, "Shy")
    table = http(server, "POST", "/api/tutorial", None, token)
    listed = http(server, "GET", "/api/tables")["tables"]
    assert table["id"] not in {t["id"] for t in listed}
