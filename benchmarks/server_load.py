"""Load test of the multiplayer server: many concurrent tables of bot-driven WebSocket clients.

Every seat of every table is an external WebSocket client (its own guest session) that plays a
random legal move after a human-like thinking time. The script measures, for every accepted
action, the latency from sending it to the moment the *last* client of that table received the
resulting update, and prints actions/s and the latency percentiles.

    python benchmarks/server_load.py                       # 500 tables x 7 players, 60 s
    python benchmarks/server_load.py --tables 50 --duration 20
    python benchmarks/server_load.py --url http://127.0.0.1:8000   # against a running server

Without ``--url`` it starts ``secret-hitler serve`` on 127.0.0.1 (a free port, a temporary data
folder, SQLite unless ``--database-url``). Everything is bounded: table count, duration, and a
hard timeout.

Every client of the benchmark comes from 127.0.0.1, so the server it starts gets the per-address
limits of docs/security.md raised explicitly (``load_limits``, passed as ``--limit`` options and
printed); a server given with ``--url`` must be started with such limits too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets


@dataclass
class TableStats:
    players: int
    sent_at: dict[str, float] = field(default_factory=dict)  # action id -> send time
    t0: dict[int, float] = field(default_factory=dict)  # seq -> send time of its action
    received: dict[int, list[float]] = field(default_factory=dict)  # seq -> receive times
    finished: bool = False


@dataclass
class Totals:
    errors: int = 0
    games_finished: int = 0
    connections: int = 0
    stop: bool = False
    latencies: list[float] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def load_limits(tables: int, players: int) -> dict[str, str]:
    """The limits (docs/security.md) this run needs, all from one address."""
    clients = tables * players
    return {
        "connections_per_address": str(clients + 100),
        "session_rate": f"{clients + 100}/minute",
        "tables_per_address": str(tables + 10),
        "hello_timeout": "300",  # thousands of handshakes queue up before their hello
        # ... and as HTTP connections until they are upgraded, their headers waiting meanwhile
        "http_connections_per_address": str(clients + 100),
        "header_timeout": "300",
    }


def start_server(
    port: int, data: str, database_url: str | None, limits: dict[str, str]
) -> subprocess.Popen[bytes]:
    env = dict(
        os.environ,
        SH_PORT=str(port),
        SH_HOST="127.0.0.1",
        SH_DATA=data,
        SH_BOT_DELAY="0",
        SH_GRACE="600",
    )
    env.pop("DATABASE_URL", None)
    if database_url:
        env["DATABASE_URL"] = database_url
    log = open(os.path.join(data, "server.log"), "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "secret_hitler.cli", "serve", "--log-level", "warning"]
        + [arg for name, value in limits.items() for arg in ("--limit", f"{name}={value}")],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


async def seat_client(
    base: str,
    token: str,
    table_id: str,
    stats: TableStats,
    totals: Totals,
    think: float,
    rng: random.Random,
    ready: asyncio.Event,
    ready_count: list[int],
    expected: int,
    conn_sem: asyncio.Semaphore,
) -> None:
    ws_url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    async with conn_sem:  # a bounded number of handshakes at a time
        ws = await websockets.connect(
            ws_url,
            additional_headers={"Authorization": f"Bearer {token}"},
            max_size=1 << 22,
            open_timeout=120,
            ping_interval=None,
        )
    async with ws:
        totals.connections += 1
        # acks in updates (docs/protocol.md 2.1): one frame fewer per action; a server that
        # does not offer it (or a relayed connection) still sends ack messages, read below
        await ws.send('{"v":1,"type":"hello","since":null,"acks":"update"}')
        n = 0
        pending: str | None = None
        act_task: asyncio.Task[None] | None = None
        view: dict[str, Any] | None = None
        legal: list[dict[str, Any]] = []

        async def act_later(action: dict[str, Any], msg_id: str) -> None:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if totals.stop:
                return
            stats.sent_at[msg_id] = time.perf_counter()
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(
                    json.dumps({"v": 1, "type": "action", "id": msg_id, "action": action})
                )

        def acked(msg_id: str, seq: int | None) -> None:
            nonlocal pending
            sent = stats.sent_at.pop(msg_id, None)
            if sent is not None and seq:
                stats.t0[seq] = sent
            if msg_id == pending:
                pending = None

        async for raw in ws:
            now = time.perf_counter()
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "update":
                stats.received.setdefault(msg["seq"], []).append(now)
                view, legal = msg["view"], msg["legal"]
                if "ack" in msg:
                    acked(msg["ack"], msg["seq"])
            elif kind == "welcome":
                view, legal = msg["view"], msg["legal"]
                ready_count[0] += 1
                if ready_count[0] >= expected:
                    ready.set()
            elif kind == "ack":
                acked(msg["id"], msg.get("seq"))
            elif kind == "error":
                totals.errors += 1
                if msg["id"] == pending:
                    pending = None
            elif kind == "game_over":
                if not stats.finished:
                    stats.finished = True
                    totals.games_finished += 1
                return
            if totals.stop:
                return
            if view is None or pending is not None or (act_task and not act_task.done()):
                continue
            turn = [a for a in legal if a["type"] != "claim"]
            if turn and view["seat"] in view["to_act"]:
                n += 1
                pending = f"a{n}"
                act_task = asyncio.create_task(act_later(rng.choice(turn), pending))


async def setup_table(http: httpx.AsyncClient, players: int, seed: int) -> tuple[str, list[str]]:
    tokens = []
    for i in range(players):
        r = await http.post("/api/session", json={"name": f"Load{seed}x{i}"})
        tokens.append(r.json()["token"])
    table = (
        await http.post(
            "/api/tables",
            json={"players": players, "auto_start": False},
            headers={"authorization": f"Bearer {tokens[0]}"},
        )
    ).json()
    tid = table["id"]
    for tok in tokens[1:]:
        r = await http.post(
            f"/api/tables/{tid}/join", json={}, headers={"authorization": f"Bearer {tok}"}
        )
        r.raise_for_status()
    return tid, tokens


async def main_async(args: argparse.Namespace, base: str, pid: int | None) -> dict[str, Any]:
    """Set up every table, connect every seat, then start all games and measure."""
    totals = Totals()
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as http:
        sem = asyncio.Semaphore(16)

        async def setup(i: int) -> tuple[str, list[str]]:
            async with sem:
                return await setup_table(http, args.players, args.seed + i)

        t_setup = time.perf_counter()
        tables = await asyncio.gather(*(setup(i) for i in range(args.tables)))
        setup_s = time.perf_counter() - t_setup
        # connect every seat (one WebSocket each) and wait for every welcome
        ready = asyncio.Event()
        ready_count = [0]
        expected = args.tables * args.players
        all_stats: list[TableStats] = []
        clients = []
        conn_sem = asyncio.Semaphore(64)

        async def client(tid: str, tok: str, stats: TableStats, rng: random.Random) -> None:
            await seat_client(
                base,
                tok,
                tid,
                stats,
                totals,
                args.think,
                rng,
                ready,
                ready_count,
                expected,
                conn_sem,
            )

        rng = random.Random(args.seed)
        for tid, tokens in tables:
            stats = TableStats(args.players)
            all_stats.append(stats)
            for tok in tokens:
                clients.append(
                    asyncio.create_task(client(tid, tok, stats, random.Random(rng.random())))
                )
        await asyncio.wait_for(ready.wait(), 300)
        # The load generator's own garbage-collection pauses would count as the server's
        # latency (at 3,500 clients one collection of its young objects took up to 160 ms on
        # this machine): none while it measures.
        gc.collect()
        gc.freeze()
        gc.disable()
        gc_before = histogram_sum((await http.get("/metrics")).text, "sh_gc_pause_seconds")
        # start every game, spread over one thinking time so that they do not move in lockstep
        t0 = time.perf_counter()
        cpu0 = cpu_seconds(pid) if pid else float("nan")
        sys0 = cpu_seconds(pid, system_only=True) if pid else float("nan")
        spy = start_py_spy(args.py_spy, pid, args.duration) if args.py_spy else None
        own0 = time.process_time()

        async def start(tid: str, host: str) -> None:
            await asyncio.sleep(rng.uniform(0, args.think))
            await start_table(http, tid, host)

        await asyncio.gather(*(start(tid, tokens[0]) for tid, tokens in tables))
        done, _ = await asyncio.wait(
            clients, timeout=max(0.0, args.duration - (time.perf_counter() - t0))
        )
        totals.stop = True
        elapsed = time.perf_counter() - t0
        server_cpu = (cpu_seconds(pid) if pid else float("nan")) - cpu0
        server_sys = (cpu_seconds(pid, system_only=True) if pid else float("nan")) - sys0
        if spy is not None:
            spy.wait()
        client_cpu = time.process_time() - own0
        metrics = (await http.get("/metrics")).text
        for t in clients:
            t.cancel()
        await asyncio.gather(*clients, return_exceptions=True)
        failed = [t.exception() for t in done if not t.cancelled() and t.exception() is not None]
        if failed:
            print(f"{len(failed)} clients failed, first: {failed[0]!r}", file=sys.stderr)
    lat: list[float] = []
    for st in all_stats:
        for seq, sent in st.t0.items():
            recv = st.received.get(seq, [])
            if len(recv) == st.players:
                lat.append(max(recv) - sent)
    return {
        "elapsed": elapsed,
        "setup_s": setup_s,
        "totals": totals,
        "latencies": lat,
        "metrics": metrics,
        "tables_started": len(tables),
        "server_cpu": server_cpu,
        "server_sys": server_sys,
        "server_gc": {
            k: v - gc_before.get(k, 0.0)
            for k, v in histogram_sum(metrics, "sh_gc_pause_seconds").items()
        },
        "client_cpu": client_cpu,
    }


async def start_table(http: httpx.AsyncClient, table_id: str, host: str) -> None:
    """Start a table's game. A kept-alive connection the server closed after the minutes of
    set-up (its keep-alive timeout) may fail as it is reused: tried once more, when a 409 says
    the first try started it."""
    for attempt in range(2):
        try:
            r = await http.post(
                f"/api/tables/{table_id}/start",
                json={},
                headers={"authorization": f"Bearer {host}"},
            )
        except httpx.TransportError:
            if attempt:
                raise
            continue
        if not (attempt and r.status_code == 409):
            r.raise_for_status()
        return


def start_py_spy(out: str, pid: int | None, duration: float) -> subprocess.Popen[bytes]:
    """py-spy (the dev extra) sampling the server over the measured seconds, its stacks written
    to ``out`` as py-spy's raw (collapsed) format. It samples wall time: on a busy machine a
    server waiting for a core (after a socket write woke its reader, say) is sampled where it
    waits, so weigh its shares against ``server_system_ms_per_action``."""
    if pid is None:
        raise SystemExit("--py-spy needs the server this script starts (no --url)")
    beside = os.path.join(os.path.dirname(sys.executable), "py-spy")
    binary = beside if os.path.exists(beside) else "py-spy"
    command = [binary, "record", "-p", str(pid), "-d", str(max(1, int(duration) - 1))]
    command += ["-r", "200", "-f", "raw", "-o", out, "--nonblocking"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def cpu_seconds(pid: int, system_only: bool = False) -> float:
    """User + system CPU time of a process (Linux /proc), or its system time alone (the
    kernel's: socket writes and reads, the commit's file writes), or nan."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        ticks = int(fields[12]) + (0 if system_only else int(fields[11]))
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def server_latency(metrics: str) -> dict[str, float]:
    """Server-side action latency (receive -> updates queued): share of actions per bucket."""
    buckets: dict[str, float] = {}
    for line in metrics.splitlines():
        if line.startswith("sh_action_latency_seconds_bucket{"):
            le = line.split('le="', 1)[1].split('"', 1)[0]
            buckets[le] = float(line.rsplit(" ", 1)[1])
    total = buckets.get("+Inf", 0.0) or 1.0
    return {
        f"<={k}s": round(v / total, 4) for k, v in buckets.items() if k in ("0.01", "0.05", "0.1")
    }


