"""Table talk: what seats say, in words in five languages, and what people's chat lines mean.

``lines``: the structured talk line (``Claim``, ``Accuse``, ``Trust``, ...) and its JSON form;
``phrases``: each line in words (``message`` for clients, ``render`` for text); ``recognise``:
claims and signals read from a chat line. Standard library only; docs/talk.md.
"""

from .lines import (
    CERTAINTIES,
    HEDGED,
    KINDS,
    KNOWN,
    QUESTION_TOPICS,
    REASONS,
    Accuse,
    Answer,
    CallOut,
    Claim,
    Conflict,
    Correct,
    Defend,
    ExplainNomination,
    ExplainVote,
    HitlerGuess,
    InvalidLine,
    Line,
    MerlinGuess,
    Question,
    RoleClaim,
    Suggest,
    Trust,
    line_from_json,
)
from .phrases import LANGUAGES, Message, SeatRef, catalog, message, render, render_message
from .recognise import Context, recognise

__all__ = [
    "CERTAINTIES",
    "HEDGED",
    "KINDS",
    "KNOWN",
    "LANGUAGES",
    "QUESTION_TOPICS",
    "REASONS",
    "Accuse",
    "Answer",
    "CallOut",
    "Claim",
    "Conflict",
    "Correct",
    "Context",
    "Defend",
    "ExplainNomination",
    "ExplainVote",
    "HitlerGuess",
    "InvalidLine",
    "Line",
    "MerlinGuess",
    "Message",
    "Question",
    "RoleClaim",
    "SeatRef",
    "Suggest",
    "Trust",
    "catalog",
    "line_from_json",
    "message",
    "recognise",
    "render",
    "render_message",
]
