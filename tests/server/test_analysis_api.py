"""The analysis endpoints of the replay viewer: the same answer as ``secret_hitler.analysis``,
the record endpoint's permission check for private games, and clear errors."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from email.message import Message
from typing import Any

import pytest
from server_support import HttpError, Server, http, raw_http, session
from test_private_games import _play_private_game
from test_replay import _finished_bot_game

from secret_hitler.analysis import analyze


def _post(server: Server, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    status, answer, _ = _post_with_headers(server, path, body)
    return status, answer


def _post_with_headers(
    server: Server, path: str, body: bytes
) -> tuple[int, dict[str, Any], Message]:
    req = urllib.request.Request(
        server.url + path, data=body, method="POST", headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read()), r.headers
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), exc.headers


@pytest.mark.timeout(120)
def test_analysis_of_a_finished_game_and_of_an_upload(server: Server) -> None:
    tid, record = asyncio.run(_finished_bot_game(server))
    got = http(server, "GET", f"/api/games/{tid}/analysis?view=2")
    want = analyze(http(server, "GET", f"/api/games/{tid}/record"), 2)
    assert got["game_id"] == tid
    del got["game_id"]
    assert got == json.loads(json.dumps(want))
    assert len(got["steps"]) == len(record["actions"]) + 1
    spectator = http(server, "GET", f"/api/games/{tid}/analysis?view=spectator")
    assert spectator["seat"] is None and spectator["moves"] == []
    status, up = _post(server, "/api/analysis?view=2", json.dumps(record).encode())
    assert status == 200 and up["steps"] == got["steps"]
    for query, code in (
        ("?view=9", "invalid_request"),
        ("?view=x", "invalid_request"),
        ("?bot=rule", "invalid_request"),
    ):
        with pytest.raises(HttpError) as info:
            http(server, "GET", f"/api/games/{tid}/analysis{query}")
        assert info.value.status == 400 and info.value.code == code
    status, bad = _post(server, "/api/analysis", b"{nope")
    assert status == 400 and bad["error"]["code"] == "invalid_record"
    status, bad = _post(server, "/api/analysis", json.dumps({"players": 99}).encode())
    assert status == 400 and bad["error"]["code"] == "invalid_record"
    head = (
        "POST /api/analysis HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {2 << 20}\r\n\r\n"
    )
    status, big = raw_http(server, head)
    assert status == 413 and b'"too_large"' in big


@pytest.mark.timeout(120)
def test_private_game_analysis_follows_the_record_permission(make_server: Any) -> None:
    server: Server = make_server("sqlite")
    host, player, stranger = (session(server, n) for n in ("Host", "Player", "Stranger"))
    table = asyncio.run(_play_private_game(server, host, player))
    path = f"/api/games/{table['id']}/analysis?view=0"
    for who in (None, stranger):
        with pytest.raises(HttpError) as info:
            http(server, "GET", path, token=who)
        assert info.value.status == 404 and info.value.code == "not_found"
    assert http(server, "GET", path, token=player)["seat"] == 0
    assert http(server, "GET", f"{path}&invite={table['invite']}", token=stranger)["seat"] == 0


@pytest.mark.timeout(120)
def test_analyses_are_rate_limited_per_address(make_server: Any) -> None:
    server: Server = make_server("sqlite", SH_ANALYSIS_RATE="2/minute")
    _, record = asyncio.run(_finished_bot_game(server))
    body = json.dumps(record).encode()
    assert [_post(server, "/api/analysis?view=1", body)[0] for _ in range(2)] == [200, 200]
    status, refused, headers = _post_with_headers(server, "/api/analysis?view=1", body)
    assert status == 429 and refused["error"]["code"] == "rate_limited"
    assert 1 <= int(headers["Retry-After"]) <= 60  # the minute window lets one more in then
    # the replay endpoints are not limited by it
    assert _post(server, "/api/replay?step=1", body)[0] == 200
