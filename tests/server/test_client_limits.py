"""GET /api/limits: the lengths the server accepts of what people type, from the one place each
is kept, for clients that keep no copy (docs/protocol.md "Rules and bots"). A server started
with another chat limit says that limit and holds its chat to exactly it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_support import Client, Server, ahttp, http, session

from secret_hitler.server.accounts.auth import NAME_MAX
from secret_hitler.server.accounts.users import PASSWORD_MAX, PASSWORD_MIN
from secret_hitler.server.competition.limits import LIMIT_RANGE
from secret_hitler.server.lobby.moderation import REASON_MAX
from secret_hitler.server.lobby.webhooks import URL_MAX
from secret_hitler.server.table.options import REACTIONS


async def _chat_at_the_limit(server: Server, limit: int) -> None:
    token = session(server, "Ann")
    table = (await ahttp(server, "POST", "/api/tables", {"players": 5}, token))["id"]
    ann = Client(server, token, "ann")
    await ann.connect(table)

    async def say(text: str) -> dict[str, Any]:
        await ann.send({"v": 1, "type": "chat", "id": str(len(text)), "text": text})
        return await ann.recv_until(lambda m: m["type"] in ("ack", "error"))

    assert (await say("x" * limit))["type"] == "ack"
    refused = await say("x" * (limit + 1))
    assert (refused["type"], refused["code"]) == ("error", "chat_too_long")
    assert str(limit) in refused["message"]
    await ann.close()


@pytest.mark.timeout(60)
def test_the_limits_are_the_servers_own_and_the_chat_holds_to_its_setting(
    make_server: Any,
) -> None:
    server = make_server(
        SH_CHAT_MAX="120",
        SH_RATED_MIN_GAMES="7",
        SH_RATED_MIN_AGE="7200",
        SH_AFK_AFTER="90",
        SH_NEWBIE_GAMES="4",
    )
    assert http(server, "GET", "/api/limits") == {
        "chat_max": 120,
        "name_max": NAME_MAX,
        "password_min": PASSWORD_MIN,
        "password_max": PASSWORD_MAX,
        "webhook_max": URL_MAX,
        "report_max": REASON_MAX,
        "rated_min_games": 7,
        "rated_min_hours": 2,
        "afk_after": 90,
        "reactions": list(REACTIONS),
        "newbie_games": 4,
        "rating_limit_range": list(LIMIT_RANGE),
    }
    asyncio.run(_chat_at_the_limit(server, 120))
