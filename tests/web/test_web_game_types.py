"""secrethitler.io's game types in the browser (docs/game-types.md, docs/web.md "Game types"):
a whole Avalon SH game to Hitler's assassination on a phone, the room's TV watching; the
Monarchist's win at the end; blind names before, during and after a game; an emote-only
game's reactions; a silent game's chat; the creation form's category and refusals, its timed
mode, and the lobby's filters. Each game comes from a known deal (``Server(seeds=...)``), so the scene
each test needs is reached every time. Screenshots in ``build/screenshots/gametypes-*``."""

from __future__ import annotations

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
    SocketPlayer,
    act_once,
    layout_problems,
    missing_keys,
    sign_in,
)

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}

#: Avalon SH with Percival at 7 seats, four liberal policies on the track from the start: the
#: first liberal policy (or Hitler's execution) opens the assassination (a custom game, so that
#: the scene comes within a few rounds). Seed 3 deals seat 0 Hitler.
AVALON = {
    "preset": "secrethitler-io",
    "avalon": "percival",
    "start_track": {"liberal": 4, "fascist": 0},
}
AVALON_SEED = 3
#: A Monarchist game of rule bots that ends with Hitler executed: the Monarchist wins with the
#: liberals (the simulator plays the same game: tests/server/test_sim_parity.py).
MONARCHIST_SEED = 6


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[Any]:
    """``seeded(*seeds)`` -> a server of its own whose games are dealt from ``seeds``."""
    started: list[Server] = []

    def make(*seeds: int) -> Server:
        server = Server(tmp_path / f"data{len(started)}", seeds=seeds).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


def _page(chromium: Any, server: Server, token: str | None, size: dict[str, int], path: str) -> Any:
    ctx = chromium.new_context(viewport=size, locale="en-US")
    if token:
        sign_in(ctx, server.url, token)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.frames_log = FrameLog(page)
    page.goto(server.url + path)
    return page


def _legal(page: Any) -> list[dict[str, Any]]:
    """The legal actions the server last sent this page."""
    for m in reversed(page.frames_log.messages):
        if m.get("type") in ("welcome", "update"):
            return m["legal"]  # type: ignore[no-any-return]
    return []


def _shot(page: Any, name: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"gametypes-{name}.png"), full_page=full)


def _until(page: Any, selector: str, rng: Any, timeout: float = 120.0) -> None:
    """Play what the page offers (random taps) until ``selector`` shows; a decision that shows
    it is left to the test (never tapped at random)."""
    deadline = time.monotonic() + timeout
    while not page.locator(selector).count():
        assert time.monotonic() < deadline, f"no {selector} in time"
        if selector != ".gameover" and page.locator(".gameover").count():
            raise AssertionError(f"the game ended first: {page.locator('.gameover').inner_text()}")
        if not act_once(page, rng, avoid=selector):
            page.wait_for_timeout(60)


class First:
    """Chooses the first of what is offered: the moves of a page's player that make a game of a
    known deal go the same way every time (``act_once``'s chooser)."""

    def randrange(self, n: int) -> int:
        return 0


