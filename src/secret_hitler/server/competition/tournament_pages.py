"""What the tournament pages show (docs/competitive.md "Tournaments"): the list of open and
recent tournaments, and one tournament's page, its entrants, standings, each round's tables and
how each seat's game went (the bracket), read from the rows ``tournaments.py`` writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..storage import db
from ..storage.ratings import preset_of
from ..storage.writer import Write
from . import scoring
from .tournaments import (
    CANCELLED,
    CHECKED,
    ELIMINATION,
    FINISHED,
    OPEN,
    SIGNED,
    TT,
    E,
    T,
    Tournament,
    entrants,
    get,
    results,
)


def listing(limit: int) -> Write:
    """Open tournaments (by start) and the latest finished or cancelled ones, with their counts."""

    def run(conn: Connection) -> list[dict[str, Any]]:
        counted = (
            sa.select(E.c.tournament_id, sa.func.count().label("entrants"))
            .group_by(E.c.tournament_id)
            .subquery()
        )
        query = sa.select(T, counted.c.entrants).outerjoin(
            counted, counted.c.tournament_id == T.c.id
        )
        open_ = conn.execute(query.where(T.c.status.in_(OPEN)).order_by(T.c.starts_at).limit(limit))
        past = conn.execute(
            query.where(T.c.status.in_((FINISHED, CANCELLED)))
            .order_by(T.c.finished_at.desc())
            .limit(limit)
        )
        out = []
        for row in [*open_, *past]:
            m = dict(row._mapping)
            count = m.pop("entrants")
            item = Tournament(**m).to_json()
            item["entrants"] = int(count or 0)
            out.append(item)
        return out

    return run


def champions(
    t: Tournament, tables: Sequence[dict[str, Any]], rs: Sequence[scoring.Result]
) -> list[str]:
    """A finished single elimination tournament's champions: the winners of its final (the
    last round, one table) who played it to the end."""
    if t.format != ELIMINATION or t.status != FINISHED:
        return []
    last = [tb for tb in tables if tb["round"] == t.round]
    if len(last) != 1:
        return []
    final = last[0]["table_id"]
    return [r.user_id for r in rs if r.table_id == final and r.won and not r.left]


def detail(tournament_id: str) -> Write:
    """Everything the tournament page shows (``describe``), or None."""

    def run(conn: Connection) -> dict[str, Any] | None:
        t = get(conn, tournament_id)
        if t is None:
            return None
        tables = [
            dict(r._mapping)
            for r in conn.execute(
                sa.select(TT, db.tables.c.status)
                .outerjoin(db.tables, db.tables.c.id == TT.c.table_id)
                .where(TT.c.tournament_id == t.id)
                .order_by(TT.c.round, TT.c.created_at, TT.c.table_id)
            )
        ]
        return describe(t, entrants(conn, t.id), tables, results(conn, t.id))

    return run


def describe(
    t: Tournament,
    people: Sequence[dict[str, Any]],
    tables: Sequence[dict[str, Any]],
    rs: Sequence[scoring.Result],
) -> dict[str, Any]:
    """The tournament page's content: the tournament, its entrants, the standings, and each
    round's tables with who sat where and how each seat's game went (the bracket)."""
    crowned = champions(t, tables, rs)
    played = [e for e in people if e["state"] not in (SIGNED, CHECKED)]
    lines = scoring.standings(played, rs, t.format == ELIMINATION, crowned)
    by_seat = {(r.table_id, r.user_id): r for r in rs}
    names = {e["user_id"]: e["name"] for e in people}
    rounds: dict[int, list[dict[str, Any]]] = {}
    for tb in tables:
        seats = []
        for i, uid in enumerate(tb["seats"]):
            r = by_seat.get((tb["table_id"], uid)) if uid is not None else None
            seats.append(
                {
                    "seat": i,
                    "user_id": uid,
                    "name": names.get(uid) if uid is not None else None,
                    "role": r.role if r is not None else None,
                    "won": r.won if r is not None else None,
                    "left": r.left if r is not None else None,
                    "points": r.points if r is not None else None,
                }
            )
        rounds.setdefault(tb["round"], []).append(
            {
                "table_id": tb["table_id"],
                "status": tb.get("status"),
                "done": bool(tb["done"]),
                "seats": seats,
            }
        )
    return {
        **t.to_json(),
        "entrants": [
            {
                "user_id": e["user_id"],
                "name": e["name"],
                "state": e["state"],
                "round_out": e["round_out"],
            }
            for e in people
        ],
        "standings": [ln.to_json() for ln in lines],
        "round_tables": [{"round": n, "tables": rounds[n]} for n in sorted(rounds)],
        "champions": crowned,
        "points": {
            str(n): v for n, v in scoring.points_table(t.scoring, preset_of(t.rules)).items()
        },
    }
