"""Language-model seats at a real server (docs/llm.md "Models at tables"): the endpoints come
from the server's file only, a host seats them, a whole game is played over WebSockets with two
model seats answering from the scripted chat server on 127.0.0.1 (tests/chat_server.py), their
tokens show in /metrics, and a slow endpoint falls back within the table's decision timer."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_support import Client, HttpError, Server, http, session, wait_for

from chat_server import ChatServer, endpoints_file, running

pytest.importorskip("httpx")

MODELS = {"alpha": "Alpha", "beta": "Beta"}


@pytest.fixture
def chat() -> Iterator[ChatServer]:
    with running(seed=3) as server:
        yield server


def _model_server(make_server: Any, tmp_path: Path, chat: ChatServer, **fields: Any) -> Server:
    path = endpoints_file(tmp_path / "models.toml", chat.url, MODELS, **fields)
    server: Server = make_server(SH_LLM_ENDPOINTS=str(path), SH_CLAIM_WAIT="0", SH_MIN_TIMER="1")
    return server


def _metric(server: Server, name: str, **labels: str) -> float:
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as r:
        text = r.read().decode()
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    found = re.search(rf"^{name}\{{{re.escape(want)}\}} (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def test_a_game_with_two_model_seats(make_server: Any, tmp_path: Path, chat: ChatServer) -> None:
    server = _model_server(make_server, tmp_path, chat)
    bots = http(server, "GET", "/api/bots")
    assert bots["models"] == [
        {"level": "llm:alpha", "name": "Alpha"},
        {"level": "llm:beta", "name": "Beta"},
    ]
    host = session(server, "Host")
    seats = {"1": "llm:alpha", "2": "rule", "3": "llm:beta", "4": "rule"}
    table = http(server, "POST", "/api/tables", {"players": 5, "seat": 0, "bots": seats}, host)
    assert table["status"] == "playing"
    shown = {s["seat"]: (s["name"], s["level"]) for s in table["seats"]}
    # a model seat is shown as such to everyone: its level and the model's name
    assert shown[1] == ("Alpha 2", "llm:alpha") and shown[3] == ("Beta 4", "llm:beta")

    async def play() -> dict[str, Any]:
        person = Client(server, host, "person")
        await person.connect(table["id"])
        await person.play(random.Random(5), timeout=120)
        await person.close()
        assert person.record is not None
        return person.record

    record = asyncio.run(play())
    assert record["result"] is not None and record["players"][1] == "Alpha 2"
    moved = {a["seat"] for a in record["actions"] if a["type"] == "vote"}
    assert {1, 3} <= moved
    assert len(chat.requests) > 0
    asked = {r["body"]["model"] for r in chat.requests}
    assert asked == {"test-alpha", "test-beta"}
    for name in MODELS:
        assert _metric(server, "sh_llm_tokens_total", endpoint=name, kind="prompt") > 0
        assert _metric(server, "sh_llm_tokens_total", endpoint=name, kind="completion") > 0
        assert _metric(server, "sh_llm_requests_total", endpoint=name) > 0
        assert _metric(server, "sh_llm_game_tokens_count", endpoint=name) == 1
    log = server.log_path.read_text(encoding="utf-8")
    assert log.count("model seat's game") == 2


def test_models_talk_through_the_tables_bot_talk(
    make_server: Any, tmp_path: Path, chat: ChatServer
) -> None:
    """A model's chat line (said with a decision) is read as a talk line and said at the table
    like a bot's, to everyone; the other model hears it in its next prompts."""
    chat.say = "Seat 0 is a fascist."  # the prompts number seats from 0: the host
    path = endpoints_file(tmp_path / "models.toml", chat.url, MODELS)
    # bots' lines leave between moves: the moves take a moment here (a model's at least 3 s)
    server: Server = make_server(SH_LLM_ENDPOINTS=str(path), SH_CLAIM_WAIT="0", SH_BOT_DELAY="0.2")
    host = session(server, "Host")
    # the other bots do not talk: the table's lines of a round are the models'
    seats = {"1": "llm:alpha", "2": "random", "3": "llm:beta", "4": "random"}
    table = http(server, "POST", "/api/tables", {"players": 5, "seat": 0, "bots": seats}, host)
    person = Client(server, host, "person")

    def said(c: Client, seat: int) -> list[dict[str, Any]]:
        return [
            m["message"] for m in c.messages if m["type"] == "chat" and m["message"]["seat"] == seat
        ]

    def alpha_heard_beta() -> bool:
        with chat.lock:
            asked = [r["body"] for r in chat.requests if r["body"]["model"] == "test-alpha"]
        return any("seat 3 (Beta 4) says: " in json.dumps(b["messages"]) for b in asked)

    async def until_both_spoke() -> None:
        await person.connect(table["id"])
        done = lambda c: bool(said(c, 1) and said(c, 3)) and alpha_heard_beta()  # noqa: E731
        await person.play(random.Random(4), stop=done, timeout=120)
        await person.close()

    asyncio.run(until_both_spoke())
    lines = [m["line"] for m in said(person, 1) + said(person, 3)]
    assert all(x["kind"] == "accuse" and x["target"] == 0 for x in lines), lines
    assert alpha_heard_beta()  # (seats are numbered from 0 in the prompts)


