"""How games between two levels end, and who put Hitler in office when he was elected.

    .venv/bin/python benchmarks/loss_modes.py [--players 7] [--games 2000] [--seed 1] \
        [--liberals bayes] [--fascists bayes]

Prints the share of each way the game ended and, for the games Hitler won by election, the role
of the president who nominated him and how many liberals voted ja. Game *i* has the seed of game
*i* of ``secret-hitler simulate --seed SEED``. It shows where a level's liberals lose, so that a
change to the bots (or to the ``search`` level's candidates) aims at the decision that costs
most: at 7 players between ``bayes`` bots, a liberal president's own nomination.

When the liberals keep a posterior (``bayes``, ``bayes-human``, ``search``), it also prints how
well calibrated it is where that loss happens: at each liberal president's nomination in the
Hitler zone, the probability his posterior gave the nominee of being Hitler against how often
the nominee was Hitler, by bins of that probability. The same agents play (each wrapped to look
at its posterior after it nominates), so the games are those of ``simulate``.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from secret_hitler.bots.base import bot_problem
from secret_hitler.engine import Action, Game, Role, View
from secret_hitler.engine import actions as A
from secret_hitler.sim import Lineup
from secret_hitler.sim.simulator import game_seed, make_agents, play_game

# Bins of the posterior's P(nominee is Hitler), upper bounds.
BINS = (0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 1.0)


class Watched:
    """A liberal's agent that logs, after each zone nomination, its P(Hitler) of the nominee."""

    needs_view = True

    def __init__(self, agent: Any, log: list[tuple[float, int]]) -> None:
        self.agent, self.log = agent, log

    def act(self, view: View, legal: list[Action]) -> Action:
        action = self.agent.act(view, legal)
        bayes = getattr(self.agent, "base", self.agent)  # a search agent's bayes part
        beliefs = getattr(bayes, "beliefs", None)
        zone = view.hitler_zone_active
        if action.type == A.NOMINATE and zone and beliefs is not None:
            from secret_hitler.bots.beliefs import HIT

            assert action.target is not None
            self.log.append((float(beliefs.marginals()[action.target, HIT]), action.target))
        return action

    def claims(self, view: View, options: list[Action]) -> list[Action]:
        return list(self.agent.claims(view, options))


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
    calibration: list[tuple[float, bool]] = []  # (P(Hitler) of the nominee, was he Hitler)
    for index in range(args.games):
        seed = game_seed(args.seed, index)
        log: list[tuple[float, int]] = []
        roles = play_game_roles(args.players, seed)
        agents: list[Any] = make_agents([lineup.bot_for(r) for r in roles], seed)
        agents = [
            Watched(a, log) if r is Role.LIBERAL else a for a, r in zip(agents, roles, strict=True)
        ]
        result, game = play_game(args.players, lineup, "official", seed, agents=agents)
        hitler = result.roles.index("hitler")
        calibration += [(p, target == hitler) for p, target in log]
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
    if calibration:
        report_calibration(calibration)


def play_game_roles(players: int, seed: int) -> list[Role]:
    """The roles of the game ``play_game`` deals with ``seed`` (to seat the same bots)."""
    return list(Game(players, "official", seed).roles)


def report_calibration(points: list[tuple[float, bool]]) -> None:
    """Predicted against actual P(Hitler) of liberal presidents' zone nominees, by bin."""
    mean = sum(p for p, _ in points) / len(points)
    share = sum(h for _, h in points) / len(points)
    print(
        f"liberal presidents' zone nominations: {len(points)}; the posterior's P(Hitler) of "
        f"the nominee {100 * mean:.1f}% on average, Hitler {100 * share:.1f}% of the time"
    )
    low = 0.0
    for high in BINS:
        bin_ = [(p, h) for p, h in points if low <= p < high or (high == 1.0 and p == 1.0)]
        if bin_:
            predicted = 100 * sum(p for p, _ in bin_) / len(bin_)
            actual = 100 * sum(h for _, h in bin_) / len(bin_)
            print(
                f"  P(Hitler) {low:.2f}-{high:.2f}: {len(bin_)} nominations, "
                f"predicted {predicted:.1f}%, Hitler {actual:.1f}%"
            )
        low = high


if __name__ == "__main__":
    main()
