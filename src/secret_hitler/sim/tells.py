"""``secret-hitler evaluate tells``: does a seat's own talk give its team away?

A strong player who has played a few games with the bots learns how each team talks. This
measures it the way such a player could: simulated games of one level against itself (every seat
talking and listening), and for every seat of every game two sets of features a table can see:

- **talk**: the seat's own lines only (not its claims, which are moves, and nothing others said
  about it): how many of each kind of line (``line_kind``) and each kind with its reason
  (``line_detail``), how its accusations, trust and Hitler reads relate to the table when said
  (the target was its partner in a government, had accused or trusted it, was accused or trusted
  by others, had a liberal or a fascist record, was in a conflict, was claimed investigated, is
  proven not Hitler), and when and how much it spoke (lines by phase, answers, lines per round);
- **moves**: its votes (Ja rate, Ja on governments that then enacted a fascist or a liberal
  policy, on failed ones, against the table), its nominations, its sessions as president and as
  chancellor with what they enacted, its claims (each claimed hand, conflicts, claims without the
  enacted policy, investigation and peek claims) and its powers.

A logistic regression (numpy, L2, standardised features) is fitted on talk alone, moves alone and
both, cross-validated by game (every seat of a game in the same fold), and scored by the area
under the ROC curve of the held-out predictions of "this seat is of the fascist party", with a
95% interval from a bootstrap over games. Also printed: each kind of line's share by team, the
kinds one team says 95% of the time or more, and lines per seat and game. The figures are a
benchmark (docs/bots.md "Tells"), not a test; tests/sim/test_tells.py checks the machinery on
synthetic data (a planted tell is found, no tell gives about 0.5).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..bots.talk_kinds import line_detail, line_kind
from ..engine import Action, Game, game_from_record
from ..engine.actions import hand_claims_fit
from ..engine.public import PublicState
from ..engine.types import Policy
from ..talk import lines as talk
from ..talk.said import ACCUSE, TRUST, Said, signals
from .simulator import Lineup, game_seed, play_game
from .simulator import Runner as _Runner

#: A kind said by one team this share of the time or more is a tell by itself (issue 39).
ONE_TEAM_SHARE = 0.95
#: ...counted only for kinds said at least this many times (a handful of lines proves nothing).
ONE_TEAM_MIN_LINES = 20
#: How many of the talk features that tell most by themselves the report lists.
TOP_FEATURES = 10
#: Relations of a signal's target to the table when the line is said (``_relations``).
RELATIONS = (
    "partner",
    "accused_me",
    "trusted_me",
    "accused_by_others",
    "trusted_by_others",
    "fascist_record",
    "liberal_record",
    "conflicted",
    "claimed_fascist",
    "claimed_liberal",
    "not_hitler",
)
FEATURE_SETS = ("talk", "moves", "both")


# ---------------------------------------------------------------------------------- features
@dataclass(slots=True)
class SeatRow:
    """One seat of one game: its team and its features (``talk`` and ``moves``, by name), and
    the kinds of line it said with how many lines in all (claims included)."""

    game: int
    seat: int
    fascist: bool
    talk: dict[str, float] = field(default_factory=dict)
    moves: dict[str, float] = field(default_factory=dict)
    kinds: Counter[str] = field(default_factory=Counter)
    lines: int = 0


class _Table:
    """What the table has seen up to a moment: the public fold and who said what of whom."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.public = PublicState()
        self.said_of: dict[tuple[int, str], set[int]] = defaultdict(set)  # (target, stance)
        self.claimed: dict[int, set[str]] = defaultdict(set)  # target -> parties claimed

    def relations(self, speaker: int, target: int) -> list[str]:
        pub = self.public
        out = []
        sessions = pub.sessions
        if any({speaker, target} == {s.president, s.chancellor} for s in sessions):
            out.append("partner")
        if target in self._by(speaker, ACCUSE):
            out.append("accused_me")
        if target in self._by(speaker, TRUST):
            out.append("trusted_me")
        if self._by(target, ACCUSE) - {speaker}:
            out.append("accused_by_others")
        if self._by(target, TRUST) - {speaker}:
            out.append("trusted_by_others")
        if any(s.chancellor == target and s.enacted == "fascist" for s in sessions):
            out.append("fascist_record")
        if any(target in (s.president, s.chancellor) and s.enacted == "liberal" for s in sessions):
            out.append("liberal_record")
        if any(target in (s.president, s.chancellor) and _conflict(s) for s in sessions):
            out.append("conflicted")
        for party in ("fascist", "liberal"):
            if party in self.claimed[target]:
                out.append(f"claimed_{party}")
        if target in pub.proven_not_hitler:
            out.append("not_hitler")
        return out

    def _by(self, target: int, stance: str) -> set[int]:
        return self.said_of[(target, stance)]


