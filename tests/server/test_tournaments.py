"""Tournaments on a real server (docs/competitive.md "Tournaments"): created by an account,
signed up for, checked in, started by its host, its rounds' tables opened by the server and
played over WebSockets, a player who leaves her game played on by a bot and shown so in the
standings, the next round seated without her, and the tournament finished with its results
kept; bad requests refused with their codes."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from rated_support import Person, account, ask
from server_support import HttpError, Server, http, wait_for
from tournament_support import detail, play_round, round_open
from typer.testing import CliRunner

from secret_hitler.cli import app
from secret_hitler.server.competition import scoring


def refused(server: Server, who: Person | None, method: str, path: str, body: Any = None) -> Any:
    with pytest.raises(HttpError) as err:
        if who is None:
            http(server, method, path, body)
        else:
            ask(server, who, method, path, body)
    return err.value


def test_a_swiss_tournament_is_played_to_its_end_and_a_leaver_is_shown(make_server: Any) -> None:
    server = make_server()
    players = [account(server, f"Entrant{i}", "127.0.0.1") for i in range(7)]
    host, late = players[0], players[6]
    by_id = {p.user_id: p for p in players}
    guest = http(server, "POST", "/api/session", {"name": "Guest"})
    soon = time.time() + 3600
    body = {"name": "Friday Cup", "format": "swiss", "players": 5, "rounds": 2, "starts_at": soon}

    # bad requests change nothing
    assert refused(server, None, "POST", "/api/tournaments", body).code == "unauthorized"
    with pytest.raises(HttpError) as err:
        http(server, "POST", "/api/tournaments", body, guest["token"])
    assert err.value.code == "needs_account"
    for bad, field in (
        ({"format": "knockout"}, "format"),
        ({"scoring": "lots"}, "scoring"),
        ({"starts_at": soon + 365 * 86400}, "starts_at"),
        ({"rules": {"no_such_setting": 1}}, None),
    ):
        error = refused(server, host, "POST", "/api/tournaments", {**body, **bad})
        assert error.status == 400 and error.code == "invalid_settings", (bad, error.body)
        if field is not None:
            assert error.field == field
    assert refused(server, host, "POST", "/api/tournaments", {**body, "players": 11}).status == 400
    assert http(server, "GET", "/api/tournaments")["tournaments"] == []
    assert refused(server, host, "GET", "/api/tournaments/nope!").code == "not_found"

    made = ask(server, host, "POST", "/api/tournaments", body)
    tid = made["id"]
    assert made["status"] == "signup" and made["host_name"] == "Entrant0" and made["rounds"] == 2
    for p in players:
        ask(server, p, "POST", f"/api/tournaments/{tid}/signup")
    assert refused(server, players[1], "POST", f"/api/tournaments/{tid}/signup").code == (
        "already_signed_up"
    )
    assert refused(server, players[1], "POST", f"/api/tournaments/{tid}/checkin").code == (
        "not_checkin"
    )
    assert refused(server, players[1], "POST", f"/api/tournaments/{tid}/open-checkin").code == (
        "not_host"
    )
    assert refused(server, host, "POST", f"/api/tournaments/{tid}/start").code == "not_checkin"
    ask(server, host, "POST", f"/api/tournaments/{tid}/open-checkin")
    assert refused(server, host, "POST", f"/api/tournaments/{tid}/start").code == (
        "too_few_checked_in"
    )
    for p in players[:6]:  # the seventh never checks in
        ask(server, p, "POST", f"/api/tournaments/{tid}/checkin")
    assert {e["state"] for e in detail(server, tid)["entrants"]} == {"checked", "signed"}
    ask(server, host, "POST", f"/api/tournaments/{tid}/start")

    first = wait_for(lambda: round_open(server, tid, 1), what="round 1")
    assert first["status"] == "running" and first["round"] == 1
    assert late.user_id not in {e["user_id"] for e in first["entrants"]}  # not checked in
    assert refused(server, late, "POST", f"/api/tournaments/{tid}/signup").code == (
        "tournament_started"
    )
    (table,) = first["round_tables"][0]["tables"]  # six people: one table of six
    assert sorted(s["user_id"] for s in table["seats"]) == sorted(p.user_id for p in players[:6])
    seated = http(server, "GET", f"/api/tables/{table['table_id']}")
    assert seated["status"] == "playing" and seated["kind"] == "tournament"
    leaver = table["seats"][2]["user_id"]
    asyncio.run(play_round(server, by_id, table, 1, leaver))

    second = wait_for(lambda: round_open(server, tid, 2), what="round 2")
    (table2,) = second["round_tables"][1]["tables"]
    assert leaver not in {s["user_id"] for s in table2["seats"]} and len(table2["seats"]) == 5
    asyncio.run(play_round(server, by_id, table2, 2, None))

    done = wait_for(lambda: (d := detail(server, tid))["status"] == "finished" and d, what="end")
    lines = {ln["user_id"]: ln for ln in done["standings"]}
    assert lines[leaver]["left"] == 1 and lines[leaver]["points"] == 0
    assert lines[leaver]["state"] == "dropped" and lines[leaver]["games"] == 1
    left_seat = next(
        s for s in done["round_tables"][0]["tables"][0]["seats"] if s["user_id"] == leaver
    )
    assert left_seat["left"] is True and left_seat["points"] == 0
    for rnd in done["round_tables"]:
        (tb,) = rnd["tables"]
        game = http(server, "GET", f"/api/tables/{tb['table_id']}")
        n = len(tb["seats"])
        worth = scoring.win_points("balanced", n, "official", game["winner"] == "liberal")
        for s in tb["seats"]:
            assert s["won"] is not None and s["role"] is not None
            expected = worth if s["won"] and not s["left"] else 0.0
            assert s["points"] == pytest.approx(expected)
    for uid, ln in lines.items():
        total = sum(
            s["points"]
            for rnd in done["round_tables"]
            for tb in rnd["tables"]
            for s in tb["seats"]
            if s["user_id"] == uid
        )
        assert ln["points"] == pytest.approx(total)
        assert ln["games"] == (1 if uid == leaver else 2)
    ranks = [ln["rank"] for ln in done["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    listed = http(server, "GET", "/api/tournaments")["tournaments"]
    assert [(t["id"], t["status"], t["entrants"]) for t in listed] == [(tid, "finished", 6)]
    assert refused(server, host, "POST", f"/api/tournaments/{tid}/cancel").code == (
        "tournament_over"
    )


def test_a_rated_tournament_asks_what_a_rated_seat_asks_and_an_admin_cancels(
    make_server: Any,
) -> None:
    server = make_server()  # the server's own rules: a day-old account with 3 finished games
    host = account(server, "Organiser", "127.0.0.1")
    body = {"name": "Rated Open", "category": "rated", "starts_at": time.time() + 3600}
    assert refused(server, host, "POST", "/api/tournaments", {**body, "timer": 5}).code == (
        "timer_too_short"
    )
    made = ask(server, host, "POST", "/api/tournaments", body)
    tid = made["id"]
    assert made["category"] == "rated" and made["format"] == "swiss" and made["rounds"] == 3
    guest = http(server, "POST", "/api/session", {"name": "Walkin"})
    with pytest.raises(HttpError) as err:
        http(server, "POST", f"/api/tournaments/{tid}/signup", None, guest["token"])
    assert err.value.code == "rated_needs_account"
    assert refused(server, host, "POST", f"/api/tournaments/{tid}/signup").code == (
        "rated_account_new"
    )
    assert detail(server, tid)["entrants"] == []

    env = {"SH_DATA": str(server.data), "DATABASE_URL": server.database_url or ""}
    listed = CliRunner().invoke(app, ["admin", "tournament", "list"], env=env)
    assert listed.exit_code == 0 and f"{tid} Rated Open" in listed.output
    cancelled = CliRunner().invoke(app, ["admin", "tournament", "cancel", tid], env=env)
    assert cancelled.exit_code == 0, cancelled.output
    assert detail(server, tid)["status"] == "cancelled"
    again = CliRunner().invoke(app, ["admin", "tournament", "cancel", tid], env=env)
    assert again.exit_code == 1 and "the tournament is over" in again.output
    assert refused(server, host, "POST", f"/api/tournaments/{tid}/signup").code == (
        "tournament_over"
    )
