"""Stand-ins on screen, in a real Chromium: a seat whose player lost the connection shows the
grace countdown, then "A bot is playing for Cid"; when Cid's connection comes back he is told
what was played for him, and no claim was made in his name; a player whose decision timer ran
out is told which move was made."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import FrameLog, Server, act_once, sign_in

# Lets the test cut the page's connection as a network drop would: every WebSocket is kept, and
# while `__offline` is set new ones fail at once (HTTP 404) (the page keeps retrying, as on a phone).
NETWORK = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.__offline = false;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      super(window.__offline ? url.replace("/ws/", "/no-such-path/") : url, protocols);
      window.__sockets.push(this);
      this.addEventListener("message", (e) => { if (JSON.parse(e.data).type === "welcome") this.__welcomed = true; });
    }
  };
})();
"""


@pytest.fixture(scope="module")
def grace_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(
        Path(tmp_path_factory.mktemp("standin-data")), SH_GRACE="2", SH_MIN_TIMER="2"
    ).start()
    try:
        yield server
    finally:
        server.stop()


def _context(chromium: Any, server: Server, token: str, refused: list[str]) -> Any:
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    ctx.on(
        "console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None
    )
    sign_in(ctx, server.url, token)
    ctx.add_init_script(NETWORK)
    return ctx


def _expected(action: dict[str, Any], names: list[str]) -> str:
    """The sentence the page must show for a move its stand-in made (public part only)."""
    target = names[action["target"]] if "target" in action else None
    return {
        "nominate": f"Chancellor nominee: {target}",
        "investigate": f"Loyalty investigated: {target}",
        "special_election": f"Next President: {target}",
        "execute": f"Executed: {target}",
    }.get(action["type"], "")


def test_stand_in_shown_and_the_returning_player_told(grace_server, chromium) -> None:
    ann, cid = grace_server.session("Ann"), grace_server.session("Cid")
    bots = {str(s): "random" for s in range(2, 5)}
    table = grace_server.api("POST", "/api/tables", {"players": 5, "bots": bots}, ann["token"])
    tid = table["id"]
    refused: list[str] = []
    actx = _context(chromium, grace_server, ann["token"], refused)
    cctx = _context(chromium, grace_server, cid["token"], refused)
    try:
        apage = actx.new_page()
        aframes = FrameLog(apage)
        apage.goto(f"{grace_server.url}/#/t/{tid}")
        apage.wait_for_selector(".waiting-room .wait-seats")
        cpage = cctx.new_page()
        cframes = FrameLog(cpage)
        errors: list[str] = []
        cpage.on("pageerror", lambda e: errors.append(str(e)))
        cpage.goto(f"{grace_server.url}/#/t/{tid}")
        cpage.get_by_role("button", name="Join").first.click()
        apage.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
        cpage.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
        names = [n.strip() for n in apage.locator(".seat .seat-name").all_inner_texts()]
        seat = names.index("Cid")
        # Cid's page has its seat's own socket (joining opens a new one) and its welcome: cut
        # before, it would have no update to resume from and would rightly start afresh
        cpage.wait_for_function(
            "() => window.__sockets.length >= 2 && window.__sockets.at(-1).__welcomed === true"
        )

        # Cid's connection drops
        cpage.evaluate("window.__offline = true; for (const s of window.__sockets) s.close()")
        cid_seat = apage.locator(f'.seat[data-seat="{seat}"]')
        cid_seat.locator(".standin").wait_for(timeout=10000)
        countdown = cid_seat.locator(".standin").inner_text()
        assert countdown.startswith("Cid is away: a bot plays for them in "), countdown

        def replaced() -> list[dict[str, Any]]:
            return [
                m["action"]
                for m in aframes.of_type("update")
                if m.get("by") == "absent" and (m.get("action") or {}).get("seat") == seat
            ]

        rng = random.Random(4)
        deadline = time.monotonic() + 60
        while not replaced() and not apage.locator(".gameover").count():
            assert time.monotonic() < deadline, "the stand-in never played"
            if not act_once(apage, rng):
                apage.wait_for_timeout(40)
        assert replaced(), "the game ended before Cid's stand-in played"
        if not apage.locator(".gameover").count():
            apage.wait_for_function(
                f"""() => (document.querySelector('.seat[data-seat="{seat}"] .standin') || {{}})
                .textContent === 'A bot is playing for Cid'""",
                timeout=5000,
            )

        # the connection comes back: the missed updates arrive, and Cid is told what was played
        cpage.evaluate("window.__offline = false; window.dispatchEvent(new Event('online'))")
        notice = cpage.locator(".forced-notice")
        notice.wait_for(timeout=20000)
        assert cframes.of_type("resumed"), "the page must resume, not start over"
        assert "While you were away, a bot played for you" in notice.inner_text()
        assert "No claim was made in your name." in notice.inner_text()
        shown = notice.locator(".forced-moves li").all_inner_texts()
        # each of Cid's moves made by the stand-in, with the last nomination before it (a vote's
        # government), read from his page's frames in order (a welcome's log, then the updates)
        forced: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
        log: list[dict[str, Any]] = []
        for m in cframes.of_type("welcome", "update"):
            if m["type"] == "welcome":
                log = list((m.get("view") or {}).get("events") or [])
                continue
            if m.get("by") == "absent" and m["action"]["seat"] == seat:
                nominated = next((e for e in reversed(log) if e["type"] == "nominated"), None)
                forced.append((m["action"], nominated))
            log += m.get("events") or []
        assert len(shown) == len(forced) >= 1
        for (action, nominated), text in zip(forced, shown, strict=True):
            want = _expected(action, names)
            if want:
                assert text == want
            elif action["type"] == "vote":  # on the government of the last nomination before it
                assert nominated is not None
                government = f"{names[nominated['president']]} → {names[nominated['chancellor']]}"
                votes = [f"Vote on {government}: {v}" for v in ("Ja!", "Nein!")]
                assert text in [*votes, f"Voted on {government}"], (text, votes)
            else:
                assert text and "⟦" not in text
        # a forced move never makes a claim for the player
        assert not any(a["type"] == "claim" for a, _ in forced)
        claims = [
            e
            for m in aframes.of_type("update", "welcome")
            for e in (m.get("events") or [])
            if e.get("type") == "claim" and e.get("seat") == seat
        ]
        assert claims == []
        notice.get_by_role("button", name="OK").click()
        assert cpage.locator(".forced-notice").count() == 0
        # the seat is Cid's own again
        apage.wait_for_function(
            f"() => !document.querySelector('.seat[data-seat=\"{seat}\"] .standin')",
            timeout=10000,
        )
        assert not errors
    finally:
        actx.close()
        cctx.close()
    assert refused == [], refused


