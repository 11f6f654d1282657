"""Fit ``beliefs.HUMAN_MODEL`` (the behaviour model of ``bayes-human``) to people's games.

Reads the 7-player secrethitler.io games of the *train* half of the fixed split
(``sim.evaluate.game_half``; the test half is what ``secret-hitler evaluate roles`` reports) and
fits in two steps, both by maximum likelihood on that half only:

1. behaviour frequencies by true role (counting): everything ``fit_bot_model.measure`` / ``fit``
   count for the bots, plus what people do that the bots' model leaves out (``measure_people``):
   the nominations, executions and investigation targets of *every* president role (people's
   liberals pick on hunches), and the candidates' votes on their own government;
2. one weight per likelihood term (``beliefs.TERMS``: votes, sessions, nominations, ...): the
   posterior is a conditional logit over worlds whose features are the terms' log-likelihoods,
   so the weights maximising log P(true world) over every seat and nomination of the half are
   found by Newton's method (convex). They replace the single ``temper``: correlated evidence
   (votes read off the same record) gets a weight below 1, independent evidence keeps ~1.

It writes the model with this command and the data's SHA-256 to
``src/secret_hitler/bots/data/human_model.json`` (read by ``beliefs.py``), with the weights
refitted on the first ``CHECK_GAMES`` training games for the test to rerun.

    .venv/bin/python benchmarks/fit_human_model.py                 # refit and write
    .venv/bin/python benchmarks/fit_human_model.py --check         # refit, compare, write nothing
    .venv/bin/python benchmarks/fit_human_model.py --ablate        # each term on the test half

``tests/bots/test_fitted.py`` reruns the counting on the committed data and the weight fit on
the first games, and compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fit_bot_model import fit, measure  # noqa: E402

from secret_hitler.bots.beliefs import TERMS, Beliefs, Model, model_from_json  # noqa: E402
from secret_hitler.datasets import SECRETHITLER_IO  # noqa: E402
from secret_hitler.engine import Game, View, game_from_record  # noqa: E402
from secret_hitler.engine import actions as A  # noqa: E402
from secret_hitler.sim.people_games import game_half, load_records, replay  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "src/secret_hitler/bots/data/human_model.json"
ROLE = {"liberal": 0, "fascist": 1, "hitler": 2}
CHECK_GAMES = 30  # the weight fit the test reruns (the full one replays ~450 games)
L2 = 1e-3  # a weak pull of every weight towards 1 (the plain likelihood), per point


def train_records(
    path: Path = SECRETHITLER_IO, players: int = 7, half: str = "train"
) -> list[dict[str, Any]]:
    """The fitting half: 7-player games whose id hashes to ``train`` (``half``: or ``test``)."""
    records = load_records(path)
    return [
        r
        for i, r in enumerate(records)
        if game_half(r, i) == half and len(r.get("roles") or ()) == players
    ]


def _choice_weights(obs: np.ndarray, exp: np.ndarray) -> list[float]:
    """Weights by target role, relative to liberal, from observed and uniform-expected picks
    (add-one smoothed, floored at 0.03 and capped at 6)."""
    w = (obs + 1) / (exp + 1)
    return [round(float(min(max(x / w[0], 0.03), 6.0)), 3) for x in w]


def measure_people(games: list[Game]) -> dict[str, Any]:
    """Counts of what people do that ``fit_bot_model.measure`` leaves out, by true role:
    nominations (by zone), executions and investigations by every president role, and the
    candidates' votes on their own government (by phase, office, own and partner role)."""
    nom = defaultdict(lambda: np.zeros((2, 3)))  # (zone, president role) -> obs, exp
    exe = defaultdict(lambda: np.zeros((2, 3)))
    inv = defaultdict(lambda: np.zeros((2, 3)))
    cand: dict[tuple[int, int, int, int], list[int]] = defaultdict(lambda: [0, 0])
    for game in games:
        roles = [ROLE[r.value] for r in game.roles]
        n = len(roles)
        alive = [True] * n
        lib = fas = 0
        elig: list[int] = []
        nominee: tuple[int, int] | None = None

        def pick(table: Any, key: Any, t: int, cands: list[int], roles: list[int] = roles) -> None:
            if t in cands and len(cands) >= 2:
                table[key][0, roles[t]] += 1
                for s in cands:
                    table[key][1, roles[s]] += 1 / len(cands)

        for ev in game.events:
            t, d = ev.type, ev.data
            if t == "candidate":
                elig = list(d["eligible"])
            elif t == "nominated":
                p, c = d["president"], d["chancellor"]
                nominee = (p, c)
                pick(nom, (int(fas >= 3), roles[p]), c, elig)
            elif t == "votes" and nominee is not None:
                p, c = nominee
                phase = 2 if lib >= 4 else int(fas >= 3)
                for office, (v, partner) in enumerate(((p, c), (c, p))):
                    ja = d["votes"][v]
                    if ja is not None:
                        row = cand[(phase, office, roles[v], roles[partner])]
                        row[0] += bool(ja)
                        row[1] += 1
            elif t == "enacted":
                lib, fas = d["liberal_policies"], d["fascist_policies"]
            elif t in ("executed", "investigated"):
                p, tg = d["president"], d["target"]
                cands = [s for s in range(n) if alive[s] and s != p]
                pick(exe if t == "executed" else inv, roles[p], tg, cands)
                if t == "executed":
                    alive[tg] = False
    return {"nom": nom, "exe": exe, "inv": inv, "cand": cand}


