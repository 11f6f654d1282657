"""Two people at one table: the second never sees the first one's secrets, neither on the page
nor in the WebSocket frames it received (role, hand, peek, investigation result)."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from web_support import FrameLog, act_once

from secret_hitler.engine import game_from_record
from secret_hitler.engine.events import PRIVATE_EVENT_TYPES
from secret_hitler.talk.narrate import narrate, told_json

PRIVATE_TYPES = PRIVATE_EVENT_TYPES  # the engine's list, not a copy


def _private_lines(page) -> list[str]:
    return page.locator(".log-list .private .log-text").all_inner_texts()


def _seat(page) -> int:
    return int(page.locator(".seat.mine").get_attribute("data-seat"))


def _last_view(frames: FrameLog) -> dict[str, Any] | None:
    for m in reversed(frames.messages):
        if m.get("type") in ("welcome", "update") and m.get("view"):
            return m["view"]
    return None


def _events_since_last_welcome(frames: FrameLog) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for m in frames.messages:
        if m.get("type") == "welcome":
            events = list((m.get("view") or {}).get("events") or [])
        elif m.get("type") == "update":
            events.extend(m.get("events") or [])
    return events


def _check_dom(
    b_page, a_seat: int, b_view_now: Any, a_secrets: set[str], b_secrets: set[str]
) -> None:
    # One snapshot of the page (text, own secret lines, A's role badge, cards in the action area),
    # between two readings of B's latest view: the page may show either state.
    before = b_view_now()
    snap = b_page.evaluate(
        """(seat) => ({text: document.body.innerText,
                  own: [...document.querySelectorAll('.log-list .private .log-text')].map(e => e.innerText),
                  role: document.querySelectorAll(`.seat[data-seat="${seat}"] .seat-role`).length,
                  cards: document.querySelectorAll('.area-action .decision .card').length})""",
        a_seat,
    )
    after = b_view_now()
    text = snap["text"]
    b_secrets.update(snap["own"])
    for sentence in a_secrets - b_secrets:
        assert sentence not in text, f"the second player sees the first one's secret: {sentence!r}"
    if after is None or after["phase"] == "game_over":
        return
    # A's role appears on B's page only if B's own view knows it (fascists know each other);
    # knowledge only grows, so the later view is the one to compare with
    if after["known_roles"][a_seat] is None:
        assert snap["role"] == 0
    # B holds no policies: B's page shows no hand
    if not (before and before["hand"]) and not after["hand"]:
        assert snap["cards"] == 0


def test_a_second_player_never_sees_the_first_ones_secrets(web_server, new_context) -> None:
    a_ctx = new_context(width=1366, height=768)
    b_ctx = new_context(width=390, height=844)
    a = a_ctx.new_page()
    b = b_ctx.new_page()

    b_frames = FrameLog(b)
    errors: list[str] = []
    for p in (a, b):
        p.on("pageerror", lambda e: errors.append(str(e)))

    # Ann creates a 5-seat table with 3 bots; Ben takes the last seat from the lobby list.
    a.goto(web_server.url + "/")
    a.fill("#name", "Ann")
    a.select_option("#players", "5")
    a.select_option("#bots", "3")
    a.get_by_role("button", name="Create table").click()
    a.wait_for_selector(".waiting-room .wait-seats", timeout=15000)
    table_id = re.search(r"#/t/([^?]+)", a.url).group(1)

    b.goto(web_server.url + "/")
    b.fill("#name", "Ben")
    card = b.locator(".table-card", has=b.locator(f'[data-fkey="join-{table_id}"]'))
    assert card.locator("h3").inner_text(timeout=15000) == "Ann's table"  # after its host
    card.get_by_role("button", name="Join").click(timeout=15000)
    for p in (a, b):
        p.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    a_seat, b_seat = _seat(a), _seat(b)
    assert a_seat != b_seat

    # both reveal their cards, so that every secret each one holds is written on its page
    for p in (a, b):
        p.get_by_role("button", name="Tap to reveal").click()
    assert a.locator("#role-secret .role-badge").count() == 1

    rng = random.Random(7)
    a_secrets: set[str] = set()
    b_secrets: set[str] = set()
    deadline = time.monotonic() + 240
    rounds = 0
    while time.monotonic() < deadline:
        if a.locator(".gameover").count() and b.locator(".gameover").count():
            break
        acted = act_once(a, rng) | act_once(b, rng)
        rounds += 1
        if rounds % 3 == 0 or not acted:
            a_secrets.update(_private_lines(a))
            _check_dom(b, a_seat, lambda: _last_view(b_frames), a_secrets, b_secrets)
        if not acted:
            a.wait_for_timeout(50)
    else:
        raise AssertionError("the game did not end in time")
    assert a_secrets, "the first player had secrets on the page"
    assert any(s.startswith("Your secret role") for s in a_secrets)

    # -- the frames Ben received -------------------------------------------------------------
    overs = b_frames.of_type("game_over")
    assert overs, "Ben received the record at the end"
    record = overs[-1]["record"]
    game = game_from_record({k: v for k, v in record.items() if k not in ("id", "chat")})
    # each with what the narrator tells of it, from Ben's own log alone
    visible = game.visible_events(b_seat)
    told = narrate([e.json for e in visible])
    expected = [{**e.to_json(), "told": told_json(t)} for e, t in zip(visible, told, strict=True)]
    received = _events_since_last_welcome(b_frames)
    assert received == expected, "Ben's events are exactly the events his seat may see"
    for e in received:
        if e["type"] == "role":
            assert e["seat"] == b_seat
    secret_of_a = [e.to_json() for e in game.events if e.audience == (a_seat,)]
    assert secret_of_a, "Ann had private events"
    b_roles = game.roles[b_seat].value
    for m in b_frames.messages:
        view = m.get("view") if m.get("type") in ("welcome", "update") else None
        if not view:
            continue
        assert view["seat"] == b_seat
        if view["phase"] != "game_over" and b_roles == "liberal":
            assert view["known_roles"][a_seat] is None
        for legal in m.get("legal") or []:
            assert legal["seat"] == b_seat
    # nothing in Ben's frames before the end names Ann's role
    a_role = game.roles[a_seat].value
    for m in b_frames.messages:
        if m.get("type") == "game_over":
            break
        view = m.get("view") if m.get("type") in ("welcome", "update") else None
        if view and view["phase"] != "game_over" and view["known_roles"][a_seat] is not None:
            assert b_roles != "liberal" and view["known_roles"][a_seat] == a_role
    assert not errors
