"""What was said at a table: one entry of a record's talk section, and the signals a line gives.

``Said`` is a line said by a seat (or a person without one) once ``after`` actions had been
played: a structured talk line or a free text. Its JSON form is the record's talk entry
(docs/engine.md, "Talk"; the engine checks the envelope, ``Said.from_json`` the line too).

``signals(line)`` reads a line as what it says about seats: accusations, trust and Hitler
guesses, each with its certainty. Listening bots weigh them as evidence, the research
environment encodes them; both read them here, so a line means the same to both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .lines import (
    HEDGED,
    KNOWN,
    Accuse,
    Answer,
    CallOut,
    Conflict,
    Correct,
    ExplainVote,
    HitlerGuess,
    InvalidLine,
    Line,
    Suggest,
    Trust,
    line_from_json,
)

ACCUSE = "accuse"
TRUST = "trust"
HITLER = "hitler"
STANCES = (ACCUSE, TRUST, HITLER)


@dataclass(frozen=True, slots=True)
class Said:
    """One line said at the table. ``seat`` None: a person without a seat (``name``)."""

    seat: int | None
    after: int  # actions played when it was said (0: before the first)
    line: Line | None = None
    text: str | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        if (self.line is None) == (self.text is None):
            raise InvalidLine("a talk entry holds exactly one of a structured line and a text")

    def to_json(self) -> dict[str, Any]:
        """The record's talk entry."""
        out: dict[str, Any] = {"after": self.after, "seat": self.seat}
        if self.name is not None:
            out["name"] = self.name
        if self.line is not None:
            out["line"] = self.line.to_json()
        else:
            out["text"] = self.text
        return out

    @staticmethod
    def from_json(data: Any, *, players: int | None = None) -> Said:
        """A record's talk entry (its envelope checked by the engine's ``parse_talk``); the
        structured line is checked here (``InvalidLine``)."""
        if not isinstance(data, dict):
            raise InvalidLine("a talk entry must be a JSON object")
        raw = data.get("line")
        line = None if raw is None else line_from_json(raw, players=players)
        return Said(
            data.get("seat"), data.get("after", 0), line, data.get("text"), data.get("name")
        )


@dataclass(frozen=True, slots=True)
class Signal:
    """The speaker's stance on ``target``: ``accuse``, ``trust`` or ``hitler`` (a guess)."""

    stance: str
    target: int
    certainty: str = HEDGED


def signals(line: Line) -> tuple[Signal, ...]:
    """What ``line`` says about seats. A conflict that takes a side trusts that side and
    suspects the other; a vote explained by (dis)trust of a seat says so; an answer says what
    its line says, and so does a correction that says what the speaker did; a claim called out
    as impossible is an accusation the table can check (``known``); whom the speaker would
    nominate is trust. Claims are not signals: they are claims (the engine's, or read as
    such)."""
    if isinstance(line, (Answer, Correct)):
        return () if line.line is None else signals(line.line)
    if isinstance(line, CallOut):
        return (Signal(ACCUSE, line.target, KNOWN),)
    if isinstance(line, Suggest):
        return (Signal(TRUST, line.target),)
    if isinstance(line, Accuse):
        return (Signal(ACCUSE, line.target, line.certainty),)
    if isinstance(line, Trust):
        return (Signal(TRUST, line.target, line.certainty),)
    if isinstance(line, HitlerGuess):
        return (Signal(HITLER, line.target, line.certainty),)
    if isinstance(line, Conflict) and line.believe is not None:
        other = line.chancellor if line.believe == line.president else line.president
        assert other is not None
        return (Signal(TRUST, line.believe), Signal(ACCUSE, other))
    if isinstance(line, ExplainVote) and line.other is not None:
        stance = TRUST if line.reason == "trust" else ACCUSE
        return (Signal(stance, line.other),)
    return ()


def judges_speaker(line: Line, speaker: int | None) -> bool:
    """Whether ``line`` accuses, trusts or names as Hitler its own ``speaker`` ("I trust Qwen
    3" said by Qwen 3): said of oneself, such a line tells the table nothing (a conflict's side
    the speaker takes is his own story, and is kept)."""
    if speaker is None:
        return False
    if isinstance(line, (Answer, Correct)):
        return line.line is not None and judges_speaker(line.line, speaker)
    if isinstance(line, (Accuse, Trust, HitlerGuess, CallOut, Suggest)):
        return line.target == speaker
    return isinstance(line, ExplainVote) and line.other == speaker


__all__ = ["ACCUSE", "HITLER", "STANCES", "TRUST", "Said", "Signal", "judges_speaker", "signals"]