def _fits_in_every_language(page: Any, where: str) -> None:
    """The page as it is now, in each of the five languages (the header's menu), at a phone's
    width: every text fits (layout_check.js) and no key is missing; back to English."""
    found = []
    for lang in [*LANGUAGES[1:], LANGUAGES[0]]:
        page.select_option("#lang-select", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        page.wait_for_timeout(100)  # (the redraw of the language's catalog, no timing asserted)
        found += [f"{where} {lang}: {p}" for p in layout_problems(page)]
        found += [f"{where} {lang}: missing {k}" for k in missing_keys(page)]
    assert found == [], "\n".join(found[:30])


def _table(server: Server, token: str, **body: Any) -> dict[str, Any]:
    return server.api("POST", "/api/tables", body, token)  # type: ignore[no-any-return]


# ---------------------------------------------------------------------- Avalon SH
@pytest.mark.timeout(300)
def test_an_avalon_game_to_hitlers_assassination_on_a_phone_and_the_tv(
    chromium: Any, seeded: Any
) -> None:
    server = seeded(AVALON_SEED)
    ada = server.session("Ada")
    bots = {str(s): "rule" for s in range(1, 7)}
    table = _table(server, ada["token"], players=7, rules=AVALON, bots=bots, bot_level="rule")
    assert (table["category"], table["bot_level"]) == ("custom", "rule")
    phone = _page(chromium, server, ada["token"], PHONE, f"/#/t/{table['id']}")
    tv = _page(chromium, server, None, TV, f"/#/t/{table['id']}?big=1")
    phone.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    phone.get_by_role("button", name="Tap to reveal").click()
    card = phone.locator("#role-secret")
    assert "Hitler" in card.locator(".role-badge").inner_text()
    assert "Roles in this game: Hitler, Morgana" in card.inner_text()  # the composition
    _shot(phone, "avalon-role-390")

    _until(phone, '.decision button.confirm[data-action="assassinate"]', First())
    decision = phone.locator(".area-action .decision")
    assert decision.locator(".prompt").inner_text() == "Find Merlin: choose whom to assassinate"
    shown = decision.locator("button.target").evaluate_all("bs => bs.map(b => b.dataset.target)")
    targets = sorted(int(t) for t in shown)
    offered = sorted(a["target"] for a in _legal(phone) if a["type"] == "assassinate")
    assert targets == offered, "the targets are the server's legal actions"
    log = phone.locator(".log-list").inner_text()
    assert "and now tries to find Merlin" in log and "You may assassinate:" in log
    # everyone may talk during the assassination, Hitler too
    assert phone.locator("#chat-input").is_visible()
    tv.wait_for_selector(".phase:has-text('Assassination')", timeout=20000)
    assert "is choosing whom to assassinate" in tv.locator(".area-action").inner_text()
    _shot(phone, "avalon-assassination-390")
    _shot(tv, "avalon-assassination-tv", full=False)
    _fits_in_every_language(phone, "assassination")

    # Hitler names the first seat offered
    target = targets[0]
    decision.locator(f'button.target[data-target="{target}"]').click()
    decision.locator("button.confirm").click()
    phone.wait_for_selector(".gameover", timeout=20000)
    over = phone.locator(".gameover")
    roles = over.locator(".roles-revealed li").all_inner_texts()
    merlin = "Merlin" in roles[target]
    if merlin:
        assert over.locator(".reason").inner_text() == "Hitler found Merlin and assassinated him."
    assert over.locator(".winner").inner_text() == ("Fascists win" if merlin else "Liberals win")
    assert ("You won" if merlin else "You lost") in over.inner_text()
    assert "assassinates" in phone.locator(".log-list").inner_text()
    tv.wait_for_selector(".gameover", timeout=20000)
    _shot(phone, "avalon-over-390")
    _shot(tv, "avalon-over-tv", full=False)
    _fits_in_every_language(phone, "end")
    for page in (phone, tv):
        assert MISSING not in page.locator("body").inner_text(), missing_keys(page)
        assert not page.errors
        page.context.close()


# ---------------------------------------------------------------------- the Monarchist
@pytest.mark.timeout(300)
def test_the_monarchists_win_is_shown_at_the_end(chromium: Any, seeded: Any) -> None:
    server = seeded(MONARCHIST_SEED)
    host = server.session("Host")
    rules = {"preset": "secrethitler-io", "monarchist": True}
    bots = {str(s): "rule" for s in range(7)}
    table = _table(server, host["token"], players=7, rules=rules, bots=bots, seat=None)
    deadline = time.monotonic() + 200
    while server.api("GET", f"/api/tables/{table['id']}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.2)
    page = _page(chromium, server, None, PHONE, f"/#/t/{table['id']}")
    page.wait_for_selector(".gameover", timeout=20000)
    over = page.locator(".gameover")
    rows = over.locator(".roles-revealed li")
    monarchist = [i for i in range(rows.count()) if "Monarchist" in rows.nth(i).inner_text()]
    assert len(monarchist) == 1
    row = rows.nth(monarchist[0])
    assert "won" in (row.get_attribute("class") or "") and "Won" in row.inner_text()
    name = row.locator(".seat-name").inner_text()
    assert over.locator(".winner").inner_text() == "Liberals win"  # Hitler was executed
    assert name in over.locator(".winners").inner_text()
    assert "Won:" in page.locator(".log-list").inner_text()
    _shot(page, "monarchist-win-390")
    _fits_in_every_language(page, "monarchist end")
    tv = _page(chromium, server, None, TV, f"/#/t/{table['id']}?big=1")
    tv.wait_for_selector(".gameover", timeout=20000)
    _shot(tv, "monarchist-win-tv", full=False)
    for p in (page, tv):
        assert MISSING not in p.locator("body").inner_text(), missing_keys(p)
        assert not p.errors
        p.context.close()


# ---------------------------------------------------------------------- blind names
@pytest.mark.timeout(300)
def test_blind_names_before_during_and_after_the_game(chromium: Any, seeded: Any) -> None:
    server = seeded(11)
    ann, bob = server.session("Annabel"), server.session("Bartholomew")
    bots = {str(s): "random" for s in range(2, 5)}
    table = _table(
        server, ann["token"], players=5, bots=bots, blind=True, lang="en", auto_start=False
    )
    tid = table["id"]
    server.api("POST", f"/api/tables/{tid}/join", {"seat": 1}, bob["token"])
    page = _page(chromium, server, bob["token"], PHONE, f"/#/t/{tid}")
    page.wait_for_selector(".wait-seat", timeout=20000)
    rows = page.locator(".wait-seat .seat-name").all_inner_texts()
    assert rows[0] == "?" and rows[1] == "Bartholomew"  # her own name, nobody else's
    assert "Annabel" not in page.locator("body").inner_text()
    _shot(page, "blind-waiting-390")
    with SocketPlayer(server, ann["token"], tid) as annie:
        server.api("POST", f"/api/tables/{tid}/start", {}, ann["token"])
        page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
        names = page.locator(".seat .seat-name").all_inner_texts()
        assert len(set(names)) == 5 and "Annabel" not in names and "Bartholomew" not in names
        assert all(len(n.split()) == 2 for n in names)  # "Adjective Animal"
        assert "Annabel" not in page.content()
        _shot(page, "blind-game-390")
        rng = random.Random(3)
        deadline = time.monotonic() + 150
        while not page.locator(".gameover").count():  # both play, a move at a time
            assert time.monotonic() < deadline, "the game did not end"
            try:
                annie.play(rng, timeout=0.3)
            except (AssertionError, TimeoutError):
                pass  # her turn will come: the page's player moves meanwhile
            act_once(page, rng)
        over = page.locator(".gameover .roles-revealed").inner_text()
        assert "Annabel" in over and "Bartholomew" in over  # the real names at the end
    assert "Annabel" in page.locator(".seat").first.inner_text()
    _shot(page, "blind-over-390")
    record = server.api("GET", f"/api/games/{tid}/record")
    assert record["players"][:2] == ["Annabel", "Bartholomew"]
    assert record["table"]["aliases"] == names
    assert not page.errors
    page.context.close()


# ---------------------------------------------------------------------- chat modes
@pytest.mark.timeout(240)
def test_an_emote_only_game_is_a_row_of_reactions(chromium: Any, seeded: Any) -> None:
    server = seeded(21)
    cid = server.session("Cid")
    bots = {str(s): "rule" for s in range(1, 5)}
    table = _table(server, cid["token"], players=5, bots=bots, chat="emotes", auto_start=False)
    page = _page(chromium, server, cid["token"], PHONE, f"/#/t/{table['id']}")
    page.wait_for_selector("#chat-input", timeout=20000)
    page.fill("#chat-input", "good luck, all")  # before the deal the chat is free
    page.locator(".chat-form button[type=submit]").click()
    page.wait_for_selector(".chat-msg:has-text('good luck, all')", timeout=10000)
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector(".chat-reactions:not([hidden]) .reaction", timeout=20000)
    assert not page.locator("#chat-input").is_visible()
    assert "Emote-only game" in page.locator(".chat-hint").inner_text()
    page.locator('.seat-aim[data-fkey="aim-2"]').click()
    page.locator('.reaction[data-reaction="sus"]').click()
    seat3 = page.locator(".seat").nth(2).locator(".seat-name").inner_text()
    page.wait_for_selector(f".chat-msg:has-text('Suspicious · {seat3}')", timeout=10000)
    _shot(page, "emotes-390")
    _fits_in_every_language(page, "reactions")
    tv = _page(chromium, server, None, TV, f"/#/t/{table['id']}?big=1")
    tv.wait_for_selector(f".chat-msg:has-text('Suspicious · {seat3}')", timeout=20000)
    _shot(tv, "emotes-tv", full=False)
    for p in (page, tv):
        assert MISSING not in p.locator("body").inner_text(), missing_keys(p)
        assert not p.errors
        p.context.close()


@pytest.mark.timeout(240)
def test_a_silent_game_closes_the_players_chat_until_its_end(chromium: Any, seeded: Any) -> None:
    server = seeded(22)
    dee = server.session("Dee")
    bots = {str(s): "rule" for s in range(1, 5)}
    table = _table(server, dee["token"], players=5, bots=bots, chat="silent", category="practice")
    assert table["category"] == "practice"
    page = _page(chromium, server, dee["token"], PHONE, f"/#/t/{table['id']}")
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    hint = page.locator(".chat-hint")
    hint.wait_for(timeout=10000)
    assert hint.inner_text() == "This is a silent game: players cannot chat until it is over."
    assert not page.locator("#chat-input").is_visible()
    assert "Practice" in page.locator(".status-bar").inner_text()
    _shot(page, "silent-390")
    _until(page, ".gameover", random.Random(9), timeout=180)
    page.wait_for_selector("#chat-input", timeout=10000)  # free again once it is over
    assert not page.errors
    page.context.close()


# ---------------------------------------------------------------------- the form and the lobby
def _category(page: Any) -> str:
    page.wait_for_function(  # the server's answer: not "Checking the settings…", not empty
        "() => { const t = document.querySelector('.category-box').textContent;"
        " return t && !t.includes('Checking'); }"
    )
    return page.locator(".category-box").inner_text()


@pytest.mark.timeout(180)
def test_the_form_offers_secrethitler_ios_timed_mode_next_to_the_timer(
    chromium: Any, seeded: Any
) -> None:
    """With a timer the form asks who moves when it runs out: the stand-in (the default) or a
    random move; the choice forces no category, fits in every language, and the table made
    with it says so on its status bar and on its card in the lobby."""
    server = seeded(31)
    page = _page(chromium, server, None, PHONE, "/")
    page.wait_for_selector("#timer", timeout=20000)
    assert page.locator("#on-timeout").count() == 0  # no timer: nothing runs out
    page.select_option("#timer", "60")
    menu = page.locator("#on-timeout")
    menu.wait_for(timeout=5000)
    assert menu.input_value() == "standin"
    assert menu.locator("option").all_inner_texts() == [
        "A stand-in bot moves",
        "A random move",
    ]
    page.select_option("#on-timeout", "random")
    page.locator("input[name=category][value=rated]").check()
    assert "This table: Rated" in _category(page)  # a 60 s timer stays rated in timed mode
    page.locator("input[name=category][value=casual]").check()
    _fits_in_every_language(page, "form")
    # the server's word, redrawn in the page's language
    assert "This table: Casual" in page.locator(".category-box").inner_text()
    _shot(page, "form-timed-mode-390")
    page.fill("#name", "Eve")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    assert "Random moves" in page.locator(".status-bar").inner_text()
    lobby = _page(chromium, server, None, PHONE, "/")
    lobby.wait_for_selector(".table-card", timeout=20000)
    assert "Random moves" in lobby.locator(".table-card").first.inner_text()
    for p in (page, lobby):
        assert not p.errors
        p.context.close()


@pytest.mark.timeout(240)
@pytest.mark.parametrize("size", [PHONE, {"width": 1366, "height": 768}], ids=["390", "1366"])
def test_the_form_shows_the_servers_category_and_the_lobby_filters_tables(
    chromium: Any, seeded: Any, size: dict[str, int]
) -> None:
    server = seeded(31)
    page = _page(chromium, server, None, size, "/")
    page.wait_for_selector("#gt-avalon", timeout=20000)
    assert "This table: Casual" in _category(page)
    page.wait_for_selector("#level:not([disabled])", timeout=20000)  # the server's levels
    offered = page.locator("#level option").all_inner_texts()
    page.select_option("#level", "bayes")
    page.locator("input[name=category][value=rated]").check()
    assert "This table: Rated" in _category(page)
    page.select_option("#gt-avalon", "merlin")
    refused = _category(page)
    assert "This table cannot be rated" in refused
    page.locator("input[name=category][value=casual]").check()
    text = _category(page)
    assert "This table: Casual" in text and "Avalon SH games are casual." in text
    # every bot level plays every game type: the menu offers them all, the level chosen stays
    assert page.locator("#level option").all_inner_texts() == offered
    assert page.locator("#level").input_value() == "bayes"
    page.select_option("#players", "5")
    page.select_option("#gt-avalon", "percival")
    page.locator("#gt-monarchist").check()
    refused = _category(page)
    assert "These rule settings are not valid." in refused and "Monarchist" in refused
    page.locator("#gt-monarchist").uncheck()
    page.select_option("#chat-mode", "silent")
    assert "Silent games are practice games." in _category(page)
    _shot(page, f"form-{size['width']}")
    # create it: the table card in the lobby shows its category and game type
    page.fill("#name", "Eve")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    [made] = server.api("GET", "/api/tables")["tables"]
    assert made["bot_level"] == "bayes"  # bayes bots at the Avalon SH table
    assert [s["level"] for s in made["seats"][1:]] == ["bayes"] * 4
    other = server.session("Fay")
    _table(server, other["token"], players=5, auto_start=False)
    lobby = _page(chromium, server, None, size, "/")
    lobby.wait_for_selector(".table-card", timeout=20000)
    assert lobby.locator(".table-card").count() == 2
    lobby.select_option("#filter-type", "avalon")
    assert lobby.locator(".table-card").count() == 1
    card = lobby.locator(".table-card").first.inner_text()
    assert "Avalon SH with Percival" in card and "Casual" in card and "Silent" in card
    lobby.select_option("#filter-type", "all")
    lobby.select_option("#filter-category", "rated")
    assert lobby.locator(".table-card").count() == 0
    assert "No table matches these filters." in lobby.locator(".tables-box").inner_text()
    lobby.select_option("#filter-category", "casual")
    assert lobby.locator(".table-card").count() == 2
    _shot(lobby, f"lobby-filters-{size['width']}")
    for p in (page, lobby):
        assert MISSING not in p.locator("body").inner_text(), missing_keys(p)
        assert not p.errors
        p.context.close()
