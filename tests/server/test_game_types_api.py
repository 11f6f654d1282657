"""secrethitler.io's game types over the server's API (docs/game-types.md, docs/protocol.md): the
creation form is told each table's category and why, or why it would be refused, by the rules
that create it; a table card shows its category; every bot level sits at a table that deals the
new roles, and a person plays one with bayes and search bots to its end; a hostile player at a
blind table reads no other person's name or user id before the end; a finished game's record
keeps its table and winners."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest
from server_support import Client, HttpError, Server, ahttp, http, session

from secret_hitler.engine import game_from_record

AVALON = {"preset": "secrethitler-io", "avalon": "merlin"}
PERCIVAL = {"preset": "secrethitler-io", "avalon": "percival"}


def _check(server: Server, **body: Any) -> dict[str, Any]:
    return http(server, "POST", "/api/tables/check", {"players": 7, "bots": {}, **body})  # type: ignore[no-any-return]


def test_the_form_is_told_each_tables_category_or_why_it_is_refused(make_server: Any) -> None:
    server = make_server(SH_MIN_TIMER="2")
    rated = _check(server, category="rated")
    assert rated == {"category": "rated", "category_reasons": [], "rated": True, "problem": None}
    # every bot level plays every game type: bayes at an Avalon SH table is no problem
    casual = _check(server, rules=AVALON, bot_level="bayes")
    assert (casual["category"], casual["category_reasons"], casual["problem"]) == (
        "casual",
        ["category.reason.avalon"],
        None,
    )
    practice = _check(server, chat="silent", category="practice")
    assert (practice["category"], practice["rated"]) == ("practice", False)
    fast = _check(server, timer=10, chat="emotes")
    assert fast["category_reasons"] == ["category.reason.fast_timer", "category.reason.emotes"]
    custom = _check(server, rules={"preset": "official", "hitler_zone": 4})
    assert custom["category"] == "custom"
    refusals: dict[str, dict[str, Any]] = {
        "not_ratable": {"rules": AVALON, "bot_level": "rule", "category": "rated"},
        "invalid_settings": {
            "rules": {"preset": "official", "avalon": "percival", "monarchist": True},
            "players": 5,
        },
    }
    for code, body in refusals.items():
        problem = _check(server, **body)["problem"]
        assert problem is not None and problem["code"] == code, (code, problem)
    assert _check(server, **refusals["invalid_settings"])["problem"]["field"] == "monarchist"
    assert _check(server, chat="loud")["problem"]["field"] == "chat"
    assert _check(server, category="custom")["problem"]["field"] == "category"
    rebalanced = {"preset": "official", "rebalanced": [7]}
    assert _check(server, rules=rebalanced, category="rated")["problem"]["code"] == "not_ratable"
    assert _check(server, rules=rebalanced)["category"] == "casual"  # rated by the engine's table
    silent = _check(server, chat="silent", category="rated")["problem"]
    assert silent["code"] == "not_ratable" and "practice" in silent["message"]

    # creating answers as the check did; the table card shows the category and its reasons
    host = session(server, "Host")
    body = {"players": 7, "rules": AVALON, "auto_start": False, "chat": "emotes"}
    table = http(server, "POST", "/api/tables", body, token=host)
    expected = _check(server, rules=AVALON, chat="emotes")
    assert (table["category"], table["category_reasons"]) == (
        expected["category"],
        expected["category_reasons"],
    )
    # no level named: the server's default, whatever the rules deal
    assert (table["bot_level"], table["chat"], table["blind"], table["rated"]) == (
        http(server, "GET", "/api/bots")["default"],
        "emotes",
        False,
        False,
    )
    [listed] = [t for t in http(server, "GET", "/api/tables")["tables"] if t["id"] == table["id"]]
    assert listed["category"] == "casual"
    added = http(server, "POST", f"/api/tables/{table['id']}/bots", {"level": "search"}, host)
    assert added["seats"][1]["level"] == "search"
    with pytest.raises(HttpError) as rated_avalon:
        http(server, "POST", "/api/tables", {**body, "category": "rated", "chat": "free"}, host)
    assert rated_avalon.value.code == "not_ratable"


# ---------------------------------------------------------------------- bots at Avalon SH
async def _avalon_with_bots(server: Server) -> None:
    ann = session(server, "Ann")
    bots: dict[str, str | None] = {str(s): None for s in range(1, 6)}  # the table's level
    body = {"players": 7, "rules": PERCIVAL, "bot_level": "bayes", "bots": bots}
    table = await ahttp(server, "POST", "/api/tables", {**body, "auto_start": False}, ann)
    tid = table["id"]
    added = await ahttp(server, "POST", f"/api/tables/{tid}/bots", {"level": "search"}, ann)
    levels = [s["level"] for s in added["seats"]]
    assert levels == [None, *["bayes"] * 5, "search"]
    ann_client = Client(server, ann, "ann")
    await ann_client.connect(tid)
    await ahttp(server, "POST", f"/api/tables/{tid}/start", {}, ann)
    await ann_client.play(random.Random(41), timeout=180)
    record = ann_client.record
    assert record is not None and {"merlin", "percival"} <= set(record["roles"])
    replayed = game_from_record(record)
    assert replayed.finished and replayed.winner is not None
    assert replayed.winner.value == record["result"]["winner"]
    finished = await ahttp(server, "GET", f"/api/tables/{tid}", None, ann)
    assert finished["status"] == "finished"
    assert [s["level"] for s in finished["seats"]] == levels
    await ann_client.close()


@pytest.mark.timeout(240)
def test_a_person_plays_an_avalon_table_with_bayes_and_search_bots_to_its_end(
    make_server: Any,
) -> None:
    """Every bot level plays every game type (docs/bots.md "Game types"): a table of Avalon SH
    with Percival seats bayes bots (its level) and a search bot, and a person plays its game
    with them to its end; the record replays to the same end."""
    asyncio.run(_avalon_with_bots(make_server()))


# ---------------------------------------------------------------------- timed tables
def test_who_moves_when_the_timer_runs_out_is_checked_and_shown(make_server: Any) -> None:
    """``on_timeout``: the stand-in by default, secrethitler.io's random move when the host asks
    for it with a timer; a bad value or a random move without a timer is refused, by the check
    and by creating alike, naming the setting and making nothing; the detail shows it."""
    server = make_server()
    timed = _check(server, timer=60, on_timeout="random", category="rated")
    assert (timed["problem"], timed["category"], timed["rated"]) == (None, "rated", True)
    host = session(server, "Host")
    refused: list[tuple[dict[str, Any], str]] = [
        ({"timer": 60, "on_timeout": "bot"}, "on_timeout: one of standin, random"),
        ({"on_timeout": "random"}, "on_timeout: a random move needs a timer"),
    ]
    for body, message in refused:
        problem = _check(server, **body)["problem"]
        assert (problem["code"], problem["field"], problem["message"]) == (
            "invalid_settings",
            "on_timeout",
            message,
        )
        with pytest.raises(HttpError) as info:
            http(server, "POST", "/api/tables", {"players": 5, **body}, token=host)
        assert (info.value.status, info.value.code) == (400, "invalid_settings")
    with pytest.raises(HttpError) as wrong_type:
        http(server, "POST", "/api/tables", {"players": 5, "on_timeout": 1}, token=host)
    assert (wrong_type.value.code, wrong_type.value.field) == ("invalid_request", "on_timeout")
    assert http(server, "GET", "/api/me/games", token=host)["games"] == []  # nothing was made
    body = {"players": 5, "auto_start": False, "timer": 60, "on_timeout": "random"}
    table = http(server, "POST", "/api/tables", body, token=host)
    plain = http(server, "POST", "/api/tables", {**body, "on_timeout": None}, token=host)
    assert (table["on_timeout"], plain["on_timeout"]) == ("random", "standin")
    assert http(server, "GET", f"/api/tables/{table['id']}")["on_timeout"] == "random"
    listed = {t["id"]: t["on_timeout"] for t in http(server, "GET", "/api/tables")["tables"]}
    assert listed == {table["id"]: "random", plain["id"]: "standin"}


# ---------------------------------------------------------------------- blind tables
NAMES = ("Quokkaqueen", "Wombatking")


async def _blind_game(server: Server) -> None:
    ann, bob = (session(server, name) for name in NAMES)
    me_ann = http(server, "GET", "/api/me", token=ann)["user_id"]
    bots = {str(s): "random" for s in range(2, 5)}
    body = {"players": 5, "bots": bots, "blind": True, "lang": "ru", "auto_start": False}
    table = await ahttp(server, "POST", "/api/tables", body, ann)
    tid = table["id"]
    await ahttp(server, "POST", f"/api/tables/{tid}/join", {"seat": 1}, bob)
    a, b, watcher = Client(server, ann, "ann"), Client(server, bob, "bob"), Client(server, None)
    for c in (a, b, watcher):
        await c.connect(tid)
    await a.send({"v": 1, "type": "chat", "text": "hello, I am the host"})
    await ahttp(server, "POST", f"/api/tables/{tid}/start", {}, ann)
    await a.recv_until(lambda m: m["type"] == "update")
    await a.send({"v": 1, "type": "chat", "text": "I am liberal"})
    answers = []  # what Bob reads over HTTP while the game runs
    for path in ("/api/tables", f"/api/tables/{tid}", "/api/me/games"):
        answers.append(await ahttp(server, "GET", path, None, bob))

    async def watch() -> None:
        while watcher.record is None:
            await watcher.recv(60)

    rng = random.Random(41)
    await asyncio.gather(a.play(rng, timeout=120), b.play(rng, timeout=120), watch())
    secrets = (NAMES[0], me_ann)
    for client, texts in ((b, answers), (watcher, [])):
        ended = next(i for i, m in enumerate(client.messages) if m["type"] == "game_over")
        before = [json.dumps(m) for m in client.messages[:ended]]
        seen = "\n".join(before + [json.dumps(x) for x in texts])
        for secret in secrets:  # Ann's name and user id: not in one frame or answer
            assert secret not in seen, (client.label, secret)
        assert NAMES[0] in json.dumps(client.messages[ended])  # the end names her
    record = b.record
    assert record is not None and record["players"][:2] == list(NAMES)
    aliases = record["table"]["aliases"]
    assert record["table"]["blind"] is True and len(set(aliases)) == 5
    welcome = next(m for m in b.messages if m["type"] == "update")
    assert welcome["view"]["names"] == aliases  # the game was played by the aliases
    assert all(any("а" <= ch <= "я" for ch in alias.lower()) for alias in aliases)  # in Russian
    detail = await ahttp(server, "GET", f"/api/tables/{tid}", None, bob)
    assert [s["name"] for s in detail["seats"][:2]] == list(NAMES)
    stored = await ahttp(server, "GET", f"/api/games/{tid}/record", None, bob)
    assert stored["players"] == record["players"] and stored["table"] == record["table"]
    for c in (a, b, watcher):
        await c.close()


@pytest.mark.timeout(240)
def test_a_blind_table_lets_no_frame_name_another_person_before_the_end(make_server: Any) -> None:
    asyncio.run(_blind_game(make_server()))


# ---------------------------------------------------------------------- records
@pytest.mark.timeout(240)
def test_a_finished_monarchist_game_records_its_table_and_winners(make_server: Any) -> None:
    server = make_server()
    host = session(server, "Host")
    rules = {"preset": "secrethitler-io", "avalon": "percival", "monarchist": True}
    bots = {str(s): "rule" for s in range(7)}
    body = {"players": 7, "rules": rules, "bots": bots, "seat": None, "timer": 60}
    table = http(server, "POST", "/api/tables", body, token=host)
    end = time.monotonic() + 200
    while http(server, "GET", f"/api/tables/{table['id']}")["status"] != "finished":
        assert time.monotonic() < end, "the bots' game did not end"
        time.sleep(0.2)
    record = http(server, "GET", f"/api/games/{table['id']}/record")
    game = game_from_record(record)
    assert record["result"]["winners"] == list(game.winners or ())
    assert record["table"] == {
        "chat": "free",
        "blind": False,
        "turn_timer": 60,
        "on_timeout": "standin",
        "category": "casual",
    }
    assert {r for r in record["roles"]} >= {"merlin", "percival", "morgana", "monarchist"}
