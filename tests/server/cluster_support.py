"""Cluster test helpers: a throw-away Redis, several server nodes sharing one PostgreSQL and
that Redis, and clients that reconnect (to any node) and resume when their node goes away."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets
from server_support import Client, Server

from live_server import free_port

LEASE_TTL = 2.0  # seconds: short, so that failovers happen within a test's time


def find_redis() -> str | None:
    return shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )


class Redis:
    """``redis-server`` on 127.0.0.1 and a free port, without persistence; ``restart`` keeps the
    port (every node reconnects to the same URL). ``args``: more of its settings (ACL users);
    ``user``: the ``(name, password)`` that ``url`` signs in as; ``tls``: served over TLS only,
    with a certificate of its own for 127.0.0.1 (``url`` is then ``rediss://`` naming it)."""

    def __init__(
        self,
        binary: str,
        args: list[str] | None = None,
        user: tuple[str, str] | None = None,
        tls: bool = False,
    ) -> None:
        self.binary = binary
        self.args = args or []
        self.user = user
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="sh-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.cert = self_signed(self.dir) if tls else None

    @property
    def url(self) -> str:
        return self.url_as(*self.user) if self.user else self._url("")

    def url_as(self, name: str, password: str) -> str:
        return self._url(f"{name}:{password}@")

    def _url(self, who: str) -> str:
        if self.cert is None:
            return f"redis://{who}127.0.0.1:{self.port}/0"
        return f"rediss://{who}127.0.0.1:{self.port}/0?ssl_ca_certs={self.cert}"

    def _listen(self) -> list[str]:
        if self.cert is None:
            return ["--port", str(self.port)]
        key = self.dir / "key.pem"
        return [
            *("--port", "0", "--tls-port", str(self.port)),
            *("--tls-cert-file", str(self.cert), "--tls-key-file", str(key)),
            *("--tls-ca-cert-file", str(self.cert), "--tls-auth-clients", "no"),
        ]

    def _answers(self) -> bool:
        """PING answered (NOAUTH too: a Redis that needs a user is up)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as raw:
            s = raw
            if self.cert is not None:
                s = ssl.create_default_context(cafile=str(self.cert)).wrap_socket(
                    raw, server_hostname="127.0.0.1"
                )
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith((b"+PONG", b"-NOAUTH"))

    def start(self) -> Redis:
        log = open(self.dir / "redis.log", "ab")  # noqa: SIM115 - handed to the process
        self.proc = subprocess.Popen(
            [
                self.binary,
                *self._listen(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
                *self.args,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("redis-server exited: " + (self.dir / "redis.log").read_text())
            with contextlib.suppress(OSError):
                if self._answers():
                    return self
            time.sleep(0.02)  # polling for the port to open, bounded by the deadline
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class ChannelTap:
    """A Redis subscriber to the channels matching ``pattern`` (every table's, ``sh:t:*``, as
    another node reads them; ``*``, everything, as someone who may read it all), keeping what
    it got until ``stop``."""

    def __init__(self, url: str, pattern: str = "sh:t:*") -> None:
        import redis.asyncio as aioredis

        self.client = aioredis.from_url(url)
        self.pubsub = self.client.pubsub()
        self.pattern = pattern
        self.got: list[tuple[str, bytes]] = []
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> ChannelTap:
        await self.pubsub.psubscribe(self.pattern)
        self.task = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        while True:
            m = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if m is not None:
                self.got.append((m["channel"].decode(), m["data"]))

    async def stop(self) -> list[tuple[str, bytes]]:
        assert self.task is not None
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.pubsub.aclose()
        await self.client.aclose()
        return self.got


def self_signed(folder: Path) -> Path:
    """A certificate for 127.0.0.1 that is its own authority (``cert.pem``, and ``key.pem``
    beside it), for a Redis served over TLS."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "test redis")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    (folder / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    path = folder / "cert.pem"
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return path


def start_nodes(
    make_server: Any, database_url: str, redis: Redis, n: int, **env: str
) -> list[Server]:
    return [
        make_server(
            database_url=database_url,
            REDIS_URL=redis.url,
            SH_NODE_ID=f"node{i}",
            SH_LEASE_TTL=str(LEASE_TTL),
            **env,
        )
        for i in range(n)
    ]


async def reconnect(
    client: Client, table_id: str, nodes: list[Server], timeout: float = 30
) -> None:
    """Connect again, to the next living node in turn, until the table answers with a resume
    (or a welcome for a fresh client)."""
    end = time.monotonic() + timeout
    tries = 0
    while True:
        living = [n for n in nodes if n.proc is not None and n.proc.poll() is None]
        node = living[tries % len(living)]
        tries += 1
        client.server = node
        await client.close()
        try:
            first = await client.connect(table_id, since=client.seq if client.seq else None)
        except (OSError, TimeoutError, websockets.ConnectionClosed, websockets.InvalidStatus):
            first = None
        if first is not None:
            return
        if time.monotonic() > end:
            raise TimeoutError(f"{client.label}: could not reconnect")
        await asyncio.sleep(0.2)  # a pause between attempts (the lease may not have expired)


async def play_through(
    client: Client, table_id: str, nodes: list[Server], rng: random.Random, timeout: float = 90
) -> None:
    """Play to the end of the game; whenever the connection closes, reconnect and resume."""
    end = time.monotonic() + timeout
    while client.record is None:
        try:
            await client.play(rng, claim_p=0.3, timeout=max(1.0, end - time.monotonic()))
        except (websockets.ConnectionClosed, OSError):
            if time.monotonic() > end:
                raise
            await reconnect(client, table_id, nodes)
        except TimeoutError:
            raise


def public(action: dict[str, Any]) -> dict[str, Any]:
    out = {"seat": action["seat"], "type": action["type"]}
    if "target" in action and action["type"] != "claim":
        out["target"] = action["target"]
    return out if action["type"] != "claim" else action
