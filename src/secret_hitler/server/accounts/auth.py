"""Guest identity: display names, signed session tokens (itsdangerous) naming a server-side
session (revoked by logout), sent as the cookie or ``Authorization: Bearer``."""

from __future__ import annotations

import secrets
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlalchemy as sa
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy.engine import Connection

from ..storage import db

if TYPE_CHECKING:
    from ..storage.writer import Store

from ..core.text import bot_like, invisible

COOKIE = "sh_session"
_UNKNOWN = ("", "", 0.0)  # (a session not in the cache)
NAME_MAX = 24
MARKS_MAX = 3  # combining marks on one letter (no "Zalgo" towers)
_NAME_PUNCT = set(" _-.'")


@dataclass(frozen=True, slots=True)
class User:
    id: str
    name: str
    session: str | None = None  # the server-side session the token names


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
    """Signing only: a token says who and which session, and expires after ``max_age``."""

    def __init__(self, secret: str, max_age: int) -> None:
        self._s = URLSafeTimedSerializer(secret, salt="secret-hitler-session")
        self._max_age = max_age

    def issue(self, user: User) -> str:
        return self._s.dumps({"u": user.id, "n": user.name, "s": user.session})

    def verify(self, token: str | None) -> User | None:
        if not token:
            return None
        try:
            data = self._s.loads(token, max_age=self._max_age)
        except BadSignature:
            return None
        if (
            not isinstance(data, dict)
            or not isinstance(data.get("u"), str)
            or not isinstance(data.get("s"), str)
        ):
            return None  # tokens from before server-side sessions cannot be revoked: refused
        return User(data["u"], str(data.get("n", "")), data["s"])


class Sessions:
    """Which tokens are still valid: a token names a row of the ``sessions`` table, and logout
    deletes the row. Lookups are cached in memory; a session id is never reused, so a cached
    answer can only change by a revocation or a rename: here, or on another node of a cluster,
    which tells every node (``revoked_elsewhere``). Should that message be lost, a cached session
    is believed for ``RECHECK`` seconds only, then read again. The display name comes from the
    user's row, not the token: a rename on one device shows on every device."""

    CACHE = 50_000
    RECHECK = 5.0  # seconds a live session is believed before the database is asked again

    def __init__(self, tokens: Tokens, store: Store, max_age: int) -> None:
        self.tokens = tokens
        self.store = store
        self.max_age = max_age
        # session id -> (user id, display name, when read: monotonic), or None once revoked
        self._owner: OrderedDict[str, tuple[str, str, float] | None] = OrderedDict()

    def _remember(self, sid: str, owner: tuple[str, str] | None) -> None:
        self._owner[sid] = None if owner is None else (*owner, time.monotonic())
        self._owner.move_to_end(sid)
        while len(self._owner) > self.CACHE:
            self._owner.popitem(last=False)

    async def open(self, user_id: str, name: str) -> tuple[User, str]:
        """A new session for this user: its User and signed token."""
        sid = secrets.token_urlsafe(16)
        now = time.time()

        def run(conn: Connection) -> None:
            conn.execute(db.sessions.insert().values(id=sid, user_id=user_id, created_at=now))

        await self.store.write(run)
        self._remember(sid, (user_id, name))
        user = User(user_id, name, sid)
        return user, self.tokens.issue(user)

    async def user(self, token: str | None) -> User | None:
        """The signed-in user of a token, or None (bad signature, expired, or signed out)."""
        user = self.tokens.verify(token)
        return None if user is None else await self.alive(user)

    async def alive(self, user: User) -> User | None:
        """``user`` with her current display name while her session lives, else None (also the
        check a cluster node makes of a user another node names)."""
        sid = user.session
        if sid is None:
            return None
        cached = self._owner.get(sid, _UNKNOWN)
        if cached is None:
            return None  # revoked
        if cached is not _UNKNOWN and time.monotonic() - cached[2] < self.RECHECK:
            self._owner.move_to_end(sid)
            owner: tuple[str, str] | None = cached[:2]
        else:

            def run(conn: Connection) -> tuple[str, str] | None:
                s, u = db.sessions.c, db.users.c
                row = conn.execute(
                    sa.select(s.user_id, u.name)
                    .join_from(db.sessions, db.users, u.id == s.user_id, isouter=True)
                    .where(s.id == sid)
                ).first()
                return None if row is None else (row[0], row[1] or user.name)

            owner = await self.store.read(run)
            if self._owner.get(sid, _UNKNOWN) is None:
                owner = None  # revoked while we were reading: the revocation wins
            self._remember(sid, owner)
        if owner is None or owner[0] != user.id:
            return None
        return User(user.id, owner[1], sid)

    def renamed(self, user_id: str, name: str) -> None:
        """The user's display name changed: cached sessions show the new one."""
        for sid, owner in self._owner.items():
            if owner is not None and owner[0] == user_id:
                self._owner[sid] = (user_id, name, owner[2])

    async def revoke(self, sid: str) -> None:
        self._remember(sid, None)

        def run(conn: Connection) -> None:
            conn.execute(db.sessions.delete().where(db.sessions.c.id == sid))

        await self.store.write(run)

    async def revoke_all(self, user_id: str, keep: str | None = None) -> set[str]:
        """Sign this user out everywhere (but session ``keep``); returns the revoked ids."""

        def run(conn: Connection) -> list[str]:
            c = db.sessions.c
            where = c.user_id == user_id
            if keep is not None:
                where = where & (c.id != keep)
            sids = list(conn.execute(sa.select(c.id).where(where)).scalars())
            conn.execute(db.sessions.delete().where(where))
            return sids

        revoked = set(await self.store.write(run))
        revoked.update(
            sid
            for sid, owner in self._owner.items()
            if owner is not None and owner[0] == user_id and sid != keep
        )
        for sid in revoked:
            self._remember(sid, None)
        return revoked

    def revoked_elsewhere(self, user_id: str, live: set[str]) -> None:
        """Another node signed ``user_id`` out: cached sessions of hers not in ``live`` end."""
        for sid in [
            s for s, owner in self._owner.items() if owner is not None and owner[0] == user_id
        ]:
            if sid not in live:
                self._remember(sid, None)

    async def purge(self) -> None:
        """Forget sessions whose tokens have expired anyway."""
        cutoff = time.time() - self.max_age

        def run(conn: Connection) -> None:
            conn.execute(db.sessions.delete().where(db.sessions.c.created_at < cutoff))

        await self.store.write(run)
