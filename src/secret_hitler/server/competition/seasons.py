"""Seasons (docs/competitive.md "Seasons"): a configured start and end, a ladder of their own
beside the all-time one, a placement period, and a history of past seasons.

Seasons live in the database (``seasons``), which every node of a cluster shares, and are made
by an administrator (``secret-hitler admin season add``): one source for every node, read when
it is needed, so a new or ended season holds on every node at once. A rated game belongs to the
season in force when it started (``storage.ratings.season_at``, read in the transaction that
stores the start), so all nodes and a late rating after a restart agree. Each player's
season rating starts from the default at her first game of the season; she is ranked on the
season's ladder once she has played its ``placement`` games. Seasons never overlap.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..storage import db
from ..storage.writer import Write

SEASON_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
SEASON_NAME_MAX = 64
PLACEMENT_DEFAULT = 5
PLACEMENT_MAX = 100
LADDER_MAX = 200


class SeasonError(ValueError):
    """A season that cannot be made or changed; the message says why."""


@dataclass(frozen=True, slots=True)
class Season:
    id: str
    name: str
    starts_at: float
    ends_at: float
    placement: int

    def to_json(self, now: float) -> dict[str, Any]:
        state = "upcoming" if now < self.starts_at else "past" if now >= self.ends_at else "current"
        return {
            "id": self.id,
            "name": self.name,
            "starts_at": self.starts_at,
            "ends_at": self.ends_at,
            "placement": self.placement,
            "state": state,
        }


def parse_time(text: str) -> float:
    """An ISO date or date-time (``2027-01-01``, ``2027-01-01T18:00``, with or without an
    offset; none: UTC) as Unix seconds."""
    try:
        when = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise SeasonError(
            f"not a date: {text[:40]!r} (use 2027-01-01 or 2027-01-01T18:00)"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.timestamp()


def new_season(id: str, name: str, starts_at: float, ends_at: float, placement: int) -> Season:
    """A checked season (``SeasonError`` says what is wrong)."""
    if not SEASON_ID.fullmatch(id):
        raise SeasonError("id: 1-32 lower-case letters, digits and '-' (e.g. 2027-spring)")
    name = name.strip()
    if not 1 <= len(name) <= SEASON_NAME_MAX:
        raise SeasonError(f"name: 1-{SEASON_NAME_MAX} characters")
    if not ends_at > starts_at:
        raise SeasonError("the season must end after it starts")
    if not 0 <= placement <= PLACEMENT_MAX:
        raise SeasonError(f"placement: 0-{PLACEMENT_MAX} games")
    return Season(id, name, starts_at, ends_at, placement)


def _season(row: Any) -> Season:
    return Season(row.id, row.name, row.starts_at, row.ends_at, row.placement)


def all_seasons(conn: Connection) -> list[Season]:
    s = db.seasons.c
    return [_season(r) for r in conn.execute(sa.select(db.seasons).order_by(s.starts_at))]


def list_seasons() -> Write:
    return all_seasons


def get_season(conn: Connection, season_id: str) -> Season | None:
    row = conn.execute(sa.select(db.seasons).where(db.seasons.c.id == season_id)).first()
    return None if row is None else _season(row)


def add_season(season: Season, now: float) -> Write:
    """Store a new season; refused if its id is taken or it overlaps another."""

    def run(conn: Connection) -> None:
        if get_season(conn, season.id) is not None:
            raise SeasonError(f"a season {season.id!r} exists already")
        for other in all_seasons(conn):
            if other.starts_at < season.ends_at and season.starts_at < other.ends_at:
                raise SeasonError(f"it overlaps the season {other.id!r} ({other.name})")
        conn.execute(
            db.seasons.insert().values(
                id=season.id,
                name=season.name,
                starts_at=season.starts_at,
                ends_at=season.ends_at,
                placement=season.placement,
                created_at=now,
            )
        )

    return run


def end_season(season_id: str, at: float) -> Write:
    """End a season at ``at`` (now, or earlier than planned); games started before still count.
    Returns the season as it now is."""

    def run(conn: Connection) -> Season:
        season = get_season(conn, season_id)
        if season is None:
            raise SeasonError(f"no season {season_id!r}")
        if at <= season.starts_at:
            raise SeasonError("a season cannot end before it starts: remove it instead")
        if at >= season.ends_at:
            raise SeasonError("it ends before then already")
        s = db.seasons.c
        conn.execute(db.seasons.update().where(s.id == season_id).values(ends_at=at))
        return Season(season.id, season.name, season.starts_at, at, season.placement)

    return run


def remove_season(season_id: str) -> Write:
    """Remove a season no rated game belongs to (a mistake, or one not started)."""

    def run(conn: Connection) -> None:
        if get_season(conn, season_id) is None:
            raise SeasonError(f"no season {season_id!r}")
        rg = db.rated_games.c
        used = conn.execute(
            sa.select(sa.func.count()).select_from(db.rated_games).where(rg.season_id == season_id)
        ).scalar()
        if used:
            raise SeasonError(f"{used} rated games belong to {season_id!r}: end it instead")
        conn.execute(db.seasons.delete().where(db.seasons.c.id == season_id))

    return run


# ---------------------------------------------------------------------- ladders
def _entry(row: Any) -> dict[str, Any]:
    return {
        "ordinal": row.mu - 3 * row.sigma,  # (exact: the ladder's ranks compare it)
        "user_id": row.user_id,
        "name": row.name,
        "rating": round(row.mu - 3 * row.sigma, 2),
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
        "games": row.games,
    }


def ladder(season_id: str, limit: int, now: float) -> Write:
    """A season's ladder: the players who finished their placement games, best first (the
    cautious rating, as the all-time ladder; equal ratings share a rank), with their wins and
    leaves in the season, and how many players are still placing. None: no such season."""

    def run(conn: Connection) -> dict[str, Any] | None:
        season = get_season(conn, season_id)
        if season is None:
            return None
        r, u = db.season_ratings.c, db.users.c
        ordinal = (r.mu - 3 * r.sigma).label("ordinal")
        placed = r.games >= season.placement
        query = (
            sa.select(r.user_id, u.name, r.mu, r.sigma, r.games)
            .join_from(db.season_ratings, db.users, u.id == r.user_id)
            .where(r.season_id == season_id, placed)
            .order_by(ordinal.desc(), r.user_id)
            .limit(min(limit, LADDER_MAX))
        )
        players = [_entry(row) for row in conn.execute(query)]
        ids = [p["user_id"] for p in players]
        wins = _wins(conn, season_id, ids)
        leaves = _leaves(conn, season_id, ids)
        rank, above = 0, None
        for place, p in enumerate(players, 1):
            if p["ordinal"] != above:  # equal ratings share a place (1, 2, 2, 4)
                rank, above = place, p["ordinal"]
            p["rank"] = rank
            del p["ordinal"]
            p["wins"] = wins.get(p["user_id"], 0)
            p["leaves"] = leaves.get(p["user_id"], 0)
        placing = conn.execute(
            sa.select(sa.func.count())
            .select_from(db.season_ratings)
            .where(r.season_id == season_id, r.games < season.placement)
        ).scalar()
        return {"season": season.to_json(now), "players": players, "placing": int(placing or 0)}

    return run


def _wins(conn: Connection, season_id: str, user_ids: list[str]) -> dict[str, int]:
    if not user_ids:
        return {}
    h = db.rating_history.c
    query = (
        sa.select(h.user_id, sa.func.count())
        .where(h.season_id == season_id, h.won, h.user_id.in_(user_ids))
        .group_by(h.user_id)
    )
    return {uid: int(n) for uid, n in conn.execute(query)}


def _leaves(conn: Connection, season_id: str, user_ids: list[str]) -> dict[str, int]:
    if not user_ids:
        return {}
    lv = db.rated_leaves.c
    query = (
        sa.select(lv.user_id, sa.func.count())
        .where(lv.season_id == season_id, lv.user_id.in_(user_ids))
        .group_by(lv.user_id)
    )
    return {uid: int(n) for uid, n in conn.execute(query)}


def _rank(conn: Connection, season: Season, mu: float, sigma: float) -> int:
    """The place on the season's ladder of a placed player of this rating."""
    r = db.season_ratings.c
    better = conn.execute(
        sa.select(sa.func.count())
        .select_from(db.season_ratings)
        .where(
            r.season_id == season.id,
            r.games >= season.placement,
            (r.mu - 3 * r.sigma) > mu - 3 * sigma,
        )
    ).scalar()
    return int(better or 0) + 1


