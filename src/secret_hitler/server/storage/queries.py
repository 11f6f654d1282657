"""The server's reads and writes: functions of a connection, run by the writer (``writer.Store``)
or on a worker thread (``Store.read``)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection

from ...engine.writer import write_record
from . import db
from .writer import Write


# ---------------------------------------------------------------------- writes
def save_user(user_id: str, name: str) -> Write:
    def run(conn: Connection) -> None:
        conn.execute(db.users.insert().values(id=user_id, name=name, created_at=time.time()))

    return run


def both(first: Write, second: Write) -> Write:
    """``first`` then ``second`` in one transaction; the first's result."""

    def run(conn: Connection) -> Any:
        out = first(conn)
        second(conn)
        return out

    return run


def save_table(row: dict[str, Any], insert: bool) -> Write:
    def run(conn: Connection) -> None:
        if insert:
            conn.execute(db.tables.insert().values(**row))
        else:
            values = {k: v for k, v in row.items() if k != "id"}
            conn.execute(db.tables.update().where(db.tables.c.id == row["id"]).values(**values))

    return run


def start_game(table: dict[str, Any], game: dict[str, Any], replace: bool = False) -> Write:
    """The table row and its new game; ``replace``: a remake deals the table's game anew (the
    old game and its actions are dropped, in the same transaction)."""

    def run(conn: Connection) -> None:
        values = {k: v for k, v in table.items() if k != "id"}
        conn.execute(db.tables.update().where(db.tables.c.id == table["id"]).values(**values))
        if replace:
            conn.execute(db.actions.delete().where(db.actions.c.game_id == game["id"]))
            conn.execute(db.games.delete().where(db.games.c.id == game["id"]))
        conn.execute(db.games.insert().values(**game))

    return run


@dataclass(slots=True)
class ActionWrite:
    game_id: str
    idx: int
    seat: int
    action: dict[str, Any]
    by: str | None
    reshuffles: list[list[str]] | None = None  # the whole list, when it grew
    finished: dict[str, Any] | None = None  # winner/reason when the game ended
    table_update: dict[str, Any] | None = None
    ts: float = field(default_factory=time.time)

    def __call__(self, conn: Connection) -> None:
        ActionWrite.run_many(conn, [self])

    def _game_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {"action_count": self.idx + 1}
        if self.reshuffles is not None:
            values["reshuffles"] = self.reshuffles
        if self.finished is not None:
            values.update(self.finished, status="finished", finished_at=self.ts)
        return values

    @staticmethod
    def run_many(conn: Connection, writes: list[ActionWrite]) -> list[None]:
        """Several actions (any games) with one INSERT and one UPDATE per column set."""
        games: dict[str, dict[str, Any]] = {}
        tables: dict[str, dict[str, Any]] = {}
        for w in writes:  # in order: a game's later action wins
            games.setdefault(w.game_id, {}).update(w._game_values())
            if w.table_update is not None:
                tables.setdefault(w.game_id, {}).update(w.table_update)
        if conn.dialect.name == "sqlite":
            _sqlite_actions(conn, writes, games, tables)
            return [None] * len(writes)
        conn.execute(
            _ACTIONS_INSERT,
            [
                {
                    "game_id": w.game_id,
                    "idx": w.idx,
                    "seat": w.seat,
                    "action": w.action,
                    "by": w.by,
                    "ts": w.ts,
                }
                for w in writes
            ],
        )
        _update_many(conn, _GAMES_UPDATE, "_game_id", games)
        if tables:
            _update_many(conn, _TABLES_UPDATE, "_table_id", tables)
        return [None] * len(writes)


_ACTIONS_INSERT = db.actions.insert()
_GAMES_UPDATE = db.games.update().where(db.games.c.id == sa.bindparam("_game_id"))
_TABLES_UPDATE = db.tables.update().where(db.tables.c.id == sa.bindparam("_table_id"))


