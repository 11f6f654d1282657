"""The tutorial in a real Chromium at phone size: from the lobby's "Learn to play" to the end of
the coach's steps (night, nomination, vote, legislative session, a power, the veto), with the
keyboard only (Tab, Enter, the arrow keys, J to vote; no click, no programmatic focus), in
English and in another language; and the glossary reachable from the lobby, in every language."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from web_support import LANGUAGES, layout_problems, missing_keys

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
STEPS = ["night", "nominate", "vote", "session", "power", "veto", "done"]
I18N = Path(__file__).resolve().parents[2] / "src" / "secret_hitler" / "web" / "static" / "i18n"

ACTIVE = "(() => { const a = document.activeElement; return a ? (a.id || a.dataset.action || a.className || a.tagName) : null; })()"


def _tab_until(page: Any, predicate: str, limit: int = 60) -> None:
    """Press Tab until ``predicate`` (JS, about ``document.activeElement``) holds."""
    path = []
    for _ in range(limit):
        if page.evaluate(
            f"(() => {{ const a = document.activeElement; return Boolean({predicate}); }})()"
        ):
            return
        path.append(page.evaluate(ACTIVE))
        page.keyboard.press("Tab")
    state = page.evaluate(
        "[document.querySelector('.coach').dataset.step, document.querySelector('.area-action').outerHTML.slice(0, 1500)]"
    )
    raise AssertionError(f"Tab never reached {predicate}; went {path[:25]}; {state}")


def _choose(page: Any, steps_right: int) -> None:
    """A choice of players: the decision has the focus; Tab to the group, arrows, Enter, confirm."""
    _tab_until(page, "a.classList.contains('target')")
    for _ in range(steps_right):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('confirm')")
    page.keyboard.press("Enter")


def _now(page: Any) -> tuple[str, list[str]]:
    """The coach's step and the buttons of this player's decision (their data-action; a player
    to choose: ""), read at one moment (the page renders both together)."""
    step, actions = page.evaluate(
        """[document.querySelector('.coach').dataset.step,
            [...document.querySelectorAll('.area-action.my-turn .decision button:not([disabled])')]
              .map(b => b.dataset.action || '')]"""
    )
    return step, actions


# Each enabled button of this player's decision, as the page shows it now (no scrolling): inside
# the screen and the topmost thing at its centre (not under the coach nor the header).
HIDDEN_BUTTONS = """() => [...document.querySelectorAll('.area-action.my-turn .decision button:not([disabled])')]
  .filter((b) => { const r = b.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const at = x >= 0 && x < innerWidth && y >= 0 && y < innerHeight ? document.elementFromPoint(x, y) : null;
    return !(at && (at === b || b.contains(at))); })
  .map((b) => b.textContent.trim())"""


def _marked(page: Any) -> list[int]:
    """The seats with the "Not Hitler" mark."""
    return page.evaluate(
        "[...document.querySelectorAll('.seat:has(.badge-not_hitler)')].map(s => +s.dataset.seat)"
    )


def _play_tutorial(page: Any, url: str, lang: str) -> tuple[list[str], list[int]]:
    """The coach's steps in order, and its counter at each ("Step 5 of 7" -> 5)."""
    page.goto(url + "/")
    page.wait_for_selector("#learn-to-play")
    _tab_until(page, "a.id === 'name'")
    page.keyboard.type("Neo")
    _tab_until(page, "a.id === 'learn-to-play'")
    page.keyboard.press("Enter")
    page.wait_for_selector(".coach[data-step]", timeout=20000)
    steps: list[str] = []
    counter: list[int] = []
    width = page.viewport_size["width"]
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, f"the tutorial stalled after {steps}"
        step, actions = _now(page)
        if not steps or steps[-1] != step:
            steps.append(step)
            counter.append(int(re.findall(r"\d+", page.inner_text(".coach-progress"))[0]))
            if lang == "en" or step in ("night", "session", "veto", "done"):
                page.screenshot(path=str(SHOTS / f"tutorial-{lang}-{step}-{width}.png"))
            continue  # read the page again: it may have moved on during the screenshot
        if actions and steps.count(step) == 1:  # the coach never covers the decision
            assert page.evaluate(HIDDEN_BUTTONS) == [], (step, page.evaluate(HIDDEN_BUTTONS))
            assert layout_problems(page) == [], step
        if step == "done":
            return steps, counter
        if step == "night":
            assert page.evaluate("document.activeElement.classList.contains('coach-next')")
            page.keyboard.press("Enter")
            continue
        if not actions:
            page.wait_for_timeout(50)
            continue
        if step == "vote":
            # a device with a keyboard is told its keys (a phone is told to tap: below)
            words = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
            assert page.inner_text(".coach-text") == words["tutorial.step.vote.text_keys"]
            page.keyboard.press("KeyJ")
        elif step == "nominate":
            _choose(page, 0)  # seat 2, as the coach says
        elif step == "power":
            # the memory aid's marks follow the engine: seat 2 was elected Chancellor with 4
            # fascist policies on the board (E8)
            assert _marked(page) == [1]
            _choose(page, 1)  # seat 3, as the coach says
        elif step == "veto":
            # seat 3 was executed and the game went on (P4); he is now an elected Chancellor (E8)
            assert _marked(page) == [0, 1, 2]
            _tab_until(page, "a.dataset.action === 'veto'")
            page.keyboard.press("Enter")
        elif step == "session":
            _tab_until(page, "a.dataset.action === 'discard'")
            page.keyboard.press("Enter")
        else:
            raise AssertionError(f"unexpected decision {actions} at step {step}")
        # the move was taken: this decision goes away (the next one is of another kind)
        page.wait_for_function(
            """(before) => JSON.stringify([...document.querySelectorAll(
                 '.area-action.my-turn .decision button:not([disabled])')].map(b => b.dataset.action || ''))
               !== before""",
            arg=json.dumps(actions),
            timeout=20000,
        )


