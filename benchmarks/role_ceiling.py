"""How far the role deduction of issue 13.3 can go on people's games with richer learners.

``secret-hitler evaluate roles`` scores the posterior of ``HUMAN_MODEL`` (likelihood terms with
fitted weights, ``fit_human_model.py``). This asks whether the 0.20 target is out of reach
because of the model or because of the data (7-player secrethitler.io games, about 450 to fit
on, no chat, usernames or timing). On the same points as ``fit_human_model.py --ablate`` (every
seat that does not know the team, at every nomination; fitted on the train half, scored on the
test half), it compares the fitted posterior with:

1. the same worlds decoded from the per-seat marginals (the world whose fascist party has the
   highest summed log-odds) instead of the most likely world;
2. the conditional logit with 16 per-seat counts read off the public record (``SEAT_FEATURES``)
   as extra features: a world scores sum over its fascist party (and, in a second row, over
   its Hitler too) of weights times those counts;
3. boosted trees (``fit_vote_model.fit_trees``, numpy only) over one row per other seat: the
   posterior's marginals, each term's own marginal, the counts and the stage; decoded as in 1.

It prints log-loss (not for the trees, which give no posterior over worlds) and the team error
of the chosen world, over the game and at the last round, on the test half and the train half.

    .venv/bin/python benchmarks/role_ceiling.py       # about 10 minutes on 2 busy cores
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from fit_human_model import L2, _term_points, fit_counts, fit_weights, train_records
from fit_vote_model import fit_trees, tree_margins

from secret_hitler.bots.base import hand_claims_fit
from secret_hitler.bots.beliefs import TERMS, model_from_json, worlds_matrix
from secret_hitler.datasets import SECRETHITLER_IO
from secret_hitler.engine import View

#: The per-seat counts of the public record (the spectator's view) the richer models read.
SEAT_FEATURES = (
    "fascist policies enacted as chancellor",
    "liberal policies enacted as chancellor",
    "fascist policies enacted as president",
    "liberal policies enacted as president",
    "three fascist policies claimed as president",
    "hand claims that contradict the partner's",
    "(nein - ja) share of the other voters, as chancellor nominee",
    "(nein - ja) share of the other voters, as president",
    "votes against the majority",
    "ja on governments that then enacted a fascist policy",
    "ja on governments that then enacted a liberal policy",
    "nein on governments that then enacted a fascist policy",
    "investigation claims calling the seat fascist",
    "investigation claims calling the seat liberal",
    "investigation claims the seat made calling someone fascist",
    "executed",
)
TREES = {"depth": 3, "trees": 200, "rate": 0.05, "bins": 16, "l2": 1.0, "min_hessian": 5.0}


def seat_counts(view: View) -> np.ndarray:
    """``SEAT_FEATURES`` for every seat, from the public events of ``view``."""
    f = np.zeros((view.players, len(SEAT_FEATURES)))
    gov: tuple[int, int] | None = None
    ballot: list[bool | None] | None = None
    president_claim: tuple[int, int] | None = None  # seat, liberals claimed
    for e in view.events:
        kind = e["type"]
        if kind == "nominated":
            gov = (e["president"], e["chancellor"])
        elif kind == "votes" and gov is not None:
            ballot = e["votes"]
            others = [v for i, v in enumerate(ballot) if i not in gov and v is not None]
            share = (others.count(False) - others.count(True)) / max(1, len(others))
            f[gov[1], 6] += share
            f[gov[0], 7] += share
            for i, v in enumerate(ballot):
                if v is not None and v != e["passed"]:
                    f[i, 8] += 1
        elif kind == "enacted" and not e["chaos"] and gov is not None:
            fascist = e["policy"] == "fascist"
            f[gov[1], 0 if fascist else 1] += 1
            f[gov[0], 2 if fascist else 3] += 1
            for i, v in enumerate(ballot or ()):
                if i in gov or v is None or (not v and not fascist):
                    continue
                f[i, 11 if not v else 9 if fascist else 10] += 1
        elif kind == "claim":
            seat, subject = e["seat"], e["subject"]
            if subject == "president_hand":
                f[seat, 4] += e["policies"].count("fascist") == 3
                president_claim = (seat, e["policies"].count("liberal"))
            elif subject == "chancellor_hand" and president_claim and gov:
                liberals = e["policies"].count("liberal")
                if president_claim[0] == gov[0] and seat == gov[1]:
                    if not hand_claims_fit(president_claim[1], liberals):
                        f[seat, 5] += 1
                        f[gov[0], 5] += 1
            elif subject == "investigation":
                fascist = e["party"] == "fascist"
                f[e["target"], 12 if fascist else 13] += 1
                f[seat, 14] += fascist
        elif kind == "executed":
            f[e["target"], 15] += 1
    return f


WORLDS = worlds_matrix(7, 2)  # every 7-player world: 0 liberal, 1 fascist, 2 Hitler
PARTY = (WORLDS != 0).astype(float)
HITLER = (WORLDS == 2).astype(float)


def with_counts(points: tuple[np.ndarray, ...], hitler: bool) -> np.ndarray:
    """The term features plus, per count, its sum over each world's fascist party (and
    Hitler)."""
    X, counts = points[0], points[6]
    parts = [X, np.einsum("nsk,ws->nkw", counts, PARTY)]
    if hitler:
        parts.append(np.einsum("nsk,ws->nkw", counts, HITLER))
    return np.concatenate(parts, axis=1)


def posterior(X: np.ndarray, mask: np.ndarray, w: np.ndarray) -> np.ndarray:
    s = np.where(mask, np.einsum("nkw,k->nw", np.where(mask[:, None, :], X, 0.0), w), -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def by_marginals(prob: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per point, the allowed world whose fascist party has the highest summed log-odds."""
    p = np.clip(prob, 1e-6, 1 - 1e-6)
    score = np.where(mask, np.log(p / (1 - p)) @ PARTY.T, -np.inf)
    return score.argmax(axis=1)


