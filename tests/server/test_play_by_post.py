"""Play-by-post (docs/protocol.md "Play-by-post"): decisions of hours or days, public votes as they are cast
(the ``forum`` preset), and a table's webhook told when it is a human's turn and when the game
ends. The receiver is a real HTTP server on 127.0.0.1; a hanging one never holds the game up."""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from server_support import Client, HttpError, Server, http, session

from secret_hitler.engine import Action, game_from_record

BOTS = {str(i): "random" for i in range(1, 5)}


class Receiver:
    """An incoming-webhook endpoint: ``/ok`` answers 200, ``/hang`` never answers until closed,
    ``/redirect`` sends to ``/ok`` (a webhook must not follow it)."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.got = threading.Condition()
        self.release = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length))
                body["_path"] = self.path
                body["_type"] = self.headers.get("content-type")
                body["_host"] = self.headers.get("host")
                with outer.got:
                    outer.bodies.append(body)
                    outer.got.notify_all()
                if self.path == "/hang":
                    outer.release.wait(30)
                if self.path == "/redirect":
                    self.send_response(302)
                    self.send_header("location", "/ok")
                else:
                    self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def wait_for(self, pred: Any, timeout: float = 30) -> list[dict[str, Any]]:
        with self.got:
            assert self.got.wait_for(lambda: pred(self.bodies), timeout), self.bodies[-3:]
            return list(self.bodies)

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def _play(server: Server, token: str, table_id: str, seed: int = 2) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        c = Client(server, token, "alice")
        await c.connect(table_id)
        await c.play(random.Random(seed), claim_p=0.0, timeout=90)
        await c.close()
        assert c.record is not None
        return c.record

    return asyncio.run(run())


@pytest.mark.timeout(150)
def test_the_webhook_hears_of_each_human_turn_and_the_end(
    make_server: Any, receiver: Receiver
) -> None:
    server: Server = make_server(SH_WEBHOOK_ALLOW_PRIVATE="1")  # the receiver is on loopback
    tok = session(server, "Alice")
    days = 2 * 86400
    table = http(
        server,
        "POST",
        "/api/tables",
        {
            "players": 5,
            "bots": BOTS,
            "rules": "forum",
            "timer": days,
            "name": "Forum game",
            "webhook": receiver.url + "/ok",
        },
        token=tok,
    )
    assert table["timer"] == days and table["webhook"] is True
    assert receiver.url not in json.dumps(http(server, "GET", f"/api/tables/{table['id']}"))
    record = _play(server, tok, table["id"])
    bodies = receiver.wait_for(lambda b: any(x["event"] == "game_over" for x in b))
    turns = [b for b in bodies if b["event"] == "turn"]
    assert turns and bodies[-1]["event"] == "game_over"
    assert bodies[-1]["winner"] == record["result"]["winner"] and "game over" in bodies[-1]["text"]
    for b in turns:
        assert b["_type"] == "application/json" and b["table"] == table["id"]
        assert b["text"].startswith("Forum game: waiting for Alice (")
        # only the people awaited, never the bots; the names come with the seats
        assert b["to_act"] == [{"seat": 0, "name": "Alice"}], b
        assert b["deadline"] is not None


def _decisions_awaiting(record: dict[str, Any], seat: int) -> list[tuple[int, str]]:
    """The decisions of a game (round, phase) that awaited ``seat`` when they began. A decision
    begins whenever (round, phase) changes, so a chancellor whose veto was refused enacts in a
    second decision of the same round and phase (and is told again)."""
    game = game_from_record(record, apply_actions=False)
    last: tuple[int, str] | None = None
    out = []
    for action in [None, *record["actions"]]:
        if action is not None:
            game.apply(Action.from_json(action))
        key = (game.round, game.phase.value)
        if game.finished or key == last:
            continue
        last = key
        if seat in game.view(None).to_act:
            out.append(key)
    return out


@pytest.mark.timeout(150)
def test_one_post_per_decision_awaited_from_people(make_server: Any, receiver: Receiver) -> None:
    """A person and four bots: a post for each decision the person is awaited for, none for the
    bots' own, with the table's link (SH_PUBLIC_URL) and the deadline in words and ISO 8601."""
    server: Server = make_server(
        SH_WEBHOOK_ALLOW_PRIVATE="1", SH_PUBLIC_URL="https://play.example.org/", SH_BOT_DELAY="0"
    )
    tok = session(server, "Alice")
    body = {"players": 5, "bots": BOTS, "timer": 86400, "webhook": receiver.url + "/ok"}
    table = http(server, "POST", "/api/tables", body, token=tok)
    record = _play(server, tok, table["id"], seed=5)
    expected = _decisions_awaiting(record, 0)
    bodies = receiver.wait_for(
        lambda b: (
            any(x["event"] == "game_over" for x in b)
            and sum(x["event"] == "turn" for x in b) >= len(expected)
        )
    )
    turns = [b for b in bodies if b["event"] == "turn"]
    assert sorted((b["round"], b["phase"]) for b in turns) == sorted(expected)  # once each
    link = f"https://play.example.org/#/t/{table['id']}"
    for b in turns:
        assert b["to_act"] == [{"seat": 0, "name": "Alice"}] and "Bot" not in b["text"], b
        assert b["link"] == link and link in b["text"]
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", b["deadline"]), b
        assert re.fullmatch(
            r"(23 hours \d+ minutes|1 day|\d+ hours? \d+ minutes?)", b["deadline_in"]
        )
        assert b["deadline"] in b["text"] and b["deadline_in"] in b["text"]
        assert not re.search(r"\d{9,}", b["text"])  # no epoch number
    over = next(b for b in bodies if b["event"] == "game_over")
    assert over["link"] == link and link in over["text"]


@pytest.mark.timeout(150)
def test_a_hanging_webhook_never_holds_the_game_up(make_server: Any, receiver: Receiver) -> None:
    server: Server = make_server(SH_WEBHOOK_TIMEOUT="1", SH_WEBHOOK_ALLOW_PRIVATE="1")
    tok = session(server, "Alice")
    for url in (receiver.url + "/hang", "http://127.0.0.1:9/closed"):
        t = http(
            server, "POST", "/api/tables", {"players": 5, "bots": BOTS, "webhook": url}, token=tok
        )
        assert _play(server, tok, t["id"])["result"]  # played to the end, in bounded time
    assert any(b["_path"] == "/hang" for b in receiver.bodies)
    server.stop()
    log = server.log_path.read_text(encoding="utf-8")
    assert "webhook failed" in log and "/hang" not in log and "closed" not in log  # no URLs


@pytest.mark.timeout(60)
def test_webhook_urls_and_timers_are_checked(server: Server) -> None:
    tok = session(server, "Bob")
    bad = [
        "ftp://example.org/x",
        "javascript:alert(1)",
        "http://",
        "http://a b/",
        "x" * 600,
        "https://example.org:99999/",
        "file:///etc/passwd",
    ]
    for url in bad:
        with pytest.raises(HttpError) as info:
            http(server, "POST", "/api/tables", {"players": 5, "webhook": url}, token=tok)
        assert info.value.code == "invalid_webhook" and url[:40] not in str(info.value.body)
    for timer in (0, 7 * 86400 + 1, "1h"):
        with pytest.raises(HttpError) as info:
            http(server, "POST", "/api/tables", {"players": 5, "timer": timer}, token=tok)
        assert info.value.status == 400
    t = http(server, "POST", "/api/tables", {"players": 5, "timer": 7 * 86400}, token=tok)
    assert (
        http(
            server,
            "PATCH",
            f"/api/tables/{t['id']}",
            {"webhook": "https://chat.example/hook"},
            token=tok,
        )["webhook"]
        is True
    )
    assert (
        http(server, "PATCH", f"/api/tables/{t['id']}", {"webhook": ""}, token=tok)["webhook"]
        is False
    )


@pytest.mark.timeout(90)
@pytest.mark.parametrize("preset", ["forum", "official"])
def test_forum_votes_are_public_as_each_is_cast(server: Server, preset: str) -> None:
    a, b = session(server, "Ann"), session(server, "Ben")
    bots = {str(i): "random" for i in range(2, 5)}
    t = http(
        server,
        "POST",
        "/api/tables",
        {"players": 5, "bots": bots, "rules": preset, "seat": 0},
        token=a,
    )["id"]
    http(server, "POST", f"/api/tables/{t}/join", {"seat": 1}, token=b)

    async def run() -> Any:
        ca, cb = Client(server, a, "ann"), Client(server, b, "ben")
        await ca.connect(t)
        await cb.connect(t)
        # nominate (whoever is asked) until the vote opens; nobody votes yet
        while not (ca.view and ca.view["phase"] == "vote"):
            for c in (ca, cb):
                turn = c.my_turn_actions() if c.view and c.seat in c.view["to_act"] else []
                if turn and c.view and c.view["phase"] != "vote":
                    await c.send({"v": 1, "type": "action", "id": f"n{c.seq}", "action": turn[0]})
            await ca.recv_until(lambda m: m["type"] == "update")
            while cb.seq < ca.seq:
                await cb.recv_until(lambda m: m["type"] == "update")
        assert not any(ca.view["voted"][:2])
        await ca.send({"v": 1, "type": "action", "id": "v", "action": {"type": "vote", "ja": True}})
        m = await cb.recv_until(lambda m: m["type"] == "update" and m["view"]["voted"][0])
        await ca.close()
        await cb.close()
        assert m["view"]["phase"] == "vote"  # Ben has not voted yet: the vote is still open
        return m["view"]["votes"][0]

    seen = asyncio.run(run())
    assert seen == (True if preset == "forum" else None)