def test_a_slow_model_falls_back_within_the_tables_timer(
    make_server: Any, tmp_path: Path, chat: ChatServer
) -> None:
    """Every answer is hostile or late: the model's seat moves anyway (its fallback), within the
    table's 3-second timer, and keeps asking its model (it is not replaced for good)."""
    chat.default = "slow"
    chat.script.extend(["endless", "illegal", "500"])  # the first answers: hostile, then slow
    server = _model_server(make_server, tmp_path, chat, retries=0)
    host = session(server, "Host")
    body = {"players": 5, "seat": 0, "timer": 3, "bots": {"1": "llm:alpha", "2": "llm:alpha"}}
    body["bots"].update({"3": "rule", "4": "rule"})
    table = http(server, "POST", "/api/tables", body, host)

    async def until_a_vote() -> Client:
        person = Client(server, host, "person")
        await person.connect(table["id"])

        def voted(c: Client) -> bool:
            return any(e["type"] == "votes" for m in c.messages for e in m.get("events", []))

        await person.play(random.Random(2), stop=voted, timeout=90)
        await person.close()
        return person

    asyncio.run(until_a_vote())
    requests = _metric(server, "sh_llm_requests_total", endpoint="alpha")
    fallbacks = _metric(server, "sh_llm_fallbacks_total", endpoint="alpha")
    # both seats asked their model for their vote, and moved anyway; a request counts once its
    # body is written, and on a loaded host the timer can end a wait before that
    assert fallbacks >= 2 and requests >= 2
    log = server.log_path.read_text(encoding="utf-8")
    assert "thought longer than" not in log  # the seat kept its model


