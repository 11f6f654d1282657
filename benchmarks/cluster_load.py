"""Load test of a cluster (docs/deploy.md): N nodes on one PostgreSQL and one Redis.

Like ``server_load.py`` (whose clients and measures it uses), but table ``i`` is created on node
``i % N`` and seat ``j`` of it connects to node ``(i + j) % N``: with 2 nodes half of the
connections are relayed through Redis. It prints actions/s, the latency from sending an action
to the moment the last client of its table received the update, each node's CPU time and CPU
per action (the node's CPU over the actions its tables accepted), and the CPU time of Redis and
of PostgreSQL (every process of its server) over the same seconds, with the load average.

    python benchmarks/cluster_load.py --nodes 2 --tables 2000 --players 7 --think 2 --duration 60

PostgreSQL and Redis: ``--database-url`` / ``--redis-url``, else a throw-away PostgreSQL
(initdb + pg_ctl) and ``redis-server`` on free ports, started and removed as the tests do
(tests/server/server_support.py, tests/server/cluster_support.py). Bounded: tables, duration,
and a hard timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent / "tests" / "server")]

from server_load import (  # noqa: E402 - after the path set-up
    TableStats,
    Totals,
    cpu_seconds,
    free_port,
    load_limits,
    percentile,
    seat_client,
    server_actions,
    setup_table,
    start_py_spy,
    start_server,
    start_table,
)


async def metrics_text(http: httpx.AsyncClient) -> str:
    """A node's /metrics. Its kept-alive connection may have been closed by the node while the
    starts took minutes (its keep-alive timeout): asked once more on a fresh one."""
    try:
        return (await http.get("/metrics")).text
    except httpx.TransportError:
        return (await http.get("/metrics")).text


def tree_cpu_seconds(root: int) -> float:
    """CPU time of a process and its children (Linux /proc): PostgreSQL's server forks a
    process per connection; those that ended are in the root's reaped children's times."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        if pid == root:
            total += sum(int(f) for f in fields[11:15]) / tick  # own and reaped children's
        elif ppid == root:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def postmaster_pid(pg: Any) -> int | None:
    try:
        return int((pg.dir / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def start_nodes(
    n: int, database_url: str, redis_url: str, limits: dict[str, str], tmp: str
) -> list[tuple[subprocess.Popen[bytes], str]]:
    nodes = []
    for i in range(n):
        data = os.path.join(tmp, f"node{i}")
        os.makedirs(data)
        os.environ.update(
            REDIS_URL=redis_url, SH_NODE_ID=f"node{i}", SH_SECRET="bench", SH_LEASE_TTL="10"
        )
        port = free_port()
        nodes.append((start_server(port, data, database_url, limits), f"http://127.0.0.1:{port}"))
    return nodes


async def run(
    args: argparse.Namespace, bases: list[str], pids: list[int], backing: dict[str, int | None]
) -> dict[str, Any]:
    totals = Totals()
    n = len(bases)
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
    https = [httpx.AsyncClient(base_url=b, limits=limits, timeout=120) for b in bases]
    try:
        sem = asyncio.Semaphore(16)

        async def setup(i: int) -> tuple[str, list[str]]:
            async with sem:
                return await setup_table(https[i % n], args.players, args.seed + i)

        tables = await asyncio.gather(*(setup(i) for i in range(args.tables)))
        ready = asyncio.Event()
        ready_count = [0]
        expected = args.tables * args.players
        conn_sem = asyncio.Semaphore(64)
        rng = random.Random(args.seed)
        all_stats = []
        clients = []
        for i, (tid, tokens) in enumerate(tables):
            stats = TableStats(args.players)
            all_stats.append(stats)
            for j, tok in enumerate(tokens):
                clients.append(
                    asyncio.create_task(
                        seat_client(
                            bases[(i + j) % n],
                            tok,
                            tid,
                            stats,
                            totals,
                            args.think,
                            random.Random(rng.random()),
                            ready,
                            ready_count,
                            expected,
                            conn_sem,
                        )
                    )
                )
        # thousands of handshakes, half of them relayed: a minute or more per thousand tables
        await asyncio.wait_for(ready.wait(), max(300.0, 0.5 * args.tables))
        gc.collect()  # the load generator's own pauses are not the servers' latency (server_load)
        gc.freeze()
        gc.disable()

        async def start(i: int, tid: str, host: str) -> None:
            await asyncio.sleep(rng.uniform(0, args.think))
            # through another node: forwarded to the owner
            await start_table(https[(i + 1) % n], tid, host)

        # every game started first (thousands of forwarded requests take minutes here), then
        # the measured window: what the nodes, Redis and PostgreSQL spend while games run
        t_start = time.perf_counter()
        await asyncio.gather(*(start(i, tid, tokens[0]) for i, (tid, tokens) in enumerate(tables)))
        start_s = time.perf_counter() - t_start
        t0 = time.perf_counter()
        cpu0 = [cpu_seconds(p) for p in pids]
        own0 = time.process_time()
        spy = start_py_spy(args.py_spy, pids[0], args.duration) if args.py_spy else None
        backing0 = {k: tree_cpu_seconds(p) if p else float("nan") for k, p in backing.items()}
        before = [server_actions(await metrics_text(h)) for h in https]
        await asyncio.wait(clients, timeout=args.duration)
        totals.stop = True
        elapsed = time.perf_counter() - t0
        cpu = [cpu_seconds(p) - c for p, c in zip(pids, cpu0, strict=True)]
        client_cpu = time.process_time() - own0
        backing_cpu = {
            k: (tree_cpu_seconds(p) if p else float("nan")) - backing0[k]
            for k, p in backing.items()
        }
        if spy is not None:
            spy.wait()
        metrics = [await metrics_text(h) for h in https]
        for t in clients:
            t.cancel()
        await asyncio.gather(*clients, return_exceptions=True)
    finally:
        for h in https:
            await h.aclose()
    lat: list[float] = []
    for st in all_stats:
        for seq, sent in st.t0.items():
            recv = st.received.get(seq, [])
            if sent >= t0 and len(recv) == st.players:  # sent in the measured window
                lat.append(max(recv) - sent)
    per_node = [server_actions(m) - b for m, b in zip(metrics, before, strict=True)]
    served = sum(per_node)
    return {
        "nodes": n,
        "tables": args.tables,
        "players": args.players,
        "think_s": args.think,
        "start_s": round(start_s, 1),
        "elapsed_s": round(elapsed, 1),
        "connections": totals.connections,
        "relayed_share": round(1 - 1 / n, 2),
        "games_finished": totals.games_finished,
        "actions_server": int(served),
        "actions_per_s": round(served / elapsed, 1),
        "latency_samples": len(lat),
        "p50_ms": round(percentile(lat, 50) * 1000, 1),
        "p99_ms": round(percentile(lat, 99) * 1000, 1),
        "max_ms": round(max(lat) * 1000, 1) if lat else None,
        "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
        "errors": totals.errors,
        "node_cpu_s": [round(c, 1) for c in cpu],
        "node_actions": [int(a) for a in per_node],
        "node_cpu_ms_per_action": [
            round(1000 * c / a, 2) if a else None for c, a in zip(cpu, per_node, strict=True)
        ],
        "cpu_ms_per_action": round(1000 * sum(cpu) / served, 2) if served else None,
        "redis_cpu_s": round(backing_cpu["redis"], 1),
        "postgres_cpu_s": round(backing_cpu["postgres"], 1),
        "client_cpu_s": round(client_cpu, 1),
        "load_average": os.getloadavg(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description="Cluster load test")
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--py-spy", default=None, metavar="FILE", help="profile node 0 while measuring"
    )
    args = parser.parse_args()
    if not 1 <= args.nodes <= 16 or not 1 <= args.tables <= 5000:
        parser.error("--nodes 1-16, --tables 1-5000")

    from cluster_support import Redis, find_redis
    from server_support import Postgres, find_pg_bin

    pg = redis = None
    tmp = tempfile.TemporaryDirectory(prefix="sh-cluster-load-")
    procs: list[subprocess.Popen[bytes]] = []
    try:
        database_url = args.database_url
        if database_url is None:
            bindir = find_pg_bin()
            if bindir is None:
                raise SystemExit("no PostgreSQL binaries: give --database-url")
            pg = Postgres(bindir).start()
            database_url = pg.new_database()
        redis_url = args.redis_url
        if redis_url is None:
            binary = find_redis()
            if binary is None:
                raise SystemExit("no redis-server: give --redis-url")
            redis = Redis(binary).start()
            redis_url = redis.url
        limits = load_limits(args.tables, args.players)
        nodes = start_nodes(args.nodes, database_url, redis_url, limits, tmp.name)
        procs = [p for p, _ in nodes]
        backing = {
            "redis": redis.proc.pid if redis is not None and redis.proc is not None else None,
            "postgres": postmaster_pid(pg) if pg is not None else None,
        }
        out = asyncio.run(
            asyncio.wait_for(
                run(args, [b for _, b in nodes], [p.pid for p in procs], backing),
                args.duration + 900,
            )
        )
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        if redis is not None:
            redis.cleanup()
        if pg is not None:
            pg.stop()
        tmp.cleanup()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
