"""Accounts in the browser: a guest saves an account in the lobby, signs in from a second browser
(a fresh context: no shared cookie), finds the table under "My games" and rejoins it in one tap."""

from __future__ import annotations

import random
import re
from typing import Any

from web_support import MISSING, missing_keys, play_until_over


def test_sign_up_sign_in_elsewhere_and_my_games(web_server: Any, new_context: Any) -> None:
    first = new_context(width=390, height=844).new_page()
    errors: list[str] = []
    first.on("pageerror", lambda e: errors.append(str(e)))
    first.goto(web_server.url + "/")
    first.fill("#name", "Wanda")
    first.select_option("#players", "5")
    first.select_option("#bots", "3")  # one seat stays free: the table waits
    first.select_option("#timer", "86400")  # play-by-post: a day per decision
    first.fill("#table-name", "Slow game")
    first.get_by_role("button", name="Create table").click()
    first.wait_for_url(re.compile(r"#/t/"), timeout=20000)
    table_id = first.url.split("#/t/", 1)[1].split("?")[0]
    first.goto(web_server.url + "/")

    # the guest saves an account; her table is under My games
    first.wait_for_selector("#claim-form", timeout=20000)
    assert first.locator(f'.my-games [data-table="{table_id}"] h3').inner_text() == "Slow game"
    first.fill("#claim-username", "wanda_w")
    first.fill("#claim-password", "a good password")
    first.locator("#claim-form button[type=submit]").click()
    first.wait_for_selector(".account-name", timeout=20000)
    assert first.locator(".account-name").inner_text() == "Signed in as wanda_w"
    assert first.locator(".account-panel").inner_text().count("Signed in as") == 1
    assert first.locator("#password-form").count() == 1

    # a second browser: a wrong password first (one plain message), then the right one
    second = new_context(width=1280, height=900).new_page()
    second.on("pageerror", lambda e: errors.append(str(e)))
    second.goto(web_server.url + "/")
    second.wait_for_selector("#signin-form", timeout=20000)
    assert second.locator(".my-games .empty").inner_text() == "You have no seat at any table yet."
    second.fill("#signin-username", "Wanda_W")
    second.fill("#signin-password", "not the password")
    second.locator("#signin-form button[type=submit]").click()
    second.wait_for_selector(".account-status .error", timeout=20000)
    assert second.locator(".account-status").inner_text() == "Wrong username or password."
    second.fill("#signin-password", "a good password")
    second.locator("#signin-form button[type=submit]").click()
    second.wait_for_selector(".account-name", timeout=20000)
    # said once, and the wrong password's message is gone
    assert second.locator(".account-panel").inner_text().count("Signed in as") == 1
    assert second.locator(".account-status").inner_text() == ""
    card = second.locator(f'.my-games [data-table="{table_id}"]')
    card.wait_for(timeout=20000)
    assert "Waiting" in card.inner_text()
    assert second.locator("#name").input_value() == "Wanda"
    assert MISSING not in second.locator("body").inner_text(), missing_keys(second)
    card.get_by_role("link", name="Open").click()
    second.wait_for_url(re.compile(rf"#/t/{table_id}"), timeout=20000)
    mine = second.locator(".wait-seat:has(.you-tag)")
    mine.wait_for(timeout=20000)
    assert mine.locator(".seat-name").inner_text() == "Wanda"  # the same seat, from elsewhere
    assert mine.locator(".seat-num").inner_text() == "1"
    assert not errors


def test_rematch_from_my_games_in_one_tap(web_server: Any, new_context: Any) -> None:
    page = new_context(width=390, height=844).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web_server.url + "/")
    page.fill("#name", "Rita")
    page.select_option("#players", "5")
    page.select_option("#bots", "4")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    table_id = page.url.split("#/t/", 1)[1].split("?")[0]
    play_until_over(page, random.Random(2))
    page.goto(web_server.url + "/")
    card = page.locator(f'.my-games [data-table="{table_id}"]')
    card.wait_for(timeout=20000)
    assert "Finished" in card.inner_text()
    card.get_by_role("button", name="Rematch").click()
    page.wait_for_url(re.compile(r"#/t/(?!" + table_id + r")"), timeout=20000)
    new_id = page.url.split("#/t/", 1)[1].split("?")[0]
    mine = page.locator(".wait-seat:has(.you-tag)")
    mine.wait_for(timeout=20000)
    assert mine.locator(".seat-name").inner_text() == "Rita"
    assert page.locator(".wait-seat.kind-bot").count() == 4  # the same bots, the same seats
    page.goto(web_server.url + "/")
    old = page.locator(f'.my-games [data-table="{table_id}"]')
    old.wait_for(timeout=20000)
    assert (
        old.get_by_role("link", name="Go to the rematch").get_attribute("href") == f"#/t/{new_id}"
    )
    assert not errors
