"""``secret-hitler evaluate roles``: a bot's posterior over role assignments along each of the
people's games (at every nomination, for every seat that does not know the whole team), scored
against the true assignment: log-loss and top-1 accuracy, next to the uniform prior's
(``RoleReport``)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..bots.base import make_agent
from ..engine import actions as A
from .people_games import EvaluateError, check_bot, replay, selected

#: Stages of a game by the number of policies on the board at a nomination.
STAGES = (("0", 0, 0), ("1-2", 1, 2), ("3-4", 3, 4), ("5-6", 5, 6), ("7+", 7, 99))


@dataclass(slots=True)
class RoleAcc:
    """Sums over scored points (one point: one point of view at one nomination)."""

    points: int = 0
    log_loss: float = 0.0
    uniform_log_loss: float = 0.0
    top1: int = 0
    uniform_top1: float = 0.0
    team_error: float = 0.0  # share of all players whose team the MAP world gets wrong
    others_error: float = 0.0  # ...of the other players only (the viewer knows himself)
    all_liberal_error: float = 0.0  # the same for "everyone is liberal"
    all_liberal_others: float = 0.0
    split_error: float = 0.0  # the same for the most likely team split (Hitler summed out)

    def add(self, row: RolePoint) -> None:
        self.points += 1
        self.log_loss += -math.log(max(row.p_true, 1e-12))
        self.uniform_log_loss += math.log(row.possible)
        self.top1 += row.top
        self.uniform_top1 += 1.0 / row.possible
        self.team_error += row.team_error
        self.others_error += row.others_error
        self.all_liberal_error += row.all_liberal_error
        self.all_liberal_others += row.all_liberal_others
        self.split_error += row.split_error

    def to_json(self) -> dict[str, Any]:
        k = self.points

        def avg(x: float) -> float:
            return round(x / k, 4) if k else 0.0

        return {
            "points": k,
            "log_loss": avg(self.log_loss),
            "uniform_log_loss": avg(self.uniform_log_loss),
            "top1": avg(self.top1),
            "uniform_top1": avg(self.uniform_top1),
            "team_error": avg(self.team_error),
            "team_error_others": avg(self.others_error),
            "all_liberal_error": avg(self.all_liberal_error),
            "all_liberal_error_others": avg(self.all_liberal_others),
            "team_split_error": avg(self.split_error),
        }


@dataclass(slots=True)
class RolePoint:
    viewer: str  # the viewer's role, or "spectator"
    stage: str
    last: bool  # the game's last nomination (the start of its last round)
    p_true: float
    possible: int
    top: bool
    team_error: float
    others_error: float
    all_liberal_error: float
    all_liberal_others: float
    split_error: float = 0.0


@dataclass(slots=True)
class RoleReport:
    bot: str
    half: str = "all"
    players: int | None = None
    games: int = 0
    overall: RoleAcc = field(default_factory=RoleAcc)
    last_round: RoleAcc = field(default_factory=RoleAcc)
    by_role: dict[str, RoleAcc] = field(default_factory=lambda: defaultdict(RoleAcc))
    by_role_last: dict[str, RoleAcc] = field(default_factory=lambda: defaultdict(RoleAcc))
    by_stage: dict[str, RoleAcc] = field(default_factory=lambda: defaultdict(RoleAcc))
    errors: int = 0

    def add(self, row: RolePoint) -> None:
        """Seats count in ``overall``; the spectator only in its own rows."""
        if row.viewer != "spectator":
            self.overall.add(row)
            self.by_stage[row.stage].add(row)
            if row.last:
                self.last_round.add(row)
        self.by_role[row.viewer].add(row)
        if row.last:
            self.by_role_last[row.viewer].add(row)

    def to_json(self) -> dict[str, Any]:
        order = [name for name, _, _ in STAGES]
        return {
            "bot": self.bot,
            "half": self.half,
            "players": self.players,
            "games": self.games,
            "overall": self.overall.to_json(),
            "last_round": self.last_round.to_json(),
            "by_role": {k: v.to_json() for k, v in sorted(self.by_role.items())},
            "by_role_last_round": {k: v.to_json() for k, v in sorted(self.by_role_last.items())},
            "by_stage": {k: self.by_stage[k].to_json() for k in order if k in self.by_stage},
            "skipped_games": self.errors,
        }


def evaluate_roles(
    records: Iterable[dict[str, Any]],
    bot: str,
    seed: int = 0,
    *,
    half: str = "all",
    players: int | None = None,
) -> RoleReport:
    """Score the role posterior of every seat that does not know the team, and of the
    spectator, at every nomination of every game (of ``half`` and ``players`` when given).

    A seat that knows the whole team (an informed fascist: one world left) is not scored, so
    its zero error does not flatter the figures. ``team_error`` averages over all players,
    the viewer's own (known) seat included, which is what the all-liberal baseline 3/7 at 7
    players is measured on; ``team_error_others`` leaves the viewer out."""
    check_bot(bot)
    probe = make_agent(bot, 0, 0)
    if not hasattr(probe, "posterior"):
        raise EvaluateError(f"bot {bot!r} keeps no posterior over roles (try --bot bayes)")
    report = RoleReport(bot, half, players)
    for gi, record in selected(records, half, players):
        try:
            rows = _roles_of_game(record, bot, seed + gi)
        except EvaluateError:
            raise
        except Exception:
            report.errors += 1
            continue
        for row in rows:
            report.add(row)
        report.games += 1
    return report


def _stage(policies: int) -> str:
    return next(name for name, lo, hi in STAGES if lo <= policies <= hi)


def _roles_of_game(record: dict[str, Any], bot: str, seed: int) -> list[RolePoint]:
    import numpy as np

    from ..bots.beliefs import DEFAULT_MODEL, LIB, Beliefs

    agents: dict[int, Any] = {}  # bots with a ``posterior(view)``
    truth: np.ndarray | None = None
    spectator: Beliefs | None = None
    points: list[list[RolePoint]] = []  # per nomination
    for game, action in replay(record):
        if action.type != A.NOMINATE:
            continue
        if truth is None:
            truth = np.array(
                [{"liberal": 0, "fascist": 1, "hitler": 2}[r.value] for r in game.roles]
            )
        fascist_party = truth != LIB
        n = game.n
        public = game.view(None)
        stage = _stage(public.liberal_policies + public.fascist_policies)
        here: list[RolePoint] = []
        for seat in [*range(n), None]:
            view = game.view(seat)
            if seat is None:
                if spectator is None:
                    model = getattr(make_agent(bot, 0, 0), "model", DEFAULT_MODEL)
                    spectator = Beliefs.for_view(view, public=True, model=model)
                spectator.update(view)
                worlds, probs = spectator.R, spectator.probs()
                possible = len(worlds)
            else:
                agent: Any = agents.get(seat)
                if agent is None:
                    agents[seat] = agent = make_agent(bot, seat, seed * 16 + seat)
                worlds, probs = agent.posterior(view)
                start = getattr(agent, "initial_possible", None)
                possible = start if start is not None else int((probs > 0).sum())
            if possible <= 1:
                continue  # this seat knows the whole team: nothing to score
            match = np.nonzero((worlds == truth).all(axis=1))[0]
            p_true = float(probs[match[0]]) if len(match) else 0.0
            best = int(np.argmax(probs))
            top = bool(len(match)) and best == int(match[0])
            wrong = (worlds[best] != LIB) != fascist_party
            split = _likeliest_split(worlds, probs)
            others = np.ones(n, dtype=bool)
            if seat is not None:
                others[seat] = False
            here.append(
                RolePoint(
                    "spectator" if seat is None else game.roles[seat].value,
                    stage,
                    False,
                    p_true,
                    possible,
                    top,
                    float(wrong.mean()),
                    float(wrong[others].mean()),
                    float(fascist_party.mean()),
                    float(fascist_party[others].mean()),
                    float((split != fascist_party).mean()),
                )
            )
        points.append(here)
    if points:  # only once the whole game replayed
        points[-1] = [replace(p, last=True) for p in points[-1]]
    return [p for block in points for p in block]


def _likeliest_split(worlds: Any, probs: Any) -> Any:
    """The most likely team split (which seats are of the fascist party, Hitler summed out)."""
    import numpy as np

    party = worlds != 0
    keys = party.astype(np.int64) @ (1 << np.arange(worlds.shape[1], dtype=np.int64))
    uniq, inverse = np.unique(keys, return_inverse=True)
    best = int(np.argmax(np.bincount(inverse, weights=probs)))
    return party[int(np.argmax(inverse == best))]
