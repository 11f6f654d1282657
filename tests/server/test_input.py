"""Bad input and names (docs/security.md "Input and names"): never a 500 or a traceback, never an
unbounded echo; names are visible, plain and unique at a table; chat loses bidi controls."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from server_support import Client, HttpError, Server, ahttp, http, raw_http, session

from chat_server import endpoints_file
from secret_hitler.server.accounts.auth import NameError_, clean_name
from secret_hitler.server.accounts.reserved import ReservedName, display_name, reserved
from secret_hitler.server.core.config import STATIC_DIR
from secret_hitler.server.core.text import MESSAGE_MAX, skeleton


def _refused(server: Server, method: str, path: str, body: Any = None, **kw: Any) -> HttpError:
    with pytest.raises(HttpError) as info:
        http(server, method, path, body, **kw)
    return info.value


def _no_crash(server: Server) -> None:
    """The server logged no failed request (the 500 path writes "request failed" + traceback)."""
    log = server.log_tail(1 << 22)
    assert "request failed" not in log and "Traceback" not in log


def test_bad_http_input_gets_a_short_400(server: Server) -> None:
    token = session(server, "Ann")
    # a deeply nested record (beyond Python's recursion limit) to the replay upload
    deep = b'{"a":' * 100_000 + b"1" + b"}" * 100_000
    err = _refused(server, "POST", "/api/replay", raw=deep)
    assert err.status == 400 and err.code == "invalid_record" and "nested" in str(err.body)
    # an integer of more than Python's 4,300 digits (json.loads raises a plain ValueError)
    huge = b'{"players": 7, "seed": ' + b"9" * 5000 + b"}"
    for path in ("/api/replay", "/api/analysis?view=0"):
        err = _refused(server, "POST", path, raw=huge)
        assert err.status == 400 and err.code == "invalid_record", (path, err)
        assert "4300 digits" in str(err.body) and "9" * 100 not in str(err.body)
    err = _refused(server, "POST", "/api/tables", raw=huge, token=token)
    assert err.status == 400 and "9" * 100 not in str(err.body)
    err = _refused(
        server, "POST", "/api/tables", raw=b'{"players":5,"rules":' + deep + b"}", token=token
    )
    assert err.status == 400
    # a lone surrogate in a settings key: refused, and the answer is valid UTF-8 JSON
    raw = b'{"players": 5, "rules": {"preset": "official", "\\ud800": 1}}'
    err = _refused(server, "POST", "/api/tables", raw=raw, token=token)
    assert (
        err.status == 400
        and err.code == "invalid_settings"
        and "\\ud800" in err.body["error"]["message"]
    )
    # huge invalid values are not echoed: each message stays short
    huge = "x" * 500_000
    for body in (
        {"players": 5, "rules": huge},
        {"players": 5, "rules": {"preset": huge}},
        {"players": 5, "rules": {huge: 1}},
        {"players": 5, "bots": {huge: None}},
        {"players": 5, "bot_level": huge},
        {"players": 5, huge: 1},
        {"players": huge},
    ):
        err = _refused(server, "POST", "/api/tables", body, token=token)
        assert err.status == 400, err
        assert len(err.body["error"]["message"]) <= MESSAGE_MAX and huge[:100] not in str(err.body)
    # a 5 MB preset name is over the body limit: 413, and nothing of it comes back
    five_mb = json.dumps({"players": 5, "rules": "y" * (5 << 20)}).encode()
    head = (
        f"POST /api/tables HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(five_mb)}\r\n\r\n"
    )
    status, answer = raw_http(server, head)
    assert status == 413 and b"y" * 100 not in answer
    err = _refused(server, "GET", "/api/tables/" + "z" * 5000)
    assert err.code == "not_found" and len(err.body["error"]["message"]) <= MESSAGE_MAX
    assert http(server, "GET", "/api/tables")["tables"] == []
    _no_crash(server)


async def _bad_ws(server: Server) -> None:
    host = session(server, "Ann")
    tid = (await ahttp(server, "POST", "/api/tables", {"players": 5}, host))["id"]
    c = Client(server, host, "ann")
    await c.connect(tid)
    watcher = Client(server, None, "watcher")
    await watcher.connect(tid)
    # a lone surrogate in the message id: a clear error without the id, and the connection (and
    # its sender) keep working
    raw = '{"v":1,"type":"action","id":"\\ud800","action":{"type":"vote","ja":true}}'
    await c.send(raw)
    err = await c.recv_until(lambda m: m["type"] == "error")
    assert err["code"] == "bad_json" and err["id"] is None
    await c.send('{"v":1,"type":"chat","id":"ok","text":"fine \\ud83d\\ude00"}')  # a real pair
    ack = await c.recv_until(lambda m: m["type"] == "ack")
    assert ack["id"] == "ok"
    chat = next(m for m in c.messages if m["type"] == "chat")
    assert chat["message"]["text"] == "fine \U0001f600"
    # a long unknown type is not echoed whole
    await c.send({"v": 1, "type": "t" * 60_000})
    err = await c.recv_until(lambda m: m["type"] == "error")
    assert err["code"] == "unknown_type" and len(err["message"]) <= MESSAGE_MAX
    # the seat still counts as connected, and only while the connection is open
    detail = await ahttp(server, "GET", f"/api/tables/{tid}")
    assert detail["seats"][0]["connected"] is True
    await c.close()
    await watcher.recv_until(
        lambda m: m["type"] == "table" and m["table"]["seats"][0]["connected"] is False
    )
    await watcher.close()


@pytest.mark.timeout(60)
def test_bad_ws_input(server: Server) -> None:
    asyncio.run(_bad_ws(server))
    _no_crash(server)


# ---------------------------------------------------------------------- names
INVISIBLE = ["\u3164", "\u3164\u3164", "\u0301\u0301", "\u115f", "\ufe0f", "a\u200bb", "\u2800"]
CONTROL = ["a\u202eb", "\u2066x\u2069", "a\u0000b", "a\tb", "a\u061cb"]
BOTLIKE = [
    "Bot 3",
    "bot3",
    "BOT 3",
    "B0t 3",
    "Bot_3",
    "Bot３",
    "\u0412\u043et 3",
    "Bot 10",
    "Bot\u0661",  # an Arabic-Indic one (issue 29)
    "Bot \u0663",
    "Bot \u0967",  # Devanagari
    "\u0299ot 1",  # a small capital B
]
# Look-alikes that sat beside the real name before issue 29 (UTS #39 confusables, small
# capitals, the other case of a look-alike, and the few pairs text._SUPPLEMENT adds)
LOOK_ALIKES = [
    ("A\u029fice", "Alice"),  # small capital L
    ("\u1d00lice", "Alice"),  # small capital A
    ("\u13aalice", "Alice"),  # Cherokee A
    ("\ua4eelice", "Alice"),  # Lisu A
    ("\u00dfob", "Bob"),  # sharp s, like a Greek beta, whose capital is B
    ("8ob", "Bob"),
    ("\u0299ob", "Bob"),  # small capital B
    ("\u13f4ob", "Bob"),  # Cherokee B
    ("Morl", "Mod"),
    ("\u039cod", "Mod"),  # Greek capital mu
    ("\u13acve", "Eve"),  # Cherokee E
    ("\ua731am", "Sam"),  # small capital S
]


@pytest.mark.parametrize("name", INVISIBLE + CONTROL + BOTLIKE + ["\u0301abc", "a" + "\u0301" * 5])
def test_clean_name_refuses(name: str) -> None:
    with pytest.raises(NameError_):
        clean_name(name)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Zoë", "Zoë"),
        ("Zoe\u0308", "Zoë"),
        ("ＡＮＮ", "ANN"),
        ("李小龍", "李小龍"),
        ("O'Brien", "O'Brien"),
        ("Robot 3", "Robot 3"),
        ("नमस्ते", "नमस्ते"),
    ],
)
def test_clean_name_accepts_and_normalizes(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


def test_skeleton_folds_look_alikes() -> None:
    same = ["Alice", "alice", "ALICE", "AIice", "A1ice", "Alicе", "A.lice", "Ａlice", "Alíce"]
    assert {skeleton(n) for n in same} == {skeleton("Alice")}
    assert skeleton("Alice") != skeleton("Alicia")
    for look_alike, real in LOOK_ALIKES:
        assert skeleton(look_alike) == skeleton(real), look_alike
    # different names stay different
    for a, b in (
        ("Bob", "Rob"),
        ("Anna", "Hanna"),
        ("Ann", "Anne"),
        ("Tom", "Tim"),
        ("Mia", "Nia"),
    ):
        assert skeleton(a) != skeleton(b), (a, b)


@pytest.mark.timeout(60)
def test_look_alike_names_cannot_sit_beside_the_real_one(server: Server) -> None:
    """Issue 29's twelve look-alikes, each refused at a table where the real name sits, and as
    a username once the real one is taken."""
    tables = {}
    for real in sorted({real for _, real in LOOK_ALIKES}):
        host = session(server, real)
        tables[real] = http(server, "POST", "/api/tables", {"players": 5}, host)["id"]
        http(server, "POST", "/api/account", {"username": real, "password": "x" * 8}, host)
    for look_alike, real in LOOK_ALIKES:
        guest = session(server, look_alike)  # a fine name elsewhere
        err = _refused(server, "POST", f"/api/tables/{tables[real]}/join", {}, token=guest)
        assert (err.status, err.code) == (409, "name_taken"), look_alike
        body = {"username": look_alike, "password": "y" * 8}
        err = _refused(server, "POST", "/api/account", body, token=guest)
        assert (err.status, err.code) == (409, "username_taken"), look_alike
    for bot_like in ("Bot\u0661", "Bot \u0663"):
        err = _refused(server, "POST", "/api/session", {"name": bot_like})
        assert (err.status, err.code) == (400, "invalid_name"), bot_like


def test_names_http_and_unique_at_a_table(server: Server) -> None:
    for bad in INVISIBLE + CONTROL + BOTLIKE:
        err = _refused(server, "POST", "/api/session", {"name": bad})
        assert err.status == 400 and err.code == "invalid_name", bad
    assert http(server, "POST", "/api/session", {"name": "ＡＮＮ"})["name"] == "ANN"
    host = session(server, "Alice")
    table = http(server, "POST", "/api/tables", {"players": 5, "bots": {"2": None}}, host)
    tid = table["id"]
    for look_alike in ("alice", "AIice", "Alicе", "A.lice"):
        err = _refused(
            server, "POST", f"/api/tables/{tid}/join", {}, token=session(server, look_alike)
        )
        assert err.status == 409 and err.code == "name_taken", look_alike
    after = http(server, "GET", f"/api/tables/{tid}")
    assert [s["kind"] for s in after["seats"]] == ["human", "empty", "bot", "empty", "empty"]
    http(server, "POST", f"/api/tables/{tid}/join", {}, session(server, "Bob"))
    err = _refused(server, "POST", f"/api/tables/{tid}/join", {}, token=session(server, "B o b"))
    assert err.code == "name_taken"


async def _chat_bidi(server: Server) -> None:
    host = session(server, "Ann")
    tid = (await ahttp(server, "POST", "/api/tables", {"players": 5}, host))["id"]
    c = Client(server, host, "ann")
    await c.connect(tid)
    await c.send({"v": 1, "type": "chat", "id": "1", "text": "abc\u202edef\u2066g\u2069 \u200fh"})
    await c.recv_until(lambda m: m["type"] == "ack")
    chat = next(m for m in c.messages if m["type"] == "chat")
    assert chat["message"]["text"] == "abcdefg h"
    for text in ("\u202e\u2066", "\u3164", " \u200b "):
        await c.send({"v": 1, "type": "chat", "id": "e", "text": text})
        err = await c.recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "chat_empty", text
    await c.close()


@pytest.mark.timeout(60)
def test_chat_loses_bidi_controls(server: Server) -> None:
    asyncio.run(_chat_bidi(server))


# Issue 37 point 6: names that speak for the game, in its five languages and look-alike forms.
RESERVED = [
    "seat 1 Hitler",
    "You are seat 0",
    "Your secret role",
    "Deleted player 3",
    "Hitler",
    "H1tler",
    "Ｈｉｔｌｅｒ",  # fullwidth
    "Нitler",  # a Cyrillic Н
    "President Bob",
    "Liberals",
    "Fascist 4",
    "Chancellor",
    "Empty seat",
    "Seat 3",
    "Bot 3",
    "YouAreSeat0",
    "youareseat0",
    "Гитлер",
    "Гитлера",  # inflected
    "Бот 3",
    "Вы №3",
    "Ваша тайная роль",
    "希特勒",
    "总统",
    "3号座位",
    "机器人3",
    "你是3号座位",
    "你的秘密身份",
    "總理",
    "Tổng thống",
    "Phát xít",
    "Ghế 3",
    "Bạn là ghế 2",
    "Vai trò bí mật của bạn",
]
NOT_RESERVED = [
    "Ann",
    "Tudor",  # not "Tự do"
    "Abbot 2",  # not "Bot 2"
    "Solo",  # not "số 0"
    "Noob",  # not "№0"
    "Seattle",
    "You are cool",
    "Whitney",
    "Player 3",
    "你是谁",
    "王伟",
    "Nguyễn Văn An",
    "Дмитрий",
    "Lucky 7",
]


@pytest.mark.parametrize("name", RESERVED)
def test_names_that_speak_for_the_game_are_reserved(name: str) -> None:
    assert reserved(name)
    with pytest.raises(NameError_):  # ("Bot 3" is refused as a bot's name first)
        display_name(name)


@pytest.mark.parametrize("name", NOT_RESERVED)
def test_names_that_only_share_letters_with_the_game_are_free(name: str) -> None:
    assert display_name(name) == name


def test_a_model_seats_name_is_reserved_in_every_form() -> None:
    models = ["Stubby"]
    for name in ("Stubby 2", "Stubby", "ｓｔｕｂｂｙ ２", "ᏚᎢᏌᏴᏴᎩ 2", "Stubby2fan"):
        with pytest.raises(ReservedName):
            display_name(name, models)
    assert display_name("Stubby 2") == "Stubby 2"  # (no such model here)
    assert display_name("Stubborn", models) == "Stubborn"


def test_the_reserved_words_come_from_the_catalogs() -> None:
    """Every language's word for Hitler and its seat words reach the list: a catalog word
    changed is reserved as changed, not as a copy here says."""
    web = {
        lang: json.loads((STATIC_DIR / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for lang in ("en", "ru", "zh-Hans", "zh-Hant", "vi")
    }
    for lang, catalog in web.items():
        for key in ("role.hitler", "role.fascist", "office.president", "seat.empty"):
            assert reserved(catalog[key]), (lang, key)
        assert reserved(catalog["seat.number"].replace("{seat}", "4")), lang
        assert reserved(catalog["seat.bot_name"].replace("{seat}", "4")), lang


@pytest.mark.timeout(60)
def test_reserved_names_are_refused_over_http(make_server: Any, tmp_path: Path) -> None:
    """A new session and a rename: ``400 reserved_name`` naming the field, the name not echoed,
    nothing changed; a model seat's name as the server's endpoints file gives it."""
    path = endpoints_file(tmp_path / "models.toml", "http://127.0.0.1:9/v1", {"stub": "Stubby"})
    server: Server = make_server(SH_LLM_ENDPOINTS=str(path))
    for name in ("seat 1 Hitler", "Your secret role", "Ｓｔｕｂｂｙ ２", "ᏚᎢᏌᏴᏴᎩ 2"):
        err = _refused(server, "POST", "/api/session", {"name": name})
        assert (err.status, err.code, err.field) == (400, "reserved_name", "name"), name
        assert name not in err.body["error"]["message"]
    token = session(server, "Ann")
    for name in ("Deleted player 3", "Stubby 2"):
        err = _refused(server, "PATCH", "/api/account", {"name": name}, token=token)
        assert (err.status, err.code) == (400, "reserved_name"), name
    assert http(server, "GET", "/api/me", token=token)["name"] == "Ann"
    assert http(server, "PATCH", "/api/account", {"name": "Annie"}, token=token)["name"] == "Annie"
    _no_crash(server)
