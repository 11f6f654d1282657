"""Rated tables in storage: the rating update after each game (all-time and the season's), the
leaves from rated games, the leaderboard and player profiles (docs/protocol.md "Ratings",
docs/competitive.md; the model is ``secret_hitler.ratings``; who may play a rated table:
``lobby.plans.rated_problem`` and ``competition/eligibility.py``).

A rated table is people only, a rated rules preset, 5-10 players. Its players (user ids by
seat), the season in force and where each seat was taken from are stored with the game's start
in ``rated_games``, so a player who leaves mid-game still counts (as a loss). When the game
ends, one transaction updates every player's ratings, writes the history and marks the game
rated; a game left unrated by a crash or an unavailable database is rated at the next startup
(``catch_up``), in the order the games ended.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ... import ratings as R
from . import db
from .writer import Store, Write

log = logging.getLogger("secret_hitler.server.ratings")

PERIODS = {"week": 7 * 86400, "month": 30 * 86400, "all": None}
HISTORY_MAX = 500  # rating history points in a profile (the newest)
#: The ``by`` of a move a stand-in made for a person (table/driver.py): a seat played mostly
#: by them counts as left (docs/competitive.md "Leaving").
STAND_IN_MOVES = ("timer", "absent")


def season_at(conn: Connection, ts: float) -> str | None:
    """The id of the season in force at ``ts`` (None: none; seasons never overlap:
    ``competition/seasons.py``)."""
    s = db.seasons.c
    return conn.execute(
        sa.select(s.id).where(s.starts_at <= ts, s.ends_at > ts).order_by(s.starts_at).limit(1)
    ).scalar()


def with_rated_start(
    write: Write,
    game_id: str,
    user_ids: list[str | None],
    admissions: dict[str, dict[str, Any]] | None = None,
) -> Write:
    """``write`` (the game's start) plus its rated players (a seat a bot holds: None, never
    rated), the season in force now and where each seat was taken from, in the same
    transaction. A remake deals the game anew: its players are taken again."""

    def run(conn: Connection) -> Any:
        out = write(conn)
        now = time.time()
        conn.execute(db.rated_games.delete().where(db.rated_games.c.game_id == game_id))
        conn.execute(db.rated_admissions.delete().where(db.rated_admissions.c.game_id == game_id))
        conn.execute(
            db.rated_games.insert().values(
                game_id=game_id,
                user_ids=user_ids,
                created_at=now,
                rated_at=None,
                season_id=season_at(conn, now),
            )
        )
        rows = [
            {"game_id": game_id, "user_id": uid, "address": a["a"], "device": a.get("d"), "ts": now}
            for uid, a in (admissions or {}).items()
            if uid in user_ids
        ]
        if rows:
            conn.execute(db.rated_admissions.insert(), rows)
        return out

    return run


def record_leave(game_id: str, user_id: str, kind: str, ts: float) -> Write:
    """``user_id`` left the rated game ``game_id`` before its end (``kind``: ``left`` or
    ``replaced``), counted by the game's season; once per game (a second leave of the same game
    is not counted again). Composed with the write that hands her seat to a bot."""

    def run(conn: Connection) -> None:
        lv = db.rated_leaves.c
        seen = conn.execute(
            sa.select(lv.kind).where(lv.game_id == game_id, lv.user_id == user_id)
        ).first()
        if seen is not None:
            return
        season = conn.execute(
            sa.select(db.rated_games.c.season_id).where(db.rated_games.c.game_id == game_id)
        ).scalar()
        conn.execute(
            db.rated_leaves.insert().values(
                game_id=game_id, user_id=user_id, season_id=season, kind=kind, ts=ts
            )
        )

    return run


def preset_of(rules: Any) -> str:
    """The rules preset of a stored game's rules (a preset name, or a preset with changes)."""
    if isinstance(rules, str):
        return rules
    if isinstance(rules, dict) and isinstance(rules.get("preset"), str):
        return str(rules["preset"])
    return R.OFFICIAL


def _ratings(conn: Connection, table: sa.Table, where: Any, user_ids: list[str]) -> dict[str, Any]:
    """The stored ratings (rows) of ``user_ids`` in ``table`` (all-time or one season's)."""
    return {
        row.user_id: row
        for row in conn.execute(sa.select(table).where(where, table.c.user_id.in_(user_ids)))
    }


