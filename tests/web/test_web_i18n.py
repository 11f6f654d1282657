"""Every language renders the lobby, the waiting room, a table in mid-game, a finished game, the
replays and the rules with no missing catalog key (the client renders a missing key as ⟦key⟧)."""

from __future__ import annotations

import time

import pytest
from web_support import LANGUAGES, missing_keys

BROWSER_LOCALE = {
    "en": "en-US",
    "zh-Hans": "zh-CN",
    "zh-Hant": "zh-TW",
    "ru": "ru-RU",
    "vi": "vi-VN",
}


@pytest.fixture(scope="module")
def tables(web_server) -> dict[str, object]:
    """A waiting table, a table in mid-game waiting for its human, and a finished game."""
    host = web_server.session("Hana")
    token = host["token"]
    waiting = web_server.api(
        "POST", "/api/tables", {"players": 6, "bots": {"1": "random"}}, token=token
    )
    bots4 = {str(s): "random" for s in range(1, 5)}
    playing = web_server.api("POST", "/api/tables", {"players": 5, "bots": bots4}, token=token)
    watcher = web_server.session("Wes")
    bots5 = {str(s): "random" for s in range(5)}
    finished = web_server.api(
        "POST", "/api/tables", {"players": 5, "bots": bots5, "seat": None}, token=watcher["token"]
    )
    deadline = time.monotonic() + 60
    while web_server.api("GET", f"/api/tables/{finished['id']}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.2)
    return {
        "token": token,
        "waiting": waiting["id"],
        "playing": playing["id"],
        "finished": finished["id"],
    }


def _assert_complete(page, where: str) -> None:
    missing = missing_keys(page)
    assert not missing, f"{where}: missing keys {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_every_language(web_server, new_context, tables, lang: str) -> None:
    # the language follows navigator.languages
    ctx = new_context(width=390, height=844, locale=BROWSER_LOCALE[lang], token=tables["token"])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web_server.url + "/")
    page.wait_for_selector(".lobby-page form.create")
    assert page.evaluate("document.documentElement.lang") == lang
    page.wait_for_selector(".table-list .table-card")
    _assert_complete(page, "lobby")
    # the custom rules form
    page.locator("form.create .btn-link").click()
    page.wait_for_selector("fieldset.custom")
    _assert_complete(page, "lobby, custom rules")

    page.goto(f"{web_server.url}/#/t/{tables['waiting']}")
    page.wait_for_selector(".waiting-room .wait-seats")
    _assert_complete(page, "waiting room")

    page.goto(f"{web_server.url}/#/t/{tables['playing']}")
    page.wait_for_selector(".table-grid:not([hidden]) .area-action .decision button")
    _assert_complete(page, "table")
    # the server's bot names, in this language ("Бот 2", "机器人 2"), with the full name as title
    bot_name = {
        "en": "Bot 2",
        "zh-Hans": "机器人 2",
        "zh-Hant": "機器人 2",
        "ru": "Бот 2",
        "vi": "Bot 2",
    }
    second = page.locator('.seat[data-seat="1"] .seat-name')
    assert second.inner_text() == bot_name[lang] and second.get_attribute("title") == bot_name[lang]
    page.locator(".role-toggle").click()
    page.wait_for_selector("#role-secret")
    _assert_complete(page, "table, role revealed")

    page.goto(f"{web_server.url}/#/t/{tables['finished']}")
    page.wait_for_selector(".gameover .roles-revealed")
    _assert_complete(page, "finished table")

    # a bots' game watched live from its start to its end: the whole log in this language
    watcher = web_server.session("Vic")
    bots5 = {str(s): "random" for s in range(5)}
    live = web_server.api(
        "POST",
        "/api/tables",
        {"players": 5, "bots": bots5, "seat": None, "auto_start": False},
        token=watcher["token"],
    )
    page.goto(f"{web_server.url}/#/t/{live['id']}")
    page.wait_for_selector(".waiting-room .wait-seats")
    page.wait_for_selector(".table-page[data-conn=open]")  # the WebSocket is open
    web_server.api("POST", f"/api/tables/{live['id']}/start", {}, token=watcher["token"])
    page.wait_for_selector(".table-grid:not([hidden]) .gameover .roles-revealed", timeout=30000)
    assert page.locator(".log-list li").count() > 20
    _assert_complete(page, "game over")

    page.goto(f"{web_server.url}/#/replay")
    page.wait_for_selector(".replay-page .table-list, .replay-page .empty")
    _assert_complete(page, "replays")

    page.goto(f"{web_server.url}/#/rules")
    page.wait_for_selector(".rules-page .rules-table")
    _assert_complete(page, "rules")
    assert page.locator(".rules-section").count() >= 10
    assert not errors


def test_the_language_can_be_switched_and_is_remembered(web_server, new_context) -> None:
    ctx = new_context(width=1366, height=768, locale="en-US")
    page = ctx.new_page()
    page.goto(web_server.url + "/#/rules")
    page.wait_for_selector(".rules-page")
    assert page.locator("h1").inner_text() == "Rules"
    page.select_option("#lang-select", "ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    assert page.locator("h1").inner_text() == "Правила"
    page.reload()
    page.wait_for_selector(".rules-page")
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.evaluate("localStorage.getItem('sh.lang')") == "ru"
