"""Guest identity: display names, signed session tokens (itsdangerous), cookie or Bearer."""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeTimedSerializer

from .text import bot_like, invisible

COOKIE = "sh_session"
NAME_MAX = 24
MARKS_MAX = 3  # combining marks on one letter (no "Zalgo" towers)
_NAME_PUNCT = set(" _-.'")


@dataclass(frozen=True, slots=True)
class User:
    id: str
    name: str


class NameError_(ValueError):
    """A display name was refused; the message says why."""


def clean_name(raw: object) -> str:
    """A valid display name, or ``NameError_`` (docs/security.md "Input and names").

    NFKC-normalized and trimmed, 1-24 characters: letters and digits of any script (at least
    one), combining marks on them, single spaces and `` _-.'``. Nothing invisible, no controls
    or bidi characters, and nothing that reads as a bot seat ("Bot 3").
    """
    if not isinstance(raw, str):
        raise NameError_("name: must be a string")
    if len(raw) > 8 * NAME_MAX:
        raise NameError_(f"name: at most {NAME_MAX} characters")
    name = unicodedata.normalize("NFKC", raw).strip()
    if not name:
        raise NameError_("name: must not be empty")
    if len(name) > NAME_MAX:
        raise NameError_(f"name: at most {NAME_MAX} characters")
    if "  " in name:
        raise NameError_("name: no two spaces in a row")
    marks = 0  # combining marks on the current character
    prev_base: str | None = None
    has_base = False
    for ch in name:
        cat = unicodedata.category(ch)
        if invisible(ch):
            raise NameError_(f"name: the invisible character U+{ord(ch):04X} is not allowed")
        if cat in ("Mn", "Mc"):
            marks += 1
            if prev_base is None or marks > MARKS_MAX:
                raise NameError_(
                    f"name: at most {MARKS_MAX} combining marks, each on a letter or digit"
                )
            continue
        marks = 0
        if cat.startswith("L") or cat.startswith("N"):
            prev_base, has_base = ch, True
            continue
        prev_base = None
        if ch not in _NAME_PUNCT:
            raise NameError_(
                f"name: {ch!r} is not allowed (letters, digits, spaces and _ - . ' only)"
            )
    if not has_base:
        raise NameError_("name: needs at least one letter or digit")
    if bot_like(name):
        raise NameError_("name: names like 'Bot 3' are kept for bots")
    return name


def new_user_id() -> str:
    return "u_" + secrets.token_urlsafe(9)


class Tokens:
    def __init__(self, secret: str, max_age: int) -> None:
        self._s = URLSafeTimedSerializer(secret, salt="secret-hitler-session")
        self._max_age = max_age

    def issue(self, user: User) -> str:
        return self._s.dumps({"u": user.id, "n": user.name})

    def verify(self, token: str | None) -> User | None:
        if not token:
            return None
        try:
            data = self._s.loads(token, max_age=self._max_age)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("u"), str):
            return None
        return User(data["u"], str(data.get("n", "")))

    def from_headers(
        self, authorization: str | None, cookie: str | None, query: str | None = None
    ) -> User | None:
        """Bearer header first, then ``?token=``, then the cookie."""
        if authorization:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() == "bearer":
                return self.verify(value.strip())
        if query:
            return self.verify(query)
        return self.verify(cookie)
