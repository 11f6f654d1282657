"""Does the search liberals' model (``SEARCH_MODEL``, fitted at 7 players) carry over to the
other table sizes, or should it be fitted per size as ``BOT_MODEL``'s temper is?

    nice -n 10 .venv/bin/python benchmarks/model_sizes.py [--sizes 5,6,7,8,9,10] \
        [--fit-games 150] [--games 1000] [--seed 41] [--jobs 2]

At each size, ``--fit-games`` games per fascist level (bayes liberals against bayes and rule
fascists, as the 7-player fit) are played, and its term weights refitted there:

1. calibration: the log-loss of the true world, over every nomination and every seat that does
   not know the team, on the odd games, with the weights fitted on the even ones, against the
   7-player weights, one temper (the one BOT_MODEL uses at that size) and the uniform prior;
2. play: the liberal win rate of bayes liberals reading with ``BOT_MODEL`` (the ``bayes``
   level), with ``SEARCH_MODEL`` (the ``search`` liberals without rollouts) and with
   ``SEARCH_MODEL``'s counting under that size's weights (fitted on all the fit games), against
   rule and bayes fascists, ``--games`` deals per cell (the same deals in each row).
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from dataclasses import replace
from typing import Any

import numpy as np
from fit_bot_model import play
from fit_human_model import fit_weights, log_loss, term_points
from search_strength import bayes_liberals_on

from secret_hitler.bots.beliefs import BOT_MODEL, SEARCH_MODEL, TERMS, Model
from secret_hitler.sim.simulator import Lineup, game_seed, play_game, wilson

FASCISTS = ("rule", "bayes")
LIBERALS = ("bayes", "search", "sized")  # the liberals' model: BOT_MODEL, SEARCH_MODEL, refit


def _weights(model: Model) -> list[float]:
    own = dict(model.weights or ())
    return [own.get(t, model.temper) for t in TERMS]


def calibrate(n: int, games: list[Any]) -> tuple[dict[str, float], Model]:
    """Held-out log-loss at one size (fit on even games, score odd ones), and the model with
    weights refitted on all ``games``."""
    records = [g.to_record() for g in games]
    even = term_points(records[0::2], SEARCH_MODEL)
    here = fit_weights(*even)
    X, mask, y = odd = term_points(records[1::2], SEARCH_MODEL)
    temper = dict(BOT_MODEL.temper_by_players or ()).get(n, BOT_MODEL.temper)
    losses = {
        "uniform": float(np.log(mask.sum(axis=1)).mean()),
        f"one temper {temper} (BOT_MODEL's here)": log_loss(X, mask, y, [temper] * len(TERMS)),
        "7-player weights": log_loss(X, mask, y, _weights(SEARCH_MODEL)),
        "refit here": log_loss(X, mask, y, here),
    }
    refit = fit_weights(*(np.concatenate(parts) for parts in zip(even, odd, strict=True)))
    return losses, replace(SEARCH_MODEL, weights=tuple(zip(TERMS, refit, strict=True)))


def _play(job: tuple[int, str, str, Model, int, int]) -> tuple[int, str, str, bool]:
    n, fascists, liberals, model, seed, index = job
    deal = game_seed(seed, index)
    agents = bayes_liberals_on(model, fascists, deal, n)
    result, _ = play_game(n, Lineup("bayes", fascists), "official", deal, agents=agents)
    return n, fascists, liberals, result.winner == "liberal"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="5,6,7,8,9,10")
    parser.add_argument("--fit-games", type=int, default=150)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error("--sizes: comma-separated player counts, such as 5,7,10")
    if not all(5 <= n <= 10 for n in sizes) or min(args.fit_games, args.games, args.jobs) < 1:
        parser.error("sizes are 5 to 10 players; --fit-games, --games and --jobs at least 1")
    t0 = time.time()
    models: dict[int, dict[str, Model]] = {}
    print("held-out log-loss of the true world (fit on even games, scored on odd ones)")
    for n in sizes:
        losses, sized = calibrate(
            n, play(n, "bayes", ",".join(FASCISTS), args.fit_games, args.seed)
        )
        models[n] = {"bayes": BOT_MODEL, "search": SEARCH_MODEL, "sized": sized}
        shown = ", ".join(f"{k} {v:.3f}" for k, v in losses.items())
        print(f"  {n} players: {shown}", flush=True)
        print(f"    weights refitted here: {dict(sized.weights or ())}", flush=True)
    jobs = [
        (n, fas, lib, models[n][lib], args.seed + 1, i)
        for n in sizes
        for fas in FASCISTS
        for lib in LIBERALS
        for i in range(args.games)
    ]
    wins: dict[tuple[int, str, str], int] = dict.fromkeys(((j[0], j[1], j[2]) for j in jobs), 0)
    with multiprocessing.Pool(args.jobs) as pool:
        for n, fas, lib, won in pool.imap_unordered(_play, jobs, chunksize=20):
            wins[n, fas, lib] += won
    print(f"liberal wins, {args.games} deals a cell (95% Wilson interval)")
    print("  players  fascists  " + "  ".join(f"{lib:>24}" for lib in LIBERALS))
    for n in sizes:
        for fas in FASCISTS:
            cells = []
            for lib in LIBERALS:
                k = wins[n, fas, lib]
                lo, hi = wilson(k, args.games)
                cells.append(f"{k / args.games:6.1%} ({lo:.1%}-{hi:.1%})".rjust(24))
            print(f"  {n:7}  {fas:8}  " + "  ".join(cells))
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
