"""``GET /api/games/{id}/welcome``: a finished game as the caller saw it from their seat, in the
shape of the socket's welcome. A person whose stand-in played to the end while they were away is
given their seat and the moves played for them (``away``), with the stand-in marks in their log,
from the live table and, after a restart, from the database alike; anyone else gets a
spectator's view and no ``away``; a running game is refused."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from server_support import Client, HttpError, Server, ahttp, http, session

from secret_hitler.engine import game_from_record
from secret_hitler.engine.history import governments
from secret_hitler.talk.narrate import narrate, told_json


def _unmarked(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` without the stand-in marks and told messages on its events (the engine's view
    has neither)."""
    events = [{k: v for k, v in e.items() if k not in ("standin", "told")} for e in view["events"]]
    return {**view, "events": events}


async def _away_to_the_end(server: Server) -> tuple[str, dict[str, Any], list[int], list[str]]:
    """Ann (seat 0) never comes: her stand-in plays every move of hers; Ben (seat 1) plays his
    own to the end. The table, its record, the indices of the stand-in's moves and the tokens."""
    ann, ben = session(server, "Ann"), session(server, "Ben")
    bots = {str(s): "random" for s in range(2, 5)}
    table = await ahttp(server, "POST", "/api/tables", {"players": 5, "bots": bots}, ann)
    tid = table["id"]
    await ahttp(server, "POST", f"/api/tables/{tid}/join", {"seat": 1}, ben)
    player = Client(server, ben, "ben")
    await player.connect(tid)
    await player.play(random.Random(2), timeout=90)
    await player.close()
    assert player.record is not None
    by_standin = [m["seq"] - 2 for m in player.messages if m["type"] == "update" and m.get("by")]
    return tid, player.record, by_standin, [ann, ben]


def _check(
    server: Server, tid: str, record: dict[str, Any], by: list[int], tokens: list[str]
) -> None:
    game = game_from_record(record)
    ann_moves = [k for k, a in enumerate(record["actions"]) if a["seat"] == 0]
    assert ann_moves and set(ann_moves) <= set(by)  # she never played herself
    got = http(server, "GET", f"/api/games/{tid}/welcome", token=tokens[0])
    assert got["type"] == "welcome" and got["seat"] == 0
    assert got["away"] == ann_moves  # every move played for her, in order, never a claim
    assert _unmarked(got["view"]) == _unmarked(game.view(0).to_json())
    # each event told as the narrator tells her own log
    told = [told_json(t) for t in narrate(game.view(0).events)]
    assert [e["told"] for e in got["view"]["events"]] == told
    marks = [e["standin"] for e in got["view"]["events"] if "standin" in e]
    assert sorted(m["i"] for m in marks) == sorted(by)  # each stand-in move marked once
    assert all(m["action"]["seat"] == record["actions"][m["i"]]["seat"] for m in marks)
    assert got["legal"] == [] and got["deadline"] is None
    # the governments as the engine reads them back, claims judged; the game over, all may talk
    rows = [g.to_json() for g in governments(game.view(None).events)]
    assert got["governments"] == {"from": 0, "rows": rows} and got["silenced"] is None
    # Ben played his own moves: his seat, nothing played for him
    ben = http(server, "GET", f"/api/games/{tid}/welcome", token=tokens[1])
    assert ben["seat"] == 1 and ben["away"] == []
    assert _unmarked(ben["view"]) == _unmarked(game.view(1).to_json())
    # anyone else: the spectator's view, nobody's moves
    for token in (None, session(server, "Eve")):
        other = http(server, "GET", f"/api/games/{tid}/welcome", token=token)
        assert other["seat"] is None and other["away"] == []
        assert _unmarked(other["view"]) == _unmarked(game.view(None).to_json())
    with pytest.raises(HttpError) as info:
        http(server, "GET", "/api/games/nosuchgame/welcome")
    assert info.value.status == 404 and info.value.code == "not_found"


@pytest.mark.timeout(180)
def test_a_finished_game_welcomes_its_seats_live_and_from_the_database(make_server: Any) -> None:
    server = make_server(SH_GRACE="1")
    tid, record, by, tokens = asyncio.run(_away_to_the_end(server))
    _check(server, tid, record, by, tokens)  # the table the server still holds
    server.stop()
    again = make_server(data=server.data, database_url=server.database_url, port=server.port)
    assert http(again, "GET", "/healthz")["games_active"] == 0
    _check(again, tid, record, by, tokens)  # the stored game


async def _running(server: Server) -> None:
    ann = session(server, "Ann")
    bots = {str(s): "random" for s in range(1, 5)}
    table = await ahttp(server, "POST", "/api/tables", {"players": 5, "bots": bots}, ann)
    player = Client(server, ann, "ann")
    await player.connect(table["id"])  # connected, never acting: the game waits for her
    try:
        with pytest.raises(HttpError) as info:
            await ahttp(server, "GET", f"/api/games/{table['id']}/welcome", token=ann)
        assert info.value.status == 409 and info.value.code == "game_not_finished"
    finally:
        await player.close()


def test_a_running_game_has_no_finished_welcome(server: Server) -> None:
    asyncio.run(_running(server))
