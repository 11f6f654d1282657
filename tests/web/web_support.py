"""Helpers for the browser tests: a real server in a subprocess, Debian's Chromium through the
Playwright sync API (never a downloaded browser), and a player that taps through the UI."""

from __future__ import annotations

import json
import os
import random
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from live_server import LiveServer

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("SH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LANGUAGES = ["en", "zh-Hans", "zh-Hant", "ru", "vi"]
MISSING = "⟦"  # the client renders a missing catalog key as ⟦key⟧
LAYOUT_CHECK = (Path(__file__).resolve().parent / "layout_check.js").read_text(encoding="utf-8")


def sign_in(ctx: Any, url: str, token: str) -> None:
    """Give a browser context the session cookie, as ``POST /api/session`` would have set it."""
    ctx.add_cookies(
        [{"name": "sh_session", "value": token, "url": url, "httpOnly": True, "sameSite": "Lax"}]
    )


class Server(LiveServer):
    """The live server, with plain HTTP helpers for setting up tables without a browser."""

    # The live server's (raised per-address limits: all browsers share 127.0.0.1; bots move at
    # once and do not wait for people's claims), with a longer grace.
    DEFAULT_ENV = {
        **LiveServer.DEFAULT_ENV,
        "SH_SECRET": "web-test-secret",
        "SH_GRACE": "600",
    }
    LOG_LEVEL = "warning"

    # -- plain HTTP, for setting up tables without a browser -----------------------------
    def api(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        address: str | None = None,
    ) -> Any:
        """``address``: the client address a trusted proxy names (X-Forwarded-For), for a server
        started with ``SH_TRUSTED_PROXIES=127.0.0.1``: another address is another person."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        if address:
            req.add_header("X-Forwarded-For", address)
        with urllib.request.urlopen(req, timeout=10) as r:
            text = r.read().decode()
        return json.loads(text) if text else None

    def session(self, name: str) -> dict[str, Any]:
        return self.api("POST", "/api/session", {"name": name})


def launch_chromium(playwright: Any) -> Any:
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: apt-get install -y chromium")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


# ---------------------------------------------------------------------- a player that taps
class FrameLog:
    """Every WebSocket frame a page received, parsed."""

    def __init__(self, page: Any) -> None:
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.sent: list[str] = []
        page.on("websocket", self._on_ws)

    def _on_ws(self, ws: Any) -> None:
        ws.on("framereceived", self._on_frame)
        ws.on("framesent", self._on_sent)

    def _on_sent(self, payload: Any) -> None:
        text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
        self.sent.append(text)

    def _on_frame(self, payload: Any) -> None:
        text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
        self.raw.append(text)
        try:
            self.messages.append(json.loads(text))
        except ValueError:
            pass

    def of_type(self, *types: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("type") in types]


class SocketPlayer:
    """A seat played over the table's WebSocket with random legal moves, without a page (a game
    to set a scene for a page, quickly): ``play(rng, stop)`` plays until ``stop(view)`` holds at
    one of this seat's decisions (the game then waits) or the game is over. A context manager:
    the connection stays open (the seat is not "away") until its end."""

    def __init__(self, server: Server, token: str, table_id: str) -> None:
        from websockets.sync.client import connect

        self.connection = connect(
            f"{server.ws_url}/ws/tables/{table_id}",
            additional_headers={"Authorization": f"Bearer {token}"},
            max_size=1 << 22,
        )
        self.seat: int | None = None
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []

    def __enter__(self) -> SocketPlayer:
        self.ws = self.connection.__enter__()
        self.ws.send(json.dumps({"v": 1, "type": "hello", "since": None}))
        return self

    def __exit__(self, *exc: object) -> None:
        self.connection.__exit__(*exc)

    def play(self, rng: random.Random, stop: Any = None, timeout: float = 90.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            if self.view.get("phase") == "game_over":
                return self.view
            turn = [a for a in self.legal if a["type"] != "claim"]
            if turn and self.seat in self.view.get("to_act", []):
                if stop is not None and stop(self.view):
                    return self.view
                action = rng.choice(turn)
                self.ws.send(
                    json.dumps(
                        {"v": 1, "type": "action", "id": str(rng.random()), "action": action}
                    )
                )
                self.legal = []  # its update brings the next decision
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"the game did not get there in time: {self.view.get('phase')}"
                )
            m = json.loads(self.ws.recv(timeout=left))
            if m.get("type") in ("welcome", "update"):
                self.seat = m.get("seat", self.seat)
                self.view, self.legal = m["view"] or {}, m["legal"]  # (no view before the deal)


def act_once(page: Any, rng: random.Random, avoid: str | None = None) -> bool:
    """Make one decision the action area offers (or dismiss a notice). True if something was
    tapped. ``avoid``: a selector; while it matches, nothing is tapped (a decision the test
    makes itself)."""
    try:
        if avoid is not None and page.locator(avoid).count():
            return False
        notice = page.locator(".private-notice button:not([disabled])")
        if notice.count():
            notice.first.click(timeout=2000)
            return True
        buttons = page.locator(".area-action .decision button:not([disabled])")
        n = buttons.count()
        if not n:
            return False
        targets = page.locator(".area-action .decision button.target:not([disabled])")
        if targets.count():
            targets.nth(rng.randrange(targets.count())).click(timeout=2000)
            if avoid is not None and page.locator(avoid).count():
                return False  # the test's own decision came meanwhile: a target chose nothing
            page.locator(".area-action .decision button.confirm:not([disabled])").click(
                timeout=2000
            )
            return True
        # votes, policies, veto responses: any offered button
        buttons.nth(rng.randrange(n)).click(timeout=2000)
        return True
    except Exception:  # the page re-rendered under our finger: try again
        return False


def play_until_over(
    page: Any, rng: random.Random, timeout: float = 180.0, each: Any = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator(".gameover").count():
            return
        if each is not None:
            each()
        if not act_once(page, rng):
            page.wait_for_timeout(60)
    raise AssertionError("the game did not end in time")


def missing_keys(page: Any) -> list[str]:
    """Catalog keys the page rendered as missing (⟦key⟧), in text and in attributes."""
    return page.evaluate(
        """() => {
          const found = new Set();
          const re = /⟦[^⟧]*⟧/g;
          for (const m of document.body.innerText.matchAll(re)) found.add(m[0]);
          for (const el of document.querySelectorAll('*')) {
            for (const a of el.attributes) for (const m of a.value.matchAll(re)) found.add(m[0]);
          }
          for (const m of document.title.matchAll(re)) found.add(m[0]);
          return [...found];
        }"""
    )


def layout_problems(
    page: Any, root: str | None = None, viewport: bool = False, ignore: str | None = None
) -> list[str]:
    """Every text of the page (or of ``root``) that overflows its box, is clipped, is off the
    screen or has a word broken without a hyphen (layout_check.js); ``viewport``: the page may
    not scroll and every text must be on the screen (the big screen)."""
    return page.evaluate(LAYOUT_CHECK, {"root": root, "viewport": viewport, "ignore": ignore})
