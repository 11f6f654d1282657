"""The lobby names the bot levels for players (easy, normal, hard, human-like, expert) in every language
and starts on the server's default level (GET /api/bots)."""

from __future__ import annotations

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
