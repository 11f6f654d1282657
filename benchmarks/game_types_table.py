"""Game types table: rule, bayes and search against each other in secrethitler.io's game types
(Avalon SH with and without Percival, the Monarchist, both, rebalanced tables), with the
assassin's hit rate against chance (issue 41 point 2; docs/bots.md, "Game types").

Every cell plays games of one game type at one table size with one lineup (the liberal party's
bot against the fascist party's, Hitler included: the assassin is the fascist bot). Every cell of
one (game type, players) plays the same game seeds (``SimConfig`` seed), so cells differ by the
bots only. The simulator's ``Runner`` plays them. Prints two Markdown tables (for docs/bots.md):
the liberal party's win rate per cell with a 95% Wilson interval, and under Avalon SH the
assassin's hits (Merlin named) over the assassinations, beside chance (one liberal-party seat
drawn at random). A game that crashes stops the run with its seed.

The level ``sighted`` (this script's only, played with ``--jobs 1``: this process plays the
games) is ``bayes`` with a Merlin who votes and nominates on his sight in a share ``--sight``
of them (default 1: every time), read so by its Hitler (``Model.merlin_sight`` and
``merlin_sight_zone``): the lineup ``sighted:sighted`` shows what the assassin's P(Merlin) finds
when Merlin does not hide, and ``--lineups sighted:sighted --sight S`` scans the share (the
built-in Merlin's is 0: docs/bots.md "Game types").

``--rates N`` plays N games of ``sighted:sighted`` under Avalon SH at the first table size
instead, and prints how plain liberals and Merlin vote on governments with and without a
fascist-party seat and how often they nominate one, from the games' records: the numbers
``Model.liberal_ja_team`` and its neighbours were set from (``--sight 0``: a plain Merlin;
``--sight 1``: the sighted rates).

    nice -n 10 .venv/bin/python benchmarks/game_types_table.py [--games 100] \
        [--search-games 10] [--seed 1] [--types avalon,...] [--players 5,7,9] \
        [--lineups bayes:rule,...] [--sight 1] [--sight-powers P] [--jobs 1] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from secret_hitler.bots.base import Agent, register
from secret_hitler.bots.bayes import BayesAgent
from secret_hitler.bots.beliefs import BOT_MODEL, EYE_MODEL
from secret_hitler.engine import Rules
from secret_hitler.engine.types import PARTY_OF_NAME, Party
from secret_hitler.sim import Lineup
from secret_hitler.sim.simulator import GameResult, Runner, SimConfig, summarize
from secret_hitler.stats import wilson

#: The game types, as table settings (docs/game-types.md), and the table sizes each is played
#: at by default (a rebalanced table changes only at 6, 7 and 9 players; Percival with the
#: Monarchist is refused below 7).
TYPES: dict[str, tuple[dict[str, Any], tuple[int, ...]]] = {
    "avalon": ({"preset": "secrethitler-io", "avalon": "merlin"}, (5, 7, 9)),
    "avalon-percival": ({"preset": "secrethitler-io", "avalon": "percival"}, (5, 7, 9)),
    "monarchist": ({"preset": "secrethitler-io", "monarchist": True}, (5, 7, 9)),
    "percival-monarchist": (
        {"preset": "secrethitler-io", "avalon": "percival", "monarchist": True},
        (7, 9),
    ),
    "rebalanced": ({"preset": "secrethitler-io", "rebalanced": [6, 7, 9]}, (6, 7, 9)),
}
LINEUPS = "bayes:bayes,bayes:rule,rule:bayes,rule:rule,search:bayes,bayes:search,sighted:sighted"
SIGHTED = "sighted"


def _sighted(share: float, powers: float | None) -> Callable[[int, Any], Agent]:
    """bayes, with a Merlin who acts on his sight in ``share`` of his votes and nominations
    (and ``powers`` of his powers, if given)."""
    model = replace(BOT_MODEL, merlin_sight=share, merlin_sight_zone=share)
    if powers is not None:
        model = replace(model, merlin_sight_powers=powers)

    def make(seat: int, rng: Any) -> Agent:
        return BayesAgent(seat, rng, model, EYE_MODEL)

    return make


#: The endings of an assassination: Merlin named, or the liberals' trigger (a miss).
HIT = "merlin_assassinated"
MISSES = ("five_liberal_policies", "hitler_executed")


def assassinations(rules: Rules, results: list[GameResult]) -> tuple[int, int]:
    """(hits, assassinations) of these games: under Avalon SH every liberal win came through
    the assassination (a miss), and ``merlin_assassinated`` is a hit."""
    if rules.avalon == "off":
        return 0, 0
    hits = sum(1 for r in results if r.reason == HIT)
    misses = sum(1 for r in results if r.reason in MISSES)
    return hits, hits + misses


def chance(rules: Rules, players: int) -> float:
    """The hit rate of a seat drawn at random among Hitler's targets (the liberal party)."""
    liberals = sum(k for role, k in rules.composition(players) if role.party is Party.LIBERAL)
    return 1.0 / liberals


