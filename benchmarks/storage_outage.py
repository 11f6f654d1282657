"""How fast the server answers while a write waits for a database that has gone away.

A real server on SQLite (``SH_DB_TIMEOUT`` seconds of retrying before a write fails), five guests
seated at a table. The database is locked by this process (``BEGIN IMMEDIATE``), the president
nominates, and until the nomination's answer (the error ``unavailable``, after the timeout)
another player pings back to back; then the same pings with the database back. Prints each
phase's ping round trips (p50, p90, max, count). The event loop never waits for the database
(server/storage/writer.py), so both phases should read alike; a stall once held every ping
7.6 s. tests/server/test_storage_faults.py checks the behaviour (pongs come before the error);
this prints the figure, which depends on the machine and its load.

    python benchmarks/storage_outage.py
    python benchmarks/storage_outage.py --db-timeout 3 --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tests"), str(HERE.parent / "tests" / "server")]

from server_support import Client, Server, ahttp, session  # noqa: E402 - after the path set-up


async def _seated(server: Server) -> list[Client]:
    tokens = [session(server, f"P{i}") for i in range(5)]
    table = await ahttp(server, "POST", "/api/tables", {"players": 5}, tokens[0])
    for token in tokens[1:]:
        await ahttp(server, "POST", f"/api/tables/{table['id']}/join", {}, token)
    clients = [Client(server, token, f"seat{i}") for i, token in enumerate(tokens)]
    for c in clients:
        await c.connect(table["id"])
    return clients


async def _ping(c: Client) -> float:
    t = time.perf_counter()
    await c.send({"v": 1, "type": "ping"})
    await c.recv_until(lambda m: m["type"] == "pong")
    return time.perf_counter() - t


async def _round(server: Server, locker: sqlite3.Connection) -> tuple[list[float], list[float]]:
    """One table: ping round trips while the nomination waits for the locked database, then as
    many with the database back."""
    clients = await _seated(server)
    president = next(c for c in clients if c.view and c.seat in c.view["to_act"])
    watcher = next(c for c in clients if c is not president)
    action = next(a for a in president.legal if a["type"] == "nominate")
    locker.execute("BEGIN IMMEDIATE")
    try:
        await president.send({"v": 1, "type": "action", "id": "n", "action": action})
        reply = asyncio.create_task(president.recv_until(lambda m: m.get("id") == "n"))
        down = []
        while not reply.done():
            down.append(await _ping(watcher))
        answer = await reply
        assert answer.get("code") == "unavailable", answer
    finally:
        locker.execute("ROLLBACK")
    up = [await _ping(watcher) for _ in range(len(down))]
    for c in clients:
        await c.close()
    return down, up


def _line(name: str, rtts: list[float]) -> str:
    ms = sorted(x * 1000 for x in rtts)
    p90 = ms[min(len(ms) - 1, len(ms) * 9 // 10)]
    return (
        f"{name:<14} p50 {statistics.median(ms):7.2f} ms  p90 {p90:7.2f} ms  "
        f"max {ms[-1]:7.2f} ms  ({len(ms)} pings)"
    )


async def _main(server: Server, rounds: int) -> None:
    locker = sqlite3.connect(server.data / "secret-hitler.db", isolation_level=None, timeout=0)
    try:
        down: list[float] = []
        up: list[float] = []
        for _ in range(rounds):
            d, u = await _round(server, locker)
            down += d
            up += u
    finally:
        locker.close()
    print(_line("database away", down))
    print(_line("database back", up))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db-timeout", type=float, default=1.0, help="SH_DB_TIMEOUT (seconds)")
    parser.add_argument("--rounds", type=int, default=3, help="tables, one outage each")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sh-outage-") as tmp:
        server = Server(Path(tmp), SH_DB_TIMEOUT=str(args.db_timeout)).start()
        try:
            asyncio.run(_main(server, args.rounds))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
