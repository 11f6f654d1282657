"""Tournament table: the strongest level against `rule` and against itself, at every table size
(5 to 10 players) under every rules preset, with 95% Wilson intervals.

Three cells per (players, preset): strongest liberals vs rule fascists, rule liberals vs strongest
fascists, strongest vs strongest. Every cell of one (players, preset) plays the same game seeds
(``SimConfig`` seed), so cells differ by the bots only. Prints a Markdown table (for docs/bots.md)
and, with ``--json FILE``, every cell's summary. A game that crashes stops the run with its seed.

    nice -n 10 .venv/bin/python benchmarks/tournament_table.py [--games 100] [--seed 1] \
        [--players 5,6,7,8,9,10] [--presets official,...] [--jobs 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from secret_hitler.bots import default_level
from secret_hitler.engine.settings import PRESETS
from secret_hitler.sim import Lineup
from secret_hitler.sim.simulator import REASONS, Runner, SimConfig, summarize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="5,6,7,8,9,10")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bot", default=None, help="the level to test (default: default_level())")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    bot = args.bot or default_level()
    players = [int(p) for p in args.players.split(",")]
    presets = args.presets.split(",")
    unknown = [p for p in presets if p not in PRESETS]
    if unknown:
        sys.exit(f"tournament_table.py: --presets: unknown {unknown[0][:40]!r}")
    lineups = [(bot, "rule"), ("rule", bot), (bot, bot)]
    command = " ".join(
        ["nice -n 10 .venv/bin/python benchmarks/tournament_table.py", *sys.argv[1:]]
    )
    print(f"`{command}`\n")
    print(f"Liberal win rate, {args.games} games per cell, 95% Wilson interval; seed {args.seed}.")
    print("Endings of the last column: " + " / ".join(r.replace("_", " ") for r in REASONS) + ".\n")
    head = [f"{lib} vs {fas}" for lib, fas in lineups]
    print(f"| players | preset | {' | '.join(head)} | endings ({bot} vs {bot}) |")
    print("|---|---|" + "---|" * (len(head) + 1))
    cells = []
    start = time.perf_counter()
    with Runner(args.jobs) as runner:
        for n in players:
            for preset in presets:
                texts = []
                last = None
                for lib, fas in lineups:
                    config = SimConfig(n, Lineup(lib, fas), preset, args.seed)
                    s = summarize(runner.run(config, args.games))
                    lo, hi = s.liberal_ci
                    texts.append(f"{s.liberal_rate:.0%} ({lo:.0%}-{hi:.0%})")
                    cells.append(
                        {"players": n, "preset": preset, "liberals": lib, "fascists": fas}
                        | s.to_json()
                    )
                    last = s
                assert last is not None
                endings = " / ".join(str(last.reasons[r]) for r in REASONS)
                print(f"| {n} | {preset} | {' | '.join(texts)} | {endings} |", flush=True)
    took = time.perf_counter() - start
    print(f"\n{len(cells) * args.games} games in {took:.0f} s, no crash.")
    if args.json is not None:
        args.json.write_text(json.dumps(cells, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
