"""When bots' moves leave a table, against how long they thought (issue 29 item 11).

A table of bots is driven in-process by the server's own driver (``table/driver.py``) on the
event loop's real clock, with a writer that stores nothing. For every bot move it records when
the decision was put to the bot (``driver._put``), when the bot was done thinking (wall time on the server's
worker threads, several bots at once in a vote), and when the move left; it prints, by the
bot's side, the thinking times (median, p90, p99, max), the share of moves that left late (the
bot still thinking when its drawn delay ran out: only these tell a watcher anything), and the
delays the moves left after, which should not differ between the sides.

    .venv/bin/python benchmarks/bot_leave_times.py [--level search] [--players 7,10]
        [--games 2] [--bot-delay 1.0] [--floor SECONDS]

``--floor`` overrides ``bot_seats.SLOW_THINK_FLOOR`` (the shortest delay of a slow level's move).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
from collections.abc import Awaitable, Callable
from typing import Any

from secret_hitler.engine import Action
from secret_hitler.server.core.config import Settings
from secret_hitler.server.core.guard import Guard
from secret_hitler.server.core.metrics import Metrics
from secret_hitler.server.table import bot_seats
from secret_hitler.server.table.seats import Seat
from secret_hitler.server.table.services import LoopClock, Services
from secret_hitler.server.table.session import Table


class NoWriter:
    async def write(self, table_id: str, fn: Any) -> Any:
        return None

    async def read(self, fn: Any) -> Any:
        return None


class Listener:
    def __init__(self) -> None:
        self.over = asyncio.Event()

    def turn(self, table: Table) -> None: ...

    def game_over(self, table: Table) -> None: ...

    def finished(self, table: Table) -> None:
        self.over.set()

    def idle(self, table: Table) -> None: ...


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def play(players: int, level: str, bot_delay: float, seed: int) -> list[dict[str, Any]]:
    """One game; a row per bot move: side, thought (s), waited (s from the decision), late."""
    settings = Settings(bot_delay=bot_delay)
    listener = Listener()
    services = Services(
        settings=settings,
        writer=NoWriter(),
        webhooks=listener,
        listener=listener,
        metrics=Metrics(),
        limits=Guard(settings),
        standin_level="rule",
        clock=LoopClock(),
    )
    seats = [Seat("bot", None, f"Bot {i + 1}", level) for i in range(players)]
    table = Table(
        services,
        id=f"bench{seed}",
        host="",
        host_name="",
        players=players,
        rules="official",
        public=False,
        invite="",
        timer=None,
        bot_level=level,
        auto_start=True,
        seats=seats,
    )
    driver = table.driver
    loop = asyncio.get_running_loop()
    started: dict[int, float] = {}
    thought: dict[int, float] = {}
    rows: list[dict[str, Any]] = []
    put = driver._put

    def timed_put(seat: int, now: float) -> None:
        started[seat] = loop.time()
        put(seat, now)
        thinking = driver.thinking.get(seat)
        if thinking is not None:  # done: the bot's answer is in (its own or its fallback's)
            thinking.add_done_callback(lambda _: thought.__setitem__(seat, loop.time()))

    submit: Callable[..., Awaitable[int]] = driver.submit

    async def timed_submit(seat: int, action: Action, by: str | None = None, **kw: Any) -> int:
        game = table.game
        if by is None and action.type != "claim" and seat in started and game is not None:
            now = loop.time()
            due = driver.bot_due.get(seat, now)
            rows.append(
                {
                    "side": "liberal" if game.roles[seat].value == "liberal" else "fascist",
                    "thought": thought.get(seat, now) - started[seat],
                    "waited": now - started[seat],
                    "late": thought.get(seat, now) > due + 0.005,
                }
            )
        return await submit(seat, action, by=by, **kw)

    driver._put = timed_put  # type: ignore[method-assign]
    driver.submit = timed_submit
    async with table.lock:
        await table.maybe_autostart()
    await listener.over.wait()
    await table.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="search")
    parser.add_argument("--players", default="7,10")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--bot-delay", type=float, default=1.0)
    parser.add_argument("--floor", type=float, default=None)
    args = parser.parse_args()
    if args.floor is not None:
        bot_seats.SLOW_THINK_FLOOR = args.floor
    logging.basicConfig(level=logging.WARNING)
    floor = bot_seats.think_floor(args.level)
    print(f"level {args.level}, bot_delay {args.bot_delay} s, think floor {floor} s")
    for n in (int(p) for p in args.players.split(",")):
        rows: list[dict[str, Any]] = []
        for g in range(args.games):
            rows += asyncio.run(play(n, args.level, args.bot_delay, g))
        print(f"\n{n} players, {args.games} games, {len(rows)} bot moves")
        print(
            "side     moves  thought p50/p90/p99/max (s)   late   left after: mean / p50 / p99 (s)"
        )
        for side in ("liberal", "fascist", "all"):
            mine = [r for r in rows if side in ("all", r["side"])]
            t = [r["thought"] for r in mine]
            w = [r["waited"] for r in mine]
            late = sum(r["late"] for r in mine)
            print(
                f"{side:8} {len(mine):5}  {_pct(t, 0.5):.3f} / {_pct(t, 0.9):.3f} / "
                f"{_pct(t, 0.99):.3f} / {max(t, default=float('nan')):.3f}   "
                f"{late:3} ({100 * late / max(1, len(mine)):.1f}%)   "
                f"{statistics.fmean(w) if w else float('nan'):.3f} / {_pct(w, 0.5):.3f} / "
                f"{_pct(w, 0.99):.3f}"
            )


if __name__ == "__main__":
    main()
