"""Fit models of people's votes on secrethitler.io and score them on held-out games.

For every vote a living person cast in a finished game, the features of
``bots.bayes.VOTE_FEATURES`` are computed from that seat's view at that moment by the same code
the ``bayes-human`` bot runs (``BayesAgent.vote_features``; posteriors under ``HUMAN_MODEL``).
Games are split in two halves by a hash of the game id: the models are fitted on the "train"
half only and the agreement (predict ja when P(ja) >= 0.5) is reported on the "test" half, which
the fits never saw. Two models, numpy only: boosted regression trees (``fit_trees``, the model
``bayes-human`` votes with) and, for comparison, L2-regularised logistic regressions (Newton's
method), one per role of the voter, zone and election tracker.

    .venv/bin/python benchmarks/fit_vote_model.py [--data PATH] [--limit N] [--cache FILE.npz]
        [--l2 1.0] [--reverse]
    .venv/bin/python benchmarks/fit_vote_model.py --write   # the committed trees

It prints the held-out agreement of both overall and by role, tracker and zone next to two
baselines (always ja, and the majority vote of each role in the training half), the logistic
ablations (fewer models, fewer features), a bootstrap interval over held-out games and, with
``--reverse``, the trees fitted on the test half and scored on the train half. ``--write``
stores the trees (read by ``bots/bayes.py`` as ``human_vote_trees()``) in
``src/secret_hitler/bots/data/human_vote.json`` with this command, and a small check (the trees
fitted on the first ``CHECK_GAMES`` games) that ``tests/bots/test_fitted.py`` reproduces in
seconds. The posterior features use ``HUMAN_MODEL``, fitted on the train half only
(``fit_human_model.py``): run that first.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from secret_hitler.bots.bayes import VOTE_FEATURES, BayesAgent
from secret_hitler.bots.beliefs import HUMAN_MODEL
from secret_hitler.datasets import SECRETHITLER_IO
from secret_hitler.engine import Action, game_from_record
from secret_hitler.engine import actions as A
from secret_hitler.engine.types import Phase
from secret_hitler.sim.evaluate import game_half, load_records

DATA = SECRETHITLER_IO  # the project's copy, src/secret_hitler/data/secrethitler-io-games.jsonl.gz
OUT = Path(__file__).resolve().parents[1] / "src/secret_hitler/bots/data/human_vote.json"
CHECK_GAMES = 30
# The first feature of each round added for issue 13.4: the ablations drop from there on.
ABLATIONS = ("own_ja_rate", "president_liberal_govs")
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


GROUPS = 18  # one model per role of the voter, zone (before, in) and election tracker (0-2)


def groups(x: np.ndarray, role: np.ndarray) -> np.ndarray:
    """The model of each vote: ``(2 * role + in the Hitler zone) * 3 + tracker`` (as
    ``bayes.BayesAgent._vote``). Per tracker: people vote very differently at 1 and 2 (issue
    13.4: +0.9 points held out over role and zone alone)."""
    zone = x[:, VOTE_FEATURES.index("hitler_zone")] > 0.5
    tracker = np.rint(x[:, VOTE_FEATURES.index("tracker")] * 2).astype(int)
    return (role * 2 + zone.astype(int)) * 3 + tracker


def fit_groups(
    x: np.ndarray, y: np.ndarray, group: np.ndarray, count: int, l2: float = 1.0
) -> np.ndarray:
    """One logistic model per group (``count`` rows of coefficients), each fitted on its own
    votes: the same fit as one model on group-masked copies of the features, ``count`` times
    cheaper. A group with no votes keeps the prior (all zero)."""
    return np.array([fit_logistic(x[group == g], y[group == g], l2) for g in range(count)])


def fit_by_group(d: dict[str, np.ndarray], l2: float = 1.0) -> list[list[float]]:
    """The per-(role, zone, tracker) coefficients fitted on the train half of features ``d``.
    One per role alone gave 73.8% held out, per role and zone 74.7%, per role, zone and
    tracker (with the second round of features) 79.x% (issue 13.4, docs/bots.md)."""
    tr = d["half"] == 0
    w = fit_groups(d["x"][tr], d["y"][tr], groups(d["x"][tr], d["role"][tr]), GROUPS, l2)
    return [[round(float(c), 3) for c in row] for row in w]


# Boosted trees (the model bayes-human votes with): depth, number, learning rate, candidate
# thresholds per feature (quantiles of the train half), L2 on leaves, least hessian per side.
# Depth, rate and number are what ``--tune`` chooses (2-fold cross-validation on the train half:
# 80.14% there; depth 4 at rate 0.1, the settings before, at most 80.09%, at 600 trees).
TREES = {"depth": 5, "trees": 200, "rate": 0.1, "bins": 16, "l2": 1.0, "min_hessian": 5.0}
ALWAYS_LEFT = 1e9  # the threshold of a node that does not split (no feature reaches it)


def tree_margins(model: dict, x: np.ndarray) -> np.ndarray:
    """log-odds of ja for each row of ``x`` (as ``bayes.VoteTrees.margin`` for one row)."""
    out = np.full(len(x), float(model["base"]))
    for margins in staged_margins(model, x):
        out = margins
    return out


def staged_margins(model: dict, x: np.ndarray) -> Iterator[np.ndarray]:
    """The log-odds of ja of each row of ``x`` after each tree in turn (one array, updated)."""
    feature, threshold = np.array(model["feature"]), np.array(model["threshold"])
    leaf, depth = np.array(model["leaf"]), model["depth"]
    rows = np.arange(len(x))
    out = np.full(len(x), float(model["base"]))
    for t in range(len(feature)):
        node = np.zeros(len(x), dtype=np.intp)
        for _ in range(depth):
            node = 2 * node + 1 + (x[rows, feature[t][node]] >= threshold[t][node])
        out += leaf[t][node - (2**depth - 1)]
        yield out


def fit_trees(x: np.ndarray, y: np.ndarray, settings: dict | None = None) -> dict:
    """Gradient-boosted regression trees on the log-loss (second-order steps, histogram splits),
    complete trees of ``settings["depth"]`` (default ``TREES``) stored as arrays: a node that
    does not split sends every vote left. Deterministic: the same votes give the same trees."""
    cfg = TREES if settings is None else settings
    depth, rate, lam = cfg["depth"], cfg["rate"], cfg["l2"]
    edges = []
    bins = np.zeros(x.shape, dtype=np.intp)
    for j in range(x.shape[1]):
        values = np.unique(x[:, j])
        if len(values) <= cfg["bins"]:
            e = (values[:-1] + values[1:]) / 2
        else:
            qs = np.linspace(0, 1, cfg["bins"] + 1)[1:-1]
            e = np.unique(np.quantile(x[:, j], qs))
        edges.append(e)
        bins[:, j] = np.searchsorted(e, x[:, j], side="right")  # bin <= k  <=>  x < e[k]
    width = max(len(e) for e in edges) + 1
    offsets = np.arange(x.shape[1]) * width
    valid = np.zeros((x.shape[1], width - 1), dtype=bool)  # the thresholds that exist
    for j, e in enumerate(edges):
        valid[j, : len(e)] = True
    mean = float(np.clip(y.mean(), 1e-6, 1 - 1e-6)) if len(y) else 0.5
    base = round(float(np.log(mean / (1 - mean))), 6)
    margin = np.full(len(y), base)
    internal, leaves = 2**depth - 1, 2**depth
    model: dict = {"depth": depth, "base": base, "feature": [], "threshold": [], "leaf": []}
    for _ in range(cfg["trees"]):
        p = 1 / (1 + np.exp(-margin))
        g, h = p - y, p * (1 - p)
        feature = [0] * internal
        threshold = [ALWAYS_LEFT] * internal
        leaf = [0.0] * leaves
        stack = [(0, np.arange(len(y)))]
        while stack:
            node, idx = stack.pop()
            if node >= internal:  # a leaf
                value = -g[idx].sum() / (h[idx].sum() + lam) if len(idx) else 0.0
                leaf[node - internal] = round(float(rate * value), 6)
                continue
            gsum, hsum = g[idx].sum(), h[idx].sum()
            flat = (bins[idx] + offsets).ravel()  # every feature's histogram in one count
            size = width * x.shape[1]
            gl = np.bincount(flat, np.repeat(g[idx], x.shape[1]), size).reshape(-1, width)
            hl = np.bincount(flat, np.repeat(h[idx], x.shape[1]), size).reshape(-1, width)
            gl, hl = gl.cumsum(axis=1)[:, :-1], hl.cumsum(axis=1)[:, :-1]
            gain = gl**2 / (hl + lam) + (gsum - gl) ** 2 / (hsum - hl + lam)
            gain -= gsum**2 / (hsum + lam)
            ok = valid & (hl >= cfg["min_hessian"]) & (hsum - hl >= cfg["min_hessian"])
            gain = np.where(ok, gain, -np.inf)
            top = float(gain.max())
            if top > 0:
                # Exact ties (two thresholds that split this node's votes the same way) are
                # common, and floating-point noise, which differs between CPUs' vector
                # kernels (np.exp), must not choose among them: the first candidate within a
                # relative 1e-9 of the best wins, so the fit is the same on every machine.
                j, k = np.unravel_index(int(np.argmax(gain >= top * (1 - 1e-9))), gain.shape)
                best = (float(gain[j, k]), int(j), int(k))
            else:
                best = (0.0, -1, -1)
            if best[1] < 0:  # no split helps: everything goes left
                stack += [(2 * node + 1, idx), (2 * node + 2, idx[:0])]
                continue
            _, j, k = best
            feature[node], threshold[node] = j, float(edges[j][k])
            right = x[idx, j] >= threshold[node]
            stack += [(2 * node + 1, idx[~right]), (2 * node + 2, idx[right])]
        model["feature"].append(feature)
        model["threshold"].append(threshold)
        model["leaf"].append(leaf)
        one = {**model, "base": 0.0, "feature": [feature], "threshold": [threshold], "leaf": [leaf]}
        margin += tree_margins(one, x)
    return model


#: The settings ``--tune`` compares: depth and learning rate, each up to this many trees
#: (scored every 50 trees).
TUNE_GRID = {
    (depth, rate): (1000 if rate < 0.1 else 600) for depth in (3, 4, 5, 6) for rate in (0.05, 0.1)
}


def tune(d: dict[str, np.ndarray]) -> tuple[int, float, int]:
    """The trees' depth, learning rate and number chosen by 2-fold cross-validation on the train
    half alone (its games ranked by index, alternate games in each fold): the test half plays no
    part in the choice, so its agreement stays an honest estimate. Prints every setting."""
    x, y, tr = d["x"], d["y"], d["half"] == 0
    games = np.unique(d["game"][tr])
    second = np.isin(d["game"], games[1::2])
    scores: dict[tuple[int, float, int], float] = {}
    for (depth, rate), most in TUNE_GRID.items():
        hits = np.zeros(most // 50 + 1)
        for fit_on in (tr & ~second, tr & second):
            scored = tr & ~fit_on
            model = fit_trees(
                x[fit_on], y[fit_on], {**TREES, "depth": depth, "rate": rate, "trees": most}
            )
            for t, m in enumerate(staged_margins(model, x[scored]), 1):
                if t % 50 == 0:
                    hits[t // 50] += int(((m >= 0) == (y[scored] > 0.5)).sum())
        for k in range(1, len(hits)):
            scores[(depth, rate, 50 * k)] = float(hits[k] / tr.sum())
        top = max((s, -t) for (dd, rr, t), s in scores.items() if (dd, rr) == (depth, rate))
        print(f"  depth {depth}, rate {rate}: best {top[0]:.4f} at {-top[1]} trees", flush=True)
    best = max(scores, key=lambda key: (scores[key], -key[2]))
    print(
        f"chosen by 2-fold cross-validation on the train half: depth {best[0]}, rate {best[1]}, "
        f"{best[2]} trees ({scores[best]:.4f})"
    )
    return best


def agreement(w: np.ndarray, x: np.ndarray, y: np.ndarray, group: np.ndarray) -> float:
    """Share of votes where the group's model (ja when P(ja) >= 0.5) matches the person."""
    if not len(y):
        return float("nan")
    return float((((x * w[group]).sum(axis=1) >= 0) == (y > 0.5)).mean())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--cache", type=Path, default=None, help="save/load the features here")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--write", action="store_true", help=f"write {OUT.name}")
    ap.add_argument("--reverse", action="store_true", help="also fit on test, score on train")
    ap.add_argument("--tune", action="store_true", help="only choose TREES by 2-fold CV on train")
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
    if args.tune:
        tune(d)
        return
    tr, te = hv == 0, hv == 1
    g = groups(x, role)
    zone = x[:, VOTE_FEATURES.index("hitler_zone")] > 0.5
    tracker = np.rint(x[:, VOTE_FEATURES.index("tracker")] * 2).astype(int)
    print(
        f"{len(y)} votes from {len(np.unique(d['game']))} games "
        f"(train {tr.sum()}, test {te.sum()}), features in {time.time() - t0:.0f}s"
    )

    def held_out(cols: np.ndarray, group: np.ndarray, count: int, l2: float = args.l2) -> float:
        w = fit_groups(x[tr][:, cols], y[tr], group[tr], count, l2)
        return agreement(w, x[te][:, cols], y[te], group[te])

    every = np.arange(len(VOTE_FEATURES))
    print(f"one model for all roles: held-out {held_out(every, np.zeros_like(g), 1):.4f}")
    print(f"one model per role: held-out {held_out(every, role, 3):.4f}")
    print(f"per role and zone (not tracker): held-out {held_out(every, role * 2 + zone, 6):.4f}")
    for first in ABLATIONS:
        cols = np.arange(VOTE_FEATURES.index(first))
        print(f"  without the features from {first} on: {held_out(cols, g, GROUPS):.4f}")
    for l2 in sorted({args.l2, 0.1, 10.0}):
        w = fit_groups(x[tr], y[tr], g[tr], GROUPS, l2)
        print(
            f"l2={l2}: train {agreement(w, x[tr], y[tr], g[tr]):.4f}  "
            f"test {agreement(w, x[te], y[te], g[te]):.4f}"
        )
    w = fit_groups(x[tr], y[tr], g[tr], GROUPS, args.l2)
    logistic = (x * w[g]).sum(axis=1)
    t1 = time.time()
    trees = fit_trees(x[tr], y[tr])
    boosted = tree_margins(trees, x)
    print(
        f"boosted trees ({TREES['trees']} of depth {TREES['depth']}, {time.time() - t1:.0f}s): "
        f"train {float(((boosted[tr] >= 0) == (y[tr] > 0.5)).mean()):.4f}"
    )
    cand = (x[:, VOTE_FEATURES.index("is_president")] > 0) | (
        x[:, VOTE_FEATURES.index("is_chancellor")] > 0
    )

    def rate(margin: np.ndarray, m: np.ndarray) -> str:
        return f"{float(((margin[m] >= 0) == (y[m] > 0.5)).mean()):.4f}"

    def report(label: str, m: np.ndarray, base: str) -> None:
        print(
            f"  {label}: trees {rate(boosted, m)}  logistic {rate(logistic, m)}  "
            f"({base}, n={m.sum()})"
        )

    print("held-out agreement (test half), the trees (bayes-human) and the 18 logistic models:")
    report("all", te, f"always ja {float(y[te].mean()):.4f}")
    for r, name in enumerate(ROLES):
        m = te & (role == r)
        maj = float(y[tr & (role == r)].mean() >= 0.5)
        report(name, m, f"majority of the role {float((y[m] == maj).mean()):.4f}")
    for t in range(3):
        m = te & (tracker == t)
        report(f"tracker {t}", m, f"always ja {y[m].mean():.4f}")
    for z, name in ((False, "before the Hitler zone"), (True, "in the Hitler zone")):
        m = te & (zone == z)
        report(name, m, f"always ja {y[m].mean():.4f}")
    report("candidates' own votes", te & cand, f"always ja {y[te & cand].mean():.4f}")
    report("other voters", te & ~cand, f"always ja {y[te & ~cand].mean():.4f}")
    low, high, below = bootstrap_by_game((boosted >= 0) == (y > 0.5), d["game"], te)
    print(f"trees, bootstrap over held-out games: 95% {low:.4f}-{high:.4f}, below 0.80 {below:.2f}")
    if args.reverse:
        other = tree_margins(fit_trees(x[te], y[te]), x)
        print(f"trees fitted on the test half, scored on the train half: {rate(other, tr)}")
    if not args.write:
        return
    if args.limit is not None or args.data != DATA:
        raise SystemExit("--write fits the project's whole data file: no --limit / --data")
    check = extract(load_records(args.data, CHECK_GAMES))
    out = {
        "command": "python benchmarks/fit_vote_model.py --write",
        "data": {
            "file": "src/secret_hitler/data/secrethitler-io-games.jsonl.gz",
            "sha256": hashlib.sha256(args.data.read_bytes()).hexdigest(),
            "half": "train",
            "votes": int(tr.sum()),
        },
        "settings": TREES,
        "held_out_agreement": float(rate(boosted, te)),
        "logistic_held_out_agreement": float(rate(logistic, te)),
        "features": list(VOTE_FEATURES),
        "trees": trees,
        "check": {"games": CHECK_GAMES, "trees": check_trees(check)},
    }
    OUT.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


def bootstrap_by_game(
    hit: np.ndarray, game: np.ndarray, mask: np.ndarray, draws: int = 2000
) -> tuple[float, float, float]:
    """95% interval of the agreement over games resampled with replacement (votes of one game
    are not independent), and the share of resamples below 80%. Seeded: reproducible."""
    ids, inverse = np.unique(game[mask], return_inverse=True)
    hits = np.bincount(inverse, hit[mask].astype(float), len(ids))
    votes = np.bincount(inverse, None, len(ids))
    pick = np.random.default_rng(0).integers(0, len(ids), (draws, len(ids)))
    rates = hits[pick].sum(axis=1) / votes[pick].sum(axis=1)
    low, high = np.percentile(rates, [2.5, 97.5])
    return float(low), float(high), float((rates < 0.8).mean())


def check_trees(d: dict[str, np.ndarray]) -> dict:
    """The trees fitted on the train half of ``d`` (the small check ``test_fitted`` reruns)."""
    tr = d["half"] == 0
    return fit_trees(d["x"][tr], d["y"][tr])


if __name__ == "__main__":
    main()
