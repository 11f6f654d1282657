"""Engine speed: random legal games in one process, event log on (it always is).

    python benchmarks/engine_speed.py --games 5000 --players 7 --seed 1
    python benchmarks/engine_speed.py --games 2000 --profile 25

Random play, chosen to measure the rules rather than table talk:
- at each step, one seat the game waits for (``game.to_act()``; several during a vote), uniformly;
- that seat's ``game.legal_actions(seat)`` are fetched (claims included, as a real agent would);
- with probability ``--claim-prob`` (default 0.02), if the seat has claims available, one of them
  uniformly; otherwise a uniform choice among its non-claim actions (the rules' decisions).
  ``--claim-prob 0`` measures the rules alone. Claims are optional, so without the small
  probability a game would never contain any; with a larger one, a seat that keeps claiming would
  still be unable to stall the game, since each claim can be made once.

The time includes building each ``Game`` (deal, deck shuffle) and the agent's choices; wall-clock
and process CPU time are both reported (on a shared machine the CPU figure is the steadier one).
Target: >= 2,000 games/s for 7 players on the project machine.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from collections import Counter
from pathlib import Path

try:
    from secret_hitler.engine import Game
except ModuleNotFoundError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from secret_hitler.engine import Game


def play(game: Game, rng: random.Random, claim_prob: float) -> int:
    """Play ``game`` to its end with random legal actions; return the number of actions."""
    to_act, legal_actions, apply = game.to_act, game.legal_actions, game.apply
    rand = rng.random  # int(rand() * k): uniform enough here, and cheaper than randrange
    count = 0
    while not game.finished:
        seats = to_act()
        seat = seats[int(rand() * len(seats))]
        options = legal_actions(seat)
        if options[-1].type == "claim":  # claims come last: split only when some are offered
            decisions = [a for a in options if a.type != "claim"]
            if rand() < claim_prob:
                claims = options[len(decisions) :]
                apply(claims[int(rand() * len(claims))])
                count += 1
                continue
            options = decisions
        apply(options[int(rand() * len(options))])
        count += 1
    return count


def run(games: int, players: int, seed: int, rules: str, claim_prob: float) -> dict[str, float]:
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(games):
        game = Game(players, rules, seed * 1_000_003 + i)
        actions += play(game, rng, claim_prob)
        outcomes[game.reason.value if game.reason else "unfinished"] += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "games": games,
        "actions": actions,
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "games_per_second": games / elapsed,
        "us_per_action": elapsed / actions * 1e6,
        "games_per_cpu_second": games / cpu,
        "cpu_us_per_action": cpu / actions * 1e6,
        "actions_per_game": actions / games,
        "outcomes": dict(outcomes),  # type: ignore[dict-item]
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="games to play (default 5000)")
    parser.add_argument("--players", type=int, default=7, help="seats per game, 5-10 (default 7)")
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the games and choices (default 1)"
    )
    parser.add_argument("--rules", default="official", help="preset name (default official)")
    parser.add_argument(
        "--claim-prob",
        type=float,
        default=0.02,
        help="probability of a claim when one is available (default 0.02)",
    )
    parser.add_argument("--warmup", type=int, default=200, help="untimed games first (default 200)")
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="also profile the run with cProfile and print the top N functions",
    )
    args = parser.parse_args(argv)

    if args.warmup:
        run(args.warmup, args.players, args.seed + 1, args.rules, args.claim_prob)
    result = run(args.games, args.players, args.seed, args.rules, args.claim_prob)
    print(
        f"{args.games} games, {args.players} players, rules {args.rules}, claim prob {args.claim_prob}: "
        f"{result['games_per_second']:,.0f} games/s, {result['us_per_action']:.2f} us/action, "
        f"{result['actions_per_game']:.1f} actions/game ({result['seconds']:.2f} s)"
    )
    print(
        f"per CPU second (less sensitive to a busy machine): {result['games_per_cpu_second']:,.0f} "
        f"games/s, {result['cpu_us_per_action']:.2f} us/action ({result['cpu_seconds']:.2f} s CPU)"
    )
    outcomes = result["outcomes"]
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))  # type: ignore[attr-defined]

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(args.games, args.players, args.seed, args.rules, args.claim_prob)
        profiler.disable()
        for key in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats(key).print_stats(args.profile)
            print(f"\n--- cProfile, sorted by {key} (profiled run is slower) ---")
            print(out.getvalue().split("\n", 6)[-1].rstrip())


if __name__ == "__main__":
    main()
