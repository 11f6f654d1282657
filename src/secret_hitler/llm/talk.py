"""Chat lines a model says at the table: bounded in length and in rate.

A line is plain text (control characters removed, white space folded, cut to ``max_chars``)
or a structured talk line of ``secret_hitler.talk`` (its JSON form, checked there), which each
listener's prompt renders in its own language. A host delivers other seats' lines with
``LLMAgent.hear`` and collects the model's with ``LLMAgent.take_chat`` (the arena's
``Channel`` does both for a game).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line said at the table: by ``seat``, once ``at`` events had happened (the
    speaker's own count, so a prompt can put it in the history where it was said)."""

    seat: int
    text: str  # as said (a talk line: rendered in the speaker's language)
    at: int
    round: int = 0
    line: dict[str, Any] | None = None  # a structured talk line's JSON form

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "text": self.text, "at": self.at}
        out["round"] = self.round
        if self.line is not None:
            out["line"] = self.line
        return out


def bound_line(text: str, max_chars: int) -> str | None:
    """``text`` as a chat line: printable, one line, at most ``max_chars``; None if empty."""
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or not unicodedata.category(ch).startswith("C")
    )
    line = " ".join(kept.split())[:max_chars].strip()
    return line or None


class RateLimit:
    """At most ``per_round`` lines in one round of the game."""

    def __init__(self, per_round: int) -> None:
        self.per_round = per_round
        self._round = -1
        self._said = 0

    def allow(self, round_: int) -> bool:
        if round_ != self._round:
            self._round, self._said = round_, 0
        if self._said >= self.per_round:
            return False
        self._said += 1
        return True


__all__ = ["ChatLine", "RateLimit", "bound_line"]
