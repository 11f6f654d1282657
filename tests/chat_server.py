"""A chat-completions server on 127.0.0.1 for the tests: the OpenAI wire format, scripted answers.

Each request takes the next behaviour from ``by_model[its model]`` if that has one, else from
``script`` (then ``default``), so a test can aim bad answers at one of two endpoints:

- ``valid``: a legal answer, built from the answer's JSON schema (the last line of the last
  prompt that ends with one, so it works with every ``response_format``), choices drawn from a
  seeded random source; ``prose`` and ``fence``: the same answer wrapped in prose or in a code
  fence; ``malformed``: JSON cut short; ``illegal``: a well-formed action nobody is offered;
  ``slow``: no answer until the test ends (the client's deadline passes first);
  ``429`` (with ``Retry-After: 0``) and ``500``; ``endless``: a body that never ends (sent in
  chunks until the client hangs up, 64 MiB at most); ``empty``: a completion without text.

Every request is kept in ``requests`` (path, headers, body, and the behaviour it got) for the
tests to read, the moment it arrives; ``in_flight`` counts the requests not answered yet and
``most_in_flight`` the most there were at once. ``gather = N`` makes the next N requests wait
until N are in flight together (then each gets its behaviour), so a test can tell requests
sent at once from requests sent one after another without timing them (``gather_cap_s`` bounds
the wait: a request still waiting then gets a 500).
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
from collections import deque
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

BEHAVIOURS = (
    "valid",
    "prose",
    "fence",
    "malformed",
    "illegal",
    "slow",
    "429",
    "500",
    "endless",
    "empty",
)
_ENDLESS_CAP = 64 * 1024 * 1024
_SLOW_CAP_S = 60.0  # a slow answer waits for the test's end, never longer than this


SAY = "I trust the last government."


def instance(schema: dict[str, Any], rng: random.Random, say: str = SAY) -> Any:
    """A value of ``schema`` (the subset the answer schemas use), choices drawn from ``rng``;
    a chat line, when one is drawn, is ``say``."""
    if "anyOf" in schema:
        return instance(rng.choice(schema["anyOf"]), rng, say)
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        return {k: instance(v, rng, say) for k, v in schema["properties"].items()}
    if kind == "array":
        return [instance(schema["items"], rng, say)] if rng.random() < 0.5 else []
    if kind == ["string", "null"]:
        return rng.choice([None, say])
    raise ValueError(f"unexpected schema {schema}")


def schema_of(body: dict[str, Any]) -> dict[str, Any]:
    for message in reversed(body["messages"]):
        if message["role"] != "user":
            continue
        last = message["content"].rstrip().rsplit("\n", 1)[-1]
        if last.startswith("{"):
            return json.loads(last)
    raise ValueError("no prompt ends with a schema")


class ChatServer:
    def __init__(self, seed: int = 0, default: str = "valid") -> None:
        self.script: deque[str] = deque()
        self.by_model: dict[str, deque[str]] = {}
        self.default = default
        self.say = SAY  # the chat line of a valid answer that says one
        self.rng = random.Random(seed)
        self.requests: list[dict[str, Any]] = []
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)
        self.in_flight = 0
        self.most_in_flight = 0
        self.gather = 0  # the next N requests wait until N are in flight at once
        self.gather_cap_s = 20.0
        self._gathering: dict[str, int] | None = None  # the gathering open: arrived, size
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> ChatServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)

    def _gather(self) -> bool:
        """(under the lock) A request of a gathering waits until all of it has arrived (none
        of it is answered before: all are in flight together); False if the cap passed
        first. Any other request goes on at once."""
        if not self.gather:
            return True
        if self._gathering is None:
            self._gathering = {"arrived": 0, "size": self.gather}
        gathering = self._gathering
        gathering["arrived"] += 1
        if gathering["arrived"] == gathering["size"]:
            self.gather, self._gathering = 0, None
            self.arrived.notify_all()
        done = lambda: gathering["arrived"] == gathering["size"]  # noqa: E731
        return self.arrived.wait_for(done, timeout=self.gather_cap_s)

    def next_behaviour(self, model: str = "") -> str:
        with self.lock:
            own = self.by_model.get(model)
            if own:
                return own.popleft()
            return self.script.popleft() if self.script else self.default

    def answer(self, behaviour: str, body: dict[str, Any]) -> str:
        with self.lock:
            value = instance(schema_of(body), self.rng, self.say)
        text = json.dumps(value)
        if behaviour == "prose":
            return f"Let me think about the table. My answer is {text} and that is final."
        if behaviour == "fence":
            return f"Here is my move:\n```json\n{json.dumps(value, indent=2)}\n```\n"
        if behaviour == "malformed":
            return text[: len(text) // 2]
        if behaviour == "illegal":
            claim = {"type": "claim", "subject": "investigation", "target": 42, "party": "liberal"}
            return json.dumps({"action": {"type": "nominate", "target": 42}, "claims": [claim]})
        return text


def _handler(server: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            chat = self.path == "/v1/chat/completions"
            behaviour = server.next_behaviour(str(body.get("model", ""))) if chat else "404"
            with server.lock:
                entry = {"path": self.path, "headers": dict(self.headers), "body": body}
                server.requests.append(entry | {"behaviour": behaviour})
                server.in_flight += 1
                server.most_in_flight = max(server.most_in_flight, server.in_flight)
                server.arrived.notify_all()
                gathered = server._gather()
            try:
                if not gathered:  # not all in flight at once: the gathering failed
                    behaviour = "500"
                self._answer(behaviour, body)
            finally:
                with server.lock:
                    server.in_flight -= 1

        def _answer(self, behaviour: str, body: dict[str, Any]) -> None:
            if self.path != "/v1/chat/completions":
                return self._send(404, {"error": "not found"})
            if behaviour == "slow":
                server.release.wait(_SLOW_CAP_S)
                return self._send(200, _completion(body, "{}"))
            if behaviour == "429":
                return self._send(429, {"error": "rate limited"}, {"Retry-After": "0"})
            if behaviour == "500":
                return self._send(500, {"error": "boom"})
            if behaviour == "endless":
                return self._endless()
            if behaviour == "empty":
                return self._send(200, {"choices": [{"message": {"content": None}}]})
            return self._send(200, _completion(body, server.answer(behaviour, body)))

        def _send(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            try:
                self.wfile.write(raw)
            except (BrokenPipeError, ConnectionResetError):
                return  # the client gave up on a slow answer

        def _endless(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()  # no length: the body runs until the connection closes
            chunk = b'{"choices": [{"message": {"content": "' + b"na" * 2048
            sent = 0
            try:
                while sent < _ENDLESS_CAP and not server.release.is_set():
                    self.wfile.write(chunk)
                    sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                return

    return Handler


def _completion(body: dict[str, Any], text: str) -> dict[str, Any]:
    prompt = sum(len(m["content"]) for m in body["messages"])
    return {
        "id": "test",
        "object": "chat.completion",
        "model": body["model"],
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {
            "prompt_tokens": prompt // 4,
            "completion_tokens": len(text) // 4,
            "total_tokens": prompt // 4 + len(text) // 4,
        },
    }


@contextlib.contextmanager
def running(seed: int = 0) -> Iterator[ChatServer]:
    """A started server, stopped (its slow answers released) at the end."""
    server = ChatServer(seed=seed).start()
    try:
        yield server
    finally:
        server.stop()


def endpoints_file(path: Any, url: str, names: dict[str, str], **fields: Any) -> Any:
    """An endpoints file (llm/endpoints.py) at ``path``: one endpoint per ``name -> display
    name``, each at ``url``, with ``fields`` (TOML scalars) set on every one."""
    tables = []
    for name, shown in names.items():
        lines = [
            "[[endpoint]]",
            f'name = "{name}"',
            f'base_url = "{url}"',
            f'model = "test-{name}"',
            f'display_name = "{shown}"',
        ]
        lines += [f"{k} = {json.dumps(v)}" for k, v in fields.items()]
        tables.append("\n".join(lines))
    path.write_text("\n\n".join(tables) + "\n", encoding="utf-8")
    return path
