"""Layout in a real Chromium at phone and laptop sizes: nothing wider than the screen, no two
panels of the table or the replay on top of each other, the form's selects and the rules' powers
table inside the screen; and the small things of the table page (not found, first visit, chat)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from web_support import act_once

SIZES = [(360, 740), (390, 844), (1366, 768)]

# Panels whose boxes must not overlap (visible ones, measured in the page's flow: the sticky
# action area is put back in its place for the measure, then let stick again).
OVERLAPS = """(selector) => {
  const sticky = document.querySelector('.area-action');
  if (sticky) sticky.style.position = 'static';
  const boxes = [...document.querySelectorAll(selector)]
    .filter(el => el.offsetParent !== null)
    .map(el => { const r = el.getBoundingClientRect();
      return {name: el.className.split(' ').slice(0, 2).join(' '), l: r.left, t: r.top + scrollY, r: r.right, b: r.bottom + scrollY}; });
  if (sticky) sticky.style.position = '';
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    const x = Math.min(a.r, b.r) - Math.max(a.l, b.l), y = Math.min(a.b, b.b) - Math.max(a.t, b.t);
    if (x > 1 && y > 1) out.push(`${a.name} / ${b.name}`);
  }
  return {count: boxes.length, overlaps: out};
}"""

TOO_WIDE = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth + 1) out.push('page ' + document.documentElement.scrollWidth);
  for (const el of document.querySelectorAll('main select, main table, main .area, main .card-panel')) {
    const r = el.getBoundingClientRect();
    if (el.offsetParent !== null && (r.left < -1 || r.right > innerWidth + 1)) out.push((el.id || el.className) + ' ' + Math.round(r.right));
  }
  return out;
}"""

TABLE_PANELS = ".table-grid .area"
REPLAY_PANELS = ".replay-grid > *"


