"""Fit how much each rated rules preset moves the liberals' chance of winning, per player count.

Usage: python scripts/fit_preset_balance.py [--games N] [--seed S] [--bots LEVEL] [--jobs J]
                                             [--presets P,...] [--out PATH]

Real games (``scripts/fit_team_balance.py``) give the liberals' win rate under the official
rules only. For every other rated preset the difference comes from bot games: at each player
count the same ``--games`` seeded deals are played by ``--bots`` (both teams; the strongest
fast level by default) once under the official rules and once under the preset, so each pair
differs only by the rules (common random numbers). The preset's shift is the difference of the
two win rates in log-odds, ``logit(p_official + d) - logit(p_official)`` with ``d`` the mean
paired difference; its 95% interval is that of ``d`` (normal, over the pairs), widened to at
least +/- 3/N (the rule of three: when no pair of N differed, up to 3/N of them still might),
carried through the same transform. ``secret_hitler.ratings.liberal_win_rate`` adds the shift to the real
games' log-odds. docs/competitive.md "The faction correction" says why and how well.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from secret_hitler.ratings import OFFICIAL, PLAYERS, PRESET_BALANCE
from secret_hitler.sim.simulator import Lineup, SimConfig, simulate
from secret_hitler.stats import mean_interval

DEFAULT_PRESETS = ("secrethitler-io",)
EDGE = 1e-3  # rates are kept inside (EDGE, 1 - EDGE) before taking log-odds


def _logit(p: float) -> float:
    p = min(max(p, EDGE), 1 - EDGE)
    return math.log(p / (1 - p))


def fit_count(players: int, preset: str, games: int, seed: int, bots: str, jobs: int) -> dict:
    """One player count: the paired games' win rates, the shift and its interval."""
    lineup = Lineup(bots, bots)
    official = simulate(SimConfig(players, lineup, OFFICIAL, seed), games, jobs)
    other = simulate(SimConfig(players, lineup, preset, seed), games, jobs)
    won_o = [r.winner == "liberal" for r in official]
    won_p = [r.winner == "liberal" for r in other]
    rate_o = sum(won_o) / games
    diff = mean_interval([float(p) - float(o) for o, p in zip(won_o, won_p, strict=True)])
    assert diff is not None
    mean, lo, hi = diff
    floor = 3 / games  # the rule of three: no differing pair seen still allows 3/N of them
    lo, hi = min(lo, mean - floor), max(hi, mean + floor)
    base = _logit(rate_o)
    return {
        "games": games,
        "official_liberal_wins": sum(won_o),
        "preset_liberal_wins": sum(won_p),
        "paired_difference": round(mean, 4),
        "differing_pairs": sum(o != p for o, p in zip(won_o, won_p, strict=True)),
        "shift": round(_logit(rate_o + mean) - base, 4),
        "interval_95": [round(_logit(rate_o + lo) - base, 4), round(_logit(rate_o + hi) - base, 4)],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="paired deals per player count")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--bots", default="bayes")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (0: every core)")
    parser.add_argument("--presets", default=",".join(DEFAULT_PRESETS))
    parser.add_argument("--out", type=Path, default=PRESET_BALANCE)
    args = parser.parse_args(argv)
    if args.games < 2:
        print("--games: at least 2 paired deals", file=sys.stderr)
        return 2
    presets = [p.strip() for p in args.presets.split(",") if p.strip() and p.strip() != OFFICIAL]
    started = time.time()
    fits = {}
    for preset in presets:
        counts = {}
        for players in PLAYERS:
            counts[str(players)] = fit_count(
                players, preset, args.games, args.seed, args.bots, args.jobs
            )
            print(f"{preset} {players}: {counts[str(players)]}", flush=True)
        fits[preset] = {"player_counts": counts}
    command = (
        f"python scripts/fit_preset_balance.py --games {args.games} --seed {args.seed} "
        f"--bots {args.bots} --presets {','.join(presets)}"
    )
    out = {
        "command": command,
        "method": (
            f"per player count: the same {args.games} seeded deals played by {args.bots} bots "
            "under the official rules and under the preset; shift = logit(p_official + d) - "
            "logit(p_official), d the mean paired difference of the liberals' wins, its 95% "
            "interval the normal interval of d, at least +/- 3/N (rule of three), carried "
            "through the same transform"
        ),
        "presets": fits,
    }
    args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
