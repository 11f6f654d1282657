"""One chat-completions request to a configured endpoint, bounded in time and in size.

``POST {base_url}/chat/completions`` with the OpenAI wire format (``model``, ``messages``,
``temperature``, ``max_tokens``, optional ``response_format``), which llama.cpp's server, vLLM,
Ollama (``/v1``) and the hosted services all speak. A request either returns a ``Reply`` or
raises ``ChatFailure`` whose ``kind`` says what went wrong, so the agent can count it:

- ``late``: no complete answer before the deadline (connect, read, or the whole body);
- ``too_long``: the body grew past ``max_response_bytes`` (an endless answer is cut there);
- ``http_429`` (with the server's ``Retry-After``, when it gives one), ``http_5xx``,
  ``http_4xx``; ``transport``: the connection failed; ``bad_reply``: not a chat completion.

The API key goes in the ``Authorization`` header only; no message, log line or exception of
this module contains it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx

from .. import jsontext
from .endpoints import Endpoint

_RETRY_AFTER_MAX = 600.0  # seconds: a longer Retry-After is read as this


@dataclass(frozen=True, slots=True)
class Reply:
    """The model's text and what it cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    finish_reason: str | None = None


class ChatFailure(Exception):
    """A request that gave no usable reply; ``kind`` is one of the module docstring's."""

    def __init__(self, kind: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.retry_after = retry_after


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
    """Requests to one endpoint; thread-safe (one connection pool, ``concurrency`` in flight)."""

    def __init__(self, endpoint: Endpoint, transport: httpx.BaseTransport | None = None) -> None:
        self.endpoint = endpoint
        self.url = f"{endpoint.base_url}/chat/completions"
        limits = httpx.Limits(max_connections=endpoint.concurrency)
        # trust_env=False: no proxy or netrc from the environment changes where requests go.
        self._http = httpx.Client(limits=limits, transport=transport, trust_env=False)
        self._slots = threading.BoundedSemaphore(endpoint.concurrency)

    def close(self) -> None:
        self._http.close()

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

    def complete(
        self, messages: list[dict[str, str]], schema: dict[str, Any] | None, timeout: float
    ) -> Reply:
        """One request that must be answered within ``timeout`` seconds (waiting for a free
        slot included)."""
        start = time.monotonic()
        deadline = start + timeout
        if not self._slots.acquire(timeout=max(timeout, 0.0)):
            raise ChatFailure("late", "every slot of the endpoint stayed busy")
        try:
            return self._post(self.body(messages, schema), start, deadline)
        finally:
            self._slots.release()

    def _post(self, body: dict[str, Any], start: float, deadline: float) -> Reply:
        headers = {"Accept": "application/json"}
        key = self.endpoint.api_key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        left = deadline - time.monotonic()
        if left <= 0:
            raise ChatFailure("late", "no time left for a request")
        limit = self.endpoint.max_response_bytes
        try:
            with self._http.stream(
                "POST", self.url, json=body, headers=headers, timeout=httpx.Timeout(left)
            ) as response:
                status = response.status_code
                if status != 200:
                    raise _status_failure(response)
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > limit:
                        raise ChatFailure("too_long", f"the answer passed {limit} bytes: cut")
                    if time.monotonic() > deadline:
                        raise ChatFailure("late", "the answer was still arriving at the deadline")
                    chunks.append(chunk)
        except httpx.TimeoutException:
            raise ChatFailure("late", "no answer before the deadline") from None
        except httpx.HTTPError as exc:
            raise ChatFailure("transport", f"request failed ({type(exc).__name__})") from None
        return _reply(b"".join(chunks), time.monotonic() - start)


def _status_failure(response: httpx.Response) -> ChatFailure:
    status = response.status_code
    if status == 429:
        return ChatFailure("http_429", "rate limited (429)", _retry_after(response))
    kind = "http_5xx" if status >= 500 else "http_4xx"
    return ChatFailure(kind, f"the endpoint answered HTTP {status}")


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after", "").strip()
    try:
        seconds = float(value)
    except ValueError:
        return None  # an HTTP date, or nothing: the agent retries at once
    return min(max(seconds, 0.0), _RETRY_AFTER_MAX)


def _reply(raw: bytes, seconds: float) -> Reply:
    try:
        data = jsontext.loads(raw)
        choice = data["choices"][0]
        text = choice["message"]["content"]
    except (jsontext.BadJson, KeyError, IndexError, TypeError):
        raise ChatFailure("bad_reply", "not a chat completion") from None
    if not isinstance(text, str):
        raise ChatFailure("bad_reply", "the completion has no text content")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return Reply(
        text=text,
        prompt_tokens=_count(usage.get("prompt_tokens")),
        completion_tokens=_count(usage.get("completion_tokens")),
        seconds=seconds,
        finish_reason=choice.get("finish_reason") if isinstance(choice, dict) else None,
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
    """Close every client ``client_for`` made (at the end of a run)."""
    with _CLIENTS_LOCK:
        for client in _CLIENTS.values():
            client.close()
        _CLIENTS.clear()


__all__ = ["ChatClient", "ChatFailure", "Reply", "client_for", "close_clients", "response_format"]
