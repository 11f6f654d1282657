"""The people's games the evaluations read: secrethitler.io's finished games as records, each
replayed action by action, and the fixed split of them into halves (``game_half``: what is fitted
to people uses ``train``, what is reported comes from ``test``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..bots.base import bot_problem
from ..datasets import FileProblem, reading, secrethitler_io_sample
from ..engine import Action, Game, Rules, game_from_record


class EvaluateError(Exception):
    """The input cannot be used (missing file, not JSONL, unknown bot): exit 2 with the message."""


#: The game types whose games the evaluations leave out: they deal roles or end games in ways
#: the bots' models of people were not fitted on (docs/game-types.md); a rebalanced table is
#: only another deck, and stays.
UNMODELLED_GAME_TYPES = {"avalon": "off", "monarchist": False, "top_decking": "allowed"}


def modelled(record: dict[str, Any]) -> bool:
    """Whether ``record``'s rules play none of ``UNMODELLED_GAME_TYPES``."""
    rules = Rules.from_json(record.get("rules"))
    return all(getattr(rules, name) == off for name, off in UNMODELLED_GAME_TYPES.items())


def load_records(path: Path | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    """The finished games of a secrethitler.io JSONL file (plain or gzip; default: the project's
    sample) as records, unconvertible ones and those of ``UNMODELLED_GAME_TYPES`` skipped."""
    from ..importers.secrethitler_io import BadSummary, iter_records

    if path is None:
        try:
            path = secrethitler_io_sample()
        except FileNotFoundError as exc:
            raise EvaluateError(str(exc)) from None
    out: list[dict[str, Any]] = []
    try:
        with reading(path) as fh:
            for converted in iter_records(fh):
                record = converted.record
                if record is None or "result" not in record or not modelled(record):
                    continue
                out.append(record)
                if limit is not None and len(out) >= limit:
                    break
    except FileProblem as exc:
        raise EvaluateError(str(exc)) from None
    except BadSummary as exc:
        raise EvaluateError(f"{path}: {exc}") from None
    return out


def check_bot(bot: str) -> None:
    problem = bot_problem(bot)
    if problem is not None:
        raise EvaluateError(problem)


def replay(record: dict[str, Any]) -> Iterator[tuple[Game, Action]]:
    """Yield (game before the action, action) for each recorded action, then apply it."""
    game = game_from_record(record, apply_actions=False)
    for raw in record.get("actions", []):
        action = Action.from_json(raw)
        yield game, action
        game.apply(action)


def game_half(record: dict[str, Any], index: int = 0) -> str:
    """The fixed split of real games: ``train`` or ``test`` by the low bit of a blake2b hash of
    the secrethitler.io game id (the record's index when it has none). Anything fitted to people
    (``benchmarks/fit_vote_model.py``, ``fit_human_model.py``) uses ``train`` only; the
    reported figures come from ``test``."""
    import hashlib

    gid = str(record.get("source", {}).get("id", index))
    return ("train", "test")[hashlib.blake2b(gid.encode(), digest_size=8).digest()[0] & 1]


def selected(
    records: Iterable[dict[str, Any]], half: str, players: int | None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """The games of ``half`` (``game_half`` of each record's index) at ``players`` players
    (any count when ``None``), each with its index among all ``records`` (its seed offset)."""
    if half not in ("all", "train", "test"):
        raise EvaluateError(f"--half: 'train', 'test' or 'all', not {half[:20]!r}")
    for gi, record in enumerate(records):
        if half != "all" and game_half(record, gi) != half:
            continue
        if players is not None and len(record.get("roles") or ()) != players:
            continue
        yield gi, record
