"""One node of many: table ownership by database leases, connections relayed through Redis.

With ``REDIS_URL`` (and PostgreSQL) the server is one node of a cluster (docs/deploy.md):

- every live table is owned by one node, which holds its lease (lease.py) in PostgreSQL and
  renews it every third of ``lease_ttl``; only the owner applies actions, runs bots and timers,
  and each of its writes is fenced by the lease's token in the same transaction;
- a node whose lease was taken (it was stopped past its lease) has its writes refused, drops
  the table and closes its connections (code 1012): the clients reconnect to any node;
- a WebSocket that reaches another node is relayed (relay.py), and so is a lobby request
  about another node's table (forward.py);
- every node looks for orphans (tables whose lease expired: their owner died) and takes them
  over, restoring them from the database like a restart does; a connection to an orphan takes
  it over at once;
- each node keeps a heartbeat key ``sh:alive:{node}`` in Redis: the relayed connections of a
  node whose heartbeat is gone are dropped (on both sides);
- a draining node (SIGTERM, or ``POST /admin/drain`` from loopback) stops its tables' drivers,
  gives its leases up and closes its connections, so other nodes take over at once;
- every message is sealed (encrypted and authenticated) with a key derived from ``SH_SECRET``
  (signing.py): a node acts on nothing that anyone else published on Redis, and whoever reads
  Redis reads none of it (no user, invite code, request or frame); a forwarded request names
  the user the forwarding node authenticated, never the client's credentials (forward.py);
- a revoked session (sign-out, a new password, a deleted account, a new sign-in) and a ban are
  announced on the broadcast channel ``sh:all``: every node forgets the sessions and closes their
  sockets at once. Should a message be lost, each node still re-reads its cached sessions
  (``Sessions``) and those of its open sockets from the database every few seconds.

Without ``REDIS_URL`` none of this exists: the server is the single process it always was.
``Cluster`` is the hub's ownership port on a node of several (``lobby.ownership.Ownership``,
given at wiring: app.py); the hub, the tables and the routes never name it.

It is past 600 lines because ``Cluster`` is one node's life among others: claiming, renewing
and giving up leases, relaying sockets, heartbeats, orphans and draining all run on the node's
loops over the same set of tables it holds; the parts that stand alone are in files of their
own (``lease.py``, ``relay.py``, ``forward.py``, ``signing.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
import sqlalchemy as sa
from redis import exceptions as redis_errors
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from ..core import protocol as P
from ..core.errors import LobbyError
from ..storage import db
from ..storage import queries as S
from ..storage.writer import Write, is_unavailable
from . import lease
from .lease import Fenced, LeaseLost
from .relay import Relay, direct, inbox, serve_remote
from .signing import BROADCAST, Seal

if TYPE_CHECKING:
    from ..accounts.auth import User
    from ..lobby.hub import Hub
    from ..table.services import Writer
    from ..table.session import Table
    from .forward import LobbyForward

log = logging.getLogger("secret_hitler.server.cluster")

FORWARD_TIMEOUT = 10.0  # seconds a node waits for another to answer a forwarded request
REDIS_ERRORS = (redis_errors.ConnectionError, redis_errors.TimeoutError, OSError)
ORPHANS_PER_TICK = 20
REFUSED_LOG_EVERY = 10.0  # seconds between two warnings about refused messages


class Cluster:
    def __init__(
        self, hub: Hub, app: Any, node: str, redis_url: str, ttl: float, key: bytes
    ) -> None:
        self.hub = hub
        self.hub_app = app  # the FastAPI application (forwarded requests run through it)
        self.node = node
        self.ttl = ttl
        self.seal = Seal(key, node)
        self._refused_logged = 0.0
        self.held: dict[str, int] = {}  # table id -> lease token
        self.system_held: dict[str, int] = {}  # a whole-server task's lease -> token
        timeouts: dict[str, Any] = dict(
            socket_connect_timeout=2, socket_timeout=5, health_check_interval=10
        )
        self.redis = aioredis.from_url(redis_url, **timeouts)
        # The subscription has a client of its own on which no error is retried, so that its
        # reader (_reader) is the one coroutine that ever connects it again. redis-py's retry
        # reconnects from whichever coroutine met the error (in its failure handler, even with
        # no retries left), and two reconnecting one socket at once read each other's answers
        # (a RuntimeError, or a handshake reading another command's reply): that once left a
        # node's reader dead and Redis "unavailable" for good.
        never = Retry(NoBackoff(), 0, supported_errors=())
        self._sub_client = aioredis.from_url(redis_url, retry=never, **timeouts)
        self.pubsub = self._sub_client.pubsub()
        self.relay = Relay(self)
        self.draining = False
        self.redis_ok = False
        self._out: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._subs: dict[str, int] = {}  # channel or pattern -> users
        self._confirmed: dict[str, asyncio.Event] = {}
        self._inbox_seen = False
        self._probed_at = 0.0
        self._tasks: list[asyncio.Task[None]] = []
        self._sub_lock = asyncio.Lock()
        self._adopting: set[str] = set()  # tables being taken over right now
        self._missing: set[str] = set()  # leases held for tables not in the hub at last tick

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Join the cluster (before the hub loads its tables); Redis must answer."""
        try:
            await self.pubsub.subscribe(inbox(self.node), BROADCAST)
        except REDIS_ERRORS as exc:  # one clear line, without the URL (it may hold a password)
            raise RuntimeError(f"REDIS_URL: Redis does not answer ({type(exc).__name__})") from None
        self._tasks = [
            asyncio.create_task(self._reader(), name="cluster-reader"),
            asyncio.create_task(self._publisher(), name="cluster-publisher"),
        ]
        await self._heartbeat()
        log.info("cluster node joined", extra={"node": self.node})

    def start_maintenance(self) -> None:
        """(after the hub loaded) renew leases, heartbeat, adopt orphans."""
        self._tasks.append(asyncio.create_task(self._maintain(), name="cluster-maintain"))

    async def drain(self) -> None:
        """Hand every table over: no driver runs, leases given up, clients told to reconnect."""
        if self.draining:
            return
        self.draining = True
        tables = list(self.hub.tables.values())
        for table in tables:
            async with table.lock:  # an action being committed is finished first
                table.driver.halt()
                self._forget_table(table, 1012)
        held, self.held = {**self.held, **self.system_held}, {}
        self.system_held = {}
        if held:  # free at once (a write still in flight is fenced by the token as ever)
            with contextlib.suppress(Exception):
                await self.hub.store.write(lease.release(self.node, held))
        log.info("node drained", extra={"node": self.node, "tables": len(tables)})

    async def close(self) -> None:
        await self.drain()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._flush_out(), 2)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self.redis.delete(f"sh:alive:{self.node}")
        with contextlib.suppress(Exception):
            # untyped in older redis, typed in newer: the ignore may go unused
            await self.pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        with contextlib.suppress(Exception):
            await self._sub_client.aclose()

    # ------------------------------------------------------------------ the ownership port
    @property
    def writer(self) -> Writer:
        """The tables of this node write through the cluster: fenced by their leases."""
        return self

    async def serve_socket(
        self, ws: Any, table_id: str, owner: str, user: User | None, addr: str
    ) -> None:
        """A socket of a table that node ``owner`` serves is relayed to it (relay.py)."""
        await serve_remote(self, ws, table_id, owner, user, addr)

    def health(self) -> dict[str, Any]:
        """This node in ``/healthz``: its id, its leases, Redis."""
        return {
            "node": self.node,
            "leases": len(self.held),
            "redis": "ok" if self.redis_ok else "unavailable",
        }

    def unready(self) -> str | None:
        """A draining node, or one without Redis, gets no new traffic."""
        if self.draining:
            return "draining"
        if not self.redis_ok:
            return "redis unavailable"
        return None

    # ------------------------------------------------------------------ leases
    def fence(self, table_id: str, fn: Write) -> Write:
        token = self.held.get(table_id)
        if token is None:
            raise LeaseLost(table_id)
        return Fenced(table_id, self.node, token, self.ttl, fn)

    async def write(self, table_id: str, fn: Write) -> Any:
        """A write of a table's state, fenced by its lease (the tables' ``Writer`` on a node of
        a cluster, ``table.services``)."""
        try:
            return await self.hub.store.write(self.fence(table_id, fn))
        except LeaseLost:
            log.warning("lease lost: a write was refused", extra={"game_id": table_id})
            table = self.hub.get(table_id)
            if table is not None:
                asyncio.get_running_loop().call_soon(self.lost, table)
            raise P.ProtocolError(
                "moved", "this table is now served by another server: reconnect"
            ) from None

    async def read(self, fn: Write) -> Any:
        return await self.hub.store.read(fn)

    async def system_fence(self, name: str) -> Callable[[Write], Write] | None:
        """The lease of a task one node at a time runs (``Ownership.system_fence``), taken or
        extended now, in the same lease table as the tables' (no table row names it)."""
        if self.draining:
            return None
        token = await self.hub.store.write(lease.acquire(name, self.node, self.ttl))
        if token is None:
            self.system_held.pop(name, None)
            return None
        self.system_held[name] = token
        node, ttl = self.node, self.ttl
        return lambda fn: Fenced(name, node, token, ttl, fn)

    async def claim(self, table_id: str) -> bool:
        if self.draining:
            return False
        token = await self.hub.store.write(lease.acquire(table_id, self.node, self.ttl))
        if token is None:
            return False
        self.held[table_id] = token
        return True

    async def claim_new(self, table_id: str) -> None:
        if not await self.claim(table_id):
            raise LobbyError(503, "unavailable", "this server is stopping; try again")

    async def claim_stored(self, stored: list[S.StoredTable]) -> list[S.StoredTable]:
        out = []
        for st in stored:
            if await self.claim(st.table["id"]):
                out.append(st)
        return out

    async def adopt(self, table_id: str) -> Table | None:
        """Take an orphan over (its lease is free or expired) and restore it from the database."""
        if table_id in self.hub.tables or table_id in self._adopting:
            return self.hub.get(table_id)
        self._adopting.add(table_id)
        try:
            if not await self.claim(table_id):
                return self.hub.get(table_id)
            stored = await self.hub.store.read(lambda conn: S.load_table(conn, table_id))
            if stored is None or stored.table["status"] not in ("waiting", "playing"):
                self.held.pop(table_id, None)
                return None
            table = self.hub.restore(stored)
        finally:
            self._adopting.discard(table_id)
        log.info("table taken over", extra={"game_id": table_id, "node": self.node})
        return table

    async def locate(self, table_id: str) -> Table | str | None:
        """For a connection to a table that is not here: the table (taken over now if it was
        an orphan), the id of the node that owns it, or None (no such live table)."""
        held = await self.hub.store.read(lease.holder(table_id))
        if held is not None:
            owner, _token, expires_at = held
            left = expires_at - time.time()
            if left > 0 and owner != self.node:
                if await self._alive(owner):
                    return str(owner)
                # its node is gone: the lease runs out within ``ttl``, then take the table
                await asyncio.sleep(min(left, self.ttl) + 0.05)
        row = await self.hub.store.read(S.table_row(table_id))
        if row is None or row["status"] not in ("waiting", "playing"):
            return None
        table = await self.adopt(table_id)
        if table is not None:
            return table
        held = await self.hub.store.read(lease.holder(table_id))
        return None if held is None else str(held[0])

    def lost(self, table: Table) -> None:
        """Another node holds the table's lease now: stop everything this node does with it."""
        if self.hub.tables.get(table.id) is not table:
            return
        self.held.pop(table.id, None)
        table.driver.halt()
        self._forget_table(table, 1012)

    def _forget_table(self, table: Table, code: int) -> None:
        hub = self.hub
        if hub.forget(table):
            if table.game is not None and not table.game.finished and table.status == "playing":
                hub.metrics.games_active.dec()
        for c in list(table.conns):
            c.close(code)
        self.relay.forget_table(table.id)

    async def _maintain(self) -> None:
        period = self.ttl / 3
        while True:
            await asyncio.sleep(period * random.uniform(0.8, 1.0))
            try:
                await self._tick()
            except Exception as exc:  # noqa: BLE001 - the next tick tries again
                if is_unavailable(exc) or isinstance(exc, REDIS_ERRORS):
                    log.warning("cluster upkeep failed: %s", type(exc).__name__)
                else:
                    log.exception("cluster upkeep failed")

    async def _tick(self) -> None:
        if self.draining:
            return
        with contextlib.suppress(*REDIS_ERRORS):
            await self._heartbeat()
        # a finished table the hub forgot (absent at two ticks: not one being created now)
        missing = {t for t in self.held if t not in self.hub.tables and t not in self._adopting}
        for table_id in missing & self._missing:
            del self.held[table_id]
        self._missing = missing - self._missing
        held = dict(self.held)
        if held:
            for table_id in await self.hub.store.write(lease.renew(self.node, held, self.ttl)):
                table = self.hub.get(table_id)
                if table is not None and self.held.get(table_id) == held[table_id]:
                    log.warning("lease lost at renewal", extra={"game_id": table_id})
                    self.lost(table)
        for table_id in await self.hub.store.read(lease.orphans(ORPHANS_PER_TICK)):
            try:
                await self.adopt(table_id)
            except Exception:
                log.exception("could not take a table over", extra={"game_id": table_id})
        await self._check_peers()
        self.seal.forget_old()
        await self._recheck_sockets()

    async def _alive(self, node: str) -> bool:
        try:
            return bool(await self.redis.exists(f"sh:alive:{node}"))
        except REDIS_ERRORS:
            return True  # unknown: let the relay find out

    async def _heartbeat(self) -> None:
        await self.redis.set(f"sh:alive:{self.node}", "1", px=int(self.ttl * 1000))

    async def _check_peers(self) -> None:
        """Relayed connections whose other side's node has no heartbeat any more are closed."""
        nodes = {rc.node for rc in self.relay.remote.values()}
        nodes |= {p.owner for p in self.relay.proxies.values()}
        for node in nodes:
            try:
                alive = await self.redis.exists(f"sh:alive:{node}")
            except REDIS_ERRORS:
                return
            if alive:
                continue
            log.warning("node gone: its relayed connections are closed", extra={"node": node})
            self.relay.drop_node(node)
            for proxy in [p for p in self.relay.proxies.values() if p.owner == node]:
                proxy.conn.close(1012)

    # ------------------------------------------------------------------ requests to a node
    async def call(self, node: str, request: dict[str, Any]) -> dict[str, Any] | None:
        """Have ``node`` serve an HTTP request (forward.py); None if it does not answer."""
        rid = f"{self.node}.rpc.{secrets.token_hex(8)}"
        fut: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.relay.calls[rid] = fut
        try:
            if not await self.subscribe(direct(rid)):
                return None
            self.publish(
                inbox(node),
                json.dumps({"op": "http", "cid": rid, "node": self.node, "request": request}),
            )
            answer: dict[str, Any] = json.loads(await asyncio.wait_for(fut, FORWARD_TIMEOUT))
            return answer
        except (TimeoutError, *REDIS_ERRORS):
            return None
        finally:
            self.relay.calls.pop(rid, None)
            await self.unsubscribe(direct(rid))

    async def answer(self, rid: str, request: dict[str, Any]) -> None:
        """(at the node asked) Serve a forwarded request and publish its answer."""
        forward: LobbyForward | None = getattr(self.hub_app.state, "forward", None)
        if forward is None:
            return
        try:
            out = await forward.run(request)
        except Exception:
            log.exception("a forwarded request failed")
            out = {"status": 500, "headers": [], "body": ""}
        self.publish(direct(rid), json.dumps(out))

    def announce_revoked(self, user_id: str) -> None:
        """Tell every node (this one too) that sessions of ``user_id`` were revoked."""
        self.publish(BROADCAST, json.dumps({"op": "signed_out", "user": user_id}))

    async def signed_out(self, user_id: str) -> None:
        """A node revoked sessions of ``user_id``: forget them, close their sockets here."""
        live = set(await self.hub.store.read(_sessions_of(user_id)))
        sessions = getattr(self.hub_app.state, "sessions", None)
        if sessions is not None:
            sessions.revoked_elsewhere(user_id, live)
        conns = self.relay.conns_of(user_id)
        for c in conns:
            if c.user is not None and c.user.session is not None and c.user.session not in live:
                c.send_msg(P.error("signed_out", "this session was signed out"))
                c.close()

    async def _recheck_sockets(self) -> None:
        """The sockets this node holds whose session is gone (a lost announcement) end."""
        held = [
            c
            for c in self.relay.held_sockets()
            if c.user is not None and c.user.session is not None and not c.closed
        ]
        if not held:
            return
        ids = list({c.user.session for c in held if c.user and c.user.session})
        live = set(await self.hub.store.read(_live_sessions(ids)))
        for c in held:
            if c.user is not None and c.user.session not in live:
                c.send_msg(P.error("signed_out", "this session was signed out"))
                c.close()

    async def _moderation_changed(self) -> None:
        """An administrator banned someone (``secret-hitler admin``): read the bans now."""
        moderation = getattr(self.hub_app.state, "moderation", None)
        if moderation is not None:
            await moderation.sync(self.hub)

    def _on_broadcast(self, data: dict[str, Any]) -> None:
        op = data.get("op")
        if op == "signed_out":
            work = self.signed_out(str(data.get("user")))
        elif op == "moderation":
            work = self._moderation_changed()
        else:
            return
        self.relay.spawn(work)

    async def living_nodes(self) -> list[str]:
        try:
            keys = [_text(k) async for k in self.redis.scan_iter("sh:alive:*", count=100)]
        except REDIS_ERRORS:
            return [self.node]
        return sorted(k.removeprefix("sh:alive:") for k in keys)[:1000]

    # ------------------------------------------------------------------ Redis
    def publish(self, channel: str, payload: str | bytes) -> None:
        """Send ``payload`` on ``channel``, sealed (signing.py: encrypted and authenticated), in
        order with the others."""
        self._out.put_nowait((channel, self.seal.seal(channel, payload)))

    async def _flush_out(self) -> None:
        while not self._out.empty():
            await asyncio.sleep(0.01)

    async def _publisher(self) -> None:
        """Every message of this node, in order, on one connection (pipelined)."""
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 500:
                batch.append(self._out.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, payload in batch:
                        pipe.publish(channel, payload)
                    await pipe.execute()
                self.redis_ok = True
            except Exception as exc:  # noqa: BLE001 - the batch is lost whatever failed
                self.redis_ok = False
                log.warning(
                    "redis publish failed (%s)",
                    type(exc).__name__,
                    exc_info=not isinstance(exc, REDIS_ERRORS),
                )
                self.relay.reset("redis unavailable")

    async def subscribe(self, *names: str) -> bool:
        """Subscribe (channels; a name ending in ``*`` is a pattern) and wait for Redis to
        confirm, so that nothing published afterwards is missed: False when it did not (the
        subscription is down, or Redis did not confirm in time). Either way the names count as
        held until ``unsubscribe``, which the caller owes. Exact channels, not patterns, for
        what the nodes say often: Redis matches every message against every pattern."""
        waits = []
        new: list[str] = []
        async with self._sub_lock:
            for name in names:
                self._subs[name] = self._subs.get(name, 0) + 1
                waits.append(self._confirmed.setdefault(name, asyncio.Event()))
                if self._subs[name] == 1:
                    new.append(name)
            if new:
                if not self._subscription_up():
                    return False  # the reader connects it again and resubscribes what it had
                patterns = [n for n in new if n.endswith("*")]
                channels = [n for n in new if not n.endswith("*")]
                try:
                    if patterns:
                        await self.pubsub.psubscribe(*patterns)
                    if channels:
                        await self.pubsub.subscribe(*channels)
                except REDIS_ERRORS:
                    return False
        try:
            for ev in waits:
                await asyncio.wait_for(ev.wait(), 5)
        except TimeoutError:
            return False
        return True

    async def unsubscribe(self, *names: str) -> None:
        async with self._sub_lock:
            gone: list[str] = []
            for name in names:
                n = self._subs.get(name, 0) - 1
                if n > 0:
                    self._subs[name] = n
                    continue
                self._subs.pop(name, None)
                self._confirmed.pop(name, None)
                gone.append(name)
            patterns = [n for n in gone if n.endswith("*")]
            channels = [n for n in gone if not n.endswith("*")]
            if not self._subscription_up():
                # nothing to tell Redis now; the reader must not subscribe them again either
                for held, names_gone in (
                    (self.pubsub.patterns, patterns),
                    (self.pubsub.channels, channels),
                ):
                    for name in names_gone:
                        held.pop(name.encode(), None)  # its keys are bytes (no decoding)
                return
            with contextlib.suppress(*REDIS_ERRORS):
                if patterns:
                    await self.pubsub.punsubscribe(*patterns)
                if channels:
                    await self.pubsub.unsubscribe(*channels)

    async def _let_go(self, name: str) -> None:
        """A name nobody here holds was subscribed (again): redis-py subscribes again, on a new
        connection, what it last knew, which a connection lost before Redis confirmed an
        unsubscribe leaves in."""
        async with self._sub_lock:
            if name in self._subs or not self._subscription_up():
                return
            with contextlib.suppress(*REDIS_ERRORS):
                if name.endswith("*"):
                    await self.pubsub.punsubscribe(name)
                else:
                    await self.pubsub.unsubscribe(name)

    def _subscription_up(self) -> bool:
        """The subscription's connection is open: a (un)subscribe may be sent on it. One that is
        not is opened again by the reader alone (see ``__init__``)."""
        conn = self.pubsub.connection
        return conn is not None and conn.is_connected

    async def _reader(self) -> None:
        """The subscription's one reader, and the one coroutine that connects it again after
        any failure (the connection is dropped, read again, and redis-py resubscribes every
        channel and pattern it held)."""
        backoff = 0.05
        while True:
            try:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=False, timeout=1.0)
            except Exception as exc:  # noqa: BLE001 - whatever broke, start over on a new socket
                self.redis_ok = False
                log.warning(
                    "redis subscription lost (%s); reconnecting",
                    type(exc).__name__,
                    exc_info=not isinstance(exc, REDIS_ERRORS),
                )
                self.relay.reset("redis subscription lost")
                conn = self.pubsub.connection
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.disconnect(nowait=True)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            backoff = 0.05
            if not self.redis_ok:
                await self._probe()
            if msg is None:
                continue
            try:
                self._on_message(msg)
            except Exception:
                log.exception("could not handle a relayed message")

    async def _probe(self) -> None:
        """The subscription reads again, so Redis may be back: a publish that failed late
        (after the subscription came back) must not leave the node reporting Redis away until
        its next publish, which an idle node may never make. At most once a second, however
        busy the subscription is."""
        now = time.monotonic()
        if now - self._probed_at < 1.0:
            return
        self._probed_at = now
        with contextlib.suppress(*REDIS_ERRORS):
            await self.redis.ping()
            self.redis_ok = True

    def _on_message(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        channel = _text(msg["channel"])
        if kind in ("subscribe", "psubscribe"):
            if channel == inbox(self.node):
                if self._inbox_seen:  # re-subscribed after a reconnection: messages were lost
                    self.relay.reset("redis reconnected")
                self._inbox_seen = True
                self.redis_ok = True
            elif channel != BROADCAST and channel not in self._subs:
                self.relay.spawn(self._let_go(channel))
            ev = self._confirmed.get(channel)
            if ev is not None:
                ev.set()
            return
        if kind not in ("pmessage", "message"):
            return
        raw = msg["data"]
        data = self.seal.open_bytes(channel, raw if isinstance(raw, bytes) else str(raw).encode())
        if data is None:  # not from a node, changed, too old, or played again
            self._refused()
            return
        if channel.startswith("sh:t:"):
            parts = channel.split(":")  # sh:t:{table}:{key}
            if len(parts) == 4:
                self.relay.on_table(parts[2], parts[3], data)
        elif channel.startswith("sh:c:"):
            self.relay.on_direct(channel[5:], data)
        elif channel == inbox(self.node):
            self.relay.on_inbox(json.loads(data))  # in order, at once
        elif channel == BROADCAST:
            self._on_broadcast(json.loads(data))

    def _refused(self) -> None:
        self.hub.metrics.refused_messages.inc()
        now = time.monotonic()
        if now - self._refused_logged >= REFUSED_LOG_EVERY:
            self._refused_logged = now
            log.warning(
                "a message on Redis was refused: not sealed by a node of this cluster, or "
                "played again",
                extra={"refused": self.seal.refused},
            )


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _sessions_of(user_id: str) -> Write:
    def run(conn: Any) -> list[str]:
        c = db.sessions.c
        return [str(r[0]) for r in conn.execute(sa.select(c.id).where(c.user_id == user_id))]

    return run


def _live_sessions(ids: list[str]) -> Write:
    """Which of these session ids still exist."""

    def run(conn: Any) -> list[str]:
        c = db.sessions.c
        out: list[str] = []
        for i in range(0, len(ids), 500):
            query = sa.select(c.id).where(c.id.in_(ids[i : i + 500]))
            out += [str(r[0]) for r in conn.execute(query)]
        return out

    return run