def scores(points: tuple[np.ndarray, ...], chosen: np.ndarray, p: np.ndarray | None) -> str:
    """Log-loss (with a posterior ``p``) and the team error of the ``chosen`` worlds, over the
    game and at the last round."""
    y, last, party = points[2], points[3], points[4]
    err = ((WORLDS[chosen] != 0) != party).mean(axis=1)
    if p is None:
        ll = "| - | -"
    else:
        nll = -np.log(np.maximum(p[np.arange(len(y)), y], 1e-300))
        ll = f"| {nll.mean():.3f} | {nll[last].mean():.3f}"
    return f"{ll} | {err.mean():.3f} | {err[last].mean():.3f}"


def seat_rows(points: tuple[np.ndarray, ...], w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One row per point and seat for the trees: the posterior's fascist-party and Hitler
    marginals, each term's own fascist-party marginal, the counts, the number of policies on
    the board and whether the viewer is Hitler; and a mask of the rows of other seats."""
    X, mask, _, _, party, seat, counts = points
    n = len(X)
    p = posterior(X, mask, w)
    cols = [(p @ PARTY)[:, :, None], (p @ HITLER)[:, :, None]]
    for k in range(X.shape[1]):
        alone = np.zeros(X.shape[1])
        alone[k] = 1.0
        cols.append((posterior(X, mask, alone) @ PARTY)[:, :, None])
    policies = counts[:, :, :4].sum(axis=(1, 2)) / 2  # each enactment counted twice
    cols += [counts, np.repeat(policies[:, None, None], 7, axis=1)]
    viewer_hitler = (p @ HITLER)[np.arange(n), seat] > 0.5
    cols.append(np.repeat(viewer_hitler[:, None, None].astype(float), 7, axis=1))
    rows = np.concatenate(cols, axis=2)
    other = np.ones((n, 7), dtype=bool)
    other[np.arange(n), seat] = False
    return rows, other


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.parse_args()
    t0 = time.time()
    train, test = train_records(SECRETHITLER_IO), train_records(SECRETHITLER_IO, half="test")
    model = model_from_json(fit_counts(train))
    tr, te = (_term_points(r, model, seat_counts) for r in (train, test))
    print(f"{len(tr[2])} train points, {len(te[2])} test points ({time.time() - t0:.0f}s)")
    print("| model | half | log-loss, game | last round | team error, game | last round |")
    print("|---|---|---|---|---|---|")
    base = np.array(fit_weights(*tr[:3]))
    for name, pts in (("test", te), ("train", tr)):
        p = posterior(pts[0], pts[1], base)
        print(f"| fitted terms, most likely world | {name} {scores(pts, p.argmax(axis=1), p)} |")
        marg = by_marginals(p @ PARTY, pts[1])
        print(f"| fitted terms, world from the marginals | {name} {scores(pts, marg, p)} |")
    for hitler in (False, True):
        Xtr, Xte = with_counts(tr, hitler), with_counts(te, hitler)
        prior = np.r_[np.ones(len(TERMS)), np.zeros(Xtr.shape[1] - len(TERMS))]
        w = np.array(fit_weights(Xtr, tr[1], tr[2], prior=prior))
        label = "terms + per-seat counts" + (" (party and Hitler)" if hitler else "")
        for name, pts, X in (("test", te, Xte), ("train", tr, Xtr)):
            p = posterior(X, pts[1], w)
            print(f"| {label} | {name} {scores(pts, p.argmax(axis=1), p)} |", flush=True)
    rows_tr, other_tr = seat_rows(tr, base)
    rows_te, other_te = seat_rows(te, base)
    for depth in (3, 6):
        cfg = {**TREES, "depth": depth}
        trees = fit_trees(rows_tr[other_tr], tr[4][other_tr].astype(float), cfg)
        for name, pts, rows in (("test", te, rows_te), ("train", tr, rows_tr)):
            margin = tree_margins(trees, rows.reshape(-1, rows.shape[2])).reshape(-1, 7)
            chosen = by_marginals(1 / (1 + np.exp(-margin)), pts[1])
            label = f"boosted trees per seat, depth {depth}, {cfg['trees']} trees"
            print(f"| {label} | {name} {scores(pts, chosen, None)} |", flush=True)
    print(f"({time.time() - t0:.0f}s; L2 {L2} per point towards the plain likelihood)")


if __name__ == "__main__":
    main()
