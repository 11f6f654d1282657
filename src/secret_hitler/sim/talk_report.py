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
  -1, 0 or 1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..stats import Z95, wilson
from .simulator import GameResult, Lineup, Runner, SimConfig, summarize

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
) -> TalkReport:
    """The report: accusations of each level in self-play (``accuracy_games`` each), then
    ``games`` paired games of ``lineup`` with listening and with deaf liberals (none: 0)."""
    report = TalkReport(players, seed, accuracy_games, lineup)
    with Runner(jobs) as runner:
        for level in levels:
            config = SimConfig(players, Lineup(level, level), "official", seed, talk="listen")
            _add(report, runner.run(config, accuracy_games, progress))
        if games > 0:
            arms = {}
            for talk in ("listen", "deaf-liberals"):
                config = SimConfig(players, lineup, "official", seed, talk=talk)
                arms[talk] = runner.run(config, games, progress)
            listen, deaf = arms["listen"], arms["deaf-liberals"]
            both = [
                (a.winner == "liberal", b.winner == "liberal")
                for a, b in zip(listen, deaf, strict=True)
            ]
            report.paired = Paired(
                games,
                summarize(listen).liberal_wins,
                summarize(deaf).liberal_wins,
                sum(1 for a, b in both if a and not b),
                sum(1 for a, b in both if b and not a),
            )
    return report


__all__ = ["Paired", "TalkReport", "talk_report"]
