"""Test helpers: a real server in a subprocess, a throw-away PostgreSQL, WebSocket clients, and
the checker that compares every message a seat received with what that seat may know."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import random
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import websockets

from live_server import LiveServer, free_port
from secret_hitler.engine import game_from_record
from secret_hitler.engine.events import PRIVATE_EVENT_TYPES
from secret_hitler.talk.narrate import narrate, told_json

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 20.0


# ---------------------------------------------------------------------- the server
Server = LiveServer


# ---------------------------------------------------------------------- HTTP
class HttpError(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body}")
        self.status = status
        self.body = body
        self.code = (body.get("error") or {}).get("code")
        self.field = (body.get("error") or {}).get("field")


def http(
    server: Server,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    raw: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> Any:
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(server.url + path, data=data, method=method)
    req.add_header("content-type", "application/json")
    if token:
        req.add_header("authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        req.add_header(name, value)
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            text = r.read()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as exc:
        raw_body = exc.read()
        try:
            parsed = json.loads(raw_body)
        except ValueError:
            parsed = {"raw": raw_body.decode(errors="replace")}
        raise HttpError(exc.code, parsed) from None


def raw_http(server: Server, head: str, chunks: list[bytes] | None = None) -> tuple[int, bytes]:
    """Send a request head and some body bytes, then read the answer: the body may be unfinished,
    so the server must answer without waiting for the rest (sending a whole oversized body could
    race the server closing the socket, a broken pipe on the client's side)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as s:
        s.sendall(head.encode())
        for chunk in chunks or []:
            s.sendall(chunk)
        data = b""
        while b"\r\n\r\n" not in data or len(data) < _answer_length(data):
            part = s.recv(65536)
            if not part:
                break
            data += part
    status = int(data.split(b" ", 2)[1])
    return status, data.split(b"\r\n\r\n", 1)[1]


def _answer_length(data: bytes) -> int:
    head, _, _ = data.partition(b"\r\n\r\n")
    m = re.search(rb"(?i)content-length: *(\d+)", head)
    return len(head) + 4 + int(m.group(1)) if m else 1 << 30


def me_status(server: Server, token: str) -> int:
    """The HTTP status of ``GET /api/me`` with ``token``: 200 while it works."""
    try:
        http(server, "GET", "/api/me", token=token)
    except HttpError as exc:
        return exc.status
    return 200


def session(server: Server, name: str) -> str:
    return str(http(server, "POST", "/api/session", {"name": name})["token"])


async def ahttp(
    server: Server, method: str, path: str, body: Any = None, token: str | None = None
) -> Any:
    return await asyncio.to_thread(http, server, method, path, body, token)


# ---------------------------------------------------------------------- PostgreSQL
def find_pg_bin() -> Path | None:
    for cand in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(cand) / "initdb").exists() and (Path(cand) / "pg_ctl").exists():
            return Path(cand)
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).resolve().parent
    return None