def _rates(rows: list[tuple[str, int, bool]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(by role, by player count) win rates of (role, players, won) rows."""
    by_role: dict[str, list[int]] = {k: [0, 0] for k in ("liberal", "fascist", "hitler")}
    by_players: dict[str, list[int]] = {}
    for role, players, won in rows:
        for bucket in (
            by_role.setdefault(role, [0, 0]),
            by_players.setdefault(str(players), [0, 0]),
        ):
            bucket[0] += 1
            bucket[1] += won

    def rate(games: int, wins: int) -> dict[str, Any]:
        return {"games": games, "wins": wins, "win_rate": round(wins / games, 4) if games else None}

    return (
        {k: rate(*v) for k, v in by_role.items()},
        {k: rate(*v) for k, v in sorted(by_players.items(), key=lambda kv: int(kv[0]))},
    )


def player_seasons(conn: Connection, user_id: str, now: float) -> list[dict[str, Any]]:
    """Every season ``user_id`` played or left a rated game in, newest first: her season rating,
    games, wins, leaves, whether she is placed and her rank, and her win rates by role and by
    player count in that season."""
    r, h, lv = db.season_ratings.c, db.rating_history.c, db.rated_leaves.c
    ratings = {
        row.season_id: row
        for row in conn.execute(sa.select(db.season_ratings).where(r.user_id == user_id))
    }
    left: dict[str, int] = {
        sid: int(n)
        for sid, n in conn.execute(
            sa.select(lv.season_id, sa.func.count())
            .where(lv.user_id == user_id, lv.season_id.is_not(None))
            .group_by(lv.season_id)
        )
    }
    games: dict[str, list[tuple[str, int, bool]]] = {}
    for row in conn.execute(
        sa.select(h.season_id, h.role, h.players, h.won).where(
            h.user_id == user_id, h.season_id.is_not(None)
        )
    ):
        games.setdefault(row.season_id, []).append((row.role, row.players, bool(row.won)))
    out = []
    for season in reversed(all_seasons(conn)):
        rating = ratings.get(season.id)
        if rating is None and season.id not in left:
            continue
        played = games.get(season.id, [])
        by_role, by_players = _rates(played)
        placed = rating is not None and rating.games >= season.placement
        rank = (
            _rank(conn, season, rating.mu, rating.sigma) if rating is not None and placed else None
        )
        out.append(
            {
                "season": season.to_json(now),
                "rating": None if rating is None else round(rating.mu - 3 * rating.sigma, 2),
                "mu": None if rating is None else round(rating.mu, 3),
                "sigma": None if rating is None else round(rating.sigma, 3),
                "games": 0 if rating is None else rating.games,
                "wins": sum(won for *_, won in played),
                "leaves": left.get(season.id, 0),
                "placed": placed,
                "rank": rank,
                "by_role": by_role,
                "by_players": by_players,
            }
        )
    return out
