"""Screenshots of the web client for the README: the lobby and a table in mid-game, at phone
(390x844) and laptop (1366x768) sizes, the table in Russian on a small phone (360x740), the
big-screen mode on a TV (1920x1080, and 1280x720) with the votes face up, plus a few more pages.

    .venv/bin/python tests/web/make_screenshots.py [--out docs/screenshots]

Starts its own server (temporary data folder, SH_BOT_DELAY=0) and Debian's Chromium.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

from web_support import ROOT, Server, act_once, launch_chromium, sign_in  # noqa: E402

SIZES = [(390, 844), (1366, 768)]
NAMES = ["Ada", "Boris", "Chen", "Dung", "Emma", "Fay", "Gus"]
VOTE_BUTTON = ".table-grid:not([hidden]) .area-action .decision .btn-ja"


def _mid_game(server: Server, token: str) -> str:
    """A 7-seat table (one person, six bots); the person's page plays until mid-game."""
    bots = {str(s): "rule" for s in range(1, 7)}
    table = server.api(
        "POST", "/api/tables", {"players": 7, "bots": bots, "auto_start": False}, token=token
    )
    return str(table["id"])


def _wait_mid_game(page, rng: random.Random) -> bool:
    """Play until a few policies are on the board and the person has a vote to cast; False
    when the game ends first (the server deals at random: some games are over that soon)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page.locator(".gameover").count():
            return False
        counts = page.locator(".track-count").all_inner_texts()
        lib, fas = (int(c.split("/")[0]) for c in counts) if len(counts) == 2 else (0, 0)
        # a vote the person has still to cast (the same buttons, visible, as the shots wait for)
        voting = page.locator(VOTE_BUTTON).first.is_visible()
        if lib + fas >= 3 and fas >= 1 and voting:
            return True
        if not act_once(page, rng):
            page.wait_for_timeout(60)
    raise RuntimeError("no mid-game position reached")


def _tv_shots(tv_page, out: Path) -> None:
    """The TV at 1920x1080, and the same moment on a small TV (the page is always the screen)."""
    for w, h in [(1920, 1080), (1280, 720)]:
        tv_page.set_viewport_size({"width": w, "height": h})
        tv_page.wait_for_timeout(300)
        tv_page.screenshot(path=str(out / f"big-screen-{w}x{h}.png"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "data").start()
        try:
            with sync_playwright() as p:
                browser = launch_chromium(p)
                # some public tables for the lobby list
                for i, players in enumerate((7, 5, 8)):
                    user = server.session(NAMES[i + 3])
                    bots = {str(s): "rule" for s in range(1, players - 2)}
                    server.api(
                        "POST",
                        "/api/tables",
                        {
                            "players": players,
                            "bots": bots,
                            "rules": ["official", "secrethitler-io", "forum"][i],
                        },
                        token=user["token"],
                    )
                me = server.session("Ada")
                for deal in range(5):  # a new table when a game is over before mid-game
                    table_id = _mid_game(server, me["token"])
                    ctx = browser.new_context(
                        viewport={"width": 1366, "height": 768}, locale="en-US"
                    )
                    sign_in(ctx, server.url, me["token"])
                    page = ctx.new_page()
                    page.goto(f"{server.url}/#/t/{table_id}")
                    page.wait_for_selector(".table-page[data-conn=open]")
                    server.api("POST", f"/api/tables/{table_id}/start", {}, token=me["token"])
                    page.wait_for_selector(".table-grid:not([hidden]) .board")
                    if _wait_mid_game(page, random.Random(3 + deal)):
                        break
                    ctx.close()
                else:
                    raise RuntimeError("no game reached mid-game in 5 deals")
                page.wait_for_timeout(400)
                for w, h in SIZES:
                    shot = browser.new_context(
                        viewport={"width": w, "height": h}, locale="en-US", device_scale_factor=1
                    )
                    sign_in(shot, server.url, me["token"])
                    sp = shot.new_page()
                    sp.goto(f"{server.url}/")
                    sp.wait_for_selector(".table-list .table-card")
                    sp.fill("#name", "Ada")
                    sp.screenshot(path=str(out / f"lobby-{w}x{h}.png"))
                    sp.goto(f"{server.url}/#/t/{table_id}")
                    sp.wait_for_selector(VOTE_BUTTON)
                    if w > 1000:
                        sp.locator(".role-toggle").click()
                    sp.wait_for_timeout(300)
                    sp.evaluate("window.scrollTo(0, 0)")
                    sp.screenshot(path=str(out / f"table-{w}x{h}.png"))
                    if w < 1000:
                        sp.screenshot(path=str(out / f"table-{w}x{h}-full.png"), full_page=True)
                    sp.goto(f"{server.url}/#/rules")
                    sp.wait_for_selector(".rules-page .rules-table")
                    sp.screenshot(path=str(out / f"rules-{w}x{h}.png"))
                    shot.close()
                # the longest words: the table in Russian on a small phone, the role card open
                shot = browser.new_context(
                    viewport={"width": 360, "height": 740}, locale="ru-RU", device_scale_factor=1
                )
                sign_in(shot, server.url, me["token"])
                sp = shot.new_page()
                sp.goto(f"{server.url}/#/t/{table_id}")
                sp.wait_for_selector(VOTE_BUTTON)
                sp.locator(".role-toggle").click()
                sp.wait_for_timeout(300)
                sp.screenshot(path=str(out / "table-ru-360x740-full.png"), full_page=True)
                shot.close()
                # the end of the game; on the way, the room's TV (a spectator in big-screen mode,
                # still: no motion) at a moment the person decides with the last votes face up
                tv = browser.new_context(
                    viewport={"width": 1920, "height": 1080},
                    locale="en-US",
                    device_scale_factor=1,
                    reduced_motion="reduce",
                )
                tv_page = tv.new_page()
                tv_page.goto(f"{server.url}/#/t/{table_id}?big=1")
                tv_page.wait_for_selector(".table-grid:not([hidden]) .board")
                rng = random.Random(4)
                deadline = time.monotonic() + 120
                shot_taken = False
                while not page.locator(".gameover").count() and time.monotonic() < deadline:
                    deciding = page.locator(".area-action.my-turn .decision button").count() > 0
                    voting = page.locator(VOTE_BUTTON).first.is_visible()
                    if not shot_taken and deciding and not voting:
                        if tv_page.locator(".vote-card.revealed").count():
                            _tv_shots(tv_page, out)
                            shot_taken = True
                    if not act_once(page, rng):
                        page.wait_for_timeout(60)
                if not shot_taken:  # no such moment in this game: the TV at the end
                    tv_page.wait_for_selector(".gameover")
                    _tv_shots(tv_page, out)
                tv.close()
                # the roles are revealed one by one: the picture once all are shown
                page.wait_for_function("() => document.getAnimations().length === 0")
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(out / "gameover-1366x768.png"))
                # its replay, at round 4 as seen by Ada, on a small phone and a laptop
                page.wait_for_function("() => document.querySelector('.gameover')")
                rounds = server.api("GET", f"/api/games/{table_id}/replay")["rounds"]
                step = next((r["step"] for r in rounds if r["round"] == 4), rounds[-1]["step"])
                for w, h in [(360, 740), (1366, 768)]:
                    shot = browser.new_context(
                        viewport={"width": w, "height": h}, locale="en-US", device_scale_factor=1
                    )
                    sign_in(shot, server.url, me["token"])
                    sp = shot.new_page()
                    sp.goto(f"{server.url}/#/replay/{table_id}?step={step}&view=0")
                    sp.wait_for_selector(".replay-controls")
                    sp.wait_for_selector(".replay-grid .area-chat")
                    sp.wait_for_timeout(300)
                    sp.screenshot(path=str(out / f"replay-{w}x{h}.png"))
                    shot.close()
                ctx.close()
                browser.close()
        finally:
            server.stop()
    for f in sorted(out.glob("*.png")):
        print(f)


if __name__ == "__main__":
    main()
