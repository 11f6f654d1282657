"""Language models in the web client (docs/llm.md): a host seats two models from the server's
list in the waiting room, plays a whole game with them in the browser, and every page marks the
model seats; the arena's leaderboard in the five languages on a phone. The models answer from
the scripted chat server on 127.0.0.1 (tests/chat_server.py)."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import LANGUAGES, ROOT, Server, layout_problems, missing_keys, play_until_over

from chat_server import ChatServer, endpoints_file, running

pytest.importorskip("httpx")

CATALOGS = ROOT / "src" / "secret_hitler" / "web" / "static" / "i18n"
SHOTS = ROOT / "build" / "screenshots"


@pytest.fixture(scope="module")
def chat() -> Iterator[ChatServer]:
    with running(seed=4) as server:
        yield server


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory, chat: ChatServer) -> Iterator[Server]:
    """This module's server: two model endpoints and an arena's report (with its plots)."""
    folder = Path(tmp_path_factory.mktemp("models"))
    models = endpoints_file(folder / "models.toml", chat.url, {"alpha": "Alpha", "beta": "Beta"})
    arena = folder / "arena"
    arena.mkdir()
    shutil.copy(ROOT / "tests" / "arena_report.json", arena / "report.json")
    from secret_hitler.llm.report import plot_report

    plot_report(json.loads((arena / "report.json").read_text(encoding="utf-8")), arena)
    server = Server(
        folder / "data", SH_LLM_ENDPOINTS=str(models), SH_ARENA_REPORT=str(arena / "report.json")
    ).start()
    try:
        yield server
    finally:
        server.stop()


def _words(lang: str) -> dict[str, str]:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))


def test_a_person_plays_a_whole_game_with_two_model_seats(
    web_server: Server, new_context: Any, chat: ChatServer
) -> None:
    host = web_server.session("Alice")
    table = web_server.api("POST", "/api/tables", {"players": 5, "timer": 30}, token=host["token"])
    page = new_context(width=390, height=844, token=host["token"]).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{web_server.url}/#/t/{table['id']}")
    # the host picks each model from the server's list (by its name) and seats it
    level = page.locator("#fill-level")
    level.locator("optgroup option").nth(1).wait_for(state="attached", timeout=20000)
    assert level.locator("optgroup option").all_inner_texts() == ["Alpha", "Beta"]
    for seat, model in ((2, "llm:alpha"), (3, "llm:beta")):
        level.select_option(model)
        page.locator(f"[data-fkey='add-bot-{seat}']").click()
        page.locator(".wait-seat.kind-bot .badge-model").nth(seat - 2).wait_for(timeout=20000)
    marked = page.locator(".wait-seat", has=page.locator(".badge-model"))
    assert marked.locator(".seat-name").all_inner_texts() == ["Alpha 3", "Beta 4"]
    assert marked.locator(".badge-model").all_inner_texts() == ["Language model"] * 2
    level.select_option("rule")  # the other seats: a bot level
    page.locator("[data-fkey='start']").click()
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)

    # at the table every model seat is marked, and only those
    seats = page.locator(".seat", has=page.locator(".badge-model"))
    assert [s.get_attribute("data-seat") for s in seats.all()] == ["2", "3"]
    assert seats.locator(".seat-name").all_inner_texts() == ["Alpha 3", "Beta 4"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "model-seats-390.png"))
    play_until_over(page, random.Random(7), timeout=240)
    assert page.locator(".seat .badge-model").count() == 2
    assert {r["body"]["model"] for r in chat.requests} == {"test-alpha", "test-beta"}
    record = web_server.api("GET", f"/api/games/{table['id']}/record")
    assert record["players"][2:4] == ["Alpha 3", "Beta 4"]
    assert missing_keys(page) == [] and not errors


def test_the_arena_leaderboard_in_every_language_on_a_phone(
    web_server: Server, new_context: Any
) -> None:
    page = new_context(width=360, height=740, still=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{web_server.url}/#/leaderboard")
    page.locator("#arena-link").click()
    page.locator("#arena-ratings tbody tr").first.wait_for(timeout=20000)
    for lang in LANGUAGES:
        page.select_option("#lang-select", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        words = _words(lang)
        assert page.locator("h1").inner_text() == words["arena.title"]
        rows = page.locator("#arena-ratings tbody tr")
        assert rows.count() == 5  # two models, three bot levels
        models = page.locator("#arena-ratings tbody tr.is-model")
        assert models.count() == 2
        assert models.locator(".badge-model").all_inner_texts() == [words["seat.model"]] * 2
        assert page.locator("#arena-wins tbody tr").count() == 5
        assert page.locator("#arena-deception tbody tr").count() >= 2
        assert page.locator("#arena-deduction tbody tr").count() == 1
        assert missing_keys(page) == [], lang
        assert layout_problems(page) == [], lang
        if lang == "ru":  # looked at by people, not by the test
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "arena-ru-360.png"), full_page=True)
    plots = page.locator(".arena-plot img")
    assert plots.count() == 2
    for img in plots.all():
        img.scroll_into_view_if_needed()
        page.wait_for_function("el => el.complete && el.naturalWidth > 0", arg=img.element_handle())
        box = img.bounding_box()
        assert box is not None and box["width"] <= 360  # shrunk to the phone
    assert not errors
