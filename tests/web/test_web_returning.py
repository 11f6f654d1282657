"""A person who closed the tab and comes back, in a real Chromium: the stand-in voted for them
while they were away; the fresh page (a welcome, not a resume) tells them so ("While you were
away, a bot played for you": the vote) and the log marks the move as the stand-in's, in each of
the five languages, once per device."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import LANGUAGES, MISSING, ROOT, Server, SocketPlayer, missing_keys, sign_in

CATALOGS = ROOT / "src" / "secret_hitler" / "web" / "static" / "i18n"
LOCALES = {"en": "en-US", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "ru": "ru-RU", "vi": "vi-VN"}


def _catalog(lang: str) -> dict[str, str]:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))


def _say(words: dict[str, str], key: str, **params: str) -> str:
    text = words[key]
    for name, value in params.items():
        text = text.replace(f"{{{name}}}", value)
    return text


@pytest.fixture(scope="module")
def grace_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(Path(tmp_path_factory.mktemp("returning-data")), SH_GRACE="2").start()
    try:
        yield server
    finally:
        server.stop()


def _page(chromium: Any, server: Server, token: str, lang: str) -> tuple[Any, Any]:
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, locale=LOCALES[lang])
    sign_in(ctx, server.url, token)
    return ctx, ctx.new_page()


def _started(host: SocketPlayer, timeout: float = 30.0) -> None:
    """Read the host's socket up to the game's first update."""
    deadline = time.monotonic() + timeout
    while True:
        m = json.loads(host.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if m.get("type") == "welcome":
            host.seat = m["seat"]
        if m.get("type") == "update":
            host.view, host.legal = m["view"], m["legal"]
            return


def _standin_vote(ann: SocketPlayer, seat: int, timeout: float = 30.0) -> dict[str, Any]:
    """Read Ann's socket until the update of the vote a stand-in made for ``seat``."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the stand-in never voted"
        m = json.loads(ann.ws.recv(timeout=left))
        action = m.get("action") or {}
        if m.get("by") == "absent" and action.get("type") == "vote" and action["seat"] == seat:
            return m


def test_a_returning_person_is_told_what_the_stand_in_did(grace_server, chromium) -> None:
    ann, cid = grace_server.session("Ann"), grace_server.session("Cid")
    bots = {str(s): "random" for s in range(2, 5)}
    table = grace_server.api("POST", "/api/tables", {"players": 5, "bots": bots}, ann["token"])
    tid, url = table["id"], f"{grace_server.url}/#/t/{table['id']}"
    shots = Path(os.environ.get("SH_SHOTS", "/tmp"))
    with SocketPlayer(grace_server, ann["token"], tid) as host:
        ctx, page = _page(chromium, grace_server, cid["token"], "en")
        try:
            page.goto(url)
            page.get_by_role("button", name="Join").first.click()
            page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
            seat = grace_server.api("GET", f"/api/tables/{tid}", None, cid["token"])
            seat = next(s["seat"] for s in seat["seats"] if s.get("name") == "Cid")
            page.close()  # Cid closes the tab
            # Ann plays on but never votes: the game waits in the first vote, Cid's made for him
            _started(host)  # (her welcome came before the game)
            host.play(random.Random(3), stop=lambda view: view["phase"] == "vote")
            government = (host.view["candidate"], host.view["nominee"])
            vote = _standin_vote(host, seat)
        finally:
            ctx.close()
        errors: list[str] = []
        for lang in LANGUAGES:  # each a new device: each is told once
            words = _catalog(lang)
            ctx, page = _page(chromium, grace_server, cid["token"], lang)
            page.on("pageerror", lambda e: errors.append(str(e)))
            try:
                page.goto(url)
                notice = page.locator(".forced-notice")
                notice.wait_for(timeout=20000)
                assert _say(words, "standin.title.absent") in notice.inner_text()
                names = [n.strip() for n in page.locator(".seat .seat-name").all_inner_texts()]
                on = _say(
                    words,
                    "history.government",
                    president=names[government[0]],
                    chancellor=names[government[1]],
                )
                ballots = [
                    _say(words, "standin.move.vote_on", government=on, vote=words[f"vote.{v}"])
                    for v in ("ja", "nein")
                ]
                shown = notice.locator(".forced-moves li").all_inner_texts()
                # the vote, as the stand-in cast it, on the government it was
                assert shown[-1] in ballots, (lang, shown)
                mark = _say(words, "log.standin.absent", name="Cid")
                log = page.locator(".area-log .log-list")
                assert mark in log.inner_text(), lang
                assert _say(words, "log.voted", name="Cid") in log.inner_text(), lang
                assert not missing_keys(page) and MISSING not in page.content()
                if lang in ("en", "ru"):
                    page.screenshot(path=str(shots / f"returning-notice-{lang}-390.png"))
                    page.locator(".area-log").scroll_into_view_if_needed()
                    page.locator(".area-log").screenshot(
                        path=str(shots / f"returning-log-{lang}-390.png")
                    )
                notice.get_by_role("button", name=words["app.ok"]).click()
                assert page.locator(".forced-notice").count() == 0
                page.reload()  # dismissed on this device: not told again, the log keeps the mark
                page.locator(".area-log .log-list", has_text=mark).wait_for(timeout=20000)
                assert page.locator(".forced-notice").count() == 0
                assert not errors, errors
            finally:
                ctx.close()
    assert vote["action"]["seat"] == seat


