"""Player ratings (openskill's Plackett-Luce model) for two-team Secret Hitler games.

A game is a match of two teams, the liberals and the fascists (Hitler included), ranked by who
won. openskill adds the ratings of a team's members, so a bigger team looks stronger, and the
real game is not even: how often the liberals win depends on the player count. Both are
corrected by one **virtual fascist member** whose fixed rating (the handicap ``h(n)``) is chosen
so that, with every player at the default rating, openskill's own ``predict_win`` gives the
liberals exactly the win rate measured in real games (``data/team-balance.json``, written by
``scripts/fit_team_balance.py`` from the secrethitler.io sample). The virtual member's own update
is thrown away. docs/ratings.md explains the method.

The liberals' win rate also depends on the rules preset (secrethitler.io's preset lets the
chancellor choose before asking for a veto and keeps a fascist from executing Hitler): a rated
preset other than the official rules shifts the measured rate by the difference, in log-odds,
that paired bot games of both presets show at each player count (``data/preset-balance.json``,
written by ``scripts/fit_preset_balance.py``; docs/competitive.md "The faction correction").

Everything here needs the ``server`` extra (openskill); callers check with ``extras.require``.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .engine.settings import PLAYER_COUNTS

DATA = Path(__file__).resolve().parent / "data"
TEAM_BALANCE = DATA / "team-balance.json"
BOT_RATINGS = DATA / "bot-ratings.json"
PRESET_BALANCE = DATA / "preset-balance.json"
OFFICIAL = "official"  # the preset the real games of ``TEAM_BALANCE`` were played with
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


@functools.cache
def preset_shifts(path: Path = PRESET_BALANCE) -> dict[str, dict[int, float]]:
    """Preset -> player count -> the shift of the liberals' log-odds of winning against the
    official rules (``scripts/fit_preset_balance.py``); the official rules shift nothing."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, dict[int, float]] = {OFFICIAL: {n: 0.0 for n in PLAYERS}}
    for preset, fit in data["presets"].items():
        shifts = {int(n): float(v["shift"]) for n, v in fit["player_counts"].items()}
        missing = [n for n in PLAYERS if n not in shifts]
        if missing:
            raise ValueError(f"{path.name}: no shift of {preset!r} for {missing} players")
        out[preset] = shifts
    return out


def rated_presets() -> tuple[str, ...]:
    """The presets whose faction correction is known (a rated game plays one of them)."""
    return tuple(preset_shifts())


def liberal_win_rate(players: int, preset: str = OFFICIAL) -> float:
    """The liberals' expected win rate at ``players`` under ``preset``: the real games' rate
    (``liberal_win_rates``), its log-odds shifted by the preset's fitted shift."""
    shifts = preset_shifts().get(preset)
    if shifts is None:
        raise ValueError(f"no faction correction for the preset {preset!r}")
    base = liberal_win_rates()[players]
    odds = math.log(base / (1 - base)) + shifts[players]
    return 1 / (1 + math.exp(-odds))


def team_sizes(players: int) -> tuple[int, int]:
    """(liberals, fascists incl. Hitler) at an official table of ``players``."""
    fascists = (players - 1) // 2
    return players - fascists, fascists


@functools.cache
def handicap(players: int, preset: str = OFFICIAL) -> float:
    """The virtual fascist member's mu for ``players`` under ``preset``: openskill's prediction
    for two teams of default players (plus that member) equals the liberals' expected win rate
    (``liberal_win_rate``)."""
    if players not in PLAYERS:
        raise ValueError(
            f"rated games have {PLAYERS.start}-{PLAYERS.stop - 1} players, not {players}"
        )
    m = model()
    target = liberal_win_rate(players, preset)
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
    liberals: Sequence[Rating],
    fascists: Sequence[Rating],
    liberals_won: bool,
    preset: str = OFFICIAL,
) -> tuple[list[Rating], list[Rating]]:
    """The new ratings of both teams after one game (the handicap of their player count and
    rules preset)."""
    players = len(liberals) + len(fascists)
    m = model()
    lib = [m.rating(mu=r.mu, sigma=r.sigma) for r in liberals]
    fas = [m.rating(mu=r.mu, sigma=r.sigma) for r in fascists]
    virtual = m.rating(mu=handicap(players, preset), sigma=VIRTUAL_SIGMA)
    ranks = [0, 1] if liberals_won else [1, 0]
    new_lib, new_fas = m.rate([lib, [*fas, virtual]], ranks=ranks)
    return (
        [Rating(p.mu, p.sigma) for p in new_lib],
        [Rating(p.mu, p.sigma) for p in new_fas[:-1]],  # the virtual member's update: dropped
    )


def rate_with_leavers(
    liberals: Sequence[Rating],
    fascists: Sequence[Rating],
    liberals_won: bool,
    preset: str = OFFICIAL,
    left: frozenset[int] = frozenset(),
) -> list[Rating]:
    """Every player's new rating (liberals first, then fascists, as given) when the players at
    positions ``left`` of that order left the game early: a leaver gets the update of a loss
    whatever her team did (``rate_game`` with the other result, her teammates' ratings the
    same); everyone else the game's own update. A leaver cannot gain from a game a bot finished
    for her (docs/competitive.md "Leaving")."""
    new_lib, new_fas = rate_game(liberals, fascists, liberals_won, preset)
    after = new_lib + new_fas
    winners = range(len(liberals)) if liberals_won else range(len(liberals), len(after))
    if left & set(winners):
        lost_lib, lost_fas = rate_game(liberals, fascists, not liberals_won, preset)
        lost = lost_lib + lost_fas
        after = [lost[i] if i in left and i in winners else r for i, r in enumerate(after)]
    return after


def expected_liberal_win(
    liberals: Sequence[Rating], fascists: Sequence[Rating], preset: str = OFFICIAL
) -> float:
    """openskill's prediction that these liberals beat these fascists (handicap included)."""
    m = model()
    players = len(liberals) + len(fascists)
    lib = [m.rating(mu=r.mu, sigma=r.sigma) for r in liberals]
    fas = [m.rating(mu=r.mu, sigma=r.sigma) for r in fascists]
    virtual = m.rating(mu=handicap(players, preset), sigma=VIRTUAL_SIGMA)
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
