"""A tournament's points and standings (docs/competitive.md "Tournaments: points and
tie-breaks").

**Points of a game, by team and role.** A player whose team won gets the points of that team's
win; a loser, and a player whose game a bot finished (she left, was voted out, or a stand-in made
most of her moves: ``left``), gets 0. The team's win is worth, with ``balanced`` scoring (the
default), twice the other team's chance: ``2 (1 - p)``, where ``p`` is the winning team's
expected win rate at that player count and rules preset, the ratings' own figure
(``ratings.liberal_win_rate``: the real games' rate with the preset's fitted shift). Both teams
then expect the same points per player, ``2 p (1 - p)``, whatever the deal gave them, and an even
game's win is worth 1. Hitler and the fascists win and lose together, so a role counts through its
team: a bonus for one role would reward the deal's luck. ``flat`` scoring (1 per win, the plain
count secrethitler.io's tournaments used) is the other choice.

**Standings**, best first: points; then the strength of the tables she played (a Buchholz for
tables: for each of her games the mean final points of the other people at that table, summed);
then head-to-head (among those still tied, her points in the games she shared with one of them);
then her seed (her rating when the tournament started); then sign-up order. A single elimination
tournament ranks its champions (the winners of the final) first, then by the last round reached.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ... import ratings as R

SCORINGS = ("balanced", "flat")


def win_points(scoring: str, players: int, preset: str, liberals: bool) -> float:
    """What a win of the liberals (``liberals``) or of the fascists is worth to each winner."""
    if scoring == "flat":
        return 1.0
    p_liberal = R.liberal_win_rate(players, preset)
    chance = p_liberal if liberals else 1.0 - p_liberal
    return round(2.0 * (1.0 - chance), 3)


def points_table(scoring: str, preset: str) -> dict[int, dict[str, float]]:
    """Each player count's points of a liberal and of a fascist win (the docs' table; the
    tournament page shows it)."""
    return {
        n: {
            "liberal": win_points(scoring, n, preset, True),
            "fascist": win_points(scoring, n, preset, False),
        }
        for n in R.PLAYERS
    }


@dataclass(frozen=True, slots=True)
class Result:
    """One seat of a finished tournament game."""

    user_id: str
    table_id: str
    round: int
    role: str
    won: bool
    left: bool
    points: float


@dataclass(slots=True)
class Line:
    """One person's line of the standings."""

    user_id: str
    name: str
    state: str
    seed: float
    order: int  # sign-up order
    points: float = 0.0
    games: int = 0
    wins: int = 0
    left: int = 0
    strength: float = 0.0
    last_round: int = 0
    champion: bool = False
    head_to_head: float = 0.0
    rank: int = 0
    tables: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "user_id": self.user_id,
            "name": self.name,
            "state": self.state,
            "points": round(self.points, 3),
            "games": self.games,
            "wins": self.wins,
            "left": self.left,
            "strength": round(self.strength, 3),
            "head_to_head": round(self.head_to_head, 3),
            "seed": round(self.seed, 3),
            "champion": self.champion,
        }


def standings(
    entrants: Sequence[dict[str, Any]],
    results: Iterable[Result],
    elimination: bool = False,
    champions: Iterable[str] = (),
) -> list[Line]:
    """The standings of ``entrants`` (rows with ``user_id``, ``name``, ``state``, ``seed``, in
    sign-up order) after ``results``, best first, ranks shared by exact ties."""
    lines = {
        e["user_id"]: Line(e["user_id"], e["name"], e["state"], float(e.get("seed") or 0.0), i)
        for i, e in enumerate(entrants)
    }
    by_table: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        line = lines.get(r.user_id)
        if line is None:
            continue
        by_table[r.table_id].append(r)
        line.points += r.points
        line.games += 1
        line.wins += r.won and not r.left
        line.left += r.left
        line.last_round = max(line.last_round, r.round)
        line.tables.append(r.table_id)
    for uid in champions:
        if uid in lines:
            lines[uid].champion = True
    for seats in by_table.values():
        for r in seats:
            others = [lines[o.user_id].points for o in seats if o.user_id != r.user_id]
            if others:
                lines[r.user_id].strength += sum(others) / len(others)

    def main_key(line: Line) -> tuple[float, ...]:
        points, strength = -round(line.points, 6), -round(line.strength, 6)  # sums of floats
        if elimination:
            return (-line.champion, -line.last_round, points, strength)
        return (points, strength)

    ordered = sorted(lines.values(), key=lambda ln: (main_key(ln), ln.order))
    out: list[Line] = []
    i = 0
    while i < len(ordered):  # a group tied on the main key: head-to-head, seed, sign-up
        j = i
        while j < len(ordered) and main_key(ordered[j]) == main_key(ordered[i]):
            j += 1
        group = ordered[i:j]
        h2h = _head_to_head(group, by_table)
        for line in group:
            line.head_to_head = h2h[line.user_id]
        group.sort(key=lambda ln: (-ln.head_to_head, -ln.seed, ln.order))
        out += group
        i = j

    def tie(line: Line) -> tuple[Any, ...]:  # all the standings compare but sign-up order
        return (main_key(line), line.head_to_head, line.seed)

    for k, line in enumerate(out):
        line.rank = out[k - 1].rank if k and tie(out[k - 1]) == tie(line) else k + 1
    return out


def _head_to_head(group: list[Line], by_table: dict[str, list[Result]]) -> dict[str, float]:
    """Each one's points in the games she shared with another of ``group``."""
    members = {ln.user_id for ln in group}
    out = dict.fromkeys(members, 0.0)
    if len(group) < 2:
        return out
    for seats in by_table.values():
        here = [r for r in seats if r.user_id in members]
        if len(here) > 1:
            for r in here:
                out[r.user_id] += r.points
    return out
