"""The rules engine: pure state transitions, per-seat views, records and replay. No I/O."""

from .actions import Action
from .errors import GameError, IllegalAction, InvalidAction, InvalidRecord, InvalidSettings
from .events import Event
from .game import Game
from .record import ReplayResult, game_from_record, parse_record, replay, replay_summary
from .settings import PRESETS, Rules
from .types import Party, Phase, Policy, Power, Reason, Role, Winner
from .view import View
from .writer import write_record

load_record = game_from_record

__all__ = [
    "PRESETS",
    "Action",
    "Event",
    "Game",
    "GameError",
    "IllegalAction",
    "InvalidAction",
    "InvalidRecord",
    "InvalidSettings",
    "Party",
    "Phase",
    "Policy",
    "Power",
    "Reason",
    "ReplayResult",
    "Role",
    "Rules",
    "View",
    "Winner",
    "game_from_record",
    "load_record",
    "parse_record",
    "replay",
    "replay_summary",
    "write_record",
]
