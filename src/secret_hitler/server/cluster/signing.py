"""Sealed messages between the nodes of a cluster (docs/security.md "A cluster's messages").

Anyone who can publish on Redis could otherwise speak for a node: attach a socket to any seat,
or have a node serve a request as any user; and anyone who can read Redis would read what the
nodes tell each other: the users of forwarded requests, invite codes, every relayed frame with
a seat's role and cards. So every message a node (or ``secret-hitler admin``) publishes is
sealed (encrypted and authenticated), and a node acts only on messages that open:

``s2|{sender}|{seq}|{ms}|{ciphertext}`` (bytes; the header is ASCII)

- ``ciphertext``: the payload under AES-256-GCM (``cryptography``'s ``AESGCM``), with the
  channel and the header as associated data: a message cannot be read, forged, changed (a
  flipped byte anywhere fails its tag), or moved to another channel;
- the key: each process draws a random ``salt`` (in ``sender``) and seals with its own key,
  derived (HKDF-SHA256) from the key every node derives from ``SH_SECRET``
  (``Settings.cluster_key``) and that salt; the nonce is ``seq``, which grows by one with each
  message. So no nonce is ever used twice under one key, however long a cluster runs;
- ``sender``: the node's id and the salt; ``ms``: when it was sent. A message older (or newer)
  than ``SKEW`` seconds, or whose ``seq`` is not above the last one opened from its sender, is
  refused: a recorded message cannot be played again. (Redis delivers one publisher's messages
  to a subscriber in order, so a sender's ``seq`` only grows at each receiver.)

What stays in the clear on Redis: channel names (node ids, table ids, connection ids), the
senders' ids, the heartbeat keys, and the counters of the rate limits (client addresses and
usernames as keys): Redis with TLS and an ACL user is still advised (docs/deploy.md).
"""

from __future__ import annotations

import itertools
import re
import secrets
import time

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

VERSION = "s2"
BROADCAST = "sh:all"  # the channel every node reads: revoked sessions, moderation changes
SKEW = 30.0  # seconds a message stays valid (clocks of the nodes may differ this much, less)
SALT_BYTES = 16
SEQ_MAX = (1 << 96) - 1  # the nonce is the seq in 12 bytes
_KEY_INFO = b"secret-hitler cluster seal v2"
_SENDER = re.compile(rb"[A-Za-z0-9._-]{1,64}/[0-9a-f]{32}")
_DIGITS = re.compile(rb"[0-9]{1,29}")


def _sender_key(key: bytes, salt: bytes) -> AESGCM:
    """The AES-GCM key of one sending process."""
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=_KEY_INFO).derive(key)
    return AESGCM(derived)


def _aad(channel: str, head: bytes) -> bytes:
    return channel.encode("utf-8", "surrogatepass") + b"\n" + head


class Seal:
    """Seals this process's messages and opens the others' (one per node)."""

    def __init__(self, key: bytes, node: str) -> None:
        self._key = key
        salt = secrets.token_bytes(SALT_BYTES)
        self.sender = f"{node}/{salt.hex()}"
        self._own = _sender_key(key, salt)
        self._seq = itertools.count(1)
        self._last: dict[bytes, tuple[int, float]] = {}  # sender -> (highest seq, when seen)
        self._keys: dict[bytes, AESGCM] = {}  # sender -> its key (senders whose message opened)
        self.refused = 0

    def seal(self, channel: str, payload: str | bytes) -> bytes:
        """``payload`` (text, or its UTF-8 bytes) sealed for ``channel``."""
        seq = next(self._seq)
        head = f"{VERSION}|{self.sender}|{seq}|{int(time.time() * 1000)}".encode("ascii")
        plain = payload if isinstance(payload, bytes) else payload.encode("utf-8", "surrogatepass")
        box = self._own.encrypt(seq.to_bytes(12, "big"), plain, _aad(channel, head))
        return head + b"|" + box

    def open(self, channel: str, sealed: bytes) -> str | None:
        """The payload of a message that is genuine, fresh and not seen before; else None."""
        payload = self.open_bytes(channel, sealed)
        if payload is None:
            return None
        try:
            return payload.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            self.refused += 1
            return None

    def open_bytes(self, channel: str, sealed: bytes) -> bytes | None:
        """``open``, the payload left as the UTF-8 bytes it was sealed from."""
        payload = self._check(channel, sealed)
        if payload is None:
            self.refused += 1
        return payload

    def _check(self, channel: str, sealed: bytes) -> bytes | None:
        parts = sealed.split(b"|", 4)
        if len(parts) != 5 or parts[0] != VERSION.encode():
            return None
        _, sender, seq_text, ms_text, box = parts
        if not (
            _SENDER.fullmatch(sender) and _DIGITS.fullmatch(seq_text) and _DIGITS.fullmatch(ms_text)
        ):
            return None
        seq, sent = int(seq_text), int(ms_text) / 1000
        now = time.time()
        last = self._last.get(sender)
        if (
            not 0 < seq <= SEQ_MAX
            or abs(now - sent) > SKEW
            or (last is not None and seq <= last[0])
        ):
            return None
        aead = self._keys.get(sender)
        if aead is None:
            aead = _sender_key(self._key, bytes.fromhex(sender.rsplit(b"/", 1)[1].decode()))
        head = b"|".join(parts[:4])
        try:
            plain = aead.decrypt(seq.to_bytes(12, "big"), box, _aad(channel, head))
        except InvalidTag:
            return None
        self._keys[sender] = aead
        self._last[sender] = (seq, now)
        return plain  # sealed by a node of the cluster: its own UTF-8 text

    def forget_old(self) -> None:
        """Senders not heard from within twice ``SKEW``: their old messages are refused by time."""
        cutoff = time.time() - 2 * SKEW
        for sender in [s for s, (_, seen) in self._last.items() if seen < cutoff]:
            del self._last[sender]
            self._keys.pop(sender, None)


def open_once(key: bytes, channel: str, sealed: bytes) -> str | None:
    """The payload of one sealed message, checked, for a tool that holds the key and only
    reads (no memory of messages seen before)."""
    return Seal(key, "reader").open(channel, sealed)


def publish_sealed(redis_url: str, key: bytes, channel: str, payload: str) -> None:
    """Publish one sealed message from outside a node (``secret-hitler admin``)."""
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=2, socket_timeout=5)
    try:
        client.publish(channel, Seal(key, "admin").seal(channel, payload))
    finally:
        client.close()
