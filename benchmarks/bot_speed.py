"""Decision time per bot at 10 players: median and 99th percentile of act() and claims().

Targets: `bayes` <= 2 ms median and <= 20 ms p99; `rule` well under 1 ms. Only the agent's own
work is timed (views are built before the clock starts). The last line names the level filled
seats and stand-ins should get: the strongest (``bots.base.STRONGEST_FIRST``) whose p99 is
within ``bots.base.DECISION_BUDGET_MS`` (50 ms); ``bots.base.default_level`` must agree.

    .venv/bin/python benchmarks/bot_speed.py [--games 40] [--players 10] [--bots rule,bayes]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from secret_hitler.bots import Agent, available_bots, default_level, make_agent
from secret_hitler.bots.base import DECISION_BUDGET_MS, STRONGEST_FIRST
from secret_hitler.engine import Action, View
from secret_hitler.sim import Lineup, play_game
from secret_hitler.sim.simulator import derive_seed

TARGETS = {"bayes": (2.0, 20.0), "rule": (1.0, 5.0)}  # (median ms, p99 ms)


class Timed(Agent):
    """Wraps an agent and records how long each of its decisions takes."""

    def __init__(self, inner: Agent, times: list[float]) -> None:
        super().__init__(inner.seat, inner.rng)
        self.inner = inner
        self.times = times

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.inner.act(view, legal)
        self.times.append(time.perf_counter() - start)
        return action

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        start = time.perf_counter()
        made = self.inner.claims(view, options)
        self.times.append(time.perf_counter() - start)
        return made


def measure(bot: str, players: int, games: int, rules: str) -> list[float]:
    times: list[float] = []
    for g in range(games):
        seed = derive_seed("bench", g)
        agents = [Timed(make_agent(bot, s, seed + s), times) for s in range(players)]
        play_game(players, Lineup(bot, bot), rules, seed, agents=agents)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--bots", default=",".join(available_bots()))
    parser.add_argument("--rules", default="official")
    args = parser.parse_args()
    random.seed(0)
    print(f"{args.players} players, {args.games} games per bot (every seat played by the bot)")
    print(f"{'bot':<10}{'decisions':>10}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}  target")
    p99s: dict[str, float] = {}
    for bot in args.bots.split(","):
        times = sorted(measure(bot, args.players, args.games, args.rules))
        median = statistics.median(times) * 1e3
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))] * 1e3
        p99s[bot] = p99
        verdict = ""
        if bot in TARGETS:
            t_med, t_p99 = TARGETS[bot]
            ok = median <= t_med and p99 <= t_p99
            verdict = f"median <= {t_med} ms, p99 <= {t_p99} ms: {'met' if ok else 'MISSED'}"
        print(
            f"{bot:<10}{len(times):>10}{median:>11.3f}{p99:>9.3f}{times[-1] * 1e3:>9.2f}  {verdict}"
        )
    fast = [b for b in STRONGEST_FIRST if b in p99s and p99s[b] <= DECISION_BUDGET_MS]
    if fast:
        same = "agrees" if fast[0] == default_level() else f"DIFFERS ({default_level()})"
        print(
            f"strongest level within {DECISION_BUDGET_MS:.0f} ms p99: {fast[0]}; "
            f"bots.base.default_level() {same}"
        )


if __name__ == "__main__":
    main()