def _rate_all(
    roles: list[str],
    before: list[R.Rating],
    liberals_won: bool,
    preset: str,
    left: set[int],
) -> list[R.Rating]:
    """Each seat's rating after the game (a leaver's as a loss: ``R.rate_with_leavers``)."""
    lib = [i for i, role in enumerate(roles) if role == "liberal"]
    fas = [i for i, role in enumerate(roles) if role != "liberal"]
    order = lib + fas
    after = R.rate_with_leavers(
        [before[i] for i in lib],
        [before[i] for i in fas],
        liberals_won,
        preset,
        frozenset(k for k, seat in enumerate(order) if seat in left),
    )
    out: list[R.Rating] = list(before)
    for k, seat in enumerate(order):
        out[seat] = after[k]
    return out


def stood_in(conn: Connection, game_id: str) -> list[int]:
    """The seats whose moves a stand-in made more often than their person did (``by``:
    ``timer`` or ``absent``): a player who let a bot play her rated game for her (a rated
    game counts it as left; a tournament game scores it 0, ``competition/tournaments.py``)."""
    a = db.actions.c
    counts: dict[int, list[int]] = {}
    for seat, by, n in conn.execute(
        sa.select(a.seat, a.by, sa.func.count()).where(a.game_id == game_id).group_by(a.seat, a.by)
    ):
        tally = counts.setdefault(seat, [0, 0])
        tally[by in STAND_IN_MOVES] += n
    return [seat for seat, (own, stood_in) in counts.items() if stood_in > own]


def rate_game(game_id: str, throws: dict[int, int] | None = None) -> Write:
    """Apply a finished rated game to its players' all-time ratings and, when a season was in
    force at its start, their season ratings, once (a no-op if already rated). A seat a bot
    held from the start (a remake after a leave) counts for its team at the default rating and
    is never rated; a player who left, or whose moves a stand-in made more often than she did,
    counts as a loss (``R.rate_with_leavers``) and her leave is counted. ``throws``:
    each seat's moves against its own team (``competition/signals.py``), kept in the history
    for the conduct signals."""

    def run(conn: Connection) -> bool:
        rg = db.rated_games.c
        pending = conn.execute(
            sa.select(rg.user_ids, rg.season_id).where(rg.game_id == game_id, rg.rated_at.is_(None))
        ).first()
        if pending is None:
            return False
        g = db.games.c
        game = conn.execute(
            sa.select(g.roles, g.winner, g.status, g.finished_at, g.rules).where(g.id == game_id)
        ).first()
        if game is None or game.status != "finished" or game.winner is None:
            return False
        seats: list[str | None] = list(pending.user_ids)
        people = [uid for uid in seats if uid is not None]
        roles: list[str] = list(game.roles)
        preset = preset_of(game.rules)
        liberals_won = game.winner == "liberal"
        left = _left(conn, game_id, seats, game.finished_at)
        now = time.time()
        ts = game.finished_at or now
        rows, before = _ratings_before(conn, db.ratings, sa.true(), people, seats)
        after = _rate_all(roles, before, liberals_won, preset, left)
        season_id = pending.season_id
        s_rows: dict[str, Any] = {}
        s_before: list[R.Rating] = []
        s_after: list[R.Rating] = []
        if season_id is not None:
            in_season = db.season_ratings.c.season_id == season_id
            s_rows, s_before = _ratings_before(conn, db.season_ratings, in_season, people, seats)
            s_after = _rate_all(roles, s_before, liberals_won, preset, left)
        for seat, uid in enumerate(seats):
            if uid is None:
                continue  # a bot is never rated
            new = after[seat]
            _store_rating(conn, uid, rows.get(uid), new, now)
            season_values: dict[str, Any] = {}
            if season_id is not None:
                s_new = s_after[seat]
                _store_season(conn, season_id, uid, s_rows.get(uid), s_new, now)
                season_values = {
                    "season_id": season_id,
                    "season_mu_before": s_before[seat].mu,
                    "season_sigma_before": s_before[seat].sigma,
                    "season_mu": s_new.mu,
                    "season_sigma": s_new.sigma,
                }
            won = (roles[seat] == "liberal") == liberals_won and seat not in left
            conn.execute(
                db.rating_history.insert().values(
                    game_id=game_id,
                    user_id=uid,
                    players=len(roles),
                    role=roles[seat],
                    won=won,
                    mu_before=before[seat].mu,
                    sigma_before=before[seat].sigma,
                    mu=new.mu,
                    sigma=new.sigma,
                    ts=ts,
                    left_early=seat in left,
                    throws=(throws or {}).get(seat, 0),
                    **season_values,
                )
            )
        conn.execute(db.rated_games.update().where(rg.game_id == game_id).values(rated_at=now))
        return True

    return run