def test_a_models_seat_numbers_and_names_land_on_the_players_its_prompt_names(
    chat: ChatServer,
) -> None:
    """One numbering both ways: for every player, the number the model's own prompt gives it
    (read off the prompt) and its name, said by the model, land on that player; a line about a
    seat, heard by the model, comes back in its prompt with the same number. A line of the model
    about itself ("I trust Alpha 2" from Alpha 2) is not said."""
    from secret_hitler.bots.base import ask_speech
    from secret_hitler.engine import Game
    from secret_hitler.llm.endpoints import parse_endpoint
    from secret_hitler.server.core.metrics import Metrics
    from secret_hitler.server.table.models import ModelSeat
    from secret_hitler.talk import Accuse, HitlerGuess, Trust
    from secret_hitler.talk.said import Said

    names = ["Host", "Alpha 2", "Bot 3", "Cy", "Alpha 5"]
    data = {"name": "alpha", "base_url": chat.url, "model": "m", "chat_per_round": 20}
    endpoint = parse_endpoint(data)
    game = Game(names, "official", seed=2)
    game.apply(game.legal_actions(game.to_act()[0])[0])  # a nomination: everyone votes
    me = 1
    agent = ModelSeat(me, random.Random(1), endpoint, Metrics())
    view = game.view(me)
    legal = game.legal_actions(me)
    prompt = agent.render.state(view)
    number = {
        s: int(re.findall(rf"seat (\d+) \({re.escape(n)}\)", prompt)[0])
        for s, n in enumerate(names)
    }

    def said(text: str | None) -> list[Any]:
        """The lines the model's ``text`` says at the table (said with its vote)."""
        answer = {"action": {"type": "vote", "ja": True}, "say": text}
        chat.answer = lambda behaviour, body: json.dumps(answer)  # type: ignore[method-assign]
        asyncio.run(agent.turn(view, legal))
        return ask_speech(agent, view)

    for s, name in enumerate(names):
        if s == me:
            assert said(f"I trust {name}") == [] and said(f"I trust seat {number[s]}") == []
            continue
        assert said(f"seat {number[s]} is Hitler") == [HitlerGuess(s, "known")], (s, number[s])
        assert said(f"{name} is Hitler") == [HitlerGuess(s, "known")], name
        agent.listen(view, [Said(0, 1, Accuse(s, "known"))])
        assert said(None) == []  # (its next prompt holds the line)
        heard = chat.requests[-1]["body"]["messages"][1]["content"].splitlines()[-40:]
        assert any(f"seat {number[s]} ({name})" in line and "says:" in line for line in heard)
    assert said(f"I trust seat {number[2]}") == [Trust(2)]


def test_slow_models_hold_no_thread_and_never_every_slot(
    make_server: Any, tmp_path: Path, chat: ChatServer
) -> None:
    """One host's four tables of ten model seats wait on an endpoint that answers nothing (every
    request is held until the test ends; two slots, each table's timer 3 s): up to forty asks
    pending at once, more than asyncio's default pool has threads on any machine (32 at most). Meanwhile,
    at another host's table, the bayes bots move and none is replaced by the fallback (a bot
    that waited for a thread past SH_BOT_TIMEOUT would be), that host's own model seat gets the
    slot the first host may not take, and its fallback's move is marked for everyone; a sign-in
    and GET /api/games are answered while the first host's requests are still pending."""
    chat.default = "slow"
    path = endpoints_file(
        tmp_path / "models.toml", chat.url, {"alpha": "Alpha"}, concurrency=2, retries=0
    )
    server: Server = make_server(
        SH_LLM_ENDPOINTS=str(path), SH_MIN_TIMER="1", SH_BOT_TIMEOUT="3", SH_BOT_DELAY="0"
    )
    ann, bob, carol = session(server, "Ann"), session(server, "Bob"), session(server, "Carol")
    http(server, "POST", "/api/account", {"username": "carol", "password": "a long secret"}, carol)
    models = {str(s): "llm:alpha" for s in range(10)}
    for _ in range(4):
        body = {"players": 10, "seat": None, "timer": 3, "bots": models}
        assert http(server, "POST", "/api/tables", body, ann)["status"] == "playing"
    wait_for(lambda: chat.in_flight >= 1 and len(chat.requests) >= 4, what="Ann's asks")
    seats = {"1": "llm:alpha", "2": "bayes", "3": "bayes", "4": "bayes"}
    body = {"players": 5, "seat": 0, "timer": 3, "bots": seats}
    table = http(server, "POST", "/api/tables", body, bob)
    bob_client = Client(server, bob, "Bob")

    def model_fell_back(c: Client) -> bool:
        return any(
            m["type"] == "update" and m.get("by") == "fallback" and m["action"]["seat"] == 1
            for m in c.messages
        )

    def voted(c: Client) -> bool:
        return any(e["type"] == "votes" for m in c.messages for e in m.get("events", []))

    async def play() -> None:
        await bob_client.connect(table["id"])  # (the bots may have voted before: the welcome)
        done = lambda c: voted(c) and model_fell_back(c)  # noqa: E731
        await bob_client.play(random.Random(3), stop=done, timeout=90)
        await bob_client.close()

    asyncio.run(play())
    # answered while the asks of Ann's tables are held at the endpoint
    signed = http(server, "POST", "/api/signin", {"username": "carol", "password": "a long secret"})
    assert signed["token"] and chat.in_flight >= 1
    assert isinstance(http(server, "GET", "/api/games"), (list, dict)) and chat.in_flight >= 1
    log = server.log_path.read_text(encoding="utf-8")
    assert "thought longer than" not in log and "bot bayes failed" not in log
    seen = [e for m in bob_client.messages for e in m.get("events", [])]  # updates'
    seen += [e for m in bob_client.messages if m["type"] == "welcome" for e in m["view"]["events"]]
    assert {2, 3, 4} <= {e["seat"] for e in seen if e["type"] == "voted"}
    # Bob's model asked its endpoint (the slot kept from Ann), and its wait was shown
    with chat.lock:
        prompts = [json.dumps(r["body"]["messages"]) for r in chat.requests]
    assert any("seat 0 (Bob)" in p for p in prompts)
    waits = [
        (m["model_deadlines"]["1"], m["deadline"])
        for m in bob_client.messages
        if m["type"] == "update" and "1" in m.get("model_deadlines", {})
    ]
    assert waits and all(0 < until <= timer for until, timer in waits)


