"""Table chat: limits, who may speak when, plain text, stored with the game."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from server_support import Client, Server, ahttp, session

# Every policy fascist and an execution at slot 1: the first session leads to an execution.
RULES = {
    "preset": "official",
    "deck": {"liberal": 0, "fascist": 17},
    "powers": ["execute", None, None, None, None],
}


async def _chat_error(c: Client, text: Any) -> dict[str, Any]:
    await c.send({"v": 1, "type": "chat", "id": "m", "text": text})
    m = await c.recv_until(lambda m: m["type"] in ("error", "ack"))
    assert m["type"] == "error", m
    return m


async def _say(c: Client, text: str) -> dict[str, Any]:
    await c.send({"v": 1, "type": "chat", "id": "m", "text": text})
    await c.recv_until(lambda m: m["type"] == "ack")
    return next(m for m in reversed(c.messages) if m["type"] == "chat")["message"]


async def _until(c: Client, pred: Any) -> None:
    """Wait until the client's current view satisfies ``pred`` (it may already)."""
    while c.view is None or not pred(c.view):
        await c.recv_until(lambda m: m["type"] == "update")


async def _act(c: Client, pick: Any) -> None:
    action = pick([a for a in c.legal if a["type"] != "claim"])
    await c.send({"v": 1, "type": "action", "id": "x", "action": action})
    await c.recv_until(lambda m: m["type"] in ("ack", "error"))
    assert c.messages[-1]["type"] == "ack", c.messages[-1]


async def _scenario(server: Server) -> None:
    tokens = [session(server, f"P{i}") for i in range(5)]
    table = await ahttp(
        server,
        "POST",
        "/api/tables",
        {"players": 5, "rules": RULES, "auto_start": False},
        tokens[0],
    )
    tid = table["id"]
    for tok in tokens[1:]:
        await ahttp(server, "POST", f"/api/tables/{tid}/join", {}, tok)
    clients = [Client(server, tok, f"seat{i}") for i, tok in enumerate(tokens)]
    for c in clients:
        await c.connect(tid)
    guest = Client(server, session(server, "Guest"), "guest")
    await guest.connect(tid)

    # before the start anyone signed in may chat, spectators too; text is stored verbatim
    html = "<b>hi</b> & <script>alert(1)</script>"
    msg = await _say(guest, html)
    assert msg["text"] == html and msg["seat"] is None
    got = await clients[3].recv_until(
        lambda m: m["type"] == "chat" and m["message"]["id"] == msg["id"]
    )
    assert got["message"]["text"] == html
    # limits
    assert (await _chat_error(clients[1], "x" * 301))["code"] == "chat_too_long"
    assert (await _chat_error(clients[1], "   \u0000 "))["code"] == "chat_empty"
    ok = await _say(clients[1], "y" * 300)
    assert len(ok["text"]) == 300
    spammer = Client(server, session(server, "Spammer"), "spammer")
    await spammer.connect(tid)
    for i in range(5):
        await _say(spammer, f"spam {i}")
    err = await _chat_error(spammer, "one too many")
    assert err["code"] == "rate_limited" and err["id"] == "m"
    # how long to wait: the chat rate's window (5 lines in 10 seconds) lets one more in then
    assert 1 <= err["detail"]["retry_after"] <= 10

    await ahttp(server, "POST", f"/api/tables/{tid}/start", {}, tokens[0])
    for c in clients:
        await _until(c, lambda v: True)
    err = await _chat_error(guest, "can I talk?")
    assert err["code"] == "chat_forbidden" and err["detail"] == "spectator"

    # nominate, everyone votes ja: a legislative session
    view = clients[0].view
    assert view is not None
    pres = clients[view["candidate"]]
    await _act(pres, lambda legal: legal[0])
    for c in clients:
        await _until(c, lambda v: v["phase"] == "vote")
    for c in clients:
        await _act(c, lambda legal: next(a for a in legal if a["ja"]))
    for c in clients:
        await _until(c, lambda v: v["phase"] == "discard")
    v = pres.view
    assert v is not None and v["phase"] == "discard"
    chan = clients[v["chancellor"]]
    for c in (pres, chan):
        err = await _chat_error(c, "trust me")
        assert err["code"] == "chat_forbidden" and err["detail"] == "legislative_session"
    bystander = next(c for c in clients if c not in (pres, chan))
    await _say(bystander, "what did you draw?")
    await _act(pres, lambda legal: legal[0])
    await _until(chan, lambda v: v["phase"] == "enact")
    err = await _chat_error(chan, "still here")
    assert err["detail"] == "legislative_session"
    await _act(chan, lambda legal: legal[0])
    # the fascist policy gives an execution: the president shoots someone
    await _until(pres, lambda v: v["phase"] in ("execute", "game_over"))
    if pres.view is not None and pres.view["phase"] == "execute":
        await _act(pres, lambda legal: legal[0])
        victim = pres.sent["x"]["target"]
        dead = clients[victim]
        await _until(dead, lambda v: not v["alive"][victim])
        if dead.view is not None and dead.view["phase"] != "game_over":
            err = await _chat_error(dead, "I was liberal!")
            assert err["code"] == "chat_forbidden" and err["detail"] == "dead"
            # the president may talk again now
            await _say(pres, "sorry")

    # play to the end; the chat is stored with the game
    rng = random.Random(3)
    await asyncio.gather(*(c.play(random.Random(rng.random())) for c in clients))
    record = await ahttp(server, "GET", f"/api/games/{tid}/record")
    texts = [m["text"] for m in record["chat"]]
    assert html in texts and "what did you draw?" in texts
    fields = {"id", "seat", "user_id", "name", "text", "ts", "after"}
    assert all(set(m) == fields for m in record["chat"])
    # the lines said during the game are the record's talk, each after the actions before it
    assert [t["text"] for t in record["talk"]] == [
        m["text"] for m in record["chat"] if m["after"] is not None
    ]
    assert [m["id"] for m in record["chat"]] == sorted(m["id"] for m in record["chat"])
    # after the end, spectators may talk again
    await _say(guest, "gg")
    json.dumps(record)
    for c in [*clients, guest, spammer]:
        await c.close()


