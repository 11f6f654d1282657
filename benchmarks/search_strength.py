"""Strength of the `search` level: liberal win rates of the cells its targets compare (7 players).

    nice -n 10 .venv/bin/python benchmarks/search_strength.py [--games 2000] [--jobs 1] \
        [--seed 1] [--cells search-bayes,bayes-search,bayes-bayes] [--out results/search.jsonl]

Cells are ``LIBERALS-FASCISTS``. Game *i* of every cell has the seed of game *i* of
``secret-hitler simulate --seed SEED`` (the same deals in every cell), and each finished game is
appended to ``--out`` as one JSON line (``cell`` plus the simulator's game fields), so a long run
can be read while it plays and resumed: games already in the file are not played again.
``--summary`` only reads the file. Targets (docs/bots.md, "search"): search liberals win at
least 8 points more than bayes liberals against bayes fascists, and bayes liberals at least 8
points less against search fascists than against bayes fascists. The cell ``weighted-bayes``
plays the search liberals without their rollouts (bayes liberals on ``SEARCH_MODEL``), to tell
what the search liberals owe to their model from what they owe to the rollouts.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from secret_hitler.bots.base import bot_problem
from secret_hitler.engine import Game, Role
from secret_hitler.sim import Lineup
from secret_hitler.sim.simulator import game_seed, make_agents, play_game
from secret_hitler.stats import Z95, wilson

PLAYERS = 7
TARGET_POINTS = 8.0


# A pseudo-level for the liberal side: bayes liberals whose posterior uses the search level's
# SEARCH_MODEL, i.e. the search liberals without their rollouts (the same agents, the same random
# sources): "search-bayes" against "weighted-bayes" is what the rollouts add, deal by deal.
WEIGHTED = "weighted"


def _play(job: tuple[str, int, int]) -> dict[str, Any]:
    cell, seed, index = job
    liberals, fascists = cell.split("-")
    deal = game_seed(seed, index)
    agents = None
    if liberals == WEIGHTED:
        from secret_hitler.bots.beliefs import SEARCH_MODEL

        agents = bayes_liberals_on(SEARCH_MODEL, fascists, deal)
    result, _ = play_game(PLAYERS, Lineup(liberals, fascists), "official", deal, agents=agents)
    return {"cell": cell, **result.to_json(), "index": index, "run_seed": seed}


def bayes_liberals_on(model: Any, fascists: str, deal: int, players: int = PLAYERS) -> list[Any]:
    """The seats of a deal: bayes liberals reading with ``model``, ``fascists`` for the rest."""
    roles = Game(players, "official", deal).roles
    names = ["bayes" if r is Role.LIBERAL else fascists for r in roles]
    agents: list[Any] = make_agents(names, deal)
    for agent, role in zip(agents, roles, strict=True):
        if role is Role.LIBERAL:
            agent.model = model  # before its first decision builds the posterior
    return agents


def _done(path: Path, seed: int) -> dict[str, dict[int, str]]:
    """Winners already in the file: cell -> game index -> winner."""
    out: dict[str, dict[int, str]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("run_seed") == seed:
                out.setdefault(row["cell"], {})[row["index"]] = row["winner"]
    return out


def _rate(winners: dict[int, str], games: int) -> tuple[int, int, float, float, float]:
    played = [w for i, w in winners.items() if i < games]
    wins = sum(1 for w in played if w == "liberal")
    lo, hi = wilson(wins, len(played))
    return wins, len(played), wins / max(1, len(played)), lo, hi


def summary(path: Path, seed: int, games: int, cells: list[str]) -> None:
    done = _done(path, seed)
    print(f"{PLAYERS} players, official rules, seed {seed}; liberal wins (95% Wilson interval)")
    for cell in cells:
        wins, n, p, lo, hi = _rate(done.get(cell, {}), games)
        liberals, fascists = cell.split("-")
        print(
            f"  {liberals:>7} liberals vs {fascists:<7} fascists: {100 * p:5.1f}% "
            f"({100 * lo:.1f}-{100 * hi:.1f}), {wins}/{n} games"
        )
    for cell, against, sign, what, target in (
        ("search-bayes", "bayes-bayes", 1, "search liberals gain over bayes", True),
        ("bayes-search", "bayes-bayes", -1, "search fascists take over bayes", True),
        ("weighted-bayes", "bayes-bayes", 1, "weighted liberals (no rollouts) gain", False),
        ("search-bayes", "weighted-bayes", 1, "search liberals gain over weighted", False),
    ):
        base = done.get(against, {})
        paired = [i for i in done.get(cell, {}) if i in base and i < games]
        if not paired:
            continue
        # Paired by deal: game i of both cells has the same seeds (and a search fascist plays
        # exactly like bayes until his first override, so most of those pairs end the same way).
        diffs = [sign * ((done[cell][i] == "liberal") - (base[i] == "liberal")) for i in paired]
        n = len(diffs)
        mean = sum(diffs) / n
        sd = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
        half = Z95 * sd / n**0.5
        verdict = "met" if 100 * mean >= TARGET_POINTS else "NOT met"
        goal = f"; target >= {TARGET_POINTS:.0f}): {verdict}" if target else ")"
        print(
            f"  {what} {100 * mean:+.1f} points (paired 95% CI "
            f"{100 * (mean - half):+.1f} to {100 * (mean + half):+.1f}; {n} deals, "
            f"{sum(1 for d in diffs if d)} with another winner{goal}"
        )


def _jobs(
    cells: list[str], games: int, seed: int, done: dict[str, dict[int, str]]
) -> Iterator[tuple[str, int, int]]:
    for i in range(games):  # interleaved: a partial run compares the cells on the same deals
        for cell in cells:
            if i not in done.get(cell, {}):
                yield cell, seed, i


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cells", default="search-bayes,bayes-search,bayes-bayes")
    parser.add_argument("--out", type=Path, default=Path("results/search-strength.jsonl"))
    parser.add_argument("--summary", action="store_true", help="only summarize --out")
    args = parser.parse_args()
    cells = args.cells.split(",")
    for cell in cells:
        if cell.count("-") != 1:
            parser.error(f"--cells: {cell[:40]!r} is not LIBERALS-FASCISTS")
        liberals, fascists = cell.split("-")
        if fascists == WEIGHTED:
            parser.error(f"--cells: {WEIGHTED!r} plays the liberal side only")
        for level in {liberals, fascists} - {WEIGHTED}:
            if (problem := bot_problem(level)) is not None:
                parser.error(f"--cells: {problem}")
    if args.games < 1 or not 1 <= args.jobs <= 8:
        parser.error("--games must be >= 1 and --jobs 1-8")
    if not args.summary:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        todo = list(_jobs(cells, args.games, args.seed, _done(args.out, args.seed)))
        start = time.time()
        with args.out.open("a", encoding="utf-8") as out:
            if args.jobs == 1:
                results: Iterator[dict[str, Any]] = map(_play, todo)
                pool = None
            else:
                pool = multiprocessing.get_context("fork").Pool(args.jobs)
                results = pool.imap(_play, todo, chunksize=4)
            for k, row in enumerate(results, 1):
                out.write(json.dumps(row) + "\n")
                out.flush()
                if k % 100 == 0:
                    rate = k / (time.time() - start)
                    print(f"{k}/{len(todo)} games, {rate:.2f} games/s", flush=True)
            if pool is not None:
                pool.close()
                pool.join()
    summary(args.out, args.seed, args.games, cells)


if __name__ == "__main__":
    main()
