"""The board game on screen, in a real Chromium: the SVG art and its words at phone and laptop
sizes, Ja!/Nein! cards that turn over only when the engine reveals the votes, no motion with
prefers-reduced-motion, one sound per main event, and spoken announcements on the big screen.

The page's WebSocket, AudioContext and speechSynthesis are wrapped or replaced by recorders through
init scripts, so the tests see what the page received and every sound and utterance it made."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

from web_support import MISSING, ROOT, act_once, missing_keys

CATALOGS = ROOT / "src" / "secret_hitler" / "web" / "static" / "i18n"

# What the page received, in the page, before the client's own handler runs: every `votes` event
# (the engine's reveal), and for each update the events and whether sound was on at that moment.
WIRE = """
(() => {
  const rec = { votes: 0, last: null, updates: [], seq: null };
  window.__wire = rec;
  const Orig = window.WebSocket;
  window.WebSocket = class extends Orig {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => {
        let m;
        try { m = JSON.parse(ev.data); } catch { return; }
        if (m.type === "welcome") {
          rec.seq = m.seq;
          const evs = (m.view && m.view.events) || [];
          for (const e of evs) if (e.type === "votes") { rec.votes += 1; rec.last = e.votes; }
        }
        if (m.type !== "update") return;
        if (typeof m.seq === "number" && typeof rec.seq === "number" && m.seq <= rec.seq) return;
        if (typeof m.seq === "number") rec.seq = m.seq;
        const evs = m.events || [];
        for (const e of evs) if (e.type === "votes") { rec.votes += 1; rec.last = e.votes; }
        rec.updates.push({ events: evs, sound: localStorage.getItem("sh.sound") !== "off" });
      });
    }
  };
})();
"""

# At every change of the page: the vote cards at the seats, next to the reveals received so far.
CARDS = """
(() => {
  const shots = [];
  window.__cards = shots;
  const look = () => {
    const seats = [...document.querySelectorAll(".seat")];
    if (!seats.length || !window.__wire) return;
    const up = [], down = [], leaks = [];
    for (const seat of seats) {
      const s = Number(seat.dataset.seat);
      const card = seat.querySelector(".vote-card");
      if (!card) continue;
      if (card.classList.contains("revealed")) up.push([s, card.dataset.vote]);
      else {
        down.push(s);
        if (card.dataset.vote || card.querySelector(".vote-front")) leaks.push(s);
      }
    }
    const voting = Boolean(document.querySelector(".area-action .decision [data-fkey=vote-ja]"));
    shots.push({ votes: window.__wire.votes, last: window.__wire.last, up, down, leaks, voting,
      mine: Number((document.querySelector(".seat.mine") || { dataset: { seat: -1 } }).dataset.seat) });
  };
  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true });
  });
  // the most cards turning over at once, sampled every frame
  window.__flips = 0;
  const frame = () => {
    const n = document.getAnimations().filter((a) => a.effect && a.effect.target
      && a.effect.target.classList.contains("vote-inner")).length;
    window.__flips = Math.max(window.__flips, n);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""

# Every animation the page ever ran (Web Animations and CSS), sampled at each change.
MOTION = """
(() => {
  const seen = { max: 0, kinds: [] };
  window.__motion = seen;
  const note = (el) => {
    const cls = el ? String(el.className.baseVal !== undefined ? el.className.baseVal : el.className) : "";
    const key = cls.split(" ")[0] || el.tagName;
    if (!seen.kinds.includes(key)) seen.kinds.push(key);
  };
  const look = () => {
    const all = document.getAnimations();
    seen.max = Math.max(seen.max, all.length);
    for (const a of all) note(a.effect && a.effect.target);
  };
  const frame = () => { look(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  // a CSS animation that starts and is gone between two frames (a busy machine) is seen too
  document.addEventListener("animationstart", (e) => { seen.max = Math.max(seen.max, 1); note(e.target); }, true);
})();
"""

# A recording AudioContext: the frequency of every note, in the order they were started.
AUDIO = """
(() => {
  const rec = { notes: [], contexts: 0 };
  window.__audio = rec;
  const node = () => ({ connect(n) { return n; } });
  class FakeAudio {
    constructor() { rec.contexts += 1; this.state = "running"; this.currentTime = 0; this.destination = node(); }
    resume() { return Promise.resolve(); }
    createOscillator() {
      const osc = { ...node(), type: "", frequency: { value: 0 }, start() { rec.notes.push(osc.frequency.value); }, stop() {} };
      return osc;
    }
    createGain() { return { ...node(), gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } }; }
  }
  window.AudioContext = FakeAudio;
  // alerts.js vibrates once per new decision, with its tone: count those heard
  rec.turns = 0;
  Navigator.prototype.vibrate = function () {
    if (localStorage.getItem("sh.sound") !== "off") rec.turns += 1;
    return true;
  };
})();
"""

# A recording speechSynthesis with an English and a Russian voice.
SPEECH = """
(() => {
  const rec = { said: [], cancels: 0 };
  window.__speech = rec;
  const voices = [
    { name: "Test English", lang: "en-US", default: true, localService: true, voiceURI: "en" },
    { name: "Test Russian", lang: "ru-RU", default: false, localService: true, voiceURI: "ru" },
  ];
  class Utterance { constructor(text) { this.text = text; this.lang = ""; this.voice = null; } }
  window.SpeechSynthesisUtterance = Utterance;
  const synth = {
    getVoices: () => voices.slice(),
    speak: (u) => rec.said.push({ text: u.text, lang: u.lang, voice: u.voice && u.voice.name }),
    cancel: () => { rec.cancels += 1; },
    speaking: false, pending: false, addEventListener() {}, removeEventListener() {},
  };
  Object.defineProperty(window, "speechSynthesis", { configurable: true, get: () => synth });
})();
"""


def _table(
    web_server: Any, name: str, players: int = 5, rules: dict[str, Any] | None = None
) -> tuple[str, str]:
    """A table of one person (seat 0) and bots, not started yet: (table id, the person's token)."""
    token = web_server.session(name)["token"]
    bots = {str(s): "rule" for s in range(1, players)}
    body = {
        "players": players,
        "bots": bots,
        "auto_start": False,
        **({"rules": rules} if rules else {}),
    }
    table = web_server.api("POST", "/api/tables", body, token=token)
    return str(table["id"]), token


def _two_people(web_server: Any, host: str, guest: str, second_seat: int) -> tuple[str, str, str]:
    """A 5-seat table, not started: ``host`` at seat 0, ``guest`` at ``second_seat``, rule bots
    elsewhere: (table id, host's token, guest's token)."""
    first = web_server.session(host)["token"]
    second = web_server.session(guest)["token"]
    bots = {str(s): "rule" for s in range(1, 5) if s != second_seat}
    table = web_server.api(
        "POST", "/api/tables", {"players": 5, "bots": bots, "auto_start": False}, token=first
    )
    table_id = str(table["id"])
    web_server.api("POST", f"/api/tables/{table_id}/join", {"seat": second_seat}, token=second)
    return table_id, first, second


def _open_and_start(web_server: Any, page: Any, table_id: str, token: str, query: str = "") -> None:
    page.goto(f"{web_server.url}/#/t/{table_id}{query}")
    page.wait_for_selector(".table-page[data-conn=open]")
    page.mouse.click(2, 300)  # a gesture: the browser lets the page start its audio
    web_server.api("POST", f"/api/tables/{table_id}/start", {}, token=token)
    page.wait_for_selector(".table-grid:not([hidden]) .board")


def _play(page: Any, rng: random.Random, until: Any = None, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.locator(".gameover").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        if until is not None and until():
            return
        if not act_once(page, rng):
            page.wait_for_timeout(50)


# ---------------------------------------------------------------------- art at three sizes
# Every word of the art fits its card and its screen; every coloured thing has an icon and a word.
ART = """() => {
  const bad = [];
  const box = (el) => el.getBoundingClientRect();
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const words = [
    [".slot .policy .policy-word", ".policy"], [".vote-card .vote-word", ".vote-face"],
    [".role-card .role-word", ".role-card"], [".badge.placard span", ".badge"],
    [".slot .slot-power span", ".slot"], [".slot .slot-note", ".slot"],
  ];
  for (const [sel, up] of words) {
    for (const el of document.querySelectorAll(sel)) {
      const card = el.closest(up);
      const r = box(el);
      if (!r.width) continue;
      if (el.scrollWidth > el.clientWidth + 1 || !inside(r, box(card))) bad.push(`${sel}: ${el.textContent}`);
      const fs = parseFloat(getComputedStyle(el).fontSize);
      if (fs < 9.5) bad.push(`${sel}: ${fs}px`);
    }
  }
  const marked = [".policy", ".vote-card.revealed", ".vote-card.face-down", ".role-badge", ".badge.placard", ".slot-power"];
  for (const sel of marked) {
    for (const el of document.querySelectorAll(sel)) {
      if (!el.querySelector("svg.icon") || !el.textContent.trim()) bad.push(`${sel} without an icon and a word`);
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) bad.push(`page ${document.documentElement.scrollWidth} > ${innerWidth}`);
  return bad;
}"""

ART_URLS = """async () => {
  const sels = [".track-liberal", ".track-fascist", ".slot .policy-liberal", ".slot .policy-fascist",
    ".vote-card .vote-back", ".vote-card.vote-ja .vote-front, .vote-card.vote-nein .vote-front",
    ".role-card", ".badge.placard.badge-president"];
  const out = {};
  for (const sel of sels) {
    const el = document.querySelector(sel);
    if (!el) { out[sel] = null; continue; }
    const m = /url\\("?([^")]+)"?\\)/.exec(getComputedStyle(el).backgroundImage);
    if (!m) { out[sel] = "no art"; continue; }
    const res = await fetch(m[1]);
    const img = new Image();
    img.src = m[1];
    let ok = true;
    try { await img.decode(); } catch { ok = false; }
    out[sel] = { url: new URL(m[1]).pathname, status: res.status, type: res.headers.get("content-type"), drawn: ok && img.naturalWidth > 0 };
  }
  return out;
}"""


def _art_checked(sp: Any, words: dict[str, str], powers: list[Any], face_up: bool) -> None:
    """The art and its words on one page: every image loads, every word fits and reads."""
    assert sp.evaluate(ART) == []
    art = sp.evaluate(ART_URLS)
    for sel, got in art.items():
        if sel.startswith(".role-card") and got is None:
            continue  # the replay viewer has no role card
        if sel.startswith(".vote-card.vote-ja") and not face_up:
            assert got is None, got  # face down: no vote on the page at all
            continue
        assert got and got["status"] == 200 and got["drawn"], (sel, got)
        assert got["type"].startswith("image/svg+xml") and got["url"].startswith("/static/img/")
    # the fascist track shows this game's powers, read from the view the page got
    slots = sp.locator(".track-fascist .slot")
    assert slots.count() == 6
    for i, power in enumerate(powers):
        text = slots.nth(i).inner_text()
        if power:
            assert words[f"power.{power}"] in text, (i, power, text)
            assert slots.nth(i).locator(".slot-power svg.icon").count() == 1
        else:
            assert not slots.nth(i).locator(".slot-power").count()
    assert sp.locator(".track-liberal .slot").count() == 5
    assert MISSING not in sp.locator("body").inner_text(), missing_keys(sp)


def test_board_art_is_present_and_readable_at_phone_and_laptop_sizes(
    web_server, new_context, tmp_path
) -> None:
    errors: list[str] = []
    board: list[Any] = []

    def on_frame(payload: Any) -> None:
        msg = json.loads(payload)
        if msg.get("type") in ("welcome", "update") and msg.get("view"):
            board.append(msg["view"]["board"])

    def ready(page: Any) -> bool:
        # the person's vote waits (nothing moves), both kinds of policy are on the board, and
        # a government was elected (its placards are at the seats)
        counts = page.locator(".track-count").all_inner_texts()
        lib, fas = (int(c.split("/")[0]) for c in counts)
        voting = page.locator(".decision [data-fkey=vote-ja]").count() > 0
        return lib >= 1 and fas >= 1 and voting and page.locator(".badge-president").count() > 0

    # a 7-seat game (its board has three powers) that starts with a liberal and a fascist policy
    # down, at the vote after its first elected government: every living seat votes in each
    # election, and nothing ends the game before that vote unless six elections in a row fail
    # (two chaoses to a third fascist policy, then Hitler elected)
    on_board = {"preset": "official", "start_track": {"liberal": 1, "fascist": 1}}
    table_id, token = _table(web_server, "Art", players=7, rules=on_board)
    ctx = new_context(width=1366, height=768, token=token)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    _open_and_start(web_server, page, table_id, token)
    _play(page, random.Random(5), until=lambda: ready(page), timeout=120)
    assert ready(page), "the game ended before the vote after its first government"
    powers = board[-1]
    assert sum(1 for p in powers if p) >= 3, powers

    # the live table with the votes face down, as seen from three screens in three languages
    for width, height, lang in [(360, 740, "ru"), (390, 844, "vi"), (1366, 768, "en")]:
        words = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
        other = new_context(width=width, height=height, token=token, lang=lang)
        sp = other.new_page()
        sp.on("pageerror", lambda e: errors.append(str(e)))
        sp.goto(f"{web_server.url}/#/t/{table_id}")
        sp.wait_for_selector(".table-grid:not([hidden]) .seats .seat .vote-card.face-down")
        sp.locator(".role-toggle").click()
        sp.wait_for_selector("#role-secret .role-card")
        _art_checked(sp, words, powers, face_up=False)
        sp.screenshot(path=str(tmp_path / f"table-{width}-{lang}.png"), full_page=True)
        other.close()  # type: ignore[attr-defined]

    # the votes face up: the replay of the same game at the start of its last round (the board
    # as full as it got, the last votes on the table), on the same screens
    _play(page, random.Random(6))
    rounds = web_server.api("GET", f"/api/games/{table_id}/replay", token=token)["rounds"]
    step = rounds[-1]["step"]
    for width, height, lang in [(360, 740, "ru"), (390, 844, "zh-Hans"), (1366, 768, "en")]:
        words = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
        other = new_context(width=width, height=height, token=token, lang=lang)
        sp = other.new_page()
        sp.on("pageerror", lambda e: errors.append(str(e)))
        sp.goto(f"{web_server.url}/#/replay/{table_id}?step={step}&view=0")
        sp.wait_for_selector(".replay-grid .seat .vote-card.revealed")
        _art_checked(sp, words, powers, face_up=True)
        sp.screenshot(path=str(tmp_path / f"replay-{width}-{lang}.png"), full_page=True)
        other.close()  # type: ignore[attr-defined]
    assert not errors


# ---------------------------------------------------------------------- vote cards
def test_vote_cards_turn_over_only_after_the_engine_reveals_them(web_server, new_context) -> None:
    """Two people and three bots: the first person votes before the second, so each round there
    is a moment where the first one's own vote is cast and not yet revealed."""
    table_id, first, second = _two_people(web_server, "Voter", "Later", second_seat=1)
    pages = []
    errors: list[str] = []
    for token in (first, second):
        ctx = new_context(width=390, height=844, token=token)
        ctx.add_init_script(WIRE)  # type: ignore[attr-defined]
        ctx.add_init_script(CARDS)  # type: ignore[attr-defined]
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{web_server.url}/#/t/{table_id}")
        page.wait_for_selector(".table-page[data-conn=open]")
        pages.append(page)
    web_server.api("POST", f"/api/tables/{table_id}/start", {}, token=first)
    rng = random.Random(7)
    deadline = time.monotonic() + 180
    while not pages[0].locator(".gameover").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for page in pages:  # the first person always gets to vote first
            acted = act_once(page, rng) or acted
            page.wait_for_timeout(30)
        if not acted:
            pages[0].wait_for_timeout(50)
    own_waiting = 0
    for page in pages:
        shots = page.evaluate("window.__cards")
        assert page.evaluate("window.__wire.votes") >= 3
        face_down = face_up = 0
        for shot in shots:
            assert shot["leaks"] == [], shot  # a face down card holds no vote, not even in the DOM
            if shot["votes"] == 0:
                assert shot["up"] == [], shot  # nothing turned over before the first reveal
            for seat, vote in shot["up"]:
                assert vote == ("ja" if shot["last"][seat] else "nein"), shot  # the engine's reveal
            if shot["down"] or shot["voting"]:
                # votes are being cast: no card is face up, the seat's own neither
                assert shot["up"] == [], shot
            face_down += bool(shot["down"])
            face_up += bool(shot["up"])
            own_waiting += shot["mine"] in shot["down"]
        assert face_down and face_up
        assert page.evaluate("window.__flips") >= 3  # the cards turn over when the votes come out
    assert own_waiting  # a page showed its own cast vote face down, waiting for the reveal
    assert not errors


# ---------------------------------------------------------------------- motion
# Each end-screen row's animation as it is made: its delay, and its opacity at that moment (the
# screen as it appears, however late the test looks at it on a busy machine).
ROWS = """
(() => {
  const made = [];
  window.__reveal = made;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    const a = animate.call(this, frames, options);
    if (this.classList.contains("reveal-row")) {
      made.push({ delay: a.effect.getComputedTiming().delay, opacity: Number(getComputedStyle(this).opacity) });
    }
    return a;
  };
})();
"""


def test_reduced_motion_runs_no_animation_and_full_motion_does(web_server, new_context) -> None:
    errors: list[str] = []
    for reduce in (True, False):
        table_id, token = _table(web_server, "Still" if reduce else "Moving")
        ctx = new_context(width=390, height=844, token=token)
        ctx.add_init_script(MOTION)  # type: ignore[attr-defined]
        ctx.add_init_script(ROWS)  # type: ignore[attr-defined]
        page = ctx.new_page()
        page.emulate_media(reduced_motion="reduce" if reduce else "no-preference")
        page.on("pageerror", lambda e: errors.append(str(e)))
        _open_and_start(web_server, page, table_id, token)
        _play(page, random.Random(2))
        page.wait_for_selector(".gameover .roles-revealed .reveal-row")
        seen = page.evaluate("window.__motion")
        if reduce:
            assert seen == {"max": 0, "kinds": []}, seen
            assert page.evaluate("document.getAnimations().length") == 0
        else:
            # the end screen shows the roles one by one: later seats later, hidden until then
            # the first five: the screen as it appears (a redraw animates its new rows from
            # where the reveal has got to)
            rows = page.evaluate("window.__reveal")[:5]
            assert len(rows) == 5, rows  # every row comes in turn
            delays = [r["delay"] for r in rows]
            assert delays == sorted(delays) and len(set(delays)) == len(delays), rows
            waiting = [r for r in rows if r["delay"] > 0]
            assert waiting and all(r["opacity"] < 0.05 for r in waiting), rows
            page.wait_for_function("() => document.getAnimations().length === 0", timeout=10000)
            # the votes turned over, policies fell into their slots, the roles came one by one
            seen = page.evaluate("window.__motion")
            assert {"vote-inner", "policy", "reveal-row"} <= set(seen["kinds"]), seen
        assert page.locator(".gameover .roles-revealed .reveal-row").count() == 5
        assert not errors
        ctx.close()  # type: ignore[attr-defined]


def test_an_update_that_changes_nothing_on_the_board_keeps_its_dom(web_server, new_context) -> None:
    """An update that changes nothing the board shows (here another player going offline) leaves
    the board's DOM alone, so a policy falling into its slot is not cut short by a redraw."""
    table_id, ann, ben = _two_people(web_server, "Ann", "Ben", second_seat=4)
    ben_page = new_context(width=390, height=844, token=ben).new_page()
    ben_page.goto(f"{web_server.url}/#/t/{table_id}")
    ben_page.wait_for_selector(".table-page[data-conn=open]")
    page = new_context(width=390, height=844, token=ann).new_page()
    _open_and_start(web_server, page, table_id, ann)
    page.wait_for_selector(".area-board .board .track-count")
    page.evaluate("() => { document.querySelector('.area-board .board').dataset.probe = 'kept'; }")
    offline = '.seat[data-seat="4"] .badge-offline'
    assert page.locator(offline).count() == 0
    ben_page.context.close()  # Ben goes away: a table update for Ann's page, the board unchanged
    page.wait_for_selector(offline, timeout=20000)
    assert (
        page.evaluate("() => document.querySelector('.area-board .board').dataset.probe") == "kept"
    )
    page.context.close()


# The private notices (table.js draws them; board.js's watchMotion animates them), rebuilt the way
# the table page rebuilds them on each update: the peek's three cards are dealt one after another,
# the investigation's card turns up, and a rebuild carries on instead of starting again.
NOTICES = """async () => {
  const { watchMotion } = await import('/static/js/board.js');
  const make = (tag, cls, kids = []) => { const e = document.createElement(tag); e.className = cls; e.append(...kids); return e; };
  const root = make('div', 'motion-probe');
  document.body.append(root);
  let view = null;  // as on the table page: no view until the server's welcome
  const watch = watchMotion(root, () => view);
  const tick = () => new Promise((r) => setTimeout(r, 0));
  view = { events: [{ type: 'game_started' }] };
  const draw = () => root.replaceChildren(make('div', 'notice private-notice', [
    make('ol', 'hand peek', [0, 1, 2].map(() => make('li', 'card card-fascist')))]),
    make('div', 'notice private-notice', [make('p', 'investigation party-liberal')]));
  const timing = () => [...root.querySelectorAll('.card, .investigation')].map((el) => {
    const a = el.getAnimations()[0];
    return a ? a.effect.getComputedTiming().delay : null;
  });
  draw();  // on the table when the page opened: not animated
  await tick();
  const before = timing();
  view = { events: [{ type: 'game_started' }, { type: 'peek' }, { type: 'investigation' }] };
  draw();  // a new peek and a new investigation
  await tick();
  const fresh = timing();
  await new Promise((r) => setTimeout(r, 150));
  draw();  // the next update redraws the notices
  await tick();
  const redrawn = timing();
  await new Promise((r) => setTimeout(r, 1200));
  draw();
  await tick();
  const later = timing();
  watch.disconnect();
  root.remove();
  return { before, fresh, redrawn, later };
}"""


def test_peek_and_investigation_cards_animate_once(web_server, new_context) -> None:
    for reduce in (False, True):
        ctx = new_context(width=390, height=844)
        page = ctx.new_page()
        page.emulate_media(reduced_motion="reduce" if reduce else "no-preference")
        page.goto(web_server.url + "/")
        page.wait_for_selector("form.create")
        got = page.evaluate(NOTICES)
        assert got["before"] == [None] * 4 and got["later"] == [None] * 4, got
        if reduce:
            assert got["fresh"] == [None] * 4 and got["redrawn"] == [None] * 4, got
            continue
        cards, card = got["fresh"][:3], got["fresh"][3]
        assert None not in cards and card is not None, got
        assert cards[0] < cards[1] < cards[2]  # dealt one after another
        # a redraw 150 ms later goes on from where the deal was: every delay 150 ms shorter
        for a, b in zip(got["fresh"], got["redrawn"], strict=True):
            assert b is not None and a - b >= 140, got
        ctx.close()  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- sounds
def test_one_sound_per_main_event_and_none_when_switched_off(web_server, new_context) -> None:
    table_id, token = _table(web_server, "Ears")
    ctx = new_context(width=390, height=844, token=token)
    ctx.add_init_script(WIRE)  # type: ignore[attr-defined]
    ctx.add_init_script(AUDIO)  # type: ignore[attr-defined]
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _open_and_start(web_server, page, table_id, token)
    rng = random.Random(4)

    # with sound on until the third reveal of votes, then off
    _play(page, rng, until=lambda: page.evaluate("window.__wire.votes") >= 3)
    toggle = page.locator(".status-bar .btn-sound")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    assert page.locator(".status-bar .btn-sound").get_attribute("aria-pressed") == "false"
    _play(page, rng)

    sounds = page.evaluate("import('/static/js/sounds.js').then(m => m.SOUNDS)")
    first = {notes[0][0]: name for name, notes in sounds.items()}
    assert len(first) == len(sounds)  # each sound starts with its own note
    played: dict[str, int] = {}
    notes = page.evaluate("window.__audio.notes")
    i = 0
    while i < len(notes):  # cut the notes into sounds: each is its recipe, whole
        name = first.get(notes[i])
        assert name, (i, notes[i], notes)
        recipe = [n[0] for n in sounds[name]]
        assert notes[i : i + len(recipe)] == recipe, (name, notes[i : i + len(recipe)])
        played[name] = played.get(name, 0) + 1
        i += len(recipe)
    expected: dict[str, int] = {}
    updates = page.evaluate("window.__wire.updates")
    silent = 0
    for update in updates:
        for e in update["events"]:
            name = {"votes": "votes", "executed": "executed", "game_over": "game_over"}.get(
                e["type"]
            )
            if e["type"] == "enacted":
                name = e["policy"]
            if name and update["sound"]:
                expected[name] = expected.get(name, 0) + 1
            elif name:
                silent += 1
    heard_turns = page.evaluate("window.__audio.turns")
    assert {k: v for k, v in played.items() if k != "turn"} == expected
    # The switch silenced the rest of the game. Votes can go on while the test clicks (once
    # this seat is dead the bots vote without it), so sound was on for at least three reveals.
    assert expected["votes"] >= 3 and silent >= 2
    assert played.get("turn", 0) == heard_turns >= 1
    assert page.evaluate("window.__audio.contexts") == 1  # one audio context for every sound
    assert not errors


# ---------------------------------------------------------------------- speech
def test_big_screen_speaks_the_main_events_in_the_page_language(web_server, new_context) -> None:
    table_id, token = _table(web_server, "Голос")
    ctx = new_context(width=1920, height=1080, token=token, lang="ru")
    ctx.add_init_script(SPEECH)  # type: ignore[attr-defined]
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{web_server.url}/#/t/{table_id}")
    page.wait_for_selector(".table-page[data-conn=open]")
    assert page.locator(".btn-speech").count() == 0  # only on the big screen
    page.goto(f"{web_server.url}/#/t/{table_id}?big=1")
    page.wait_for_function("() => document.documentElement.classList.contains('big-screen')")
    page.wait_for_selector(".table-page[data-conn=open] .status-bar .btn-speech")
    web_server.api("POST", f"/api/tables/{table_id}/start", {}, token=token)
    page.wait_for_selector(".table-grid:not([hidden]) .board")
    rng = random.Random(6)

    # off until switched on (opt-in): a whole first round says nothing
    _play(page, rng, until=lambda: page.locator(".vote-card.revealed").count() > 0)
    assert page.evaluate("window.__speech.said") == []
    speech = page.locator(".status-bar .btn-speech")
    assert speech.get_attribute("aria-pressed") == "false"
    speech.click()
    assert page.locator(".status-bar .btn-speech").get_attribute("aria-pressed") == "true"
    _play(page, rng)
    page.wait_for_selector(".gameover")

    said = page.evaluate("window.__speech.said")
    assert len(said) >= 4, said
    assert {s["lang"] for s in said} == {"ru-RU"}  # the Russian voice's own tag
    assert {s["voice"] for s in said} == {"Test Russian"}
    lines = page.evaluate(
        """() => [...document.querySelectorAll('.log-list li')].map(li => ({
             text: (li.querySelector('.log-text') || li).textContent.trim(),
             private: li.classList.contains('private'), kind: li.className }))"""
    )
    public = {line["text"] for line in lines if not line["private"]}
    private = {line["text"] for line in lines if line["private"]}
    for s in said:
        assert s["text"] in public, s  # each utterance is a sentence of the log, in Russian
        assert s["text"] not in private and MISSING not in s["text"]
        assert re.search("[а-яА-Я]", s["text"]), s
    assert any("закон" in s["text"] for s in said)  # an enactment was announced
    over = [line["text"] for line in lines if "log-important" in line["kind"]][-1]
    assert said[-1]["text"] == over  # the end of the game, last
    page.locator(".status-bar .btn-big").click()
    page.wait_for_function("() => !document.documentElement.classList.contains('big-screen')")
    assert page.evaluate("window.__speech.cancels") >= 1  # leaving the big screen stops speaking
    # the room's TV is often a spectator: it gets both switches too
    tv = new_context(width=1920, height=1080, lang="ru")
    tv.add_init_script(SPEECH)  # type: ignore[attr-defined]
    tv_page = tv.new_page()
    tv_page.goto(f"{web_server.url}/#/t/{table_id}?big=1")
    tv_page.wait_for_selector(".status-bar .spectating")
    assert tv_page.locator(".status-bar .btn-sound").count() == 1
    assert tv_page.locator(".status-bar .btn-speech").count() == 1
    assert not errors
