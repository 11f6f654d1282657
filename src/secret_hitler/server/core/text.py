"""Text from users and text sent back to them: one place for the rules (docs/security.md).

- ``brief``/``safe_message``: what an error may echo (short, always encodable as UTF-8).
- ``invisible``/``BIDI``: characters that show nothing or reorder text.
- ``skeleton``: the form two names are compared in (NFKC, digits folded, look-alikes folded by
  Unicode's confusables data, lower case), so that "Bot 3", "bot3", "B0t 3", a Cyrillic "Воt 3"
  and an Arabic-Indic "Bot ٣" are one name.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from confusable_homoglyphs import confusables

ECHO_MAX = 40  # characters of a user's value quoted back in an error message
MESSAGE_MAX = 300  # characters of any error message

# Unicode Default_Ignorable_Code_Point (DerivedCoreProperties.txt): rendered as nothing. Python's
# unicodedata has no such property; some are letters (U+3164 HANGUL FILLER is "Lo") or marks.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Bidirectional formatting characters: they reorder the text around them (Trojan Source).
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

# Look-alikes come from Unicode's confusables data (UTS #39, confusables.txt), as the
# confusable_homoglyphs library ships it. A few that it leaves apart still pass for each other in
# a name (issue 29's look-alike names): folded after it.
_SUPPLEMENT = (("8", "b"), ("rl", "d"), ("cl", "d"), ("vv", "w"))
_SCRIPTS_WITH_CASE = ("LATIN", "GREEK", "CYRILLIC")
_SMALL_CAPITAL = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z])")
_SURROGATES = re.compile("[\ud800-\udfff]")


def invisible(ch: str) -> bool:
    """A character that renders as nothing (default-ignorable)."""
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _IGNORABLE)


@functools.cache
def _homoglyphs() -> dict[str, tuple[str, ...]]:
    """confusables.txt as the library holds it: each character (or sequence) with those it may
    be taken for; right-to-left ones come wrapped in U+200E marks, removed here."""
    return {
        key.replace("\u200e", ""): tuple(h["c"].replace("\u200e", "") for h in found)
        for key, found in confusables.confusables_data.items()
    }


@functools.cache
def _prototype(ch: str) -> str:
    """The prototype UTS #39 maps ``ch`` to: each look-alike class is a star, its prototype
    listing every member and each member listing only the prototype (in a class of two, the
    ASCII member, else the lower code point; a sequence, such as "rn" for "m", is always the
    prototype)."""
    glyphs = _homoglyphs()
    found = glyphs.get(ch, ())
    if len(found) != 1:
        return ch
    other = found[0]
    if len(other) > 1 or len(glyphs.get(other, ())) > 1:
        return other
    return min(ch, other, key=lambda c: (not c.isascii(), c))


def _case_alike(prototype: str) -> str | None:
    """An ASCII letter that a non-ASCII prototype's class passes for in the other case: ß looks
    like β, whose capital Β looks like B; Cyrillic в like ʙ, a small capital B (the data is
    case-sensitive, names are compared in lower case). Only when that letter is the only one."""
    members = (prototype, *_homoglyphs().get(prototype, ()))
    found = set()
    for m in members:
        if len(m) != 1 or not unicodedata.name(m, "").startswith(_SCRIPTS_WITH_CASE):
            continue
        for other in {m.lower(), m.upper()} - {m}:
            p = _unmarked(_prototype(other)) if len(other) == 1 else ""
            if _ascii(p):
                found.add(p.lower())
    return found.pop() if len(found) == 1 else None


def _ascii(p: str) -> bool:
    return len(p) == 1 and p.isascii() and p.isalnum()


@functools.cache
def _fold(ch: str, depth: int = 0) -> str:
    """One character's comparison form: a decimal digit of any script as its ASCII digit, a
    small capital as its letter, then its prototype (without marks) in lower case; a letter
    folds as its capital does, since names are compared in any case (I looks like l, so i
    is l too)."""
    if (digit := unicodedata.decimal(ch, None)) is not None:
        ch = str(digit)
    if small := _SMALL_CAPITAL.fullmatch(unicodedata.name(ch, "")):
        ch = small.group(1).lower()
    p = _unmarked(_prototype(ch)) or ch
    if not p.isascii():
        p = _case_alike(p) or p
    if _ascii(p) and _ascii(capital := _prototype(p.upper())):
        p = capital
    low = p.lower()
    if low == ch or depth > 3:
        return low
    return "".join(_fold(c, depth + 1) for c in low)


def _unmarked(text: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", text) if not unicodedata.category(c).startswith("M")
    )


def skeleton(name: str) -> str:
    """The comparison form of a name: NFKC, marks dropped, each character folded (``_fold``:
    digits of any script, Unicode's confusables, lower case), letters and digits only, and the
    few look-alike sequences of ``_SUPPLEMENT``. Two names with one skeleton are the same name
    at a table, and one username."""
    s = _unmarked(unicodedata.normalize("NFKC", name))
    s = _unmarked("".join(_fold(ch) for ch in s))
    s = "".join(ch for ch in s if ch.isalnum())
    for seq, alike in _SUPPLEMENT:
        s = s.replace(seq, alike)
    return s


@functools.cache
def _bot_name() -> re.Pattern[str]:
    digits = sorted({re.escape(skeleton(str(d))) for d in range(10)}, key=len, reverse=True)
    return re.compile(re.escape(skeleton("Bot")) + f"(?:{'|'.join(digits)})+")


def bot_like(name: str) -> bool:
    """True for names that read as a bot seat's name ("Bot 3", "B0t 3", "Bot ٣")."""
    return _bot_name().fullmatch(skeleton(name)) is not None


def brief(value: object, limit: int = ECHO_MAX) -> str:
    """``repr(value)`` cut to ``limit`` characters: safe to quote back to whoever sent it."""
    try:
        text = (
            repr(value)
            if not isinstance(value, str) or len(value) <= limit
            else repr(value[:limit])
        )
    except Exception:  # a value whose repr fails (deep nesting)
        return "<value>"
    return text if len(text) <= limit + 2 else text[: limit - 1] + "…"


def safe_message(message: str, limit: int = MESSAGE_MAX) -> str:
    """An error message that is short and encodes as UTF-8 (lone surrogates escaped)."""
    if len(message) > limit:
        message = message[: limit - 1] + "…"
    if _SURROGATES.search(message):
        message = _SURROGATES.sub(lambda m: f"\\u{ord(m.group()):04x}", message)
    return message


def json_problem(value: object, max_str: int, max_depth: int) -> str | None:
    """Why a parsed JSON value is too big to hand on (a string or key over ``max_str``
    characters, nesting over ``max_depth``), or None. Checked before the engine sees settings or
    a record, so that none of its messages can quote a huge value."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            return f"nested deeper than {max_depth} levels"
        if isinstance(item, str):
            if len(item) > max_str:
                return f"a text of more than {max_str} characters"
        elif isinstance(item, dict):
            for k, v in item.items():
                if isinstance(k, str) and len(k) > max_str:
                    return f"a name of more than {max_str} characters"
                stack.append((v, depth + 1))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return None


def has_lone_surrogate(text: str) -> bool:
    return _SURROGATES.search(text) is not None
