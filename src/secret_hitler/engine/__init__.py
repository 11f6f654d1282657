"""The rules engine: pure state transitions, per-seat views, records and replay. No I/O."""

from .actions import Action
from .errors import GameError, IllegalAction, InvalidAction, InvalidRecord, InvalidSettings
from .events import EVENT_TYPES, Event, TypedEvent
from .game import Game
from .public import PublicState
from .record import ReplayResult, game_from_record, parse_record, replay, replay_summary
from .seat import SeatState
from .settings import PRESETS, Rules
from .types import Party, Phase, Policy, Power, Reason, Role, Winner
from .view import View
from .worlds import WorldError, sample_world
from .writer import write_record

load_record = game_from_record

__all__ = [
    "EVENT_TYPES",
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
    "PublicState",
    "Reason",
    "ReplayResult",
    "Role",
    "Rules",
    "SeatState",
    "TypedEvent",
    "View",
    "Winner",
    "WorldError",
    "game_from_record",
    "load_record",
    "parse_record",
    "replay",
    "replay_summary",
    "sample_world",
    "write_record",
]
