"""Text from users and text sent back to them: one place for the rules (docs/security.md).

- ``brief``/``safe_message``: what an error may echo (short, always encodable as UTF-8).
- ``invisible``/``BIDI``: characters that show nothing or reorder text.
- ``skeleton``: the form two names are compared in (NFKC, case-folded, look-alikes folded), so
  that "Bot 3", "bot3", "B0t 3" and a Cyrillic "Воt 3" are one name.
"""

from __future__ import annotations

import re
import unicodedata

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

# Look-alikes folded by ``skeleton`` (after case folding): a small subset of Unicode's
# confusables.txt covering Latin, Cyrillic, Greek and digits that pass as letters.
_LOOKALIKE = str.maketrans(
    {
        "0": "o", "ο": "o", "о": "o", "օ": "o",
        "1": "l", "i": "l", "ı": "l", "ι": "l", "ɩ": "l", "і": "l", "ӏ": "l", "|": "l", "!": "l",
        "а": "a", "α": "a", "ɑ": "a",
        "в": "b", "β": "b", "ь": "b",
        "с": "c", "ϲ": "c",
        "ԁ": "d",
        "е": "e", "ε": "e", "ё": "e",
        "һ": "h", "н": "h", "η": "n",
        "ј": "j",
        "к": "k", "κ": "k",
        "м": "m", "μ": "u",
        "ν": "v", "ѵ": "v",
        "р": "p", "ρ": "p",
        "ԛ": "q",
        "ѕ": "s",
        "т": "t", "τ": "t",
        "υ": "u",
        "ԝ": "w", "ѡ": "w", "ω": "w",
        "х": "x", "χ": "x",
        "у": "y", "γ": "y",
        "ʐ": "z",
        "з": "3",
    }
)  # fmt: skip
_DIGRAPHS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_BOT_NAME = re.compile(r"bot[0-9lo]+")
_SURROGATES = re.compile("[\ud800-\udfff]")


def invisible(ch: str) -> bool:
    """A character that renders as nothing (default-ignorable)."""
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _IGNORABLE)


def skeleton(name: str) -> str:
    """The comparison form of a name: NFKC, marks dropped, case-folded, look-alikes folded, and
    only letters and digits kept. Two names with one skeleton are the same name at a table."""
    s = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name))
    s = "".join(ch for ch in s if not unicodedata.category(ch).startswith("M"))
    s = s.casefold().translate(_LOOKALIKE)
    s = "".join(ch for ch in s if ch.isalnum())
    for pair, single in _DIGRAPHS:
        s = s.replace(pair, single)
    return s


def bot_like(name: str) -> bool:
    """True for names that read as a bot seat's name ("Bot 3")."""
    return _BOT_NAME.fullmatch(skeleton(name)) is not None


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
