"""One chat-completions request to a configured endpoint, bounded in time and in size.

``POST {base_url}/chat/completions`` with the OpenAI wire format (``model``, ``messages``,
``temperature``, ``max_tokens``, optional ``response_format``), which llama.cpp's server, vLLM,
Ollama (``/v1``) and the hosted services all speak. A request is a coroutine (``httpx``'s
async client: waiting for a model holds no thread) that either returns a ``Reply`` or raises
``ChatFailure`` whose ``kind`` says what went wrong, so the agent can count it:

- ``no_slot``: every ``concurrency`` slot of the endpoint stayed busy until the wait's end
  (``slots.FairSlots``), or left less than ``_MIN_REQUEST_S`` for the request; nothing was sent
  (``sent`` False);
- ``late``: no complete answer before the deadline (connect, read, or the whole body); a
  request that ran out of time before its body was written (waiting for a connection, or
  connecting) never reached the endpoint (``sent`` False), and the agent counts no request;
- ``too_long``: the body grew past ``max_response_bytes`` (an endless answer is cut there);
- ``http_429`` (with the server's ``Retry-After``, when it gives one), ``http_5xx``,
  ``http_4xx``; ``transport``: the connection failed; ``bad_reply``: not a chat completion.

Every outcome says how long the request took from its sending (``seconds``) and how long it
waited for a slot before (``queued``), so the time spent on failed and late requests counts.

The API key goes in the ``Authorization`` header only; no message, log line or exception of
this module contains it.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import anyio
import httpx

from .. import jsontext
from . import runner
from .endpoints import Endpoint
from .slots import FairSlots

_RETRY_AFTER_MAX = 600.0  # seconds: a longer Retry-After is read as this
#: Less time than this left for a request (after the wait for a slot) and none is sent: no
#: model answers in it.
_MIN_REQUEST_S = 0.05


@dataclass(frozen=True, slots=True)
class Reply:
    """The model's text and what it cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float  # from sending the request to its last byte
    finish_reason: str | None = None
    queued: float = 0.0  # waiting for a slot before it was sent


