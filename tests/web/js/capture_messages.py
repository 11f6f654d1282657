"""Write tests/web/js/messages.json: real WebSocket messages of one game, for the Node unit tests
of the table page (its state reducer, table-state.js, and the modules that read its state).

    .venv/bin/python tests/web/js/capture_messages.py

Starts a server (SH_MIN_TIMER=2), seats one person and four random bots at a 5-seat table with
a 2 s decision timer, and plays random legal moves over the WebSocket, and every claim the person
is offered; one decision is left to the timer (an update with ``by: "timer"``). Games are played
until one has given the person a Policy Peek and has a claim. From it a few stretches are kept
(each a run of consecutive messages, so that the reducer can be fed them in order), not the
whole game, to keep the file small; and the answer of ``GET /api/rules`` (the engine's rule
facts, which the client reads).
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE.parents[1] / "server")]

from server_support import Client, Server, http, session  # noqa: E402

Message = dict[str, Any]


async def _game(server: Server, rng: random.Random) -> dict[str, Any]:
    token = session(server, "Ada")
    bots = {str(s): "random" for s in range(1, 5)}
    body = {"players": 5, "bots": bots, "auto_start": False, "timer": 2}
    table = http(server, "POST", "/api/tables", body, token=token)["id"]
    ada = Client(server, token, "Ada")
    await ada.connect(table)
    await ada.send({"v": 1, "type": "chat", "text": "hello table"})
    await ada.recv_until(lambda m: m["type"] == "chat")
    http(server, "POST", f"/api/tables/{table}/start", {}, token=token)
    decisions, waiting, resumed_at, welcome, spectator = 0, False, None, None, None
    while ada.record is None:
        m = await ada.recv(30)
        if m["type"] != "update":
            continue
        if m.get("by"):
            waiting = False
        if ada.seq >= 12 and resumed_at is None:  # drop the connection and resume
            await ada.close()
            resumed_at = len(ada.messages)
            await ada.connect(table, since=ada.seq)
        if ada.seq >= 20 and welcome is None:  # a second page of the same player, and a spectator
            page, watcher = Client(server, token, "Ada 2"), Client(server, None, "watcher")
            welcome, spectator = await page.connect(table), await watcher.connect(table)
            await page.close()
            await watcher.close()
        claims = [a for a in ada.legal if a["type"] == "claim"]
        if claims:  # every claim offered: the claim tracker has something to read
            await ada.send(
                {"v": 1, "type": "action", "id": f"k{ada.seq}", "action": rng.choice(claims)}
            )
        turn = ada.my_turn_actions()
        if turn and ada.seat in ada.view["to_act"] and not waiting:
            decisions += 1
            if decisions == 3:
                waiting = True  # the timer plays this one
                continue
            await ada.send(
                {"v": 1, "type": "action", "id": f"a{ada.seq}", "action": rng.choice(turn)}
            )
    await ada.close()
    late = Client(server, token, "Ada 3")  # a page opened after the end: every event of the game
    final = await late.connect(table)
    await late.close()
    return {
        "messages": ada.messages,
        "resumed_at": resumed_at,
        "welcome": welcome,
        "spectator": spectator,
        "final": final,
    }


def _around(messages: list[Message], i: int, before: int, after: int) -> list[Message]:
    return messages[max(0, i - before) : i + after + 1]


def _pick(game: dict[str, Any]) -> dict[str, Any] | None:
    msgs: list[Message] = game["messages"]
    events = lambda m: [e["type"] for e in m.get("events") or []]  # noqa: E731
    peek = next((i for i, m in enumerate(msgs) if "peek" in events(m)), None)
    forced = next((i for i, m in enumerate(msgs) if m.get("by")), None)
    claims = [e for e in game["final"]["view"]["events"] if e["type"] == "claim"]
    if peek is None or forced is None or game["welcome"] is None or not claims:
        return None
    over = next(i for i, m in enumerate(msgs) if m["type"] == "game_over")
    return {
        "about": "Real messages of one 5-seat game (tests/web/js/capture_messages.py), seat 0's connection; each list is a run of consecutive messages",
        # the waiting room, the start, the first updates, a dropped connection and its resume
        "opening": msgs[: game["resumed_at"] + 6],
        # a second page of the same player and a spectator, welcomed in mid-game
        "welcome": game["welcome"],
        "spectator": game["spectator"],
        # a page opened after the end: the whole game's events (claims included)
        "final": game["final"],
        "peek": _around(msgs, peek, 1, 1),
        "forced": _around(msgs, forced, 1, 1),
        "errors": [m for m in msgs if m["type"] in ("error", "ack")][:6],
        "end": _around(msgs, over, 2, 0),
    }


async def _main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), SH_MIN_TIMER="2").start()
        try:
            for i in range(40):
                picked = _pick(await _game(server, random.Random(i)))
                if picked is not None:
                    picked["rules"] = http(server, "GET", "/api/rules")  # the engine's catalog
                    (HERE / "messages.json").write_text(
                        json.dumps(picked, separators=(",", ":")) + "\n"
                    )
                    return
        finally:
            server.stop()
    raise SystemExit("no game gave the person a Policy Peek")


if __name__ == "__main__":
    asyncio.run(_main())
