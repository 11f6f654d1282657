"""The lobby on every node of a cluster (docs/deploy.md): an ASGI middleware.

A lobby request about a table that another node owns (its detail, join, leave, bots, start,
the invite lookup) is made by that node: the request goes through Redis (``Cluster.call``,
sealed: cluster/signing.py) and runs there through the same application, with the user the
cross-site guard of this node resolved (the owner checks again that her session is alive). The
client's credentials never leave this node: no ``Authorization``, ``Cookie`` or
``Proxy-Authorization`` header is forwarded (``NOT_FORWARDED``), only who she is. Only those routes are forwarded,
and the owner serves no other route from a forwarded request (``forwardable``). ``GET
/api/tables`` gathers the open tables of every living node.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..competition.eligibility import device_cookie
from ..core.guard import client_address
from ..storage import db
from ..storage.writer import Write
from .relay import user_from

if TYPE_CHECKING:
    from ..lobby.hub import Hub
    from .node import Cluster

_TABLE_PATH = re.compile(
    r"/api/tables/([A-Za-z0-9_-]{1,32})"
    r"(?:/(?:join|leave|start|rematch|remake|afk|publish|bots|bots/\d{1,3}|seats/\d{1,3}))?"
)
_INVITE_PATH = re.compile(r"/api/invite/([A-Za-z0-9_-]{1,64})")
# Headers a forwarded request goes without: the client's credentials (this node authenticated
# her, and the request names that user: ``_request``), and what belongs to this connection.
NOT_FORWARDED = frozenset(
    {
        b"authorization",
        b"cookie",
        b"proxy-authorization",
        b"content-length",
        b"host",
        b"connection",
    }
)


def forwardable(method: str, path: str) -> bool:
    """The routes a node asks a table's owner to serve (and the only ones an owner serves for
    another node): a table's detail and its lobby, hosting and remake actions, the invite
    lookup, and the list of open tables."""
    if path == "/api/tables":
        return method == "GET"
    if _INVITE_PATH.fullmatch(path):
        return method == "GET"
    return _TABLE_PATH.fullmatch(path) is not None and method in ("GET", "POST", "PATCH", "DELETE")


class LobbyForward:
    """ASGI middleware (inside the cross-site and body-size checks): a lobby request about a
    table that another node owns is made by that node (through Redis), and the list of open
    tables is gathered from every node; everything else is served here."""

    def __init__(self, app: ASGIApp, owner_app: Any) -> None:
        self.app = app
        self.owner_app = owner_app
        owner_app.state.forward = self

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("sh_forwarded"):
            await self.app(scope, receive, send)
            return
        hub: Hub | None = getattr(self.owner_app.state, "hub", None)
        cluster: Cluster | None = getattr(self.owner_app.state, "cluster", None)
        if hub is None or cluster is None:
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path == "/api/tables" and scope["method"] == "GET":
            await self._gather(cluster, scope, receive, send)
            return
        table_id = None
        if not forwardable(scope["method"], path):
            pass
        elif m := _TABLE_PATH.fullmatch(path):
            table_id = m.group(1)
        elif (m := _INVITE_PATH.fullmatch(path)) and hub.guard.allows(
            ("lookup_rate", client_address(scope.get("client")))
        ):  # (over the rate: refused here, by the route, before any lookup)
            table_id = await hub.store.read(_by_invite(m.group(1)))
        owner = None
        if table_id is not None and hub.get(table_id) is None:
            found = await cluster.locate(table_id)
            owner = found if isinstance(found, str) else None
        if owner is None:
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive)
        answer = await cluster.call(owner, _request(scope, body))
        if answer is None:
            await _send_json(send, 503, _unavailable())
            return
        await _send_raw(send, answer)

    async def _gather(self, cluster: Cluster, scope: Scope, receive: Receive, send: Send) -> None:
        request = _request(scope, await _read_body(receive))
        nodes = await cluster.living_nodes()
        answers = await asyncio.gather(
            self.run(request),
            *(cluster.call(n, request) for n in nodes if n != cluster.node),
        )
        tables: list[dict[str, Any]] = []
        for answer in answers:
            if answer is not None and answer["status"] == 200:
                tables.extend(json.loads(answer["body"])["tables"])
        tables.sort(key=lambda t: t.get("created_at") or 0, reverse=True)
        await _send_json(send, 200, {"tables": tables})

    async def run(self, request: dict[str, Any]) -> dict[str, Any]:
        """(at the owner) Serve a forwarded request; its answer as a dict. A route that is not
        forwarded is not served, and a user whose session is no longer alive is nobody."""
        if not forwardable(str(request.get("method")), str(request.get("path"))):
            refusal = {"error": {"code": "not_found", "message": "not a forwarded route"}}
            return {"status": 404, "headers": [], "body": json.dumps(refusal)}
        u = request.get("user")
        user = None if u is None else await self.owner_app.state.sessions.alive(user_from(u))
        scope: dict[str, Any] = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": request["method"],
            "scheme": "http",
            "path": request["path"],
            "raw_path": request["path"].encode(),
            "query_string": request["query"].encode("latin-1"),
            "root_path": "",
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in request["headers"]],
            "client": tuple(request["client"]) if request.get("client") else None,
            "server": None,
            "app": self.owner_app,
            "state": {
                "user": user,
                "token_source": request.get("token_source"),
                "device": request.get("device"),  # its device cookie (api/rated.py)
            },
            "sh_forwarded": True,
        }
        body = base64.b64decode(request["body"])
        sent = False

        async def receive() -> Message:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        out: dict[str, Any] = {"status": 500, "headers": [], "body": ""}
        chunks: list[bytes] = []

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                out["status"] = message["status"]
                out["headers"] = [
                    (k.decode("latin-1"), v.decode("latin-1"))
                    for k, v in message.get("headers", [])
                ]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        out["body"] = b"".join(chunks).decode("utf-8", "replace")
        return out


def _request(scope: Scope, body: bytes) -> dict[str, Any]:
    state = scope.get("state") or {}
    user = state.get("user")
    client = scope.get("client")
    return {
        "method": scope["method"],
        "path": scope["path"],
        "query": scope.get("query_string", b"").decode("latin-1"),
        "headers": [
            (k.decode("latin-1"), v.decode("latin-1"))
            for k, v in scope.get("headers", [])
            if k.lower() not in NOT_FORWARDED
        ],
        "client": list(client) if client else None,
        "user": None
        if user is None
        else {"id": user.id, "name": user.name, "session": user.session},
        "token_source": state.get("token_source"),
        # the client's cookies stay here; a rated seat's device check needs its device id
        "device": device_cookie(_header(scope, b"cookie")),
        "body": base64.b64encode(body).decode("ascii"),
    }


def _header(scope: Scope, name: bytes) -> str:
    """A request header's value ("" when absent)."""
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return ""


async def _read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    return b"".join(chunks)


def _unavailable() -> dict[str, Any]:
    return {"error": {"code": "unavailable", "message": "the table's server does not answer"}}


async def _send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await _send_raw(
        send,
        {
            "status": status,
            "headers": [("content-type", "application/json")],
            "body": data.decode(),
        },
    )


async def _send_raw(send: Send, answer: dict[str, Any]) -> None:
    data = str(answer["body"]).encode("utf-8")
    headers = [
        (str(k).encode("latin-1"), str(v).encode("latin-1"))
        for k, v in answer["headers"]
        if str(k).lower() != "content-length"
    ]
    headers.append((b"content-length", str(len(data)).encode()))
    await send({"type": "http.response.start", "status": int(answer["status"]), "headers": headers})
    await send({"type": "http.response.body", "body": data})


def _by_invite(code: str) -> Write:
    def run(conn: Any) -> str | None:
        row = conn.execute(sa.select(db.tables.c.id).where(db.tables.c.invite == code)).first()
        return None if row is None else str(row[0])

    return run