def _conflict(s: Any) -> bool:
    pc, cc = s.president_claim, s.chancellor_claim
    return pc is not None and cc is not None and not hand_claims_fit(pc, cc)


def _add(d: dict[str, float], key: str, value: float = 1.0) -> None:
    d[key] = d.get(key, 0.0) + value


def game_rows(game: Game, said: Sequence[Said], index: int = 0) -> list[SeatRow]:
    """The features of every seat of one finished game and its talk (``said``, in order)."""
    n = game.n
    roles = [r.value for r in game.roles]
    rows = [SeatRow(index, s, roles[s] != "liberal") for s in range(n)]
    table = _Table(n)
    replay = game_from_record(game.to_record(), apply_actions=False)
    seen = 0
    k = 0
    actions = list(game.actions)
    for i in range(len(actions) + 1):
        while k < len(said) and said[k].after <= i:
            _talk_features(rows, table, said[k], replay.phase.value)
            k += 1
        if i == len(actions):
            break
        replay.apply(actions[i])
        for e in replay.events[seen:]:
            if e.visible_to(None):
                table.public.feed(e.json)
        seen = len(replay.events)
    pub = table.public
    rounds = max(1, pub.round)
    alive_rounds = _alive_rounds(game, rounds)
    for row in rows:
        row.talk["lines_per_round"] = row.talk.get("lines", 0.0) / alive_rounds[row.seat]
        row.moves.update(_move_features(row.seat, pub, actions))
    return rows


def _alive_rounds(game: Game, rounds: int) -> list[float]:
    """Rounds each seat was alive (an executed seat stops at its execution's round)."""
    out = [float(rounds)] * game.n
    current = 0
    for e in game.events:
        if e.type == "candidate":
            current = e.data["round"]
        elif e.type == "executed":
            out[e.data["target"]] = float(max(1, current))
    return out


def _talk_features(rows: list[SeatRow], table: _Table, entry: Said, phase: str) -> None:
    if entry.seat is None or entry.line is None:
        return
    row = rows[entry.seat]
    row.lines += 1
    line = entry.line
    if isinstance(line, talk.Claim) or (
        isinstance(line, talk.Answer) and isinstance(line.line, talk.Claim)
    ):
        _claimed(table, entry.seat, line)
        return
    kind = line_kind(line)
    detail = line_detail(line)
    assert kind is not None and detail is not None
    row.kinds[kind] += 1
    f = row.talk
    _add(f, "lines")
    _add(f, f"kind:{kind}")
    if detail != kind:
        _add(f, f"detail:{detail}")
    _add(f, f"phase:{phase}")
    if isinstance(line, talk.Answer):
        _add(f, "answers")
    if isinstance(line, talk.Conflict) and line.believe is not None:
        side = "president" if line.believe == line.president else "chancellor"
        _add(f, f"conflict:believe_{side}")
    for sig in signals(line):
        if sig.target == entry.seat:
            continue
        for rel in table.relations(entry.seat, sig.target):
            _add(f, f"rel:{sig.stance}:{rel}")
        table.said_of[(sig.target, sig.stance)].add(entry.seat)


