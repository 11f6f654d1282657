"""Fit a logistic model of people's votes on secrethitler.io and score it on held-out games.

For every vote a living person cast in a finished game, the features of
``bots.bayes.VOTE_FEATURES`` are computed from that seat's view at that moment by the same code
the ``bayes-human`` bot runs (``BayesAgent.vote_features``; posteriors under ``HUMAN_MODEL``).
Games are split in two halves by a hash of the game id: the model is fitted on the "train" half
only (L2-regularised logistic regression, Newton's method, numpy only) and the agreement
(predict ja when P(ja) >= 0.5) is reported on the "test" half, which the fit never saw.

    .venv/bin/python benchmarks/fit_vote_model.py [--data PATH] [--limit N] [--cache FILE.npz]
    .venv/bin/python benchmarks/fit_vote_model.py --write   # the committed coefficients

It prints the held-out agreement overall and by role next to two baselines (always ja, and the
majority vote of each role in the training half). ``--write`` stores the coefficients (one
weight vector per role of the seat and zone, read by ``bots/bayes.py`` as ``HUMAN_VOTE_COEF``) in
``src/secret_hitler/bots/data/human_vote.json`` with this command, and a small check (the fit
on the first ``CHECK_GAMES`` games) that ``tests/bots/test_fitted.py`` reproduces in seconds.
The posterior features use ``HUMAN_MODEL``, fitted on the train half only
(``fit_human_model.py``): run that first.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path

import numpy as np

from secret_hitler.bots.bayes import VOTE_FEATURES, BayesAgent
from secret_hitler.bots.beliefs import HUMAN_MODEL
from secret_hitler.datasets import SECRETHITLER_IO
from secret_hitler.engine import Action, game_from_record
from secret_hitler.engine import actions as A
from secret_hitler.engine.types import Phase
from secret_hitler.sim.evaluate import game_half, load_records

DATA = SECRETHITLER_IO  # the project's copy, data/secrethitler-io-games.jsonl.gz
OUT = Path(__file__).resolve().parents[1] / "src/secret_hitler/bots/data/human_vote.json"
CHECK_GAMES = 30
NEW_FROM = "own_ja_rate"  # the first feature added for issue 13.4: the ablation starts here
ROLES = ("liberal", "fascist", "hitler")


def extract(records: list[dict]) -> dict[str, np.ndarray]:
    xs, ys, roles, halves, games = [], [], [], [], []
    for gi, record in enumerate(records):
        try:
            game = game_from_record(record, apply_actions=False)
            agents: dict[int, BayesAgent] = {}
            rows = []
            for raw in record.get("actions", []):
                action = Action.from_json(raw)
                if action.type == A.VOTE and game.phase is Phase.VOTE:
                    seat = action.seat
                    agent = agents.get(seat)
                    if agent is None:
                        agent = agents[seat] = BayesAgent(seat, None, HUMAN_MODEL)
                    x = agent.vote_features(game.view(seat))
                    rows.append((x, bool(action.ja), ROLES.index(game.roles[seat].value)))
                game.apply(action)
        except Exception:  # a game the engine refuses: skip it whole
            continue
        for x, y, r in rows:
            xs.append(x)
            ys.append(y)
            roles.append(r)
            halves.append(int(game_half(record, gi) == "test"))
            games.append(gi)
    return {
        "x": np.array(xs),
        "y": np.array(ys, dtype=float),
        "role": np.array(roles),
        "half": np.array(halves),
        "game": np.array(games),
    }


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 30) -> np.ndarray:
    """Maximum a-posteriori logistic regression (Gaussian prior on all but the bias)."""
    w = np.zeros(x.shape[1])
    reg = np.full(x.shape[1], l2)
    reg[0] = 0.0
    for _ in range(iters):
        z = x @ w
        p = 1 / (1 + np.exp(-z))
        grad = x.T @ (p - y) + reg * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(reg) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


GROUPS = 6  # one model per role of the voter (liberal, fascist, Hitler) and zone (before, in)


def groups(x: np.ndarray, role: np.ndarray) -> np.ndarray:
    """The model of each vote: ``2 * role + in the Hitler zone`` (as ``bayes.BayesAgent._vote``)."""
    zone = x[:, VOTE_FEATURES.index("hitler_zone")] > 0.5
    return role * 2 + zone.astype(int)


def by_group(x: np.ndarray, group: np.ndarray, count: int = GROUPS) -> np.ndarray:
    """One copy of the features per group: a separate model each."""
    return np.concatenate([x * (group == g)[:, None] for g in range(count)], axis=1)


def fit_by_group(d: dict[str, np.ndarray], l2: float = 1.0) -> list[list[float]]:
    """The per-(role, zone) coefficients fitted on the train half of extracted features ``d``.
    One per role alone gave 73.8% held out, one per role and zone 74.7% (issue 13.4)."""
    x = by_group(d["x"], groups(d["x"], d["role"]))
    w = fit_logistic(x[d["half"] == 0], d["y"][d["half"] == 0], l2)
    k = len(VOTE_FEATURES)
    return [[round(float(c), 3) for c in w[g * k : (g + 1) * k]] for g in range(GROUPS)]


def agreement(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    return float(((x @ w >= 0) == (y > 0.5)).mean()) if len(y) else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--cache", type=Path, default=None, help="save/load the features here")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--write", action="store_true", help=f"write {OUT.name}")
    args = ap.parse_args()
    t0 = time.time()
    if args.cache is not None and args.cache.exists():
        d = dict(np.load(args.cache))
    else:
        d = extract(load_records(args.data, args.limit))
        if args.cache is not None:
            np.savez(args.cache, **d)
    x, y, role, hv = d["x"], d["y"], d["role"], d["half"]
    assert x.shape[1] == len(VOTE_FEATURES), "features changed: delete the cache"
    shared = fit_logistic(x[hv == 0], y[hv == 0], args.l2)
    print(f"one model for all roles: held-out {agreement(shared, x[hv == 1], y[hv == 1]):.4f}")
    tr, te = hv == 0, hv == 1
    per_role = by_group(x, role, 3)
    w_role = fit_logistic(per_role[tr], y[tr], args.l2)
    print(f"one model per role (not zone): held-out {agreement(w_role, per_role[te], y[te]):.4f}")
    x = by_group(x, groups(x, role))
    tr, te = hv == 0, hv == 1
    print(
        f"{len(y)} votes from {len(np.unique(d['game']))} games "
        f"(train {tr.sum()}, test {te.sum()}), features in {time.time() - t0:.0f}s"
    )
    for l2 in sorted({args.l2, 0.1, 10.0}):
        w = fit_logistic(x[tr], y[tr], l2)
        print(
            f"l2={l2}: train {agreement(w, x[tr], y[tr]):.4f}  test {agreement(w, x[te], y[te]):.4f}"
        )
    w = fit_logistic(x[tr], y[tr], args.l2)
    print(f"held-out agreement (test half): {agreement(w, x[te], y[te]):.4f}")
    print(f"  always ja on the test half: {float(y[te].mean()):.4f}")
    for r, name in enumerate(ROLES):
        m = te & (role == r)
        maj = float(y[tr & (role == r)].mean() >= 0.5)
        base = float((y[m] == maj).mean()) if m.any() else float("nan")
        print(
            f"  {name}: {agreement(w, x[m], y[m]):.4f} (majority of the role {base:.4f}, n={m.sum()})"
        )
    k = len(VOTE_FEATURES)
    tracker = np.rint(d["x"][:, VOTE_FEATURES.index("tracker")] * 2).astype(int)
    zone = d["x"][:, VOTE_FEATURES.index("hitler_zone")] > 0.5
    for t in range(3):
        m = te & (tracker == t)
        print(
            f"  tracker {t}: {agreement(w, x[m], y[m]):.4f} (always ja {y[m].mean():.4f}, n={m.sum()})"
        )
    for z, name in ((False, "before the Hitler zone"), (True, "in the Hitler zone")):
        m = te & (zone == z)
        print(
            f"  {name}: {agreement(w, x[m], y[m]):.4f} (always ja {y[m].mean():.4f}, n={m.sum()})"
        )
    if NEW_FROM in VOTE_FEATURES:
        j = VOTE_FEATURES.index(NEW_FROM)
        old_cols = np.concatenate([np.arange(r * k, r * k + j) for r in range(GROUPS)])
        w_old = fit_logistic(x[tr][:, old_cols], y[tr], args.l2)
        print(
            f"  without the features from {NEW_FROM} on: "
            f"{agreement(w_old, x[te][:, old_cols], y[te]):.4f}"
        )
    cand = te & (
        (x[:, VOTE_FEATURES.index("is_president") :: k].sum(axis=1) > 0)
        | (x[:, VOTE_FEATURES.index("is_chancellor") :: k].sum(axis=1) > 0)
    )
    print(f"  candidates' own votes: {agreement(w, x[cand], y[cand]):.4f} (n={cand.sum()})")
    rest = te & ~cand
    print(f"  other voters: {agreement(w, x[rest], y[rest]):.4f} (n={rest.sum()})")
    coef = fit_by_group(d, args.l2)
    print("coefficients (liberal, fascist, Hitler; each before and in the zone):")
    for row in coef:
        print("  " + ", ".join(f"{c:.3f}" for c in row))
    if not args.write:
        return
    if args.limit is not None or args.data != DATA:
        raise SystemExit("--write fits the project's whole data file: no --limit / --data")
    check = extract(load_records(args.data, CHECK_GAMES))
    out = {
        "command": "python benchmarks/fit_vote_model.py --write"
        + (f" --l2 {args.l2}" if args.l2 != 1.0 else ""),
        "data": {
            "file": "data/secrethitler-io-games.jsonl.gz",
            "sha256": hashlib.sha256(args.data.read_bytes()).hexdigest(),
            "half": "train",
            "votes": int(tr.sum()),
        },
        "l2": args.l2,
        "held_out_agreement": round(agreement(w, x[te], y[te]), 4),
        "features": list(VOTE_FEATURES),
        "coef": coef,
        "check": {"games": CHECK_GAMES, "coef": fit_by_group(check, args.l2)},
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
