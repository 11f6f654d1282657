"""The lobby names the bot levels for players (easy, normal, hard, human-like, expert) in every language
and starts on the server's default level (GET /api/bots)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from web_support import missing_keys

NAMES = {
    "en": ["Easy", "Normal", "Hard", "Human-like", "Expert"],
    "ru": ["Лёгкий", "Обычный", "Сложный", "Как человек", "Эксперт"],
    "zh-Hans": ["简单", "普通", "困难", "拟人", "专家"],
}


@pytest.mark.parametrize("lang", sorted(NAMES))
def test_lobby_offers_the_player_levels(web_server, new_context, lang: str) -> None:
    bots = web_server.api("GET", "/api/bots")
    default = bots["default"]
    assert default == "bayes"
    assert bots["offered"] == ["random", "rule", "bayes", "bayes-human", "search"]
    page = new_context(width=1366, height=768, lang=lang).new_page()
    page.goto(web_server.url + "/")
    # the list the server offers, once its answer is in (not the page's offline fallback)
    page.wait_for_function(
        "n => document.querySelectorAll('#level option').length === n", arg=len(bots["offered"])
    )
    page.wait_for_function(f"() => document.querySelector('#level').value === '{default}'")
    options = page.locator("#level option")
    assert options.evaluate_all("els => els.map(e => e.value)") == bots["offered"]
    assert options.all_inner_texts() == NAMES[lang]
    assert not missing_keys(page)


def test_without_the_servers_answer_the_menu_is_empty_and_tables_get_its_default(
    web_server, new_context
) -> None:
    """No second copy of the level list in the page: while GET /api/bots fails the menu offers
    nothing and a table still gets bots (the server's default level); after a failure the lobby
    asks again at its next refresh and the menu fills."""
    default = web_server.api("GET", "/api/bots")["default"]
    failed: list[str] = []
    held: list[Any] = []  # the lobby's next request, answered when the test says so

    def fail_first_hold_next(route: Any) -> None:
        if failed:
            held.append(route)
        else:
            failed.append(route.request.url)
            route.abort()

    page = new_context(width=390, height=844).new_page()
    page.route("**/api/bots", fail_first_hold_next)
    page.goto(web_server.url + "/")
    page.wait_for_function("() => document.querySelector('#level')?.disabled")
    assert page.locator("#level option").count() == 0
    deadline = time.monotonic() + 30  # the lobby refreshes every few seconds
    while not held:
        assert time.monotonic() < deadline, "the lobby did not ask for the levels again"
        page.wait_for_timeout(100)  # lets Playwright run the route handler meanwhile
    assert page.locator("#level option").count() == 0  # still empty while nothing answered
    held[0].continue_()
    page.wait_for_function("() => document.querySelectorAll('#level option').length > 0")
    assert page.locator("#level").evaluate("e => [e.value, e.disabled]") == [default, False]
    assert len(failed) == 1
    for route in held[1:]:
        route.continue_()

    page = new_context(width=390, height=844).new_page()
    page.route("**/api/bots", lambda route: route.abort())
    page.goto(web_server.url + "/")
    page.wait_for_function("() => document.querySelector('#level')?.disabled")
    page.fill("#name", "Offline host")
    page.select_option("#bots", "3")  # one seat stays free: the table waits
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/#/t/*", timeout=20000)
    table_id = page.url.split("#/t/", 1)[1].split("?")[0]
    seats = web_server.api("GET", f"/api/tables/{table_id}")["seats"]
    assert [s.get("level") for s in seats if s["kind"] == "bot"] == [default] * 3
