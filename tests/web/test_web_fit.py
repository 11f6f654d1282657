"""Every text fits, in the five languages, on phones (360, 390 px), a laptop (1366 px) and a
desktop (1920 px), read from the DOM by one checker (layout_check.js: no text that overflows its
box or is clipped, none off the screen, no word broken without a hyphen, no placeholder or menu
option wider than its control); the big screen (?big=1)
fits one TV screen without scrolling from 1280x720 to 3840x2160, 5 to 10 players around the
board; and the small things players met (the remake vote, the leaderboard's levels, the fields,
the tables' names, the log's secrets).

The browser emulates reduced motion, so every layout is measured at rest. Each page is drawn once
per language and measured at the four widths by resizing the window."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import (
    LANGUAGES,
    ROOT,
    Server,
    SocketPlayer,
    act_once,
    layout_problems,
    missing_keys,
)

CATALOGS = ROOT / "src" / "secret_hitler" / "web" / "static" / "i18n"
SHOTS = ROOT / "build" / "screenshots"  # looked at by people, not by the tests
WIDTHS = [(360, 740), (390, 844), (1366, 768), (1920, 1080)]


#: Every game of this module's server is dealt from this seed: at 5 official seats it makes seat 0
#: the first presidential candidate, so the person at seat 0 meets a choice, votes and an end in
#: one game, whatever the bots do (``Game(names, rules, 6).to_act() == [0]``).
FIRST_PRESIDENT_SEAT_0 = 6


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("web-fit"), seeds=(FIRST_PRESIDENT_SEAT_0,)).start()
    try:
        yield server
    finally:
        server.stop()


def _catalog(lang: str) -> dict[str, str]:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))


def _measure(
    page: Any, where: str, found: list[str], sizes: list[tuple[int, int]] = WIDTHS
) -> None:
    """The layout's problems at each size, each named after the page and the size."""
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        found += [f"{where} {width}: {p}" for p in layout_problems(page)]


