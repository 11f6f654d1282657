"""The matchmaking queue in the database (docs/competitive.md "The queue").

The database is the queue's one source of truth, on one server and on a cluster alike: a person
joins, waits, is put in a ready check, confirms, is seated or drops back, and every step is one
transaction on her row of ``queue_entries`` (and on ``queue_matches`` for a ready check under
way). Any node serves a person's requests (join, leave, confirm, her state); only one node at a
time forms tables (the holder of the system lease: ``lobby/system.py``), and each of its writes
checks the rows it changes as it changes them (``UPDATE ... WHERE state = 'waiting'``, then the
count of rows it touched), so that a person who left in the meantime, or a second former whose
lease ran out, changes nothing: the write raises ``Stale`` and its transaction is rolled back.
A person is seated once: her row moves from ``check`` to ``seated`` in the transaction that
stores her table.

States of an entry: ``waiting`` (in the pool), ``check`` (in the ready check ``match_id``:
``ready`` once she confirmed), ``seated`` (at ``table_id``: kept a while so that her client
learns it). ``updated_at`` changes with every step: a client's long poll waits for it to move.

A ready check she let pass, or declined, is a no-show (``queue_no_shows``); the second within
``NO_SHOW_WINDOW`` keeps her out of the queue for the no-show cooldown, three times longer for
each further one, at most ``NO_SHOW_MAX`` (``no_show_until``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..core.errors import LobbyError
from ..storage import db
from ..storage.writer import Refused, Write

WAITING, CHECK, SEATED = "waiting", "check", "seated"
#: No-shows older than this are forgotten.
NO_SHOW_WINDOW = 3600.0
#: Each further no-show in the window makes the cooldown this many times longer ...
NO_SHOW_FACTOR = 3
#: ... up to this long.
NO_SHOW_MAX = 1800.0
#: A seated entry tells her client where she sits for this long, then it goes.
SEATED_KEPT = 600.0

Q = db.queue_entries
M = db.queue_matches


class Stale(Refused):
    """The queue changed under a write of the former (someone left, or another node formed
    first): nothing was written."""


@dataclass(frozen=True, slots=True)
class Entry:
    user_id: str
    name: str
    players: int
    category: str
    rating: float
    joined_at: float
    state: str
    match_id: str | None
    ready: bool
    admission: dict[str, Any] | None
    table_id: str | None
    updated_at: float


def _entry(row: Any) -> Entry:
    m = row._mapping
    return Entry(
        m["user_id"],
        m["name"],
        int(m["players"]),
        m["category"],
        float(m["rating"]),
        float(m["joined_at"]),
        m["state"],
        m["match_id"],
        bool(m["ready"]),
        m["admission"] if isinstance(m["admission"], dict) else None,
        m["table_id"],
        float(m["updated_at"]),
    )


def no_show_until(misses: Sequence[float], first: float) -> float | None:
    """When a person whose no-shows of the last ``NO_SHOW_WINDOW`` were at ``misses`` may queue
    again: one is forgiven; from the second on, ``first`` seconds after the last, times
    ``NO_SHOW_FACTOR`` for each further one, at most ``NO_SHOW_MAX``. None: she may now."""
    if len(misses) < 2 or first <= 0:
        return None
    growth = float(NO_SHOW_FACTOR ** min(len(misses) - 2, 16))
    return float(max(misses)) + min(NO_SHOW_MAX, first * growth)


def _misses(conn: Connection, user_id: str, now: float) -> list[float]:
    n = db.queue_no_shows.c
    rows = conn.execute(
        sa.select(n.ts).where(n.user_id == user_id, n.ts >= now - NO_SHOW_WINDOW)
    ).scalars()
    return sorted(float(ts) for ts in rows)


def _cooldown(until: float) -> LobbyError:
    return LobbyError(
        403,
        "queue_cooldown",
        "you let ready checks pass: you may join the queue again from "
        f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime(until))}",
    )


# ---------------------------------------------------------------------- a person's steps
def join(
    user_id: str,
    name: str,
    players: int,
    category: str,
    rating: float,
    admission: dict[str, Any] | None,
    now: float,
    no_show: float,
) -> Write:
    """``user_id`` joins the queue for ``players`` and ``category`` (``LobbyError``: she is in it
    already, or cooling down after no-shows). Returns her entry."""

    def run(conn: Connection) -> Entry:
        until = no_show_until(_misses(conn, user_id, now), no_show)
        if until is not None and now < until:
            raise _cooldown(until)
        conn.execute(Q.delete().where(Q.c.user_id == user_id, Q.c.state == SEATED))
        values = {
            "user_id": user_id,
            "name": name,
            "players": players,
            "category": category,
            "rating": rating,
            "joined_at": now,
            "state": WAITING,
            "match_id": None,
            "ready": False,
            "admission": admission,
            "table_id": None,
            "updated_at": now,
        }
        inserted = conn.execute(
            _insert(conn).values(**values).on_conflict_do_nothing().returning(Q.c.user_id)
        ).first()
        if inserted is None:
            raise LobbyError(409, "already_queued", "you are in the queue already")
        return Entry(**{**values, "ready": False})  # type: ignore[arg-type]

    return run


def _insert(conn: Connection, table: sa.Table = Q) -> Any:
    """INSERT of the connection's dialect (it knows ON CONFLICT)."""
    from sqlalchemy.dialects import postgresql, sqlite

    return (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(table)


def _no_shows(conn: Connection, user_ids: Sequence[str], now: float) -> None:
    """A no-show for each (one per person and instant: a second at the same instant is one)."""
    rows = [{"user_id": u, "ts": now} for u in user_ids]
    conn.execute(_insert(conn, db.queue_no_shows).values(rows).on_conflict_do_nothing())


def leave(user_id: str, now: float) -> Write:
    """``user_id`` leaves the queue (from a ready check too: her place there is refilled).
    Returns her entry as it was (None: she was not in it)."""

    def run(conn: Connection) -> Entry | None:
        row = conn.execute(sa.select(Q).where(Q.c.user_id == user_id)).first()
        if row is None:
            return None
        conn.execute(Q.delete().where(Q.c.user_id == user_id))
        entry = _entry(row)
        if entry.match_id is not None:
            _touch_match(conn, entry.match_id, now)
        return entry

    return run


def confirm(user_id: str, match_id: str, ready: bool, now: float) -> Write:
    """``user_id`` answers the ready check ``match_id``: ready, or not (she leaves the queue,
    counted as a no-show). Returns the match's people's ids (to tell them)."""

    def run(conn: Connection) -> list[str]:
        found = conn.execute(
            sa.select(Q.c.state, Q.c.match_id).where(Q.c.user_id == user_id)
        ).first()
        if found is None or found.state != CHECK or found.match_id != match_id:
            raise LobbyError(409, "no_ready_check", "this ready check is over")
        if ready:
            conn.execute(
                Q.update()
                .where(Q.c.user_id == user_id, Q.c.match_id == match_id)
                .values(ready=True, updated_at=now)
            )
        else:
            conn.execute(Q.delete().where(Q.c.user_id == user_id))
            _no_shows(conn, [user_id], now)
        _touch_match(conn, match_id, now)
        return _members(conn, match_id) + ([] if ready else [user_id])

    return run


def _members(conn: Connection, match_id: str) -> list[str]:
    rows = conn.execute(sa.select(Q.c.user_id).where(Q.c.match_id == match_id)).scalars()
    return [str(u) for u in rows]


def _touch_match(conn: Connection, match_id: str, now: float) -> None:
    """Everyone in the ready check sees the change (their long polls wake)."""
    conn.execute(Q.update().where(Q.c.match_id == match_id).values(updated_at=now))


def state(user_id: str, now: float, no_show: float) -> Write:
    """What ``GET /api/queue`` tells ``user_id``: her entry, the ready check she is in (its
    deadline, how many are in it and ready), her no-show cooldown."""

    def run(conn: Connection) -> dict[str, Any]:
        row = conn.execute(sa.select(Q).where(Q.c.user_id == user_id)).first()
        until = no_show_until(_misses(conn, user_id, now), no_show)
        out: dict[str, Any] = {
            "state": "idle",
            "cooldown_until": until if until is not None and until > now else None,
            "version": 0.0,
        }
        if row is None:
            return out
        e = _entry(row)
        out.update(
            state=e.state,
            players=e.players,
            category=e.category,
            joined_at=e.joined_at,
            version=e.updated_at,
            table_id=e.table_id,
        )
        if e.state == CHECK and e.match_id is not None:
            deadline = conn.execute(sa.select(M.c.deadline).where(M.c.id == e.match_id)).scalar()
            members = conn.execute(sa.select(Q.c.ready).where(Q.c.match_id == e.match_id)).scalars()
            ready = list(members)
            out["match"] = {
                "id": e.match_id,
                "deadline": deadline,
                "players": e.players,
                "in": len(ready),
                "ready": sum(1 for r in ready if r),
                "you_ready": e.ready,
            }
        return out

    return run


def counts() -> Write:
    """How many wait, for each player count and category (the queue button shows it)."""

    def run(conn: Connection) -> list[dict[str, Any]]:
        query = (
            sa.select(Q.c.players, Q.c.category, sa.func.count())
            .where(Q.c.state.in_((WAITING, CHECK)))
            .group_by(Q.c.players, Q.c.category)
        )
        return [
            {"players": int(p), "category": c, "waiting": int(n)} for p, c, n in conn.execute(query)
        ]

    return run


# ---------------------------------------------------------------------- the former's steps
@dataclass(frozen=True, slots=True)
class Match:
    id: str
    players: int
    category: str
    deadline: float
    members: tuple[Entry, ...]

    @property
    def complete(self) -> bool:
        """Everyone it needs is in it and ready."""
        return len(self.members) == self.players and all(e.ready for e in self.members)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The queue as the former reads it: the waiting people of each pool, the ready checks."""

    pools: dict[tuple[int, str], list[Entry]]
    matches: list[Match]


def snapshot() -> Write:
    def run(conn: Connection) -> Snapshot:
        pools: dict[tuple[int, str], list[Entry]] = {}
        in_match: dict[str, list[Entry]] = {}
        for row in conn.execute(sa.select(Q).where(Q.c.state.in_((WAITING, CHECK)))):
            e = _entry(row)
            if e.state == WAITING:
                pools.setdefault((e.players, e.category), []).append(e)
            elif e.match_id is not None:
                in_match.setdefault(e.match_id, []).append(e)
        matches = [
            Match(
                r.id,
                int(r.players),
                r.category,
                float(r.deadline),
                tuple(sorted(in_match.get(r.id, []), key=lambda e: e.joined_at)),
            )
            for r in conn.execute(sa.select(M).order_by(M.c.created_at))
        ]
        return Snapshot(pools, matches)

    return run


def _take(conn: Connection, match_id: str, user_ids: Sequence[str], now: float) -> None:
    """Waiting people into the ready check ``match_id`` (``Stale``: one of them is not waiting)."""
    if not user_ids:
        return
    done = conn.execute(
        Q.update()
        .where(Q.c.user_id.in_(list(user_ids)), Q.c.state == WAITING)
        .values(state=CHECK, match_id=match_id, ready=False, updated_at=now)
    )
    if done.rowcount != len(user_ids):
        raise Stale(match_id)


def open_match(
    match_id: str, players: int, category: str, user_ids: Sequence[str], deadline: float, now: float
) -> Write:
    """A ready check for these waiting people, until ``deadline``."""

    def run(conn: Connection) -> None:
        conn.execute(
            M.insert().values(
                id=match_id, players=players, category=category, created_at=now, deadline=deadline
            )
        )
        _take(conn, match_id, user_ids, now)

    return run


def refill(match_id: str, user_ids: Sequence[str], deadline: float, now: float) -> Write:
    """More waiting people into a ready check that lost some; its deadline is theirs."""

    def run(conn: Connection) -> None:
        found = conn.execute(M.update().where(M.c.id == match_id).values(deadline=deadline))
        if found.rowcount != 1:
            raise Stale(match_id)
        _take(conn, match_id, user_ids, now)
        _touch_match(conn, match_id, now)

    return run


def drop_unready(match_id: str, now: float) -> Write:
    """The ready check's time is up: who did not confirm leaves the queue (a no-show). Returns
    their ids."""

    def run(conn: Connection) -> list[str]:
        gone = [
            str(u)
            for u in conn.execute(
                sa.select(Q.c.user_id).where(Q.c.match_id == match_id, Q.c.ready.is_(False))
            ).scalars()
        ]
        if gone:
            conn.execute(Q.delete().where(Q.c.user_id.in_(gone)))
            _no_shows(conn, gone, now)
        _touch_match(conn, match_id, now)
        return gone

    return run


def dissolve(match_id: str, now: float) -> Write:
    """A ready check that cannot be filled ends: its people wait again, their waiting time kept
    (so they are the first to be seated next). Returns their ids."""

    def run(conn: Connection) -> list[str]:
        back = _members(conn, match_id)
        conn.execute(
            Q.update()
            .where(Q.c.match_id == match_id)
            .values(state=WAITING, match_id=None, ready=False, updated_at=now)
        )
        conn.execute(M.delete().where(M.c.id == match_id))
        return back

    return run


def seat(match: Match, table_id: str, store_table: Write, now: float) -> Write:
    """The ready check is complete: its people are seated at ``table_id``, which
    ``store_table`` stores, in one transaction (``Stale``: someone left meanwhile)."""
    ids = [e.user_id for e in match.members]

    def run(conn: Connection) -> None:
        done = conn.execute(
            Q.update()
            .where(
                Q.c.user_id.in_(ids),
                Q.c.match_id == match.id,
                Q.c.state == CHECK,
                Q.c.ready.is_(True),
            )
            .values(state=SEATED, table_id=table_id, match_id=None, ready=False, updated_at=now)
        )
        if done.rowcount != len(ids) or len(ids) != match.players:
            raise Stale(match.id)
        conn.execute(M.delete().where(M.c.id == match.id))
        store_table(conn)

    return run


def sweep(now: float) -> Write:
    """Seated entries older than ``SEATED_KEPT`` and no-shows older than ``NO_SHOW_WINDOW``
    go; a ready check nobody is in any more ends."""

    def run(conn: Connection) -> None:
        conn.execute(Q.delete().where(Q.c.state == SEATED, Q.c.updated_at < now - SEATED_KEPT))
        n = db.queue_no_shows.c
        conn.execute(db.queue_no_shows.delete().where(n.ts < now - NO_SHOW_WINDOW))
        used = sa.select(Q.c.match_id).where(Q.c.match_id.is_not(None))
        conn.execute(M.delete().where(M.c.id.not_in(used)))

    return run


def ids(entries: Iterable[Entry]) -> list[str]:
    return [e.user_id for e in entries]


def open_tables(kind: str) -> Write:
    """How many tables of ``kind`` wait for players, on every node (new-player tables)."""

    def run(conn: Connection) -> int:
        t = db.tables.c
        query = sa.select(sa.func.count()).where(t.kind == kind, t.status == "waiting")
        return int(conn.execute(query).scalar() or 0)

    return run
