"""Table chat: who may say a line and when, the text's cleaning, the lines a table keeps."""

from __future__ import annotations

import unicodedata
from collections import deque
from typing import Any

from ...engine import Game
from ..accounts.auth import User
from ..core.guard import Guard
from ..core.protocol import ProtocolError
from ..core.text import BIDI, invisible
from .conn import Conn

LEGISLATIVE = ("discard", "enact", "veto_response")
CHAT_KEEP = 100  # lines a table keeps (and a welcome carries)


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


class Chat:
    """A table's chat: its last lines and the id of the next one."""

    def __init__(self, limits: Guard, max_len: int) -> None:
        self.limits = limits
        self.max_len = max_len
        self.lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEEP)
        self.next_id = 1

    def restore(self, lines: list[dict[str, Any]]) -> None:
        """The stored lines (oldest first), after a restart."""
        self.lines.extend(lines)
        self.next_id = (lines[-1]["id"] + 1) if lines else 1

    def check(self, conn: Conn, text: str, game: Game | None) -> str:
        """The cleaned line, if ``conn`` may say it now; else ``ProtocolError``. During a game
        only living seated players chat, and not the government during its legislative
        session; every line counts against the sender's and her address's rates."""
        user = conn.user
        if user is None:
            raise ProtocolError("unauthorized", "sign in to chat")
        clean = clean_chat(text, self.max_len)
        seat = conn.seat
        if game is not None and not game.finished:
            if seat is None:
                raise ProtocolError(
                    "chat_forbidden", "spectators cannot chat during a game", detail="spectator"
                )
            if not game.alive[seat]:
                raise ProtocolError("chat_forbidden", "dead players cannot chat", detail="dead")
            if game.phase.value in LEGISLATIVE and seat in (game.president, game.chancellor):
                raise ProtocolError(
                    "chat_forbidden",
                    "the president and chancellor cannot chat during the legislative session",
                    detail="legislative_session",
                )
        checks = [("chat_rate", user.id)]
        if conn.addr is not None:
            checks.append(("chat_rate_address", conn.addr))
        if not self.limits.hit(*checks):
            raise ProtocolError("rate_limited", "too many chat messages; wait a few seconds")
        return clean

    def line(
        self, seat: int | None, user: User, name: str | None, text: str, now: float
    ) -> dict[str, Any]:
        """The next line (not kept until ``said``: it is stored first)."""
        return {
            "id": self.next_id,
            "seat": seat,
            "user_id": user.id,
            "name": name or user.name,
            "text": text,
            "ts": round(now, 3),
        }

    def said(self, line: dict[str, Any]) -> None:
        self.next_id += 1
        self.lines.append(line)
