"""Fit ``beliefs.TalkModel``: how each role talks, from games of talking bots.

Plays games where every seat talks and listens with the committed model (``--talk listen``:
listening bots talk from posteriors that heard the talk, and fascists bend their lines against
the listeners' model, so the fit reads the talk as it is at a listening table; running it again
on its own result is one step towards a fixed point; ``--talk speak``: nobody listens), keeps
them as records with their talk section, and counts:

- every line's signals (``talk.said.signals``: accusations, trust, Hitler reads, with their
  certainty): for each stance and certainty, by the speaker's true role, the role of the seat
  named against the roles of the seats he could have named (the other living seats): the
  weights of a choice model, observed over expected under a uniform choice (as the bots'
  nomination weights), liberal targets 1;
- the same signals by what the table knew of each candidate (``listening.CONTEXTS``: its
  record, whether another accused it, whether it was the likeliest fascist of the public
  posterior of moves and claims): context multipliers, observed over expected under those
  weights;
- every vote of a seat outside the government on a member it had spoken for or against:
  P(vote | its words, roles) over P(vote | roles), shrunk towards 1 by ``SHRINK`` votes.

Then it scans the weight of the whole talk term by the log-loss of the listening liberals'
posterior of the true world at every nomination (``BOT_MODEL`` with the talk heard), counted on
the even games and scored on the odd ones; the committed tables are counted on all the games.

    .venv/bin/python benchmarks/fit_talk_model.py --games 300 --seed 41 --write   # ~3 min
    .venv/bin/python benchmarks/fit_talk_model.py --check    # refit from the committed games
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from secret_hitler.bots.beliefs import BOT_MODEL, LIB, ROLE_INDEX, Beliefs, TalkModel
from secret_hitler.bots.listening import CONTEXTS, DIRECTIONS, TalkMemory, context
from secret_hitler.engine import Action, game_from_record
from secret_hitler.engine.public import PublicState
from secret_hitler.sim.simulator import Lineup, game_record, game_seed, play_game
from secret_hitler.talk.lines import CERTAINTIES
from secret_hitler.talk.said import STANCES, Said, signals

ROOT = Path(__file__).resolve().parent.parent
GAMES_FILE = ROOT / "data" / "bot-fit" / "talk_model-games.jsonl.gz"
MODEL_FILE = ROOT / "src" / "secret_hitler" / "bots" / "data" / "talk_model.json"
WEIGHTS = (0.0, 0.25, 0.35, 0.5, 0.75, 1.0, 1.5, 2.0)
RATIO_CAP = 8.0
SHRINK = 4.0  # votes after words: shrunk to the votes without words by this many votes
DEAF = TalkModel((), 0.0)  # a posterior that hears no talk
FIRST_GAMES = 40


def play_records(
    games: int, seed: int, players: int, fascists: list[str], talk: str = "listen"
) -> list[dict[str, Any]]:
    """``games`` games per fascist level, bayes liberals, every seat talking, listening as
    ``talk`` says (``listen``: every seat, with the committed model; ``speak``: none)."""
    out = []
    for k, fascist in enumerate(fascists):
        lineup = Lineup("bayes", fascist)
        for i in range(games):
            result, game = play_game(
                players, lineup, "official", game_seed(seed + k, i), i, talk=talk
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


SignalRow = tuple[str, str, int, int, str, tuple[tuple[int, str], ...]]


def _replay(record: dict[str, Any]) -> Any:
    """Walk a record: yield (game, public state, talk entries said then) after each action
    (and once before the first), the public state fed with the public events so far."""
    talk = _talk(record)
    game = game_from_record(record, apply_actions=False)
    table = PublicState()
    seen = 0
    k = 0
    for i in range(len(record["actions"]) + 1):
        for e in game.events[seen:]:
            if e.visible_to(None):
                table.feed(e.json)
        seen = len(game.events)
        said = []
        while k < len(talk) and talk[k].after == i:
            said.append(talk[k])
            k += 1
        yield game, table, said
        if i < len(record["actions"]):
            game.apply(Action.from_json(record["actions"][i]))


def signal_rows(record: dict[str, Any]) -> list[SignalRow]:
    """Every signal of a record: (stance, certainty, speaker role, target role, the target's
    context, the seats the speaker could have named: (role, context) each), the contexts as
    a listener reads them then (``listening.context``; the likeliest fascist by the public
    posterior of the moves and claims, ``BOT_MODEL`` without talk, so that the count depends
    on the games alone, not on the talk model committed when it is made)."""
    roles = [ROLE_INDEX[r] for r in record["roles"]]
    memory = TalkMemory()
    rows: list[SignalRow] = []
    public: Beliefs | None = None
    for game, table, said in _replay(record):
        view = game.view(None)
        if public is None:
            public = Beliefs.for_view(view, public=True, model=BOT_MODEL, talk=DEAF)
        public.update(view)
        for entry in said:
            if entry.seat is None or entry.line is None:
                continue
            cands = [s for s in range(game.n) if game.alive[s] and s != entry.seat]
            m = public.marginals()
            likeliest = max(cands, key=lambda c: float(m[c, 1] + m[c, 2]))
            for sig in signals(entry.line):
                if sig.target not in cands:
                    continue
                seen = [
                    (
                        roles[c],
                        context(table, memory.accused.get(c, ()), entry.seat, c, c == likeliest),
                    )
                    for c in cands
                ]
                ctx = seen[cands.index(sig.target)][1]
                rows.append(
                    (
                        sig.stance,
                        sig.certainty,
                        roles[entry.seat],
                        roles[sig.target],
                        ctx,
                        tuple(seen),
                    )
                )
                memory.note(entry.seat, sig.stance, sig.target)
    return rows


def vote_rows(record: dict[str, Any]) -> list[tuple[str | None, bool, int, int]]:
    """Every vote of a seat outside the government on a member of it: (what the voter last
    said of that member, for or against, or None; ja; voter role; member role)."""
    roles = [ROLE_INDEX[r] for r in record["roles"]]
    memory = TalkMemory()
    rows: list[tuple[str | None, bool, int, int]] = []
    votes_seen = 0
    for game, _table, said in _replay(record):
        elections = [e for e in game.events if e.type == "votes"]
        nominated = [x for x in game.events if x.type == "nominated"]
        for index in range(votes_seen, len(elections)):
            e = elections[index]
            p, c = nominated[index].data["president"], nominated[index].data["chancellor"]
            for v, ja in enumerate(e.data["votes"]):
                if ja is None or v in (p, c):
                    continue
                for m in (p, c):
                    rows.append((memory.stances.get((v, m)), bool(ja), roles[v], roles[m]))
        votes_seen = len(elections)
        for entry in said:
            if entry.seat is None or entry.line is None:
                continue
            for sig in signals(entry.line):
                if sig.target != entry.seat:
                    memory.note(entry.seat, sig.stance, sig.target)
    return rows


def _ratio(obs: np.ndarray, exp: np.ndarray) -> np.ndarray:
    return np.clip((obs + 1.0) / (exp + 1.0), 1 / RATIO_CAP, RATIO_CAP)


def fit_choice(records: list[dict[str, Any]]) -> tuple[TalkModel, dict[str, Any]]:
    """The talk model's tables (talk weight 1) and how often each kind of signal names each
    role: the choice weights (observed over expected under a uniform choice, liberal targets
    1), then the context multipliers (observed over expected under those weights, by what
    the table knew of each candidate), then the consistency of votes with words (P(vote |
    said, roles) over P(vote | roles), shrunk to it by ``SHRINK`` votes)."""
    rows = [row for record in records for row in signal_rows(record)]
    obs = np.zeros((len(STANCES), len(CERTAINTIES), 3, 3))
    exp = np.zeros_like(obs)
    for stance, certainty, rs, rt, _ctx, seen in rows:
        a, b = STANCES.index(stance), CERTAINTIES.index(certainty)
        obs[a, b, rs, rt] += 1
        for rc, _ in seen:
            exp[a, b, rs, rc] += 1.0 / len(seen)
    ratio = np.clip((obs + 1.0) / (exp + 1.0), 0.0, None)
    ratio /= ratio[..., LIB : LIB + 1]
    ratio = np.clip(ratio, 1 / RATIO_CAP, RATIO_CAP)
    cobs = np.zeros((len(STANCES), len(CONTEXTS), 3, 3))
    cexp = np.zeros_like(cobs)
    for stance, certainty, rs, rt, ctx, seen in rows:
        a, b = STANCES.index(stance), CERTAINTIES.index(certainty)
        cobs[a, CONTEXTS.index(ctx), rs, rt] += 1
        weights = [ratio[a, b, rs, rc] for rc, _ in seen]
        total = sum(weights)
        for (rc, cc), w in zip(seen, weights, strict=True):
            cexp[a, CONTEXTS.index(cc), rs, rc] += w / total
    by_context = _ratio(cobs, cexp)
    votes = [row for record in records for row in vote_rows(record)]
    base = np.zeros((2, 3, 3))  # [ja, nein][voter role][member role]
    said = np.zeros((len(DIRECTIONS), 2, 3, 3))
    for direction, ja, rv, rm in votes:
        base[0 if ja else 1, rv, rm] += 1
        if direction is not None:
            said[DIRECTIONS.index(direction), 0 if ja else 1, rv, rm] += 1
    p_base = (base + 1.0) / (base.sum(axis=0, keepdims=True) + 2.0)
    n_said = said.sum(axis=1, keepdims=True)
    p_said = (said + SHRINK * p_base[None]) / (n_said + SHRINK)
    consistency = np.clip(p_said / p_base[None], 1 / RATIO_CAP, RATIO_CAP)
    model = {
        "choice": {
            stance: {
                certainty: [[round(float(x), 4) for x in row] for row in ratio[a, b]]
                for b, certainty in enumerate(CERTAINTIES)
            }
            for a, stance in enumerate(STANCES)
        },
        "weight": 1.0,
        "context": {
            stance: [[[round(float(x), 4) for x in row] for row in t] for t in by_context[a]]
            for a, stance in enumerate(STANCES)
        },
        "consistency": [
            [[[round(float(x), 4) for x in row] for row in t] for t in by] for by in consistency
        ],
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
    return TalkModel.from_json(model), shares


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
            b.reads_silence = False  # unanswered questions: fitted apart (fit_talk_silence.py)
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
        model = replace(counted, weight=w)
        losses[str(w)] = round(log_loss(held, model), 5)
    best = min(WEIGHTS, key=lambda w: losses[str(w)])
    return {"log_loss_held_out": losses, "best": best}


def fit(records: list[dict[str, Any]]) -> dict[str, Any]:
    choice, shares = fit_choice(records)
    scanned = scan(records)
    model = replace(choice, weight=scanned["best"])
    return {"model": model.to_json(), "weight_scan": scanned, "signals": shares}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="games per fascist level")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--players", type=int, default=7)
    ap.add_argument("--fascists", default="bayes,rule")
    ap.add_argument(
        "--talk", default="listen", choices=("listen", "speak"), help="who listens in the games"
    )
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
    records = play_records(args.games, args.seed, args.players, fascists, args.talk)
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
            f"--players {args.players} --fascists {','.join(fascists)} --talk {args.talk} --write"
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