def _left(
    conn: Connection, game_id: str, seats: list[str | None], finished_at: float | None
) -> set[int]:
    """The seats of a rated game that count as leavers: those whose person left it (stored
    already), and those whose moves a stand-in made more often than she did (``stood_in``:
    away for most of her own game), whose leave is recorded now."""
    lv = db.rated_leaves.c
    leavers = set(conn.execute(sa.select(lv.user_id).where(lv.game_id == game_id)).scalars())
    for seat in stood_in(conn, game_id):
        uid = seats[seat] if seat < len(seats) else None
        if uid is not None and uid not in leavers:
            record_leave(game_id, uid, "absent", finished_at or time.time())(conn)
            leavers.add(uid)
    return {i for i, uid in enumerate(seats) if uid is not None and uid in leavers}


def _ratings_before(
    conn: Connection,
    table: sa.Table,
    where: Any,
    people: list[str],
    seats: list[str | None],
) -> tuple[dict[str, Any], list[R.Rating]]:
    """The stored rows of ``people`` in ``table`` (all-time or a season's) and each seat's
    rating before the game (the default for a bot or someone not rated yet)."""
    rows = _ratings(conn, table, where, people)
    start = R.default()
    return rows, [
        R.Rating(rows[uid].mu, rows[uid].sigma) if uid is not None and uid in rows else start
        for uid in seats
    ]


def _store_rating(conn: Connection, user_id: str, row: Any, new: R.Rating, now: float) -> None:
    """A player's all-time rating after one more game (``row``: her stored one, or None)."""
    values = {"mu": new.mu, "sigma": new.sigma, "updated_at": now}
    if row is not None:
        conn.execute(
            db.ratings.update()
            .where(db.ratings.c.user_id == user_id)
            .values(**values, games=row.games + 1)
        )
    else:
        conn.execute(db.ratings.insert().values(user_id=user_id, games=1, **values))


def _store_season(
    conn: Connection, season_id: str, user_id: str, row: Any, new: R.Rating, now: float
) -> None:
    sr = db.season_ratings.c
    values = {"mu": new.mu, "sigma": new.sigma, "updated_at": now}
    if row is None:
        conn.execute(
            db.season_ratings.insert().values(
                season_id=season_id, user_id=user_id, games=1, **values
            )
        )
    else:
        conn.execute(
            db.season_ratings.update()
            .where(sr.season_id == season_id, sr.user_id == user_id)
            .values(**values, games=row.games + 1)
        )


async def rate(store: Store, game_id: str, throws: dict[int, int] | None = None) -> bool:
    """Rate a rated game that just ended; a failure leaves it for ``catch_up`` (the result is
    committed in one transaction: nobody reads half of it). Returns whether it was rated now."""
    try:
        if await store.write(rate_game(game_id, throws)):
            log.info("game rated", extra={"game_id": game_id})
            return True
    except Exception:
        log.warning("rating postponed to the next start", extra={"game_id": game_id})
    return False


async def catch_up(store: Store) -> int:
    """Rate every finished rated game that is not rated yet, oldest first; returns how many."""

    def pending(conn: Connection) -> list[str]:
        rg, g = db.rated_games.c, db.games.c
        query = (
            sa.select(rg.game_id)
            .join_from(db.rated_games, db.games, g.id == rg.game_id)
            .where(rg.rated_at.is_(None), g.status == "finished")
            .order_by(g.finished_at)
        )
        return list(conn.execute(query).scalars())

    done = 0
    for game_id in await store.read(pending):
        done += bool(await store.write(rate_game(game_id)))
    return done


# ---------------------------------------------------------------------- queries
def _entry(user_id: str, name: str, mu: float, sigma: float, games: int) -> dict[str, Any]:
    return {
        "user_id": user_id,
        "name": name,
        "rating": round(mu - 3 * sigma, 2),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "games": games,
    }


