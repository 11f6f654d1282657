"""Guest identity: display names, signed session tokens (itsdangerous), cookie or Bearer."""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeTimedSerializer

COOKIE = "sh_session"
NAME_MAX = 24
_NAME_PUNCT = set(" _-.'")


@dataclass(frozen=True, slots=True)
class User:
    id: str
    name: str


class NameError_(ValueError):
    """A display name was refused; the message says why."""


def clean_name(raw: object) -> str:
    """A valid display name, or ``NameError_``: 1-24 chars, letters/digits of any script, `` _-.'``."""
    if not isinstance(raw, str):
        raise NameError_("name: must be a string")
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise NameError_("name: must not be empty")
    if len(name) > NAME_MAX:
        raise NameError_(f"name: at most {NAME_MAX} characters")
    if "  " in name:
        raise NameError_("name: no two spaces in a row")
    for ch in name:
        if ch in _NAME_PUNCT:
            continue
        cat = unicodedata.category(ch)
        if not (cat.startswith("L") or cat.startswith("N") or cat in ("Mn", "Mc")):
            raise NameError_(
                f"name: {ch!r} is not allowed (letters, digits, spaces and _ - . ' only)"
            )
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
