"""The agent interface shared by the simulator, the server's bot seats and external programs.

An agent is created for one seat of one game and then asked, again and again, for a decision:
it receives that seat's ``View`` (never the game itself) and the seat's legal actions, and returns
one of them. Keeping the agent away from the ``Game`` object is what guarantees that a bot cannot
see anything outside its view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..engine import Action, View


class Agent:
    """Base class: subclasses override ``act``."""

    name = "base"

    def __init__(self, seat: int, rng: random.Random | None = None) -> None:
        self.seat = seat
        self.rng = rng if rng is not None else random.Random()

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        raise NotImplementedError


AgentFactory = Callable[[int, random.Random], Agent]
_REGISTRY: dict[str, AgentFactory] = {}


def register(name: str, factory: AgentFactory) -> None:
    _REGISTRY[name] = factory


def available_bots() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def make_agent(name: str, seat: int, seed: int | None = None) -> Agent:
    """A new agent of the named level for ``seat``; raises ``ValueError`` for an unknown name."""
    _load_builtin()
    if name not in _REGISTRY:
        raise ValueError(f"unknown bot {name!r}; available: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[name](seat, random.Random(seed))


def _load_builtin() -> None:
    # Imported lazily so that the registry has no import cycle with the bot modules.
    from . import random_bot  # noqa: F401

    try:
        from . import rule  # noqa: F401
    except ImportError:
        pass
    try:
        from . import bayes  # noqa: F401
    except ImportError:
        pass
