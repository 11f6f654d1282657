"""Research API: a PettingZoo AEC environment (``pip install -e .[rl]``). See docs/env.md."""

from .aec import SecretHitlerEnv, env, raw_env
from .encoding import (
    ACTION_TABLE,
    ACTIONS,
    NUM_ACTIONS,
    Layout,
    SeatEncoder,
    TableEncoder,
    action_index,
    describe_layout,
    encode_view,
)

__all__ = [
    "ACTIONS",
    "ACTION_TABLE",
    "NUM_ACTIONS",
    "SeatEncoder",
    "TableEncoder",
    "Layout",
    "SecretHitlerEnv",
    "action_index",
    "describe_layout",
    "encode_view",
    "env",
    "raw_env",
]
