"""Accounts (docs/protocol.md "Accounts"): the rules for usernames and passwords, password hashes,
the stored user, and the anonymising of a deleted user's tables, games and chat.

Passwords are hashed with argon2id (argon2-cffi), off the event loop on a small pool of their
own (``HASH_THREADS``: a burst of sign-ins waits there, and neither slows the database reads nor
the bots, nor waits behind them); verifying against an unknown username verifies a dummy hash,
so a failure takes as long either way.
"""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.engine import Connection

from ..core.errors import LobbyError
from ..core.text import skeleton
from ..storage import db
from .auth import NameError_, clean_name

PASSWORD_MIN = 8
PASSWORD_MAX = 256  # characters; argon2 hashes any length, but unbounded input is refused
DELETED = "Deleted player"
_hasher = PasswordHasher()
#: Passwords hashed at once. Each argon2id hash takes 64 MiB and a few tens of milliseconds of
#: several cores (argon2-cffi's defaults): two at a time bound both.
HASH_THREADS = 2
_hashing = ThreadPoolExecutor(HASH_THREADS, thread_name_prefix="sh-hash")


@functools.cache
def _dummy_hash() -> str:
    """Verified when the username is unknown, so a failure takes as long either way."""
    return _hasher.hash("not a password of anyone")


def check_password(raw: object, field: str = "password") -> str:
    if not isinstance(raw, str):
        raise LobbyError(400, "invalid_password", f"{field}: must be a string")
    if not PASSWORD_MIN <= len(raw) <= PASSWORD_MAX:
        raise LobbyError(
            400,
            "invalid_password",
            f"{field}: {PASSWORD_MIN} to {PASSWORD_MAX} characters",
        )
    return raw


def check_username(raw: object) -> tuple[str, str]:
    """The cleaned username (display-name rules, auth.clean_name) and its lookup key."""
    try:
        name = clean_name(raw)
    except NameError_ as exc:
        raise LobbyError(400, "invalid_username", "user" + str(exc)) from None
    return name, skeleton(name)


async def _hashed(fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(_hashing, fn, *args)


async def hash_password(password: str) -> str:
    hashed: str = await _hashed(_hasher.hash, password)
    return hashed


async def verify_password(hashed: str | None, password: str) -> bool:
    def run() -> bool:
        try:
            return _hasher.verify(hashed or _dummy_hash(), password) and hashed is not None
        except (VerificationError, InvalidHashError):
            return False

    ok: bool = await _hashed(run)
    return ok


def user_row(user_id: str) -> Any:
    def run(conn: Connection) -> dict[str, Any] | None:
        row = conn.execute(sa.select(db.users).where(db.users.c.id == user_id)).first()
        return None if row is None else dict(row._mapping)

    return run


def set_user(user_id: str, **values: Any) -> Any:
    def run(conn: Connection) -> None:
        conn.execute(db.users.update().where(db.users.c.id == user_id).values(**values))

    return run


def placeholder(seat: int | None) -> str:
    return DELETED if seat is None else f"{DELETED} {seat + 1}"


def forget_stored(user_id: str) -> Any:
    def run(conn: Connection) -> None:
        t, g, c = db.tables.c, db.games.c, db.chat.c
        rows = conn.execute(
            sa.select(t.id, t.seats, t.host).where(
                sa.or_(
                    t.host == user_id, sa.cast(t.seats, sa.Text).contains(user_id, autoescape=True)
                )
            )
        ).all()
        for table_id, seats, host in rows:
            mine = [i for i, s in enumerate(seats) if s.get("user_id") == user_id]
            new_seats = [
                {**s, "user_id": None, "name": placeholder(i)} if i in mine else s
                for i, s in enumerate(seats)
            ]
            values: dict[str, Any] = {"seats": new_seats}
            if host == user_id:
                values.update(host="", host_name=DELETED)
            conn.execute(db.tables.update().where(t.id == table_id).values(**values))
            names = conn.execute(sa.select(g.names).where(g.id == table_id)).scalar()
            if names is not None and mine:
                names = [placeholder(i) if i in mine else n for i, n in enumerate(names)]
                conn.execute(db.games.update().where(g.id == table_id).values(names=names))
        for seat in {r[0] for r in conn.execute(sa.select(c.seat).where(c.user_id == user_id))}:
            conn.execute(
                db.chat.update()
                .where(
                    (c.user_id == user_id) & (c.seat.is_(None) if seat is None else c.seat == seat)
                )
                .values(name=placeholder(seat), user_id=None)
            )
        conn.execute(db.sessions.delete().where(db.sessions.c.user_id == user_id))
        conn.execute(db.users.delete().where(db.users.c.id == user_id))

    return run


def needs_rehash(hashed: str) -> bool:
    """The hash was made with older parameters (it is replaced at the next sign-in)."""
    return _hasher.check_needs_rehash(hashed)
