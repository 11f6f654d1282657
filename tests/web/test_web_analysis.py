"""The replay viewer's analysis panel: per-seat bars from the chosen point of view and the
seat's moves the bot would play differently (GET /api/games/{id}/analysis, POST for files)."""

from __future__ import annotations

import json

from test_web_replay import _finished_table
from web_support import missing_keys


def test_analysis_panel_of_a_finished_game_and_of_a_file(web_server, new_context, tmp_path) -> None:
    game_id = _finished_table(web_server)
    ctx = new_context(width=1366, height=768)
    page = ctx.new_page()
    page.goto(f"{web_server.url}/#/replay/{game_id}")
    page.wait_for_selector(".replay-controls")
    page.get_by_role("button", name="Analysis").click()
    page.wait_for_selector(".analysis-seat")
    assert page.locator(".analysis-seat").count() == 5
    # a replay opens at the deal, seen by a spectator: 2 of 5 are fascists
    page.wait_for_function(
        "() => document.querySelector('.bar-fascist .analysis-bar-label').textContent"
        " === 'Fascist 40%'"
    )
    assert "Choose a seat" in page.locator(".area-analysis").inner_text()
    # the end of the game: every role is known, so the bars are 0% or 100%
    page.get_by_role("button", name="Last").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.bar-fascist .analysis-bar-label')]"
        ".every((l) => /^Fascist (0|100)%$/.test(l.textContent))"
    )
    texts = page.locator(".bar-fascist .analysis-bar-label").all_inner_texts()
    assert sorted(texts) == ["Fascist 0%"] * 3 + ["Fascist 100%"] * 2
    page.select_option("#replay-view", "1")
    page.wait_for_selector(".area-analysis h3")
    want = web_server.api("GET", f"/api/games/{game_id}/analysis?view=1")
    marked = [m for m in want["moves"] if m["differs"]]
    assert page.locator(".analysis-moves li").count() == len(marked)
    assert (
        f"{len(marked)} of {len(want['moves'])}" in page.locator(".area-analysis h3").inner_text()
    )
    if marked:  # a random bot's moves: the bayes bot disagrees with some
        page.locator(".analysis-moves li button").first.click()
        page.wait_for_function(
            f"() => document.querySelector('.step-label').textContent"
            f".startsWith('Step {marked[0]['step']} ')"
        )
    assert not missing_keys(page)

    # an uploaded record file is analysed by POST /api/analysis
    record = web_server.api("GET", f"/api/games/{game_id}/record")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    page.goto(f"{web_server.url}/#/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".replay-controls")
    page.get_by_role("button", name="Analysis").click()
    page.wait_for_selector(".analysis-seat")
    assert page.locator(".analysis-seat").count() == 5
    assert not missing_keys(page)