def test_a_models_wait_is_the_tables_timer_or_a_bounded_one(chat: ChatServer) -> None:
    """Without a timer a model may think the lesser of its endpoint's decision_s and
    table_decision_s (people wait for it), not decision_s alone; with one, the timer less the
    margin for its fallback. The driver waits bot_timeout more (the fallback's time)."""
    import time

    from secret_hitler.llm.endpoints import parse_endpoint
    from secret_hitler.server.core.metrics import Metrics
    from secret_hitler.server.table.models import ModelSeat, ModelSeats

    metrics = Metrics()
    data = {"name": "alpha", "base_url": chat.url, "model": "m", "decision_s": 180}
    endpoint = parse_endpoint(data)
    seats = ModelSeats({"alpha": endpoint}, metrics)
    agent = ModelSeat(0, random.Random(1), endpoint, metrics)
    before = time.monotonic()
    untimed = seats.plan(agent, None, 10.0)
    timed = seats.plan(agent, 30.0, 10.0)
    later = seats.plan(agent, 30.0, 10.0, delay=20.0)
    after = time.monotonic()
    assert before + 60 <= untimed.deadline <= after + 60 and untimed.limit == 70.0
    assert before + 28 <= timed.deadline <= after + 28 and timed.limit == 38.0
    assert before + 48 <= later.deadline <= after + 48  # an ask that begins 20 s from now
    quick = parse_endpoint(data | {"decision_s": 5})
    assert (
        ModelSeats({"q": quick}, metrics)
        .plan(ModelSeat(0, random.Random(1), quick, metrics), None, 1.0)
        .limit
        == 6.0
    )


def test_only_a_host_seats_only_a_configured_model(
    make_server: Any, tmp_path: Path, chat: ChatServer
) -> None:
    server = _model_server(make_server, tmp_path, chat)
    host, guest = session(server, "Host"), session(server, "Guest")
    table = http(server, "POST", "/api/tables", {"players": 5, "seat": 0}, host)
    tid = table["id"]
    http(server, "POST", f"/api/tables/{tid}/join", {"seat": 1}, guest)
    with pytest.raises(HttpError) as refused:
        http(server, "POST", f"/api/tables/{tid}/bots", {"seat": 2, "level": "llm:alpha"}, guest)
    assert refused.value.status == 403 and refused.value.code == "not_host"
    for level in ("llm:nope", "llm:http://169.254.169.254/v1", "llm:"):
        with pytest.raises(HttpError) as refused:
            http(server, "POST", f"/api/tables/{tid}/bots", {"seat": 2, "level": level}, host)
        assert refused.value.status == 400 and refused.value.code == "invalid_bot"
        message = refused.value.body["error"]["message"]
        assert "no model endpoint" in message and "llm:alpha, llm:beta" in message
    with pytest.raises(HttpError) as refused:
        http(server, "POST", f"/api/tables/{tid}/start", {"fill_with_bots": "llm:nope"}, host)
    assert refused.value.code == "invalid_bot"
    with pytest.raises(HttpError) as refused:
        body = {"players": 5, "bots": {"1": "llm:nope"}}
        http(server, "POST", "/api/tables", body, host)
    assert refused.value.code == "invalid_bot"
    assert http(server, "GET", f"/api/tables/{tid}")["seats"][2]["kind"] == "empty"
    seated = http(server, "POST", f"/api/tables/{tid}/bots", {"seat": 2, "level": "llm:beta"}, host)
    assert seated["seats"][2]["name"] == "Beta 3" and seated["seats"][2]["level"] == "llm:beta"
    assert chat.requests == []  # nothing was asked of any model before a game


