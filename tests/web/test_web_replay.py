"""The replay viewer steps through a finished game with views computed by the server."""

from __future__ import annotations

import json
import time

import pytest
from web_support import missing_keys

from secret_hitler.engine import Action, game_from_record


def _finished_table(web_server) -> str:
    user = web_server.session("Rae")
    bots = {str(s): "random" for s in range(5)}
    table = web_server.api(
        "POST", "/api/tables", {"players": 5, "bots": bots, "seat": None}, token=user["token"]
    )
    deadline = time.monotonic() + 60
    while web_server.api("GET", f"/api/tables/{table['id']}")["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    return str(table["id"])


@pytest.fixture(scope="module")
def finished_game(web_server) -> str:
    return _finished_table(web_server)


def test_replay_viewer_steps_through_a_finished_game(
    web_server, new_context, finished_game
) -> None:
    ctx = new_context(width=1366, height=768)
    page = ctx.new_page()
    page.goto(web_server.url + "/#/replay")
    page.locator(f'a[href="#/replay/{finished_game}"]').click()
    page.wait_for_selector(".replay-controls")
    step = page.locator(".step-label").inner_text()
    total = int(step.split()[-1])
    assert step == f"Step {total} of {total}"
    assert page.locator(".seat .seat-role").count() == 5  # the end: every role revealed
    page.get_by_role("button", name="First").click()
    page.wait_for_function(
        "() => document.querySelector('.step-label').textContent.startsWith('Step 0 ')"
    )
    assert page.locator(".seat .seat-role").count() == 0  # a spectator at the deal knows nothing
    page.get_by_role("button", name="Next").click()
    page.wait_for_function(
        "() => document.querySelector('.step-label').textContent.startsWith('Step 1 ')"
    )
    page.select_option("#replay-view", "0")
    page.wait_for_selector(".log-list .private")
    assert "Your secret role" in page.locator(".log-list").inner_text()
    assert not missing_keys(page)


def _answer(record: dict, game_id: str, step: int | None, view: str) -> dict:
    """docs/protocol.md section 6, computed here with the engine (as the server would)."""
    clean = {k: v for k, v in record.items() if k not in ("id", "chat")}
    game = game_from_record(clean, apply_actions=False)
    actions = clean["actions"]
    step = len(actions) if step is None else step
    for a in actions[:step]:
        game.apply(Action.from_json(a))
    seat = None if view == "spectator" else int(view)
    return {
        "game_id": game_id,
        "step": step,
        "steps": len(actions),
        "action": actions[step - 1] if step else None,
        "view": game.view(seat).to_json(),
    }


def test_replay_viewer_against_the_documented_endpoint(web_server, new_context) -> None:
    """The viewer follows docs/protocol.md section 6 (answered here by the engine, so that the
    client is tested even while the server lacks the endpoint)."""
    game_id = _finished_table(web_server)
    record = web_server.api("GET", f"/api/games/{game_id}/record")
    ctx = new_context(width=390, height=844)
    page = ctx.new_page()
    asked: list[str] = []

    def handle(route) -> None:
        from urllib.parse import parse_qs, urlparse

        q = parse_qs(urlparse(route.request.url).query)
        asked.append(route.request.url)
        step = int(q["step"][0]) if "step" in q else None
        body = _answer(record, game_id, step, q.get("view", ["spectator"])[0])
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(f"**/api/games/{game_id}/replay*", handle)
    page.goto(f"{web_server.url}/#/replay/{game_id}")
    page.wait_for_selector(".replay-controls")
    total = len(record["actions"])
    assert page.locator(".step-label").inner_text() == f"Step {total} of {total}"
    assert page.locator(".seat .seat-role").count() == 5
    assert "The game is over" in page.locator(".log-list").inner_text()
    page.get_by_role("button", name="First").click()
    page.wait_for_function(
        "() => document.querySelector('.step-label').textContent.startsWith('Step 0 ')"
    )
    assert page.locator(".seat .seat-role").count() == 0
    assert page.locator(".track-count").all_inner_texts() == ["0/5", "0/6"]
    for k in (1, 2, 3):
        page.get_by_role("button", name="Next").click()
        page.wait_for_function(
            f"() => document.querySelector('.step-label').textContent.startsWith('Step {k} ')"
        )
    page.select_option("#replay-view", "2")
    page.wait_for_selector(".log-list .private")
    assert "Your secret role" in page.locator(".log-list").inner_text()
    assert "view=2" in asked[-1] and "step=3" in asked[-1]
    # play runs by itself
    page.get_by_role("button", name="Play").click()
    page.wait_for_function(
        "() => !document.querySelector('.step-label').textContent.startsWith('Step 3 ')",
        timeout=5000,
    )
    page.get_by_role("button", name="Pause").click()
    assert not missing_keys(page)
