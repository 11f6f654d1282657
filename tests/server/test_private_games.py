"""Private stays private (docs/security.md): a private table's finished game, with its chat, is
listed and served only to its host, its players and holders of its invite, until the host
publishes it."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from server_support import Client, HttpError, Server, http, session


def _status(server: Server, path: str, token: str | None = None) -> int:
    try:
        http(server, "GET", path, token=token)
    except HttpError as exc:
        assert exc.code == "not_found", exc.body  # never says that the game exists
        return exc.status
    return 200


def _listed(server: Server, game_id: str, token: str | None = None) -> bool:
    games = http(server, "GET", "/api/games", token=token)["games"]
    return any(g["id"] == game_id for g in games)


async def _play_private_game(server: Server, host: str, player: str) -> dict[str, Any]:
    bots = {str(i): "random" for i in (1, 2, 3)}
    table = await asyncio.to_thread(
        http, server, "POST", "/api/tables", {"players": 5, "public": False, "bots": bots}, host
    )
    await asyncio.to_thread(
        http,
        server,
        "POST",
        f"/api/tables/{table['id']}/join",
        {"invite": table["invite"]},
        player,
    )
    clients = [Client(server, host, "host"), Client(server, player, "player")]
    for c in clients:
        await c.connect(table["id"])
    await clients[0].send({"v": 1, "type": "chat", "text": "our secret plan"})
    rng = random.Random(3)
    await asyncio.gather(*(c.play(random.Random(rng.random())) for c in clients))
    for c in clients:
        await c.close()
    return table  # type: ignore[no-any-return]


@pytest.mark.timeout(120)
def test_private_games_are_shown_to_members_and_invite_holders_only(
    make_server: Any, backend: str
) -> None:
    server: Server = make_server(backend)
    host, player, stranger = (session(server, n) for n in ("Host", "Player", "Stranger"))
    table = asyncio.run(_play_private_game(server, host, player))
    gid, invite = table["id"], table["invite"]
    record = f"/api/games/{gid}/record"
    replay = f"/api/games/{gid}/replay?step=3&view=0"

    for who in (None, stranger):
        assert not _listed(server, gid, who)
        assert _status(server, record, who) == 404
        assert _status(server, replay, who) == 404
        assert _status(server, f"{record}?invite=wrong", who) == 404
    for who in (host, player):
        assert _listed(server, gid, who)
        rec = http(server, "GET", record, token=who)
        assert any(m["text"] == "our secret plan" for m in rec["chat"])
        assert http(server, "GET", replay, token=who)["step"] == 3
    # the invite is the key to the table, and to its game
    assert _status(server, f"{record}?invite={invite}", stranger) == 200
    assert _status(server, f"{replay}&invite={invite}") == 200

    # only the host publishes; a player may not, a stranger does not even see the table
    with pytest.raises(HttpError) as err:
        http(server, "POST", f"/api/tables/{gid}/publish", {}, token=player)
    assert err.value.code == "not_host"
    with pytest.raises(HttpError) as err:
        http(server, "POST", f"/api/tables/{gid}/publish", {}, token=stranger)
    assert err.value.code == "not_found"
    with pytest.raises(HttpError) as err:
        http(server, "POST", f"/api/tables/{gid}/publish", {"published": "yes"}, token=host)
    assert err.value.code == "invalid_request"
    assert not _listed(server, gid)

    out = http(server, "POST", f"/api/tables/{gid}/publish", {}, token=host)
    assert out == {"id": gid, "public": False, "published": True}
    assert _listed(server, gid) and _listed(server, gid, stranger)
    assert _status(server, record) == 200 and _status(server, replay) == 200
    # published survives a restart (the table is then served from the database)
    server.stop()
    server.start()
    assert _listed(server, gid) and _status(server, record) == 200
    # and can be taken back
    http(server, "POST", f"/api/tables/{gid}/publish", {"published": False}, token=host)
    assert not _listed(server, gid) and _status(server, record) == 404
    assert _status(server, record, player) == 200
    # the table's own page (stored, finished) follows the same rule
    assert _status(server, f"/api/tables/{gid}", stranger) == 404
    assert _status(server, f"/api/tables/{gid}", player) == 200


@pytest.mark.timeout(120)
def test_public_games_stay_listed_for_everyone(server: Server) -> None:
    token = session(server, "Host")
    bots = {str(i): "random" for i in range(5)}
    table = http(server, "POST", "/api/tables", {"players": 5, "bots": bots, "seat": None}, token)

    async def wait_over() -> None:
        c = Client(server, None)
        await c.connect(table["id"])
        await c.recv_until(lambda m: m["type"] == "game_over", timeout=60)
        await c.close()

    asyncio.run(wait_over())
    assert _listed(server, table["id"])
    assert _status(server, f"/api/games/{table['id']}/record") == 200
