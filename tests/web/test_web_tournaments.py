"""Tournaments in Chromium (docs/competitive.md "Tournaments"), on a phone and a big screen, in
the five languages: the list, a finished Swiss tournament's standings (a player a bot stood in
for marked, with the note that says what it means) and its rounds, signing up and checking in
from the page, the host's form creating one, a guest told to save an account first."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import LANGUAGES, MISSING, ROOT, Server, layout_problems, missing_keys

sys.path.insert(0, str(ROOT / "tests" / "server"))  # the tournaments of the server tests
from rated_support import account, ask  # noqa: E402
from tournament_support import finished_elimination, finished_swiss  # noqa: E402

SIZES = ((390, 844), (1920, 1080))  # a phone, a big screen


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with one finished Swiss tournament (six accounts, one of whom left her game in
    round 1), a finished single elimination of ten, and one open for sign-up."""
    server = Server(Path(tmp_path_factory.mktemp("tournaments")))
    server.start()
    try:
        tid, players, leaver = finished_swiss(server, prefix="Cup")
        body = {"name": "Sunday Open", "players": 5, "starts_at": time.time() + 7200}
        open_id = ask(server, players[0], "POST", "/api/tournaments", body)["id"]
        server.knockout = finished_elimination(server)  # type: ignore[attr-defined]
        server.finished = (tid, players, leaver)  # type: ignore[attr-defined]
        server.open_id = open_id  # type: ignore[attr-defined]
        yield server
    finally:
        server.stop()


SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def _page(
    new_context: Any, size: tuple[int, int], token: str | None = None, lang: str = "en"
) -> Any:
    page = new_context(width=size[0], height=size[1], token=token, lang=lang).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _clean(page: Any, root: str, shot: str | None = None) -> None:
    assert MISSING not in page.locator("body").inner_text(), missing_keys(page)
    assert layout_problems(page, root) == []
    assert page.errors == []
    if shot is not None:  # to look at (build/screenshots)
        width = page.viewport_size["width"]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"tournament-{shot}-{width}.png"), full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_a_finished_tournament_shows_its_standings_and_who_a_bot_stood_in_for(
    web_server: Server, new_context: Any, size: tuple[int, int]
) -> None:
    tid, players, leaver = web_server.finished  # type: ignore[attr-defined]
    page = _page(new_context, size, players[1].token)
    page.goto(f"{web_server.url}/#/leaderboard")
    page.locator("#tournaments-tab").click()  # the leaderboard's tab
    card = page.locator(f"#tournaments-past [data-tournament={tid}]")
    card.wait_for(timeout=15_000)
    assert "Friday Cup" in card.inner_text() and "Finished" in card.inner_text()
    assert "Sunday Open" in page.locator("#tournaments-open").inner_text()
    _clean(page, ".tournaments-page")
    card.click()
    rows = page.locator("#tournament-standings tbody tr")
    rows.first.wait_for(timeout=15_000)
    assert rows.count() == 6
    left = page.locator(f"#tournament-standings tr[data-user={leaver}]")
    assert "bot finished a game" in left.inner_text()
    assert left.locator("td.left").inner_text() == "1"
    assert "Bot finished" in page.locator("#standings-left-note").inner_text()
    rounds = page.locator("#tournament-rounds .round")
    assert rounds.count() == 2
    first = rounds.nth(0)
    assert first.locator(".round-seat.left").count() == 1
    assert "bot finished" in first.locator(".round-seat.left").inner_text()
    assert rounds.nth(1).locator(".round-seat").count() == 5
    assert page.locator(".tournament-page[data-status=finished]").count() == 1
    assert page.locator("#tournament-actions").count() == 0  # nothing to do in a past one
    _clean(page, ".tournament-page")


@pytest.mark.parametrize("size", SIZES)
def test_a_single_elimination_shows_its_bracket_and_its_champions(
    web_server: Server, new_context: Any, size: tuple[int, int]
) -> None:
    tid, players = web_server.knockout  # type: ignore[attr-defined]
    found = web_server.api("GET", f"/api/tournaments/{tid}")
    page = _page(new_context, size, players[0].token)
    page.goto(f"{web_server.url}/#/tournaments/{tid}")
    bracket = page.locator("#tournament-rounds.bracket")
    bracket.wait_for(timeout=15_000)
    assert "Bracket" in bracket.locator("h2").inner_text()
    rounds = bracket.locator(".round")
    assert rounds.count() == 2
    assert rounds.nth(0).locator(".round-table").count() == 2
    assert rounds.nth(1).locator(".round-table").count() == 1
    went_on = rounds.nth(0).locator(".round-table .hint").all_inner_texts()
    assert len(went_on) == 2 and all(text.startswith("Went on: ") for text in went_on)
    names = {n for text in went_on for n in text.removeprefix("Went on: ").split(", ")}
    (final,) = found["round_tables"][1]["tables"]
    assert names == {s["name"] for s in final["seats"]}  # each table's people in the final
    champions = {ln["name"] for ln in found["standings"] if ln["champion"]}
    assert champions
    shown = page.locator("#tournament-standings .badge.champion")
    assert shown.count() == len(champions)
    top = page.locator("#tournament-standings tbody tr th a").all_inner_texts()[: len(champions)]
    assert set(top) == champions
    _clean(page, ".tournament-page", "bracket")


