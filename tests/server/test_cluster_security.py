"""Two nodes on one PostgreSQL and one Redis (docs/security.md "A cluster's messages"):

- every revocation made on one node (a new password, a deleted account, signing out everywhere)
  and a ban made with ``secret-hitler admin`` reach the other node at once: a token it had seen
  stops working there, and its sockets there (local or relayed) close, within 2 s;
- messages published on Redis by anyone but a node (a forged request, a forged attach, a
  recorded message played again, a sealed one with a flipped byte) do nothing, and a sealed
  request for a route that is not forwarded is not served;
- on a Redis run as docs/deploy.md advises (TLS only, no default user, the game's ACL user),
  whoever reads every channel reads no credential, user, invite code, role or frame: what the
  nodes say is encrypted, and a forwarded request carries the user, not her credentials.
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis as sync_redis
import redis.asyncio as aioredis
import websockets
from cluster_support import ChannelTap, Redis, find_redis, start_nodes
from server_support import Client, HttpError, Server, http, me_status, session, wait_for
from typer.testing import CliRunner
from websec_support import json_post, raw

from secret_hitler.cli import app
from secret_hitler.server.cluster.signing import Seal, open_once
from secret_hitler.server.core.config import Settings

WITHIN = 2.0  # seconds a revocation may take to reach every node (issue 29)
SECRET = "test-secret"  # the nodes' SH_SECRET (LiveServer's default)


async def _closed_by(c: Client, code: str) -> None:
    """The socket is told ``code`` and closed, within ``WITHIN`` seconds."""
    m = await c.recv_until(lambda m: m["type"] == "error", timeout=WITHIN)
    assert m["code"] == code, m
    with pytest.raises(websockets.ConnectionClosed):  # (a timeout would fail the test)
        while True:
            await c.recv(WITHIN)


async def _sockets_on(node: Server, token: str, tables: list[str]) -> list[Client]:
    out = []
    for t in tables:
        c = Client(node, token, f"socket {t}")
        assert (await c.connect(t)) is not None
        out.append(c)
    return out


@dataclass
class Cluster:
    a: Server
    b: Server
    redis_url: str
    database: str


@pytest.fixture
def cluster(
    redis: Redis,
    make_server: Any,
    database: str,
) -> Cluster:
    """Nodes A and B; bans are read from the database only every 60 s: what reaches a node
    sooner was announced."""
    a, b = start_nodes(make_server, database, redis, 2, SH_MODERATION_REFRESH="60")
    return Cluster(a, b, redis.url, database)


@pytest.mark.timeout(180)
def test_revocations_on_one_node_reach_the_other_at_once(cluster: Cluster) -> None:
    a, b = cluster.a, cluster.b
    tables = [  # one owned by each node: B holds a local socket and a relayed one
        http(node, "POST", "/api/tables", {"players": 5}, session(node, f"Host {i}"))["id"]
        for i, node in enumerate((a, b))
    ]

    def account(name: str) -> tuple[str, str, dict[str, str]]:
        """An account with a session made on A and one made (and seen) on B."""
        body = {"username": name, "password": f"{name} password"}
        on_a = http(a, "POST", "/api/account", body, session(a, name))["token"]
        on_b = http(b, "POST", "/api/signin", body)["token"]
        assert me_status(b, on_b) == 200
        return on_a, on_b, body

    async def run() -> None:
        # a new password on A: B's session of the account ends, A's own stays
        on_a, on_b, body = account("pat")
        sockets = await _sockets_on(b, on_b, tables)
        change = {"password": "pat new password", "current_password": body["password"]}
        await asyncio.to_thread(http, a, "PATCH", "/api/account", change, on_a)
        for c in sockets:
            await _closed_by(c, "signed_out")
        assert me_status(b, on_b) == 401 and me_status(b, on_a) == 200

        # the account deleted on A
        on_a, on_b, body = account("rex")
        sockets = await _sockets_on(b, on_b, tables)
        await asyncio.to_thread(
            http, a, "DELETE", "/api/account", {"password": body["password"]}, on_a
        )
        for c in sockets:
            await _closed_by(c, "signed_out")
        assert me_status(b, on_b) == 401

        # signed out everywhere on A
        on_a, on_b, _ = account("sue")
        sockets = await _sockets_on(b, on_b, tables)
        await asyncio.to_thread(http, a, "POST", "/api/logout", {"everywhere": True}, on_a)
        for c in sockets:
            await _closed_by(c, "signed_out")
        assert me_status(b, on_b) == 401

        # banned with ``secret-hitler admin`` (as the nodes are configured)
        on_a, on_b, _ = account("tom")
        user_id = http(b, "GET", "/api/me", token=on_b)["user_id"]
        sockets = await _sockets_on(b, on_b, tables)
        env = {
            "DATABASE_URL": cluster.database,
            "REDIS_URL": cluster.redis_url,
            "SH_SECRET": SECRET,
        }
        result = await asyncio.to_thread(
            CliRunner().invoke, app, ["admin", "ban", "user", user_id], env=env
        )
        assert result.exit_code == 0, result.output
        for c in sockets:
            await _closed_by(c, "banned")
        assert me_status(b, on_b) == 403 and me_status(a, on_a) == 403

    asyncio.run(run())


def _refused_messages(node: Server) -> float:
    with urllib.request.urlopen(node.url + "/metrics", timeout=10) as r:
        text = r.read().decode()
    m = re.search(r"^sh_cluster_refused_messages_total (\S+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


@pytest.mark.timeout(120)
def test_messages_published_on_redis_by_others_do_nothing(cluster: Cluster) -> None:
    a, b = cluster.a, cluster.b
    host = session(a, "Host")
    victim = http(a, "GET", "/api/me", token=host)
    tid = http(a, "POST", "/api/tables", {"players": 5}, host)["id"]  # A owns it: seat 0 is hers
    key = Settings(secret=SECRET).cluster_key()
    user = {"id": victim["user_id"], "name": "Host", "session": None}

    async def run() -> None:
        r = aioredis.from_url(cluster.redis_url)
        answers = r.pubsub()
        await answers.subscribe("sh:c:forged-1", "sh:c:forged-2", "sh:c:sealed-1", "sh:c:sealed-2")
        tap = r.pubsub()
        await tap.subscribe("sh:n:node0")  # what node B sends node A
        before = _refused_messages(a)
        # 1. unsealed: a request as the victim, an attach to her seat, a fake sign-out
        create = {
            "method": "POST",
            "path": "/api/tables",
            "query": "",
            "headers": [["content-type", "application/json"]],
            "client": ["127.0.0.1", 1],
            "user": user,
            "body": "eyJwbGF5ZXJzIjogNX0=",  # {"players": 5}
        }
        forged = [
            {"op": "http", "cid": "forged-1", "node": "node1", "request": create},
            {"op": "attach", "cid": "forged-2", "node": "node1", "table": tid, "user": user},
        ]
        for msg in forged:
            await r.publish("sh:n:node0", json.dumps(msg))
        await r.publish("sh:all", json.dumps({"op": "signed_out", "user": victim["user_id"]}))
        wait_for(lambda: _refused_messages(a) >= before + 3)
        # refused on arrival, before anything could be answered: nothing was
        assert await answers.get_message(ignore_subscribe_messages=True, timeout=0) is None
        assert me_status(a, host) == 200

        # 2. a message of node B, recorded and played again
        watcher = Client(b, session(b, "Watcher"), "watcher")
        await watcher.connect(tid)  # relayed: B sends A an attach
        recorded = None
        while recorded is None:
            m = await tap.get_message(ignore_subscribe_messages=True, timeout=5)
            if m is not None and '"op":"attach"' in (open_once(key, "sh:n:node0", m["data"]) or ""):
                recorded = m["data"]  # (sealed: found with the nodes' key)
        before = _refused_messages(a)
        await r.publish("sh:n:node0", recorded)
        wait_for(lambda: _refused_messages(a) >= before + 1)
        await watcher.close()

        # 3. sealed with the nodes' key, for a route that is not forwarded (and one that is,
        # naming a session that does not exist: nobody)
        seal = Seal(key, "node1")
        delete = {**create, "method": "DELETE", "path": "/api/account", "body": ""}
        sealed = {"op": "http", "cid": "sealed-1", "node": "node1", "request": delete}
        await r.publish("sh:n:node0", seal.seal("sh:n:node0", json.dumps(sealed)))
        join = {**create, "path": f"/api/tables/{tid}/leave", "body": "", "user": user}
        sealed = {"op": "http", "cid": "sealed-2", "node": "node1", "request": join}
        await r.publish("sh:n:node0", seal.seal("sh:n:node0", json.dumps(sealed)))
        got = {}
        while len(got) < 2:
            m = await answers.get_message(ignore_subscribe_messages=True, timeout=5)
            if m is not None:
                channel = m["channel"].decode()
                opened = open_once(key, channel, m["data"])
                assert opened is not None  # the node's answer is sealed too
                got[channel] = json.loads(opened)
        assert got["sh:c:sealed-1"]["status"] == 404  # not a forwarded route: not served
        assert got["sh:c:sealed-2"]["status"] == 401  # no live session: nobody
        await answers.aclose()
        await tap.aclose()
        await r.aclose()

    asyncio.run(run())
    assert http(a, "GET", "/api/me", token=host)["user_id"] == victim["user_id"]  # not deleted
    seats = http(a, "GET", f"/api/tables/{tid}")["seats"]
    assert seats[0]["user_id"] == victim["user_id"]  # still seated
    hosted = [t for t in http(a, "GET", "/api/tables")["tables"] if t["host"] == victim["user_id"]]
    assert [t["id"] for t in hosted] == [tid]  # no table made in her name


# ---------------------------------------------------------------------- what Redis shows
def _documented_acl() -> list[str]:
    """The game's ACL rules as docs/deploy.md gives them (the user, its password left out)."""
    doc = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    line = next(s.strip() for s in doc.splitlines() if s.strip().startswith(ACL_LINE))
    return line.removeprefix(ACL_LINE).split()


