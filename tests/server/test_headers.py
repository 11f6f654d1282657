"""Security headers on every page, a web client that needs no inline script or style (so the CSP
can forbid them), API docs off by default, and a data folder only the server's user can read."""

from __future__ import annotations

import re
import stat
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from server_support import ROOT, Server, http, session
from websec_support import raw

STATIC = ROOT / "src" / "secret_hitler" / "web" / "static"


def _csp(value: str) -> dict[str, list[str]]:
    out = {}
    for part in value.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@pytest.mark.timeout(60)
def test_every_page_carries_the_security_headers(server: Server) -> None:
    for path in ("/", "/static/js/main.js", "/static/css/app.css", "/api/tables", "/nope"):
        r = raw(server, "GET", path)
        assert r.status in (200, 404), path
        csp = _csp(r.headers["content-security-policy"])
        assert csp["frame-ancestors"] == ["'none'"], path
        assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'"], path
        assert csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"]
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "no-referrer"
    assert raw(server, "GET", "/api/tables").headers["cache-control"] == "no-store"
    # refusals and errors carry them too
    r = raw(server, "POST", "/api/session", {"Content-Type": "text/plain"}, "x")
    assert r.status == 415 and r.headers["x-content-type-options"] == "nosniff"


class _Inline(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k for k, _ in attrs}
        if tag == "style":
            self.problems.append("<style>")
        if "style" in names:
            self.problems.append(f"style= on <{tag}>")
        self.problems += [f"{k}= on <{tag}>" for k in names if k.startswith("on")]
        if tag == "script":
            self._in_script = True
            if "src" not in names:
                self.problems.append("<script> without src")
        for k, v in attrs:
            if k in ("href", "src") and v and v.strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL on <{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.problems.append("inline script text")


def test_the_web_client_has_no_inline_script_handler_or_style() -> None:
    parser = _Inline()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    assert parser.problems == []
    # the scripts build the page with DOM calls: nothing that the CSP would refuse
    banned = re.compile(
        r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|"
        r"setAttribute\(\s*[\"']style|[\"']on[a-z]+=|javascript:|\.style\.cssText"
    )
    for js in sorted((STATIC / "js").glob("*.js")):
        code = "\n".join(
            line
            for line in js.read_text(encoding="utf-8").splitlines()
            if not line.lstrip().startswith(("//", "*", "/*"))
        )
        hits = [m.group(0) for m in banned.finditer(code)]
        assert hits == [], (js.name, hits)


@pytest.mark.timeout(60)
def test_api_docs_are_off_unless_configured(make_server: Any) -> None:
    server: Server = make_server()
    assert raw(server, "GET", "/api/docs").status == 404
    assert http(server, "GET", "/api/openapi.json")["info"]["title"] == "Secret Hitler"
    docs: Server = make_server(SH_API_DOCS="1")
    r = raw(docs, "GET", "/api/docs")
    assert r.status == 200
    # their CDN may serve scripts to that page only
    assert "cdn.jsdelivr.net" in r.headers["content-security-policy"]
    assert "cdn.jsdelivr.net" not in raw(docs, "GET", "/").headers["content-security-policy"]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.timeout(60)
def test_data_folder_is_the_server_users_only(make_server: Any, tmp_path: Path) -> None:
    # an older installation: world-readable folder and database
    data = tmp_path / "old-data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    db = data / "secret-hitler.db"
    db.touch()
    db.chmod(0o644)
    server: Server = make_server(data=data, SH_SECRET="")  # the key is generated in the folder
    session(server, "Alice")  # a write: the WAL exists now
    assert _mode(data) == 0o700
    assert _mode(db) == 0o600
    assert _mode(data / "secret.key") == 0o600
    wal = data / "secret-hitler.db-wal"
    assert wal.exists() and _mode(wal) == 0o600
    # a fresh installation
    fresh = tmp_path / "new" / "data"
    server = make_server(data=fresh)
    session(server, "Bob")
    assert _mode(fresh) == 0o700 and _mode(fresh / "secret-hitler.db") == 0o600
