"""The waiting room: the bot levels are the server's (``GET /api/bots`` "offered" and
"default"), and what a host or a visitor has chosen or typed survives the room's redraws, which
come with every table update (someone joins, a bot sits down)."""

from __future__ import annotations

from typing import Any

from web_support import Server


def test_levels_come_from_the_server_and_choices_survive_table_updates(
    web_server: Server, new_context: Any
) -> None:
    host, ben = web_server.session("Hana"), web_server.session("Ben")
    t = web_server.api(
        "POST", "/api/tables", {"players": 5, "auto_start": False}, token=host["token"]
    )["id"]
    bots = web_server.api("GET", "/api/bots")

    page = new_context(width=390, height=844, token=host["token"]).new_page()
    page.goto(f"{web_server.url}/#/t/{t}")
    level = page.locator("#fill-level")
    level.wait_for(timeout=20000)
    page.wait_for_function(
        "n => document.querySelectorAll('#fill-level option').length === n",
        arg=len(bots["offered"]),
        timeout=20000,
    )
    options = level.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert options == bots["offered"] and "tutorial" not in options
    assert level.input_value() == bots["default"]

    chosen = next(name for name in bots["offered"] if name != bots["default"])
    level.select_option(chosen)
    page.uncheck("#fill-bots")

    # a visitor, not yet named, types a name while the table changes under him
    visitor = new_context(width=390, height=844).new_page()
    visitor.goto(f"{web_server.url}/#/t/{t}")
    visitor.locator("#join-name").wait_for(timeout=20000)
    visitor.click("#join-name")
    visitor.keyboard.type("Vi")

    web_server.api("POST", f"/api/tables/{t}/join", {}, token=ben["token"])  # a table update
    page.locator(".wait-seat", has_text="Ben").wait_for(timeout=20000)
    visitor.locator(".wait-seat", has_text="Ben").wait_for(timeout=20000)
    assert level.input_value() == chosen
    assert not page.is_checked("#fill-bots")
    visitor.keyboard.type("ola")
    assert visitor.locator("#join-name").input_value() == "Viola"

    # the host's chosen level is the one a bot gets
    page.locator("[data-fkey='add-bot-2']").click()
    page.locator(".wait-seat.kind-bot").wait_for(timeout=20000)
    seats = web_server.api("GET", f"/api/tables/{t}")["seats"]
    assert [s["level"] for s in seats if s["kind"] == "bot"] == [chosen]
    assert level.input_value() == chosen


def test_the_start_button_stays_while_a_seat_is_taken(web_server, new_context) -> None:
    """The waiting room is drawn again at every table update, child by child: a seat taken
    changes the seats, not the host's buttons, so her tap on Start is not lost under it."""
    hostess = web_server.session("Hostess")
    table = web_server.api(
        "POST", "/api/tables", {"players": 5, "auto_start": False}, token=hostess["token"]
    )
    page = new_context(width=390, height=844, token=hostess["token"]).new_page()
    page.goto(f"{web_server.url}/#/t/{table['id']}")
    start = page.locator(".waiting-room [data-fkey=start]")
    start.wait_for(timeout=15_000)
    button = start.element_handle()
    bobby = web_server.session("Bobby")
    web_server.api("POST", f"/api/tables/{table['id']}/join", {"seat": 1}, bobby["token"])
    page.locator(".wait-seat .seat-name", has_text="Bobby").wait_for(timeout=15_000)
    assert button.evaluate("b => b.isConnected")
    assert page.locator(".waiting-chat").count() == 1  # the chat stays beside the room
