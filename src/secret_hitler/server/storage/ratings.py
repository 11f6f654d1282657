"""Rated tables in storage: the rating update after each game, the leaderboard and player profiles
(docs/protocol.md "Ratings"; the model is ``secret_hitler.ratings``; who may play a rated table:
``lobby.hub.rated_problem``).

A rated table is people only, official rules, 5-10 players. Its players (user ids by seat) are
stored with the game's start in ``rated_games``, so a player who leaves mid-game still counts.
When the game ends, one transaction updates every player's rating, writes the history and marks
the game rated; a game left unrated by a crash or an unavailable database is rated at the next
startup (``catch_up``), in the order the games ended.
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


def with_rated_start(write: Write, game_id: str, user_ids: list[str | None]) -> Write:
    """``write`` (the game's start) plus its rated players, in the same transaction."""

    def run(conn: Connection) -> Any:
        out = write(conn)
        conn.execute(
            db.rated_games.insert().values(
                game_id=game_id, user_ids=user_ids, created_at=time.time(), rated_at=None
            )
        )
        return out

    return run


def rate_game(game_id: str) -> Write:
    """Apply a finished rated game to its players' ratings, once (a no-op if already rated)."""

    def run(conn: Connection) -> bool:
        rg = db.rated_games.c
        pending = conn.execute(
            sa.select(rg.user_ids).where(rg.game_id == game_id, rg.rated_at.is_(None))
        ).first()
        if pending is None:
            return False
        g = db.games.c
        game = conn.execute(
            sa.select(g.roles, g.winner, g.status, g.finished_at).where(g.id == game_id)
        ).first()
        if game is None or game.status != "finished" or game.winner is None:
            return False
        user_ids: list[str] = list(pending.user_ids)
        roles: list[str] = list(game.roles)
        r = db.ratings.c
        rows = {
            row.user_id: row
            for row in conn.execute(sa.select(db.ratings).where(r.user_id.in_(user_ids)))
        }
        start = R.default()
        before = {
            uid: R.Rating(rows[uid].mu, rows[uid].sigma) if uid in rows else start
            for uid in user_ids
        }
        lib = [i for i, role in enumerate(roles) if role == "liberal"]
        fas = [i for i, role in enumerate(roles) if role != "liberal"]
        new_lib, new_fas = R.rate_game(
            [before[user_ids[i]] for i in lib],
            [before[user_ids[i]] for i in fas],
            game.winner == "liberal",
        )
        after = dict(zip([user_ids[i] for i in lib + fas], new_lib + new_fas, strict=True))
        now = time.time()
        ts = game.finished_at or now
        for seat, uid in enumerate(user_ids):
            new = after[uid]
            values = {"mu": new.mu, "sigma": new.sigma, "updated_at": now}
            if uid in rows:
                conn.execute(
                    db.ratings.update()
                    .where(r.user_id == uid)
                    .values(**values, games=rows[uid].games + 1)
                )
            else:
                conn.execute(db.ratings.insert().values(user_id=uid, games=1, **values))
            won = (roles[seat] == "liberal") == (game.winner == "liberal")
            conn.execute(
                db.rating_history.insert().values(
                    game_id=game_id,
                    user_id=uid,
                    players=len(roles),
                    role=roles[seat],
                    won=won,
                    mu_before=before[uid].mu,
                    sigma_before=before[uid].sigma,
                    mu=new.mu,
                    sigma=new.sigma,
                    ts=ts,
                )
            )
        conn.execute(db.rated_games.update().where(rg.game_id == game_id).values(rated_at=now))
        return True

    return run


async def rate(store: Store, game_id: str) -> None:
    """Rate a rated game that just ended; a failure leaves it for ``catch_up`` (the result is
    committed in one transaction: nobody reads half of it)."""
    try:
        if await store.write(rate_game(game_id)):
            log.info("game rated", extra={"game_id": game_id})
    except Exception:
        log.warning("rating postponed to the next start", extra={"game_id": game_id})


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
            }
            for p in conn.execute(
                sa.select(h.game_id, h.ts, h.mu, h.sigma, h.role, h.won, h.players)
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
