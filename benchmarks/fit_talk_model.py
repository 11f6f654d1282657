"""Fit ``beliefs.TalkModel``: how each role talks about each role, from games of talking bots.

Plays games where every seat talks and nobody listens (``talk="speak"``: the games are those of
silent bots, so the fit does not chase its own effect), keeps them as records with their talk
section, and reads every line as its signals (``talk.said.signals``: accusations, trust, Hitler
reads, with their certainty). For each stance and certainty it counts, by the speaker's true
role, the role of the seat named against the roles of the seats he could have named (the other
living seats): the weights of a choice model, observed over expected under a uniform choice
(as the bots' nomination weights), liberal targets 1. Then it scans the weight of the whole
talk term by the log-loss of the listening liberals' posterior of the true world at every
nomination (``BOT_MODEL`` with the talk heard), counted on the even games and scored on the odd
ones; the committed weights are counted on all the games.

    .venv/bin/python benchmarks/fit_talk_model.py --games 300 --seed 41 --write   # ~3 min
    .venv/bin/python benchmarks/fit_talk_model.py --check    # refit from the committed games
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from secret_hitler.bots.beliefs import BOT_MODEL, LIB, ROLE_INDEX, Beliefs, TalkModel
from secret_hitler.engine import Action, game_from_record
from secret_hitler.sim.simulator import Lineup, game_record, game_seed, play_game
from secret_hitler.talk.lines import CERTAINTIES
from secret_hitler.talk.said import STANCES, Said, signals

ROOT = Path(__file__).resolve().parent.parent
GAMES_FILE = ROOT / "data" / "bot-fit" / "talk_model-games.jsonl.gz"
MODEL_FILE = ROOT / "src" / "secret_hitler" / "bots" / "data" / "talk_model.json"
WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
RATIO_CAP = 8.0
FIRST_GAMES = 40


def play_records(games: int, seed: int, players: int, fascists: list[str]) -> list[dict[str, Any]]:
    """``games`` games per fascist level, bayes liberals, every seat talking, none listening."""
    out = []
    for k, fascist in enumerate(fascists):
        lineup = Lineup("bayes", fascist)
        for i in range(games):
            result, game = play_game(
                players, lineup, "official", game_seed(seed + k, i), i, talk="speak"
            )
            out.append(game_record(result, game))
    return out


def write_records(records: list[dict[str, Any]], path: Path) -> None:
    """One record a line, gzip without name or time stamp (reproducible bytes)."""
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
        f.write(text.encode("utf-8"))


def read_records(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _talk(record: dict[str, Any]) -> list[Said]:
    n = len(record["roles"])
    return [Said.from_json(e, players=n) for e in record.get("talk", [])]


def signal_rows(record: dict[str, Any]) -> list[tuple[str, str, int, int, tuple[int, int, int]]]:
    """Every signal of a record: (stance, certainty, speaker role, target role, the roles of
    the seats the speaker could have named: counts of liberal, fascist, Hitler)."""
    roles = [ROLE_INDEX[r] for r in record["roles"]]
    talk = _talk(record)
    game = game_from_record(record, apply_actions=False)
    rows = []
    k = 0
    for i in range(len(record["actions"]) + 1):
        while k < len(talk) and talk[k].after == i:
            entry = talk[k]
            k += 1
            if entry.seat is None or entry.line is None:
                continue
            cands = [s for s in range(game.n) if game.alive[s] and s != entry.seat]
            counts = tuple(sum(1 for s in cands if roles[s] == r) for r in range(3))
            for sig in signals(entry.line):
                if sig.target in cands:
                    rows.append(
                        (sig.stance, sig.certainty, roles[entry.seat], roles[sig.target], counts)
                    )
        if i < len(record["actions"]):
            game.apply(Action.from_json(record["actions"][i]))
    return rows


def fit_choice(records: list[dict[str, Any]]) -> tuple[TalkModel, dict[str, Any]]:
    """The choice weights (talk weight 1) and how often each kind of signal names each role."""
    obs = np.zeros((len(STANCES), len(CERTAINTIES), 3, 3))
    exp = np.zeros_like(obs)
    for record in records:
        for stance, certainty, rs, rt, counts in signal_rows(record):
            a, b = STANCES.index(stance), CERTAINTIES.index(certainty)
            obs[a, b, rs, rt] += 1
            exp[a, b, rs] += np.array(counts, dtype=float) / sum(counts)
    ratio = np.clip((obs + 1.0) / (exp + 1.0), 0.0, None)
    ratio /= ratio[..., LIB : LIB + 1]
    ratio = np.clip(ratio, 1 / RATIO_CAP, RATIO_CAP)
    choice = {
        stance: {
            certainty: [[round(float(x), 4) for x in row] for row in ratio[a, b]]
            for b, certainty in enumerate(CERTAINTIES)
        }
        for a, stance in enumerate(STANCES)
    }
    shares = {
        f"{stance}|{('liberal', 'fascist', 'hitler')[rs]}|{certainty}": {
            "signals": int(obs[a, b, rs].sum()),
            "named_fascist_party": round(float(obs[a, b, rs, 1:].sum() / obs[a, b, rs].sum()), 4)
            if obs[a, b, rs].sum()
            else None,
        }
        for a, stance in enumerate(STANCES)
        for b, certainty in enumerate(CERTAINTIES)
        for rs in range(3)
    }
    return TalkModel.from_json({"choice": choice, "weight": 1.0}), shares


def log_loss(records: list[dict[str, Any]], talk: TalkModel) -> float:
    """Mean -log P(true world) of every seat that does not know the team (liberals, and Hitler
    at 7+ players), at every nomination, listening to the talk with ``talk``."""
    total, points = 0.0, 0
    for record in records:
        said = _talk(record)
        game = game_from_record(record, apply_actions=False)
        listeners: dict[int, Beliefs] = {}
        for s in range(game.n):
            view = game.view(s)
            b = Beliefs.for_view(view, model=BOT_MODEL, talk=talk)
            b.update(view)
            if b.possible() > 1:
                listeners[s] = b
        if not listeners:
            continue
        true_world = next(iter(listeners.values())).world_index(record["roles"])
        k = 0
        for i, raw in enumerate(record["actions"]):
            action = Action.from_json(raw)
            if action.type == "nominate":
                for s, b in listeners.items():
                    b.update(game.view(s))
                    total -= math.log(max(float(b.probs()[true_world]), 1e-12))
                    points += 1
            game.apply(action)
            while k < len(said) and said[k].after == i + 1:
                entry = said[k]
                k += 1
                if entry.seat is None or entry.line is None:
                    continue
                for s, b in listeners.items():
                    if s != entry.seat:
                        b.update(game.view(s))
                        b.hear_line(entry.seat, entry.line)
    return total / max(points, 1)


def scan(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Count on the even games, score each talk weight on the odd ones; the best weight."""
    counted, _ = fit_choice(records[0::2])
    held = records[1::2]
    losses = {}
    for w in WEIGHTS:
        model = TalkModel(counted.choice, w)
        losses[str(w)] = round(log_loss(held, model), 5)
    best = min(WEIGHTS, key=lambda w: losses[str(w)])
    return {"log_loss_held_out": losses, "best": best}