ROOT = Path(__file__).resolve().parents[2]
ACL_LINE = "user secret-hitler on >LONG-RANDOM-PASSWORD "
GAME = ("secret-hitler", "game-password-1")
ADMIN = ("admin", "admin-password-1")  # the test's own, to read Redis's log of refusals
SPY = ("spy", "spy-password-1")  # anyone who may read (and write) every channel


@pytest.fixture
def advised_redis() -> Iterator[Redis]:
    """A Redis as docs/deploy.md advises: TLS only, no default user, the game's ACL user."""
    binary = find_redis()
    if binary is None:
        pytest.skip("no redis-server (scripts/install-system-deps.sh installs it)")
    users = [
        ["default", "off"],
        [GAME[0], "on", f">{GAME[1]}", *_documented_acl()],
        [ADMIN[0], "on", f">{ADMIN[1]}", "~*", "&*", "+@all"],
        [SPY[0], "on", f">{SPY[1]}", "&*", "+@pubsub", "+@connection"],
    ]
    r = Redis(binary, [a for u in users for a in ("--user", *u)], user=GAME, tls=True).start()
    try:
        yield r
    finally:
        r.cleanup()


def test_a_sealed_message_opens_once_on_its_channel_with_its_key_only() -> None:
    """signing.Seal without a Redis: the payload is not in the message; it opens once (a copy
    played again does not), on its own channel, with the nodes' key; a flipped bit anywhere, in
    the header or the ciphertext, and a message of another cluster are refused."""
    key = Settings(secret=SECRET).cluster_key()
    payload = '{"op":"attach","user":{"id":"u_secret"},"invite":"inv-secret"}'
    sender = Seal(key, "node1")
    sealed = sender.seal("sh:n:node0", payload)
    assert b"secret" not in sealed and b"attach" not in sealed
    receiver = Seal(key, "node0")
    assert receiver.open("sh:n:node1", sealed) is None  # moved to another channel
    for i in range(len(sealed)):
        for bit in (0x01, 0x80):
            spoilt = bytearray(sealed)
            spoilt[i] ^= bit
            assert receiver.open("sh:n:node0", bytes(spoilt)) is None, (i, bit)
    other = Seal(Settings(secret="another cluster").cluster_key(), "node1")
    assert receiver.open("sh:n:node0", other.seal("sh:n:node0", payload)) is None
    assert receiver.open("sh:n:node0", sealed) == payload
    assert receiver.open("sh:n:node0", sealed) is None  # played again
    assert receiver.open("sh:n:node0", sender.seal("sh:n:node0", payload)) == payload
    # two processes of one node seal under keys of their own (no nonce is shared)
    twin = Seal(key, "node1")
    assert twin.sender != sender.sender
    assert twin.seal("sh:n:node0", payload).split(b"|", 4)[4] != sealed.split(b"|", 4)[4]


