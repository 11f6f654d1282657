"""Signed messages between the nodes of a cluster (docs/security.md "A cluster's messages").

Anyone who can publish on Redis could otherwise speak for a node: attach a socket to any seat,
or have a node serve a request as any user. So every message a node (or ``secret-hitler
admin``) publishes is sealed, and a node acts only on messages that open:

``s1|{sender}|{seq}|{ms}|{mac}|{payload}``

- ``mac``: HMAC-SHA256, with the key every node derives from ``SH_SECRET``
  (``Settings.cluster_key``), of the channel, the header and the payload: a message cannot be
  forged, changed, or moved to another channel;
- ``sender``: the node's id and a random id of its process; ``seq`` grows by one with each
  message it sends; ``ms``: when it was sent. A message older (or newer) than ``SKEW`` seconds,
  or whose ``seq`` is not above the last one opened from its sender, is refused: a recorded
  message cannot be played again. (Redis delivers one publisher's messages to a subscriber in
  order, so a sender's ``seq`` only grows at each receiver.)
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
import time

VERSION = "s1"
BROADCAST = "sh:all"  # the channel every node reads: revoked sessions, moderation changes
SKEW = 30.0  # seconds a message stays valid (clocks of the nodes may differ this much, less)


class Seal:
    """Seals this process's messages and opens the others' (one per node)."""

    def __init__(self, key: bytes, node: str) -> None:
        self._key = key
        self.sender = f"{node}/{secrets.token_hex(6)}"
        self._seq = itertools.count(1)
        self._last: dict[str, tuple[int, float]] = {}  # sender -> (highest seq, when seen)
        self.refused = 0

    def _mac(self, channel: str, head: str, payload: str) -> str:
        data = f"{channel}\n{head}\n{payload}".encode("utf-8", "surrogatepass")
        return hmac.new(self._key, data, hashlib.sha256).hexdigest()

    def seal(self, channel: str, payload: str) -> str:
        head = f"{VERSION}|{self.sender}|{next(self._seq)}|{int(time.time() * 1000)}"
        return f"{head}|{self._mac(channel, head, payload)}|{payload}"

    def open(self, channel: str, sealed: str) -> str | None:
        """The payload of a message that is genuine, fresh and not seen before; else None."""
        payload = self._check(channel, sealed)
        if payload is None:
            self.refused += 1
        return payload

    def _check(self, channel: str, sealed: str) -> str | None:
        parts = sealed.split("|", 5)
        if len(parts) != 6 or parts[0] != VERSION:
            return None
        _, sender, seq_text, ms_text, mac, payload = parts
        head = "|".join(parts[:4])
        if not hmac.compare_digest(mac, self._mac(channel, head, payload)):
            return None
        try:
            seq, sent = int(seq_text), int(ms_text) / 1000
        except ValueError:
            return None
        now = time.time()
        last = self._last.get(sender)
        if abs(now - sent) > SKEW or (last is not None and seq <= last[0]):
            return None
        self._last[sender] = (seq, now)
        return payload

    def forget_old(self) -> None:
        """Senders not heard from within twice ``SKEW``: their old messages are refused by time."""
        cutoff = time.time() - 2 * SKEW
        for sender in [s for s, (_, seen) in self._last.items() if seen < cutoff]:
            del self._last[sender]


def payload_of(sealed: str) -> str:
    """The payload of a sealed message, unchecked (for tools that only read)."""
    return sealed.split("|", 5)[-1]


def publish_sealed(redis_url: str, key: bytes, channel: str, payload: str) -> None:
    """Publish one sealed message from outside a node (``secret-hitler admin``)."""
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=2, socket_timeout=5)
    try:
        client.publish(channel, Seal(key, "admin").seal(channel, payload))
    finally:
        client.close()
