"""Competitive play in Chromium (docs/competitive.md), on a phone and a big screen, in the five
languages: a season's ladder and the list of seasons, a profile's season and one's own standing
for rated seats, a rated seat refused to a guest in her language, the vote to replace an absent
player by a bot, and a season that ended kept as a past season with its ladder."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from web_support import LANGUAGES, MISSING, ROOT, Server, layout_problems, missing_keys

sys.path.insert(0, str(ROOT / "tests" / "server"))  # the rated games of the server tests
from rated_support import RATED_ENV, people, play_rated  # noqa: E402

from secret_hitler.cli import app  # noqa: E402

SIZES = ((390, 844), (1920, 1080))  # a phone, a big screen


def _admin(server: Server, *args: str) -> None:
    result = CliRunner().invoke(app, ["admin", *args], env={"SH_DATA": str(server.data)})
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that takes rated seats from new accounts, believes the addresses the test
    clients name, lets a table vote an absent player out after one second; a current season
    ("Spring", ranked after one game) and one rated game of five accounts in it."""
    server = Server(Path(tmp_path_factory.mktemp("competitive")), **RATED_ENV, SH_AFK_AFTER="1")
    server.start()
    try:
        _admin(server, "season", "add", "spring", "--name", "Spring", "--start", "2020-01-01",
               "--end", "2100-01-01", "--placement", "1")  # fmt: skip
        five = people(server, 5, prefix="Player")
        with ThreadPoolExecutor(1) as pool:  # (Playwright's event loop runs in this thread)
            pool.submit(asyncio.run, play_rated([server], five, seed=5)).result(timeout=120)
        server.people = five  # type: ignore[attr-defined]
        yield server
    finally:
        server.stop()


def _page(
    new_context: Any, size: tuple[int, int], token: str | None = None, lang: str = "en"
) -> Any:
    page = new_context(width=size[0], height=size[1], token=token, lang=lang).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _clean(page: Any, root: str | None = None) -> None:
    assert MISSING not in page.locator("body").inner_text(), missing_keys(page)
    assert layout_problems(page, root) == []
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_the_season_ladder_lists_the_players_and_the_seasons(
    web_server: Server, new_context: Any, size: tuple[int, int]
) -> None:
    page = _page(new_context, size)
    page.goto(f"{web_server.url}/#/leaderboard")
    page.locator("#season-tab").click()
    rows = page.locator("#season-ladder tbody tr")
    rows.first.wait_for(timeout=15_000)
    assert rows.count() == 5
    assert "Spring" in page.locator("#season-title").inner_text()
    assert "Current" in page.locator("#season-title").inner_text()
    names = sorted(page.locator("#season-ladder tbody th a").all_inner_texts())
    assert names == [f"Player{i}" for i in range(5)]
    assert page.locator(".season-list a[aria-current=page]").inner_text().startswith("Spring")
    _clean(page, ".leaderboard-page")
    page.locator("#season-ladder tbody th a").first.click()
    card = page.locator(".season-card[data-season=spring]")
    card.wait_for(timeout=15_000)
    assert card.locator(".season-standing").inner_text().startswith("Rank ")
    assert "Spring" in card.inner_text() and "5 players" in card.inner_text()
    _clean(page, ".profile-page")


def test_ones_own_profile_says_whether_one_may_take_a_rated_seat(
    web_server: Server, new_context: Any
) -> None:
    player = web_server.people[0]  # type: ignore[attr-defined]
    page = _page(new_context, SIZES[0], player.token)
    page.goto(f"{web_server.url}/#/players/{player.user_id}")
    standing = page.locator("#standing")
    standing.wait_for(timeout=15_000)
    assert "You can take rated seats." in standing.inner_text()
    guest = web_server.session("Visitor")
    other = _page(new_context, SIZES[0], guest["token"], lang="ru")
    other.goto(f"{web_server.url}/#/players/{guest['user_id']}")
    other.locator("#standing").wait_for(timeout=15_000)
    assert "только для аккаунтов" in other.locator("#standing").inner_text()
    _clean(other, ".profile-page")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_the_words_of_seasons(
    web_server: Server, new_context: Any, lang: str
) -> None:
    player = web_server.people[1]  # type: ignore[attr-defined]
    for size in SIZES:
        page = _page(new_context, size, player.token, lang)
        page.goto(f"{web_server.url}/#/leaderboard?season=current")
        page.locator("#season-ladder").wait_for(timeout=15_000)
        _clean(page, ".leaderboard-page")
        page.goto(f"{web_server.url}/#/players/{player.user_id}")
        page.locator(".season-card").wait_for(timeout=15_000)
        page.locator("#standing").wait_for(timeout=15_000)
        _clean(page, ".profile-page")


