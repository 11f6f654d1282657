"""Conduct signals for moderators (docs/competitive.md "Collusion signals"): measurable patterns
of farmed or thrown rated games, flagged for a person to judge, never acted on by themselves.

After each rated game is rated (``rating.rate_finished``) its players are scanned over the
rated games of the last ``WINDOW`` seconds, and each signal that holds is stored in
``conduct_flags`` (one row per kind and subject, refreshed as the evidence grows; a flag a
moderator cleared opens again only when its count passes the one cleared):

- ``shared_place``: two accounts took rated seats (at different tables: one table refuses it)
  from the same address or the same device. ``count``: their games from that place.
- ``always_together``: two accounts played at least ``TOGETHER_MIN`` rated games together, and
  those are at least ``TOGETHER_SHARE`` of the rated games of either of them.
- ``fed``: two accounts met on opposite teams at least ``FED_MIN`` times and the same one won
  at least ``FED_SHARE`` of those games (one account feeding another its wins).
- ``thrown_games``: a player made at least ``THROWS_MIN`` moves against her own team
  (``throws``) in her rated games.

A move against one's own team, read from the game's private events (the server holds them): a
liberal president who discarded a liberal policy while holding a fascist one, a liberal
chancellor who enacted a fascist policy while holding a liberal one, a president of the
fascist party who executed Hitler. Each happens by mistake now and then; a flag needs several.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ...engine import Game
from ...engine.types import Party, Role
from ..storage import db
from ..storage.writer import Write

WINDOW = 30 * 86400.0  # seconds of rated games a scan reads
TOGETHER_MIN = 5
TOGETHER_SHARE = 0.8
FED_MIN = 5
FED_SHARE = 0.9
THROWS_MIN = 3
KINDS = ("shared_place", "always_together", "fed", "thrown_games")
LIST_MAX = 500


def throws(game: Game) -> dict[int, int]:
    """Each seat's moves against its own team in ``game`` (seats without any left out)."""
    out: dict[int, int] = {}
    roles = game.roles
    president = chancellor = -1
    received: list[str] = []

    def count(seat: int) -> None:
        out[seat] = out.get(seat, 0) + 1

    for event in game.events:
        data = event.data
        if event.type == "legislative_session":
            president, chancellor = data["president"], data["chancellor"]
            received = []
        elif event.type == "passed" and roles[president].party is Party.LIBERAL:
            held = [data["discarded"], *data["policies"]]
            if data["discarded"] == "liberal" and "fascist" in held:
                count(president)
        elif event.type == "received":
            received = list(data["policies"])
        elif event.type == "chancellor_discarded" and roles[chancellor].party is Party.LIBERAL:
            if data["policy"] == "liberal" and "fascist" in received:
                count(chancellor)
        elif event.type == "executed":
            shooter = data["president"]
            if roles[data["target"]] is Role.HITLER and roles[shooter].party is Party.FASCIST:
                count(shooter)
    return out


@dataclass(frozen=True, slots=True)
class Signal:
    kind: str
    users: tuple[str, ...]  # sorted
    count: int  # the evidence's size (games, or throws), compared when a flag was cleared
    detail: dict[str, Any]

    @property
    def subject(self) -> str:
        return ",".join(self.users)


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def _shared_place(conn: Connection, user_id: str, since: float) -> list[Signal]:
    ad = db.rated_admissions.c
    mine = conn.execute(
        sa.select(ad.address, ad.device).where(ad.user_id == user_id, ad.ts >= since)
    ).all()
    addresses = {row.address for row in mine}
    devices = {row.device for row in mine if row.device is not None}
    if not addresses:
        return []
    others = conn.execute(
        sa.select(ad.user_id, ad.game_id).where(
            ad.ts >= since,
            ad.user_id != user_id,
            sa.or_(ad.address.in_(addresses), ad.device.in_(devices) if devices else sa.false()),
        )
    ).all()
    games: dict[str, set[str]] = {}
    for row in others:
        games.setdefault(row.user_id, set()).add(row.game_id)
    return [
        Signal("shared_place", _pair(user_id, other), len(ids), {"games": len(ids)})
        for other, ids in games.items()
    ]


def _pairs(conn: Connection, user_id: str, since: float) -> list[Signal]:
    """``always_together`` and ``fed`` for ``user_id`` and each co-player of her window."""
    h1, h2 = db.rating_history.alias("h1"), db.rating_history.alias("h2")
    rows = conn.execute(
        sa.select(h1.c.game_id, h1.c.role, h1.c.won, h2.c.user_id, h2.c.role.label("other_role"))
        .join(h2, h1.c.game_id == h2.c.game_id)
        .where(h1.c.user_id == user_id, h2.c.user_id != user_id, h1.c.ts >= since)
    ).all()
    totals = _totals(conn, {user_id, *(r.user_id for r in rows)}, since)
    together: dict[str, int] = {}
    opposed: dict[str, list[int]] = {}  # other -> [games on opposite teams, this one won]
    for r in rows:
        together[r.user_id] = together.get(r.user_id, 0) + 1
        if (r.role == "liberal") != (r.other_role == "liberal"):
            tally = opposed.setdefault(r.user_id, [0, 0])
            tally[0] += 1
            tally[1] += bool(r.won)
    out = []
    detail: dict[str, Any]
    for other, n in together.items():
        share = n / max(1, min(totals.get(user_id, n), totals.get(other, n)))
        if n >= TOGETHER_MIN and share >= TOGETHER_SHARE:
            detail = {"games": n, "share": round(share, 3)}
            out.append(Signal("always_together", _pair(user_id, other), n, detail))
    for other, (met, won) in opposed.items():
        winner = user_id if won >= met - won else other
        wins = max(won, met - won)
        if met >= FED_MIN and wins / met >= FED_SHARE:
            detail = {"games": met, "winner": winner, "wins": wins}
            out.append(Signal("fed", _pair(user_id, other), met, detail))
    return out


