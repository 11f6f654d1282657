"""Table chat: plain-text cleaning (the rate limits are in ``guard.Guard``)."""

from __future__ import annotations

import unicodedata

from ..core.protocol import ProtocolError
from ..core.text import BIDI, invisible


def clean_chat(text: str, max_len: int) -> str:
    """Plain text: control characters (except newline), lone surrogates and bidi controls
    removed, trimmed, 1..max_len characters, and at least one visible character.

    Nothing is escaped or interpreted: clients render chat as text, never as HTML.
    """
    cleaned = "".join(
        ch
        for ch in text
        if ch == "\n" or (ch not in BIDI and unicodedata.category(ch) not in ("Cc", "Cs"))
    ).strip()
    if not any(not ch.isspace() and not invisible(ch) for ch in cleaned):
        raise ProtocolError("chat_empty", "a chat message needs some text")
    if len(cleaned) > max_len:
        raise ProtocolError("chat_too_long", f"a chat message has at most {max_len} characters")
    return cleaned