def fit_people(m: dict[str, Any]) -> dict[str, Any]:
    """``Model`` keyword arguments for the people-only terms from ``measure_people`` counts."""
    out: dict[str, Any] = {}
    out["nominate_by_role"] = [
        [_choice_weights(*m["nom"][(zone, rp)]) for rp in range(3)] for zone in range(2)
    ]
    out["execute_by_role"] = [_choice_weights(*m["exe"][rp]) for rp in range(3)]
    out["investigate_by_role"] = [_choice_weights(*m["inv"][rp]) for rp in range(3)]
    table = []
    for phase in range(3):
        offices = []
        for office in range(2):
            own_rows = []
            for own in range(3):
                ja_all = sum(m["cand"][(phase, office, own, q)][0] for q in range(3))
                n_all = sum(m["cand"][(phase, office, own, q)][1] for q in range(3))
                base = (ja_all + 1) / (n_all + 2)
                cells = []
                for partner in range(3):
                    ja, k = m["cand"][(phase, office, own, partner)]
                    x = (ja + 10 * base) / (k + 10)  # shrunk towards the role's rate
                    cells.append(round(min(max(x, 0.03), 0.97), 3))
                own_rows.append(cells)
            offices.append(own_rows)
        table.append(offices)
    out["candidate_vote"] = table
    return out


def liberal_claim_error(claims: list[tuple[str, int, int, int, int]]) -> float:
    """``Model.eps_claim`` by maximum likelihood (a grid of 0.005) on liberals' hand claims:
    the truth with 1 - eps, else any count uniformly."""
    rows = [(c == t, 4 if office == "pres" else 3) for office, role, c, t, _ in claims if role == 0]
    grid = np.arange(0.005, 0.5, 0.005)
    ll = [sum(np.log((1 - e) * hit + e / size) for hit, size in rows) for e in grid]
    return round(float(grid[int(np.argmax(ll))]), 3)


def fit_counts(records: list[dict[str, Any]]) -> dict[str, Any]:
    """``Model`` keyword arguments from the behaviour counts of ``records`` (deterministic)."""
    games = [game_from_record(r) for r in records]
    counts = measure(games)
    kwargs = fit(counts)
    kwargs["eps_claim"] = liberal_claim_error(counts["claims"])
    kwargs["liberal_votes"] = True
    kwargs.update(fit_people(measure_people(games)))
    return json.loads(json.dumps(kwargs))


class TermBeliefs(Beliefs):
    """Beliefs that keep each term's log-likelihood apart (unweighted) instead of summing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.parts = np.zeros((len(TERMS), self.W))

    def _add(self, loglik: np.ndarray, term: str) -> None:
        self.parts[TERMS.index(term)] += loglik

    # The memo's terms come tempered; this model has no weights and temper 1: the same terms.
    _add_tempered = _add

    def features(self) -> np.ndarray:
        out = self.parts.copy()
        if self.session is not None:
            out[TERMS.index("session")] += self._open_session_loglik(self.session)
        return out


def term_points(records: list[dict[str, Any]], model: Model) -> tuple[np.ndarray, ...]:
    """For every nomination of every game and every seat scored by ``evaluate roles`` (those
    that do not know the team): the terms' log-likelihoods per world, the worlds hard evidence
    allows, and the true world's index."""
    return _term_points(records, model)[:3]


