"""Load benchmark of the matchmaking queue (docs/competitive.md "The queue"; issue 42 point 6):
the former (``lobby/system.py``) forming tables for PEOPLE waiting people.

It fills the queue of a fresh database with PEOPLE people (ratings drawn around the default,
joined over the last SPREAD seconds, spread over the player counts and categories asked), then
times, on the former's own code and storage:

1. the grouping alone (``matchmaking.form`` over every pool, pure, no database);
2. the first pass: one snapshot read, the grouping, a ready check written per group;
3. everyone answers ready (the people's own writes, ``queue.confirm``);
4. the seating pass: a table opened through the hub for each ready check, its people seated in
   the transaction that stores it, and each full table's game started.

It prints each step's wall time, the ready checks and tables formed, the people left waiting, and
tables per second. SQLite (a file in a temporary folder) by default; PostgreSQL when given
``--database-url postgresql+psycopg://...`` (an empty database: it is migrated, and the queue's
and tables' rows it writes stay there).

    python benchmarks/queue_load.py --people 2000 --players 7 --categories rated,casual
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from secret_hitler.server.competition import matchmaking as MM
from secret_hitler.server.competition import queue as Q
from secret_hitler.server.core.config import Settings
from secret_hitler.server.core.metrics import Metrics
from secret_hitler.server.lobby.hub import Hub
from secret_hitler.server.lobby.system import System
from secret_hitler.server.storage import db
from secret_hitler.server.storage.writer import Store


def _args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--people", type=int, default=2000, help="people waiting (default 2000)")
    p.add_argument(
        "--players", default="7", help="player counts queued for, comma-separated (default 7)"
    )
    p.add_argument("--categories", default="rated,casual", help="categories queued for")
    p.add_argument("--spread", type=float, default=120.0, help="joined over this many seconds")
    p.add_argument("--sd", type=float, default=4.0, help="the ratings' standard deviation")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--database-url", default=None, help="PostgreSQL; default: SQLite in a temp dir")
    return p.parse_args()


def _people(args: argparse.Namespace) -> list[dict[str, Any]]:
    rng = random.Random(args.seed)
    counts = [int(x) for x in args.players.split(",")]
    categories = args.categories.split(",")
    now = time.time()
    out = []
    for i in range(args.people):
        category = categories[i % len(categories)]
        out.append(
            {
                "user_id": f"u{i:05d}",
                "name": f"P{i}",
                "players": counts[(i // len(categories)) % len(counts)],
                "category": category,
                "rating": rng.gauss(25.0, args.sd),
                # each person from her own address and device (a rated table's rule holds)
                "admission": {"a": f"addr{i}", "d": f"dev{i}"} if category == "rated" else None,
                "joined_at": now - rng.uniform(0, args.spread),
            }
        )
    return out


async def _main(args: argparse.Namespace, url: str) -> None:
    engine = db.make_engine(url)
    db.migrate(engine)
    store = Store(engine)
    settings = Settings(data=Path(tempfile.mkdtemp()), newbie_tables=0, queue_ready=60.0)
    hub = Hub(settings, store, Metrics())
    system = System(hub)
    people = _people(args)
    for p in people:
        await store.write(
            Q.join(
                p["user_id"],
                p["name"],
                p["players"],
                p["category"],
                p["rating"],
                p["admission"],
                p["joined_at"],
                settings.queue_no_show,
            )
        )
    pools = len({(p["players"], p["category"]) for p in people})
    print(
        f"queue: {len(people)} people in {pools} pools "
        f"(players {args.players}, {args.categories}), database {engine.url.get_backend_name()}"
    )

    snap = await store.read(Q.snapshot())
    now = time.time()
    t0 = time.perf_counter()
    groups = 0
    for (players, _), pool in snap.pools.items():
        waiting = [MM.Waiting(e.user_id, e.rating, e.joined_at) for e in pool]
        groups += len(MM.form(waiting, players, now, system.band))
    t_form = time.perf_counter() - t0
    print(f"1. grouping alone (matchmaking.form):   {t_form * 1000:8.1f} ms, {groups} groups")

    t0 = time.perf_counter()
    await system.step()
    t_first = time.perf_counter() - t0
    snap = await store.read(Q.snapshot())
    in_checks = sum(len(m.members) for m in snap.matches)
    print(
        f"2. first pass (read, group, write):     {t_first * 1000:8.1f} ms, "
        f"{len(snap.matches)} ready checks, {in_checks} people in them"
    )

    t0 = time.perf_counter()
    for m in snap.matches:
        for e in m.members:
            await store.write(Q.confirm(e.user_id, m.id, True, time.time()))
    t_confirm = time.perf_counter() - t0
    print(
        f"3. {in_checks} ready answers:               {t_confirm * 1000:8.1f} ms "
        f"({t_confirm / max(1, in_checks) * 1000:.2f} ms each)"
    )

    before = len(hub.tables)
    t0 = time.perf_counter()
    await system.step()
    t_seat = time.perf_counter() - t0
    tables = len(hub.tables) - before
    playing = sum(1 for t in hub.tables.values() if t.status == "playing")
    left = await store.read(Q.snapshot())
    still = sum(len(p) for p in left.pools.values())
    print(
        f"4. seating pass (tables opened):        {t_seat * 1000:8.1f} ms, {tables} tables "
        f"({playing} playing), {tables / max(t_seat, 1e-9):.0f} tables/s"
    )
    print(f"   left waiting (no band fits yet): {still}; new ready checks: {len(left.matches)}")
    await hub.close()
    store.close()
    engine.dispose()


def main() -> None:
    args = _args()
    if args.database_url:
        asyncio.run(_main(args, args.database_url))
        return
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_main(args, f"sqlite:///{Path(tmp) / 'queue.db'}"))


if __name__ == "__main__":
    sys.exit(main())
