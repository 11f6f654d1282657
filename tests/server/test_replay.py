"""The replay viewer's endpoints: the view of a finished game after any number of actions."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request

import pytest
from server_support import Client, HttpError, Server, ahttp, http, session

from secret_hitler.engine import Action, game_from_record
from secret_hitler.talk.narrate import narrate, told_json


async def _finished_bot_game(server: Server) -> tuple[str, dict]:
    host = session(server, "Host")
    bots = {str(s): "random" for s in range(5)}
    table = await ahttp(
        server, "POST", "/api/tables", {"players": 5, "seat": None, "bots": bots}, host
    )
    watcher = Client(server, None, "spectator")
    await watcher.connect(table["id"])
    await watcher.play(random.Random(1))
    await watcher.close()
    assert watcher.record is not None
    return table["id"], watcher.record


def _post_record(server: Server, body: bytes, query: str = "") -> dict:
    req = urllib.request.Request(
        server.url + "/api/replay" + query,
        data=body,
        method="POST",
        headers={"content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return {"status": exc.code, **json.loads(exc.read())}


def test_replay_steps_match_the_engine(server: Server) -> None:
    tid, record = asyncio.run(_finished_bot_game(server))
    actions = record["actions"]
    game = game_from_record(record, apply_actions=False)
    for k in (0, 1, len(actions) // 2):
        while len(game.actions) < k:
            game.apply(Action.from_json(actions[len(game.actions)]))
        for view in ("spectator", "2"):
            got = http(server, "GET", f"/api/games/{tid}/replay?step={k}&view={view}")
            seat = None if view == "spectator" else int(view)
            assert got["step"] == k and got["steps"] == len(actions)
            shown = game.view(seat)
            want = shown.to_json()  # each event with what the narrator tells this view of it
            for e, told in zip(want["events"], narrate(shown.events), strict=True):
                e["told"] = told_json(told)
            assert got["view"] == json.loads(json.dumps(want))
            if k:
                assert got["action"]["seat"] == actions[k - 1]["seat"]
    end = http(server, "GET", f"/api/games/{tid}/replay")
    assert end["step"] == len(actions) and end["view"]["winner"] == record["result"]["winner"]
    # where each round begins: the engine's round number there, and no round left out
    fresh = game_from_record(record, apply_actions=False)
    starts = {}
    for i, a in enumerate(actions):
        starts.setdefault(fresh.round, i)
        fresh.apply(Action.from_json(a))
    assert end["rounds"] == [{"round": r, "step": s} for r, s in starts.items()]
    assert len(end["rounds"]) >= 3 and end["rounds"][0]["step"] == 0


def test_replay_refuses_bad_requests(server: Server) -> None:
    tid, record = asyncio.run(_finished_bot_game(server))
    for query, code in (
        ("?step=-1", "invalid_request"),
        (f"?step={len(record['actions']) + 1}", "invalid_request"),
        ("?view=9", "invalid_request"),
        ("?view=abc", "invalid_request"),
    ):
        with pytest.raises(HttpError) as info:
            http(server, "GET", f"/api/games/{tid}/replay{query}")
        assert info.value.status == 400 and info.value.code == code
    with pytest.raises(HttpError) as info:
        http(server, "GET", "/api/games/nope/replay")
    assert info.value.code == "not_found"
    # an uploaded record replays the same way; a bad one gets a clear error
    got = _post_record(server, json.dumps(record).encode(), "?step=3&view=spectator")
    assert got["step"] == 3 and got["view"]["phase"]
    bad = _post_record(server, b"{not json")
    assert bad["status"] == 400 and bad["error"]["code"] == "invalid_record"
    bad = _post_record(server, json.dumps({**record, "players": 3}).encode())
    assert bad["status"] == 400 and "players" in bad["error"]["message"]


def test_finished_games_are_paged(server: Server) -> None:
    first, _ = asyncio.run(_finished_bot_game(server))
    second, _ = asyncio.run(_finished_bot_game(server))
    page1 = http(server, "GET", "/api/games?limit=1")
    assert [g["id"] for g in page1["games"]] == [second] and page1["next"] is not None
    page2 = http(server, "GET", f"/api/games?limit=1&before={page1['next']}")
    assert [g["id"] for g in page2["games"]] == [first]
    page3 = http(server, "GET", f"/api/games?limit=1&before={page2['next']}")
    assert page3 == {"games": [], "next": None}
    assert http(server, "GET", "/api/games?limit=5")["next"] is None  # all on one page
