"""Play-by-post notifications: a table's optional webhook gets a JSON POST when a decision awaits
people (one post per decision, naming only them: never for bots) and when the game ends
(docs/protocol.md "Play-by-post").

The body has ``text`` (what chat services' incoming webhooks show: who is awaited, the table's
link, the deadline in words and in UTC) plus structured fields.
Posting never blocks the table: each POST is a background task with a timeout (httpx), and a
failure is logged (status or error type only, never the URL, which often holds a secret).

Server-side request forgery (docs/security.md "Webhooks"): a webhook may not reach a private,
loopback, link-local, multicast or reserved address unless the operator allows it
(``SH_WEBHOOK_ALLOW_PRIVATE``). Literal addresses and ``localhost`` names are refused when the
URL is set; every POST resolves the host name, refuses it if any of its addresses is such an
address, and connects to the address it checked (no second lookup an attacker's DNS could
answer differently). Redirects are never followed.
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import logging
import re
import socket
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import SplitResult, urlsplit, urlunsplit

import httpx

if TYPE_CHECKING:
    from ..table.session import Table

log = logging.getLogger("secret_hitler.server.webhooks")

URL_MAX = 512
PENDING_MAX = 1000  # posts in flight across all tables; more are dropped (and logged)


class WebhookError(ValueError):
    """A refused webhook URL; the message says why (without echoing it), ``code`` is the API's
    error code."""

    def __init__(self, message: str, code: str = "invalid_webhook") -> None:
        super().__init__(message)
        self.code = code


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
PRIVATE_MESSAGE = (
    "webhook: the address is private, loopback, link-local, multicast or reserved; "
    "webhooks go to public addresses only"
)


_SPECIAL = (
    "is_private",
    "is_loopback",
    "is_link_local",
    "is_multicast",
    "is_reserved",
    "is_unspecified",
    "is_site_local",  # IPv6 fec0::/10: deprecated, yet routed inside some networks
)


# Every block of IANA's special-purpose address registries (iana-ipv4-special-registry and
# iana-ipv6-special-registry, as of RFC 9637 and RFC 9602), whatever their "globally reachable"
# column says: an anycast service (PCP, TURN, AS112, AMT, 6to4 relays) or a documentation range
# is never a webhook's receiver, and the ``ipaddress`` of a given Python knows only the blocks
# older than it (3fff::/20 and 192.88.99.0/24 pass ``is_global`` in Python 3.11).
SPECIAL_PURPOSE = tuple(
    ipaddress.ip_network(block)
    for block in (
        "0.0.0.0/8",  # "this network"
        "10.0.0.0/8",
        "100.64.0.0/10",  # shared address space (carrier-grade NAT)
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",  # IETF protocol assignments (PCP and TURN anycast among them)
        "192.0.2.0/24",  # documentation (TEST-NET-1)
        "192.31.196.0/24",  # AS112
        "192.52.193.0/24",  # AMT
        "192.88.99.0/24",  # 6to4 relay anycast (deprecated, RFC 7526)
        "192.168.0.0/16",
        "192.175.48.0/24",  # AS112 direct delegation
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation (TEST-NET-2)
        "203.0.113.0/24",  # documentation (TEST-NET-3)
        "240.0.0.0/4",  # reserved
        "255.255.255.255/32",
        "::/128",
        "::1/128",
        "::ffff:0:0/96",  # IPv4-mapped
        "64:ff9b::/96",  # IPv4/IPv6 translation (NAT64)
        "64:ff9b:1::/48",  # local-use translation
        "100::/64",  # discard-only
        "100:0:0:1::/64",  # dummy prefix
        "2001::/23",  # IETF protocol assignments (Teredo, benchmarking, AMT, AS112, ORCHID, ...)
        "2001:db8::/32",  # documentation
        "2002::/16",  # 6to4 (deprecated)
        "2620:4f:8000::/48",  # AS112 direct delegation
        "3fff::/20",  # documentation (RFC 9637)
        "5f00::/16",  # segment routing SIDs (RFC 9602)
        "fc00::/7",  # unique local
        "fe80::/10",  # link-local
    )
)


def forbidden_address(ip: IPAddress) -> bool:
    """Not a public unicast address (or an IPv6 address that carries a non-public IPv4 one): in
    a block of ``SPECIAL_PURPOSE``, or of any special-purpose property ``ipaddress`` knows, not
    only ``is_global``, which some special ranges pass (fec0::/10, multicast)."""
    if not ip.is_global or any(getattr(ip, name, False) for name in _SPECIAL):
        return True
    if any(ip in block for block in SPECIAL_PURPOSE if block.version == ip.version):
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        inner = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
        return any(v is not None and forbidden_address(v) for v in inner)
    return False


def _literal(host: str) -> IPAddress | None:
    """The address a host written as one means, including the old IPv4 forms that resolvers
    still accept (``127.1``, ``0x7f000001``)."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    if re.fullmatch(r"[0-9a-fA-FxX.]+", host) and any(c.isdigit() for c in host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def check_url(raw: object, allow_private: bool = False) -> str | None:
    """A webhook URL (http or https, with a host), ``None`` for "" (no webhook), or
    ``WebhookError`` (code ``webhook_private`` for an address webhooks may not reach)."""
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
    if not allow_private:
        ip = _literal(host)
        name = host.rstrip(".").lower()
        if (ip is not None and forbidden_address(ip)) or (
            name == "localhost" or name.endswith(".localhost")
        ):
            raise WebhookError(PRIVATE_MESSAGE, "webhook_private")
    return url


