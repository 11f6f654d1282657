"""A person gets time to claim: a bot candidate holds its nomination until the claims are in."""

from __future__ import annotations

import asyncio
import time

from server_support import Client, Server, ahttp, session

BOT_DELAY = 0.25  # the hold is 8 bot thinking times: 2 s; a bot alone decides in 0.125-0.375 s
HUMAN_THINKS = 0.6  # slower than any bot, well inside the hold


async def _one_table(server: Server) -> bool:
    """Play until Ada may claim, then claim slowly; False if the game ended before that."""
    host = session(server, "Ada")
    bots = {str(s): "rule" for s in range(1, 5)}
    table = await ahttp(
        server, "POST", "/api/tables", {"players": 5, "seat": 0, "bots": bots}, host
    )
    me = Client(server, host, "Ada")
    await me.connect(table["id"])
    end = time.monotonic() + 60
    claimed_at_seq = None
    while claimed_at_seq is None:
        assert time.monotonic() < end, "Ada was never in a government"
        view = me.view
        assert view is not None
        if view["phase"] == "game_over":
            await me.close()
            return False
        claims = [a for a in me.legal if a["type"] == "claim"]
        turn = [a for a in me.legal if a["type"] != "claim"]
        if claims:
            await asyncio.sleep(HUMAN_THINKS)  # a person reads the hand and decides what to say
            await me.send({"v": 1, "type": "action", "id": "claim", "action": claims[0]})
            reply = await me.recv_until(lambda m: m.get("id") == "claim")
            assert reply["type"] == "ack", reply  # the window was still open
            claimed_at_seq = reply["seq"]
            assert claimed_at_seq is not None
        elif turn and 0 in view["to_act"]:
            ja = [a for a in turn if a["type"] == "vote" and a["ja"]]
            action = ja[0] if ja else turn[0]
            await me.send({"v": 1, "type": "action", "id": f"a{me.seq}", "action": action})
            await me.recv_until(lambda m: m["type"] in ("update", "error"))
        else:
            await me.recv_until(lambda m: m["type"] == "update")
    await me.close()
    return True


async def _scenario(make_server: object) -> None:
    server = make_server(SH_BOT_DELAY=str(BOT_DELAY))  # type: ignore[operator]
    for _ in range(5):  # a game may end before Ada sits in a government
        if await _one_table(server):
            return
    raise AssertionError("Ada never got to claim in 5 games")


def test_bot_candidate_waits_for_a_persons_claim(make_server: object) -> None:
    asyncio.run(_scenario(make_server))