def _claimed(table: _Table, seat: int, line: talk.Line) -> None:
    if isinstance(line, talk.Answer):
        line = line.line
    if isinstance(line, talk.Claim) and line.target is not None and line.party is not None:
        table.claimed[line.target].add(line.party.value)


def _move_features(seat: int, pub: PublicState, actions: Sequence[Action]) -> dict[str, float]:
    f: dict[str, float] = {}
    outcome: dict[tuple[int, int], str | None] = {}
    for s in pub.sessions:
        outcome.setdefault((s.president, s.chancellor), s.enacted)
    for e in pub.elections:
        vote = e.votes[seat] if seat < len(e.votes) else None
        if vote is None:
            continue
        _add(f, "votes")
        if vote:
            _add(f, "ja")
        if bool(vote) != e.passed:
            _add(f, "against_table")
        if not e.passed and vote:
            _add(f, "ja_failed")
        if e.passed:
            enacted = outcome.get((e.president, e.chancellor))
            if enacted is not None:
                _add(f, f"{'ja' if vote else 'nein'}_then_{enacted}")
        if e.president == seat:
            _add(f, "nominated")
            _add(f, "nomination_passed" if e.passed else "nomination_failed")
    if f.get("votes"):
        f["ja_rate"] = f.get("ja", 0.0) / f["votes"]
    for s in pub.sessions:
        office = (
            "president" if s.president == seat else "chancellor" if s.chancellor == seat else ""
        )
        if not office:
            continue
        _add(f, f"{office}:sessions")
        if s.enacted is not None:
            _add(f, f"{office}:enacted_{s.enacted}")
        if s.vetoed:
            _add(f, f"{office}:vetoed")
        if _conflict(s):
            _add(f, f"{office}:conflict")
        for c in s.claims:
            if c.seat != seat or c.subject not in ("president_hand", "chancellor_hand"):
                continue
            liberals = list(c.policies or ()).count("liberal")
            _add(f, f"claim:{c.subject}:{liberals}")
            if s.enacted is not None and s.enacted not in (c.policies or ()):
                _add(f, "claim:without_enacted")
    for a in actions:
        if a.seat != seat:
            continue
        if a.type == "claim" and a.subject == "investigation":
            _add(f, f"claim:investigation:{a.party}")
        elif a.type == "claim" and a.subject == "peek":
            liberals = sum(1 for p in a.policies or () if p is Policy.LIBERAL)
            _add(f, f"claim:peek:{liberals}")
        elif a.type in ("investigate", "execute", "special_election"):
            _add(f, f"power:{a.type}")
    return f


