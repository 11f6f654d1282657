"""``secret-hitler evaluate talk``: how bots talk, and what listening is worth.

Two measurements on simulated games (``sim.simulator``, every seat a bot, every seat talking):

- **accusations**: for each level playing both sides, every accusation said (``talk.said
  .signals``: accusations, the side not taken in a conflict, a Nein explained by distrust), by
  the speaker's role and certainty, and the share that names a seat of the fascist party, with
  its 95% Wilson interval;
- **listening**: the same games (the same seeds: the same deals and decks) played twice, once
  with every seat listening (``talk="listen"``) and once with deaf liberals (``"deaf-liberals"``:
  they still speak, the fascists still listen); the liberal win rate of each and the paired
  difference with its 95% interval (a normal interval on the per-game differences, which are
  -1, 0 or 1). With ``fascist_games``, the same for the fascists: every seat listening against
  deaf fascists (``"deaf-fascists"``), their win rates compared the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..stats import Z95, wilson
from .simulator import GameResult, Lineup, Runner, SimConfig

#: The lineup of the paired games by default: the default level on both sides.
DEFAULT_LINEUP = Lineup("bayes", "bayes")


@dataclass(slots=True)
class Paired:
    """Liberal wins of the same games in two arms."""

    games: int
    listen_wins: int
    deaf_wins: int
    listen_only: int  # games the listening liberals won and the deaf ones lost
    deaf_only: int

    @property
    def difference(self) -> float:
        return (self.listen_wins - self.deaf_wins) / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """95% normal interval of the mean per-game difference."""
        n = self.games
        if n < 2:
            return -1.0, 1.0
        mean = self.difference
        var = ((self.listen_only + self.deaf_only) / n - mean * mean) * n / (n - 1)
        half = Z95 * math.sqrt(max(var, 0.0) / n)
        return mean - half, mean + half

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval()
        return {
            "games": self.games,
            "listening_liberal_wins": self.listen_wins,
            "listening_liberal_rate": round(self.listen_wins / self.games, 4),
            "listening_ci95": [round(x, 4) for x in wilson(self.listen_wins, self.games)],
            "deaf_liberal_wins": self.deaf_wins,
            "deaf_liberal_rate": round(self.deaf_wins / self.games, 4),
            "deaf_ci95": [round(x, 4) for x in wilson(self.deaf_wins, self.games)],
            "difference": round(self.difference, 4),
            "difference_ci95": [round(lo, 4), round(hi, 4)],
            "won_only_listening": self.listen_only,
            "won_only_deaf": self.deaf_only,
        }


@dataclass(slots=True)
class TalkReport:
    players: int
    seed: int
    accuracy_games: int
    lineup: Lineup
    accusations: dict[str, list[int]] = field(default_factory=dict)  # level|role|certainty
    lines: int = 0
    rounds: int = 0
    paired: Paired | None = None
    fascists_paired: Paired | None = None  # fascist wins: listening against deaf fascists

    def to_json(self) -> dict[str, Any]:
        rows = []
        for key, (hit, total) in sorted(self.accusations.items()):
            level, role, certainty = key.split("|")
            lo, hi = wilson(hit, total)
            rows.append(
                {
                    "level": level,
                    "role": role,
                    "certainty": certainty,
                    "accusations": total,
                    "named_fascist": hit,
                    "share": round(hit / total, 4) if total else None,
                    "ci95": [round(lo, 4), round(hi, 4)],
                }
            )
        return {
            "players": self.players,
            "seed": self.seed,
            "accuracy_games_per_level": self.accuracy_games,
            "accusations": rows,
            "lines_per_round": round(self.lines / self.rounds, 3) if self.rounds else 0.0,
            "listening": None
            if self.paired is None
            else {
                "liberals": self.lineup.liberal,
                "fascists": self.lineup.fascist,
                **self.paired.to_json(),
            },
            "fascists_listening": None
            if self.fascists_paired is None
            else {
                "liberals": self.lineup.liberal,
                "fascists": self.lineup.fascist,
                **{
                    k.replace("liberal", "fascist"): v
                    for k, v in self.fascists_paired.to_json().items()
                },
            },
        }


def _add(report: TalkReport, results: Sequence[GameResult]) -> None:
    for r in results:
        if r.talk is None:
            continue
        report.lines += r.talk["lines"]
        report.rounds += r.rounds
        for key, (hit, total) in r.talk["accusations"].items():
            tally = report.accusations.setdefault(key, [0, 0])
            tally[0] += hit
            tally[1] += total


def talk_report(
    *,
    players: int = 7,
    levels: Sequence[str] = ("rule", "bayes", "bayes-human"),
    accuracy_games: int = 200,
    lineup: Lineup = DEFAULT_LINEUP,
    games: int = 2000,
    seed: int = 1,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    fascist_games: int = 0,
) -> TalkReport:
    """The report: accusations of each level in self-play (``accuracy_games`` each), then
    ``games`` paired games of ``lineup`` with listening and with deaf liberals (none: 0), and
    ``fascist_games`` with listening and with deaf fascists."""
    report = TalkReport(players, seed, accuracy_games, lineup)
    with Runner(jobs) as runner:
        for level in levels:
            config = SimConfig(players, Lineup(level, level), "official", seed, talk="listen")
            _add(report, runner.run(config, accuracy_games, progress))
        most = max(games, fascist_games)
        if most > 0:  # the listening arm, played once for both comparisons
            config = SimConfig(players, lineup, "official", seed, talk="listen")
            listen = runner.run(config, most, progress)
            if games > 0:
                report.paired = _paired(
                    runner, listen[:games], "deaf-liberals", "liberal", lineup, seed, progress
                )
            if fascist_games > 0:
                report.fascists_paired = _paired(
                    runner,
                    listen[:fascist_games],
                    "deaf-fascists",
                    "fascist",
                    lineup,
                    seed,
                    progress,
                )
    return report


def _paired(
    runner: Runner,
    listen: list[GameResult],
    deaf_mode: str,
    side: str,
    lineup: Lineup,
    seed: int,
    progress: Callable[[int], None] | None,
) -> Paired:
    """``listen``'s games played again with one side deaf; that side's wins compared."""
    games = len(listen)
    config = SimConfig(listen[0].players, lineup, "official", seed, talk=deaf_mode)
    deaf = runner.run(config, games, progress)
    both = [(a.winner == side, b.winner == side) for a, b in zip(listen, deaf, strict=True)]
    return Paired(
        games,
        sum(a for a, _ in both),
        sum(b for _, b in both),
        sum(1 for a, b in both if a and not b),
        sum(1 for a, b in both if b and not a),
    )


__all__ = ["Paired", "TalkReport", "talk_report"]