class ChatFailure(Exception):
    """A request that gave no usable reply; ``kind`` is one of the module docstring's.
    ``sent``: whether the request's body was written to the endpoint (never for ``no_slot``,
    nor for ``late`` or ``transport`` before the body went out)."""

    def __init__(
        self,
        kind: str,
        message: str,
        retry_after: float | None = None,
        *,
        sent: bool = False,
        seconds: float = 0.0,
        queued: float = 0.0,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.retry_after = retry_after
        self.sent = sent
        self.seconds = seconds
        self.queued = queued


def response_format(mode: str, schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """The ``response_format`` field for ``mode`` (``Endpoint.response_format``)."""
    if mode == "json_schema" and schema is not None:
        return {
            "type": "json_schema",
            "json_schema": {"name": "answer", "strict": True, "schema": schema},
        }
    if mode in ("json_schema", "json_object"):
        return {"type": "json_object"}
    return None


class ChatClient:
    """Requests to one endpoint, awaited without holding a thread: an ``httpx.AsyncClient`` per
    event loop that uses it, and the endpoint's ``concurrency`` slots (``FairSlots``) shared by
    every loop of the process and handed out fairly between owners."""

    def __init__(
        self, endpoint: Endpoint, transport: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self.endpoint = endpoint
        self.url = f"{endpoint.base_url}/chat/completions"
        self.slots = FairSlots(endpoint.concurrency)
        self._transport = transport
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient]
        self._clients = weakref.WeakKeyDictionary()
        self._clients_lock = threading.Lock()

    def _http(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        with self._clients_lock:
            client = self._clients.get(loop)
            if client is None:
                limits = httpx.Limits(max_connections=self.endpoint.concurrency)
                # trust_env=False: no proxy or netrc from the environment changes where
                # requests go.
                client = httpx.AsyncClient(
                    limits=limits, transport=self._transport, trust_env=False
                )
                self._clients[loop] = client
            return client

    async def aclose(self) -> None:
        """Close the connections of the running loop's client (a server's shutdown)."""
        with self._clients_lock:
            client = self._clients.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.aclose()

    def close(self) -> None:
        """Close the connections of the shared loop's client (``llm.runner``: the plain calls
        of the agent contract); a loop that awaited requests itself closes with ``aclose``."""
        loop = runner.shared_loop()
        if loop is None or runner.on_runner():
            return
        with self._clients_lock:
            used = loop in self._clients
        if used:
            runner.run_sync(self.aclose())

    def body(self, messages: list[dict[str, str]], schema: dict[str, Any] | None) -> dict[str, Any]:
        """The request body (what a record keeps of a request besides its messages)."""
        e = self.endpoint
        out: dict[str, Any] = dict(e.extra)
        out.update(
            model=e.model, messages=messages, temperature=e.temperature, max_tokens=e.max_tokens
        )
        fmt = response_format(e.response_format, schema)
        if fmt is not None:
            out["response_format"] = fmt
        return out

    async def complete(
        self,
        messages: list[dict[str, str]],
        schema: dict[str, Any] | None,
        timeout: float,
        *,
        deadline: float | None = None,
        owner: Hashable = None,
    ) -> Reply:
        """One request for ``owner``, answered by ``deadline`` (``time.monotonic()``; default:
        ``timeout`` seconds from now) and within ``timeout`` seconds of being sent; the wait for
        a free slot counts against the deadline. A wait that finds no slot in time raises
        ``ChatFailure`` ``no_slot`` with ``sent`` False: nothing reached the endpoint."""
        start = time.monotonic()
        end = start + timeout if deadline is None else deadline
        if not await self.slots.acquire(owner, end - start):
            raise ChatFailure(
                "no_slot", "every slot of the endpoint stayed busy", queued=time.monotonic() - start
            )
        try:
            now = time.monotonic()
            body = self.body(messages, schema)
            return await self._post(body, min(timeout, end - now), now - start)
        finally:
            self.slots.release(owner)

    async def _post(self, body: dict[str, Any], timeout: float, queued: float) -> Reply:
        headers = {"Accept": "application/json"}
        key = self.endpoint.api_key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        if timeout < _MIN_REQUEST_S:
            raise ChatFailure("no_slot", "no time was left for a request", queued=queued)
        limit = self.endpoint.max_response_bytes
        sent = time.monotonic()
        deadline = sent + timeout
        # Whether the request's body was written to the endpoint's connection: a request that
        # ran out of time while it waited for a connection or was being connected never reached
        # the endpoint, and is no request of the model's (counts equal what the endpoint saw).
        written = False

        async def trace(event: str, _info: dict[str, Any]) -> None:
            nonlocal written
            written = written or event.endswith("send_request_body.complete")

        def failure(kind: str, message: str, retry_after: float | None = None) -> ChatFailure:
            return ChatFailure(
                kind,
                message,
                retry_after,
                sent=written,
                seconds=time.monotonic() - sent,
                queued=queued,
            )

        try:
            # the whole request, however it trickles. anyio's deadline, not asyncio's: httpx
            # writes through anyio, which yields shielded right after a write, so a deadline
            # never lands between the body reaching the socket and the trace saying so (an
            # asyncio timeout there cancels anyway: a request the endpoint saw, counted unsent)
            with anyio.fail_after(timeout):
                async with self._http().stream(
                    "POST",
                    self.url,
                    json=body,
                    headers=headers,
                    timeout=httpx.Timeout(timeout),
                    extensions={"trace": trace},
                ) as response:
                    status = response.status_code
                    if status != 200:
                        kind, message, retry_after = _status_failure(response)
                        raise failure(kind, message, retry_after)
                    chunks: list[bytes] = []
                    size = 0
                    async for chunk in response.aiter_bytes():
                        size += len(chunk)
                        if size > limit:
                            raise failure("too_long", f"the answer passed {limit} bytes: cut")
                        if time.monotonic() > deadline:
                            raise failure("late", "the answer was still arriving at the deadline")
                        chunks.append(chunk)
        except (TimeoutError, httpx.TimeoutException):
            raise failure("late", "no answer before the deadline") from None
        except httpx.HTTPError as exc:
            raise failure("transport", f"request failed ({type(exc).__name__})") from None
        return _reply(b"".join(chunks), time.monotonic() - sent, queued)


def _status_failure(response: httpx.Response) -> tuple[str, str, float | None]:
    """(kind, message, Retry-After) of an answer other than 200."""
    status = response.status_code
    if status == 429:
        return "http_429", "rate limited (429)", _retry_after(response)
    kind = "http_5xx" if status >= 500 else "http_4xx"
    return kind, f"the endpoint answered HTTP {status}", None


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after", "").strip()
    try:
        seconds = float(value)
    except ValueError:
        return None  # an HTTP date, or nothing: the agent retries at once
    return min(max(seconds, 0.0), _RETRY_AFTER_MAX)


def _reply(raw: bytes, seconds: float, queued: float) -> Reply:
    def bad(message: str) -> ChatFailure:
        return ChatFailure("bad_reply", message, sent=True, seconds=seconds, queued=queued)

    try:
        data = jsontext.loads(raw)
        choice = data["choices"][0]
        text = choice["message"]["content"]
    except (jsontext.BadJson, KeyError, IndexError, TypeError):
        raise bad("not a chat completion") from None
    if not isinstance(text, str):
        raise bad("the completion has no text content")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return Reply(
        text=text,
        prompt_tokens=_count(usage.get("prompt_tokens")),
        completion_tokens=_count(usage.get("completion_tokens")),
        seconds=seconds,
        finish_reason=choice.get("finish_reason") if isinstance(choice, dict) else None,
        queued=queued,
    )


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


_CLIENTS: dict[str, ChatClient] = {}
_CLIENTS_LOCK = threading.Lock()


def client_for(endpoint: Endpoint) -> ChatClient:
    """The process's client of ``endpoint`` (one connection pool and slot count per endpoint)."""
    with _CLIENTS_LOCK:
        client = _CLIENTS.get(endpoint.name)
        if client is None or client.endpoint != endpoint:
            client = _CLIENTS[endpoint.name] = ChatClient(endpoint)
        return client


def close_clients() -> None:
    """Close every client ``client_for`` made (at the end of a run of plain calls)."""
    with _CLIENTS_LOCK:
        clients = list(_CLIENTS.values())
        _CLIENTS.clear()
    for client in clients:
        client.close()


async def aclose_clients() -> None:
    """Close the running loop's connections of every client ``client_for`` made."""
    with _CLIENTS_LOCK:
        clients = list(_CLIENTS.values())
    for client in clients:
        await client.aclose()


__all__ = [
    "ChatClient",
    "ChatFailure",
    "Reply",
    "aclose_clients",
    "client_for",
    "close_clients",
    "response_format",
]