class Postgres:
    """A throw-away PostgreSQL cluster in a temporary folder (run as ``postgres`` when root)."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="sh-pg-"))
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        self._n = 0

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def start(self) -> Postgres:
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        os.chmod(self.dir, 0o700)
        data = self.dir / "data"
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        self.resume()
        return self

    def resume(self) -> None:
        """(Re)start the cluster's server and wait until it accepts connections."""
        opts = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c max_connections=200"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.dir / "data"),
            "-o",
            opts,
            "-l",
            str(self.dir / "pg.log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def pause(self) -> None:
        """Stop the server (fast: open connections are cut), keeping the cluster's data."""
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop"
        )

    def new_database(self) -> str:
        import psycopg

        self._n += 1
        name = f"sh_test_{os.getpid()}_{self._n}"
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(
                str(self.bindir / "pg_ctl"),
                "-D",
                str(self.dir / "data"),
                "-m",
                "immediate",
                "-w",
                "stop",
            )
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------------- WebSocket clients
class Client:
    """A WebSocket client that keeps every message it got and its seat's state."""

    def __init__(
        self,
        server: Server,
        token: str | None,
        label: str = "",
        headers: dict[str, str] | None = None,
    ) -> None:
        self.server = server
        self.token = token
        self.label = label
        self.headers = headers or {}  # sent with the handshake (X-Forwarded-For, ...)
        self.ws: Any = None
        self.messages: list[dict[str, Any]] = []  # everything received, across reconnects
        self.seat: int | None = None
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []
        self.record: dict[str, Any] | None = None
        self.chat_id = 0
        self.sent: dict[str, dict[str, Any]] = {}  # action id -> action
        self.update_sizes: dict[int, int] = {}  # seq -> bytes of that update's frame
        self.welcome_sizes: list[int] = []  # bytes of each welcome frame
        self._pending: list[dict[str, Any]] = []

    async def connect(
        self, table_id: str, hello: bool = True, since: int | None = None, query: str = ""
    ) -> dict[str, Any] | None:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        headers.update(self.headers)
        self.ws = await websockets.connect(
            f"{self.server.ws_url}/ws/tables/{table_id}{query}",
            additional_headers=headers,
            max_size=1 << 22,
            # a test client may leave messages unread: an unbounded queue keeps the library
            # reading, so a close handshake is never stuck behind them (a 10 s close_timeout)
            max_queue=None,
            open_timeout=TIMEOUT,
        )
        if not hello:
            return None
        await self.send(
            {
                "v": 1,
                "type": "hello",
                "since": since,
                "chat_since": self.chat_id if since is not None else None,
            }
        )
        return await self.recv_until(lambda m: m["type"] in ("welcome", "resumed"))

    async def send(self, msg: dict[str, Any] | str | bytes) -> None:
        if isinstance(msg, dict) and msg.get("type") == "action" and msg.get("id"):
            self.sent[msg["id"]] = {"seat": self.seat, **msg["action"]}
        await self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()

    def _absorb(self, m: dict[str, Any]) -> None:
        self.messages.append(m)
        t = m["type"]
        if t == "welcome":
            self.seat = m["seat"]
            self.seq = m["seq"]
            self.view = m["view"]
            self.legal = m["legal"]
        elif t == "resumed":
            assert m["since"] == self.seq, (self.label, m, self.seq)
        elif t == "update":
            assert m["seq"] == self.seq + 1, f"{self.label}: seq gap {self.seq} -> {m['seq']}"
            self.seq = m["seq"]
            self.view = m["view"]
            self.legal = m["legal"]
        elif t == "game_over":
            self.record = m["record"]
        elif t == "chat":
            self.chat_id = max(self.chat_id, m["message"]["id"])

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        if self._pending:
            return self._pending.pop(0)
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        m = json.loads(raw)
        assert m.get("v") == 1, m
        size = len(raw.encode() if isinstance(raw, str) else raw)
        if m.get("type") == "update":
            self.update_sizes[m["seq"]] = size
        elif m.get("type") == "welcome":
            self.welcome_sizes.append(size)
        self._absorb(m)
        return m

    async def recv_until(self, pred: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.label}: no matching message")
            m = await self.recv(left)
            if pred(m):
                return m

    def accepted(self) -> dict[int, dict[str, Any]]:
        """seq -> the action this client sent and got an ack for."""
        return {
            m["seq"]: self.sent[m["id"]]
            for m in self.messages
            if m["type"] == "ack" and m.get("seq") and m["id"] in self.sent
        }

    def my_turn_actions(self) -> list[dict[str, Any]]:
        return [a for a in self.legal if a["type"] != "claim"]

    async def play(
        self, rng: random.Random, claim_p: float = 0.5, stop: Any = None, timeout: float = 60.0
    ) -> None:
        """Play random legal moves until game over (or until ``stop(self)`` is true)."""
        end = time.monotonic() + timeout
        await self._maybe_act(rng, claim_p)
        while self.record is None:
            if stop is not None and stop(self):
                return
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.label}: game did not end")
            m = await self.recv(left)
            if m["type"] in ("update", "welcome") or (
                m["type"] == "error" and m["code"] != "illegal_action"
            ):
                await self._maybe_act(rng, claim_p)

    async def _maybe_act(self, rng: random.Random, claim_p: float) -> None:
        if self.view is None or self.record is not None or self.seat is None:
            return
        claims = [a for a in self.legal if a["type"] == "claim"]
        if claims and rng.random() < claim_p:
            await self.send(
                {
                    "v": 1,
                    "type": "action",
                    "id": f"c{self.seq}-{rng.random()}",
                    "action": rng.choice(claims),
                }
            )
        turn = self.my_turn_actions()
        if turn and self.seat in self.view["to_act"]:
            action = dict(rng.choice(turn))
            if rng.random() < 0.5:
                action.pop("seat")
            await self.send(
                {"v": 1, "type": "action", "id": f"a{self.seq}-{rng.random()}", "action": action}
            )


