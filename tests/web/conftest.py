"""Fixtures for the browser tests: one real server per test module, one Chromium for a run of
browser tests.

A server per module keeps what one module's games leave running (bot games, waiting tables)
from slowing the next module's pages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import Server, launch_chromium, sign_in


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(Path(tmp_path_factory.mktemp("web-data"))).start()
    try:
        yield server
    finally:
        server.stop()


class _Chromium:
    """One Playwright and Chromium for a run of browser tests, stopped as soon as the next test
    is not one: while Playwright's sync API lives it marks an event loop as running in this
    thread, and every later ``asyncio.run()`` (the server tests') would refuse to start."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None
        self.problem: str | None = None

    def get(self) -> Any:
        if self.problem is not None:
            pytest.skip(self.problem)
        if self.browser is None:
            sync_api = pytest.importorskip("playwright.sync_api")
            playwright = sync_api.sync_playwright().start()
            try:
                self.browser = launch_chromium(playwright)
            except Exception as exc:  # no Chromium on this machine
                playwright.stop()
                self.problem = f"Chromium cannot start: {exc}"
                pytest.skip(self.problem)
            self.playwright = playwright
        return self.browser

    def stop(self) -> None:
        if self.playwright is None:
            return
        try:
            self.browser.close()
        finally:
            self.playwright.stop()
            self.playwright = self.browser = None


_CHROMIUM = _Chromium()
HERE = Path(__file__).parent


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a browser test's fixtures are gone: Chromium stops unless a browser test is next."""
    try:
        return (yield)
    finally:
        if nextitem is None or not Path(str(nextitem.fspath)).is_relative_to(HERE):
            _CHROMIUM.stop()


def pytest_sessionfinish() -> None:
    _CHROMIUM.stop()


@pytest.fixture
def chromium() -> Any:
    """The shared Chromium (started by the first browser test of a run of them)."""
    return _CHROMIUM.get()


@pytest.fixture
def new_context(chromium: object, web_server: Server) -> Iterator[object]:
    """``new_context(width=390, height=844, locale="en-US", token=None, lang=None,
    still=False)`` -> a fresh context (``still``: the browser prefers reduced motion, so that a
    layout is measured at rest)."""
    made: list[object] = []
    refused: list[str] = []  # the page must never trip its own Content-Security-Policy

    def make(
        width: int = 390,
        height: int = 844,
        locale: str = "en-US",
        token: str | None = None,
        lang: str | None = None,
        still: bool = False,
    ) -> object:
        ctx = chromium.new_context(  # type: ignore[attr-defined]
            viewport={"width": width, "height": height},
            locale=locale,
            reduced_motion="reduce" if still else None,
        )
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
