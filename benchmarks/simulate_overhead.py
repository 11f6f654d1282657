"""The simulator's overhead: `secret-hitler simulate` against a bare engine loop, in one run.

    .venv/bin/python benchmarks/simulate_overhead.py [--games 4000] [--players 7] [--repeat 3]

The bare loop is ``engine_speed.play`` (random legal actions straight on ``Game``). The simulator
is the real command, ``secret-hitler simulate --liberals random --fascists random --jobs 1``,
timed from process start to exit (start-up included), so it pays for everything a user waits
for: imports, the agent interface, a view per decision, claims, statistics and the report. Each
side runs ``--repeat`` times, alternating, and the best time of each is kept (the least disturbed
by other work on the machine). Target (issue 9): the simulator at >= 60% of the bare loop's
games/s, and >= 2,500 games/s for the bare loop.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_speed import play  # noqa: E402

from secret_hitler.engine import Game  # noqa: E402


def bare(games: int, players: int) -> float:
    rng = random.Random(1)
    start = time.perf_counter()
    for i in range(games):
        play(Game(players, "official", 1_000_003 + i), rng, 0.0)
    return time.perf_counter() - start


def simulate(games: int, players: int) -> float:
    exe = Path(sys.executable).with_name("secret-hitler")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "secret_hitler.cli"]
    cmd += ["simulate", "--liberals", "random", "--fascists", "random", "--jobs", "1"]
    cmd += ["--games", str(games), "--players", str(players), "--seed", "1"]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "100"})
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bare_s, sim_s = [], []
    for _ in range(args.repeat):
        bare_s.append(bare(args.games, args.players))
        sim_s.append(simulate(args.games, args.players))
    b = args.games / min(bare_s)
    s = args.games / min(sim_s)
    print(f"{args.games} random games, {args.players} players, best of {args.repeat}")
    print(f"  bare engine loop:            {b:8.0f} games/s (target >= 2,500)")
    print(f"  secret-hitler simulate -j 1: {s:8.0f} games/s, start-up included")
    print(f"  ratio:                       {s / b:8.0%} (target >= 60%)")


if __name__ == "__main__":
    main()