def leaderboard(period: str, limit: int, now: float) -> Write:
    def run(conn: Connection) -> list[dict[str, Any]]:
        r, u, h = db.ratings.c, db.users.c, db.rating_history.c
        ordinal = (r.mu - 3 * r.sigma).label("ordinal")
        span = PERIODS[period]
        if span is None:
            query = (
                sa.select(r.user_id, u.name, r.mu, r.sigma, r.games)
                .join_from(db.ratings, db.users, u.id == r.user_id)
                .order_by(ordinal.desc(), r.user_id)
                .limit(limit)
            )
            return [_entry(*row) for row in conn.execute(query)]
        recent = (
            sa.select(
                h.user_id,
                sa.func.count().label("games"),
                sa.func.sum(sa.case((h.won, 1), else_=0)).label("wins"),
            )
            .where(h.ts >= now - span)
            .group_by(h.user_id)
            .subquery()
        )
        query = (
            sa.select(r.user_id, u.name, r.mu, r.sigma, recent.c.games, recent.c.wins)
            .join_from(db.ratings, recent, recent.c.user_id == r.user_id)
            .join(db.users, u.id == r.user_id)
            .order_by(ordinal.desc(), r.user_id)
            .limit(limit)
        )
        out = []
        for row in conn.execute(query):
            entry = _entry(row.user_id, row.name, row.mu, row.sigma, int(row.games))
            entry["wins"] = int(row.wins or 0)
            out.append(entry)
        return out

    return run


def _rate_of(games: int, wins: int) -> dict[str, Any]:
    return {"games": games, "wins": wins, "win_rate": round(wins / games, 4) if games else None}


def profile(user_id: str) -> Write:
    """A player's profile: rating, rating history, and win rates by role and player count over
    every finished game she played at a public table, or a published private one (casual and
    rated; a rated game she left counts too). Unpublished private games stay private."""

    def run(conn: Connection) -> dict[str, Any] | None:
        u = db.users.c
        name = conn.execute(sa.select(u.name).where(u.id == user_id)).scalar()
        if name is None:
            return None
        r, h = db.ratings.c, db.rating_history.c
        row = conn.execute(sa.select(r.mu, r.sigma, r.games).where(r.user_id == user_id)).first()
        start = R.default()
        mu, sigma, rated = (row.mu, row.sigma, row.games) if row else (start.mu, start.sigma, 0)
        history = [
            {
                "game_id": p.game_id,
                "ts": p.ts,
                "rating": round(p.mu - 3 * p.sigma, 2),
                "mu": round(p.mu, 3),
                "sigma": round(p.sigma, 3),
                "role": p.role,
                "won": bool(p.won),
                "players": p.players,
                "left": bool(p.left_early),
            }
            for p in conn.execute(
                sa.select(h.game_id, h.ts, h.mu, h.sigma, h.role, h.won, h.players, h.left_early)
                .where(h.user_id == user_id)
                .order_by(h.ts.desc(), h.game_id)
                .limit(HISTORY_MAX)
            )
        ]
        history.reverse()
        played: dict[str, tuple[str, int, bool, bool]] = {}  # game -> role, players, won, rated
        for p in conn.execute(
            sa.select(h.game_id, h.role, h.players, h.won).where(h.user_id == user_id)
        ):
            played[p.game_id] = (p.role, p.players, bool(p.won), True)
        g, t = db.games.c, db.tables.c
        for game in conn.execute(
            sa.select(g.id, g.roles, g.winner, t.seats)
            .join_from(db.games, db.tables, t.id == g.table_id)
            .where(
                g.status == "finished",
                sa.or_(t.public, t.published),
                sa.cast(t.seats, sa.Text).contains(user_id, autoescape=True),
            )
        ):
            if game.id in played or game.winner is None:
                continue
            seat = next((i for i, s in enumerate(game.seats) if s.get("user_id") == user_id), None)
            if seat is None:
                continue
            role = game.roles[seat]
            won = (role == "liberal") == (game.winner == "liberal")
            played[game.id] = (role, len(game.roles), won, False)
        by_role: dict[str, list[int]] = {k: [0, 0] for k in ("liberal", "fascist", "hitler")}
        by_players: dict[str, list[int]] = {}
        for role, players, won, _ in played.values():
            for bucket in (
                by_role.setdefault(role, [0, 0]),
                by_players.setdefault(str(players), [0, 0]),
            ):
                bucket[0] += 1
                bucket[1] += won
        games = len(played)
        wins = sum(won for _, _, won, _ in played.values())
        return {
            "user_id": user_id,
            "name": name,
            "rating": _entry(user_id, name, mu, sigma, rated),
            "games": games,
            "rated_games": sum(1 for *_, is_rated in played.values() if is_rated),
            "wins": wins,
            "win_rate": round(wins / games, 4) if games else None,
            "by_role": {k: _rate_of(*v) for k, v in by_role.items()},
            "by_players": {
                k: _rate_of(*v) for k, v in sorted(by_players.items(), key=lambda kv: int(kv[0]))
            },
            "history": history,
        }

    return run