def histogram_max_bucket(metrics: str, name: str) -> dict[str, float]:
    """Counts above 10/50/100 ms of a server histogram (all label sets summed)."""
    le_counts: dict[str, float] = {}
    for line in metrics.splitlines():
        if line.startswith(name + "_bucket{"):
            le = line.split('le="', 1)[1].split('"', 1)[0]
            le_counts[le] = le_counts.get(le, 0.0) + float(line.rsplit(" ", 1)[1])
    total = le_counts.get("+Inf", 0.0)
    return {
        f">{k}s": total - le_counts.get(k, 0.0) for k in ("0.01", "0.05", "0.1") if k in le_counts
    }


def histogram_sum(metrics: str, name: str) -> dict[str, float]:
    """The sums of a server histogram's observations, by label set (``{generation="2"}``)."""
    return {
        line.split("{", 1)[1].split("}", 1)[0] if "{" in line else "": float(line.rsplit(" ", 1)[1])
        for line in metrics.splitlines()
        if line.startswith(name + "_sum")
    }


def server_actions(metrics: str) -> float:
    total = 0.0
    for line in metrics.splitlines():
        if line.startswith("sh_actions_total{"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description="Multiplayer server load test")
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean thinking time per decision (s)"
    )
    parser.add_argument("--duration", type=float, default=60.0, help="stop after this many seconds")
    parser.add_argument("--url", default=None, help="a running server (default: start one)")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--py-spy", default=None, metavar="FILE", help="profile the server while measuring"
    )
    args = parser.parse_args()

    gc.set_threshold(50_000, 50, 100)
    proc = None
    tmp = None
    base = args.url
    if base is None:
        tmp = tempfile.TemporaryDirectory(prefix="sh-load-")
        port = free_port()
        limits = load_limits(args.tables, args.players)
        print(
            "server limits:",
            " ".join(f"--limit {k}={v}" for k, v in limits.items()),
            file=sys.stderr,
        )
        proc = start_server(port, tmp.name, args.database_url, limits)
        base = f"http://127.0.0.1:{port}"
    try:
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        pid = proc.pid if proc is not None else None
        out = asyncio.run(asyncio.wait_for(main_async(args, base, pid), args.duration + 900))
        server_cpu, client_cpu = out["server_cpu"], out["client_cpu"]
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if tmp is not None:
            tmp.cleanup()
    lat = out["latencies"]
    totals: Totals = out["totals"]
    served = server_actions(out["metrics"])
    result = {
        "tables": args.tables,
        "players": args.players,
        "think_s": args.think,
        "setup_s": round(out["setup_s"], 1),
        "elapsed_s": round(out["elapsed"], 1),
        "tables_started": out["tables_started"],
        "connections": totals.connections,
        "games_finished": totals.games_finished,
        "actions_server": int(served),
        "actions_per_s": round(served / out["elapsed"], 1),
        "latency_samples": len(lat),
        "p50_ms": round(percentile(lat, 50) * 1000, 1),
        "p99_ms": round(percentile(lat, 99) * 1000, 1),
        "max_ms": round(max(lat) * 1000, 1) if lat else None,
        "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
        "errors": totals.errors,
        "server_side": server_latency(out["metrics"]),
        "loop_lag_over": histogram_max_bucket(out["metrics"], "sh_loop_lag_seconds"),
        "gc_pauses_over": histogram_max_bucket(out["metrics"], "sh_gc_pause_seconds"),
        "server_cpu_s": round(server_cpu, 1),
        "server_cpu_ms_per_action": round(1000 * server_cpu / served, 3) if served else None,
        "server_system_ms_per_action": (
            round(1000 * out["server_sys"] / served, 3) if served else None
        ),
        # the server's garbage collections over the measured seconds (wall time), by generation
        "server_gc_ms_per_action": {
            k.split('"')[1] if '"' in k else k: round(1000 * v / served, 3)
            for k, v in out["server_gc"].items()
        }
        if served
        else None,
        "client_cpu_s": round(client_cpu, 1),
        "load_average": os.getloadavg()[0],
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
