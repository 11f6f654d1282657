"""The server's update frames in one process: what building one action's frames costs.

    python benchmarks/update_frames.py --games 60 --players 7
    python benchmarks/update_frames.py --games 60 --profile 20

Plays random games first (no claims), then replays each one and, after every action, times
``SeatUpdates`` and its ``frames`` for every seat and the spectators (what a table with every
seat connected and someone watching sends after an action; ``server/table/updates.py``), with
the table's narration. No network, database or event loop: this is the part of the server's
cost per action (``server_load.py``) that is Python building bytes, measured alone, so a
change to it can be measured before and after in seconds. Prints microseconds per action
(process CPU time) and the load average.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time

from secret_hitler.engine import Action, Game, Rules
from secret_hitler.server.table.updates import SeatUpdates
from secret_hitler.talk.narrate import Narrations


def random_games(games: int, players: int, seed: int) -> list[list[Action]]:
    """The actions of ``games`` random games (uniform non-claim actions of a seat to act)."""
    out = []
    for k in range(games):
        rng = random.Random(seed + k)
        game = Game([f"P{i}" for i in range(players)], Rules(), seed + k)
        actions = []
        while not game.finished:
            seat = rng.choice(game.to_act())
            action = rng.choice([a for a in game.legal_actions(seat) if a.type != "claim"])
            actions.append(action)
            game.apply(action)
        out.append(actions)
    return out


def replay(games: list[list[Action]], players: int, seed: int) -> tuple[float, int]:
    """Process CPU seconds spent building every action's frames, and the actions."""
    spent, count = 0.0, 0
    recipients = [*range(players), None]
    for k, actions in enumerate(games):
        game = Game([f"P{i}" for i in range(players)], Rules(), seed + k)
        narration = Narrations()
        narration.tell_from(game.events, len(game.events))
        for i, action in enumerate(actions):
            ev_from = len(game.events)
            game.apply(action)
            t0 = time.process_time()
            SeatUpdates(game, i + 2, ev_from, action, None, 1234.5, None, "free", narration).frames(
                recipients
            )
            spent += time.process_time() - t0
            count += 1
    return spent, count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=7, choices=range(5, 11))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="timed replays (the best is shown)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="cProfile's top N")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    games = random_games(args.games, args.players, args.seed)
    replay(games, args.players, args.seed)  # warm the caches a live server keeps warm
    timings = [replay(games, args.players, args.seed) for _ in range(args.rounds)]
    spent, count = min(timings)
    print(
        f"{args.players} players, {count} actions, {args.players + 1} frames each: "
        f"{spent / count * 1e6:.1f} us of CPU per action (best of {args.rounds}; rounds "
        + ", ".join(f"{s / n * 1e6:.1f}" for s, n in timings)
        + f"); load average {os.getloadavg()[0]:.2f}"
    )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(replay, games, args.players, args.seed)
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
