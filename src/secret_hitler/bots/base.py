"""The agent interface shared by the simulator, the server's bot seats and external programs.

An agent is created for one seat of one game and then asked, again and again, for a decision:
it receives that seat's ``View`` (never the game itself) and the seat's legal actions, and returns
one of them. Keeping the agent away from the ``Game`` object is what guarantees that a bot cannot
see anything outside its view.

Claim protocol. Claims (``Action`` of type ``claim``: the president's 3 drawn policies, the
chancellor's 2 received policies, a peek, an investigation result) are optional statements
that may be true or false (RULES.md A9). They are never a seat's turn, so a caller does not
mix them into ``act``: after every applied action it asks each seat that has claim actions
among its legal actions ``claims(view, options)``, where ``options`` are exactly those claim
actions; the agent returns the claims it makes now (possibly none, at most one per subject).
A seat that declines is asked again after the next applied action, until the window closes at
the next nomination, so a chancellor can wait for the president's claim. The default is to
claim nothing. ``act`` may still receive claim actions from a caller that passes the full legal
list (the server); an agent may ignore them and pick its turn action.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence

from ..engine import Action, View


class Agent:
    """Base class: subclasses override ``act`` and, to make claims, ``claims``."""

    name = "base"

    def __init__(self, seat: int, rng: random.Random | None = None) -> None:
        self.seat = seat
        self.rng = rng if rng is not None else random.Random()

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """The seat's decision: one of ``legal`` (never empty)."""
        raise NotImplementedError

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        """Claims to make now, chosen from ``options`` (claim actions only); default: none."""
        return []


AgentFactory = Callable[[int, random.Random], Agent]
_REGISTRY: dict[str, AgentFactory] = {}

# Bot modules loaded on first use; each registers its levels when imported.
_BUILTIN = ("random_bot", "rule", "bayes")


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
    """Import the built-in bot modules lazily (no import cycle with the registry).

    A bot module that does not exist (a level not written yet) is skipped; any other import
    failure, including a missing dependency inside an existing module, is a bug and propagates.
    """
    package = __name__.rsplit(".", 1)[0]
    for module in _BUILTIN:
        full = f"{package}.{module}"
        try:
            importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name != full:
                raise
