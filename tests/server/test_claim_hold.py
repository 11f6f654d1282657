"""A person gets time to claim, on a real server: after a government with a person in it, a bot
candidate waits ``SH_CLAIM_WAIT`` before it nominates, and nominates as soon as the person has
claimed. Bots think without delay here (``SH_BOT_DELAY=0``): without the wait the nomination
would come at once. How long the candidate waited is read from the server's own clock: with a
decision timer every update carries the deadline of the decision it opens, so two deadlines
differ by the time between the decisions' starts.

The candidate waits for every window opened in the last government (a president who peeked
claims the peek too), so the patient table's person claims each one."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from server_support import Client, Server, ahttp, session

HAND = ("president_hand", "chancellor_hand")


def _nominated(m: dict[str, Any]) -> bool:
    return m["type"] == "update" and any(e["type"] == "nominated" for e in m["events"])


async def _one_table(server: Server, claims_at_once: bool) -> float | None:
    """Play until Ada may claim her hand while a bot is the candidate; then claim at once, or
    never. How long the candidate took to nominate (server seconds); None if the game ended
    before Ada sat in a government."""
    host = session(server, "Ada")
    bots = {str(s): "rule" for s in range(1, 5)}
    body = {"players": 5, "seat": 0, "bots": bots, "timer": 3600}
    table = await ahttp(server, "POST", "/api/tables", body, host)
    me = Client(server, host, "Ada")
    await me.connect(table["id"])
    end = time.monotonic() + 120
    try:
        while True:
            assert time.monotonic() < end, "Ada was never in a government"
            view = me.view
            assert view is not None
            if view["phase"] == "game_over":
                return None
            claims = [a for a in me.legal if a["type"] == "claim" and a["subject"] in HAND]
            turn = [a for a in me.legal if a["type"] != "claim"]
            if claims and view["phase"] == "nominate" and view["candidate"] != 0:
                opened = me.messages[-1]["deadline"]  # the nomination's decision began
                since = len(me.messages)
                if claims_at_once:  # every window she has: the hand, and a peek she made
                    subjects = {a["subject"]: a for a in me.legal if a["type"] == "claim"}
                    for i, claim in enumerate(subjects.values()):
                        early = [m for m in me.messages[since:] if _nominated(m)]
                        assert not early, "the bot nominated before Ada's claims"
                        await me.send(
                            {"v": 1, "type": "action", "id": f"claim{i}", "action": claim}
                        )
                        ack = await me.recv_until(lambda m, i=i: m.get("id") == f"claim{i}")
                        assert ack["type"] == "ack", ack
                nominated = await me.recv_until(_nominated, timeout=30)
                if claims_at_once:
                    assert nominated["seq"] > ack["seq"]
                return float(nominated["deadline"] - opened)
            if claims:  # her own nomination next: she claims, nobody waits
                await me.send({"v": 1, "type": "action", "id": f"c{me.seq}", "action": claims[0]})
                await me.recv_until(lambda m: m["type"] in ("ack", "error"))
            elif turn and 0 in view["to_act"]:
                ja = [a for a in turn if a["type"] == "vote" and a["ja"]]
                action = ja[0] if ja else turn[0]
                await me.send({"v": 1, "type": "action", "id": f"a{me.seq}", "action": action})
                await me.recv_until(lambda m: m["type"] in ("update", "error"))
            else:
                await me.recv_until(lambda m: m["type"] == "update")
    finally:
        await me.close()


async def _waited(server: Server, claims_at_once: bool) -> float:
    for _ in range(5):  # a game may end before Ada sits in a government
        waited = await _one_table(server, claims_at_once)
        if waited is not None:
            return waited
    raise AssertionError("Ada never got to claim in 5 games")


def test_bot_candidate_waits_for_a_persons_claim_then_nominates_at_once(
    make_server: object,
) -> None:
    patient = make_server(SH_BOT_DELAY="0", SH_CLAIM_WAIT="600")  # type: ignore[operator]
    assert asyncio.run(_waited(patient, claims_at_once=True)) < 30  # her claim ended the wait
    brief = make_server(SH_BOT_DELAY="0", SH_CLAIM_WAIT="2")  # type: ignore[operator]
    assert asyncio.run(_waited(brief, claims_at_once=False)) >= 2 - 0.002  # it waited it out