@pytest.mark.timeout(90)
def test_chat_rules(server: Server) -> None:
    asyncio.run(_scenario(server))


# Every policy fascist and no powers: a president's hand is always three reds.
FASCIST_DECK = {"preset": "official", "deck": {"liberal": 0, "fascist": 17}, "powers": [None] * 5}


async def _claim_offered(c: Client, text: str, lang: str | None) -> dict[str, Any] | None:
    """The claim the server read in ``c``'s line (said from a page in ``lang``), if any."""
    msg: dict[str, Any] = {"v": 1, "type": "chat", "id": "lang", "text": text}
    if lang is not None:
        msg["lang"] = lang
    await c.send(msg)
    ack = await c.recv_until(lambda m: m["type"] in ("ack", "error") and m["id"] == "lang")
    assert ack["type"] == "ack", ack
    claim: dict[str, Any] | None = ack.get("claim")
    return claim


async def _vietnamese_scenario(server: Server) -> None:
    tokens = [session(server, f"V{i}") for i in range(5)]
    body = {"players": 5, "rules": FASCIST_DECK, "auto_start": False}
    table = await ahttp(server, "POST", "/api/tables", body, tokens[0])
    tid = table["id"]
    for tok in tokens[1:]:
        await ahttp(server, "POST", f"/api/tables/{tid}/join", {}, tok)
    clients = [Client(server, tok, f"seat{i}") for i, tok in enumerate(tokens)]
    for c in clients:
        await c.connect(tid)
    await ahttp(server, "POST", f"/api/tables/{tid}/start", {}, tokens[0])
    for c in clients:
        await _until(c, lambda v: True)
    view = clients[0].view
    assert view is not None
    pres = clients[view["candidate"]]
    await _act(pres, lambda legal: legal[0])
    for c in clients:
        await _until(c, lambda v: v["phase"] == "vote")
    for c in clients:
        await _act(c, lambda legal: next(a for a in legal if a["ja"]))
    await _until(pres, lambda v: v["phase"] == "discard")
    chan = clients[pres.view["chancellor"]]
    await _act(pres, lambda legal: legal[0])
    await _until(chan, lambda v: v["phase"] == "enact")
    await _act(chan, lambda legal: legal[0])
    await _until(pres, lambda v: v["phase"] == "nominate")
    hand = {"type": "claim", "seat": pres.seat, "subject": "president_hand"}
    hand["policies"] = ["fascist"] * 3
    assert any(a == hand for a in pres.legal)  # his claim is open
    said = "toi boc 3 do"  # "tôi bốc 3 đỏ", typed without its marks
    # from an English page at a table where nobody writes Vietnamese: "do" is an English word
    assert await _claim_offered(pres, said, "en") is None
    # someone at the table writes from a Vietnamese page: the table's language reads it
    bystander = next(c for c in clients if c not in (pres, chan))
    assert await _claim_offered(bystander, "chào cả nhà", "vi") is None
    assert await _claim_offered(pres, said, "en") == hand
    # his own page in Vietnamese reads it too; a page language the server does not know is refused
    assert await _claim_offered(pres, "toi boc do do do", "vi") == hand
    await chan.send({"v": 1, "type": "chat", "id": "bad", "text": "hi", "lang": "xx" * 200})
    err = await chan.recv_until(lambda m: m["type"] in ("ack", "error") and m["id"] == "bad")
    assert err["type"] == "error" and err["code"] == "bad_message", err
    assert "xx" not in err["message"]  # the input is not echoed
    for c in clients:
        await c.close()


@pytest.mark.timeout(60)
def test_a_claim_typed_without_vietnamese_marks_is_offered_at_a_vietnamese_table(
    server: Server,
) -> None:
    """The client says its page language with each line; the server reads a person's line in
    it and in the languages the table's people write from (issue 39 point 5)."""
    asyncio.run(_vietnamese_scenario(server))
