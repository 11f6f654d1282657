"""Rated games on a real server, played as the rules want them (docs/competitive.md): each
player an account of her own, each from an address of her own (through a trusted proxy: the
server believes ``X-Forwarded-For`` from 127.0.0.1), test clients playing random moves."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

from server_support import Client, Server, http

#: A server that takes rated seats from new accounts without finished games, and believes the
#: addresses the test clients say they come from.
RATED_ENV = {"SH_TRUSTED_PROXIES": "127.0.0.1", "SH_RATED_MIN_AGE": "0", "SH_RATED_MIN_GAMES": "0"}


@dataclass
class Person:
    token: str
    user_id: str
    name: str
    addr: str
    device: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def headers(self) -> dict[str, str]:
        out = {"X-Forwarded-For": self.addr, **self.extra}
        if self.device is not None:
            out["Cookie"] = f"sh_device={self.device}"
        return out


def account(server: Server, name: str, addr: str, device: str | None = None) -> Person:
    """A guest made from ``addr`` who claims an account (her token is the account's)."""
    headers = {"X-Forwarded-For": addr}
    guest = http(server, "POST", "/api/session", {"name": name}, headers=headers)
    claimed = http(
        server,
        "POST",
        "/api/account",
        {"username": name, "password": "a good password"},
        guest["token"],
        headers=headers,
    )
    return Person(claimed["token"], guest["user_id"], name, addr, device)


def people(server: Server, n: int, prefix: str = "Player", net: str = "198.51.100") -> list[Person]:
    return [account(server, f"{prefix}{i}", f"{net}.{i + 1}") for i in range(n)]


def ask(server: Server, who: Person, method: str, path: str, body: Any = None) -> Any:
    """A request of ``who``, from her address and device."""
    return http(server, method, path, body, who.token, headers=who.headers)


async def aask(server: Server, who: Person, method: str, path: str, body: Any = None) -> Any:
    return await asyncio.to_thread(ask, server, who, method, path, body)


async def play_rated(
    servers: list[Server], players: list[Person], seed: int, rated: bool = True
) -> dict[str, Any]:
    """A full game of ``players`` (the first hosts on ``servers[0]``; player i joins and plays
    through ``servers[i % len(servers)]``): its table id and record."""
    rng = random.Random(seed)
    host = servers[0]
    body = {"players": len(players), "rated": rated}
    table = await aask(host, players[0], "POST", "/api/tables", body)
    assert table["rated"] is rated
    tid = table["id"]
    clients = []
    for i, who in enumerate(players):
        node = servers[i % len(servers)]
        c = Client(node, who.token, f"seat{i}", headers=who.headers)
        await c.connect(tid)
        if i:
            await aask(node, who, "POST", f"/api/tables/{tid}/join", {"seat": i})
        clients.append(c)
    await asyncio.gather(*(c.play(random.Random(rng.random())) for c in clients))
    for c in clients:
        await c.close()
    record = clients[0].record
    assert record is not None and record["result"] is not None
    return {"id": tid, "record": record}
