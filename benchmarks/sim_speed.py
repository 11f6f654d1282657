"""Simulator throughput: games per second with --jobs 1 against --jobs 2.

The target is close to twice as many games per second with 2 jobs on 2 free cores: games are
independent and a worker sends back only small result objects.

    .venv/bin/python benchmarks/sim_speed.py [--games 600] [--players 7] [--bots rule,rule]
"""

from __future__ import annotations

import argparse
import time

from secret_hitler.sim import Lineup, Runner, SimConfig


def games_per_second(config: SimConfig, games: int, jobs: int) -> float:
    start = time.perf_counter()
    with Runner(jobs) as runner:  # worker start-up is part of what a user waits for
        runner.run(config, games)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--bots", default="rule,rule", help="liberal bot,fascist bot")
    parser.add_argument("--rules", default="official")
    args = parser.parse_args()
    lib, fas = args.bots.split(",")
    config = SimConfig(args.players, Lineup(lib, fas), args.rules, seed=1)
    games_per_second(config, max(20, args.games // 20), 1)  # warm-up: imports, caches
    one = games_per_second(config, args.games, 1)
    two = games_per_second(config, args.games, 2)
    print(f"{args.players} players, liberals {lib} vs fascists {fas}, {args.games} games")
    print(f"  --jobs 1: {one:8.1f} games/s")
    print(f"  --jobs 2: {two:8.1f} games/s")
    print(f"  speed-up: {two / one:8.2f}x (target: close to 2x on 2 idle cores)")


if __name__ == "__main__":
    main()
