"""Player ratings (openskill's Plackett-Luce model) for two-team Secret Hitler games.

A game is a match of two teams, the liberals and the fascists (Hitler included), ranked by who
won. openskill adds the ratings of a team's members, so a bigger team looks stronger, and the
real game is not even: how often the liberals win depends on the player count. Both are
corrected by one **virtual fascist member** whose fixed rating (the handicap ``h(n)``) is chosen
so that, with every player at the default rating, openskill's own ``predict_win`` gives the
liberals exactly the win rate measured in real games (``data/team-balance.json``, written by
``scripts/fit_team_balance.py`` from the secrethitler.io sample). The virtual member's own update
is thrown away. docs/ratings.md explains the method.

Everything here needs the ``server`` extra (openskill); callers check with ``extras.require``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .engine.settings import PLAYER_COUNTS

DATA = Path(__file__).resolve().parent / "data"
TEAM_BALANCE = DATA / "team-balance.json"
BOT_RATINGS = DATA / "bot-ratings.json"
PLAYERS = PLAYER_COUNTS  # the player counts of rated games: every count the rules know
VIRTUAL_SIGMA = 1e-3  # the handicap member is (almost) certain: it adds no uncertainty


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The displayed rating: a cautious estimate (mu - 3 sigma), 0 for a new player."""
        return self.mu - 3 * self.sigma


@functools.cache
def model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def default() -> Rating:
    m = model()
    return Rating(m.mu, m.sigma)


@functools.cache
def liberal_win_rates(path: Path = TEAM_BALANCE) -> dict[int, float]:
    """Player count -> the liberals' win rate in real games (the fitted, smoothed estimate)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    rates = {int(n): float(v["liberal_win_rate"]) for n, v in data["player_counts"].items()}
    missing = [n for n in PLAYERS if n not in rates]
    if missing:
        raise ValueError(f"{path.name}: no liberal win rate for {missing} players")
    return rates


def team_sizes(players: int) -> tuple[int, int]:
    """(liberals, fascists incl. Hitler) at an official table of ``players``."""
    fascists = (players - 1) // 2
    return players - fascists, fascists


@functools.cache
def handicap(players: int) -> float:
    """The virtual fascist member's mu for ``players``: openskill's prediction for two teams of
    default players (plus that member) equals the measured liberal win rate."""
    if players not in PLAYERS:
        raise ValueError(
            f"rated games have {PLAYERS.start}-{PLAYERS.stop - 1} players, not {players}"
        )
    m = model()
    target = liberal_win_rates()[players]
    libs, fas = team_sizes(players)
    lib_team = [m.rating() for _ in range(libs)]
    fas_team = [m.rating() for _ in range(fas)]

    def p_liberal(h: float) -> float:
        virtual = m.rating(mu=h, sigma=VIRTUAL_SIGMA)
        return float(m.predict_win([lib_team, [*fas_team, virtual]])[0])

    lo, hi = -500.0, 500.0  # p_liberal falls as h grows
    for _ in range(100):
        mid = (lo + hi) / 2
        if p_liberal(mid) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def rate_game(
    liberals: Sequence[Rating], fascists: Sequence[Rating], liberals_won: bool
) -> tuple[list[Rating], list[Rating]]:
    """The new ratings of both teams after one game (the handicap of their player count)."""
    players = len(liberals) + len(fascists)
    m = model()
    lib = [m.rating(mu=r.mu, sigma=r.sigma) for r in liberals]
    fas = [m.rating(mu=r.mu, sigma=r.sigma) for r in fascists]
    virtual = m.rating(mu=handicap(players), sigma=VIRTUAL_SIGMA)
    ranks = [0, 1] if liberals_won else [1, 0]
    new_lib, new_fas = m.rate([lib, [*fas, virtual]], ranks=ranks)
    return (
        [Rating(p.mu, p.sigma) for p in new_lib],
        [Rating(p.mu, p.sigma) for p in new_fas[:-1]],  # the virtual member's update: dropped
    )


def expected_liberal_win(liberals: Sequence[Rating], fascists: Sequence[Rating]) -> float:
    """openskill's prediction that these liberals beat these fascists (handicap included)."""
    m = model()
    players = len(liberals) + len(fascists)
    lib = [m.rating(mu=r.mu, sigma=r.sigma) for r in liberals]
    fas = [m.rating(mu=r.mu, sigma=r.sigma) for r in fascists]
    virtual = m.rating(mu=handicap(players), sigma=VIRTUAL_SIGMA)
    return float(m.predict_win([lib, [*fas, virtual]])[0])


def bot_ratings(path: Path = BOT_RATINGS) -> list[dict[str, Any]]:
    """The bot levels' public ratings (``secret-hitler ratings bots``), best first; [] if none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    out = [
        {
            "level": level,
            "mu": round(v["mu"], 3),
            "sigma": round(v["sigma"], 3),
            "rating": round(v["mu"] - 3 * v["sigma"], 2),
            "games": v["games"],
        }
        for level, v in data["levels"].items()
    ]
    out.sort(key=lambda e: e["rating"], reverse=True)
    return out
