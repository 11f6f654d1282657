"""The matchmaking queue and new-player tables in Chromium (docs/competitive.md "The queue",
"New-player tables"), on a phone and a big screen, in the five languages: "Play now" finds a
game, the ready check is answered, and the page takes its player to her table; the lobby lists
the new-player table first, and a table's rating limit shows on its card."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from web_support import LANGUAGES, MISSING, Server, layout_problems, missing_keys

CASES = [((390, 844), "en"), ((1920, 1080), "ru"), ((390, 844), "zh-Hans"), ((1366, 768), "zh-Hant"), ((390, 844), "vi")]  # fmt: skip
WAIT = 20.0  # a bound on the server's next passes, never a timing


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(
        Path(tmp_path_factory.mktemp("queue")),
        SH_QUEUE_TICK="0.2",
        SH_QUEUE_READY="120",
        SH_NEWBIE_TABLES="1",
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _state(server: Server, token: str) -> dict[str, Any]:
    result: dict[str, Any] = server.api("GET", "/api/queue", token=token)
    return result


def _a_poll(response: Any) -> bool:
    """The answer to the panel's poll of its state."""
    return bool(response.request.method == "GET" and response.url.endswith("/api/queue"))


def _until(what: str, pred: Any) -> Any:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.1)
    raise TimeoutError(what)


@pytest.mark.parametrize(("size", "lang"), CASES)
def test_play_now_finds_a_game_answers_the_ready_check_and_goes_to_the_table(
    web_server: Server, new_context: Any, size: tuple[int, int], lang: str
) -> None:
    assert lang in LANGUAGES
    tag = f"{lang}{size[0]}"
    me = web_server.session(f"Ann{tag}"[:20])["token"]
    page = new_context(width=size[0], height=size[1], token=me, lang=lang).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{web_server.url}/")
    page.locator("#queue-players").select_option("5")
    page.locator("#queue-category").select_option("casual")
    page.locator("[data-fkey=queue-join]").click()
    page.locator(".queue-status").wait_for(timeout=15_000)
    assert MISSING not in page.locator(".queue-panel").inner_text(), missing_keys(page)
    others = [web_server.session(f"P{i}{tag}"[:20])["token"] for i in range(4)]
    for token in others:
        web_server.api("POST", "/api/queue", {"players": 5, "category": "casual"}, token=token)
    page.locator(".queue-check").wait_for(timeout=15_000)
    assert layout_problems(page, ".lobby-page") == []
    # a poll with no news leaves the buttons where they are (one drawn anew under a tap loses it)
    ready = page.locator(".queue-check .btn-primary").element_handle()
    for _ in range(2):  # after the second, the first one's answer has been taken
        with page.expect_response(_a_poll, timeout=15_000):
            pass
    assert ready.evaluate("button => button.isConnected")
    page.locator(".queue-check .btn-primary").click()
    page.locator(".queue-check .hint").wait_for(timeout=15_000)  # she is ready
    for token in others:
        match = _until("the ready check", lambda t=token: _state(web_server, t).get("match"))
        web_server.api(
            "POST", "/api/queue/ready", {"match_id": match["id"], "ready": True}, token=token
        )
    page.wait_for_url(re.compile(r"#/t/"), timeout=15_000)
    table_id = unquote(page.url.split("#/t/", 1)[1].split("?")[0])
    detail = web_server.api("GET", f"/api/tables/{table_id}", token=me)
    assert detail["kind"] == "queue" and detail["status"] == "playing"
    # back in the lobby she is not sent to the table again: offered it, and a new game
    page.goto(f"{web_server.url}/")
    link = page.locator(".queue-panel a.btn-primary")
    link.wait_for(timeout=15_000)
    assert table_id in unquote(link.get_attribute("href") or "")
    assert "#/t/" not in page.url
    assert page.locator("[data-fkey=queue-join]").is_enabled()
    assert errors == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_lists_the_new_player_table_first_and_shows_rating_limits(
    web_server: Server, new_context: Any, lang: str
) -> None:
    host = web_server.session(f"Host{lang}")["token"]
    limited_table = web_server.api(
        "POST",
        "/api/tables",
        {"players": 5, "rating_min": 10, "rating_max": 30, "seat": None},
        token=host,
    )
    page = new_context(width=390, height=844, lang=lang).new_page()
    page.goto(f"{web_server.url}/")
    first = page.locator(".tables-box .table-card").first
    first.locator(".tag-newbie").wait_for(timeout=15_000)
    assert first.locator("h3").inner_text() == first.locator(".tag-newbie").inner_text()
    limited = page.locator(".tables-box .table-card", has=page.locator(".tag-rating-limit")).first
    text = limited.locator(".tag-rating-limit").inner_text()
    assert "10" in text and "30" in text
    assert MISSING not in page.locator("body").inner_text(), missing_keys(page)
    assert layout_problems(page, ".lobby-page") == []
    # the waiting room says the limit too
    page.goto(f"{web_server.url}/#/t/{limited_table['id']}")
    shown = page.locator("dd.rating-limit")
    shown.wait_for(timeout=15_000)
    assert "10" in shown.inner_text() and "30" in shown.inner_text()
    assert MISSING not in page.locator("body").inner_text(), missing_keys(page)