def test_a_guest_is_told_in_her_language_why_a_rated_seat_is_refused(
    web_server: Server, new_context: Any
) -> None:
    host = web_server.people[2]  # type: ignore[attr-defined]
    table = web_server.api(
        "POST", "/api/tables", {"players": 5, "rated": True}, host.token, host.addr
    )
    guest = web_server.session("Walk-in")
    page = _page(new_context, SIZES[0], guest["token"], lang="vi")
    page.goto(f"{web_server.url}/#/t/{table['id']}")
    page.locator("[data-fkey=join-1]").click()
    page.get_by_text("Chỗ tính điểm chỉ dành cho tài khoản", exact=False).first.wait_for(
        timeout=15_000
    )
    detail = web_server.api("GET", f"/api/tables/{table['id']}")
    assert detail["seats"][1]["kind"] == "empty"
    assert page.errors == []


def test_the_table_votes_an_absent_player_out_from_the_action_area(
    web_server: Server, new_context: Any
) -> None:
    """Ann plays in the browser with two bots; Bo took a seat and never came. After a second
    the page offers the vote; Ann alone is the other living people, so her yes passes it."""
    ann, bo = (web_server.session(n) for n in ("Ann", "Bo"))
    body = {"players": 5, "bots": {"2": "random", "3": "random", "4": "random"}}
    tid = web_server.api("POST", "/api/tables", body, ann["token"], "192.0.2.1")["id"]
    page = _page(new_context, SIZES[0], ann["token"])
    page.context.set_extra_http_headers({"X-Forwarded-For": "192.0.2.1"})
    page.goto(f"{web_server.url}/#/t/{tid}")
    web_server.api("POST", f"/api/tables/{tid}/join", {"seat": 1}, bo["token"], "192.0.2.2")
    away = page.locator(".afk-away", has_text="Bo seems to be away.")
    away.wait_for(timeout=20_000)
    assert layout_problems(page, ".afk") == []
    away.get_by_role("button", name="Vote to replace with a bot").click()
    result = page.locator(".afk-result", has_text="Bo was replaced by a bot")
    result.wait_for(timeout=20_000)
    detail = web_server.api("GET", f"/api/tables/{tid}")
    assert detail["seats"][1]["kind"] == "bot" and detail["afk_result"]["passed"] is True
    for lang in LANGUAGES:  # the result stays shown until "OK": its words in every language
        page.evaluate(f"localStorage.setItem('sh.lang', {lang!r})")
        page.reload()
        page.locator(".afk-result").wait_for(timeout=20_000)
        assert MISSING not in page.locator(".afk").inner_text(), lang
        assert layout_problems(page, ".afk") == [], lang
    page.locator(".afk-result button").click()
    page.locator(".afk-result").wait_for(state="detached", timeout=20_000)
    assert page.errors == []


def test_a_season_that_ended_is_kept_with_its_ladder(web_server: Server, new_context: Any) -> None:
    _admin(web_server, "season", "end", "spring")
    page = _page(new_context, SIZES[1])
    page.goto(f"{web_server.url}/#/leaderboard?season=spring")
    page.locator("#season-ladder").wait_for(timeout=15_000)
    assert "Past" in page.locator("#season-title").inner_text()
    assert page.locator("#season-ladder tbody tr").count() == 5
    page.goto(f"{web_server.url}/#/leaderboard?season=current")  # none current: the latest
    page.locator("#season-title", has_text="Spring").wait_for(timeout=15_000)
    _clean(page, ".leaderboard-page")
