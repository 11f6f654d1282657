"""Cluster test helpers: a throw-away Redis, several server nodes sharing one PostgreSQL and
that Redis, and clients that reconnect (to any node) and resume when their node goes away."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import signal
import socket
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
    port (every node reconnects to the same URL)."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="sh-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        log = open(self.dir / "redis.log", "ab")  # noqa: SIM115 - handed to the process
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
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
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s,
            ):
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
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