def test_a_server_without_endpoints_offers_no_model(server: Server) -> None:
    assert http(server, "GET", "/api/bots")["models"] == []
    host = session(server, "Host")
    with pytest.raises(HttpError) as refused:
        body = {"players": 5, "bots": {"1": "llm:alpha"}}
        http(server, "POST", "/api/tables", body, host)
    assert refused.value.code == "invalid_bot"
    assert "no model is offered here" in refused.value.body["error"]["message"]


def test_a_bad_endpoints_file_stops_the_start(tmp_path: Path) -> None:
    bad = tmp_path / "models.toml"
    bad.write_text('[[endpoint]]\nname = "x"\nbase_url = "ftp://x"\nmodel = "m"\n')
    done = subprocess.run(
        [sys.executable, "-m", "secret_hitler.cli", "serve", "--llm-endpoints", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={"SH_DATA": str(tmp_path / "data"), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2
    assert "--llm-endpoints" in done.stderr and "base_url" in done.stderr


def _arena_folder(folder: Path, plots: bool) -> Path:
    """An arena's output: the report (tests/arena_report.json, from a run on the scripted
    server) and, if asked, its plots drawn by the arena's own plotter."""
    folder.mkdir()
    source = Path(__file__).resolve().parents[1] / "arena_report.json"
    report = folder / "report.json"
    report.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    if plots:
        from secret_hitler.llm.report import plot_report

        plot_report(json.loads(report.read_text(encoding="utf-8")), folder)
    return report


def test_the_arena_leaderboard_is_served(make_server: Any, tmp_path: Path) -> None:
    report = _arena_folder(tmp_path / "arena", plots=True)
    server: Server = make_server(SH_ARENA_REPORT=str(report))
    data = http(server, "GET", "/api/arena")
    assert data["games"] == 5 and data["plots"] == ["wins.png", "ratings.png"]
    assert "llm:scripted" in data["ratings"]
    with urllib.request.urlopen(server.url + "/api/arena/plots/wins.png", timeout=10) as r:
        assert r.headers["content-type"] == "image/png" and r.read(4) == b"\x89PNG"
    for name in ("report.json", "..%2Freport.json", "results.jsonl"):
        with pytest.raises(HttpError) as refused:
            http(server, "GET", f"/api/arena/plots/{name}")
        assert refused.value.status == 404
    # a report rewritten under the server (an arena still running) is read again
    changed = json.loads(report.read_text(encoding="utf-8"))
    changed["games"] = 6
    report.write_text(json.dumps(changed), encoding="utf-8")
    assert http(server, "GET", "/api/arena")["games"] == 6
    report.write_text("not json", encoding="utf-8")
    with pytest.raises(HttpError) as refused:
        http(server, "GET", "/api/arena")
    assert refused.value.status == 503 and refused.value.code == "arena_unreadable"


def test_no_arena_report_no_leaderboard(server: Server) -> None:
    with pytest.raises(HttpError) as refused:
        http(server, "GET", "/api/arena")
    assert refused.value.status == 404 and refused.value.code == "no_arena"