def print_rates(games: int, players: int, seed: int, sight: float) -> None:
    """Vote and nomination rates of plain liberals and of Merlin, from the records of
    ``games`` Avalon SH games of the sighted level (``Model.liberal_ja_team`` ...)."""
    settings = TYPES["avalon"][0]
    with tempfile.TemporaryDirectory() as folder, Runner(1) as runner:
        config = SimConfig(players, Lineup(SIGHTED, SIGHTED), settings, seed, record_dir=folder)
        runner.run(config, games)
        records = [json.loads(p.read_text("utf-8")) for p in sorted(Path(folder).glob("*.json"))]
    votes: Counter[tuple[str, bool, bool]] = Counter()  # (role, team government, ja)
    picks: Counter[tuple[str, bool]] = Counter()  # (role, fascist-party nominee)
    powers: Counter[tuple[str, str, bool]] = Counter()  # (power, role, fascist-party target)
    for record in records:
        roles = record["roles"]
        fascist = [PARTY_OF_NAME[r] == "fascist" for r in roles]
        government: tuple[int, int] | None = None
        for a in record["actions"]:
            seat = a["seat"]
            if a["type"] == "nominate":
                government = (seat, a["target"])
                if roles[seat] in ("liberal", "merlin"):
                    picks[(roles[seat], fascist[a["target"]])] += 1
            elif a["type"] in ("execute", "special_election"):
                if roles[seat] in ("liberal", "merlin"):
                    powers[(a["type"], roles[seat], fascist[a["target"]])] += 1
            elif a["type"] == "vote" and government is not None:
                if seat in government or roles[seat] not in ("liberal", "merlin"):
                    continue
                team = fascist[government[0]] or fascist[government[1]]
                votes[(roles[seat], team, bool(a["ja"]))] += 1
    print(f"{len(records)} Avalon SH games at {players} players, Merlin's sight {sight}:\n")
    print(
        "| role | P(ja), government with a fascist | P(ja), liberal-liberal | nominee fascist "
        "| executed a fascist | special election of a fascist |"
    )
    print("|---|---|---|---|---|---|")
    for role in ("liberal", "merlin"):
        cells = []
        for team in (True, False):
            ja, nein = votes[(role, team, True)], votes[(role, team, False)]
            cells.append(f"{ja / max(ja + nein, 1):.3f} ({ja + nein})")
        bad, good = picks[(role, True)], picks[(role, False)]
        cells.append(f"{bad / max(bad + good, 1):.3f} ({bad + good})")
        for power in ("execute", "special_election"):
            bad, good = powers[(power, role, True)], powers[(power, role, False)]
            cells.append(f"{bad / max(bad + good, 1):.3f} ({bad + good})")
        print(f"| {role} | {' | '.join(cells)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per cell without search")
    parser.add_argument("--search-games", type=int, default=10, help="games per search cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--types", default=",".join(TYPES))
    parser.add_argument("--players", default=None, help="table sizes (default: each type's)")
    parser.add_argument("--lineups", default=LINEUPS, help="liberals:fascists, comma-separated")
    parser.add_argument("--sight", type=float, default=1.0, help="the sighted Merlin's share")
    parser.add_argument(
        "--sight-powers", type=float, default=None, help="and in his powers (default: as built in)"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--rates", type=int, default=0, help="only count vote rates, N games")
    args = parser.parse_args()
    types = args.types.split(",")
    unknown = [t for t in types if t not in TYPES]
    if unknown:
        sys.exit(f"game_types_table.py: --types: unknown {unknown[0][:40]!r}")
    try:
        lineups = [tuple(x.split(":", 1)) for x in args.lineups.split(",")]
        if any(len(x) != 2 for x in lineups):
            raise ValueError
    except ValueError:
        sys.exit("game_types_table.py: --lineups: liberals:fascists pairs, comma-separated")
    if not 0.0 <= args.sight <= 1.0 or not 0.0 <= (args.sight_powers or 0.0) <= 1.0:
        sys.exit("game_types_table.py: --sight, --sight-powers: a share from 0 to 1")
    if any(SIGHTED in pair for pair in lineups):
        if args.jobs != 1:
            sys.exit("game_types_table.py: the sighted level plays with --jobs 1 only")
        register(SIGHTED, _sighted(args.sight, args.sight_powers))
    sizes = None if args.players is None else [int(p) for p in args.players.split(",")]
    if args.rates:
        register(SIGHTED, _sighted(args.sight, args.sight_powers))
        print_rates(args.rates, (sizes or [7])[0], args.seed, args.sight)
        return
    command = " ".join(
        ["nice -n 10 .venv/bin/python benchmarks/game_types_table.py", *sys.argv[1:]]
    )
    print(f"`{command}`\n")
    print(
        f"Liberal-party win rate, 95% Wilson interval; {args.games} games per cell, "
        f"{args.search_games} where search plays; seed {args.seed}.\n"
    )
    head = [f"{lib} vs {fas}" for lib, fas in lineups]
    print(f"| game type | players | {' | '.join(head)} |")
    print("|---|---|" + "---|" * len(head))
    cells: list[dict[str, Any]] = []
    shots: list[str] = []
    start = time.perf_counter()
    with Runner(args.jobs) as runner:
        for name in types:
            settings, default_sizes = TYPES[name]
            rules = Rules.from_json(settings)
            for n in sizes or default_sizes:
                texts, hit_texts = [], []
                for lib, fas in lineups:
                    games = args.search_games if "search" in (lib, fas) else args.games
                    config = SimConfig(n, Lineup(lib, fas), settings, args.seed)
                    results = runner.run(config, games)
                    s = summarize(results)
                    lo, hi = s.liberal_ci
                    texts.append(f"{s.liberal_rate:.0%} ({lo:.0%}-{hi:.0%})")
                    hits, shots_taken = assassinations(rules, results)
                    if shots_taken:
                        h_lo, h_hi = wilson(hits, shots_taken)
                        hit_texts.append(
                            f"{hits}/{shots_taken} = {hits / shots_taken:.0%} "
                            f"({h_lo:.0%}-{h_hi:.0%})"
                        )
                    elif rules.avalon != "off":
                        hit_texts.append("none")
                    cells.append(
                        {"type": name, "players": n, "liberals": lib, "fascists": fas}
                        | s.to_json()
                        | {"assassin_hits": hits, "assassinations": shots_taken}
                    )
                print(f"| {name} | {n} | {' | '.join(texts)} |", flush=True)
                if hit_texts:
                    row = f"| {name} | {n} | {chance(rules, n):.0%} | {' | '.join(hit_texts)} |"
                    shots.append(row)
    if shots:
        print("\nThe assassin (the fascist bot's Hitler) under Avalon SH: Merlin named / times")
        print(
            "Hitler chose, 95% Wilson interval, beside chance (a liberal-party seat at random).\n"
        )
        print(f"| game type | players | chance | {' | '.join(head)} |")
        print("|---|---|---|" + "---|" * len(head))
        for row in shots:
            print(row)
    took = time.perf_counter() - start
    games_played = sum(c["games"] for c in cells)
    print(f"\n{games_played} games in {took:.0f} s, no crash.")
    if args.json is not None:
        args.json.write_text(json.dumps(cells, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