def _finished_game(web_server: Any, name: str) -> str:
    user = web_server.session(name)
    bots = {str(s): "random" for s in range(5)}
    table = web_server.api(
        "POST", "/api/tables", {"players": 5, "bots": bots, "seat": None}, token=user["token"]
    )
    deadline = time.monotonic() + 60
    while (detail := web_server.api("GET", f"/api/tables/{table['id']}"))["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    return str(detail.get("game_id") or table["id"])


@pytest.fixture(scope="module")
def finished(web_server: Any) -> str:
    return _finished_game(web_server, "Lay")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_pages_fit_and_panels_do_not_overlap(
    web_server, new_context, finished, width: int, height: int
) -> None:
    ctx = new_context(width=width, height=height)
    page = ctx.new_page()
    # the lobby with the custom rules open
    page.goto(web_server.url + "/")
    page.wait_for_selector("form.create")
    page.get_by_role("button", name="Change the rules").click()
    page.wait_for_selector("#power-0")
    assert page.evaluate(TOO_WIDE) == []
    # the rules page (with its powers table), in Russian too (long words)
    for lang in ("en", "ru"):
        page.goto(web_server.url + "/#/rules")
        # the route draws the page and its header anew: choose the language once it is drawn
        page.wait_for_selector("body[data-page=rules] main .rules-table")
        page.select_option("#lang-select", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        page.wait_for_selector("main .rules-table")
        assert page.evaluate(TOO_WIDE) == [], lang
    page.select_option("#lang-select", "en")
    page.wait_for_function("() => localStorage.getItem('sh.lang') === 'en'")
    # a table in play: a person and nine bots, until the person has a decision
    page.goto(web_server.url + "/")
    page.fill("#name", f"W{width}")
    page.select_option("#players", "10")
    page.select_option("#bots", "9")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    rng = random.Random(width)
    deadline = time.monotonic() + 60
    checked = 0
    while checked < 3 and not page.locator(".gameover").count():
        assert time.monotonic() < deadline
        if page.locator(".area-action.my-turn").count():
            result = page.evaluate(OVERLAPS, TABLE_PANELS)
            assert result["count"] >= 5 and result["overlaps"] == [], result
            assert page.evaluate(TOO_WIDE) == []
            checked += 1
        if not act_once(page, rng):
            page.wait_for_timeout(40)
    assert checked
    # the replay of a finished game
    page.goto(f"{web_server.url}/#/replay/{finished}")
    page.wait_for_selector(".replay-controls")
    result = page.evaluate(OVERLAPS, REPLAY_PANELS)
    assert result["count"] >= 3 and result["overlaps"] == [], result
    assert page.evaluate(TOO_WIDE) == []


def test_unknown_table_says_not_found_once(web_server, new_context) -> None:
    ctx = new_context(width=390, height=844)
    page = ctx.new_page()
    page.goto(web_server.url + "/#/t/NoSuchTable")
    page.wait_for_selector(".not-found")
    text = page.locator("main").inner_text()
    assert "Table not found" in text
    assert "Disconnected" not in text and "Connecting" not in text
    assert page.locator(".table-grid, .status-bar, .conn-banner, .waiting-room").count() == 0
    page.locator(".not-found").get_by_role("link", name="Back to the lobby").click()
    page.wait_for_selector("form.create")


def test_first_visit_has_no_failed_request(web_server, new_context) -> None:
    ctx = new_context(width=390, height=844)
    page = ctx.new_page()
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    page.goto(web_server.url + "/")
    page.wait_for_selector("form.create")
    page.wait_for_load_state("networkidle")
    assert failed == []


def test_chat_counts_and_appends(web_server, new_context) -> None:
    host = web_server.session("Chatty")
    table = web_server.api("POST", "/api/tables", {"players": 5}, token=host["token"])
    ctx = new_context(width=390, height=844, token=host["token"])
    page = ctx.new_page()
    page.goto(f"{web_server.url}/#/t/{table['id']}")
    page.wait_for_selector('.table-page[data-conn="open"] #chat-input')
    assert page.locator("#chat-input").get_attribute("maxlength") == "300"
    assert page.locator(".chat-count").inner_text() == "0/300"
    page.fill("#chat-input", "x" * 12)
    assert page.locator(".chat-count").inner_text() == "12/300"
    page.fill("#chat-input", "first line")
    page.keyboard.press("Enter")
    page.wait_for_selector(".chat-msg")
    page.evaluate("document.querySelector('.chat-msg').dataset.mark = 'kept'")
    page.fill("#chat-input", "second line")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('.chat-msg').length === 2")
    # the first line is the same element: new lines are appended, the list is not redrawn
    assert page.locator(".chat-msg").first.get_attribute("data-mark") == "kept"
    assert page.locator(".chat-count").inner_text() == "0/300"


def test_big_screen_mode_for_a_room(web_server, new_context) -> None:
    """A spectator's table at 1920x1080 in big-screen mode: larger text, no chat field; leaving
    it restores the normal size."""
    watcher = web_server.session("Tv")
    bots = {str(s): "random" for s in range(7)}
    table = web_server.api(
        "POST", "/api/tables", {"players": 7, "bots": bots, "seat": None}, token=watcher["token"]
    )
    ctx = new_context(width=1920, height=1080)
    page = ctx.new_page()
    page.goto(f"{web_server.url}/#/t/{table['id']}")
    page.wait_for_selector(".status-bar .btn-big")
    normal = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    page.locator(".status-bar .btn-big").click()
    page.wait_for_function("() => document.documentElement.classList.contains('big-screen')")
    page.wait_for_selector(".table-grid:not([hidden]) .board, .gameover", timeout=20000)
    big = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert big >= 1.35 * normal
    if page.locator(".table-grid:not([hidden])").count():  # (its layout: test_web_fit.py)
        assert page.locator(".chat-form").is_hidden()
    assert page.evaluate(TOO_WIDE) == []
    page.get_by_role("link", name="Leave big screen").click()
    page.wait_for_function("() => !document.documentElement.classList.contains('big-screen')")
    page.goto(web_server.url + "/")  # other pages are never big
    assert not page.evaluate("document.documentElement.classList.contains('big-screen')")
