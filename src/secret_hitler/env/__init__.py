"""Research API: a PettingZoo AEC environment (``pip install -e .[rl]``). See docs/env.md."""

from .aec import SecretHitlerEnv, env, raw_env
from .encoding import (
    ACTION_TABLE,
    ACTIONS,
    CLAIM_ACTION_TABLE,
    NUM_ACTIONS,
    NUM_ACTIONS_WITH_CLAIMS,
    Layout,
    SeatEncoder,
    TableEncoder,
    action_index,
    claim_action,
    describe_layout,
    encode_view,
    num_actions,
)

__all__ = [
    "ACTIONS",
    "ACTION_TABLE",
    "CLAIM_ACTION_TABLE",
    "NUM_ACTIONS",
    "NUM_ACTIONS_WITH_CLAIMS",
    "SeatEncoder",
    "TableEncoder",
    "Layout",
    "SecretHitlerEnv",
    "action_index",
    "claim_action",
    "describe_layout",
    "encode_view",
    "env",
    "num_actions",
    "raw_env",
]
