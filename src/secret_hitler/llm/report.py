"""The arena's report: per participant (each model endpoint, each bot level), from the games'
lines alone, so a report can be rebuilt from ``results.jsonl`` at any time.

Every metric is defined in docs/llm.md ("Metrics"); in short:

- ``wins``: win rate of the participant's seats by role and by player count (a seat-game is
  one trial), with Wilson 95% intervals.
- ``rating``: openskill (``secret_hitler.ratings``: the model and player-count handicap of rated
  tables), games in plan order, the bot levels held at their published ratings
  (``data/bot-ratings.json``) so a model lands on the same scale; mu +/- 1.96 sigma.
- ``deception``: claims made, the share false (the engine's ``claims.is_true`` on what the
  claimant knew, ``engine.seat.SeatState``) by role; for
  each false claim, each other living liberal's exact posterior (``bots.beliefs.Beliefs``, the
  ``bayes`` level's model) before and after reading it: ``moved_toward_lie`` is the share of
  those (lie, listener) pairs whose probability of the true role assignment fell; ``caught``
  is the share of false hand claims whose government partner's hand claim does not fit
  (``engine.actions.hand_claims_fit``).
- ``deduction`` (a model asked for beliefs): per decision, the share of the other seats whose
  team it got wrong, next to the same share for the most likely world of ``bayes``'s
  posterior from the same view; means with 95% normal intervals.
- ``answers``: attempts, failures by kind, invalid-answer rate (failed attempts / attempts),
  fallback rate (asks the fallback settled / asks), retries; ``cost``: tokens, requests and
  seconds waiting per game, dollars at the endpoint's prices.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import Action, game_from_record
from ..engine import actions as A
from ..engine.claims import is_true
from ..engine.events import LegislativeSession
from ..engine.seat import SeatState
from ..stats import Z95, mean_interval, wilson
from .agent import FALLBACK, MODEL, Stats
from .arena import is_model

ROLES = ("liberal", "fascist", "hitler")


def _share(k: int, n: int, name: str = "share") -> dict[str, Any]:
    """``k`` of ``n`` as a proportion with its Wilson 95% interval (``name``: its key)."""
    lo, hi = wilson(k, n)
    return {
        "n": n,
        "k": k,
        name: round(k / n, 4) if n else None,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def _rate(wins: int, n: int) -> dict[str, Any]:
    return _share(wins, n, "rate")


def _mean(values: Sequence[float]) -> dict[str, Any]:
    found = mean_interval(values)
    if found is None:
        return {"n": 0, "mean": None, "ci95": None}
    mean, lo, hi = found
    return {"n": len(values), "mean": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def participants(lines: Iterable[Mapping[str, Any]]) -> list[str]:
    return sorted({level for line in lines for level in line["seats"]})


# ---------------------------------------------------------------------------------- wins


def win_rates(lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    tally: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for line in lines:
        for seat, level in enumerate(line["seats"]):
            role = line["roles"][seat]
            won = (role == "liberal") == (line["winner"] == "liberal")
            for group in ("all", role, f"{line['players']}p"):
                cell = tally[level][group]
                cell[0] += won
                cell[1] += 1
    return {
        level: {group: _rate(w, n) for group, (w, n) in sorted(groups.items())}
        for level, groups in sorted(tally.items())
    }


# ---------------------------------------------------------------------------------- ratings


def ratings(lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """openskill on the bot levels' scale: the levels with a published rating are anchors."""
    from .. import ratings as R

    anchors = {e["level"]: R.Rating(e["mu"], e["sigma"]) for e in R.bot_ratings()}
    rating: dict[str, R.Rating] = {}
    games: dict[str, int] = defaultdict(int)
    for line in sorted(lines, key=lambda x: (x["players"], x["key"])):
        seats = line["seats"]
        roles = line["roles"]
        for level in set(seats):
            games[level] += 1
            if level not in anchors:
                rating.setdefault(level, R.default())
        current = {**rating, **anchors}
        lib = [s for s, r in enumerate(roles) if r == "liberal"]
        fas = [s for s, r in enumerate(roles) if r != "liberal"]
        new_lib, new_fas = R.rate_game(
            [current[seats[s]] for s in lib],
            [current[seats[s]] for s in fas],
            line["winner"] == "liberal",
        )
        updates: dict[str, list[Any]] = defaultdict(list)
        for s, new in zip(lib + fas, new_lib + new_fas, strict=True):
            if seats[s] not in anchors:
                updates[seats[s]].append(new)
        for level, news in updates.items():
            rating[level] = R.Rating(
                sum(r.mu for r in news) / len(news), sum(r.sigma for r in news) / len(news)
            )
    out: dict[str, Any] = {}
    for level in sorted(games):
        r = anchors.get(level) or rating[level]
        out[level] = {
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "rating": round(r.ordinal, 2),
            "mu_ci95": [round(r.mu - Z95 * r.sigma, 3), round(r.mu + Z95 * r.sigma, 3)],
            "games": games[level],
            "anchor": level in anchors,
        }
    return out


