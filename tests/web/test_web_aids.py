"""The memory aids of the table page (js/aids.js, js/history.js) in a real Chromium at phone
size: notes kept in the browser per game and seat, the game's "not Hitler" marks (the engine's
``proven_not_hitler``), claim conflicts highlighted, and each aid switched off per table."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from web_support import play_until_over

from secret_hitler.engine import Action, Game
from secret_hitler.engine.history import governments

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def _bot_table(web_server: Any, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    user = web_server.session(name)
    bots = {str(s): "random" for s in range(1, 5)}
    table = web_server.api("POST", "/api/tables", {"players": 5, "bots": bots}, token=user["token"])
    return user, table


def _open(new_context: Any, web_server: Any, user: dict[str, Any], table: dict[str, Any]) -> Any:
    page = new_context(width=390, height=844, token=user["token"]).new_page()
    page.goto(f"{web_server.url}/#/t/{table['id']}")
    page.wait_for_selector(".table-grid:not([hidden]) .seat .note-button", timeout=20000)
    return page


def test_a_note_is_kept_across_a_reload_and_each_aid_switches_off(web_server, new_context):
    user, table = _bot_table(web_server, "Noa")
    page = _open(new_context, web_server, user, table)
    assert page.locator(".seat.mine .note-button").count() == 0  # no note on oneself
    page.locator('.seat[data-seat="2"] .note-button').click()
    page.fill("#note-text", "Voted Nein on a 3-liberal government")
    page.locator(".note-dialog").get_by_role("button", name="Save note").click()
    note = page.locator('.seat[data-seat="2"] .note-text')
    assert note.inner_text() == "Voted Nein on a 3-liberal government"
    page.reload()
    page.wait_for_selector('.seat[data-seat="2"] .note-text', timeout=20000)
    assert note.inner_text() == "Voted Nein on a 3-liberal government"
    assert page.locator('.seat[data-seat="3"] .note-text').count() == 0  # per seat
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "aids-notes-390.png"), full_page=True)

    # each aid off, for this table only, remembered across a reload
    page.locator(".aids summary").click()
    page.locator('input[data-aid="notes"]').uncheck()
    assert page.locator(".seat .note-button").count() == 0
    page.locator('input[data-aid="history"]').uncheck()
    page.locator('input[data-aid="claims"]').uncheck()
    assert page.locator(".area-history").is_hidden()
    page.reload()
    page.wait_for_selector(".table-grid:not([hidden]) .seat", timeout=20000)
    assert page.locator(".seat .note-button").count() == 0
    assert page.locator(".area-history").is_hidden()
    other_user, other = _bot_table(web_server, "Noa2")
    page2 = _open(new_context, web_server, other_user, other)  # another table: aids on
    assert page2.locator(".area-history").is_visible()


def test_not_hitler_marks_follow_the_engine_and_switch_off(web_server, new_context):
    """At the end every role is public, so the engine proves everyone but Hitler not Hitler; the
    marks show exactly ``proven_not_hitler`` of the last update, and go with the switch."""
    user, table = _bot_table(web_server, "Mark")
    page = _open(new_context, web_server, user, table)
    rng = random.Random(11)
    play_until_over(page, rng)
    roles = web_server.api("GET", f"/api/games/{table['id']}/record", token=user["token"])["roles"]
    marked = page.locator(".seat:has(.badge-not_hitler)")
    page.wait_for_function("document.querySelectorAll('.seat .badge-not_hitler').length === 4")
    seats = sorted(int(marked.nth(i).get_attribute("data-seat")) for i in range(marked.count()))
    assert seats == [s for s, r in enumerate(roles) if r != "hitler"]
    hitler = roles.index("hitler")
    assert "Hitler" in page.locator(f'.seat[data-seat="{hitler}"] .seat-role').inner_text()
    page.screenshot(path=str(SHOTS / "aids-marks-390.png"), full_page=True)
    page.locator(".aids summary").click()
    page.locator('input[data-aid="marks"]').uncheck()
    assert page.locator(".seat .badge-not_hitler").count() == 0


CONFLICT = """async (governments) => {
  const { renderHistory } = await import('/static/js/history.js');
  const ctx = { view: { names: ['A', 'B', 'C', 'D', 'E'], players: 5 }, table: null };
  const list = renderHistory(ctx, governments, { claims: true, governments: true });
  const off = renderHistory(ctx, governments, { claims: false, governments: true });
  const rows = [...list.querySelectorAll('.history-row')];
  return {
    rows: rows.map((r) => [r.classList.contains('has-conflict'), r.querySelectorAll('.claim-conflict').length, r.innerText]),
    off: off.querySelectorAll('.history-claims').length,
  };
}"""


def _claimed_governments() -> list[dict[str, Any]]:
    """Two governments that each enact a fascist policy from a hand of F, F, L; the first's
    claims say so (FFL, then FF), the second's chancellor claims two liberals (FFL, then LL),
    as the server sends them (the engine's judgement, engine/history.py)."""
    F, L = "fascist", "liberal"
    deck = [F, F, L, F, F, L] + [L] * 4 + [F] * 7
    roles = ["liberal", "liberal", "liberal", "fascist", "hitler"]
    game = Game(5, "official", 0, roles=roles, first_president=0, deck=deck)
    for president, chancellor, claimed in ((0, 1, [F, F]), (1, 2, [L, L])):
        game.apply(Action.nominate(president, chancellor))
        for seat in range(5):
            game.apply(Action.vote(seat, True))
        game.apply(Action.discard(president, L))
        game.apply(Action.enact(chancellor, F))
        game.apply(Action.claim_policies(president, "president_hand", [F, F, L]))
        game.apply(Action.claim_policies(chancellor, "chancellor_hand", claimed))
    return [g.to_json() for g in governments(game.view(None).events)]


def test_conflicting_claims_are_highlighted(web_server, new_context):
    """FFL then FF agree (the President discarded the L); FFL then LL cannot both be true: the
    engine says so and the page shows it as it is."""
    page = new_context(width=390, height=844).new_page()
    page.goto(web_server.url + "/")
    page.wait_for_selector("#lang-select")
    got = page.evaluate(CONFLICT, _claimed_governments())
    assert [r[:2] for r in got["rows"]] == [[False, 0], [True, 2]]
    assert "Claims conflict" in got["rows"][1][2] and "Claims conflict" not in got["rows"][0][2]
    assert got["off"] == 0
