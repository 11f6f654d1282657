"""Table talk in the browser, in each language at 390x844 (issue 30): a person plays a whole
game with four rule bots that talk; their lines read in the page's language (as the server's
own renderer says them, no catalog key missing); the person's "RRB" in her language's
convention, written just after her presidency, becomes her claim with one tap; a bot she asks
"why Nein?" by name answers her."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import (
    LANGUAGES,
    MISSING,
    FrameLog,
    Server,
    act_once,
    missing_keys,
    play_until_over,
)

from secret_hitler import talk

#: How each community writes a president's hand of two reds and a blue, and asks a bot why it
#: voted Nein (docs/talk.md; tests/talk/chat_lines.jsonl). The Vietnamese hand is typed without
#: its marks, as on a phone: it is read only because the page sends its language with the line.
HAND = {"en": "RRB", "ru": "ККС", "zh-Hans": "红红蓝", "zh-Hant": "紅紅藍", "vi": "do do xanh"}
WHY = {
    "en": "Bot {n}, why Nein?",
    "ru": "Бот {n}, почему против?",
    "zh-Hans": "机器人 {n} 为什么投反对",
    "zh-Hant": "機器人 {n} 為什麼投反對",
    "vi": "Bot {n} sao bỏ phiếu chống",
}
FFL = ["fascist", "fascist", "liberal"]
#: Every table's deal (tests/seeded_serve.py): the person (seat 0) is the first president, and
#: the four rule bots elect her government whichever chancellor she names.
SEED = 6


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bot candidate gives the last government's person a few seconds to claim
    (SH_CLAIM_WAIT, as a real table does): her chat claim is tapped before the next vote, when
    her decision would take the screen."""
    server = Server(Path(tmp_path_factory.mktemp("talk-data")), seeds=(SEED,), SH_CLAIM_WAIT="5")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _latest(frames: FrameLog) -> dict[str, Any]:
    for m in reversed(frames.messages):
        if m.get("type") in ("welcome", "update"):
            return m
    return {}


def _bot_lines(frames: FrameLog) -> list[dict[str, Any]]:
    return [
        m["message"]
        for m in frames.of_type("chat")
        if m["message"].get("user_id") is None and m["message"].get("line")
    ]


def _say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.locator(".chat-form button[type=submit]").click()


def _until_president_claim(page: Any, frames: FrameLog, rng: random.Random) -> bool:
    """Play until this seat may claim its president's hand; False: the game ended first."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page.locator(".gameover").count():
            return False
        m = _latest(frames)
        legal = m.get("legal") or []
        if any(a["type"] == "claim" and a["subject"] == "president_hand" for a in legal):
            if not page.locator("#chat-input[disabled]").count():
                return True
        if not act_once(page, rng):
            page.wait_for_timeout(60)
    raise AssertionError("the game went on too long")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bots_talk_a_chat_claim_takes_one_tap_and_a_bot_answers(
    web_server: Any, new_context: Any, lang: str
) -> None:
    rng = random.Random(7)
    errors: list[str] = []
    token = web_server.session("Ada")["token"]
    bots = {str(s): "rule" for s in range(1, 5)}
    table = web_server.api("POST", "/api/tables", {"players": 5, "seat": 0, "bots": bots}, token)
    ctx = new_context(width=390, height=844, token=token, lang=lang)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames = FrameLog(page)
    page.goto(f"{web_server.url}/#/t/{table['id']}")
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    assert _until_president_claim(page, frames, rng), "the game ended before her presidency"
    # her hand in her language's letters: offered back as the engine's claim, made by a tap
    _say(page, HAND[lang])
    page.wait_for_selector(".chat-claim-make", timeout=10000)
    assert not [
        e
        for m in frames.of_type("update")
        for e in m["events"]
        if e["type"] == "claim" and e["seat"] == 0
    ]
    page.locator(".chat-claim-make").click()
    page.wait_for_selector(".chat-claim:not(:has(button))", state="attached", timeout=10000)
    deadline = time.monotonic() + 10
    while not (
        made := [
            e
            for m in frames.of_type("update")
            for e in m["events"]
            if e["type"] == "claim" and e["seat"] == 0
        ]
    ):
        assert time.monotonic() < deadline, "the claim was not made"
        page.wait_for_timeout(50)
    assert made[0]["subject"] == "president_hand" and sorted(made[0]["policies"]) == FFL
    # a question by name: the bot answers her
    alive = _latest(frames)["view"]["alive"]
    bot = next(s for s in range(1, 5) if alive[s])
    _say(page, WHY[lang].format(n=bot + 1))
    deadline = time.monotonic() + 20
    while not (
        answers := [
            m
            for m in _bot_lines(frames)
            if m["seat"] == bot and m["line"]["kind"] == "answer" and m["line"].get("to") == 0
        ]
    ):
        assert time.monotonic() < deadline, "the bot did not answer"
        page.wait_for_timeout(50)
    play_until_over(page, rng)
    # every bot line reads in this language as the server's renderer says it
    names = _latest(frames)["view"]["names"]
    chat = page.locator(".chat-list").inner_text()
    lines = _bot_lines(frames)
    assert answers[0] in lines
    for m in lines:
        text = talk.render(talk.line_from_json(m["line"]), lang, names)
        assert text in chat, (text, chat)
    assert MISSING not in page.locator("body").inner_text(), missing_keys(page)
    # the end screen's download is the stored record, with every line of talk
    with page.expect_download(timeout=10000) as download:
        page.locator(".gameover .download-record").click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    stored = web_server.api("GET", f"/api/games/{table['id']}/record", None, token)
    assert (stored["seed"], stored["first_president"]) == (SEED, 0)  # the deal it was given
    assert saved == stored and len(saved["talk"]) >= len(lines)
    # the replay shows the talk in place: a line from the step it was said on
    first = lines[0]
    said = talk.render(talk.line_from_json(first["line"]), lang, names)
    for step, shown in ((first["after"] - 1, False), (first["after"], True)):
        page.goto(f"{web_server.url}/#/replay/{table['id']}?step={step}")
        page.wait_for_selector(".replay-chat, .area-chat .hint:not(.loading)")
        page.wait_for_function(
            "s => document.querySelector('.step-label')?.textContent.includes(String(s))",
            arg=step,
        )
        assert (said in page.locator(".area-chat").inner_text()) is shown, (step, said)
    assert MISSING not in page.locator("body").inner_text(), missing_keys(page)
    assert not errors
