"""Display names that read as the game's own words (docs/security.md "Input and names").

A display name is shown at tables, in logs and records, and goes into the prompts of model
seats ("seat 3 (Ann) votes Ja!"). A name such as "seat 1 Hitler", "You are seat 0", "Your secret
role", "Deleted player 3" or "Stubby 2" (a model seat's name) would speak for the game there. So
a display name may not hold, in any of the five languages:

- a role, party, team or office (``WORDS`` of the web client's catalogs), the name a deleted
  player's seat is given, a model seat's name (the configured endpoints' display names), each
  alone or followed by a number;
- a seat or a bot named by its number (``SEATS``: "Seat 3", "Bot 3", "№3", "3号", "số 3");
- the sentences that tell a seat who it is (``SENTENCES``: "You are {seat}", "Your secret
  role"): the words before a seat's number with that number, and the longer phrases alone.

The words are not listed here: they are read from the web client's catalogs, the table talk's
phrases and the model prompts' phrases, so every word a player or a model reads is reserved in
the form they read it. Names are compared as ``text.skeleton`` folds them (NFKC, look-alikes of
any script such as fullwidth or Cherokee letters, digits of any script, case) and split into
words (spaces, punctuation, letters and digits, a lower-case letter before a capital, each
Chinese character). A phrase matches on word boundaries ("Tudor" does not hold "Tự do", nor
"Abbot 2" "Bot 2"); one of at least ``ANYWHERE`` folded characters matches anywhere (an
inflected "Гитлера", a glued "YouAreSeat0" or "youareseat0").
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterable

from ... import talk
from ...llm.prompts import load_prompts, prompt_versions
from ..core.config import STATIC_DIR
from ..core.text import skeleton
from .auth import NameError_, clean_name
from .users import DELETED

LANGUAGES = talk.LANGUAGES
# web catalog keys whose text is a word of the game (a phrase without placeholders)
WORDS = (
    "role.liberal",
    "role.fascist",
    "role.hitler",
    "team.liberals",
    "team.fascists",
    "party.liberal",
    "party.fascist",
    "office.president",
    "office.chancellor",
    "seat.empty",
    "table.your_role",
)
# a seat or a bot by its number: (source, key); {seat} and {number} are the number
SEATS = (
    ("web", "seat.number"),
    ("web", "seat.bot_name"),
    ("talk", "talk.bot"),
    ("talk", "talk.seat"),
    ("prompt", "seat"),
)
# sentences that tell a seat who it is
SENTENCES = (("web", "log.your_role"), ("prompt", "state.you"), ("prompt", "event.role"))
PROMPT_WORDS = ("role.liberal", "role.fascist", "role.hitler", "team.liberal", "team.fascist")
ANYWHERE = 6  # folded characters from which a phrase matches inside a word too
SENTENCE_WORDS = 3  # words (or Chinese characters) from which a sentence's part stands alone
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_SENTENCE_BREAK = re.compile(r"[.:;!?。：；！？]+")
_SEP = "\x00"  # between two words of a folded name


class ReservedName(NameError_):
    """A display name that reads as a seat, a role or a word of the game (``reserved_name``)."""


def _words(text: str) -> list[str]:
    """``text`` split into words: runs of letters, runs of digits, each Chinese (or other
    unspaced script's) character alone, and a lower-case letter before a capital splits."""
    out: list[str] = []
    word = ""
    kind = ""
    for ch in unicodedata.normalize("NFKC", text):
        cat = unicodedata.category(ch)
        if cat.startswith("L") and _unspaced(ch):
            new = "cjk"
        elif cat.startswith("L") or cat in ("Mn", "Mc"):
            new = "letter"
        elif cat.startswith("N"):
            new = "digit"
        else:
            new = ""
        camel = new == "letter" and kind == "letter" and ch.isupper() and word[-1:].islower()
        if new != kind or new == "cjk" or camel or not new:
            if word:
                out.append(word)
            word = ""
        kind = new
        if new:
            word += ch
    if word:
        out.append(word)
    return out


def _unspaced(ch: str) -> bool:
    """A letter of a script written without spaces (Han, kana, Hangul syllables count too)."""
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK ", "HIRAGANA", "KATAKANA", "HANGUL SYLLABLE"))


def _folded(text: str) -> str:
    """``text`` as names are compared: each word's skeleton, words apart by ``_SEP``."""
    return _SEP.join(f for f in (skeleton(w) for w in _words(text)) if f)


@functools.cache
def _number() -> str:
    """A number as folded: digits of any script fold to what they look like ("1" to "l")."""
    digits = sorted({re.escape(skeleton(str(d))) for d in range(10)}, key=len, reverse=True)
    one = f"(?:{'|'.join(digits)})"
    # a word of its own: a name's digits always are one (``_words``), while "Noob" or "Solo"
    # hold no number for "№" or "số"
    return f"(?:^|(?<={_SEP})){one}(?:{_SEP}?{one})*(?={_SEP}|$)"


def _literal(text: str) -> str:
    """A regex of ``text``'s folded form that any split into words also matches."""
    chars = _folded(text).replace(_SEP, "")
    return f"{_SEP}?".join(re.escape(c) for c in chars)


class _Phrase:
    """One reserved phrase: a regex of its folded form, matched on word boundaries unless it
    is long (``ANYWHERE``)."""

    def __init__(self, regex: str, fixed: int) -> None:
        self.fixed = fixed  # folded characters that are not the number
        if fixed >= ANYWHERE:
            self.pattern = re.compile(regex)
        else:
            self.pattern = re.compile(f"(?:^|(?<={_SEP})){regex}(?={_SEP}|$)")

    def found(self, folded: str) -> bool:
        return self.pattern.search(folded) is not None


def _word(text: str) -> _Phrase | None:
    """A word of the game, alone or with a number after it (another seat's "Hitler 2")."""
    literal = _literal(text)
    if not literal:
        return None
    return _Phrase(f"{literal}(?:{_SEP}?{_number()})?", len(_folded(text).replace(_SEP, "")))


def _template(text: str, seat: str) -> _Phrase | None:
    """A text with placeholders: each becomes ``seat`` (a number, or a seat by its number);
    None when nothing but placeholders is left (a bare "{number}" reserves nothing)."""
    parts = _PLACEHOLDER.split(text)
    regex, fixed = "", 0
    for i, part in enumerate(parts):
        if i % 2:
            regex += f"{_SEP}?{seat}{_SEP}?"
        elif literal := _literal(part):
            regex += literal
            fixed += len(_folded(part).replace(_SEP, ""))
    return _Phrase(regex, fixed) if fixed else None


def _sentence(text: str, seat: str) -> list[_Phrase]:
    """The parts of a sentence that tell a seat who it is: the words before a ``{seat}`` with
    that seat ("You are" + "seat 3"), and each part of ``SENTENCE_WORDS`` words or more alone
    ("Your secret role")."""
    out: list[_Phrase | None] = []
    for clause in _SENTENCE_BREAK.split(text):
        before, *rest = _PLACEHOLDER.split(clause)
        if rest and rest[0] == "seat" and _words(before):
            out.append(_template(before + "{seat}", seat))
        if len(_words(before)) >= SENTENCE_WORDS:
            out.append(_word(before))
    return [p for p in out if p is not None]


def _texts(source: str, key: str) -> list[str]:
    """The text of ``key`` in every language (and every prompt version that has it: a version
    without the sentence does not say it) of ``source``."""
    if source == "web":
        return [_web(lang)[key] for lang in LANGUAGES]
    if source == "talk":
        return [talk.catalog(lang)[key] for lang in LANGUAGES]
    phrases = [load_prompts(v, lang).phrases for v in prompt_versions() for lang in LANGUAGES]
    return [str(p[key]) for p in phrases if key in p]


@functools.cache
def _web(lang: str) -> dict[str, str]:
    data = json.loads((STATIC_DIR / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@functools.cache
def game_phrases() -> tuple[_Phrase, ...]:
    """Every reserved phrase of the game, in the five languages (read once)."""
    seat_texts = sorted({t for source, key in SEATS for t in _texts(source, key)})
    seat_words = [_literal(p) for t in seat_texts for p in _PLACEHOLDER.split(t)[::2]]
    seat_word = "|".join(sorted({w for w in seat_words if w}, key=len, reverse=True))
    seat = f"(?:(?:{seat_word}){_SEP}?)?{_number()}(?:{_SEP}?(?:{seat_word}))?"
    found: list[_Phrase | None] = []
    words = {t for key in WORDS for t in _texts("web", key)}
    words |= {t for key in PROMPT_WORDS for t in _texts("prompt", key)}
    words.add(DELETED)
    found += [_word(t) for t in sorted(words)]
    found += [_template(t, _number()) for t in seat_texts]
    found += [p for s, key in SENTENCES for t in _texts(s, key) for p in _sentence(t, seat)]
    unique = {p.pattern.pattern: p for p in found if p is not None}
    return tuple(unique[k] for k in sorted(unique))


@functools.cache
def _model_phrases(models: tuple[str, ...]) -> tuple[_Phrase, ...]:
    return tuple(p for p in (_word(m) for m in models) if p is not None)


def reserved(name: str, models: Iterable[str] = ()) -> bool:
    """Whether ``name`` holds a reserved phrase of the game or a model seat's name."""
    folded = _folded(name)
    phrases = game_phrases() + _model_phrases(tuple(sorted(set(models))))
    return any(p.found(folded) for p in phrases)


def display_name(raw: object, models: Iterable[str] = ()) -> str:
    """A valid display name (``clean_name``) that is not reserved, else ``NameError_``
    (``ReservedName`` for a reserved one; its message never quotes the name)."""
    name = clean_name(raw)
    if reserved(name, models):
        raise ReservedName(
            "name: reads as a seat, a role, a bot or a model seat of the game (in one of its "
            "languages): choose another name"
        )
    return name
