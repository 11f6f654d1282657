"""How games between two levels end, and who put Hitler in office when he was elected.

    .venv/bin/python benchmarks/loss_modes.py [--players 7] [--games 2000] [--seed 1] \
        [--liberals bayes] [--fascists bayes]

Prints the share of each way the game ended and, for the games Hitler won by election, the role
of the president who nominated him and how many liberals voted ja. Game *i* has the seed of game
*i* of ``secret-hitler simulate --seed SEED``. It shows where a level's liberals lose, so that a
change to the bots (or to the ``search`` level's candidates) aims at the decision that costs
most: at 7 players between ``bayes`` bots, a liberal president's own nomination.
"""

from __future__ import annotations

import argparse
from collections import Counter

from secret_hitler.bots.base import bot_problem
from secret_hitler.sim import Lineup
from secret_hitler.sim.simulator import game_seed, play_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=7, choices=range(5, 11))
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--liberals", default="bayes")
    ap.add_argument("--fascists", default="bayes")
    args = ap.parse_args()
    if args.games < 1:
        ap.error("--games must be at least 1")
    for name in (args.liberals, args.fascists):
        if (problem := bot_problem(name)) is not None:
            ap.error(problem)
    lineup = Lineup(args.liberals, args.fascists)
    reasons: Counter[str] = Counter()
    president: Counter[str] = Counter()
    liberal_ja: Counter[int] = Counter()
    for index in range(args.games):
        result, game = play_game(args.players, lineup, "official", game_seed(args.seed, index))
        reasons[result.reason] += 1
        if result.reason != "hitler_elected":
            continue
        actions = game.to_record()["actions"]
        last = max(k for k, a in enumerate(actions) if a["type"] == "nominate")
        president[result.roles[actions[last]["seat"]]] += 1
        votes = [a for a in actions[last + 1 :] if a["type"] == "vote"]
        liberal_ja[sum(v["ja"] and result.roles[v["seat"]] == "liberal" for v in votes)] += 1
    n = args.games
    print(f"{n} games, {args.players} players, {args.liberals} liberals, {args.fascists} fascists")
    for reason, count in reasons.most_common():
        print(f"  {reason}: {count} ({100 * count / n:.1f}%)")
    elected = reasons["hitler_elected"]
    if elected:
        print("Hitler elected, by the role of the president who nominated him:")
        for role, count in president.most_common():
            print(
                f"  {role}: {count} ({100 * count / elected:.1f}% of them, {100 * count / n:.1f}% of games)"
            )
        print(
            "  liberals who voted ja: "
            + ", ".join(f"{k}: {liberal_ja[k]}" for k in sorted(liberal_ja))
        )


if __name__ == "__main__":
    main()
