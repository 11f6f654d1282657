"""The simulator's overhead: `secret-hitler simulate` against a bare engine loop, in one run.

    .venv/bin/python benchmarks/simulate_overhead.py [--games 4000] [--players 7] [--repeat 3]

The bare loop is ``engine_speed.play`` (random legal actions straight on ``Game``). The simulator
is the real command, ``secret-hitler simulate --liberals random --fascists random --jobs 1``,
timed from process start to exit (start-up included), so it pays for everything a user waits
for: imports, the agent interface (random agents need no view, so none is made), seven seeded
agents per game, statistics and the report. Each side runs ``--repeat`` times, alternating, and
the best time of each is kept (the least disturbed by other work on the machine); every repeat
is printed too. The command's stderr is a pipe, not a terminal, so it draws no progress bar
wherever this runs. The command runs once untimed first, with bytecode caching on
(``PYTHONDONTWRITEBYTECODE`` removed from its environment): an installed copy has its ``.pyc``
files, and without them each start compiles every module again (about 0.1 s here). Wall time
and process CPU time (the child's user + system time for the simulator) are both reported: on a
shared machine the CPU figures are the steadier. Target (issue 9): the simulator at >= 60% of
the bare loop's games/s, and >= 2,500 games/s for the bare loop.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_speed import play  # noqa: E402

from secret_hitler.engine import Game  # noqa: E402


def bare(games: int, players: int) -> tuple[float, float]:
    """(wall, CPU) seconds of the bare loop."""
    rng = random.Random(1)
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        play(Game(players, "official", 1_000_003 + i), rng, 0.0)
    return time.perf_counter() - start, time.process_time() - cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "COLUMNS": "100"}


def simulate(games: int, players: int) -> tuple[float, float]:
    """(wall, CPU) seconds of the command, from process start to exit."""
    exe = Path(sys.executable).with_name("secret-hitler")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "secret_hitler.cli"]
    cmd += ["simulate", "--liberals", "random", "--fascists", "random", "--jobs", "1"]
    cmd += ["--games", str(games), "--players", str(players), "--seed", "1"]
    start, cpu = time.perf_counter(), _children_cpu()
    # stderr is read, never a terminal: the figures do not depend on where this runs (on a
    # terminal the command would also draw its progress bar).
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_child_env())
    elapsed, used = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
    return elapsed, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    simulate(1, args.players)  # untimed: writes the bytecode cache an installed copy has
    bare_s, sim_s = [], []
    for _ in range(args.repeat):
        bare_s.append(bare(args.games, args.players))
        sim_s.append(simulate(args.games, args.players))
    print(f"{args.games} random games, {args.players} players, best of {args.repeat}")
    for k, what in ((0, "wall time"), (1, "process CPU time")):
        b = args.games / min(t[k] for t in bare_s)
        s = args.games / min(t[k] for t in sim_s)
        print(f" {what}:")
        print(f"  bare engine loop:            {b:8.0f} games/s (target >= 2,500)")
        print(f"  secret-hitler simulate -j 1: {s:8.0f} games/s, start-up included")
        print(f"  ratio:                       {s / b:8.0%} (target >= 60%)")
        pairs = ", ".join(
            f"{args.games / bt[k]:.0f}/{args.games / st[k]:.0f}"
            for bt, st in zip(bare_s, sim_s, strict=True)
        )
        print(f"  each repeat, loop/simulate:  {pairs} games/s")


if __name__ == "__main__":
    main()