def fit(records: list[dict[str, Any]]) -> dict[str, Any]:
    choice, shares = fit_choice(records)
    scanned = scan(records)
    model = TalkModel(choice.choice, scanned["best"])
    return {"model": model.to_json(), "weight_scan": scanned, "signals": shares}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="games per fascist level")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--players", type=int, default=7)
    ap.add_argument("--fascists", default="bayes,rule")
    ap.add_argument("--write", action="store_true", help="commit the games and the model")
    ap.add_argument("--check", action="store_true", help="refit from the committed games")
    args = ap.parse_args()
    if args.check:
        committed = json.loads(MODEL_FILE.read_text("utf-8"))
        records = read_records(GAMES_FILE)
        refit = fit(records)
        same = refit["model"] == committed["model"]
        print("refit from the committed games:", "identical" if same else "DIFFERENT")
        raise SystemExit(0 if same else 1)
    fascists = [f.strip() for f in args.fascists.split(",") if f.strip()]
    records = play_records(args.games, args.seed, args.players, fascists)
    result = fit(records)
    print(
        json.dumps({"weight_scan": result["weight_scan"], "signals": result["signals"]}, indent=1)
    )
    if not args.write:
        return
    write_records(records, GAMES_FILE)
    digest = hashlib.sha256(GAMES_FILE.read_bytes()).hexdigest()
    first = records[:FIRST_GAMES]
    out = {
        "command": (
            f"python benchmarks/fit_talk_model.py --games {args.games} --seed {args.seed} "
            f"--players {args.players} --fascists {','.join(fascists)} --write"
        ),
        "data": {
            "file": str(GAMES_FILE.relative_to(ROOT)),
            "sha256": digest,
            "games": len(records),
            "liberal_wins": sum(r["result"]["winner"] == "liberal" for r in records),
            "lines": sum(len(r.get("talk", [])) for r in records),
        },
        **result,
        "first_games": {"games": FIRST_GAMES, **fit(first)},
    }
    MODEL_FILE.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("wrote", MODEL_FILE, "and", GAMES_FILE)


if __name__ == "__main__":
    main()
