"""Tables that look after themselves, in the browser (js/hosting.js): the host names the table,
removes someone and gives a seat to a bot; a player reports another from the table, naming the
game and the moment; a remake vote called and passed from two browsers; rematch from the end
screen of the table page. (Sign-up, sign-in elsewhere, My games and rematch from My games are in
test_web_accounts.py.)"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import MISSING, ROOT, Server, missing_keys, play_until_over

SHOTS = Path(os.environ.get("SH_SHOTS", "/tmp/sh-shots"))


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This module's server believes 127.0.0.1 as a proxy, so that a browser whose requests
    name another address in X-Forwarded-For is another person: a remake counts people, and
    sessions that vote from one address are one (docs/protocol.md "Hosting")."""
    data = Path(tmp_path_factory.mktemp("web-data"))
    server = Server(data, SH_TRUSTED_PROXIES="127.0.0.1").start()
    try:
        yield server
    finally:
        server.stop()


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"hosting-{name}.png"), full_page=True)


ERRORS: dict[int, list[str]] = {}  # page -> its script errors


def _page(new_context: Any, token: str, width: int = 390, height: int = 844) -> Any:
    page = new_context(width=width, height=height, token=token).new_page()
    errors = ERRORS.setdefault(id(page), [])
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def _clean(page: Any) -> None:
    """No catalog key missing on the page, no script error."""
    assert MISSING not in page.locator("body").inner_text(), missing_keys(page)
    assert not ERRORS.get(id(page))


def test_the_host_names_the_table_removes_someone_and_gives_a_seat_to_a_bot(
    web_server: Server, new_context: Any
) -> None:
    host, ben, cat = (web_server.session(n) for n in ("Hana", "Ben", "Cat"))
    t = web_server.api(
        "POST", "/api/tables", {"players": 5, "auto_start": False}, token=host["token"]
    )["id"]
    for who in (ben, cat):
        web_server.api("POST", f"/api/tables/{t}/join", {}, token=who["token"])
    page = _page(new_context, host["token"])
    page.goto(f"{web_server.url}/#/t/{t}")
    tools = page.locator(".table-tools")
    tools.wait_for(timeout=20000)
    assert tools.locator("h2").inner_text() == "Host tools"
    page.fill("#tools-table-name", "Friday game")
    page.get_by_role("button", name="Save name").click()
    page.locator(".table-title", has_text="Friday game").wait_for(timeout=20000)
    assert web_server.api("GET", f"/api/tables/{t}")["name"] == "Friday game"

    # Ben's browser watches his seat go
    ben_page = _page(new_context, ben["token"], width=1280, height=900)
    ben_page.goto(f"{web_server.url}/#/t/{t}")
    ben_page.locator(".wait-seat:has(.you-tag)").wait_for(timeout=20000)
    assert ben_page.locator(".table-tools").count() == 0  # no host tools
    assert ben_page.get_by_role("button", name="Remove from table").count() == 0
    # one list of players: each player's tools are on their row of the waiting room's list
    for p in (page, ben_page):
        assert p.locator(".tool-seat").count() == 0
        assert p.get_by_role("heading", name="Players", exact=True).count() == 1
    assert (
        ben_page.locator(".wait-seat", has_text="Hana").get_by_role("button", name="Report").count()
    )

    row = page.locator(".wait-seat", has_text="Ben")
    row.get_by_role("button", name="Remove from table").click()
    page.locator(".tools-notice", has_text="Ben was removed from the table.").wait_for(
        timeout=20000
    )
    page.locator(".wait-seat.kind-empty").nth(2).wait_for(timeout=20000)
    page.locator(".wait-seat", has_text="Cat").get_by_role(
        "button", name="Give seat to a bot"
    ).click()
    page.locator(".tools-notice", has_text="A bot now plays the seat of Cat.").wait_for(
        timeout=20000
    )
    seats = web_server.api("GET", f"/api/tables/{t}")["seats"]
    assert [s["kind"] for s in seats] == ["human", "empty", "bot", "empty", "empty"]
    _shot(page, "host-tools-phone")

    # Ben is a spectator now; joining again is refused in plain words
    ben_page.locator(".banner.spectator").wait_for(timeout=20000)
    ben_page.locator('[data-fkey="join-1"]').click()
    ben_page.locator(".error-box", has_text="The host removed you from this table.").wait_for(
        timeout=20000
    )
    for p in (page, ben_page):
        _clean(p)