# ---------------------------------------------------------------------------------- answers


def answers(
    lines: Sequence[Mapping[str, Any]], prices: Mapping[str, tuple[float, float]]
) -> dict[str, Any]:
    total: dict[str, Stats] = defaultdict(Stats)
    games: dict[str, set[str]] = defaultdict(set)
    for line in lines:
        for seat, data in line.get("stats", {}).items():
            level = line["seats"][int(seat)]
            total[level].add(Stats.from_json(data))
            games[level].add(line["key"])
    out = {}
    for level, s in sorted(total.items()):
        n = len(games[level])
        asks = s.decisions + s.claim_asks
        price_in, price_out = prices.get(level, (0.0, 0.0))
        dollars = (s.prompt_tokens * price_in + s.completion_tokens * price_out) / 1e6
        out[level] = {
            "games": n,
            "counts": s.to_json(),
            "invalid_rate": _share(sum(s.failures.values()), s.attempts),
            "fallback_rate": _share(s.fallbacks, asks),
            "per_game": {
                "prompt_tokens": round(s.prompt_tokens / n, 1),
                "completion_tokens": round(s.completion_tokens / n, 1),
                "requests": round(s.requests / n, 2),
                "seconds": round(s.seconds / n, 2),
                "dollars": round(dollars / n, 5),
            },
        }
    return out


# ---------------------------------------------------------------------------------- posterior


class _Replay:
    """One game replayed with the exact posterior of every seat, kept in step."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        import numpy as np

        from ..bots.beliefs import DEFAULT_MODEL, LIB, Beliefs

        self.np = np
        self.LIB = LIB
        self.game = game_from_record(dict(record), apply_actions=False)
        self.roles = [r.value for r in self.game.roles]
        self.beliefs = [
            Beliefs.for_view(self.game.view(s), model=DEFAULT_MODEL) for s in range(self.game.n)
        ]
        self.truth = self.beliefs[0].world_index(self.roles)
        self.actions = [Action.from_json(a) for a in record.get("actions", [])]

    def p_true(self, seat: int) -> float:
        b = self.beliefs[seat]
        b.update(self.game.view(seat))
        return float(b.probs()[self.truth])

    def map_team_error(self, seat: int) -> float:
        """The share of the other seats whose team the seat's most likely world gets wrong."""
        b = self.beliefs[seat]
        b.update(self.game.view(seat))
        world = b.R[int(self.np.argmax(b.probs()))]
        others = [s for s in range(self.game.n) if s != seat]
        wrong = [bool(world[s] != self.LIB) != (self.roles[s] != "liberal") for s in others]
        return sum(wrong) / len(others)


