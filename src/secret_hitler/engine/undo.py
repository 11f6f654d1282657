"""Copies of a game's state: ``Game.clone`` (an independent game) and the snapshots behind
``Game.push``/``Game.pop`` (python-chess's undo).

A game's state is its slots, and each slot holds an immutable value (shared), or a list, a set or
a dict (copied, a dict's values too): a new slot that holds anything else must be added here.
The logs only ever grow (``Game.LOGS``: the events, the actions, the reshuffles), so a snapshot
keeps their lengths and cuts them back, and costs the small state only, however long the game.
The seeded generator is saved only when the game says it may draw before the next step (a
saved state is 625 numbers). A game's observer is derived from its log and is not state.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return value[:]
    if kind is set:
        return set(value)
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    return value


_COPIED = frozenset({list, set, dict})
_READERS: dict[type, tuple[attrgetter[Any], attrgetter[Any]]] = {}


def _readers(game: Game) -> tuple[attrgetter[Any], attrgetter[Any]]:
    """Readers of all of a game's state slots and of its logs at once (a server pushes every
    action it commits: one C call each instead of a ``getattr`` per slot)."""
    kind = type(game)
    got = _READERS.get(kind)
    if got is None:
        got = _READERS[kind] = (attrgetter(*game.STATE), attrgetter(*game.LOGS))
    return got


class Snapshot:
    """The state of a game at one moment, to be put back by ``restore``."""

    __slots__ = ("values", "lengths", "rng")

    def __init__(self, game: Game, save_rng: bool) -> None:
        state, logs = _readers(game)
        self.values = tuple([_copy(v) if type(v) in _COPIED else v for v in state(game)])
        self.lengths = tuple([len(log) for log in logs(game)])
        rng = game._rng
        self.rng = rng.getstate() if save_rng and rng is not None else None

    def restore(self, game: Game) -> None:
        """Put ``game`` back as it was (the logs cut back in place). A snapshot restores once:
        its copies become the game's own."""
        for name, value in zip(game.STATE, self.values, strict=True):
            setattr(game, name, value)
        for name, length in zip(game.LOGS, self.lengths, strict=True):
            del getattr(game, name)[length:]
        if self.rng is not None:
            assert game._rng is not None
            game._rng.setstate(self.rng)


def copy_state(game: Game, other: Game) -> None:
    """Make ``other`` (an empty ``Game.__new__``) an independent copy of ``game``."""
    for name in game.STATE:
        setattr(other, name, _copy(getattr(game, name)))
    for name in game.LOGS:
        setattr(other, name, list(getattr(game, name)))
    rng = game._rng
    if rng is not None:
        other._rng = random.Random()
        other._rng.setstate(rng.getstate())
    else:
        other._rng = None
