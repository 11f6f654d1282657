"""The lengths of what people type reach the page from the server's configuration (GET
/api/limits): a server started with another chat limit (SH_CHAT_MAX) gets a page whose chat
field allows exactly that many characters, counts up to it and says it when the server refuses
a longer line; the name fields hold to the server's name length."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from web_support import Server

from secret_hitler.server.accounts.auth import NAME_MAX

CHAT_MAX = 120  # not the default (300): the page can only have it from this server


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(Path(tmp_path_factory.mktemp("web-limits")), SH_CHAT_MAX=str(CHAT_MAX)).start()
    try:
        yield server
    finally:
        server.stop()


def test_the_chat_allows_exactly_the_servers_limit(web_server, new_context) -> None:
    host = web_server.session("Lim")
    table = web_server.api("POST", "/api/tables", {"players": 5}, token=host["token"])
    page = new_context(width=390, height=844, token=host["token"]).new_page()
    page.goto(f"{web_server.url}/#/t/{table['id']}")
    page.wait_for_selector('.table-page[data-conn="open"] #chat-input')
    field = page.locator("#chat-input")
    assert field.get_attribute("maxlength") == str(CHAT_MAX)
    assert page.locator(".chat-count").inner_text() == f"0/{CHAT_MAX}"
    field.click()
    page.keyboard.type("y" * (CHAT_MAX + 5))  # typed: the field stops at the limit
    assert field.input_value() == "y" * CHAT_MAX
    assert page.locator(".chat-count").inner_text() == f"{CHAT_MAX}/{CHAT_MAX}"
    page.keyboard.press("Enter")
    page.wait_for_selector(".chat-msg")
    assert page.locator(".chat-msg .chat-text").inner_text() == "y" * CHAT_MAX  # accepted
    # a longer line that gets past the field (set by a script): the server's refusal, in the
    # page's words with the server's limit
    field.evaluate("(el, n) => { el.value = 'z'.repeat(n); }", CHAT_MAX + 1)
    page.keyboard.press("Enter")
    page.wait_for_selector(".error-box:has-text('at most 120 characters')")
    assert page.locator(".chat-msg").count() == 1


def test_the_name_fields_hold_to_the_servers_name_length(web_server, new_context) -> None:
    page = new_context(width=390, height=844).new_page()
    page.goto(web_server.url + "/")
    page.wait_for_selector("form.create")
    assert page.locator("#name").get_attribute("maxlength") == str(NAME_MAX)
    assert page.locator("#table-name").get_attribute("maxlength") == str(NAME_MAX)
    limits = web_server.api("GET", "/api/limits")
    assert page.locator("#webhook").get_attribute("maxlength") == str(limits["webhook_max"])
    assert page.locator("#signin-username").get_attribute("maxlength") == str(NAME_MAX)
