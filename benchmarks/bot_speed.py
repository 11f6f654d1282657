"""Decision time per bot: median, 90th and 99th percentile of act() and claims() calls.

Targets at 10 players: `bayes` <= 2 ms median and <= 20 ms p99; `rule` well under 1 ms;
`search` (default budget) <= 100 ms median at 7 players and <= 300 ms at 10. Only the agent's
own work is timed (views are built before the clock starts); "turns" is the same over act()
alone (claims are answered at once by every level), and for `search` a last line gives the
decisions where it searched (the endgame and close votes; elsewhere it decides like `bayes`), by
the searching seat's side, with the same target applied to them. The last line names the level filled seats
and stand-ins should get: the strongest (``bots.base.STRONGEST_FIRST``) whose p99 at 10 players
is within ``bots.base.DECISION_BUDGET_MS`` (50 ms); ``bots.base.default_level`` must agree.

    .venv/bin/python benchmarks/bot_speed.py [--games 40] [--players 7,10] [--bots rule,bayes]
        [--search-games 4] [--clock wall|cpu]

``--clock cpu`` times the process's CPU time instead of the wall clock: on a machine loaded by
other jobs, wall times follow the load (see docs/bots.md, Benchmarks).

``--throughput`` measures the simulation throughput of the strong bots instead (issue 40 point
4): whole seeded games (engine included, talk off, every seat the bot), timed by the process's
CPU time (``time.process_time``: on a shared machine the load moves wall times, not this), with
the load average before and after. It prints `bayes` decisions (turn actions) per CPU second and
`search` games per CPU hour, per player count; ``--profile N`` adds cProfile's N costliest
functions of each run (by own time).

    .venv/bin/python benchmarks/bot_speed.py --throughput [--players 5,7,10] [--games 40]
        [--search-games 3] [--seed 1] [--profile 25]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import statistics
import time
from collections.abc import Sequence

from secret_hitler.bots import Agent, available_bots, default_level, make_agent
from secret_hitler.bots.base import DECISION_BUDGET_MS, STRONGEST_FIRST
from secret_hitler.engine import Action, View
from secret_hitler.sim import Lineup, play_game
from secret_hitler.sim.simulator import game_seed

try:
    from secret_hitler.stats import derive_seed
except ImportError:  # a checkout from before stats.py (the "before" of docs/bots.md)
    from secret_hitler.sim.simulator import derive_seed  # type: ignore[attr-defined]

TARGETS = {"bayes": (2.0, 20.0), "rule": (1.0, 5.0)}  # (median ms, p99 ms) at 10 players
SEARCH_MEDIAN_MS = {7: 100.0, 10: 300.0}  # `search`, default budget: median ms by players


CLOCK = time.perf_counter


class Timed(Agent):
    """Wraps an agent and records how long each of its decisions takes."""

    def __init__(
        self,
        inner: Agent,
        times: list[float],
        turns: list[float],
        searched: list[tuple[str, float]],
    ) -> None:
        super().__init__(inner.seat, inner.rng)
        self.inner = inner
        self.times = times
        self.turns = turns
        self.searched = searched

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        rollouts = getattr(self.inner, "rollouts_done", 0)
        start = CLOCK()
        action = self.inner.act(view, legal)
        spent = CLOCK() - start
        self.times.append(spent)
        self.turns.append(spent)
        if getattr(self.inner, "rollouts_done", 0) > rollouts:  # `search`: a search ran
            self.searched.append(("liberal" if view.party == "liberal" else "fascist", spent))
        return action

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        start = CLOCK()
        made = self.inner.claims(view, options)
        self.times.append(CLOCK() - start)
        return made


def measure(
    bot: str, players: int, games: int, rules: str
) -> tuple[list[float], list[float], list[tuple[str, float]]]:
    """Seconds per call (act and claims), per act() call, and per act() that searched (with the
    searching seat's side)."""
    times: list[float] = []
    turns: list[float] = []
    searched: list[tuple[str, float]] = []
    for g in range(games):
        seed = derive_seed("bench", g)
        agents = [
            Timed(make_agent(bot, s, seed + s), times, turns, searched) for s in range(players)
        ]
        play_game(players, Lineup(bot, bot), rules, seed, agents=agents)
    return times, turns, searched


def _q(times: list[float], q: float) -> float:
    """The q-quantile of sorted ``times``, in ms."""
    return times[min(len(times) - 1, int(q * len(times)))] * 1e3


def _load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def _play_games(
    bot: str, players: int, games: int, seed: int, rules: str
) -> tuple[float, int, int]:
    """Play ``games`` seeded games with every seat ``bot``; (CPU seconds, turn actions, claims)."""
    actions = claims = 0
    start = time.process_time()
    for g in range(games):
        result, _ = play_game(players, Lineup(bot, bot), rules, game_seed(seed, g))
        actions += result.actions
        claims += result.claims
    return time.process_time() - start, actions, claims


def throughput(args: argparse.Namespace) -> None:
    """`bayes` decisions per CPU second and `search` games per CPU hour (``--throughput``)."""
    counts = [int(p) for p in args.players.split(",")]
    print(
        f"simulation throughput, every seat the bot, talk off, {args.rules} rules, games seeded "
        f"game_seed({args.seed}, 0..), process CPU time; load average {_load()} (1/5/15 min)"
    )
    print(f"{'bot':<8}{'players':>8}{'games':>7}{'decisions':>10}{'claims':>8}{'CPU s':>9}  figure")
    for bot, games in (("bayes", args.games), ("search", args.search_games)):
        for players in counts:
            if not games:
                continue
            # Warm up untimed (imports, the shared ``Beliefs`` tables of this size): one
            # game of `bayes` on another seed, and the bot's module.
            make_agent(bot, 0, 0)
            _play_games("bayes", players, 1, args.seed + 1, args.rules)
            profiler = cProfile.Profile() if args.profile else None
            if profiler is not None:
                profiler.enable()
            cpu, actions, claims = _play_games(bot, players, games, args.seed, args.rules)
            if profiler is not None:
                profiler.disable()
            if bot == "bayes":
                figure = f"{actions / cpu:,.0f} decisions per CPU second"
            else:
                figure = (
                    f"{games * 3600 / cpu:,.0f} games per CPU hour ({cpu / games:.2f} s a game)"
                )
            print(f"{bot:<8}{players:>8}{games:>7}{actions:>10}{claims:>8}{cpu:>9.2f}  {figure}")
            if profiler is not None:
                out = io.StringIO()
                pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(args.profile)
                print(out.getvalue())
    print(f"load average after: {_load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument(
        "--players", help="player counts, comma-separated (7,10; --throughput 5,7,10)"
    )
    parser.add_argument("--bots", default=",".join(available_bots()))
    parser.add_argument("--rules", default="official")
    parser.add_argument(
        "--search-games", type=int, help="games for `search` (it is slow): 4, --throughput 3"
    )
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument(
        "--throughput", action="store_true", help="bayes decisions/CPU s, search games/CPU h"
    )
    parser.add_argument("--seed", type=int, default=1, help="--throughput: the games' seed")
    parser.add_argument("--profile", type=int, default=0, help="--throughput: top N by cProfile")
    args = parser.parse_args()
    if args.throughput:
        args.players = args.players or "5,7,10"
        args.search_games = 3 if args.search_games is None else args.search_games
        throughput(args)
        return
    args.players = args.players or "7,10"
    args.search_games = 4 if args.search_games is None else args.search_games
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    random.seed(0)
    p99s: dict[str, float] = {}
    counts = [int(p) for p in args.players.split(",")]
    for players in counts:
        print(
            f"{players} players, {args.games} games per bot ({args.search_games} for search), "
            f"every seat played by the bot, {args.clock} clock"
        )
        print(
            f"{'bot':<12}{'calls':>7}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}"
            f"{'turns':>7}{'median':>9}{'p90':>9}  ms; target"
        )
        for bot in args.bots.split(","):
            games = args.search_games if bot == "search" else args.games
            raw, raw_turns, raw_searched = measure(bot, players, games, args.rules)
            times, turns = sorted(raw), sorted(raw_turns)
            median = statistics.median(times) * 1e3
            p99 = _q(times, 0.99)
            if players == 10:
                p99s[bot] = p99
            verdict = ""
            if bot in TARGETS and players == 10:
                t_med, t_p99 = TARGETS[bot]
                ok = median <= t_med and p99 <= t_p99
                verdict = f"median <= {t_med} ms, p99 <= {t_p99} ms: {'met' if ok else 'MISSED'}"
            elif bot == "search" and players in SEARCH_MEDIAN_MS:
                t_med = SEARCH_MEDIAN_MS[players]
                verdict = f"median <= {t_med:.0f} ms: {'met' if median <= t_med else 'MISSED'}"
            print(
                f"{bot:<12}{len(times):>7}{median:>9.3f}{_q(times, 0.9):>9.3f}{p99:>9.3f}"
                f"{times[-1] * 1e3:>9.2f}{len(turns):>7}{statistics.median(turns) * 1e3:>9.3f}"
                f"{_q(turns, 0.9):>9.3f}  {verdict}"
            )
            if raw_searched:
                found = sorted(t for _, t in raw_searched)
                median = statistics.median(found) * 1e3
                sides = ", ".join(
                    f"{side}s {len(own)}: {statistics.median(own) * 1e3:.1f} ms"
                    for side in ("liberal", "fascist")
                    if (own := [t for who, t in raw_searched if who == side])
                )
                verdict = ""
                if players in SEARCH_MEDIAN_MS:
                    t_med = SEARCH_MEDIAN_MS[players]
                    verdict = f"; <= {t_med:.0f} ms: {'met' if median <= t_med else 'MISSED'}"
                print(
                    f"{'':<12}{len(found):>7} decisions searched: median {median:.1f} ms, "
                    f"p90 {_q(found, 0.9):.1f} ms ({sides}){verdict}"
                )
    fast = [b for b in STRONGEST_FIRST if b in p99s and p99s[b] <= DECISION_BUDGET_MS]
    if fast:
        same = "agrees" if fast[0] == default_level() else f"DIFFERS ({default_level()})"
        print(
            f"strongest level within {DECISION_BUDGET_MS:.0f} ms p99 at 10 players: {fast[0]}; "
            f"bots.base.default_level() {same}"
        )


if __name__ == "__main__":
    main()
