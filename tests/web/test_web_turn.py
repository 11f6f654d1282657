"""Your turn, in a real Chromium: the sound, vibration, title, favicon and notification hooks, the
decision always on screen, and whole games played from the keyboard alone.

The page's `Notification`, `AudioContext`, `navigator.vibrate` and `document.hidden` are replaced
by recorders through an init script, so the test sees every call the client makes."""

from __future__ import annotations

import random
import time
from typing import Any

from web_support import act_once

HOOKS = """
(() => {
  const rec = { asked: 0, notes: [], tones: 0, vibrations: 0, hidden: false };
  window.__turn = rec;
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return rec.hidden; } });
  Object.defineProperty(Document.prototype, "visibilityState", { configurable: true,
    get() { return rec.hidden ? "hidden" : "visible"; } });
  class FakeNotification {
    constructor(title, options) { rec.notes.push({ title, body: (options || {}).body, hidden: document.hidden }); }
    close() {}
  }
  FakeNotification.permission = "default";
  FakeNotification.requestPermission = () => {
    rec.asked += 1;
    FakeNotification.permission = "granted";
    return Promise.resolve("granted");
  };
  window.Notification = FakeNotification;
  const node = () => ({ connect(n) { return n; } });
  class FakeAudio {
    constructor() { this.state = "running"; this.currentTime = 0; this.destination = node(); }
    resume() { return Promise.resolve(); }
    createOscillator() {
      // count the notes of the turn tone only (sounds.js SOUNDS.turn: 660 and 880 Hz); the other
      // sounds (votes, policies, ...) are test_web_board.py's
      const osc = { ...node(), type: "", frequency: { value: 0 },
        start() { if (osc.frequency.value === 660 || osc.frequency.value === 880) rec.tones += 1; }, stop() {} };
      return osc;
    }
    createGain() { return { ...node(), gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } }; }
  }
  window.AudioContext = FakeAudio;
  Navigator.prototype.vibrate = function () { rec.vibrations += 1; return true; };
})();
"""

# Where the decision is: every enabled button of it inside the viewport, below the sticky header.
ON_SCREEN = """() => {
  const area = document.querySelector('.area-action');
  const head = document.getElementById('topbar').getBoundingClientRect().bottom;
  const out = [];
  for (const b of area.querySelectorAll('.decision button:not([disabled])')) {
    const r = b.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (r.top < head - 1 || r.bottom > innerHeight + 1 || r.left < 0 || r.right > innerWidth + 1
        || !hit || !b.contains(hit)) out.push(b.textContent.trim() + ' ' + JSON.stringify([r.top, r.bottom]));
  }
  return out;
}"""


# WCAG contrast ratio of an element's text colour against its own background colour.
CONTRAST = """(selector) => {
  const el = document.querySelector(selector);
  const s = getComputedStyle(el);
  const lum = (c) => {
    const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(v => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(s.color), lum(s.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def _turn(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => ({
          mine: Boolean(document.querySelector('.area-action.my-turn .decision button:not([disabled])')),
          turn: Boolean(document.querySelector('.area-action.my-turn')),
          title: document.title,
          icon: document.querySelector("link[rel~='icon']").getAttribute('href'),
          label: document.querySelector('.area-action').getAttribute('aria-label'),
          prompt: (document.querySelector('.area-action .decision .prompt') || {}).textContent || '',
          rec: { ...window.__turn, notes: window.__turn.notes.slice() },
        })"""
    )


def _create(page: Any, url: str, name: str) -> None:
    page.goto(url + "/")
    page.fill("#name", name)
    page.select_option("#players", "5")
    page.select_option("#bots", "4")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)


