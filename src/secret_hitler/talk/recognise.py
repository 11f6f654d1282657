"""Claims and signals in people's chat lines, in the five languages.

``recognise(text, players=7, context=...)`` reads a chat line into talk lines: a ``Claim``
("RRB", "ФФЛ", "红红蓝", "đỏ đỏ xanh", "BBR passed RB", "4 is red" after an investigation),
and the signals ``Accuse``, ``Trust``, ``HitlerGuess``, ``Conflict`` and ``Question``. What a
claim means depends on what the caller knows of the speaker (``Context``): "RB" from a
chancellor is his two, "RRB" from a president his three, "4 is red" from the seat that
investigated 4 its result. The caller offers a claim to the speaker (never makes it for him).

How, in three steps: the line is normalised (NFKC, traditional Chinese to simplified,
invisible characters dropped), cut into words, and each word or phrase is read as a meaning from
``words.py`` (a seat, a colour, "is", "lying", ...): ``reading.py``. The rules work on that row
of meanings, so the five languages share them: the cards and the claim (``read_claims.py``),
then who is what, the questions and conflicts (``read_signals.py``); this module runs them in
that order. The work is bounded (``MAX_CHARS``), and no text makes it raise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .lines import Line
from .read_claims import read_claim, read_groups, use_group
from .read_signals import (
    read_conflict,
    read_judgements,
    read_open_question,
    read_party_lines,
    read_question,
)
from .reading import (
    CLAIM_SIZE,
    MAX_CHARS,
    MAX_TOKENS,
    NO_CONTEXT,
    VIETNAMESE_MARKS,
    Context,
    mark_names,
    normalise,
    tokens,
)

# -- the entry point -------------------------------------------------------------------------


def recognise(
    text: str,
    *,
    players: int,
    names: Sequence[str | None] | None = None,
    lang: str | Iterable[str] | None = None,
    context: Context | None = None,
    first_seat: int = 1,
) -> list[Line]:
    """The claim and signals of one chat line, in the order said, each at most once.

    ``players``: the table's seat count (seats are 0-based; people write them 1-based:
    ``first_seat``, the number the writer gives the first seat, is 0 for a language model,
    whose prompts number seats as the engine does);
    ``names``: display names by seat, since people name players as often as they number
    them; ``lang``: the language the line may be in, or several (the speaker's and the
    table's): Vietnamese among them reads Vietnamese typed without its marks ("toi boc 2 do 1
    xanh", which a line with marks enables too) and words with a mark missing or wrong;
    ``context``: what the speaker may claim (``Context``).
    Any text is safe: the work is bounded and nothing in the text makes it raise."""
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 99:
        raise ValueError(f"players must be a seat count from 1 to 99, not {players!r}")
    if not isinstance(text, str):
        return []
    context = context or NO_CONTEXT
    text = normalise(text)
    langs = {lang} if isinstance(lang, str) else set(lang) if lang is not None else set()
    vietnamese = "vi" in langs or bool(VIETNAMESE_MARKS.search(text.lower()))
    text = mark_names(text, names, vietnamese)
    if first_seat not in (0, 1):
        raise ValueError(f"first_seat must be 0 or 1, not {first_seat!r}")
    toks = tokens(text, players, vietnamese, first_seat)
    size_hint = max((CLAIM_SIZE[s] for s in context.open_claims if s in CLAIM_SIZE), default=None)
    out: list[Line] = []
    groups = read_groups(toks, size_hint)
    claim = read_claim(toks, groups, context)
    if claim is not None:
        out.append(claim)
    investigator = context.investigated is not None
    for group in groups:  # cards, never a statement about a seat ("passed 1 red and 1 blue")
        if not (group.singular or (group.bare and investigator)):
            use_group(toks, group)
    question = read_question(toks, players)
    if question is None and claim is None:
        question = read_open_question(toks, context, players)
    read_party_lines(toks, context, players, out)
    if question is None:
        read_judgements(toks, players, out)
    else:
        out.append(question)
    conflict = read_conflict(toks, context, players)
    if conflict is not None:
        out.append(conflict)
    return _unique(out)


def _unique(lines: list[Line]) -> list[Line]:
    seen: set[Line] = set()
    out: list[Line] = []
    for line in lines:
        if line not in seen:
            seen.add(line)
            out.append(line)
    return out


__all__ = ["MAX_CHARS", "MAX_TOKENS", "NO_CONTEXT", "Context", "recognise"]
