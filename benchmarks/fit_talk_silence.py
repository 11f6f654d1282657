"""Fit ``listening.UNANSWERED``: how often a seat of each party leaves a question put to it by
name unanswered, from games of bots that talk and listen.

Plays ``--games`` games of ``bayes`` against ``bayes`` where every seat talks and listens (the
committed talk model and rates), and counts every question by name that a listening seat's own
posterior closed (``Beliefs.hear_silence``: answered, or left open until the next election's
votes), by the true party of the seat asked (Hitler's is the fascist party's: a rate of his own would
let a Hitler's silence read as "a fascist, not Hitler", which his judge would then buy), each as
often as listeners heard it (every living seat but the asker and the asked). The rate of each
party is (unanswered + 1) / (closed + 2).
Fascists price their silence by these rates (``talk_value.TeamJudge.unanswered``), so a fit on
games played with the previous rates is one step towards a fixed point: ``--steps`` runs that
many, each on the games played with the last.

    .venv/bin/python benchmarks/fit_talk_silence.py --games 300 --seed 41 --steps 2 --write
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import secret_hitler.bots.beliefs as beliefs_module
from secret_hitler.bots import listening
from secret_hitler.bots.beliefs import Beliefs
from secret_hitler.bots.model import LIB, ROLE_INDEX
from secret_hitler.sim.simulator import Lineup, game_seed, play_game

ROOT = Path(__file__).resolve().parent.parent
PARTIES = ("liberal", "fascist_party")
RATES_FILE = ROOT / "src" / "secret_hitler" / "bots" / "data" / "talk_silence.json"


def rate(unanswered: int, closed: int) -> float:
    """A party's rate: (unanswered + 1) / (closed + 2) (one pseudo-count each way)."""
    return (unanswered + 1) / (closed + 2)


def count(games: int, seed: int, players: int) -> list[list[int]]:
    """[party: liberal, fascist] -> [unanswered, closed], over ``games`` listening games."""
    closed: list[tuple[int, bool]] = []
    original = Beliefs.hear_silence

    def counting(self: Beliefs, seat: int, *, silent: bool = True) -> None:
        if self.seat is not None and self.talk.weight != 0.0 and seat != self.seat:
            closed.append((seat, silent))
        original(self, seat, silent=silent)

    tally = [[0, 0] for _ in PARTIES]
    Beliefs.hear_silence = counting  # type: ignore[method-assign]
    try:
        for index in range(games):
            closed.clear()
            result, _ = play_game(
                players,
                Lineup("bayes", "bayes"),
                "official",
                game_seed(seed, index),
                index,
                talk="listen",
            )
            for seat, silent in closed:
                party = 0 if ROLE_INDEX[result.roles[seat]] == LIB else 1
                tally[party][0] += silent
                tally[party][1] += 1
    finally:
        Beliefs.hear_silence = original  # type: ignore[method-assign]
    return tally


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--players", type=int, default=7)
    ap.add_argument("--steps", type=int, default=1)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    out: dict[str, Any] = {}
    for step in range(args.steps):
        tally = count(args.games, args.seed + step, args.players)
        rates = [rate(u, n) for u, n in tally]
        by_role = listening.by_role(dict(zip(PARTIES, rates, strict=True)))
        listening.UNANSWERED = by_role  # the next step's games price silence by these
        beliefs_module.UNANSWERED = by_role
        print(
            f"step {step + 1}: "
            + ", ".join(f"{PARTIES[r]} {u}/{n} = {rates[r]:.4f}" for r, (u, n) in enumerate(tally)),
            flush=True,
        )
        out = {
            "command": "python benchmarks/fit_talk_silence.py "
            f"--games {args.games} --seed {args.seed} --players {args.players} "
            f"--steps {args.steps} --write",
            "counts": {
                PARTIES[r]: {"unanswered": u, "closed": n} for r, (u, n) in enumerate(tally)
            },
            "unanswered": {PARTIES[r]: round(x, 5) for r, x in enumerate(rates)},
        }
    if args.write:
        RATES_FILE.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {RATES_FILE}")


if __name__ == "__main__":
    main()
