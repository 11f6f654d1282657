"""How a liberal bot would decide in people's games: the model it reads people with.

Replays people's secrethitler.io games and, at every decision of a liberal seat (votes outside
the government, nominations, executions), asks each level what it would do from that seat's view
(the game then goes on as the people played it). What counts is what a liberal wants: no ja for
Hitler as chancellor once he would win, few ja for governments with a fascist, ja for clean ones,
liberal nominees, fascist targets. Levels: `bayes` as it plays among bots (``BOT_MODEL``);
`bayes` told that people hold the other seats (``BayesAgent.seated_with``, which makes it read
with ``HUMAN_MODEL``, the model fitted to the train half of these games); `bayes-human`; and the
people themselves. By default the held-out half of the 7-player games (nothing fitted saw them).

    .venv/bin/python benchmarks/people_decisions.py [--half test|train|all] [--players 7] [--games N]
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable

from secret_hitler.bots import Agent, make_agent
from secret_hitler.datasets import SECRETHITLER_IO
from secret_hitler.engine import Phase
from secret_hitler.engine import actions as A
from secret_hitler.sim.people_games import game_half, load_records, replay


def _seated_bayes(seat: int, seed: int) -> Agent:
    agent = make_agent("bayes", seat, seed)
    agent.seated_with([True] * 10)
    return agent


LEVELS: dict[str, Callable[[int, int], Agent]] = {
    "`bayes` (`BOT_MODEL`)": lambda seat, seed: make_agent("bayes", seat, seed),
    "`bayes` seated with people (`HUMAN_MODEL`)": _seated_bayes,
    "`bayes-human`": lambda seat, seed: make_agent("bayes-human", seat, seed),
}
VOTE_ROWS = (
    "ja: Hitler nominated chancellor in the zone",
    "ja: a fascist in the government (otherwise)",
    "ja: both liberal",
)
TARGET_ROWS = ("nominee is liberal", "execution target is liberal")


def tally(records: list[dict]) -> dict[tuple[str, str], list[float]]:  # type: ignore[type-arg]
    """(row, level or "people" or "uniform") -> [count, decisions]."""
    out: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])

    def add(row: str, who: str, value: float) -> None:
        out[(row, who)][0] += value
        out[(row, who)][1] += 1

    for index, record in enumerate(records):
        agents = {
            (name, s): make(s, index * 100 + s)
            for name, make in LEVELS.items()
            for s in range(len(record["roles"]))
        }

        for game, action in replay(record):
            seat = action.seat
            if game.roles[seat].value != "liberal":
                continue
            view = game.view(seat)
            legal = [a for a in game.legal_actions(seat) if a.type == action.type]
            if action.type in (A.NOMINATE, A.EXECUTE) and len(legal) > 1:
                row = TARGET_ROWS[action.type == A.EXECUTE]
                liberal = [game.roles[a.target].value == "liberal" for a in legal]
                add(row, "uniform", sum(liberal) / len(liberal))
                add(row, "people", game.roles[action.target].value == "liberal")
                for name in LEVELS:
                    target = agents[(name, seat)].act(view, legal).target
                    add(row, name, game.roles[target].value == "liberal")
            elif action.type == A.VOTE and game.phase is Phase.VOTE:
                president, chancellor = view.candidate, view.nominee
                if seat in (president, chancellor) or president is None or chancellor is None:
                    continue
                roles = game.roles[president].value, game.roles[chancellor].value
                if roles[1] == "hitler" and view.hitler_zone_active:
                    row = VOTE_ROWS[0]
                else:
                    row = VOTE_ROWS[2] if roles == ("liberal", "liberal") else VOTE_ROWS[1]
                add(row, "people", bool(action.ja))
                for name in LEVELS:
                    add(row, name, bool(agents[(name, seat)].act(view, legal).ja))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--half", choices=("test", "train", "all"), default="test")
    ap.add_argument("--players", type=int, choices=range(5, 11), default=7)
    ap.add_argument("--games", type=int, default=None, help="the first N games only")
    args = ap.parse_args()
    if args.games is not None and args.games < 1:
        ap.error("--games must be at least 1")
    records = [
        r
        for i, r in enumerate(load_records(SECRETHITLER_IO))
        if len(r.get("roles") or ()) == args.players
        and (args.half == "all" or game_half(r, i) == args.half)
    ][: args.games]
    counts = tally(records)
    who = ["people", *LEVELS, "uniform"]
    print(f"{len(records)} games ({args.half} half, {args.players} players), liberal seats")
    print("| decision | " + " | ".join(who) + " |")
    print("|---" * (len(who) + 1) + "|")
    for row in (*VOTE_ROWS, *TARGET_ROWS):
        cells = []
        for w in who:
            k, n = counts.get((row, w), (0.0, 0.0))
            cells.append(f"{k / n:.1%}" if n else "-")
        n = int(counts[(row, "people")][1])
        print(f"| {row} ({n:,}) | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
