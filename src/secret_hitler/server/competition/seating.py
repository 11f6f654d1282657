"""Who sits at which table in a tournament round (docs/competitive.md "Tournaments: seating").

Secret Hitler is played by five to ten people at a table, in two teams the deal draws, so a
tournament cannot pair people one against one as chess's Swiss system does. What a Swiss round
wants here is the same in spirit: people of similar standing at one table, and the same people
not meeting again and again. ``seat_round`` does it in two steps:

1. a start: the first round (nobody has points yet) deals people over the tables in a snake
   by their seed rating (table 1, 2, ..., n, n, ..., 2, 1, ...), so every table gets its share of
   strong players; later rounds deal them in order of their points (ties by seed), a score group
   per table, as a Swiss round pairs equal scores;
2. simulated annealing over swaps of two people between two tables, which lowers the cost
   ``REPEAT`` x (pairs who already met, counted once per earlier meeting) + ``SPREAD`` x (each
   table's squared deviation of points from its mean) + ``APART`` x (pairs who may not sit
   together: a rated table's one seat per address and device, blocklists); a worse swap is
   taken with probability exp(-delta / temperature), the temperature falling from
   ``T_START`` to ``T_END``, and the best seating seen wins. Repeats weigh most: a table of
   leaders is good, the same table twice is not.

The random source is the caller's (the tournament's seed and the round number), so a round's
seating is the same wherever and however often it is computed. ``table_sizes`` splits a number
of people into tables of 5-10 as near the tournament's size as possible, sizes differing by at
most one (no byes: everyone plays every round; the points of a game weigh its player count,
``scoring.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence

from ...engine.settings import MAX_PLAYERS, MIN_PLAYERS

REPEAT = 1.0  # cost of one earlier meeting of a pair seated together again
SPREAD = 0.5  # cost of one squared point of a person's distance from her table's mean
APART = 1000.0  # cost of a pair who may not sit at one table
T_START, T_END = 2.0, 0.01
STEPS_PER_PERSON = 300  # swap proposals per person seated

#: How often each pair met before (key: the two user ids, sorted).
Met = Mapping[tuple[str, str], int]


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def table_sizes(people: int, target: int) -> list[int]:
    """Table sizes for ``people``: the number of tables whose mean size is nearest ``target``
    among those tables of ``MIN_PLAYERS``-``MAX_PLAYERS`` allow, larger tables first. ``ValueError`` with
    fewer people than one table takes."""
    if people < MIN_PLAYERS:
        raise ValueError(f"a table needs at least {MIN_PLAYERS} players, not {people}")
    fewest = -(-people // MAX_PLAYERS)
    most = people // MIN_PLAYERS
    count = min(range(fewest, most + 1), key=lambda c: (abs(people / c - target), c))
    base, extra = divmod(people, count)
    return [base + 1] * extra + [base] * (count - extra)


def snake(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Deal ``order`` over tables of ``sizes`` in a snake: 1, 2, ..., n, n, ..., 1, ... (a table
    that is full is passed over)."""
    tables: list[list[str]] = [[] for _ in sizes]
    turn = list(range(len(sizes)))
    i = 0
    for person in order:
        while True:
            lap, at = divmod(i, len(sizes))
            t = turn[at] if lap % 2 == 0 else turn[-1 - at]
            i += 1
            if len(tables[t]) < sizes[t]:
                tables[t].append(person)
                break
    return tables


def in_order(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Deal ``order`` over tables of ``sizes`` one table after the other (score groups)."""
    tables, at = [], 0
    for size in sizes:
        tables.append(list(order[at : at + size]))
        at += size
    return tables


def seat_round(
    people: Sequence[str],
    sizes: Sequence[int],
    points: Mapping[str, float],
    seeds: Mapping[str, float],
    met: Met,
    rng: random.Random,
    apart: Callable[[str, str], bool] | None = None,
    first: bool = False,
) -> list[list[str]]:
    """The tables of one round: ``people`` (each once) over tables of ``sizes`` (summing to
    their number), with few repeated pairs and similar points at each table (module doc).
    ``first``: the first round (a snake by seed)."""
    if sum(sizes) != len(people):
        raise ValueError("the table sizes must seat everyone once")
    order = sorted(people, key=lambda u: (-points.get(u, 0.0), -seeds.get(u, 0.0), u))
    tables = snake(order, sizes) if first else in_order(order, sizes)
    if len(tables) > 1:
        tables = _anneal(tables, points, met, rng, apart)
    return tables


def cost(
    tables: Sequence[Sequence[str]],
    points: Mapping[str, float],
    met: Met,
    apart: Callable[[str, str], bool] | None = None,
) -> float:
    """The seating's cost (module doc): what the annealing lowers."""
    return sum(_table_cost(t, points, met, apart) for t in tables)


def repeats(tables: Sequence[Sequence[str]], met: Met) -> int:
    """Pairs seated together who met before, each earlier meeting counted."""
    return sum(met.get(pair(a, b), 0) for t in tables for i, a in enumerate(t) for b in t[i + 1 :])


def _table_cost(
    table: Sequence[str],
    points: Mapping[str, float],
    met: Met,
    apart: Callable[[str, str], bool] | None,
) -> float:
    total = 0.0
    for i, a in enumerate(table):
        for b in table[i + 1 :]:
            total += REPEAT * met.get(pair(a, b), 0)
            if apart is not None and apart(a, b):
                total += APART
    scores = [points.get(u, 0.0) for u in table]
    mean = sum(scores) / len(scores)
    return total + SPREAD * sum((s - mean) ** 2 for s in scores)


def _anneal(
    tables: list[list[str]],
    points: Mapping[str, float],
    met: Met,
    rng: random.Random,
    apart: Callable[[str, str], bool] | None,
) -> list[list[str]]:
    costs = [_table_cost(t, points, met, apart) for t in tables]
    best, best_cost = [list(t) for t in tables], sum(costs)
    steps = STEPS_PER_PERSON * sum(len(t) for t in tables)
    for step in range(steps):
        temperature = T_START * (T_END / T_START) ** (step / steps)
        x, y = rng.sample(range(len(tables)), 2)
        i, j = rng.randrange(len(tables[x])), rng.randrange(len(tables[y]))
        tx, ty = tables[x], tables[y]
        tx[i], ty[j] = ty[j], tx[i]
        cx, cy = _table_cost(tx, points, met, apart), _table_cost(ty, points, met, apart)
        delta = cx + cy - costs[x] - costs[y]
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            costs[x], costs[y] = cx, cy
            total = sum(costs)
            if total < best_cost - 1e-12:
                best, best_cost = [list(t) for t in tables], total
        else:
            tx[i], ty[j] = ty[j], tx[i]  # back
    return best