# ---------------------------------------------------------------------------------- the model
def standardise(train: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centre and scale by the training rows (constant columns stay 0)."""
    mean = train.mean(axis=0)
    std = train.std(axis=0)
    std[std == 0] = 1.0
    return (train - mean) / std, (test - mean) / std


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 50) -> np.ndarray:
    """Weights (intercept last) of an L2-penalised logistic regression by Newton's method; the
    intercept is not penalised."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    penalty = np.full(xb.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(iters):
        z = np.clip(xb @ w, -30, 30)
        p = 1 / (1 + np.exp(-z))
        grad = xb.T @ (p - y) + penalty * w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w


def predict(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    z = np.clip(x @ w[:-1] + w[-1], -30, 30)
    out: np.ndarray = 1 / (1 + np.exp(-z))
    return out


def fold_of_games(games: Sequence[int], folds: int, seed: int) -> dict[int, int]:
    """Each game's fold: the games shuffled by ``seed`` and dealt round the folds."""
    unique = sorted(set(games))
    order = np.random.default_rng(seed).permutation(len(unique))
    return {unique[j]: rank % folds for rank, j in enumerate(order)}


def cross_validated(
    x: np.ndarray, y: np.ndarray, groups: Sequence[int], folds: int = 5, seed: int = 0
) -> np.ndarray:
    """Held-out P(fascist) of every row, each from a model fitted on the other folds' games."""
    fold = fold_of_games(groups, folds, seed)
    where = np.array([fold[g] for g in groups])
    out = np.zeros(len(y))
    for k in range(folds):
        test = where == k
        if not test.any():
            continue
        train = ~test
        if len(set(y[train].tolist())) < 2:
            out[test] = float(y[train].mean()) if train.any() else 0.5
            continue
        xtr, xte = standardise(x[train], x[test])
        out[test] = predict(fit_logistic(xtr, y[train]), xte)
    return out


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """The area under the ROC curve (Mann-Whitney, ties counted half); 0.5 with one class."""
    pos = labels.astype(bool)
    n1, n0 = int(pos.sum()), int((~pos).sum())
    if n1 == 0 or n0 == 0:
        return 0.5
    _, inverse, counts = np.unique(scores, return_inverse=True, return_counts=True)
    ranks = (np.cumsum(counts) - (counts - 1) / 2)[inverse]  # average ranks, 1-based
    return float((ranks[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def bootstrap_games(groups: Sequence[int], samples: int, seed: int) -> Iterable[np.ndarray]:
    """Row indices of ``samples`` resamples of whole games (with replacement)."""
    by_game: dict[int, list[int]] = defaultdict(list)
    for i, g in enumerate(groups):
        by_game[g].append(i)
    games = sorted(by_game)
    rows = [np.array(by_game[g]) for g in games]
    rng = np.random.default_rng(seed)
    for _ in range(samples):
        pick = rng.integers(0, len(games), len(games))
        yield np.concatenate([rows[j] for j in pick])


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles."""
    arr = np.asarray(values, dtype=float)
    return float(np.percentile(arr, 2.5)), float(np.percentile(arr, 97.5))


# ---------------------------------------------------------------------------------- report
@dataclass(slots=True)
class TellsReport:
    players: int
    level: str
    games: int
    seed: int
    seats: int
    auc: dict[str, float]
    ci95: dict[str, tuple[float, float]]
    both_minus_moves: float
    both_minus_moves_ci95: tuple[float, float]
    kinds: list[dict[str, Any]]
    one_team: list[str]
    lines_per_seat: dict[str, float]
    features: dict[str, int]
    top_talk: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "level": self.level,
            "games": self.games,
            "seed": self.seed,
            "seats": self.seats,
            "auc": {k: round(v, 4) for k, v in self.auc.items()},
            "ci95": {k: [round(lo, 4), round(hi, 4)] for k, (lo, hi) in self.ci95.items()},
            "both_minus_moves": round(self.both_minus_moves, 4),
            "both_minus_moves_ci95": [round(x, 4) for x in self.both_minus_moves_ci95],
            "kinds": self.kinds,
            "one_team_kinds": self.one_team,
            "lines_per_seat_and_game": {k: round(v, 3) for k, v in self.lines_per_seat.items()},
            "features": self.features,
            "top_talk_features": self.top_talk,
        }


def matrix(rows: Sequence[SeatRow], which: str) -> tuple[np.ndarray, list[str]]:
    """The feature matrix of ``which`` (talk, moves or both) over ``rows``, columns by name."""
    parts = ("talk", "moves") if which == "both" else (which,)
    names = sorted({f"{p}/{k}" for r in rows for p in parts for k in getattr(r, p)})
    col = {name: j for j, name in enumerate(names)}
    x = np.zeros((len(rows), len(names)))
    for i, r in enumerate(rows):
        for p in parts:
            for k, v in getattr(r, p).items():
                x[i, col[f"{p}/{k}"]] = v
    return x, names


def single_tells(
    x: np.ndarray, names: Sequence[str], y: np.ndarray, top: int = TOP_FEATURES
) -> list[dict[str, Any]]:
    """The ``top`` columns of ``x`` that tell the team most by themselves: each one's AUC
    alone (above 0.5: higher for the fascist party), with its mean per seat of each team. Where
    a tell left by the classifier is, feature by feature (issue 39's work: no single one should
    stand out)."""
    fas, lib = y == 1, y == 0
    out: list[dict[str, Any]] = []
    for j, name in enumerate(names):
        column = x[:, j]
        out.append(
            {
                "feature": name.split("/", 1)[1],
                "auc": round(auc(column, y), 4),
                "per_fascist_seat": round(float(column[fas].mean()) if fas.any() else 0.0, 4),
                "per_liberal_seat": round(float(column[lib].mean()) if lib.any() else 0.0, 4),
            }
        )
    out.sort(key=lambda f: (-abs(f["auc"] - 0.5), f["feature"]))
    return out[:top]


def kind_shares(rows: Sequence[SeatRow]) -> tuple[list[dict[str, Any]], list[str]]:
    """Each kind of line: lines by each team, per seat of that team and game, the fascist
    party's share; and the kinds one team says ``ONE_TEAM_SHARE`` of the time or more."""
    seats = Counter("fascist" if r.fascist else "liberal" for r in rows)
    said: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        team = "fascist" if r.fascist else "liberal"
        for kind, count in r.kinds.items():
            said[kind][team] += count
    out, one_team = [], []
    for kind in sorted(said):
        lib, fas = said[kind]["liberal"], said[kind]["fascist"]
        total = lib + fas
        share = fas / total if total else 0.0
        out.append(
            {
                "kind": kind,
                "liberal": lib,
                "fascist": fas,
                "per_liberal_seat": round(lib / max(1, seats["liberal"]), 4),
                "per_fascist_seat": round(fas / max(1, seats["fascist"]), 4),
                "fascist_share": round(share, 4),
            }
        )
        if total >= ONE_TEAM_MIN_LINES and max(share, 1 - share) >= ONE_TEAM_SHARE:
            one_team.append(kind)
    return out, one_team


def analyse(
    rows: Sequence[SeatRow],
    *,
    players: int = 0,
    level: str = "",
    seed: int = 0,
    folds: int = 5,
    bootstrap: int = 1000,
) -> TellsReport:
    """The report on seat rows (from games, or synthetic in the tests)."""
    y = np.array([1.0 if r.fascist else 0.0 for r in rows])
    groups = [r.game for r in rows]
    scores: dict[str, np.ndarray] = {}
    features: dict[str, int] = {}
    top_talk: list[dict[str, Any]] = []
    for which in FEATURE_SETS:
        x, names = matrix(rows, which)
        features[which] = len(names)
        scores[which] = cross_validated(x, y, groups, folds, seed)
        if which == "talk":
            top_talk = single_tells(x, names, y)
    point = {k: auc(s, y) for k, s in scores.items()}
    samples: dict[str, list[float]] = {k: [] for k in FEATURE_SETS}
    diffs: list[float] = []
    for idx in bootstrap_games(groups, bootstrap, seed + 1):
        yb = y[idx]
        values = {k: auc(scores[k][idx], yb) for k in FEATURE_SETS}
        for k, v in values.items():
            samples[k].append(v)
        diffs.append(values["both"] - values["moves"])
    kinds, one_team = kind_shares(rows)
    per = defaultdict(list)
    for r in rows:
        per["all"].append(r.lines)
        per["fascist" if r.fascist else "liberal"].append(r.lines)
    return TellsReport(
        players=players,
        level=level,
        games=len(set(groups)),
        seed=seed,
        seats=len(rows),
        auc=point,
        ci95={k: interval(v) if v else (point[k], point[k]) for k, v in samples.items()},
        both_minus_moves=point["both"] - point["moves"],
        both_minus_moves_ci95=interval(diffs) if diffs else (0.0, 0.0),
        kinds=kinds,
        one_team=one_team,
        lines_per_seat={k: sum(v) / len(v) for k, v in per.items() if v},
        features=features,
        top_talk=top_talk,
    )


class _GamesTask:
    """Plays games of one level against itself with talk and returns their seat rows
    (picklable for the worker pool)."""

    def __init__(self, players: int, level: str, seed: int) -> None:
        self.players, self.level, self.seed = players, level, seed

    def __call__(self, indices: Sequence[int]) -> list[SeatRow]:
        out: list[SeatRow] = []
        lineup = Lineup(self.level, self.level)
        for index in indices:
            seed = game_seed(self.seed, index)
            result, game = play_game(self.players, lineup, "official", seed, index, talk="listen")
            out.extend(game_rows(game, result.said, index))
        return out


def play_rows(
    players: int,
    level: str,
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[SeatRow]:
    """Seat rows of ``games`` self-play games of ``level`` (the same games for any ``jobs``)."""
    runner = _Runner(jobs)
    task = _GamesTask(players, level, seed)
    size = max(1, min(10, games // (runner.pool.workers * 4) or 1))
    chunks = [range(i, min(i + size, games)) for i in range(0, games, size)]
    rows: list[SeatRow] = []
    with runner:
        for batch in runner.pool.imap_unordered(task, chunks):
            rows.extend(batch)
            if progress is not None and batch:
                progress(len({r.game for r in batch}))
    rows.sort(key=lambda r: (r.game, r.seat))
    return rows


def tells_report(
    *,
    players: int = 7,
    level: str = "bayes",
    games: int = 400,
    seed: int = 1,
    jobs: int = 1,
    folds: int = 5,
    bootstrap: int = 1000,
    progress: Callable[[int], None] | None = None,
) -> TellsReport:
    """Play the games and analyse them (``analyse``)."""
    rows = play_rows(players, level, games, seed, jobs, progress)
    return analyse(rows, players=players, level=level, seed=seed, folds=folds, bootstrap=bootstrap)


def describe(report: Mapping[str, Any]) -> list[str]:
    """The report's lines as the command prints them."""
    out = [
        f"{report['level']} against itself, {report['players']} players, {report['games']} "
        f"games ({report['seats']} seats), seed {report['seed']}: team classifier, "
        "cross-validated by game, AUC (95% bootstrap interval over games)"
    ]
    for which in FEATURE_SETS:
        lo, hi = report["ci95"][which]
        out.append(
            f"  {which:5} {report['auc'][which]:.3f} ({lo:.3f} to {hi:.3f}), "
            f"{report['features'][which]} features"
        )
    lo, hi = report["both_minus_moves_ci95"]
    out.append(f"  both - moves {report['both_minus_moves']:+.3f} ({lo:+.3f} to {hi:+.3f})")
    per = report["lines_per_seat_and_game"]
    out.append(
        f"lines per seat and game: {per.get('all', 0):.2f} (liberal {per.get('liberal', 0):.2f}, "
        f"fascist party {per.get('fascist', 0):.2f})"
    )
    one = report["one_team_kinds"]
    out.append(
        "kinds of line one team says "
        f"{ONE_TEAM_SHARE:.0%} of the time or more (of {ONE_TEAM_MIN_LINES}+ lines): "
        + (", ".join(one) if one else "none")
    )
    top = report.get("top_talk_features") or []
    if top:
        out.append(
            "talk features that tell most by themselves (AUC alone, above 0.5: more from the "
            "fascist party; per fascist-party seat / per liberal seat):"
        )
        out.extend(
            f"  {f['auc']:.3f} {f['feature']} ({f['per_fascist_seat']:.3f} / "
            f"{f['per_liberal_seat']:.3f})"
            for f in top
        )
    return out


__all__ = [
    "FEATURE_SETS",
    "ONE_TEAM_MIN_LINES",
    "ONE_TEAM_SHARE",
    "RELATIONS",
    "SeatRow",
    "TellsReport",
    "analyse",
    "auc",
    "cross_validated",
    "describe",
    "fit_logistic",
    "game_rows",
    "kind_shares",
    "line_detail",
    "line_kind",
    "matrix",
    "play_rows",
    "single_tells",
    "tells_report",
]
