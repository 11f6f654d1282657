"""The replay viewer steps through a finished game with views computed by the server."""

from __future__ import annotations

import json
import time

import pytest
from web_support import missing_keys

from secret_hitler.engine import Action, game_from_record
from secret_hitler.talk.narrate import narrate, told_json


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
    assert step == f"Step 0 of {total}"  # a replay opens at the deal
    assert page.get_by_role("button", name="First").is_disabled()
    page.get_by_role("button", name="Last").click()
    page.wait_for_function(
        "t => document.querySelector('.step-label').textContent === `Step ${t} of ${t}`", arg=total
    )
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
    shown = game.view(seat)
    told = narrate(shown.events)  # each event with what the narrator tells this view of it
    out = shown.to_json()
    out["events"] = [{**e, "told": told_json(t)} for e, t in zip(out["events"], told, strict=True)]
    return {
        "game_id": game_id,
        "step": step,
        "steps": len(actions),
        "action": actions[step - 1] if step else None,
        "view": out,
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
    assert page.locator(".step-label").inner_text() == f"Step 0 of {total}"
    assert "step=0" in asked[0]
    page.get_by_role("button", name="Last").click()
    page.wait_for_function(
        "t => document.querySelector('.step-label').textContent === `Step ${t} of ${t}`", arg=total
    )
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


def test_replay_rounds_link_chat_and_paging(web_server, new_context) -> None:
    """Jump to a round, a link to the moment (step and view) that opens the same moment, the
    table chat in time order, and the list of finished games page by page."""
    host = web_server.session("Rita")
    bots = {str(s): "random" for s in range(5)}
    table = web_server.api(
        "POST",
        "/api/tables",
        {"players": 5, "bots": bots, "seat": None, "auto_start": False},
        token=host["token"],
    )
    tid = table["id"]
    ctx = new_context(width=360, height=740, token=host["token"])
    page = ctx.new_page()
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.wait_for_selector('.table-page[data-conn="open"] #chat-input')
    for line in ("first", "second", "third"):
        page.fill("#chat-input", line)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "t => [...document.querySelectorAll('.chat-text')].some(e => e.textContent === t)",
            arg=line,
        )
    web_server.api("POST", f"/api/tables/{tid}/start", {}, token=host["token"])
    deadline = time.monotonic() + 60
    while web_server.api("GET", f"/api/tables/{tid}")["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    end = web_server.api("GET", f"/api/games/{tid}/replay")
    page.goto(f"{web_server.url}/#/replay/{tid}")
    page.wait_for_selector(".replay-controls")
    # the chat, in time order
    page.wait_for_selector(".replay-chat")
    assert page.locator(".replay-chat .chat-text").all_inner_texts() == ["first", "second", "third"]
    # jump to round 3
    third = next(r for r in end["rounds"] if r["round"] == 3)
    page.select_option("#replay-round", str(third["step"]))
    page.wait_for_function(
        "s => document.querySelector('.step-label').textContent.startsWith(`Step ${s} `)",
        arg=third["step"],
    )
    page.select_option("#replay-view", "1")
    page.wait_for_selector(".log-list .private")
    # the address names the moment; opened elsewhere it shows the same moment
    url = page.evaluate("location.href")
    assert f"step={third['step']}" in url and "view=1" in url
    other = new_context(width=1366, height=768).new_page()
    other.goto(url)
    other.wait_for_selector(".replay-controls")
    assert other.locator(".step-label").inner_text().startswith(f"Step {third['step']} ")
    assert other.locator("#replay-view").input_value() == "1"
    assert other.locator("#replay-round").input_value() == str(third["step"])
    assert not missing_keys(page)

    # the list, page by page (two pages of the server's answer, stubbed here)
    def games(route) -> None:
        from urllib.parse import parse_qs, urlparse

        q = parse_qs(urlparse(route.request.url).query)
        first = "before" not in q
        body = {
            "games": [
                {
                    "id": f"g{'A' if first else 'B'}{i}",
                    "players": 5,
                    "names": ["Bot 1"] * 5,
                    "rules": "official",
                    "winner": "liberal",
                    "reason": "liberal_policies",
                }
                for i in range(int(q["limit"][0]) if first else 3)
            ],
            "next": 1700000000.5 if first else None,
        }
        assert first or q["before"] == ["1700000000.5"]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/api/games?*", games)
    page.goto(f"{web_server.url}/#/replay")
    page.wait_for_selector(".table-card")
    shown = page.locator(".table-card").count()
    page.get_by_role("button", name="More games").click()
    page.wait_for_function(
        "n => document.querySelectorAll('.table-card').length === n", arg=shown + 3
    )
    assert page.get_by_role("button", name="More games").count() == 0
    assert "Бот" not in page.locator("main").inner_text()


def test_a_record_file_keeps_its_64_bit_seed(
    web_server, new_context, finished_game, tmp_path
) -> None:
    """A record file that leaves its deal to the seed replays in the page: the page sends the
    file as written, not through JSON.parse, which would round a 64-bit seed to a double and
    deal other cards."""
    from secret_hitler.engine import replay

    record = web_server.api("GET", f"/api/games/{finished_game}/record")
    bare = {k: v for k, v in record.items() if k not in ("roles", "first_president", "deck")}
    bare.pop("reshuffles", None)
    assert bare["seed"] > 2**53 and replay(bare).ok
    rounded = {**bare, "seed": int(float(bare["seed"]))}
    assert rounded["seed"] != bare["seed"] and not replay(rounded).ok  # the file's seed matters
    path = tmp_path / "seeded.json"
    path.write_text(json.dumps(bare))
    ctx = new_context(width=390, height=844)
    page = ctx.new_page()
    page.goto(f"{web_server.url}/#/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".replay-controls")
    page.get_by_role("button", name="Last").click()
    total = len(bare["actions"])
    page.wait_for_function(
        "t => document.querySelector('.step-label')?.textContent === `Step ${t} of ${t}`",
        arg=total,
    )
    assert page.locator(".seat .seat-role").count() == 5
    assert not page.locator(".replay-page .error").count()
    assert not missing_keys(page)


def test_a_page_that_answers_late_draws_nothing_over_the_next(
    web_server, new_context, finished_game, tmp_path
) -> None:
    """The replays list is still loading when a record file is opened: the list's answer, when
    it comes, draws nothing over the replay that replaced it (before, it drew the list over it,
    and the replay's controls were gone)."""
    record = web_server.api("GET", f"/api/games/{finished_game}/record")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    page = new_context(width=390, height=844).new_page()
    held: list = []

    def hold(route) -> None:  # the list's request waits here until released
        held.append(route)

    page.route("**/api/games?*", hold)
    page.goto(f"{web_server.url}/#/replay")
    page.wait_for_function("() => document.querySelector('#record-file')")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".replay-controls")
    assert len(held) == 1
    with page.expect_response("**/api/games?*") as answer:
        held[0].continue_()
    answer.value.finished()
    # the list reads its answer and draws (where it draws) before the next two frames
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.locator(".replay-controls").is_visible()
    assert not page.locator("#record-file").count()  # the list is not drawn
    assert "#/replay/file" in page.url


def test_the_pause_button_stays_while_the_game_plays_through(
    web_server, new_context, finished_game
) -> None:
    """A play-through draws a step every 1.2 s; its Pause button is the same element across
    the steps, so a tap whose press and release straddle a step still pauses (before, every
    step drew the controls anew and such a tap was lost). A kept Next goes on from the step
    shown, not from the one it was drawn at. The page's clock is Playwright's: a step comes
    when the test moves it on."""
    page = new_context(width=390, height=844).new_page()
    page.clock.install()
    page.goto(f"{web_server.url}/#/replay/{finished_game}")
    page.wait_for_selector(".replay-controls")
    label = "k => document.querySelector('.step-label').textContent.startsWith(`Step ${k} `)"
    page.get_by_role("button", name="Play").click()  # step 1 at once, then one every 1.2 s
    page.wait_for_function(label, arg=1)  # (First and Previous now enabled: a new row)
    pause = page.get_by_role("button", name="Pause").element_handle()
    page.clock.run_for(1300)
    page.wait_for_function(label, arg=2)  # two steps drawn under the button
    assert pause.evaluate("b => b.isConnected")
    pause.click()
    page.get_by_role("button", name="Play").wait_for()
    page.clock.run_for(2500)  # paused: no step comes
    shown = 2
    assert page.locator(".step-label").inner_text().startswith(f"Step {shown} ")
    next_button = page.get_by_role("button", name="Next").element_handle()
    for k in (shown + 1, shown + 2):  # the same button twice: one step each
        next_button.click()
        page.wait_for_function(label, arg=k)
        assert next_button.evaluate("b => b.isConnected")
