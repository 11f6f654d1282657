"""Who may take a rated seat (docs/competitive.md "Rated seats").

A rated seat needs an account (a claimed username, not a guest) that is at least ``min_age``
old and has played ``min_games`` finished games to their end at any table, and that is not
cooling down after leaving rated games (``cooldown_until``). At one rated table each account
holds one seat (the seating's own rule) and each address and each device holds at most one:
the seat is taken with an ``Admission``, the keyed hashes of where it was taken from, and a
second seat from the same address or device is refused (``table_refusal``). The address is the
client address the server believes (behind a proxy: ``SH_TRUSTED_PROXIES``), an IPv6 address
cut to its /64 (one household's prefix); the device is the browser's random ``sh_device``
cookie together with its User-Agent, so the device check is best-effort: a client that sends
no device cookie is checked by its address only.

Both are hashed with a key derived from the server's secret (the same on every node of a
cluster), so the database keeps no address.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..core.config import Settings
from ..core.errors import LobbyError
from ..storage import db
from ..storage.writer import Write

#: The browser's device id: a random value the server sets once (``api/competition.py``).
DEVICE_COOKIE = "sh_device"
DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
USER_AGENT_MAX = 256  # characters of the User-Agent that go into the device's hash
#: Leaves older than this no longer count towards a cooldown.
LEAVE_WINDOW = 30 * 86400.0
#: Each leave in the window makes the next cooldown this many times longer ...
COOLDOWN_FACTOR = 3
#: ... up to this long.
COOLDOWN_MAX = 7 * 86400.0
_IPV6_HOUSEHOLD = 64  # prefix length of an IPv6 address counted as one place


@dataclass(frozen=True, slots=True)
class RatedRules:
    """The server's settings for rated seats (``SH_RATED_MIN_AGE``, ``SH_RATED_MIN_GAMES``,
    ``SH_LEAVE_COOLDOWN``)."""

    min_age: float  # seconds since the account's user was made
    min_games: int  # finished games played to their end, at any table
    cooldown: float  # seconds of the cooldown after one leave in ``LEAVE_WINDOW``

    @classmethod
    def of(cls, settings: Settings) -> RatedRules:
        return cls(settings.rated_min_age, settings.rated_min_games, settings.leave_cooldown)


@dataclass(frozen=True, slots=True)
class Admission:
    """Where a rated seat was taken from: the keyed hashes of the client address and of the
    device (None: the request carried no device id)."""

    address: str
    device: str | None

    def to_json(self) -> dict[str, Any]:
        return {"a": self.address, "d": self.device}

    @staticmethod
    def from_json(data: Any) -> Admission | None:
        if not isinstance(data, dict) or not isinstance(data.get("a"), str):
            return None
        device = data.get("d")
        return Admission(data["a"], device if isinstance(device, str) else None)


def place(address: str) -> str:
    """The place an address stands for: an IPv4 address itself, an IPv6 address its /64 (a
    household gets a whole prefix); anything else (``unknown``) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        mapped = ip.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{ip}/{_IPV6_HOUSEHOLD}", strict=False))
    return str(ip)


