"""The matchmaking queue, new-player tables and rating limits on a real server over HTTP
(docs/protocol.md "The queue"; loopback only, every wait bounded)."""

from __future__ import annotations

from typing import Any

import pytest
from server_support import HttpError, Server, http, session, wait_for


def refused(server: Server, method: str, path: str, body: Any, token: str) -> HttpError:
    with pytest.raises(HttpError) as caught:
        http(server, method, path, body, token=token)
    return caught.value


@pytest.mark.timeout(90)
def test_five_people_queue_answer_the_ready_check_and_sit_at_their_table(
    make_server: Any,
) -> None:
    server = make_server(SH_QUEUE_TICK="0.1", SH_QUEUE_READY="60")
    tokens = [session(server, f"Q{i}") for i in range(5)]
    # bad requests change nothing and say which field is wrong
    for body, field in [
        ({"players": 4, "category": "casual"}, "players"),
        ({"players": 5, "category": "x" * 500}, "category"),
    ]:
        bad = refused(server, "POST", "/api/queue", body, tokens[0])
        assert (bad.status, bad.code, bad.field) == (400, "invalid_settings", field)
        assert "x" * 100 not in str(bad.body)
    guest = refused(server, "POST", "/api/queue", {"players": 5, "category": "rated"}, tokens[0])
    assert (guest.status, guest.code) == (403, "rated_needs_account")
    assert http(server, "GET", "/api/queue", token=tokens[0])["state"] == "idle"

    for token in tokens:
        joined = http(
            server, "POST", "/api/queue", {"players": 5, "category": "casual"}, token=token
        )
        assert joined["state"] in ("waiting", "check")
    again = refused(server, "POST", "/api/queue", {"players": 5, "category": "casual"}, tokens[0])
    assert again.code == "already_queued"

    def in_check(token: str) -> dict[str, Any] | None:
        state = http(server, "GET", "/api/queue", token=token)
        return state if state["state"] == "check" else None

    checks = [wait_for(lambda t=t: in_check(t), what="the ready check") for t in tokens]
    match_id = checks[0]["match"]["id"]
    assert {c["match"]["id"] for c in checks} == {match_id}
    assert checks[0]["counts"] == [{"players": 5, "category": "casual", "waiting": 5}]
    stale = refused(
        server, "POST", "/api/queue/ready", {"match_id": "m0", "ready": True}, tokens[0]
    )
    assert stale.code == "no_ready_check"
    for token in tokens:
        http(server, "POST", "/api/queue/ready", {"match_id": match_id, "ready": True}, token=token)

    def seated(token: str) -> dict[str, Any] | None:
        state = http(server, "GET", "/api/queue", token=token)
        return state if state["state"] == "seated" else None

    table_id = wait_for(lambda: seated(tokens[4]), what="the table")["table_id"]
    detail = http(server, "GET", f"/api/tables/{table_id}", token=tokens[4])
    assert detail["kind"] == "queue" and detail["status"] == "playing"
    assert sorted(s["name"] for s in detail["seats"]) == [f"Q{i}" for i in range(5)]
    # leaving the queue after being seated is harmless; she may queue again
    assert http(server, "DELETE", "/api/queue", token=tokens[0])["state"] == "idle"


@pytest.mark.timeout(60)
def test_a_rating_limit_over_http_and_the_new_player_table_in_the_lobby(
    make_server: Any,
) -> None:
    server = make_server(SH_QUEUE_TICK="0.1", SH_NEWBIE_TABLES="1", SH_NEWBIE_GAMES="3")
    host, guest = session(server, "Host"), session(server, "Guest")
    bad = refused(
        server, "POST", "/api/tables", {"players": 5, "rating_min": 20, "rating_max": 5}, host
    )
    assert (bad.status, bad.code, bad.field) == (400, "invalid_settings", "rating_min")
    table = http(
        server,
        "POST",
        "/api/tables",
        {"players": 5, "rating_min": 10, "seat": None},
        token=host,
    )
    assert (table["rating_min"], table["rating_max"]) == (10.0, None)
    low = refused(server, "POST", f"/api/tables/{table['id']}/join", {}, guest)
    assert (low.status, low.code) == (403, "rating_too_low")
    assert "at least 10.00" in low.body["error"]["message"]

    def newbie() -> dict[str, Any] | None:
        tables = http(server, "GET", "/api/tables", token=guest)["tables"]
        return next((t for t in tables if t["kind"] == "newbie"), None)

    open_table = wait_for(newbie, what="the new-player table")
    assert open_table["status"] == "waiting" and open_table["category"] == "casual"
    joined = http(server, "POST", f"/api/tables/{open_table['id']}/join", {}, token=guest)
    assert any(s.get("name") == "Guest" for s in joined["seats"])
