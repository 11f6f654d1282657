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


def sign_in(ctx: Any, url: str, token: str) -> None:
    """Give a browser context the session cookie, as ``POST /api/session`` would have set it."""
    ctx.add_cookies(
        [{"name": "sh_session", "value": token, "url": url, "httpOnly": True, "sameSite": "Lax"}]
    )


class Server(LiveServer):
    """The live server, with plain HTTP helpers for setting up tables without a browser."""

    # Every browser test comes from 127.0.0.1: the per-address limits (tested in tests/server)
    # are raised so that the whole session's tables, guests and bot games fit.
    DEFAULT_ENV = {
        "SH_BOT_DELAY": "0",
        "SH_SECRET": "web-test-secret",
        "SH_GRACE": "600",
        "SH_SESSION_RATE": "600/minute",
        "SH_TABLES_PER_ADDRESS": "500",
        "SH_BOT_GAMES_PER_ADDRESS": "20",
        "SH_CHAT_RATE_ADDRESS": "100/10 seconds",
    }
    LOG_LEVEL = "warning"

    # -- plain HTTP, for setting up tables without a browser -----------------------------
    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
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


def act_once(page: Any, rng: random.Random) -> bool:
    """Make one decision the action area offers (or dismiss a notice). True if something was tapped."""
    try:
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
