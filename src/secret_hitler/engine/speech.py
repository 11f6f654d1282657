"""Who may speak at the table, and when: the one speech rule of every host.

During a game only the living players talk, and the president and the chancellor keep quiet
through their legislative session (phases ``discard``, ``enact``, ``veto_response``): what they
hold is secret until they choose to claim it, after the session (docs/engine.md "Claims").
Spectators watch without talking. Before the deal and once the game is over, the table is free.
During Avalon SH's assassination (phase ``assassinate``) every seated player may talk, the dead
too, as on secrethitler.io: the table argues with Hitler over who is Merlin. A silent table
(the table setting ``chat: "silent"``, docs/game-types.md) keeps its seated players quiet while
the game runs; claims, which are actions, stay open to them.

The server's chat (``server/table/chat.py``, and bots' lines in ``table/session.py``), the
simulator's talk loop (``bots.base.TableTalk``), the bots' own voice (``bots/voice.py``) and the
research environment's talk channel (``env/aec.py`` ``say``) all ask ``silenced`` or
``may_speak`` here; ``View.may_speak`` is the seat's own answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

#: The phases of a legislative session, when its government may not speak.
LEGISLATIVE_PHASES = frozenset({"discard", "enact", "veto_response"})

#: Why a seat may not speak now (``silenced``): the server's ``chat_forbidden`` details.
SPECTATOR, DEAD, LEGISLATIVE_SESSION = "spectator", "dead", "legislative_session"
SILENT_GAME = "silent_game"
#: The phase in which every seated player may speak, the dead included.
ASSASSINATION_PHASE = "assassinate"


class Table(Protocol):
    """What the rule reads of a game (``Game``) or of a seat's ``View``."""

    @property
    def phase(self) -> str: ...

    @property
    def alive(self) -> Sequence[bool]: ...

    @property
    def president(self) -> int | None: ...

    @property
    def chancellor(self) -> int | None: ...

    @property
    def winner(self) -> str | None: ...


def silenced(table: Table, seat: int | None, chat: str = "free") -> str | None:
    """Why ``seat`` (None: a spectator) may not speak now: ``SPECTATOR``, ``SILENT_GAME`` (a
    table whose ``chat`` is ``"silent"``), ``DEAD`` or ``LEGISLATIVE_SESSION``; None when it may
    (and whenever the game is over)."""
    if table.winner is not None:
        return None
    if seat is None:
        return SPECTATOR
    if chat == "silent":
        return SILENT_GAME
    if str(table.phase) == ASSASSINATION_PHASE:
        return None
    if not table.alive[seat]:
        return DEAD
    # str(): a ``Phase`` member hashes by its name, not by its value
    if str(table.phase) in LEGISLATIVE_PHASES and seat in (table.president, table.chancellor):
        return LEGISLATIVE_SESSION
    return None


def may_speak(table: Table, seat: int | None, chat: str = "free") -> bool:
    """Whether ``seat`` may speak at the table now (``silenced`` gives the reason it may not)."""
    return silenced(table, seat, chat) is None


__all__ = [
    "ASSASSINATION_PHASE",
    "DEAD",
    "SILENT_GAME",
    "LEGISLATIVE_PHASES",
    "LEGISLATIVE_SESSION",
    "SPECTATOR",
    "Table",
    "may_speak",
    "silenced",
]