def _admin_reports(server: Server) -> list[dict[str, Any]]:
    """``secret-hitler admin reports list --json`` on the server's database."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONPATH"] = str(ROOT / "src")
    out = subprocess.run(
        [sys.executable, "-m", "secret_hitler.cli", "admin", "--data", str(server.data)]
        + ["reports", "list", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def test_a_player_reports_another_from_the_table_at_this_moment(
    web_server: Server, new_context: Any
) -> None:
    ann, bob = web_server.session("Ann"), web_server.session("Bob")
    bots = {str(i): "random" for i in range(2, 5)}
    t = web_server.api("POST", "/api/tables", {"players": 5, "bots": bots}, token=ann["token"])
    web_server.api("POST", f"/api/tables/{t['id']}/join", {"seat": 1}, token=bob["token"])
    page = _page(new_context, ann["token"])
    page.goto(f"{web_server.url}/#/t/{t['id']}")
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    row = page.locator(".area-tools .tool-seat", has_text="Bob")
    row.get_by_role("button", name="Report").click()
    form = page.locator(".area-tools .report-form")
    form.wait_for(timeout=20000)
    assert form.locator("h3").inner_text() == "Report Bob"
    moment_text = form.locator(".hint").inner_text()
    moment = int(re.search(r"move (\d+)", moment_text).group(1))  # type: ignore[union-attr]
    page.fill("#table-report-reason", "Spams the chat")
    form.get_by_role("button", name="Send report").click()
    page.locator(".tools-notice", has_text="Report sent. Thank you.").wait_for(timeout=20000)
    _shot(page, "report-phone")
    [report] = [r for r in _admin_reports(web_server) if r["reporter"] == ann["user_id"]]
    assert (report["target"], report["game_id"], report["reason"]) == (
        bob["user_id"],
        t["id"],
        "Spams the chat",
    )
    assert report["moment"] == moment  # the number of moves when the report was written
    _clean(page)


def test_a_remake_vote_called_and_passed_from_two_browsers(
    web_server: Server, new_context: Any
) -> None:
    people = [web_server.session(n) for n in ("Ida", "Jay", "Kit")]
    t = web_server.api(
        "POST",
        "/api/tables",
        {"players": 5, "bots": {"3": "random", "4": "random"}},
        token=people[0]["token"],
    )["id"]
    for i, who in enumerate(people[1:], start=1):
        web_server.api("POST", f"/api/tables/{t}/join", {"seat": i}, token=who["token"])
    first_roles = web_server.api("GET", f"/api/tables/{t}")["game_id"]
    assert first_roles == t  # the game started (every seat taken)
    ida = _page(new_context, people[0]["token"])
    jay = _page(new_context, people[1]["token"], width=1280, height=900)
    for page, addr in ((ida, "198.51.100.1"), (jay, "198.51.100.2")):  # two homes
        page.context.set_extra_http_headers({"X-Forwarded-For": addr})
    for p in (ida, jay):
        p.goto(f"{web_server.url}/#/t/{t}")
        p.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    # the remake is one line until opened: what it is and the button to call it are on demand
    assert ida.get_by_role("button", name="Call a remake vote").is_hidden()
    ida.locator(".remake summary").click()
    ida.get_by_role("button", name="Call a remake vote").click()
    # Jay sees the count (never who voted), votes yes: 2 of the 3 living people pass it
    count = jay.locator(".remake-count")
    count.wait_for(timeout=20000)
    assert count.inner_text() == "Remake vote: 1 yes, 0 no; 2 yes votes are needed."
    assert "Ida" not in jay.locator(".remake").inner_text()
    ida.locator(".remake .hint", has_text="You voted yes.").wait_for(timeout=20000)
    _shot(ida, "remake-open-phone")
    jay.get_by_role("button", name="Yes, remake").click()
    for p in (ida, jay):
        p.locator(".remake-result", has_text="The remake vote passed").wait_for(timeout=20000)
        assert p.locator(".table-grid:not([hidden]) .board").count() == 1
    detail = web_server.api("GET", f"/api/tables/{t}")
    assert detail["status"] == "playing" and detail["remake_result"]["passed"] is True
    _shot(jay, "remake-passed-desktop")
    # "OK" puts the result away (it does not stay until the first policy)
    ida.locator(".remake-result").get_by_role("button", name="OK").click()
    ida.locator(".remake-result").wait_for(state="detached", timeout=20000)
    assert ida.locator(".remake summary").is_visible()  # a new remake may still be called
    for p in (ida, jay):
        _clean(p)


def test_rematch_from_the_end_screen_of_the_table(web_server: Server, new_context: Any) -> None:
    rita = web_server.session("Rita")
    bots = {str(i): "random" for i in range(1, 5)}
    t = web_server.api("POST", "/api/tables", {"players": 5, "bots": bots}, token=rita["token"])
    page = _page(new_context, rita["token"])
    page.goto(f"{web_server.url}/#/t/{t['id']}")
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    play_until_over(page, random.Random(4))
    _shot(page, "gameover-phone")
    page.locator(".gameover").get_by_role("button", name="Rematch").click()
    page.wait_for_url(re.compile(r"#/t/(?!" + t["id"] + r")"), timeout=20000)
    new_id = page.url.split("#/t/", 1)[1].split("?")[0]
    mine = page.locator(".wait-seat:has(.you-tag)")
    mine.wait_for(timeout=20000)
    assert mine.locator(".seat-name").inner_text() == "Rita"
    assert page.locator(".wait-seat.kind-bot").count() == 4  # the same bots, the same seats
    # the finished table's own page (from the database) now leads to the rematch
    page.goto(f"{web_server.url}/#/t/{t['id']}")
    page.reload()
    link = page.get_by_role("link", name="Go to the rematch")
    link.wait_for(timeout=20000)
    assert link.get_attribute("href") == f"#/t/{new_id}"
    _clean(page)