def _request(method: str, path: str, user: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "method": method,
        "path": path,
        "query": "",
        "headers": [],
        "client": ["127.0.0.1", 1],
        "user": user,
        "body": "",
    }


@pytest.mark.timeout(180)
def test_an_eavesdropper_on_redis_reads_nothing_the_nodes_say(
    advised_redis: Redis,
    make_server: Any,
    database: str,
) -> None:
    """Issue 37 point 2: a private table owned by node A is looked up (Bearer token), joined
    (cookie) and played through node B, so that B forwards the requests and relays the socket:
    what Redis carries holds no credential and nothing of the game in the clear, and what it
    carries opens, with the nodes' key, to the users as B authenticated them (no credential
    forwarded) and to the seat's role. A sealed message with one byte flipped is refused."""
    a, b = start_nodes(make_server, database, advised_redis, 2, SH_SESSION_RATE="5/minute")
    key = Settings(secret=SECRET).cluster_key()
    host, guest = session(a, "Hana"), session(b, "Gus")
    who = {t: http(a, "GET", "/api/me", token=t)["user_id"] for t in (host, guest)}
    bots = {"2": "random", "3": "random", "4": "random"}
    table = http(a, "POST", "/api/tables", {"players": 5, "public": False, "bots": bots}, host)
    tid, invite = table["id"], table["invite"]

    async def run() -> tuple[list[tuple[str, bytes]], str]:
        spy = await ChannelTap(advised_redis.url_as(*SPY), "*").start()  # reads it all
        found = await asyncio.to_thread(http, b, "GET", f"/api/invite/{invite}", token=guest)
        assert found["id"] == tid  # forwarded to A, with the Bearer token's user
        body = json.dumps({"seat": 1, "invite": invite})
        joined = await asyncio.to_thread(
            raw, b, "POST", f"/api/tables/{tid}/join", json_post(guest, b.url)[0], body
        )
        assert joined.status == 200 and joined.json["status"] == "playing"  # (by the cookie)
        c = Client(b, guest, "relayed")
        welcome = await c.connect(tid, query=f"?invite={invite}")
        assert welcome is not None and welcome["seat"] == 1
        role = welcome["view"]["role"]
        await c.send({"v": 1, "type": "chat", "id": "c1", "text": "trust me, I am liberal"})
        await c.recv_until(lambda m: m["type"] == "ack")
        await c.close()
        return await spy.stop(), role

    published, role = asyncio.run(run())
    channels = {ch.split(":")[1] for ch, _ in published}
    assert {"n", "c", "t"} <= channels, channels  # requests, answers and frames went by
    secrets_ = [host, guest, invite, *who.values(), "Gus", "Hana", "trust me", "liberal"]
    secrets_ += ["authorization", "cookie", "Bearer", "sh_session", '"role"', '"type"', '"op"']
    for channel, data in published:
        assert data.startswith(b"s2|"), channel  # sealed
        for secret in secrets_:
            assert secret.encode().lower() not in data.lower(), (secret, channel)

    # with the key, the same messages are the game's traffic: the forwarded requests name the
    # user B authenticated and carry none of her credentials; the relayed frames her role
    opened = [(ch, open_once(key, ch, data)) for ch, data in published]
    assert all(text is not None for _, text in opened)
    requests = [
        json.loads(text)["request"]
        for ch, text in opened
        if ch == "sh:n:node0" and text and '"op": "http"' in text
    ]
    assert {r["path"] for r in requests} >= {f"/api/invite/{invite}", f"/api/tables/{tid}/join"}
    for r in requests:
        assert r["user"]["id"] == who[guest]
        assert not {k.lower() for k, _ in r["headers"]} & {"authorization", "cookie"}, r
    frames = "".join(t or "" for ch, t in opened if ch.startswith(("sh:c:", "sh:t:")))
    assert f'"role":"{role}"' in frames.replace(" ", "")

    def probe(cid: str) -> str:
        """A sealed request's payload: the private table's detail, with its invite code."""
        request = _request("GET", f"/api/tables/{tid}", None)
        request["query"] = f"invite={invite}"
        return json.dumps({"op": "http", "cid": cid, "node": "node1", "request": request})

    async def flipped() -> dict[str, Any]:
        r = aioredis.from_url(advised_redis.url_as(*SPY))
        answers = r.pubsub()
        await answers.subscribe("sh:c:flip-1", "sh:c:flip-2", "sh:c:flip-3")
        seal = Seal(key, "node1")
        before = _refused_messages(a)
        for cid, spoil in (("flip-1", -5), ("flip-2", 6)):  # in the ciphertext, in the header
            sealed = bytearray(seal.seal("sh:n:node0", probe(cid)))
            sealed[spoil] ^= 1
            await r.publish("sh:n:node0", bytes(sealed))
        await asyncio.to_thread(wait_for, lambda: _refused_messages(a) >= before + 2)
        assert await answers.get_message(ignore_subscribe_messages=True, timeout=0) is None
        # the same request unspoilt is served: the refusals were the flipped bytes'
        await r.publish("sh:n:node0", seal.seal("sh:n:node0", probe("flip-3")))
        answer = None
        while answer is None:
            m = await answers.get_message(ignore_subscribe_messages=True, timeout=5)
            if m is not None:
                answer = open_once(key, m["channel"].decode(), m["data"])
                assert m["channel"] == b"sh:c:flip-3"
        await answers.aclose()
        await r.aclose()
        return dict(json.loads(answer))

    answer = asyncio.run(flipped())
    assert answer["status"] == 200 and json.loads(answer["body"])["id"] == tid

    # the rate limits count in Redis under the game's ACL user, across both nodes (2 sessions
    # so far, 5 a minute from one address)
    for node in (a, b, a):
        session(node, "Ivy")
    with pytest.raises(HttpError) as refused:
        session(b, "Jo")
    assert (refused.value.status, refused.value.code) == (429, "rate_limited")
    # nothing the nodes did was refused by the ACL, and no one gets in without a user
    admin = sync_redis.Redis.from_url(advised_redis.url_as(*ADMIN))
    try:
        denied = [e for e in admin.acl_log() if e.get("username") == GAME[0]]
        assert denied == [], denied
    finally:
        admin.close()
    anonymous = sync_redis.Redis.from_url(advised_redis.url.replace(f"{GAME[0]}:{GAME[1]}@", ""))
    with pytest.raises(sync_redis.exceptions.AuthenticationError):
        anonymous.ping()
    anonymous.close()
