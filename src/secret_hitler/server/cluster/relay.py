"""WebSockets of a table owned by another node, served through Redis pub/sub.

The node a client reaches (the *edge*) accepts the WebSocket and forwards the client's frames,
unchanged, to the table's owner; the owner handles them exactly as its own connections' (the
same receive loop and dispatcher: ``table.client``) through a ``RemoteConn``, and the messages go back on channels:

- ``sh:c:{cid}``: what is addressed to that one connection (welcome, resumed, acks, errors); a
  one-letter tag says what it is (``m`` a message, ``r`` a message after which the connection
  is ready, ``k`` the connection's channel key changed, ``a`` attached, ``c`` close with a code);
- ``sh:t:{table}:{key}``: what every connection of one recipient gets (updates, table detail,
  chat): ``key`` is the seat number, ``spec`` (spectators) or ``specm`` (spectators who are
  members of the table: their table detail shows the invite). Each text is published once per
  channel, and a seat's channel carries only that seat's texts (``SeatUpdates``), so nothing
  secret is published on a channel another seat's connection reads. An edge subscribes to every
  recipient channel of a table (``table_channels``: exact names, which Redis finds by a hash
  look-up, not patterns, which it would match every message against) and hands each frame to
  the connections of that recipient (an index, not a scan of every relayed connection);
- ``sh:n:{node}``: a node's inbox (attach, a client frame, detach).

The owner publishes everything through one ordered queue and the edge reads everything on one
pub/sub connection: a connection's messages arrive in the order the owner sent them, whatever
channel they took. Messages are lost when Redis goes away, so both sides then drop the relayed
connections and the clients reconnect and resume from their last ``seq`` (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from ...engine.settings import MAX_PLAYERS
from ..accounts.auth import User
from ..core import protocol as P
from ..core.sockets import frame_sink
from ..table.client import handle_text, receive, sender
from ..table.conn import Conn
from ..table.session import Table

if TYPE_CHECKING:
    from .node import Cluster

log = logging.getLogger("secret_hitler.server.relay")

ATTACH_TIMEOUT = 5.0  # seconds an edge waits for the owner's answer to an attach
INBOX_MAX = 256  # client frames waiting at the owner for one relayed connection


def inbox(node: str) -> str:
    return f"sh:n:{node}"


def direct(cid: str) -> str:
    return f"sh:c:{cid}"


#: The recipients of a table's frames: its seats (at most ``MAX_PLAYERS``) and the spectators.
KEYS = (*map(str, range(MAX_PLAYERS)), "spec", "specm")


def table_channels(table_id: str) -> list[str]:
    """Every recipient channel of a table (an edge cannot know its connection's before the
    owner says it, and must not miss what the owner sends right after)."""
    return [f"sh:t:{table_id}:{key}" for key in KEYS]


def user_from(u: dict[str, Any]) -> User:
    session = u.get("session")
    return User(str(u["id"]), str(u["name"]), None if session is None else str(session))


def channel_key(table: Table, conn: Conn) -> str:
    if conn.seat is not None:
        return str(conn.seat)
    return "specm" if table.is_member(conn.user.id if conn.user else None) else "spec"


# ---------------------------------------------------------------------- the owner's side
class RemoteConn(Conn):
    """At the owner: a connection held by another node. Messages for its recipient go on the
    recipient's channel (once for all its connections), its own messages on its direct channel
    (acks too: an update on the recipient's channel cannot carry one)."""

    FOLDS_ACKS = False

    __slots__ = ("relay", "cid", "node", "table", "key", "frames", "worker")

    def __init__(
        self,
        relay: Relay,
        cid: str,
        node: str,
        table: Table,
        user: User | None,
        invite_ok: bool,
        addr: str | None,
    ) -> None:
        super().__init__(None, user, invite_ok, addr)
        self.relay = relay
        self.cid = cid
        self.node = node
        self.table = table
        self.key: str | None = None
        self.frames: asyncio.Queue[str | None] = asyncio.Queue()  # None: stop
        self.worker: asyncio.Task[None] | None = None

    def _announce_key(self) -> str:
        key = channel_key(self.table, self)
        if key != self.key:
            self.key = key
            self.relay.publish(direct(self.cid), "k" + key)
        return key

    def send(self, frame: bytes) -> None:
        if self.closed:
            return
        key = self._announce_key()
        self.relay.publish_shared(self.table.id, key, frame)

    def send_msg(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        self._announce_key()
        tag = "r" if msg.get("type") in ("welcome", "resumed") else "m"
        self.relay.publish(direct(self.cid), tag + P.dumps(msg))

    def send_own(self, frame: bytes, starts: bool = False) -> None:
        if self.closed:
            return
        self._announce_key()
        self.relay.publish(direct(self.cid), (b"r" if starts else b"m") + frame)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.relay.publish(direct(self.cid), f"c{code}")
            asyncio.get_running_loop().call_soon(self.relay.forget, self.cid)


class Relay:
    """Both sides of relayed connections on one node."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.remote: dict[str, RemoteConn] = {}  # owner side: cid -> connection
        self.proxies: dict[str, Proxy] = {}  # edge side: cid -> connection
        # edge side: (table, recipient key) -> the ready connections of that recipient
        self.recipients: dict[tuple[str, str], set[Proxy]] = {}
        self._last: dict[tuple[str, str], bytes] = {}  # (table, key) -> last frame published
        self.calls: dict[str, asyncio.Future[bytes]] = {}  # forwarded requests: id -> answer
        self._tasks: set[asyncio.Task[None]] = set()
        self._ids = itertools.count(1)
        self._salt = secrets.token_hex(4)

    # ------------------------------------------------------------------ publishing
    def publish(self, channel: str, payload: str | bytes) -> None:
        self.cluster.publish(channel, payload)

    def publish_shared(self, table_id: str, key: str, frame: bytes) -> None:
        """Once per frame and channel: every connection of a recipient is handed the same
        frame object by the table's broadcast loop."""
        slot = (table_id, key)
        if self._last.get(slot) is frame:
            return
        self._last[slot] = frame
        self.publish(f"sh:t:{table_id}:{key}", frame)

    def forget_table(self, table_id: str) -> None:
        for slot in [s for s in self._last if s[0] == table_id]:
            del self._last[slot]

    # ------------------------------------------------------------------ owner side
    def on_inbox(self, data: dict[str, Any]) -> None:
        op = data.get("op")
        cid = str(data.get("cid"))
        if op == "attach":
            self._attach(cid, data)
        elif op == "http":
            request = data.get("request")
            if isinstance(request, dict):
                self.spawn(self.cluster.answer(cid, request))
        elif op == "msg":
            rc = self.remote.get(cid)
            if rc is not None and not rc.closed:
                if rc.frames.qsize() >= INBOX_MAX:
                    rc.close(1008)
                else:
                    rc.frames.put_nowait(str(data.get("text", "")))
        elif op == "detach":
            self.forget(cid)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, kept from the garbage collector until it ends."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def held_sockets(self) -> list[Conn]:
        """Every socket this node holds: those of its tables and those it relays to other nodes
        (a relayed one is closed by the node holding its socket)."""
        out = [
            c
            for t in self.cluster.hub.tables.values()
            for c in t.conns
            if not isinstance(c, RemoteConn)
        ]
        return out + [p.conn for p in self.proxies.values()]

    def conns_of(self, user_id: str) -> list[Conn]:
        """The sockets of ``user_id`` that this node holds."""
        return [c for c in self.held_sockets() if c.user is not None and c.user.id == user_id]

    def _attach(self, cid: str, data: dict[str, Any]) -> None:
        hub = self.cluster.hub
        node = str(data.get("node"))
        table = hub.get(str(data.get("table")))
        if table is None or self.cluster.draining:
            # not (or no longer) ours: the client reconnects and finds the table's owner
            self.publish(direct(cid), "c1012")
            return
        u = data.get("user")
        user = None if u is None else user_from(u)
        invite_ok = data.get("invite") == table.invite
        if not table.public and not invite_ok and not table.is_member(user.id if user else None):
            err = P.error("invite_required", "this table is private: the invite code is needed")
            self.publish(direct(cid), "m" + P.dumps(err))
            self.publish(direct(cid), "c4403")
            return
        rc = RemoteConn(self, cid, node, table, user, invite_ok, data.get("addr"))
        table.attach(rc)
        self.remote[cid] = rc
        hub.metrics.ws_connections.inc()
        self.publish(direct(cid), "a")
        rc._announce_key()
        rc.worker = asyncio.create_task(self._work(rc), name=f"relay-{cid}")

    async def _work(self, rc: RemoteConn) -> None:
        while True:
            text = await rc.frames.get()
            if text is None:
                return
            await handle_text(rc.table, rc, text)

    def forget(self, cid: str) -> None:
        rc = self.remote.pop(cid, None)
        if rc is None:
            return
        rc.closed = True
        rc.table.detach(rc)
        self.cluster.hub.metrics.ws_connections.dec()
        # never cancelled: a frame being handled (an action being committed) is finished first
        rc.frames.put_nowait(None)

    def drop_node(self, node: str) -> None:
        """A node's heartbeat is gone: its relayed connections are too."""
        for cid in [c for c, rc in self.remote.items() if rc.node == node]:
            self.forget(cid)

    # ------------------------------------------------------------------ edge side
    def new_cid(self) -> str:
        return f"{self.cluster.node}.{self._salt}.{next(self._ids)}"

    def on_direct(self, cid: str, payload: bytes) -> None:
        call = self.calls.get(cid)
        if call is not None:
            if not call.done():
                call.set_result(payload)
            return
        proxy = self.proxies.get(cid)
        if proxy is not None:
            proxy.from_owner(payload)

    def on_table(self, table_id: str, key: str, frame: bytes) -> None:
        for proxy in self.recipients.get((table_id, key), ()):
            proxy.conn.send(frame)

    def _listen(self, proxy: Proxy, listening: bool) -> None:
        """Index (or stop indexing) a proxy under its table and recipient key."""
        if proxy.key is None:
            return
        slot = (proxy.table_id, proxy.key)
        if listening:
            self.recipients.setdefault(slot, set()).add(proxy)
        elif (held := self.recipients.get(slot)) is not None:
            held.discard(proxy)
            if not held:
                del self.recipients[slot]

    def reset(self, why: str) -> None:
        """Redis lost messages (it restarted, or a connection broke): every relayed connection
        is closed, so each client reconnects and resumes from its last seq."""
        if self.remote or self.proxies:
            log.warning("relayed connections dropped: %s", why)
        for cid in list(self.remote):
            self.forget(cid)
        for proxy in list(self.proxies.values()):
            proxy.conn.close(1012)


class Proxy:
    """At the edge: a client's WebSocket whose table is owned by ``owner``."""

    def __init__(self, relay: Relay, cid: str, table_id: str, owner: str, conn: Conn) -> None:
        self.relay = relay
        self.cid = cid
        self.table_id = table_id
        self.owner = owner
        self.conn = conn
        self.key: str | None = None
        self.ready = False
        self.attached = asyncio.Event()

    def from_owner(self, payload: bytes) -> None:
        tag, body = payload[:1], payload[1:]
        if tag == b"m":
            self.conn.send(body)
        elif tag == b"r":
            self.conn.send(body)
            if not self.ready:
                self.ready = True
                self.relay._listen(self, True)
        elif tag == b"k":
            self.relay._listen(self, False)
            self.key = body.decode()
            if self.ready:
                self.relay._listen(self, True)
        elif tag == b"a":
            self.attached.set()
        elif tag == b"c":
            try:
                code = int(body)
            except ValueError:
                code = 1011
            self.conn.close(code)
            self.attached.set()

    async def forward(self, text: str) -> None:
        """A client frame to the owner (its size is checked here, the rest there)."""
        self.to_owner("msg", text=text)

    def to_owner(self, op: str, **fields: Any) -> None:
        msg = {"op": op, "cid": self.cid, "node": self.relay.cluster.node, **fields}
        self.relay.publish(inbox(self.owner), json.dumps(msg, separators=(",", ":")))


async def serve_remote(
    cluster: Cluster, ws: Any, table_id: str, owner: str, user: User | None, addr: str
) -> None:
    """Serve an accepted WebSocket whose table ``owner`` holds (api/ws.py calls this)."""
    relay = cluster.relay
    hub = cluster.hub
    sink = frame_sink(ws)
    conn = Conn(ws, user, False, addr, sink)
    cid = relay.new_cid()
    proxy = Proxy(relay, cid, table_id, owner, conn)
    relay.proxies[cid] = proxy
    sending = None if sink is not None else asyncio.create_task(sender(conn))
    hub.metrics.ws_connections.inc()
    try:
        if not await cluster.subscribe(direct(cid), *table_channels(table_id)):
            conn.send_msg(P.error("unavailable", "this server cannot reach Redis now; reconnect"))
            conn.close(1013)
            return
        proxy.to_owner(
            "attach",
            table=table_id,
            user=None
            if user is None
            else {"id": user.id, "name": user.name, "session": user.session},
            invite=ws.query_params.get("invite"),
            addr=addr,
        )
        try:
            await asyncio.wait_for(proxy.attached.wait(), ATTACH_TIMEOUT)
        except TimeoutError:
            conn.send_msg(P.error("unavailable", "the table's server does not answer; reconnect"))
            conn.close(1013)
            return
        await receive(conn, hub.settings, hub.metrics, lambda: proxy.ready, proxy.forward)
    finally:
        relay.proxies.pop(cid, None)
        relay._listen(proxy, False)
        if not conn.closed or proxy.attached.is_set():
            proxy.to_owner("detach")
        hub.metrics.ws_connections.dec()
        conn.close()
        if sending is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sending, 5)
        await cluster.unsubscribe(direct(cid), *table_channels(table_id))
