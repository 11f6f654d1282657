"""Fixtures for the browser tests: one real server per test module, one Chromium for the session.

A server per module keeps what one module's games leave running (bot games, waiting tables)
from slowing the next module's pages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from web_support import Server, launch_chromium, sign_in


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(Path(tmp_path_factory.mktemp("web-data"))).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api")
    sync_playwright = sync_api.sync_playwright

    with sync_playwright() as p:
        try:
            browser = launch_chromium(p)
        except Exception as exc:  # no Chromium on this machine
            pytest.skip(f"Chromium cannot start: {exc}")
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_context(chromium: object, web_server: Server) -> Iterator[object]:
    """``new_context(width=390, height=844, locale="en-US", token=None)`` -> a fresh context."""
    made: list[object] = []
    refused: list[str] = []  # the page must never trip its own Content-Security-Policy

    def make(
        width: int = 390,
        height: int = 844,
        locale: str = "en-US",
        token: str | None = None,
        lang: str | None = None,
    ) -> object:
        ctx = chromium.new_context(viewport={"width": width, "height": height}, locale=locale)  # type: ignore[attr-defined]
        ctx.on(
            "console",
            lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None,
        )
        script = ""
        if token:
            sign_in(ctx, web_server.url, token)
        if lang:
            script += f"localStorage.setItem('sh.lang', {lang!r});"
        if script:
            ctx.add_init_script(script)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()  # type: ignore[attr-defined]
    assert refused == [], refused
