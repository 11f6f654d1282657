"""Fan-out: the frames a table sends to its connections.

Each text is built once per kind of recipient (a seat, the spectators, members or not) and
handed to every connection of that kind. Frames that carry a seat's secrets are padded so that
their length tells nothing (docs/security.md "Frame sizes"): every recipient of one update gets a
frame of one length, and a welcome's length follows from public facts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from ...engine import Action, Game, game_from_record
from ...talk.narrate import Narrations
from ..core import protocol as P
from .conn import Conn
from .updates import SeatUpdates, pad_bytes, welcome_length

K = TypeVar("K", bound=Hashable)


@dataclass(slots=True)
class Ack:
    """The acknowledgement an action's sender waits for (``conn``, its message ``id``):
    ``folded`` once the update it caused carried it (``Conn.acks_in_updates``)."""

    conn: Conn
    id: str
    folded: bool = False


def send_all(conns: Iterable[Conn], frame: bytes) -> None:
    """One frame to every ready connection."""
    for c in conns:
        if c.ready:
            c.send(frame)


def send_detail(
    conns: Iterable[Conn], key: Callable[[Conn], K], detail: Callable[[K], dict[str, Any]]
) -> None:
    """The table detail to every ready connection, one text per ``key`` (who the detail is
    for: members see the invite, others do not; a blind table's people see their own seat)."""
    texts: dict[K, bytes] = {}
    for c in conns:
        if not c.ready:
            continue
        k = key(c)
        if k not in texts:
            texts[k] = P.encode(P.table_msg(detail(k)))
        c.send(texts[k])


def send_update(
    conns: Iterable[Conn],
    game: Game,
    seq: int,
    ev_from: int,
    action: Action | None,
    by: str | None,
    deadline: float | None,
    waits: dict[str, float] | None = None,
    ack: Ack | None = None,
    chat: str = "free",
    narration: Narrations | None = None,
) -> list[Conn]:
    """Each ready connection's ``update`` after an action; the connections it went to.

    Each seat's text is built and encoded once, only for seats that have a connection
    (spectators: once for all of them, only when someone watches). The sender of the action
    (``ack``) gets its seat's frame with the ``ack`` in it when it asked for that.
    ``narration``: the table's (``SeatUpdates``; while nobody is connected it reads nothing,
    and catches up with the log when someone is)."""
    ready = [c for c in conns if c.ready]
    if ready:
        updates = SeatUpdates(game, seq, ev_from, action, by, deadline, waits, chat, narration)
        frames = updates.frames({c.seat for c in ready})  # one length for every recipient
        actor = ack.conn if ack is not None and ack.conn.acks_in_updates else None
        for c in ready:
            if c is actor and c.seat is not None:
                assert ack is not None
                acked = updates.acked(c.seat, ack.id)
                if acked is not None:
                    c.send_own(acked)
                    ack.folded = True
                    continue
            c.send(frames[c.seat])
    return ready


def padded_welcome(
    welcome: Callable[[int | None | str], dict[str, Any]],
    game: Game | None,
    log: logging.Logger | logging.LoggerAdapter,  # type: ignore[type-arg]
) -> bytes:
    """A welcome's frame (``welcome(seat)``: the message as ``seat`` sees the game, ``"own"``
    for the connection's own seat), padded to a length that only public counts decide (no size
    channel; docs/security.md "Frame sizes")."""
    text = P.encode(welcome("own"))
    if game is None:
        return text
    public = len(P.encode(welcome(None)))
    length = welcome_length(game, public)
    if len(text) > length - 16:
        log.error("welcome over its padded length")
        length = welcome_length(game, len(text))
    return pad_bytes(text, length)


def missed_updates(
    game: Game,
    action_by: list[str | None],
    deadline: float | None,
    seat: int | None,
    since: int,
    waits: dict[str, float] | None = None,
    chat: str = "free",
) -> list[bytes]:
    """The update frames after ``since`` for ``seat``, rebuilt by replaying the game (padded
    like live updates; the last carries the live ``deadline`` and ``waits``; ``chat``: the
    table's chat mode)."""
    current = len(game.actions) + 1
    h = game_from_record(game.to_record(), apply_actions=False)
    narration = Narrations()  # of the replayed log
    acts = game.actions
    start = max(since, 1)
    for a in acts[: start - 1]:
        h.apply(a)
    out = []
    if since == 0:
        live = current == 1
        first = deadline if live else None
        still = waits if live else None
        out.append(SeatUpdates(h, 1, 0, None, None, first, still, chat, narration).text(seat))
    for k in range(start + 1, current + 1):
        ev = len(h.events)
        a = acts[k - 2]
        h.apply(a)
        live = k == current
        last, still = (deadline, waits) if live else (None, None)
        update = SeatUpdates(h, k, ev, a, action_by[k - 2], last, still, chat, narration)
        out.append(update.text(seat))
    return out
