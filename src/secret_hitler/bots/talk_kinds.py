"""How a player who counts kinds of line reads a seat: the tells of the talk itself.

A strong player who has played a few games with the bots does not only weigh whom a line
names (``bots.listening``); he learns how often each team says each kind of line, and in what
situation: "it defends itself a lot", "it explains every Nein", "it accuses seats with a
liberal record", "it hits back at whoever accused it" (``secret-hitler evaluate tells``
measures exactly that, ``sim/tells.py``). ``KindTells`` is that reader: for each kind of line
with its reason and the standing of the seat it names (``tell_key``), the log-ratio of how
often a fascist-party seat says it to how often a liberal does, per seat and game, fitted on
self-play (``benchmarks/fit_talk_kinds.py``, ``bots/data/talk_kinds.json``).

A fascist's voice prices every line it is about to say by it (``talk_value.team_judge``): what
such a reader would then believe of the speaker is part of what the line costs its team, next
to what the listeners' model makes of whom it names. Refitted on games where fascists talk that
way, kinds they said too often become cheaper, so the fit is run to a fixed point.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.public import PublicState
from ..talk import lines as talk
from ..talk.said import signals
from .listening import record

#: The committed reader (absent: no kind is a tell).
TALK_KINDS_FILE = Path(__file__).resolve().parent / "data" / "talk_kinds.json"
#: A kind's log-ratio is clipped to this (a kind seen a few times proves little).
MAX_LOG_RATIO = 2.0
#: Lines added to both teams' counts of each key before the ratio (shrinks rare keys to 0).
PSEUDO_LINES = 2.0


def _inner(line: talk.Line) -> talk.Line:
    return line.line if isinstance(line, talk.Answer) else line


def line_kind(line: talk.Line) -> str | None:
    """The kind of a line as a player tells lines apart ("accuse.hedged", "hitler_guess",
    "explain_vote.nein", "conflict.side", ...); an answer counts as the line it holds. None for
    a claim: claims are moves (the engine's claim actions, which the claim lines repeat)."""
    line = _inner(line)
    if isinstance(line, talk.Claim):
        return None
    if isinstance(line, (talk.Accuse, talk.Trust)):
        return f"{line.kind}.{line.certainty}"
    if isinstance(line, talk.ExplainVote):
        return f"explain_vote.{'ja' if line.ja else 'nein'}"
    if isinstance(line, talk.Conflict):
        return "conflict.side" if line.believe is not None else "conflict.none"
    if isinstance(line, talk.Question):
        return f"question.{line.topic}"
    return line.kind


def line_detail(line: talk.Line) -> str | None:
    """``line_kind`` with the line's reason, where it has one ("accuse.hedged.enacted_fascist")."""
    kind = line_kind(line)
    if kind is None:
        return None
    reason = getattr(_inner(line), "reason", None)
    return kind if reason is None else f"{kind}.{reason}"


def standing(
    table: PublicState, accused: Mapping[int, Sequence[int]], speaker: int, target: int
) -> str:
    """What the table knows of ``target`` as ``speaker`` names it: it accused the speaker
    before ("accused_me", the hitting back a reader notices first), else its record
    (``listening.record``: fascist_record, liberal_record, accused, none)."""
    if target in accused.get(speaker, ()):
        return "accused_me"
    return record(table, accused.get(target, ()), speaker, target)


def tell_key(
    line: talk.Line, speaker: int, table: PublicState, accused: Mapping[int, Sequence[int]]
) -> str | None:
    """What a reader who counts kinds notes of ``line`` from ``speaker``: its kind and reason
    and, when it names another seat, that seat's standing (``standing``); None for a claim."""
    detail = line_detail(line)
    if detail is None:
        return None
    targets = [s.target for s in signals(_inner(line)) if s.target != speaker]
    if not targets:
        return detail
    return f"{detail}@{standing(table, accused, speaker, targets[0])}"


@dataclass(frozen=True, slots=True)
class KindTells:
    """The reader: ``log_ratio[key]`` = log(a fascist-party seat's lines of ``key`` a game over
    a liberal's), clipped to ``MAX_LOG_RATIO``; a key not in it tells nothing."""

    log_ratio: Mapping[str, float] = field(default_factory=dict)

    def shift(self, keys: Sequence[str | None]) -> float:
        """The log-odds of "fascist party" a reader adds on hearing lines of ``keys``."""
        return sum(self.log_ratio.get(k, 0.0) for k in keys if k is not None)

    @staticmethod
    def fit(counts: Mapping[str, Mapping[str, float]], seats: Mapping[str, int]) -> KindTells:
        """From lines of each key by team (``counts[key]["fascist" | "liberal"]``) and the
        seats of each team (``seats``)."""
        out = {}
        fas_seats, lib_seats = max(1, seats.get("fascist", 0)), max(1, seats.get("liberal", 0))
        for key, by_team in counts.items():
            fas = (by_team.get("fascist", 0.0) + PSEUDO_LINES) / fas_seats
            lib = (by_team.get("liberal", 0.0) + PSEUDO_LINES) / lib_seats
            ratio = math.log(fas / lib)
            out[key] = round(max(-MAX_LOG_RATIO, min(MAX_LOG_RATIO, ratio)), 4)
        return KindTells(out)

    def to_json(self) -> dict[str, Any]:
        return {"log_ratio": dict(sorted(self.log_ratio.items()))}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> KindTells:
        ratios = data.get("log_ratio", {})
        if not isinstance(ratios, Mapping):
            raise ValueError("talk kinds: log_ratio must be an object")
        return KindTells({str(k): float(v) for k, v in ratios.items()})


def load(path: Path = TALK_KINDS_FILE) -> KindTells:
    """The reader in ``path`` (none there: a reader that reads nothing)."""
    if not path.exists():
        return KindTells()
    return KindTells.from_json(json.loads(path.read_text(encoding="utf-8")))


KIND_TELLS = load()

__all__ = [
    "KIND_TELLS",
    "MAX_LOG_RATIO",
    "TALK_KINDS_FILE",
    "KindTells",
    "line_detail",
    "line_kind",
    "load",
    "standing",
    "tell_key",
]