def _keyed(key: bytes, kind: str, value: str) -> str:
    return hmac.new(key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()[:32]


def admission(key: bytes, address: str, device_id: str | None, user_agent: str) -> Admission:
    """The admission of a seat taken from ``address`` by the browser ``device_id`` (its
    ``sh_device`` cookie, None or malformed: no device) and ``user_agent``."""
    device = None
    if device_id is not None and DEVICE_ID.fullmatch(device_id):
        device = _keyed(key, "device", f"{device_id}|{user_agent[:USER_AGENT_MAX]}")
    return Admission(_keyed(key, "address", place(address)), device)


def hashing_key(secret: str) -> bytes:
    """The key admissions are hashed with, derived from the server's secret."""
    return hmac.new(secret.encode(), b"secret-hitler rated admissions", hashlib.sha256).digest()


@dataclass(frozen=True, slots=True)
class Standing:
    """What the database says of a person, for rated play."""

    account: bool  # a claimed username
    created_at: float  # when her user was made
    games: int  # finished games she played to their end
    leaves: tuple[float, ...]  # when she left rated games, within ``LEAVE_WINDOW``


def standing(user_id: str, now: float) -> Write:
    """The ``Standing`` of ``user_id`` (None: no such user)."""

    def run(conn: Connection) -> Standing | None:
        u = db.users.c
        user = conn.execute(sa.select(u.username, u.created_at).where(u.id == user_id)).first()
        if user is None:
            return None
        l_ = db.rated_leaves.c
        leaves = conn.execute(
            sa.select(l_.ts).where(l_.user_id == user_id, l_.ts >= now - LEAVE_WINDOW)
        ).scalars()
        return Standing(
            account=user.username is not None,
            created_at=user.created_at,
            games=games_played(conn, user_id),
            leaves=tuple(sorted(leaves)),
        )

    return run


def games_played(conn: Connection, user_id: str) -> int:
    """Finished games ``user_id`` played to their end (her seat still hers at the end: one who
    left handed it to a bot), at any table."""
    g, t = db.games.c, db.tables.c
    query = (
        sa.select(sa.func.count())
        .select_from(db.games)
        .join(db.tables, t.id == g.table_id)
        .where(
            g.status == "finished",
            sa.cast(t.seats, sa.Text).contains(f'"{user_id}"', autoescape=True),
        )
    )
    return int(conn.execute(query).scalar() or 0)


def cooldown_until(leaves: Sequence[float], first: float) -> float | None:
    """When a player who left rated games at ``leaves`` (within ``LEAVE_WINDOW``) may take a
    rated seat again: ``first`` seconds after her last leave, times ``COOLDOWN_FACTOR`` for
    each other leave in the window, at most ``COOLDOWN_MAX``; None without leaves."""
    if not leaves:
        return None
    growth = float(COOLDOWN_FACTOR ** min(len(leaves) - 1, 32))
    return float(max(leaves)) + min(COOLDOWN_MAX, first * growth)


def refusal(found: Standing | None, rules: RatedRules, now: float) -> LobbyError | None:
    """Why this person may not take a rated seat now, or None."""
    if found is None or not found.account:
        return LobbyError(
            403,
            "rated_needs_account",
            "rated seats are for accounts: claim a username and password first",
        )
    ready_at = found.created_at + rules.min_age
    if now < ready_at:
        hours = math.ceil(rules.min_age / 3600)
        return LobbyError(
            403,
            "rated_account_new",
            f"rated seats are for accounts at least {hours} hours old; yours may take one from "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(ready_at))}",
        )
    if found.games < rules.min_games:
        return LobbyError(
            403,
            "rated_needs_games",
            f"rated seats are for players with {rules.min_games} finished games; you have "
            f"{found.games} (casual tables count)",
        )
    until = cooldown_until(found.leaves, rules.cooldown)
    if until is not None and now < until:
        return LobbyError(
            403,
            "rated_cooldown",
            "you left a rated game recently: you may take a rated seat again from "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(until))}",
        )
    return None


def table_refusal(mine: Admission, others: Iterable[Admission]) -> LobbyError | None:
    """Why a seat taken with ``mine`` may not join the rated seats taken with ``others``."""
    for other in others:
        if other.address == mine.address:
            return LobbyError(
                409,
                "rated_same_address",
                "a rated table takes one player per address: someone here joined from yours",
            )
        if mine.device is not None and other.device == mine.device:
            return LobbyError(
                409,
                "rated_same_device",
                "a rated table takes one player per device: someone here joined from this one",
            )
    return None


def summary(found: Standing | None, rules: RatedRules, now: float) -> dict[str, Any]:
    """A person's standing as ``GET /api/me/standing`` tells it: whether she may take a rated
    seat now, why not (the refusal's code), and the numbers behind it."""
    problem = refusal(found, rules, now)
    leaves = found.leaves if found is not None else ()
    until = cooldown_until(leaves, rules.cooldown)
    return {
        "eligible": problem is None,
        "reason": None if problem is None else problem.code,
        "account": bool(found and found.account),
        "ready_at": None if found is None else round(found.created_at + rules.min_age, 3),
        "games": 0 if found is None else found.games,
        "min_games": rules.min_games,
        "recent_leaves": len(leaves),
        "cooldown_until": until if until is not None and until > now else None,
    }


@dataclass(frozen=True, slots=True)
class RatedEntry:
    """A person asking for a rated seat: where from (``admission``) and why her standing
    refuses it (``problem``, None: it does not), read before the table's lock is taken."""

    admission: Admission
    problem: LobbyError | None


def device_cookie(cookie_header: str) -> str | None:
    """The ``sh_device`` cookie's value in a ``Cookie`` header (None: none, or malformed)."""
    jar = SimpleCookie()
    try:
        jar.load(cookie_header)
    except CookieError:
        return None
    morsel = jar.get(DEVICE_COOKIE)
    value = morsel.value if morsel is not None else None
    return value if value is not None and DEVICE_ID.fullmatch(value) else None