async def resolve(host: str, port: int, allow_private: bool) -> IPAddress:
    """The address to connect to for ``host``: every address it resolves to must be allowed
    (else ``WebhookError`` ``webhook_private``), so no answer of a round-robin name slips by."""
    ip = _literal(host)
    if ip is None:
        infos = await asyncio.get_running_loop().getaddrinfo(
            host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )
        ips = [_literal(str(info[4][0])) for info in infos]
        found = [a for a in ips if a is not None]
        if not found:
            raise WebhookError("webhook: the host name has no address")
        ip = found[0]
    else:
        found = [ip]
    if not allow_private and any(forbidden_address(a) for a in found):
        raise WebhookError(PRIVATE_MESSAGE, "webhook_private")
    return ip


def pinned(parts: SplitResult, ip: IPAddress) -> str:
    """The URL with its host replaced by the checked address (the Host header and TLS name stay
    the original host's)."""
    host = f"[{ip}]" if ip.version == 6 else str(ip)
    userinfo, at, _ = parts.netloc.rpartition("@")
    netloc = (userinfo + at) + (host if parts.port is None else f"{host}:{parts.port}")
    return urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))


def in_words(seconds: float) -> str:
    """A duration as people say it: "2 days 3 hours", "5 hours 10 minutes", "45 seconds"."""
    left = max(0, round(seconds))
    parts = []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        n, left = divmod(left, size)
        if n:
            parts.append(f"{n} {unit}{'s' if n != 1 else ''}")
    return " ".join(parts[:2]) or "0 seconds"


def utc_text(epoch: float) -> str:
    """ISO 8601 in UTC, to the second: ``2026-12-04T18:30:00Z``."""
    when = datetime.datetime.fromtimestamp(round(epoch), datetime.UTC)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


class Webhooks:
    """Sends the notifications of every table of a hub; ``link_base`` is where people open the
    game (``Settings.link_base``), for each post's link to its table."""

    def __init__(self, timeout: float, allow_private: bool = False, link_base: str = "") -> None:
        self.timeout = timeout
        self.allow_private = allow_private  # SH_WEBHOOK_ALLOW_PRIVATE (tests, closed networks)
        self.link_base = link_base
        self._client: httpx.AsyncClient | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.sent = 0
        self.failed = 0

    def _label(self, table: Table) -> str:
        return table.name or "A game of Secret Hitler"

    def link(self, table: Table) -> str:
        return f"{self.link_base}/#/t/{table.id}"

    def turn(self, table: Table) -> None:
        """A new decision: post who is awaited, if people are (bots' turns are not posted)."""
        g = table.game
        if table.webhook is None or g is None or g.finished:
            return
        view = g.view(None)  # the engine says who acts; public to everyone
        people = [  # a blind game's aliases (``Table.shown_name``): no real name is posted
            (s, table.shown_name(s)) for s in view.to_act if table.seats[s].kind == "human"
        ]
        if not people:
            return
        phase = str(getattr(view.phase, "value", view.phase))
        link = self.link(table)
        names = ", ".join(n for _, n in people)
        text = f"{self._label(table)}: waiting for {names} ({phase.replace('_', ' ')}). {link}"
        deadline = table.deadline
        body: dict[str, Any] = {
            "event": "turn",
            "table": table.id,
            "name": table.name,
            "link": link,
            "phase": phase,
            "round": view.round,
            "to_act": [{"seat": s, "name": n} for s, n in people],
            "deadline": None,
            "deadline_in": None,
        }
        if deadline is not None:
            body["deadline"] = utc_text(deadline)
            body["deadline_in"] = in_words(deadline - time.time())
            text += f" Decide within {body['deadline_in']} (by {body['deadline']})."
        self._post(table, {"text": text, **body})

    def game_over(self, table: Table) -> None:
        g = table.game
        if table.webhook is None or g is None:
            return
        winner = g.winner.value if g.winner else None
        reason = g.reason.value if g.reason else None
        link = self.link(table)
        self._post(
            table,
            {
                "text": f"{self._label(table)}: game over, {winner} win ({reason}). {link}",
                "event": "game_over",
                "table": table.id,
                "name": table.name,
                "link": link,
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
            # no proxies from the environment: the address checked is the address reached
            self._client = httpx.AsyncClient(
                timeout=self.timeout, follow_redirects=False, trust_env=False
            )
        try:
            r = await asyncio.wait_for(self._post_checked(url, body), self.timeout)
        except WebhookError as exc:
            self.failed += 1
            table.log.warning("webhook refused", extra={"error": exc.code})
            return
        except Exception as exc:
            self.failed += 1
            table.log.warning("webhook failed", extra={"error": type(exc).__name__[:60]})
            return
        if r.status_code >= 300:
            self.failed += 1
            table.log.warning("webhook refused", extra={"status": r.status_code})
        else:
            self.sent += 1

    async def _post_checked(self, url: str, body: dict[str, Any]) -> httpx.Response:
        """POST to the address the URL's host resolves to, once that address is checked."""
        assert self._client is not None
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        ip = await resolve(host, port, self.allow_private)
        default = parts.port is None
        headers = {"host": host if default else f"{host}:{parts.port}"}
        if ":" in host:
            headers["host"] = f"[{host}]" if default else f"[{host}]:{parts.port}"
        extensions = {"sni_hostname": host} if parts.scheme == "https" else {}
        return await self._client.post(
            pinned(parts, ip), json=body, headers=headers, extensions=extensions
        )

    async def close(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()