def _term_points(
    records: list[dict[str, Any]],
    model: Model,
    public: Callable[[View], np.ndarray] | None = None,
) -> tuple[np.ndarray, ...]:
    """``term_points`` and, per point, whether it is the game's last nomination and which
    seats are of the fascist party (for the team error of ``--ablate``); with ``public``, also
    the viewing seat and ``public`` of the spectator's view at that nomination (the same for
    every seat: ``benchmarks/role_ceiling.py``)."""
    model = replace(model, weights=None, temper=1.0)
    xs, masks, ys, parties, seats, extra = [], [], [], [], [], []
    noms: list[int] = []  # the point's nomination in its game
    final: list[int] = []  # its game's last nomination
    for record in records:
        beliefs: dict[int, TermBeliefs] = {}
        truth = None
        first = len(ys)
        nomination = 0
        for game, action in replay(record):
            if action.type != A.NOMINATE:
                continue
            if truth is None:
                truth = np.array([ROLE[r.value] for r in game.roles])
            shared = None if public is None else public(game.view(None))
            for seat in range(game.n):
                view = game.view(seat)
                b = beliefs.get(seat)
                if b is None:
                    b = beliefs[seat] = TermBeliefs.for_view(view, model=model)
                b.update(view)
                if b.possible() <= 1:
                    continue  # this seat knows the whole team: nothing to learn from it
                xs.append(b.features())
                masks.append(np.isfinite(b.logw))
                ys.append(int(np.nonzero((truth == b.R).all(axis=1))[0][0]))
                noms.append(nomination)
                parties.append(truth != 0)
                seats.append(seat)
                extra.append(shared)
            nomination += 1
        final.extend([nomination - 1] * (len(ys) - first))
    last = np.array(noms) == np.array(final)
    points = np.stack(xs), np.stack(masks), np.array(ys), last, np.stack(parties)
    return points if public is None else (*points, np.array(seats), np.stack(extra))