def posterior_metrics(lines: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(deception, deduction) per participant (see the module docstring)."""
    claims: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    moved: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    caught: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    model_err: dict[str, list[float]] = defaultdict(list)
    bayes_err: dict[str, list[float]] = defaultdict(list)
    for line in lines:
        _game_posteriors(line, claims, moved, caught, model_err, bayes_err)
    deception = {}
    for level in sorted(set(claims) | set(moved)):
        by_role = {role: _share(f, n) for role, (f, n) in sorted(claims[level].items())}
        deception[level] = {
            "false_claims": by_role,
            "moved_toward_lie": _share(moved[level][0], moved[level][1]),
            "caught": _share(caught[level][0], caught[level][1]),
        }
    deduction = {
        level: {"team_error": _mean(model_err[level]), "bayes_team_error": _mean(bayes_err[level])}
        for level in sorted(model_err)
    }
    return deception, deduction


def _game_posteriors(
    line: Mapping[str, Any],
    claims: dict[str, dict[str, list[int]]],
    moved: dict[str, list[int]],
    caught: dict[str, list[int]],
    model_err: dict[str, list[float]],
    bayes_err: dict[str, list[float]],
) -> None:
    record = line["record"]
    seats = line["seats"]
    replay = _Replay(record)
    game = replay.game
    # Each model seat's decisions that carry beliefs, in order (matched by its event count).
    pending: dict[int, list[dict[str, Any]]] = {
        int(s): [d for d in data["decisions"] if d["kind"] == "decide"]
        for s, data in record.get("llm", {}).get("seats", {}).items()
    }
    hands: dict[int, dict[str, tuple[int, bool, int]]] = {}  # session -> subject -> claim
    for action in replay.actions:
        seat = action.seat
        if action.type != A.CLAIM and pending.get(seat):
            entry = pending[seat][0]
            if entry["events"] == len(game.view(seat).events):
                pending[seat].pop(0)
                guess = entry.get("beliefs")
                if guess:
                    truth = line["roles"]
                    others = [int(s) for s in guess]
                    wrong = [
                        guess[str(s)] != ("liberal" if truth[s] == "liberal" else "fascist")
                        for s in others
                    ]
                    model_err[seats[seat]].append(sum(wrong) / len(others))
                    bayes_err[seats[seat]].append(replay.map_team_error(seat))
        if action.type == A.CLAIM:
            level, role = seats[seat], replay.roles[seat]
            true = is_true(SeatState.of_seat(seat, game.view(seat).events), action)
            cell = claims[level][role]
            cell[0] += not true
            cell[1] += 1
            listeners = [
                s
                for s in range(game.n)
                if s != seat and game.alive[s] and replay.roles[s] == "liberal"
            ]
            before = {s: replay.p_true(s) for s in listeners} if not true else {}
            game.apply(action)
            if not true:
                for s in listeners:
                    moved[level][0] += replay.p_true(s) < before[s]
                    moved[level][1] += 1
            if action.subject in (A.CLAIM_PRESIDENT_HAND, A.CLAIM_CHANCELLOR_HAND):
                # A hand claim is about the last session (its window closes at the next
                # nomination, before any other session).
                session = sum(1 for e in game.events if e.type == LegislativeSession.kind)
                libs = sum(p == "liberal" for p in action.policies or ())
                hands.setdefault(session, {})[str(action.subject)] = (seat, true, libs)
            continue
        game.apply(action)
    for pair in hands.values():
        if len(pair) < 2:
            continue
        (ps, ptrue, plibs) = pair[A.CLAIM_PRESIDENT_HAND]
        (cs, ctrue, clibs) = pair[A.CLAIM_CHANCELLOR_HAND]
        fits = A.hand_claims_fit(plibs, clibs)
        for s, true in ((ps, ptrue), (cs, ctrue)):
            if not true:
                caught[seats[s]][0] += not fits
                caught[seats[s]][1] += 1


# ---------------------------------------------------------------------------------- all


def build_report(
    lines: Sequence[Mapping[str, Any]],
    settings: Mapping[str, Any],
    *,
    votes: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole report (the JSON the leaderboard page will read)."""
    endpoints = settings.get("endpoints", {})
    prices = {
        f"llm:{name}": (float(e.get("price_in", 0.0)), float(e.get("price_out", 0.0)))
        for name, e in endpoints.items()
    }
    deception, deduction = posterior_metrics(lines)
    versions = sorted(
        {v for line in lines for v in line["record"].get("llm", {}).get("prompt_versions", [])}
    )
    levels = participants(lines)
    return {
        "format": "secret-hitler-arena-report",
        "version": 1,
        "settings": dict(settings),
        "games": len(lines),
        "prompt_versions": versions,
        "participants": [{"level": lv, "model": is_model(lv)} for lv in levels],
        "wins": win_rates(lines),
        "ratings": ratings(lines),
        "answers": answers(lines, prices),
        "deception": deception,
        "deduction": deduction,
        "human_votes": dict(votes or {}),
    }


@dataclass(frozen=True, slots=True)
class _NoVotes:
    """The tally of a decider that decided no vote."""

    agree: int = 0
    total: int = 0
    human_ja: int = 0


_NO_VOTES = _NoVotes()


def vote_agreement(report: Any) -> dict[str, Any]:
    """The part of ``sim.evaluate.VoteReport`` the arena reports, with Wilson intervals.

    For a model (a report tallied ``by_decider``) ``agreement``, ``always_ja`` and ``by_role``
    are over the votes its model decided itself; ``votes`` says how many the model and its
    fallback level decided, ``fallback_agreement`` is the fallback's apart and
    ``all_agreement`` both together: a model whose requests all failed has no agreement of
    its own (``n`` 0), never its fallback's."""
    data = report.to_json()
    o = report.overall
    out: dict[str, Any] = {"games": report.games, "half": report.half}
    if not report.by_decider:
        out.update(
            agreement=_share(o.agree, o.total),
            always_ja=data["always_ja_agreement"],
            by_role={role: _share(t.agree, t.total) for role, t in sorted(report.by_role.items())},
        )
        return out
    own = report.by_decider.get(MODEL) or _NO_VOTES
    fallback = report.by_decider.get(FALLBACK) or _NO_VOTES
    out.update(
        agreement=_share(own.agree, own.total),
        always_ja=round(own.human_ja / own.total, 4) if own.total else None,
        by_role={
            role: _share(t.agree, t.total)
            for (who, role), t in sorted(report.by_decider_role.items())
            if who == MODEL
        },
        votes={"model": own.total, "fallback": fallback.total},
        fallback_agreement=_share(fallback.agree, fallback.total),
        all_agreement=_share(o.agree, o.total),
    )
    return out


# ---------------------------------------------------------------------------------- plots


def plot_report(report: Mapping[str, Any], folder: Any) -> list[Any]:
    """wins.png (win rate by role, 95% intervals) and ratings.png (mu, 95% intervals)."""
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")  # files only
    import matplotlib.pyplot as plt

    folder = Path(folder)
    written = []
    wins = report["wins"]
    levels = list(wins)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(levels)), 4.2))
    width = 0.8 / len(ROLES)
    colors = {"liberal": "#3b7dd8", "fascist": "#d8453b", "hitler": "#7a1f1a"}
    for i, role in enumerate(ROLES):
        xs, ys, lo, hi = [], [], [], []
        for j, level in enumerate(levels):
            cell = wins[level].get(role)
            if not cell or not cell["n"]:
                continue
            xs.append(j + (i - 1) * width)
            ys.append(cell["rate"])
            lo.append(cell["rate"] - cell["ci95"][0])
            hi.append(cell["ci95"][1] - cell["rate"])
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=role, color=colors[role])
    ax.set_xticks(range(len(levels)), labels=levels, rotation=20)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.legend()
    ax.set_title(f"Arena: win rate by role ({report['games']} games)")
    fig.tight_layout()
    path = folder / "wins.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)
    rated = sorted(report["ratings"].items(), key=lambda kv: kv[1]["mu"])
    fig, ax = plt.subplots(figsize=(6.5, 0.5 * len(rated) + 1.5))
    for k, (_level, r) in enumerate(rated):
        color = "#888888" if r["anchor"] else "#2a9d5b"
        ax.errorbar(
            r["mu"],
            k,
            xerr=[[r["mu"] - r["mu_ci95"][0]], [r["mu_ci95"][1] - r["mu"]]],
            fmt="o",
            color=color,
            capsize=4,
        )
    ax.set_yticks(range(len(rated)), labels=[level for level, _ in rated])
    ax.set_xlabel("openskill mu, 95% interval (grey: bot levels held at their ratings)")
    fig.tight_layout()
    path = folder / "ratings.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)
    return written


__all__ = [
    "build_report",
    "plot_report",
    "posterior_metrics",
    "ratings",
    "vote_agreement",
    "win_rates",
]
