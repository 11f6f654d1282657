"""Bad client messages: each gets an error message and nothing changes."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from server_support import Client, Server, ahttp, session


async def _table_of_humans(server: Server, players: int = 5) -> tuple[str, list[Client]]:
    tokens = [session(server, f"P{i}") for i in range(players)]
    table = await ahttp(server, "POST", "/api/tables", {"players": players}, tokens[0])
    tid = table["id"]
    for i in range(1, players):
        await ahttp(server, "POST", f"/api/tables/{tid}/join", {}, tokens[i])
    clients = []
    for i, tok in enumerate(tokens):
        c = Client(server, tok, f"seat{i}")
        await c.connect(tid)
        clients.append(c)
    for c in clients:
        assert c.seat is not None and c.view is not None and c.seq == 1
    return tid, clients


async def _expect_error(c: Client, payload: object, code: str) -> dict:
    """Send ``payload``; the answer is an error with ``code``, and nothing else happens."""
    before = c.seq
    await c.send(payload if isinstance(payload, (str, bytes)) else json.dumps(payload))
    await c.send({"v": 1, "type": "ping"})
    got = []
    while not got or got[-1]["type"] != "pong":
        m = await c.recv()
        if m["type"] != "table":  # presence changes of other connections may come in between
            got.append(m)
    assert len(got) == 2, got
    err = got[0]
    assert err["type"] == "error" and err["code"] == code, err
    assert c.seq == before
    return err


async def _errors(server: Server) -> None:
    tid, clients = await _table_of_humans(server)
    view = clients[0].view
    assert view is not None
    cand = view["candidate"]
    other = (cand + 1) % 5
    cand_c, other_c = clients[cand], clients[other]
    target = next(a["target"] for a in cand_c.legal if a["type"] == "nominate")

    # acting for another seat
    err = await _expect_error(
        other_c,
        {
            "v": 1,
            "type": "action",
            "id": "x1",
            "action": {"seat": cand, "type": "nominate", "target": target},
        },
        "not_your_seat",
    )
    assert err["id"] == "x1"
    # out of turn
    await _expect_error(
        other_c,
        {"v": 1, "type": "action", "id": "x2", "action": {"type": "nominate", "target": cand}},
        "not_your_turn",
    )
    await _expect_error(
        other_c, {"type": "action", "action": {"type": "vote", "ja": True}}, "not_your_turn"
    )
    # malformed JSON, wrong shapes
    await _expect_error(other_c, "{not json", "bad_json")
    await _expect_error(other_c, "[1, 2]", "bad_json")
    await _expect_error(other_c, b"\xff\xfe", "bad_json")
    await _expect_error(other_c, {"v": 1, "type": "action", "id": "x3"}, "bad_message")
    await _expect_error(other_c, {"v": 1, "type": "chat", "text": 5}, "bad_message")
    await _expect_error(other_c, {"v": 2, "type": "ping"}, "unsupported_version")
    # unknown message types
    await _expect_error(other_c, {"v": 1, "type": "launch_missiles"}, "unknown_type")
    await _expect_error(other_c, {"v": 1}, "unknown_type")
    # an oversized frame (limit 64 KiB) is refused, the connection stays usable
    big = json.dumps({"v": 1, "type": "chat", "text": "x" * 70000})
    await _expect_error(other_c, big, "message_too_large")
    await _expect_error(other_c, big.encode(), "message_too_large")
    # malformed and illegal actions from the seat whose turn it is
    await _expect_error(
        cand_c, {"v": 1, "type": "action", "action": {"type": "nominate"}}, "invalid_action"
    )
    await _expect_error(
        cand_c, {"v": 1, "type": "action", "action": {"type": "warp"}}, "invalid_action"
    )
    err = await _expect_error(
        cand_c,
        {"v": 1, "type": "action", "action": {"type": "nominate", "target": cand}},
        "illegal_action",
    )
    assert err["detail"]
    err = await _expect_error(
        cand_c, {"v": 1, "type": "action", "action": {"type": "vote", "ja": True}}, "illegal_action"
    )
    assert err["detail"] == "wrong_phase"
    # spectators cannot act; a connection must say hello first
    spectator = Client(server, None, "spectator")
    await spectator.connect(tid)
    await _expect_error(
        spectator, {"v": 1, "type": "action", "action": {"type": "vote", "ja": True}}, "not_seated"
    )
    rude = Client(server, clients[1].token, "rude")
    await rude.connect(tid, hello=False)
    await rude.send({"v": 1, "type": "chat", "text": "hi"})
    err = await rude.recv()
    assert err["type"] == "error" and err["code"] == "hello_required"
    # a frame over 1 MiB closes that connection (1009), the others carry on
    await rude.send({"v": 1, "type": "hello"})
    await rude.recv_until(lambda m: m["type"] == "welcome")
    await rude.send("x" * (1 << 20) + "x")
    with pytest.raises(websockets.ConnectionClosed) as info:
        for _ in range(10):
            await rude.recv()
    assert info.value.rcvd is None or info.value.rcvd.code == 1009

    # nothing changed: no update reached anyone, the game still waits for the same nomination
    for c in [*clients, spectator]:
        assert c.seq == 1
        assert not [m for m in c.messages if m["type"] == "update"]
    # and the game goes on normally
    await cand_c.send(
        {"v": 1, "type": "action", "id": "ok", "action": {"type": "nominate", "target": target}}
    )
    for c in [*clients, spectator]:
        m = await c.recv_until(lambda m: m["type"] == "update")
        assert m["seq"] == 2 and m["action"] == {"seat": cand, "type": "nominate", "target": target}
    ack = await cand_c.recv_until(lambda m: m["type"] == "ack")
    assert ack == {"v": 1, "type": "ack", "id": "ok", "seq": 2}
    record_state = await ahttp(server, "GET", f"/api/tables/{tid}")
    assert record_state["status"] == "playing"
    for c in [*clients, spectator]:
        await c.close()


@pytest.mark.timeout(60)
def test_bad_messages_get_errors_and_change_nothing(server: Server) -> None:
    asyncio.run(_errors(server))


async def _refused(server: Server) -> None:
    host = session(server, "Host")
    table = await ahttp(server, "POST", "/api/tables", {"players": 5, "public": False}, host)
    # unknown table
    c = Client(server, None, "nobody")
    await c.connect("nope", hello=False)
    err = await c.recv()
    assert err["code"] == "not_found"
    # a private table needs the invite (or a seat)
    c = Client(server, session(server, "Eve"), "eve")
    await c.connect(table["id"], hello=False)
    err = await c.recv()
    assert err["code"] == "invite_required"
    c = Client(server, None, "guest")
    welcome = await c.connect(table["id"], query=f"?invite={table['invite']}")
    assert welcome is not None and welcome["seat"] is None and welcome["table"]["invite"] is None
    await c.close()
    # a forged token is refused, not taken for an anonymous spectator: the person learns that
    # the credential no longer holds (docs/protocol.md, close code 4401)
    c = Client(server, "forged.token.value", "forged")
    await c.connect(table["id"], hello=False, query=f"?invite={table['invite']}")
    err = await c.recv()
    assert (err["type"], err["code"]) == ("error", "unauthorized")
    await asyncio.wait_for(c.ws.wait_closed(), 20)
    assert c.ws.close_code == 4401


@pytest.mark.timeout(60)
def test_refused_connections(server: Server) -> None:
    asyncio.run(_refused(server))
