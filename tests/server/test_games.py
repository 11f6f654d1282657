"""Complete games over real WebSockets, humans (test clients) and server bots mixed, with every
message checked against the engine view of its recipient (no hidden information leaks)."""

from __future__ import annotations

import asyncio
import random

import pytest
from server_support import Client, Server, ahttp, check_messages, http, session, states

from secret_hitler.engine import game_from_record


async def _full_game(
    server: Server, players: int, humans: list[int], level: str, seed: int
) -> None:
    rng = random.Random(seed)
    host = session(server, "Host")
    bots = {str(s): level for s in range(players) if s not in humans}
    table = await ahttp(
        server, "POST", "/api/tables", {"players": players, "seat": humans[0], "bots": bots}, host
    )
    tid = table["id"]
    assert table["status"] == ("waiting" if len(humans) > 1 else "playing")
    clients = [Client(server, host, f"seat{humans[0]}")]
    spectator = Client(server, None, "spectator")
    await spectator.connect(tid)
    await clients[0].connect(tid)
    for s in humans[1:]:
        token = session(server, f"Player {s}")
        c = Client(server, token, f"seat{s}")
        await c.connect(tid)  # a spectator first: it becomes the seat when it joins
        joined = await ahttp(server, "POST", f"/api/tables/{tid}/join", {"seat": s}, token)
        assert joined["seats"][s]["user_id"] is not None
        clients.append(c)
    # the last join filled the table: auto start
    await asyncio.gather(
        *(c.play(random.Random(rng.random())) for c in clients), spectator.play(rng)
    )
    record = clients[0].record
    assert record is not None and record.get("result") is not None
    for c in clients:
        assert c.record == record
        assert c.seat is not None
    # replays exactly, and the record endpoint serves the same game
    game = game_from_record(record)
    assert game.finished
    stored = http(server, "GET", f"/api/games/{tid}/record")
    assert stored["actions"] == record["actions"] and stored["roles"] == record["roles"]
    table_states = states(record, [*range(players), None])
    for c in [*clients, spectator]:
        assert check_messages(c, record, table_states) >= len(record["actions"]) // 2
    # every accepted action reached every connection exactly once, in order
    for c in [*clients, spectator]:
        assert c.seq == len(record["actions"]) + 1
    # no size channel: at each update every connection's frame had one length (the spectator's
    # frame is public, so the length depends on nothing hidden)
    assert len(spectator.update_sizes) >= len(record["actions"]) // 2
    for seq, size in spectator.update_sizes.items():
        assert {c.update_sizes.get(seq, size) for c in clients} == {size}, seq
    # bots took part (and the rule/bayes levels publish claims through the agent's hook)
    assert any(a["seat"] not in humans for a in record["actions"])
    if level != "random":
        assert any(a["type"] == "claim" and a["seat"] not in humans for a in record["actions"])
    for c in [*clients, spectator]:
        await c.close()


@pytest.mark.timeout(120)
def test_five_players_clients_and_bots(server: Server) -> None:
    asyncio.run(_full_game(server, 5, [0, 2, 3], "random", 1))


@pytest.mark.timeout(180)
def test_ten_players_clients_and_rule_bots(server: Server) -> None:
    asyncio.run(_full_game(server, 10, [1, 4, 6, 9], "rule", 2))


@pytest.mark.timeout(180)
def test_seven_players_bayes_bots_make_claims(server: Server) -> None:
    asyncio.run(_full_game(server, 7, [3], "bayes", 3))


async def _welcomes_have_one_length(server: Server) -> None:
    rng = random.Random(3)
    tokens = [session(server, f"P{s}") for s in range(5)]
    table = await ahttp(server, "POST", "/api/tables", {"players": 5, "seat": 0}, tokens[0])
    tid = table["id"]
    clients = [Client(server, tokens[0], "seat0")]
    await clients[0].connect(tid)
    for s in range(1, 5):
        await ahttp(server, "POST", f"/api/tables/{tid}/join", {"seat": s}, tokens[s])
        c = Client(server, tokens[s], f"seat{s}")
        await c.connect(tid)
        clients.append(c)
    # Part of a game (governments, hands, claims in the logs), then everyone reconnects.
    await asyncio.gather(
        *(c.play(random.Random(rng.random()), stop=lambda c: c.seq >= 25) for c in clients)
    )
    for c in clients:
        await c.close()
    # Nobody acts from here on; a move still in flight lands at most once more, so a round of
    # welcomes at one seq comes within a few tries.
    for _ in range(5):
        again = [Client(server, t, f"again{i}") for i, t in enumerate(tokens)]
        again.append(Client(server, None, "spectator"))
        seqs, sizes = set(), set()
        for c in again:
            await c.connect(tid)
            seqs.add(c.seq)
            sizes.add(c.welcome_sizes[-1])
            await c.close()
        if len(seqs) == 1:
            break
    assert len(seqs) == 1 and min(seqs) >= 25
    assert len(sizes) == 1, sizes  # every seat's welcome and the spectators' have one length


@pytest.mark.timeout(120)
def test_welcomes_of_every_seat_have_one_length(server: Server) -> None:
    asyncio.run(_welcomes_have_one_length(server))