# ---------------------------------------------------------------------- the no-leak checker
PRIVATE = PRIVATE_EVENT_TYPES  # the engine's list, not a copy


def states(record: dict[str, Any], seats: list[int | None]) -> dict[int, dict[int | None, Any]]:
    """For every update seq k: each seat's (view without events, events, legal) after k-1 actions;
    each event with what the narrator tells of it, read from that seat's own log (``told``)."""
    game = game_from_record(record, apply_actions=False)
    from secret_hitler.engine import Action

    actions = [Action.from_json(a) for a in record["actions"]]
    out: dict[int, dict[int | None, Any]] = {}
    for k in range(1, len(actions) + 2):
        if k >= 2:
            game.apply(actions[k - 2])
        per: dict[int | None, Any] = {}
        for s in seats:
            seen = game.view(s)
            view = seen.to_json()
            told = narrate(seen.events)
            events = [
                {**e, "told": told_json(t)} for e, t in zip(view.pop("events"), told, strict=True)
            ]
            legal = [a.to_json() for a in game.legal_actions(s)] if s is not None else []
            per[s] = (view, events, legal)
        out[k] = per
    return out


def check_messages(client: Client, record: dict[str, Any], table: dict[int, Any]) -> int:
    """Every welcome/update a client got equals its seat's engine view at that point, and no
    private event of another seat ever reached it. Returns the number of updates checked."""
    seat: int | None = None
    seen: list[dict[str, Any]] = []
    checked = 0
    for m in client.messages:
        t = m["type"]
        if t == "welcome":
            seat = m["seat"]
            if m["view"] is None:
                seen = []
                continue
            view = dict(m["view"])
            seen = view.pop("events")
            exp_view, exp_events, exp_legal = table[m["seq"]][seat]
            assert view == exp_view, f"{client.label}: welcome view differs at seq {m['seq']}"
            assert seen == exp_events
            assert m["legal"] == exp_legal
        elif t == "update":
            exp_view, exp_events, exp_legal = table[m["seq"]][seat]
            assert m["view"] == exp_view, f"{client.label}: view differs at seq {m['seq']}"
            seen = seen + m["events"]
            assert seen == exp_events, f"{client.label}: events differ at seq {m['seq']}"
            assert m["legal"] == exp_legal, f"{client.label}: legal differs at seq {m['seq']}"
            if m["view"]["phase"] != "game_over":  # at the end every role is public (W2)
                _no_foreign_secrets(seat, m, record)
            checked += 1
        elif t == "game_over":
            assert m["record"]["actions"] == record["actions"]
            assert m["record"]["roles"] == record["roles"]
    return checked


def _no_foreign_secrets(seat: int | None, m: dict[str, Any], record: dict[str, Any]) -> None:
    """An independent check: private events and secret view fields belong to this seat."""
    roles = record["roles"]
    view = m["view"]
    for e in m["events"]:
        if e["type"] not in PRIVATE:
            continue
        assert seat is not None, f"spectator got a private event {e}"
        if e["type"] == "role":
            assert e["seat"] == seat, (seat, e)
        elif e["type"] == "night":
            assert roles[seat] != "liberal", (seat, e)
        elif e["type"] in ("drew", "passed", "peek", "investigation"):
            assert seat == view["president"], (seat, e)
        elif e["type"] in ("received", "chancellor_discarded"):
            assert seat == view["chancellor"], (seat, e)
    known = view["known_roles"]
    for s, r in enumerate(known):
        if r is None or s == seat:
            continue
        assert seat is not None and roles[seat] != "liberal", f"seat {seat} knows role of {s}"
    if seat is None:
        assert view["role"] is None and view["hand"] == [] and view["investigations"] == []
    elif view["hand"]:
        assert seat in (view["president"], view["chancellor"])
    for target, _party in view["investigations"]:
        assert seat is not None and target != seat


def wait_for(pred: Any, timeout: float = TIMEOUT, what: str = "a condition") -> Any:
    """Poll ``pred()`` until it returns something truthy; the server's state, bounded."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.05)
    raise TimeoutError(f"timed out waiting for {what}")
