"""Table chat: plain-text cleaning and a per-user rate limit."""

from __future__ import annotations

import unicodedata
from collections import deque

from .protocol import ProtocolError


def clean_chat(text: str, max_len: int) -> str:
    """Plain text: control characters (except newline) removed, trimmed, 1..max_len chars.

    Nothing is escaped or interpreted: clients render chat as text, never as HTML.
    """
    cleaned = "".join(
        ch for ch in text if ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cs")
    ).strip()
    if not cleaned:
        raise ProtocolError("chat_empty", "a chat message needs some text")
    if len(cleaned) > max_len:
        raise ProtocolError("chat_too_long", f"a chat message has at most {max_len} characters")
    return cleaned


class ChatLimiter:
    """At most ``count`` messages per ``window`` seconds per user (sliding window)."""

    def __init__(self, count: int, window: float) -> None:
        self.count = count
        self.window = window
        self._sent: dict[str, deque[float]] = {}

    def allow(self, user_id: str, now: float) -> bool:
        sent = self._sent.setdefault(user_id, deque())
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        if len(sent) >= self.count:
            return False
        sent.append(now)
        return True
