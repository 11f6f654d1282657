"""Every error code the server can answer with has its words in the web client's catalogs (the
client shows the catalog's text for a code, never the server's English message), and docs/
protocol.md lists it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "secret_hitler" / "server"
I18N = ROOT / "src" / "secret_hitler" / "web" / "static" / "i18n"
LANGS = ["en", "ru", "vi", "zh-Hans", "zh-Hant"]
# Raised and caught inside the server: a timer's or bot's move for a decision that has passed
# (server/table/driver.py); no client ever receives it.
INTERNAL = {"stale"}

# LobbyError(409, "code", ...), ProtocolError("code", ...), P.error("code", ...), fail(4xx, "code"
RAISED = re.compile(
    r'(?:LobbyError|ProtocolError|P\.error|WebhookError)\(\s*(?:\d+,\s*)?"([a-z_]+)"'
    r'|WebhookError\([^()]*,\s*"([a-z_]+)"\)'
)


def _codes() -> set[str]:
    codes: set[str] = set()
    for path in SERVER.rglob("*.py"):
        for m in RAISED.finditer(path.read_text(encoding="utf-8")):
            codes.add(m.group(1) or m.group(2))
    return codes


def test_the_scan_finds_the_codes() -> None:
    codes = _codes()
    # a few from each kind of raise, so a change of style cannot empty the list unnoticed
    assert {"not_host", "removed", "no_vote", "illegal_action", "webhook_private"} <= codes
    assert len(codes) > 40


@pytest.mark.parametrize("lang", LANGS)
def test_every_server_error_code_has_words(lang: str) -> None:
    catalog = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    missing = sorted(c for c in _codes() if f"error.code.{c}" not in catalog)
    assert not missing, f"{lang}: no error.code.* for {missing}"


def test_every_server_error_code_is_documented() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    missing = sorted(c for c in _codes() - INTERNAL if f"`{c}`" not in doc)
    assert not missing, f"docs/protocol.md does not list {missing}"