@pytest.mark.parametrize(
    ("lang", "width", "height"),
    [("en", 390, 844), ("ru", 360, 740), ("vi", 360, 740), ("zh-Hant", 390, 844)],
)
def test_the_tutorial_is_completed_by_keyboard_only(
    web_server, new_context, lang, width, height
) -> None:
    """On a phone: every step in order with the keyboard, the counter never going back, each
    decision's buttons in sight (the coach at the foot covers none of them), every text fitting."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_context(width=width, height=height, lang=lang, still=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    steps, counter = _play_tutorial(page, web_server.url, lang)
    # every step, in order, none skipped (round 2 has a vote again, before the veto)
    assert steps == [*STEPS[:5], "vote", *STEPS[5:]], steps
    # "Step 5 of 7" stays at 5 for the second vote: it never counts backwards
    assert counter == [1, 2, 3, 4, 5, 5, 6, 7], counter
    assert missing_keys(page) == []
    # the coach speaks the page's language
    catalog = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    assert page.inner_text(".coach h2") == catalog["tutorial.step.done.title"]
    assert page.evaluate("document.documentElement.lang") == lang
    assert not errors


@pytest.mark.parametrize("lang", ["en", "ru", "vi"])
def test_a_phone_is_told_to_tap_not_keys(chromium, web_server, lang) -> None:
    """On a touch phone (no hover, a coarse pointer) the vote's step says to tap, and names no
    key; the player taps through the night and the nomination to get there."""
    ctx = chromium.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        ctx.add_init_script(f"localStorage.setItem('sh.lang', {lang!r})")
        page = ctx.new_page()
        page.goto(web_server.url + "/")
        page.locator("#name").fill("Neo")
        page.locator("#learn-to-play").tap()
        page.locator(".coach[data-step=night] .coach-next").tap(timeout=20000)
        page.locator(".area-action.my-turn .decision button.target").first.tap(timeout=20000)
        page.locator(".area-action .decision button.confirm:not([disabled])").tap()
        page.wait_for_selector(".coach[data-step=vote]", timeout=20000)
        words = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        text = page.inner_text(".coach-text")
        assert text == words["tutorial.step.vote.text"]
        assert not re.search(r"(?<![A-Za-z])[JN](?![A-Za-z])", text), text  # no key named
    finally:
        ctx.close()


def test_every_language_has_every_tutorial_and_glossary_key() -> None:
    en = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
    keys = {k for k in en if k.startswith(("tutorial.", "glossary."))}
    assert {f"tutorial.step.{s}.title" for s in STEPS} <= keys
    assert len(keys) > 40
    for lang in LANGUAGES:
        catalog = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        assert keys <= set(catalog), (lang, sorted(keys - set(catalog)))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossary_from_the_lobby(web_server, new_context, lang) -> None:
    page = new_context(width=390, height=844, lang=lang).new_page()
    page.goto(web_server.url + "/")
    page.wait_for_selector("#learn-to-play")
    if lang == "en":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "lobby-learn-390.png"))
    page.locator(".learn a[href='#/glossary']").click()
    page.wait_for_selector(".glossary dt")
    catalog = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    terms = page.locator(".glossary dt").all_inner_texts()
    assert len(terms) == 19 and catalog["glossary.veto.term"] in terms
    assert missing_keys(page) == []
    if lang in ("en", "zh-Hant"):
        page.screenshot(path=str(SHOTS / f"glossary-{lang}-390.png"), full_page=True)