def _totals(conn: Connection, user_ids: Iterable[str], since: float) -> dict[str, int]:
    h = db.rating_history.c
    query = (
        sa.select(h.user_id, sa.func.count())
        .where(h.user_id.in_(list(user_ids)), h.ts >= since)
        .group_by(h.user_id)
    )
    return {uid: int(n) for uid, n in conn.execute(query)}


def _thrown(conn: Connection, user_id: str, since: float) -> list[Signal]:
    h = db.rating_history.c
    row = conn.execute(
        sa.select(sa.func.coalesce(sa.func.sum(h.throws), 0), sa.func.count()).where(
            h.user_id == user_id, h.ts >= since, h.throws > 0
        )
    ).first()
    total, games = (int(row[0]), int(row[1])) if row is not None else (0, 0)
    if total < THROWS_MIN:
        return []
    return [Signal("thrown_games", (user_id,), total, {"throws": total, "games": games})]


def signals_of(conn: Connection, user_ids: Iterable[str], now: float) -> list[Signal]:
    """Every signal that holds for ``user_ids`` over the window ending ``now`` (each once)."""
    since = now - WINDOW
    found: dict[tuple[str, str], Signal] = {}
    for uid in user_ids:
        for sig in (
            *_shared_place(conn, uid, since),
            *_pairs(conn, uid, since),
            *_thrown(conn, uid, since),
        ):
            found[(sig.kind, sig.subject)] = sig
    return list(found.values())


def scan(game_id: str, now: float | None = None) -> Write:
    """Scan the players of the rated game ``game_id`` and store the signals that hold (a flag
    refreshed, or opened again once its evidence passes what a moderator cleared). Returns
    how many flags are open for them now."""

    def run(conn: Connection) -> int:
        at = time.time() if now is None else now
        ids = conn.execute(
            sa.select(db.rated_games.c.user_ids).where(db.rated_games.c.game_id == game_id)
        ).scalar()
        people = [uid for uid in ids or () if uid is not None]
        opened = 0
        for sig in signals_of(conn, people, at):
            opened += _store(conn, sig, at)
        return opened

    return run


def _store(conn: Connection, sig: Signal, now: float) -> int:
    f = db.conduct_flags.c
    row = conn.execute(
        sa.select(f.id, f.detail, f.cleared_at).where(f.kind == sig.kind, f.subject == sig.subject)
    ).first()
    detail = {**sig.detail, "users": list(sig.users), "count": sig.count}
    if row is None:
        conn.execute(
            db.conduct_flags.insert().values(
                kind=sig.kind, subject=sig.subject, detail=detail, created_at=now, updated_at=now
            )
        )
        return 1
    if row.cleared_at is not None and sig.count <= int((row.detail or {}).get("count", 0)):
        return 0  # cleared, and nothing new since
    conn.execute(
        db.conduct_flags.update()
        .where(f.id == row.id)
        .values(detail=detail, updated_at=now, cleared_at=None)
    )
    return 1


def flags(include_cleared: bool = False, limit: int = 50) -> Write:
    """The flags, newest first (open ones only unless ``include_cleared``)."""

    def run(conn: Connection) -> list[dict[str, Any]]:
        f = db.conduct_flags.c
        query = sa.select(db.conduct_flags).order_by(f.updated_at.desc(), f.id.desc())
        if not include_cleared:
            query = query.where(f.cleared_at.is_(None))
        return [
            {
                "id": row.id,
                "kind": row.kind,
                "users": row.subject.split(","),
                "detail": row.detail,
                "created_at": row.created_at,
                "updated_at": row.updated_at,
                "cleared_at": row.cleared_at,
            }
            for row in conn.execute(query.limit(min(limit, LIST_MAX)))
        ]

    return run


def clear(flag_id: int, now: float) -> Write:
    """A moderator looked at the flag: cleared (it opens again if its evidence grows). Returns
    whether an open flag was cleared."""

    def run(conn: Connection) -> bool:
        f = db.conduct_flags.c
        done = conn.execute(
            db.conduct_flags.update()
            .where(f.id == flag_id, f.cleared_at.is_(None))
            .values(cleared_at=now)
        )
        return bool(done.rowcount)

    return run