def test_turn_alerts_through_a_whole_game_on_a_phone(web_server, new_context) -> None:
    ctx = new_context(width=390, height=844)
    ctx.add_init_script(HOOKS)  # type: ignore[attr-defined]
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web_server.url + "/")
    page.wait_for_selector("form.create")
    assert page.evaluate("window.__turn.asked") == 0  # never asked on page load
    _create(page, web_server.url, "Tess")
    assert page.evaluate("window.__turn.asked") == 1  # asked when the player sat down

    rng = random.Random(11)
    turns = 0
    hidden_turns = 0
    sound_off_at = None
    seen_prompt = None
    deadline = time.monotonic() + 180
    while not page.locator(".gameover").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        state = _turn(page)
        if not state["turn"]:
            assert not state["title"].startswith("▶"), state["title"]
            assert state["icon"].endswith("/icon.svg")
        if not state["mine"]:
            page.wait_for_timeout(40)
            continue
        if state["prompt"] != seen_prompt or state["rec"]["vibrations"] > turns:
            # a new decision: alerted once, title, favicon and label say so, and it is on screen
            page.wait_for_function("n => window.__turn.vibrations > n", arg=turns, timeout=5000)
            state = _turn(page)
            turns = state["rec"]["vibrations"]
            seen_prompt = state["prompt"]
            assert state["title"].startswith("▶ Your turn"), state["title"]
            assert state["icon"].endswith("/icon-turn.svg")
            assert state["label"] == state["prompt"] and state["prompt"]
            assert page.evaluate(ON_SCREEN) == []
            rec = state["rec"]
            if sound_off_at is None:
                assert rec["tones"] == 2 * turns  # two notes per turn
            else:
                assert rec["tones"] == 2 * sound_off_at  # silent since switched off
            if rec["hidden"]:
                hidden_turns += 1
                assert rec["notes"] and rec["notes"][-1]["body"] == state["prompt"]
                assert rec["notes"][-1]["title"] == "Secret Hitler: your turn"
                page.evaluate("window.__turn.hidden = false")
            if turns == 2:  # the next turn comes while the player is in another tab
                page.evaluate("window.__turn.hidden = true")
            if turns == 3 and sound_off_at is None:
                toggle = page.locator(".status-bar .btn-sound")
                assert toggle.get_attribute("aria-pressed") == "true"
                toggle.click()
                assert (
                    page.locator(".status-bar .btn-sound").get_attribute("aria-pressed") == "false"
                )
                sound_off_at = turns
        if not act_once(page, rng):
            page.wait_for_timeout(40)
    # at least four votes: no game ends before round 4 (three Fascist policies, then Hitler)
    assert turns >= 4, turns
    assert sound_off_at == 3
    rec = page.evaluate("({...window.__turn})")
    # a notification only while hidden, and only once per hidden turn
    assert all(n["hidden"] for n in rec["notes"])
    assert len(rec["notes"]) == hidden_turns
    assert hidden_turns == 1
    assert page.evaluate("document.title") == "Secret Hitler"
    # the choice is remembered
    assert page.evaluate("localStorage.getItem('sh.sound')") == ("off" if sound_off_at else None)
    assert not errors


def _keyboard_step(page: Any, rng: random.Random) -> bool:
    """One decision with keys only (no clicks, no programmatic focus). True if a key was pressed."""
    info = page.evaluate(
        """() => {
          const d = document.querySelector('.area-action.my-turn .decision');
          if (!d || !d.querySelector('button:not([disabled])')) return null;
          const a = document.activeElement;
          const targets = [...d.querySelectorAll('button.target')];
          return {
            vote: Boolean(d.querySelector('[data-fkey=vote-ja]')),
            focused: d.contains(a), onDecision: a === d, target: targets.indexOf(a), targets: targets.length,
            tabStops: targets.filter(b => b.tabIndex === 0).length,
          };
        }"""
    )
    if info is None:
        return False
    if info["vote"]:
        page.keyboard.press("KeyJ" if rng.random() < 0.6 else "KeyN")
        return True
    if not info["focused"]:  # the page may still be drawing it: the focus comes in that draw
        try:
            page.wait_for_function(
                """() => {
                  const d = document.querySelector('.area-action.my-turn .decision');
                  return !d || d.contains(document.activeElement);
                }""",
                timeout=3000,
            )
        except Exception:  # Playwright's timeout: the focus never came
            raise AssertionError("a new decision must have the keyboard focus") from None
        return False  # no key pressed yet: look again at the decision as it is now
    if info["onDecision"]:  # the decision itself has the focus (Space scrolls, votes nothing)
        page.keyboard.press("Tab")
        info["target"] = page.evaluate(
            "[...document.querySelectorAll('.decision button.target')].indexOf(document.activeElement)"
        )
    if info["targets"]:
        assert info["tabStops"] == 1  # one tab stop for the group of players
        assert info["target"] == 0
        steps = rng.randrange(info["targets"])
        for _ in range(steps):
            page.keyboard.press("ArrowRight")
        now = page.evaluate(
            "[...document.querySelectorAll('.decision button.target')].indexOf(document.activeElement)"
        )
        assert now == steps
        page.keyboard.press("Enter")  # select
        assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
        # the selected player keeps a readable seat number (not gold on gold)
        assert page.evaluate(CONTRAST, ".targets .target.selected .seat-num") >= 4.5
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.classList.contains('confirm')")
        page.keyboard.press("Enter")  # confirm
        return True
    for _ in range(rng.randrange(2)):
        page.keyboard.press("Tab")
    page.keyboard.press(rng.choice(["Enter", "Space"]))
    return True


def test_every_decision_from_the_keyboard_at_laptop_size(web_server, new_context) -> None:
    ctx = new_context(width=1366, height=768)
    ctx.add_init_script(HOOKS)  # type: ignore[attr-defined]
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _create(page, web_server.url, "Kai")
    rng = random.Random(3)
    kinds: set[str] = set()
    deadline = time.monotonic() + 180
    while not page.locator(".gameover").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        mine = page.locator(".area-action.my-turn .decision button:not([disabled])")
        if mine.count():
            assert page.evaluate(ON_SCREEN) == []
            kinds.update(
                page.evaluate(
                    "[...document.querySelectorAll('.area-action .decision button[data-action]')]"
                    ".map(b => b.dataset.action)"
                )
            )
        if not _keyboard_step(page, rng):
            page.wait_for_timeout(40)
    assert "vote" in kinds
    assert not errors