def fit_weights(
    X: np.ndarray,
    mask: np.ndarray,
    y: np.ndarray,
    start: np.ndarray | None = None,
    prior: np.ndarray | None = None,
) -> list[float]:
    """Term weights maximising sum log P(true world) (conditional logit: Newton's method with
    step halving, from ``start``, by default ``prior``), with a weak pull towards ``prior``
    (by default every weight 1: the plain likelihood)."""
    N, K, _ = X.shape
    X = np.where(mask[:, None, :], X, 0.0)
    rows = np.arange(N)
    centre = np.ones(K) if prior is None else np.asarray(prior, dtype=float)

    def objective(w: np.ndarray) -> float:
        s = np.where(mask, np.einsum("nkw,k->nw", X, w), -np.inf)
        top = s.max(axis=1, keepdims=True)
        lse = top[:, 0] + np.log(np.exp(s - top).sum(axis=1))
        return float((lse - s[rows, y]).sum() + 0.5 * L2 * N * ((w - centre) ** 2).sum())

    w = centre.copy() if start is None else np.array(start, dtype=float)
    current = objective(w)
    for _ in range(100):
        s = np.where(mask, np.einsum("nkw,k->nw", X, w), -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("nkw,nw->nk", X, p)
        grad = -(X[rows, :, y] - mean).sum(axis=0) + L2 * N * (w - centre)
        D = X - mean[:, :, None]
        hess = np.einsum("nkw,nlw,nw->kl", D, D, p) + L2 * N * np.eye(K)
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-4 and objective(w - t * step) > current:
            t /= 2
        w = w - t * step
        new = objective(w)
        if current - new < 1e-9 * N:
            break
        current = new
    return [round(float(x), 3) for x in w]


def log_loss(X: np.ndarray, mask: np.ndarray, y: np.ndarray, w: list[float]) -> float:
    """Mean -log P(true world) with term weights ``w``."""
    s = np.where(mask, np.einsum("nkw,k->nw", np.where(mask[:, None, :], X, 0.0), w), -np.inf)
    top = s.max(axis=1, keepdims=True)
    lse = top[:, 0] + np.log(np.exp(s - top).sum(axis=1))
    return float(np.mean(lse - s[np.arange(len(y)), y]))


def fit_term_weights(records: list[dict[str, Any]], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The fitted weights and the log-loss with them, with one weight 0.6 (the earlier temper)
    and with the plain likelihood, on ``records``."""
    X, mask, y = term_points(records, model_from_json(kwargs))
    w = fit_weights(X, mask, y)
    return {
        "weights": dict(zip(TERMS, w, strict=True)),
        "log_loss": {
            "fitted": round(log_loss(X, mask, y, w), 4),
            "temper 0.6": round(log_loss(X, mask, y, [0.6] * len(TERMS)), 4),
            "plain": round(log_loss(X, mask, y, [1.0] * len(TERMS)), 4),
        },
        "points": int(len(y)),
    }


def _scores(points: tuple[np.ndarray, ...], w: list[float], worlds: np.ndarray) -> list[float]:
    """Log-loss and team error of the MAP world (viewer included), over the game and at the
    last round, of points from ``_term_points`` under term weights ``w``."""
    X, mask, y, last, party = points
    s = np.where(mask, np.einsum("nkw,k->nw", np.where(mask[:, None, :], X, 0.0), w), -np.inf)
    top = s.max(axis=1, keepdims=True)
    ll = top[:, 0] + np.log(np.exp(s - top).sum(axis=1)) - s[np.arange(len(y)), y]
    err = ((worlds[s.argmax(axis=1)] != 0) != party).mean(axis=1)
    return [float(ll.mean()), float(ll[last].mean()), float(err.mean()), float(err[last].mean())]


def ablate(path: Path) -> None:
    """Each term's effect on the held-out half: weights refitted on the train half without it
    (or the model changed), scored on the test half."""
    from secret_hitler.bots.beliefs import worlds_matrix

    train, test = train_records(path), train_records(path, half="test")
    model = model_from_json(fit_counts(train))
    worlds = worlds_matrix(7, 2)
    variants = [
        ("all terms", model),
        ("eps_claim 0.03 (the bots' value)", replace(model, eps_claim=0.03)),
        (
            "choices by an informed fascist only (as before)",
            replace(model, nominate_by_role=None, execute_by_role=None, investigate_by_role=None),
        ),
    ]
    print("| change | log-loss, game | last round | team error, game | last round |")
    print("|---|---|---|---|---|")
    for name, m in variants:
        tr, te = _term_points(train, m), _term_points(test, m)
        rows = [(name, fit_weights(*tr[:3]))]
        if name == "all terms":
            rows.append(("one temper 0.6 instead of the fitted weights", [0.6] * len(TERMS)))
            for k, term in enumerate(TERMS):
                keep = [j for j in range(len(TERMS)) if j != k]
                sub = fit_weights(tr[0][:, keep], tr[1], tr[2])
                rows.append((f"without `{term}`", [*sub[:k], 0.0, *sub[k:]]))
        for label, w in rows:
            cells = " | ".join(f"{x:.3f}" for x in _scores(te, w, worlds))
            print(f"| {label} | {cells} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=SECRETHITLER_IO)
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    ap.add_argument(
        "--ablate", action="store_true", help="each term's effect on the test half; no writing"
    )
    args = ap.parse_args()
    if args.ablate:
        ablate(args.data)
        return
    t0 = time.time()
    records = train_records(args.data)
    kwargs = fit_counts(records)
    full = fit_term_weights(records, kwargs)
    check = fit_term_weights(records[:CHECK_GAMES], kwargs)
    kwargs["weights"] = [list(kv) for kv in full["weights"].items()]
    print(f"{len(records)} training games ({time.time() - t0:.0f}s): {json.dumps(full)}")
    out = {
        "command": "python benchmarks/fit_human_model.py",
        "data": {
            "file": "src/secret_hitler/data/secrethitler-io-games.jsonl.gz",
            "sha256": hashlib.sha256(args.data.read_bytes()).hexdigest(),
            "half": "train",
            "players": 7,
            "games": len(records),
        },
        "weight_fit": full,
        "weight_fit_first_games": {"games": CHECK_GAMES, **check},
        "model": kwargs,
    }
    if args.check:
        committed = json.loads(OUT.read_text(encoding="utf-8"))
        same = committed["model"] == out["model"]
        print("same as the committed model" if same else "DIFFERS from the committed model")
        raise SystemExit(0 if same else 1)
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
