"""Fixtures: the scripted chat-completions server (tests/chat_server.py) and endpoints pointing at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chat_server import ChatServer, running

pytest.importorskip("httpx")


@pytest.fixture
def chat() -> Iterator[ChatServer]:
    with running(seed=1) as server:
        yield server