def test_signing_up_and_checking_in_from_the_page(web_server: Server, new_context: Any) -> None:
    open_id = web_server.open_id  # type: ignore[attr-defined]
    host = web_server.finished[1][0]  # type: ignore[attr-defined]
    player = account(web_server, "Newcomer", "127.0.0.1")
    page = _page(new_context, SIZES[0], player.token)
    page.goto(f"{web_server.url}/#/tournaments/{open_id}")
    page.locator("#tournament-signup").click()
    you = page.locator("#tournament-you")
    you.wait_for(timeout=15_000)
    assert "You are signed up" in you.inner_text()
    assert "Newcomer" in page.locator("#tournament-entrants").inner_text()
    ask(web_server, host, "POST", f"/api/tournaments/{open_id}/open-checkin")
    page.locator("#tournament-checkin").click(timeout=15_000)  # (the page asks again by itself)
    page.wait_for_function(
        "() => document.querySelector('#tournament-you').innerText.includes('checked in')",
        timeout=15_000,
    )
    _clean(page, ".tournament-page")
    page.locator("#tournament-withdraw").click()
    page.locator("#tournament-signup").wait_for(timeout=15_000)  # her sign-up is gone


def test_the_host_creates_a_tournament_and_a_guest_is_told_to_save_an_account(
    web_server: Server, new_context: Any
) -> None:
    host = account(web_server, "Organiser", "127.0.0.1")
    page = _page(new_context, SIZES[1], host.token)
    page.goto(f"{web_server.url}/#/tournaments")
    page.locator(".tournament-create summary").click()
    page.locator("#tournament-name").fill("Bot 3")  # reads as a bot seat: refused by the server
    page.locator("#tournament-format").select_option("elimination")
    page.locator("#tournament-players").fill("10")
    page.locator("#tournament-timer").select_option("60")
    page.locator("#tournament-form button[type=submit]").click()
    refused = page.locator("#tournament-form-error")
    refused.wait_for(timeout=15_000)
    assert "Check: Name." in refused.inner_text()
    assert page.locator("#tournament-players").input_value() == "10"  # nothing typed is lost
    page.locator("#tournament-name").fill("Evening Elimination")
    page.locator("#tournament-form button[type=submit]").click()
    title = page.locator(".tournament-title")
    title.wait_for(timeout=15_000)
    assert "Evening Elimination" in title.inner_text() and "Sign-up" in title.inner_text()
    facts = page.locator(".tournament-facts").inner_text()
    assert "Single elimination" in facts and "1 min" in facts  # its decision timer
    assert page.locator("#tournament-open-checkin").count() == 1  # she hosts it
    _clean(page, ".tournament-page")
    guest = web_server.session("Walker")
    other = _page(new_context, SIZES[0], guest["token"], lang="vi")
    other.goto(f"{web_server.url}/#/tournaments")
    other.locator("#tournament-sign-in").wait_for(timeout=15_000)
    assert "lưu tài khoản" in other.locator("#tournament-sign-in").inner_text()
    _clean(other, ".tournaments-page")


def test_a_rounds_table_is_tagged_in_the_lobby(web_server: Server, new_context: Any) -> None:
    """A tournament without check-in started by its host: its table is in the lobby, tagged."""
    five = [account(web_server, f"Lobby{i}", "127.0.0.1") for i in range(5)]
    body = {"name": "Lobby Cup", "players": 5, "starts_at": time.time() + 7200, "checkin": 0}
    tid = ask(web_server, five[0], "POST", "/api/tournaments", body)["id"]
    for p in five:
        ask(web_server, p, "POST", f"/api/tournaments/{tid}/signup")
    ask(web_server, five[0], "POST", f"/api/tournaments/{tid}/start")
    page = _page(new_context, SIZES[0], five[1].token, lang="ru")
    page.goto(f"{web_server.url}/#/tournaments/{tid}")
    page.locator("#your-table").wait_for(timeout=15_000)  # her table, once it is open
    page.goto(f"{web_server.url}/#/")
    card = page.locator(".table-card:not(.my-game)", has_text="Lobby Cup")  # the open tables
    card.wait_for(timeout=15_000)
    assert card.locator(".tag-tournament").inner_text() == "Турнир"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_the_words_of_tournaments(
    web_server: Server, new_context: Any, lang: str
) -> None:
    tid, players, _ = web_server.finished  # type: ignore[attr-defined]
    for size in SIZES:
        page = _page(new_context, size, players[2].token, lang)
        page.goto(f"{web_server.url}/#/leaderboard")
        page.locator("#tournaments-tab").wait_for(timeout=15_000)
        _clean(page, ".leaderboard-page")  # its tabs, "Tournaments" among them
        page.goto(f"{web_server.url}/#/tournaments")
        page.locator("#tournaments-past").wait_for(timeout=15_000)
        page.locator(".tournament-create summary").click()
        _clean(page, ".tournaments-page")
        page.goto(f"{web_server.url}/#/tournaments/{tid}")
        page.locator("#tournament-standings").wait_for(timeout=15_000)
        page.locator(".tournament-points summary").click()
        _clean(page, ".tournament-page")
        page.goto(f"{web_server.url}/#/tournaments/{web_server.open_id}")  # type: ignore[attr-defined]
        page.locator("#tournament-signup").wait_for(timeout=15_000)
        _clean(page, ".tournament-page")