def _wait_finished(web_server: Any, table_id: str) -> None:
    deadline = time.monotonic() + 60
    while web_server.api("GET", f"/api/tables/{table_id}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def scene(web_server: Any) -> dict[str, Any]:
    """What the pages show: a host and her waiting table (a bot, another person), a finished
    game, and her profile."""
    host = web_server.session("Alexandra")
    boris = web_server.session("Boris")
    waiting = web_server.api(
        "POST", "/api/tables", {"players": 7, "bots": {"1": "rule"}}, token=host["token"]
    )
    web_server.api("POST", f"/api/tables/{waiting['id']}/join", {"seat": 2}, token=boris["token"])
    bots = {str(s): "random" for s in range(5)}
    finished = web_server.api(
        "POST", "/api/tables", {"players": 5, "bots": bots, "seat": None}, token=host["token"]
    )
    _wait_finished(web_server, finished["id"])
    return {"host": host, "waiting": waiting["id"], "finished": finished["id"]}


# ---------------------------------------------------------------------- the pages
PAGES = [
    ("lobby", "/", "form.create"),
    ("rules", "/#/rules", ".rules-page .rules-table"),
    ("glossary", "/#/glossary", ".glossary dt"),
    ("leaderboard", "/#/leaderboard", "#bot-ratings"),
    ("replays", "/#/replay", ".table-list .table-card"),
    ("replay", "/#/replay/{finished}", ".replay-grid .area-chat .hint"),
    ("waiting room", "/#/t/{waiting}", ".wait-seats .wait-buttons button"),
    ("profile", "/#/players/{user}", ".profile-page .stats-table"),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_fits_at_four_widths(web_server, new_context, scene, lang) -> None:
    """The header, the lobby (custom rules open), the rules, the glossary, the leaderboard, the
    replays, a replay, a waiting room and a profile: every text fits at 360, 390, 1366 and
    1920 px; the leaderboard names the bot levels in the page's language."""
    words = _catalog(lang)
    page = new_context(token=scene["host"]["token"], lang=lang, still=True).new_page()
    found: list[str] = []
    fill = {"finished": scene["finished"], "waiting": scene["waiting"]}
    fill["user"] = scene["host"]["user_id"]
    for name, path, ready in PAGES:
        page.goto(web_server.url + path.format(**fill))
        page.wait_for_selector(ready, timeout=20000)
        if name == "lobby":
            page.locator("form.create > .btn-link").click()  # the custom rules
            page.wait_for_selector("#power-0")
        _measure(page, name, found)
        assert missing_keys(page) == [], (name, missing_keys(page))
        if name == "leaderboard":
            levels = [b["level"] for b in web_server.api("GET", "/api/leaderboard")["bots"]]
            shown = page.locator("#bot-ratings tbody th").all_inner_texts()
            assert shown == [words[f"bot.level.{level}"] for level in levels]
        if name == "replay":  # a replay opens at the deal
            assert page.locator("#replay-step").input_value() == "0"
        if name == "waiting room":  # an unnamed table is called after its host
            title = words["lobby.tables.of_host"].replace("{name}", "Alexandra")
            assert page.locator(".table-title").inner_text() == title
            assert page.locator(".status-bar .table-name").inner_text() == title
    assert found == [], "\n".join(found[:40])


def test_the_header_fits_a_small_phone_in_every_language(web_server, new_context) -> None:
    """At 360 px the name stays on one line and the four links are side by side, each whole."""
    page = new_context(width=360, height=740, still=True).new_page()
    page.goto(web_server.url + "/#/rules")
    page.wait_for_selector(".rules-page")
    for lang in LANGUAGES:
        page.select_option("#lang-select", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('.topbar .brand span, .main-nav .nav-link')]
                 .map(el => { const r = el.getBoundingClientRect();
                   return [el.textContent, Math.round(r.top), Math.round(r.left), Math.round(r.right), Math.round(r.height)]; })"""
        )
        brand, *links = boxes
        assert brand[4] < 30, (lang, brand)  # one line
        assert len({top for _, top, *_ in links}) == 1, (lang, links)  # one row
        assert all(left >= 0 and right <= 360 for _, _, left, right, _ in links), (lang, links)
        assert layout_problems(page, root="#topbar") == [], lang


# ---------------------------------------------------------------------- a game
def _decision_kind(page: Any) -> str | None:
    """What the action area asks now (a kind of decision, a notice or the end), or None."""
    return page.evaluate(
        """() => {
          if (document.querySelector('.gameover')) return 'end';
          if (document.querySelector('.private-notice')) return 'notice';
          const d = document.querySelector('.area-action.my-turn .decision');
          if (!d || !d.querySelector('button:not([disabled])')) return null;
          return d.querySelector('button.target') ? 'choose' : [...new Set(
            [...d.querySelectorAll('button[data-action]')].map(b => b.dataset.action))].sort().join('+');
        }"""
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_fits_at_four_widths(web_server, new_context, lang) -> None:
    """A person and four bots play a game; at each new kind of decision (choose a player, vote,
    a hand of policies, a notice) and at the end, every text fits at the four widths, with the
    role card open."""
    me = web_server.session("Alexandra")
    bots = {str(s): "rule" for s in range(1, 5)}
    errors: list[str] = []
    found: list[str] = []
    seen: set[str] = set()
    rng = random.Random(len(lang))
    deadline = time.monotonic() + 240
    table = web_server.api("POST", "/api/tables", {"players": 5, "bots": bots}, token=me["token"])
    page = new_context(token=me["token"], lang=lang, still=True).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{web_server.url}/#/t/{table['id']}")
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    # the secrets of the night are one hidden line, however many there are
    page.wait_for_selector(".log-list .private")
    assert (
        page.evaluate("document.querySelectorAll('.log-list li.private + li.private').length") == 0
    )
    page.locator(".role-toggle").click()
    while True:
        assert time.monotonic() < deadline, f"the game did not end; seen {seen}"
        kind = _decision_kind(page)
        if kind and kind not in seen:
            seen.add(kind)
            _measure(page, kind, found)
            page.set_viewport_size({"width": 390, "height": 844})
            continue
        if kind == "end":
            break
        if not act_once(page, rng):
            page.wait_for_timeout(50)
    assert {"choose", "vote", "end"} <= seen, seen  # the first nomination is the person's
    assert found == [], "\n".join(found[:40])
    assert missing_keys(page) == []
    assert not errors


# ---------------------------------------------------------------------- the remake vote
def _height(page: Any, selector: str) -> float:
    """The height of the element ``selector`` once it is drawn, found and measured in one step
    in the page: an update may redraw it between two calls from here (found, then gone)."""
    return float(
        page.wait_for_function(
            """s => {
                const r = document.querySelector(s)?.getBoundingClientRect();
                return r && r.height > 0 ? r.height : null;
            }""",
            arg=selector,
        ).json_value()
    )


@pytest.fixture(scope="module")
def proxied_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that believes 127.0.0.1 as a proxy: a remake counts people, and two people are
    two addresses (docs/protocol.md "Hosting")."""
    server = Server(Path(tmp_path_factory.mktemp("remake-data")), SH_TRUSTED_PROXIES="127.0.0.1")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_remake_vote_is_one_line_until_opened(proxied_server, new_context) -> None:
    """Two people and three bots, before the first policy: the remake vote is one line on a
    phone (what it is and the button to call it are on demand), in every language; a vote that
    passed says so in one line until "OK"."""
    web_server = proxied_server
    ann, bob = web_server.session("Anastasia"), web_server.session("Bob")
    bots = {str(s): "rule" for s in range(2, 5)}
    t = web_server.api("POST", "/api/tables", {"players": 5, "bots": bots}, token=ann["token"])
    web_server.api("POST", f"/api/tables/{t['id']}/join", {"seat": 1}, token=bob["token"])
    page = new_context(width=360, height=740, token=ann["token"], still=True).new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{web_server.url}/#/t/{t['id']}")
    remake = page.locator(".area-action .remake")
    remake.wait_for(timeout=20000)  # Bob never acts: the first policy never comes
    for lang in LANGUAGES:
        page.select_option("#lang-select", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        words = _catalog(lang)
        summary = remake.locator("summary")
        assert summary.inner_text() == words["remake.title"]
        assert _height(page, ".area-action .remake") <= 48, lang  # one line
        assert remake.locator(".hint").is_hidden()
        summary.click()
        assert remake.locator(".hint").inner_text() == words["remake.hint"]
        assert remake.get_by_role("button", name=words["remake.call"]).is_visible()
        assert layout_problems(page) == [], lang
        if lang in ("ru", "vi"):
            page.screenshot(path=str(SHOTS / f"remake-open-{lang}-360.png"))
        summary.click()  # closed again
        assert remake.locator(".hint").is_hidden()
    page.select_option("#lang-select", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    for who, home in ((ann, "198.51.100.1"), (bob, "198.51.100.2")):
        web_server.api(
            "POST",
            f"/api/tables/{t['id']}/remake",
            {"vote": True},
            token=who["token"],
            address=home,
        )
    result = remake.locator(".remake-result")
    result.wait_for(timeout=20000)
    assert result.inner_text().startswith("The remake vote passed")
    page.screenshot(path=str(SHOTS / "remake-passed-360.png"))
    assert _height(page, ".area-action .remake") <= 120  # (4 short lines)
    result.get_by_role("button", name="OK").click()
    result.wait_for(state="detached", timeout=20000)


# ---------------------------------------------------------------------- the fields
def test_every_field_looks_like_a_field(web_server, new_context, scene) -> None:
    """Passwords, the webhook address, a report's reason and game, a note: each is drawn like
    the name field (the same well and edge), not as the browser's default, which looks
    disabled here."""
    style = """(sel) => { const el = document.querySelector(sel); const s = getComputedStyle(el);
      return [s.backgroundColor, s.borderTopColor, s.borderTopWidth, s.borderRadius, s.color]; }"""
    page = new_context(width=390, height=844, token=scene["host"]["token"], still=True).new_page()
    page.goto(web_server.url + "/")
    page.wait_for_selector("#claim-form")
    name = page.evaluate(style, "#name")
    for sel in ("#webhook", "#table-name", "#claim-password", "#signin-password"):
        assert page.evaluate(style, sel) == name, sel
    other = web_server.session("Zed")
    page.goto(f"{web_server.url}/#/players/{other['user_id']}")
    page.locator("#report-open").click()
    for sel in ("#report-reason", "#report-game"):
        assert page.evaluate(style, sel) == name, sel
    page.goto(f"{web_server.url}/#/t/{scene['waiting']}")
    page.locator(".wait-seat", has_text="Boris").get_by_role("button", name="Report").click()
    for sel in ("#table-report-reason", "#note-text"):  # (the note's dialog is closed)
        assert page.evaluate(style, sel) == name, sel
    assert layout_problems(page) == []


# ---------------------------------------------------------------------- the big screen
# The TV's panels: inside the screen, none on another; the seats in two rows around the board.
TV_PANELS = """() => {
  const W = innerWidth, H = innerHeight;
  const named = [...document.querySelectorAll('.seat, .track-liberal, .track-fascist, .tracker, .piles, .area-action, .area-log')];
  const box = (el) => el.getBoundingClientRect();
  const name = (el) => el.dataset.seat !== undefined ? `seat ${+el.dataset.seat + 1}` : el.className.split(' ').slice(-1)[0];
  const out = named.filter((el) => { const r = box(el); return r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1; }).map(name);
  const overlaps = [];
  for (let i = 0; i < named.length; i++) for (let j = i + 1; j < named.length; j++) {
    const a = box(named[i]), b = box(named[j]);
    if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) overlaps.push(`${name(named[i])} / ${name(named[j])}`);
  }
  const board = box(document.querySelector('.area-board'));
  const seats = [...document.querySelectorAll('.seat')].map((el) => [+el.dataset.seat + 1, box(el)]);
  const row = (test) => seats.filter(([, r]) => test(r)).sort((x, y) => x[1].left - y[1].left).map(([s]) => s);
  return { out, overlaps, top: row((r) => r.bottom <= board.top + 1), foot: row((r) => r.top >= board.bottom - 1),
    scrolls: document.documentElement.scrollHeight > H + 1 || document.documentElement.scrollWidth > W + 1,
    font: parseFloat(getComputedStyle(document.documentElement).fontSize) };
}"""

# At the end, the roles revealed on the seats: each seat's role badge, on the screen, inside its
# own seat and over no other; and the chat's lines the screen shows of all it holds (text lines
# inside the chat's box, a line's fragments on one line counted once).
TV_END = """() => {
  const W = innerWidth, H = innerHeight;
  const box = (el) => el.getBoundingClientRect();
  const seats = [...document.querySelectorAll('.seat')];
  const over = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const roles = seats.map((seat) => {
    const n = +seat.dataset.seat + 1, badge = seat.querySelector('.seat-role .role-badge');
    if (!badge) return `seat ${n}: no role shown`;
    const b = box(badge), s = box(seat), problems = [];
    if (b.left < 0 || b.top < 0 || b.right > W || b.bottom > H) problems.push('off the screen');
    if (b.left < s.left - 1 || b.top < s.top - 1 || b.right > s.right + 1 || b.bottom > s.bottom + 1) problems.push('outside its seat');
    for (const other of seats) if (other !== seat && over(b, box(other))) problems.push(`over seat ${+other.dataset.seat + 1}`);
    return problems.length ? `seat ${n}: role ${problems.join(', ')}` : null;
  }).filter(Boolean);
  const scroll = document.querySelector('.area-chat .chat-scroll');
  const inside = box(scroll), range = document.createRange(), shown = [], all = [];
  const walker = document.createTreeWalker(scroll, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (!r.height) continue;
      all.push(r.top + scroll.scrollTop);
      if (r.top >= inside.top - 1 && r.bottom <= inside.bottom + 1) shown.push(r.top);
    }
  }
  const lines = (tops) => tops.sort((a, b) => a - b).filter((t, i, xs) => i === 0 || t - xs[i - 1] > 3).length;
  return { roles, chatShown: lines(shown), chatLines: lines(all) };
}"""
CHAT_LINES_SHOWN = 8  # on the smallest TV, when the chat has as many

# (players, the TV's language): every table size, each of the five languages at least once
TV_GAMES = [(5, "en"), (6, "zh-Hans"), (7, "vi"), (8, "zh-Hant"), (9, "ru"), (10, "ru")]


def _tv_fits(tv: Any, players: int, sizes: list[tuple[int, int]], moment: str) -> None:
    half = (players + 1) // 2
    for width, height in sizes:
        tv.set_viewport_size({"width": width, "height": height})
        where = f"{players} players, {moment}, {width}x{height}"
        assert layout_problems(tv, viewport=True) == [], where
        got = tv.evaluate(TV_PANELS)
        assert not got["scrolls"] and got["out"] == [] and got["overlaps"] == [], (where, got)
        # around the board, clockwise: 1..half along the top, the others back along the foot
        assert got["top"] == list(range(1, half + 1)), (where, got)
        assert got["foot"] == list(range(players, half, -1)), (where, got)
        if width == 1920:
            assert got["font"] >= 1.35 * 16, (where, got)  # the room reads it from afar
        if moment != "mid-game":  # the roles revealed, the chat readable
            end = tv.evaluate(TV_END)
            assert end["roles"] == [], (where, end)
            assert end["chatShown"] >= min(CHAT_LINES_SHOWN, end["chatLines"]), (where, end)
        if (width, players) in ((1920, 7), (1280, 10), (3840, 10)):
            SHOTS.mkdir(parents=True, exist_ok=True)
            tv.screenshot(path=str(SHOTS / f"big-screen-{players}-{moment}-{width}x{height}.png"))


@pytest.mark.parametrize(("players", "lang"), TV_GAMES)
def test_the_big_screen_fits_one_screen(web_server, new_context, players, lang) -> None:
    """A person and bots play; the room's TV (a spectator, ?big=1) in mid-game, at the end, and
    on the finished table opened afresh, at 1280x720 and 1920x1080 (and 3840x2160 with ten
    players): nothing scrolls, every seat, both tracks, the tracker and the piles, the state of
    play and the log are on the screen, none on another, every text fits, and the players sit
    around the board; at the end every seat shows its role, on the screen, inside the seat and
    over no other, and the chat shows at least 8 of its lines."""
    me = web_server.session("Alexandra")
    bots = {str(s): "rule" for s in range(1, players)}
    table = web_server.api(
        "POST", "/api/tables", {"players": players, "bots": bots}, token=me["token"]
    )
    rng = random.Random(players)
    with SocketPlayer(web_server, me["token"], table["id"]) as person:  # her moves, no page
        # mid-game: three policies down and her decision pending (nothing moves)
        view = person.play(rng, lambda v: v["liberal_policies"] + v["fascist_policies"] >= 3)
        assert view["phase"] != "game_over", "the game ended before mid-game"
        tv = new_context(width=1280, height=720, lang=lang, still=True).new_page()
        tv.goto(f"{web_server.url}/#/t/{table['id']}?big=1")
        # (attached, not visible: a board squeezed to nothing is for _tv_fits to describe)
        tv.wait_for_selector(".table-grid:not([hidden]) .board", state="attached", timeout=20000)
        sizes = [(1280, 720), (1920, 1080)] + ([(3840, 2160)] if players == 10 else [])
        _tv_fits(tv, players, sizes, "mid-game")
        person.play(rng)  # to the end
        # the rest of the game's updates, drawn at up to 4K: slow on a busy machine
        tv.wait_for_selector(".gameover", timeout=60000)
        _tv_fits(tv, players, sizes, "end")
    assert missing_keys(tv) == []
    _wait_finished(web_server, table["id"])
    tv.goto(f"{web_server.url}/#/")  # the finished table, opened again
    tv.goto(f"{web_server.url}/#/t/{table['id']}?big=1")
    tv.wait_for_selector(".table-grid:not([hidden]) .gameover", state="attached", timeout=20000)
    _tv_fits(tv, players, sizes, "finished")
    assert missing_keys(tv) == []