def _move_words(words: dict[str, str], record: dict[str, Any], k: int, names: list[str]) -> str:
    """The line the page must show for action ``k`` of ``record``, made by a stand-in: read
    from the record itself (a vote names the government of the last nomination before it)."""
    a = record["actions"][k]
    name = names[a["target"]] if "target" in a else ""
    kind = a["type"]
    if kind == "vote":
        nomination = next(x for x in reversed(record["actions"][:k]) if x["type"] == "nominate")
        government = _say(
            words,
            "history.government",
            president=names[nomination["seat"]],
            chancellor=names[nomination["target"]],
        )
        vote = words["vote.ja" if a["ja"] else "vote.nein"]
        return _say(words, "standin.move.vote_on", government=government, vote=vote)
    if kind in ("discard", "enact"):
        return _say(words, f"standin.move.{kind}", policy=words[f"policy.{a['policy']}"])
    if kind == "veto_response":
        return words["standin.move.veto_accepted" if a["accept"] else "standin.move.veto_refused"]
    if kind == "veto":
        return words["standin.move.veto"]
    return _say(words, f"standin.move.{kind}", name=name)


def test_a_person_back_after_the_game_ended_is_their_seat_and_told(grace_server, chromium) -> None:
    """Cid closes the tab; his stand-in plays his moves to the end of the game. Back on the
    finished table he is shown as his seat (not "Spectator mode"): the roles revealed with his
    own marked, whether he won, the board and the log, and what was played for him, each vote
    with its government, in the five languages; the chat is read-only."""
    ann, cid = grace_server.session("Ann"), grace_server.session("Cid")
    bots = {str(s): "random" for s in range(2, 5)}
    table = grace_server.api("POST", "/api/tables", {"players": 5, "bots": bots}, ann["token"])
    tid, url = table["id"], f"{grace_server.url}/#/t/{table['id']}"
    with SocketPlayer(grace_server, ann["token"], tid) as host:
        ctx, page = _page(chromium, grace_server, cid["token"], "en")
        try:
            page.goto(url)
            page.get_by_role("button", name="Join").first.click()
            page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
        finally:
            ctx.close()  # Cid goes away for good
        _started(host)
        host.play(random.Random(5))  # Ann plays to the end; Cid's stand-in plays for him
        deadline = time.monotonic() + 20
        while grace_server.api("GET", f"/api/tables/{tid}")["status"] != "finished":
            assert time.monotonic() < deadline, "the end was not committed"
            time.sleep(0.05)
        ended = grace_server.api("GET", f"/api/games/{tid}/welcome", None, cid["token"])
        record = grace_server.api("GET", f"/api/games/{tid}/record")
        seat = ended["seat"]
        assert seat is not None and ended["away"], ended["away"]
        shots = Path(os.environ.get("SH_SHOTS", "/tmp"))
        errors: list[str] = []
        for lang in LANGUAGES:  # each a new device: each is told once
            words = _catalog(lang)
            ctx, page = _page(chromium, grace_server, cid["token"], lang)
            page.on("pageerror", lambda e: errors.append(str(e)))
            try:
                page.goto(url)
                notice = page.locator(".forced-notice")
                notice.wait_for(timeout=20000)
                assert _say(words, "standin.title.absent") in notice.inner_text()
                assert page.locator(".status-bar .spectating").count() == 0, lang
                over = page.locator(".area-action .gameover")
                mine = over.locator(".roles-revealed .reveal-row.mine")
                assert mine.count() == 1 and "Cid" in mine.inner_text(), lang
                assert over.locator(".you-result").inner_text() in (
                    words["gameover.you_won"],
                    words["gameover.you_lost"],
                )
                assert page.locator(".area-board .board").is_visible()
                names = [n.strip() for n in page.locator(".seat .seat-name").all_inner_texts()]
                shown = notice.locator(".forced-moves li").all_inner_texts()
                want = [_move_words(words, record, k, names) for k in ended["away"]]
                assert shown == want, (lang, shown, want)
                mark = _say(words, "log.standin.absent", name="Cid")
                assert mark in page.locator(".area-log .log-list").inner_text(), lang
                assert page.locator(".area-chat .chat-hint").inner_text() == words["chat.closed"]
                assert page.locator(".area-chat .chat-form").is_hidden()
                assert not missing_keys(page) and MISSING not in page.content()
                if lang in ("en", "ru"):
                    page.screenshot(path=str(shots / f"returning-ended-{lang}-390.png"))
                notice.get_by_role("button", name=words["app.ok"]).click()
                assert page.locator(".forced-notice").count() == 0
                page.reload()  # told once on this device
                page.locator(".area-action .gameover").wait_for(timeout=20000)
                assert page.locator(".forced-notice").count() == 0
                assert not errors, errors
            finally:
                ctx.close()
