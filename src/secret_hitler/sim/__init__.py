"""Bot-vs-bot simulation: single games, parallel runs, tournaments and their reports."""

from ..stats import wilson
from .simulator import (
    GameResult,
    Lineup,
    Runner,
    SimConfig,
    SimulationError,
    Summary,
    game_seed,
    play_game,
    simulate,
    summarize,
    tournament,
)

__all__ = [
    "GameResult",
    "Lineup",
    "Runner",
    "SimConfig",
    "SimulationError",
    "Summary",
    "game_seed",
    "play_game",
    "simulate",
    "summarize",
    "tournament",
    "wilson",
]
