"""The lobby's form while the lobby is still loading: what a person types survives the lobby's
second render (after ``/api/me`` and ``/api/bots`` answer), and the field keeps the focus.

This was the flaky browser tests' cause: the render moved the focused name field out of the page
and back, so it lost the focus between Playwright's focus and its typing (or between a person's
keystrokes); the name stayed empty, "Create table" asked for a name and no table page came.
A signed-in player who clicks before ``/api/me`` has answered (the name field still empty) got
the same request for a name: the lobby now waits for the user and takes the account's name.
The tables list is drawn again only when the tables changed, so a poll does not take a button
from under a tap."""

from __future__ import annotations

import time
from typing import Any

import pytest
from web_support import sign_in

FOCUSED = "() => document.activeElement && document.activeElement.id"


@pytest.mark.parametrize("field", ["name", "table-name"])
def test_typing_goes_on_across_the_lobbys_second_render(
    web_server: Any, new_context: Any, field: str
) -> None:
    page = new_context(width=390, height=844).new_page()
    held: list[Any] = []

    def hold(route: Any) -> None:  # the lobby's boot waits here until the route is released
        held.append(route)

    page.route("**/api/bots", hold)
    page.goto(web_server.url + "/")
    page.wait_for_selector("#name")
    deadline = time.monotonic() + 20
    while not held:  # the lobby asks for the bot levels once it knows the user
        assert time.monotonic() < deadline, "the lobby never asked for /api/bots"
        page.wait_for_timeout(20)

    page.click(f"#{field}")
    page.keyboard.type("Slow")
    # the lobby renders again (then asks for the tables) while the field has the focus
    with page.expect_request(lambda r: r.url.endswith("/api/tables")):
        held[0].continue_()
    assert page.evaluate(FOCUSED) == field
    page.keyboard.type(" game")
    assert page.locator(f"#{field}").input_value() == "Slow game"

    if field != "name":
        page.fill("#name", "Host")
    page.select_option("#bots", "3")  # one seat stays free: the table waits
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/#/t/*", timeout=20000)
    table_id = page.url.split("#/t/", 1)[1].split("?")[0]
    table = web_server.api("GET", f"/api/tables/{table_id}")
    if field == "name":
        assert table["host_name"] == "Slow game"
    else:
        assert (table["name"], table["host_name"]) == ("Slow game", "Host")


def test_a_signed_in_player_who_creates_before_the_lobby_knows_him_keeps_his_name(
    web_server: Any, new_context: Any
) -> None:
    """Signed in (the session cookie alone), Create is clicked before ``/api/me`` has answered,
    while the name field is still empty: the table is created under the account's name instead
    of asking for a display name."""
    host = web_server.session("Early Bird")
    ctx = new_context(width=390, height=844)
    sign_in(ctx, web_server.url, host["token"])
    page = ctx.new_page()
    held: list[Any] = []
    released = False

    def hold(route: Any) -> None:  # /api/me waits here until released
        route.continue_() if released else held.append(route)

    page.route("**/api/me", hold)
    page.goto(web_server.url + "/")
    page.wait_for_selector("form.create")
    assert page.locator("#name").input_value() == ""
    page.select_option("#bots", "3")  # one seat stays free: the table waits
    page.get_by_role("button", name="Create table").click()
    deadline = time.monotonic() + 20
    while len(held) < 2:  # the lobby's boot and the click both wait for the user
        assert time.monotonic() < deadline, page.locator(".error-box").inner_text()
        page.wait_for_timeout(20)
    assert page.locator(".error-box").inner_text() == ""
    released = True
    for route in held:
        route.continue_()
    page.wait_for_url("**/#/t/*", timeout=20000)
    table_id = page.url.split("#/t/", 1)[1].split("?")[0]
    assert web_server.api("GET", f"/api/tables/{table_id}")["host_name"] == "Early Bird"


def _a_tables_poll(response: Any) -> bool:
    """The answer to the lobby's poll of the tables."""
    return bool(response.request.method == "GET" and response.url.endswith("/api/tables"))


def test_a_poll_with_no_news_leaves_the_tables_buttons_where_they_are(
    web_server: Any, new_context: Any
) -> None:
    """A list drawn anew under a tap loses it (its press and release on two buttons): the
    lobby's poll (every 4 s) draws the tables again only when they changed."""
    host = web_server.session("Poller")["token"]
    first = web_server.api("POST", "/api/tables", {"players": 5, "seat": None}, token=host)
    page = new_context(width=390, height=844).new_page()
    page.goto(web_server.url + "/")
    join = page.locator(f"[data-fkey=join-{first['id']}]")
    join.wait_for(timeout=15_000)
    button = join.element_handle()
    for _ in range(2):  # after the second, the first one's answer has been drawn
        with page.expect_response(_a_tables_poll, timeout=15_000):
            pass
    assert button.evaluate("b => b.isConnected")
    second = web_server.api("POST", "/api/tables", {"players": 6, "seat": None}, token=host)
    page.locator(f"[data-fkey=join-{second['id']}]").wait_for(timeout=15_000)  # news is drawn