def _update_many(conn: Connection, stmt: Any, key: str, rows: dict[str, dict[str, Any]]) -> None:
    """One executemany per set of columns (most batches have a single set)."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row_id, values in rows.items():
        groups.setdefault(tuple(sorted(values)), []).append({key: row_id, **values})
    for params in groups.values():
        conn.execute(stmt, params)


_JSON_COLUMNS = frozenset({"reshuffles", "seats", "rules"})
_SQLITE_INSERT = (
    'INSERT INTO actions (game_id, idx, seat, action, "by", ts) VALUES (?, ?, ?, ?, ?, ?)'
)


def _sqlite_actions(
    conn: Connection,
    writes: list[ActionWrite],
    games: dict[str, dict[str, Any]],
    tables: dict[str, dict[str, Any]],
) -> None:
    """The SQLite path of ``ActionWrite.run_many``: plain DB-API ``executemany`` on the
    transaction's own connection (the SQLAlchemy statement machinery costs more than SQLite
    itself at this size). JSON columns are stored as ``json.dumps`` text, as ``sa.JSON`` does."""
    cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cur.executemany(
            _SQLITE_INSERT,
            [(w.game_id, w.idx, w.seat, json.dumps(w.action), w.by, w.ts) for w in writes],
        )
        for name, rows in (("games", games), ("tables", tables)):
            groups: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
            for row_id, values in rows.items():
                cols = tuple(sorted(values))
                params = tuple(
                    json.dumps(values[c]) if c in _JSON_COLUMNS else values[c] for c in cols
                )
                groups.setdefault(cols, []).append((*params, row_id))
            for cols, params_list in groups.items():
                sets = ", ".join(f'"{c}" = ?' for c in cols)
                cur.executemany(f"UPDATE {name} SET {sets} WHERE id = ?", params_list)
    except sqlite3.Error as exc:  # classified as SQLAlchemy would (a lock: OperationalError)
        raise sa_exc.DBAPIError.instance(_SQLITE_INSERT, None, exc, sqlite3.Error) from exc
    finally:
        cur.close()


def save_chat(table_id: str, message: dict[str, Any]) -> Write:
    def run(conn: Connection) -> None:
        conn.execute(
            db.chat.insert().values(
                table_id=table_id,
                id=message["id"],
                seat=message["seat"],
                user_id=message["user_id"],
                name=message["name"],
                text=message["text"],
                ts=message["ts"],
                after=message.get("after"),
                line=message.get("line"),
            )
        )

    return run


# ---------------------------------------------------------------------- read functions
@dataclass(slots=True)
class StoredTable:
    table: dict[str, Any]
    game: dict[str, Any] | None
    actions: list[dict[str, Any]]
    chat: list[dict[str, Any]]


def _chat_rows(conn: Connection, table_id: str, limit: int | None = None) -> list[dict[str, Any]]:
    c = db.chat.c
    query = sa.select(db.chat).where(c.table_id == table_id).order_by(c.id.desc())
    if limit is not None:
        query = query.limit(limit)
    rows = [dict(r._mapping) for r in conn.execute(query)]
    rows.reverse()
    for r in rows:
        r.pop("table_id", None)
        if r.get("line") is None:  # a person's line: text only (table/chat.py)
            r.pop("line", None)
    return rows


def load_table(conn: Connection, table_id: str, chat_limit: int | None = 200) -> StoredTable | None:
    row = conn.execute(sa.select(db.tables).where(db.tables.c.id == table_id)).first()
    if row is None:
        return None
    game = conn.execute(sa.select(db.games).where(db.games.c.id == table_id)).first()
    acts: list[dict[str, Any]] = []
    if game is not None:
        a = db.actions.c
        acts = [
            dict(r._mapping)
            for r in conn.execute(
                sa.select(a.idx, a.seat, a.action, a.by)
                .where(a.game_id == table_id)
                .order_by(a.idx)
            )
        ]
    return StoredTable(
        dict(row._mapping),
        None if game is None else dict(game._mapping),
        acts,
        _chat_rows(conn, table_id, chat_limit),
    )


def load_active(conn: Connection) -> list[StoredTable]:
    ids = [
        r[0]
        for r in conn.execute(
            sa.select(db.tables.c.id)
            .where(db.tables.c.status.in_(("waiting", "playing")))
            .order_by(db.tables.c.created_at)
        )
    ]
    out = []
    for table_id in ids:
        stored = load_table(conn, table_id)
        if stored is not None:
            out.append(stored)
    return out


_ACCESS = ("public", "published", "invite", "host", "seats")


def table_row(table_id: str) -> Write:
    """The table's row (without its game), or None."""

    def run(conn: Connection) -> dict[str, Any] | None:
        row = conn.execute(sa.select(db.tables).where(db.tables.c.id == table_id)).first()
        return None if row is None else dict(row._mapping)

    return run


def username_of(user_id: str) -> Write:
    """The account's username (None for a guest)."""

    def run(conn: Connection) -> str | None:
        u = db.users.c
        return conn.execute(sa.select(u.username).where(u.id == user_id)).scalar()

    return run


def set_published(table_id: str, published: bool) -> Write:
    def run(conn: Connection) -> None:
        t = db.tables
        conn.execute(t.update().where(t.c.id == table_id).values(published=published))

    return run


def list_finished(
    limit: int,
    visible: Callable[[dict[str, Any]], bool],
    user_id: str | None,
    before: float | None = None,
) -> Write:
    """The newest finished games whose table row passes ``visible`` (finished before ``before``,
    for the next page). SQL keeps public and published tables and those that mention ``user_id``
    (a superset of hers); ``visible`` decides."""

    def run(conn: Connection) -> list[dict[str, Any]]:
        g = db.games.c
        t = db.tables.c
        query = (
            sa.select(
                g.id,
                g.players,
                g.names,
                g.rules,
                g.winner,
                g.reason,
                g.action_count,
                g.created_at,
                g.finished_at,
                t.name,
                t.host_name,
                *(t[name] for name in _ACCESS),
            )
            .join_from(db.games, db.tables, t.id == g.table_id)
            .where(g.status == "finished")
            .order_by(g.finished_at.desc())
        )
        if before is not None:
            query = query.where(g.finished_at < before)
        shown: list[sa.ColumnElement[bool]] = [t.public, t.published]
        if user_id is not None:
            shown += [
                t.host == user_id,
                sa.cast(t.seats, sa.Text).contains(user_id, autoescape=True),
            ]
        out = []
        for r in conn.execute(query.where(sa.or_(*shown))):
            d = dict(r._mapping)
            if not visible(d):
                continue
            for name in _ACCESS:
                d.pop(name)
            d["actions"] = d.pop("action_count")
            out.append(d)
            if len(out) >= limit:
                break
        return out

    return run


def record_of(stored: StoredTable) -> dict[str, Any]:
    """The game record (RECORD-FORMAT.md) of a stored game, from its fixings and actions, by the
    engine's record writer."""
    g = stored.game
    assert g is not None
    return write_record(
        rules=g["rules"],
        players=g["names"],
        roles=g["roles"],
        first_president=g["first_president"],
        deck=g["deck"],
        reshuffles=g["reshuffles"],
        actions=[a["action"] for a in stored.actions],
        seed=g["seed"],
        winner=g["winner"],
        reason=g["reason"],
    )
