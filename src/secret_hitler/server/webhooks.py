"""Play-by-post notifications: a table's optional webhook gets a JSON POST when it is a human
player's turn and when the game ends (docs/protocol.md "Play-by-post").

The body has ``text`` (what chat services' incoming webhooks show) plus structured fields.
Posting never blocks the table: each POST is a background task with a timeout (httpx), and a
failure is logged (status or error type only, never the URL, which often holds a secret).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("secret_hitler.server.webhooks")

URL_MAX = 512
PENDING_MAX = 1000  # posts in flight across all tables; more are dropped (and logged)


class WebhookError(ValueError):
    """A refused webhook URL; the message says why (without echoing it)."""


def check_url(raw: object) -> str | None:
    """A webhook URL (http or https, with a host), ``None`` for "" (no webhook), or
    ``WebhookError``."""
    if not isinstance(raw, str):
        raise WebhookError("webhook: must be a string")
    url = raw.strip()
    if not url:
        return None
    if len(url) > URL_MAX:
        raise WebhookError(f"webhook: at most {URL_MAX} characters")
    if any(ord(ch) < 33 or ord(ch) == 127 for ch in url):
        raise WebhookError("webhook: no spaces or control characters")
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        raise WebhookError("webhook: not a valid URL") from None
    if parts.scheme not in ("http", "https"):
        raise WebhookError("webhook: must be an http:// or https:// URL")
    if not host:
        raise WebhookError("webhook: the URL needs a host")
    return url


class Webhooks:
    """Sends the notifications of every table of a hub."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._client: httpx.AsyncClient | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.sent = 0
        self.failed = 0

    def _names(self, table: Table, seats: list[int]) -> list[str]:
        return [table.seats[s].name or f"Seat {s + 1}" for s in seats]

    def _label(self, table: Table) -> str:
        return table.name or f"Table {table.id}"

    def turn(self, table: Table) -> None:
        """A new decision: post whose turn it is (only when a human seat is asked)."""
        g = table.game
        if table.webhook is None or g is None or g.finished:
            return
        to_act = list(g.view(None).to_act)  # the engine says who acts; public to everyone
        humans = [s for s in to_act if table.seats[s].kind == "human"]
        if not humans:
            return
        names = self._names(table, to_act)
        view = g.view(None)
        phase = str(getattr(view.phase, "value", view.phase))
        self._post(
            table,
            {
                "text": f"{self._label(table)}: waiting for {', '.join(names)} ({phase})",
                "event": "turn",
                "table": table.id,
                "name": table.name,
                "phase": phase,
                "round": view.round,
                "to_act": [{"seat": s, "name": n} for s, n in zip(to_act, names, strict=True)],
                "deadline": table.deadline,
            },
        )

    def game_over(self, table: Table) -> None:
        g = table.game
        if table.webhook is None or g is None:
            return
        winner = g.winner.value if g.winner else None
        reason = g.reason.value if g.reason else None
        self._post(
            table,
            {
                "text": f"{self._label(table)}: game over, {winner} win ({reason})",
                "event": "game_over",
                "table": table.id,
                "name": table.name,
                "winner": winner,
                "reason": reason,
            },
        )

    def _post(self, table: Table, body: dict[str, Any]) -> None:
        url = table.webhook
        assert url is not None
        if len(self._tasks) >= PENDING_MAX:
            self.failed += 1
            table.log.warning("webhook dropped: too many posts in flight")
            return
        task = asyncio.get_running_loop().create_task(self._send(table, url, body))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, table: Table, url: str, body: dict[str, Any]) -> None:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.timeout, follow_redirects=False)
        try:
            r = await asyncio.wait_for(self._client.post(url, json=body), self.timeout)
        except Exception as exc:
            self.failed += 1
            table.log.warning("webhook failed", extra={"error": type(exc).__name__[:60]})
            return
        if r.status_code >= 300:
            self.failed += 1
            table.log.warning("webhook refused", extra={"status": r.status_code})
        else:
            self.sent += 1

    async def close(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()
