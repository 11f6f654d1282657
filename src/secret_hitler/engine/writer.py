"""The one writer of game records (RECORD-FORMAT.md): ``Game.to_record`` and a host that stored a
game's parts (its fixings, actions and result: the server) write records through it alone."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .settings import RECORD_FORMAT, RECORD_VERSION


def write_record(
    *,
    rules: Any,
    players: int | Sequence[str],
    roles: Sequence[str],
    first_president: int,
    deck: Sequence[str],
    reshuffles: Sequence[Sequence[str]],
    actions: Iterable[Mapping[str, Any]],
    seed: int | None = None,
    winner: str | None = None,
    reason: str | None = None,
    talk: Iterable[Mapping[str, Any]] | None = None,
    winners: Sequence[int] | None = None,
    table: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A record from JSON parts: ``rules`` in record form (``Rules.record_form``), ``players`` a
    seat count or the names, roles and policies by name, ``actions`` as ``Action.to_json``
    writes them; ``seed`` only when the game had one, the result only once there is a winner
    (with ``winners``, the seats that won, where the game names them: a Monarchist is dealt);
    ``talk`` (the lines said at the table, docs/engine.md "Talk") and ``table`` (the table's
    settings that change no rule: chat, blind, aliases, turn timer, category; docs/engine.md
    "Table settings") only when given."""
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": rules,
        "players": players if isinstance(players, int) else list(players),
        "roles": list(roles),
        "first_president": first_president,
        "deck": list(deck),
        "reshuffles": [list(pile) for pile in reshuffles],
    }
    if seed is not None:
        record["seed"] = seed
    record["actions"] = [dict(a) for a in actions]
    if talk is not None:
        record["talk"] = [dict(t) for t in talk]
    if table is not None:
        record["table"] = dict(table)
    if winner is not None:
        record["result"] = {"winner": winner, "reason": reason}
        if winners is not None:
            record["result"]["winners"] = list(winners)
    return record


def with_talk(record: Mapping[str, Any], talk: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """A copy of ``record`` (``Game.to_record()``, or any record) with ``talk`` as its talk
    section, right after ``actions`` as ``write_record`` places it (any earlier one replaced)."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key != "talk":
            out[key] = value
        if key == "actions":
            out["talk"] = [dict(t) for t in talk]
    if "talk" not in out:
        out["talk"] = [dict(t) for t in talk]
    return out


__all__ = ["with_talk", "write_record"]
