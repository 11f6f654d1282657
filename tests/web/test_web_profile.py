"""The leaderboard and a player profile in Chromium, after a real rated game (of five accounts
from addresses of their own, as rated seats need: ``rated_support``): the rating history is an
inline SVG chart with a point per rated game, the stats tables show the game, the block button
works, and every language has its words. (Seasons: test_web_competitive.py.)"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from web_support import LANGUAGES, MISSING, ROOT, Server, sign_in

sys.path.insert(0, str(ROOT / "tests" / "server"))  # the rated games of the server tests
from rated_support import RATED_ENV, account, play_rated  # noqa: E402
from rated_support import people as accounts  # noqa: E402

from secret_hitler.cli import app  # noqa: E402


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    server = Server(Path(tmp_path_factory.mktemp("profile-data")), **RATED_ENV).start()
    try:
        players = accounts(server, 5, prefix="Player ")
        people = [{"token": p.token, "user_id": p.user_id} for p in players]
        viewer = server.session("Viewer")
        # Playwright's sync API runs an event loop in this thread: the game plays in another
        with ThreadPoolExecutor(1) as pool:
            game = pool.submit(asyncio.run, play_rated([server], players, seed=11))
            record = game.result(timeout=120)["record"]
        end = time.monotonic() + 20
        while server.api("GET", f"/api/players/{people[0]['user_id']}")["rating"]["games"] < 1:
            assert time.monotonic() < end, "the rated game was not rated"
            time.sleep(0.05)
        yield {"server": server, "people": people, "viewer": viewer, "record": record}
    finally:
        server.stop()


def _context(chromium: Any, server: Server, token: str | None = None, lang: str = "en") -> Any:
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    refused: list[str] = []
    ctx.on(
        "console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None
    )
    ctx.add_init_script(f"localStorage.setItem('sh.lang', {lang!r});")
    if token:
        sign_in(ctx, server.url, token)
    ctx.refused = refused
    return ctx


def test_profile_shows_the_rating_history_chart_and_stats(chromium: Any, rated: Any) -> None:
    server, person, viewer = rated["server"], rated["people"][0], rated["viewer"]
    record = rated["record"]
    profile = server.api("GET", f"/api/players/{person['user_id']}")
    ctx = _context(chromium, server, viewer["token"])
    page = ctx.new_page()
    page.goto(f"{server.url}/#/players/{person['user_id']}")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    chart = page.locator("svg.rating-chart")
    try:
        chart.wait_for(timeout=10_000)
    except Exception:
        raise AssertionError((errors, page.locator("body").inner_text())) from None
    assert page.locator("h1.page-title").inner_text() == "Player 0"
    assert chart.get_attribute("data-points") == "1"
    assert page.locator("svg.rating-chart circle").count() == 1
    assert "Rating after each of 1 rated games" in chart.get_attribute("aria-label")
    won = profile["history"][0]["won"]
    assert page.locator("svg.rating-chart circle").get_attribute("class") == (
        "dot won" if won else "dot lost"
    )
    assert page.locator("#profile-rating").inner_text() == f"{profile['rating']['rating']:.1f}"
    role = record["roles"][0]
    row = page.locator("table.stats-table tr", has_text=role.capitalize()).first
    assert row.locator("td").all_inner_texts()[:2] == ["1", "1" if won else "0"]
    assert page.locator("table.stats-table", has_text="5 players").count() == 1
    # block from the profile: the server's blocklist has her now
    page.locator("#block-toggle").click()
    page.locator("#block-toggle", has_text=re.compile(r"^Unblock player$")).wait_for(timeout=10_000)
    blocked = server.api("GET", "/api/blocks", token=viewer["token"])["blocked"]
    assert [b["user_id"] for b in blocked] == [person["user_id"]]
    page.locator("#block-toggle").click()
    # exactly: has_text is a case-blind substring, so "Block player" is in "Unblock player"
    page.locator("#block-toggle", has_text=re.compile(r"^Block player$")).wait_for(timeout=10_000)
    assert server.api("GET", "/api/blocks", token=viewer["token"])["blocked"] == []
    page.screenshot(
        path=str(Path(os.environ.get("SH_PROFILE_SHOT", "/dev/null"))), full_page=True
    ) if os.environ.get("SH_PROFILE_SHOT") else None
    assert ctx.refused == [] and errors == []
    ctx.close()


def test_a_refused_report_keeps_its_text_and_a_report_is_sent_once(
    chromium: Any, rated: Any
) -> None:
    """A report naming a game that does not exist is refused and keeps what was typed (the form
    is drawn anew after every answer); sent with a double click, it is stored once."""
    server = rated["server"]
    person, reporter = rated["people"][1], server.session("Reporter")
    ctx = _context(chromium, server, reporter["token"])
    page = ctx.new_page()
    page.goto(f"{server.url}/#/players/{person['user_id']}")
    page.locator("#report-open").click()
    page.fill("#report-reason", "Throws every game")
    page.fill("#report-game", "nope")
    page.get_by_role("button", name="Send report").click()
    refusal = page.locator("p.error[role=alert]")
    refusal.wait_for(timeout=10_000)
    assert "No game you can see has that id" in refusal.inner_text()  # the game, not the player
    assert page.locator("#report-reason").input_value() == "Throws every game"
    assert page.locator("#report-game").input_value() == "nope"
    page.fill("#report-game", "")
    page.get_by_role("button", name="Send report").dblclick()
    page.locator("p.notice", has_text="Report sent. Thank you.").wait_for(timeout=10_000)
    assert page.locator("#report-reason").count() == 0  # the form is closed
    # the reports as a moderator lists them (``secret-hitler admin reports list``)
    listed = CliRunner().invoke(
        app,
        ["admin", "reports", "list", "--json", "--player", person["user_id"]],
        env={"SH_DATA": str(server.data), "DATABASE_URL": ""},
    )
    stored = [json.loads(line) for line in listed.output.splitlines()]
    assert [(r["reporter"], r["reason"], r["game_id"]) for r in stored] == [
        (reporter["user_id"], "Throws every game", None)
    ]
    assert ctx.refused == []
    ctx.close()


def test_leaderboard_links_to_profiles_and_shows_the_bots(chromium: Any, rated: Any) -> None:
    server = rated["server"]
    ctx = _context(chromium, server)
    page = ctx.new_page()
    page.goto(f"{server.url}/#/leaderboard?period=week")
    rows = page.locator("#leaderboard tbody tr")
    rows.first.wait_for(timeout=10_000)
    assert rows.count() == 5
    names = page.locator("#leaderboard tbody th a").all_inner_texts()
    assert sorted(names) == [f"Player {i}" for i in range(5)]
    assert page.locator("#bot-ratings tbody tr").count() >= 2
    page.locator("#leaderboard tbody th a").first.click()
    page.locator("svg.rating-chart").wait_for(timeout=10_000)
    assert page.locator("h1.page-title").inner_text() == names[0]
    assert ctx.refused == []
    ctx.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_the_words(chromium: Any, rated: Any, lang: str) -> None:
    server, person = rated["server"], rated["people"][1]
    ctx = _context(chromium, server, rated["viewer"]["token"], lang)
    page = ctx.new_page()
    for path in (f"#/players/{person['user_id']}", "#/leaderboard"):
        page.goto(f"{server.url}/{path}")
        page.locator("svg.rating-chart, #leaderboard").first.wait_for(timeout=10_000)
        text = page.locator("body").inner_text()
        assert MISSING not in text, (lang, path)
    ctx.close()


def test_the_lobby_creates_a_rated_table(chromium: Any, rated: Any) -> None:
    server = rated["server"]
    host = account(server, "Rated Host", "192.0.2.99")  # a rated seat needs an account
    ctx = _context(chromium, server, host.token)
    page = ctx.new_page()
    page.goto(f"{server.url}/#/")
    page.locator("input[name=category][value=rated]").check()  # the category "Rated"
    page.locator("form.create [type=submit]").click()
    page.wait_for_url("**/#/t/*", timeout=20_000)
    table_id = page.url.split("#/t/", 1)[1]
    detail = server.api("GET", f"/api/tables/{table_id}", token=host.token)
    assert detail["rated"] is True and detail["public"] is True and detail["rules"] == "official"
    assert [s["kind"] for s in detail["seats"]] == ["human"] + ["empty"] * 4
    assert ctx.refused == []
    ctx.close()