def test_a_timed_out_player_sees_the_move_made(grace_server, chromium) -> None:
    tim = grace_server.session("Tim")
    bots = {str(s): "random" for s in range(1, 5)}
    refused: list[str] = []
    ctx = _context(chromium, grace_server, tim["token"], refused)
    try:
        page = ctx.new_page()
        frames = FrameLog(page)
        table = grace_server.api(
            "POST",
            "/api/tables",
            {"players": 5, "bots": bots, "timer": 2, "auto_start": False},
            tim["token"],
        )
        page.goto(f"{grace_server.url}/#/t/{table['id']}")
        page.wait_for_selector('.table-page[data-conn="open"]')
        grace_server.api("POST", f"/api/tables/{table['id']}/start", {}, tim["token"])
        # Tim does nothing: the timer's stand-in moves for him, and he is told which move
        notice = page.locator(".forced-notice")
        notice.wait_for(timeout=20000)
        assert "Time is up: a move was made for you" in notice.inner_text()
        deadline = time.monotonic() + 10
        while True:  # the timer keeps moving for him: read the frames and the page together
            timed = [
                m["action"]
                for m in frames.of_type("update")
                if m.get("by") == "timer" and m["action"]["seat"] == 0
            ]
            shown = notice.locator(".forced-moves li").all_inner_texts()
            if len(shown) == len(timed) or time.monotonic() > deadline:
                break
            page.wait_for_timeout(50)
        assert len(shown) == len(timed) >= 1
        names = [n.strip() for n in page.locator(".seat .seat-name").all_inner_texts()]
        for action, text in zip(timed, shown, strict=True):
            want = _expected(action, names)
            assert text == want if want else (text and "⟦" not in text)
        assert not any(a["type"] == "claim" for a in timed)
    finally:
        ctx.close()
    assert refused == [], refused
