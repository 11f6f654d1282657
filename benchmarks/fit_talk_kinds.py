"""Fit ``talk_kinds.KindTells``: how often each team says each kind of line, per seat and game.

Plays ``bayes`` against itself with every seat talking and listening (the fascists price their
lines with the committed reader, ``bots/data/talk_kinds.json``), replays every game with the
public state and who accused whom as the table saw them when each line was said, and counts
each line's ``talk_kinds.tell_key`` (kind, reason, the standing of the seat it names) by the
speaker's team. The reader's log-ratio of a key is log(fascist-party lines of it per
fascist-party seat over liberal lines per liberal seat), with ``PSEUDO_LINES`` added to both.

The fascists' talk depends on the reader they price against, so the fit is a fixed-point
iteration: each step plays new games with the reader of the step before and keeps ``--damp`` of
its log-ratios (the rest from the new count), so that kinds dropped too often one step are not
said too often the next; the first step from no reader keeps none. The committed file:

    .venv/bin/python benchmarks/fit_talk_kinds.py --fresh --steps 6 --games 400 --seed 11 --damp 0.5 --write

(step k plays ``--seed`` + k; about 30 s a step here; the file lists its steps.)
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from typing import Any

from secret_hitler.bots import talk_kinds
from secret_hitler.bots.talk_kinds import TALK_KINDS_FILE, KindTells, load, tell_key
from secret_hitler.engine import game_from_record
from secret_hitler.engine.public import PublicState
from secret_hitler.sim.simulator import Lineup, game_seed, play_game
from secret_hitler.talk.said import ACCUSE, HITLER, Said, signals


def count_game(game: Any, said: list[Said], counts: dict[str, dict[str, float]]) -> None:
    """Add the keys of one finished game's lines to ``counts`` (key -> team -> lines)."""
    teams = ["liberal" if r.value == "liberal" else "fascist" for r in game.roles]
    table = PublicState()
    accused: dict[int, tuple[int, ...]] = {}
    replay = game_from_record(game.to_record(), apply_actions=False)
    seen = k = 0
    actions = list(game.actions)
    for i in range(len(actions) + 1):
        for e in replay.events[seen:]:
            if e.visible_to(None):
                table.feed(e.json)
        seen = len(replay.events)
        while k < len(said) and said[k].after <= i:
            entry = said[k]
            k += 1
            if entry.seat is None or entry.line is None:
                continue
            key = tell_key(entry.line, entry.seat, table, accused)
            if key is not None:
                counts[key][teams[entry.seat]] += 1
            for sig in signals(entry.line):
                if sig.stance in (ACCUSE, HITLER) and entry.seat not in accused.get(sig.target, ()):
                    accused[sig.target] = (*accused.get(sig.target, ()), entry.seat)
        if i < len(actions):
            replay.apply(actions[i])


def fit(games: int, seed: int, players: int) -> tuple[KindTells, dict[str, Any]]:
    counts: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    seats = {"liberal": 0, "fascist": 0}
    lineup = Lineup("bayes", "bayes")
    for i in range(games):
        result, game = play_game(players, lineup, "official", game_seed(seed, i), i, talk="listen")
        count_game(game, result.said, counts)
        for r in game.roles:
            seats["liberal" if r.value == "liberal" else "fascist"] += 1
    plain = {k: dict(v) for k, v in counts.items()}
    return KindTells.fit(plain, seats), {"counts": plain, "seats": seats}


def step(games: int, seed: int, players: int, damp: float, old: KindTells) -> KindTells:
    """One step of the fixed point: games with ``old`` as the committed reader, then blended."""
    talk_kinds.KIND_TELLS = old  # what the fascists' judge prices against (talk_value)
    new, data = fit(games, seed, players)
    keys = set(new.log_ratio) | set(old.log_ratio)
    blended = KindTells(
        {
            k: round(damp * old.log_ratio.get(k, 0.0) + (1 - damp) * new.log_ratio.get(k, 0.0), 4)
            for k in sorted(keys)
        }
    )
    top = sorted(new.log_ratio.items(), key=lambda kv: -abs(kv[1]))[:10]
    print(f"seed {seed}: {games} games, seats {data['seats']}; strongest tells of these games:")
    for k, v in top:
        c = data["counts"].get(k, {})
        print(
            f"  {v:+.3f} {k} (liberal {c.get('liberal', 0):.0f}, fascist {c.get('fascist', 0):.0f})"
        )
    return blended


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--players", type=int, default=7)
    ap.add_argument("--damp", type=float, default=0.5, help="share of the old log-ratios kept")
    ap.add_argument("--steps", type=int, default=1, help="steps of the fixed point")
    ap.add_argument("--fresh", action="store_true", help="start from no reader")
    ap.add_argument("--write", action="store_true", help="commit the reader")
    args = ap.parse_args()
    if not 0 <= args.damp < 1 or args.steps < 1 or args.games < 1:
        ap.error("--damp must be in [0, 1), --steps and --games at least 1")
    reader = KindTells() if args.fresh else load()
    steps: list[dict[str, Any]] = []
    if not args.fresh and TALK_KINDS_FILE.exists():
        steps = json.loads(TALK_KINDS_FILE.read_text(encoding="utf-8")).get("steps", [])
    for k in range(args.steps):
        damp = args.damp if reader.log_ratio else 0.0
        seed = args.seed + k
        reader = step(args.games, seed, args.players, damp, reader)
        steps.append({"games": args.games, "seed": seed, "players": args.players, "damp": damp})
    if args.write:
        out = {"steps": steps, **reader.to_json()}
        TALK_KINDS_FILE.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {TALK_KINDS_FILE}")


if __name__ == "__main__":
    main()
