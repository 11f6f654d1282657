"""Fit the liberals' win rate per player count from real games (secrethitler.io sample).

Usage: python scripts/fit_team_balance.py [GAMES.jsonl[.gz]] [--out PATH]

Reads the summaries through ``datasets.open_text`` and the importer (``iter_records``), keeps
finished games played with the official rules, and counts liberal wins per player count. The
sample is small and most games have 7 players, so each count's rate is shrunk toward the rate of
all counts (a Beta prior worth ``PRIOR_GAMES`` games): a count with no games gets the pooled rate,
one with many games its own. ``secret_hitler.ratings`` turns the rates into handicaps.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from secret_hitler import datasets
from secret_hitler.importers.secrethitler_io import iter_records
from secret_hitler.ratings import PLAYERS, TEAM_BALANCE
from secret_hitler.sim.simulator import wilson

PRIOR_GAMES = 20


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=TEAM_BALANCE)
    args = parser.parse_args(argv)
    source = args.games or datasets.secrethitler_io_sample()
    games: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    skipped: Counter[str] = Counter()
    with datasets.open_text(source) as fh:
        for conv in iter_records(fh):
            rec = conv.record
            if rec is None:
                skipped[conv.skipped or "unsupported"] += 1
                continue
            result = rec.get("result")
            if rec.get("rules") != "official":
                skipped["not official rules"] += 1
                continue
            if not result:
                skipped["unfinished"] += 1
                continue
            n = len(rec["roles"])
            games[n] += 1
            wins[n] += result["winner"] == "liberal"
    total, total_wins = sum(games.values()), sum(wins.values())
    if total == 0:
        print("no finished official games in the input", file=sys.stderr)
        return 1
    pooled = total_wins / total
    counts = {}
    for n in PLAYERS:
        g, w = games[n], wins[n]
        lo, hi = wilson(w, g) if g else (0.0, 1.0)
        counts[str(n)] = {
            "games": g,
            "liberal_wins": w,
            "raw_rate": round(w / g, 4) if g else None,
            "interval_95": [round(lo, 4), round(hi, 4)],
            "liberal_win_rate": round((w + PRIOR_GAMES * pooled) / (g + PRIOR_GAMES), 4),
        }
    command = "python scripts/fit_team_balance.py" + (f" {args.games}" if args.games else "")
    out = {
        "command": command,
        "source": str(
            source.relative_to(Path.cwd()) if source.is_relative_to(Path.cwd()) else source.name
        ),
        "method": f"per player count: (liberal wins + {PRIOR_GAMES} * pooled rate) / "
        f"(games + {PRIOR_GAMES}); official rules, finished games only",
        "pooled": {"games": total, "liberal_wins": total_wins, "rate": round(pooled, 4)},
        "skipped": dict(sorted(skipped.items())),
        "player_counts": counts,
    }
    args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {total} games, pooled liberal win rate {pooled:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
