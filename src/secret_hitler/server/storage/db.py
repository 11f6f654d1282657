"""Database: the schema (SQLAlchemy 2 models), the engine, and Alembic migrations at startup.

SQLite (default, a file in the data folder) or PostgreSQL (``postgresql+psycopg://``). The schema
is created and upgraded only by the migration scripts in ``migrations/``; the models below must
match them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(64))
    created_at: Mapped[float] = mapped_column(sa.Float)
    # An account (optional): a guest who claimed a username and password (accounts/users.py).
    username: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    username_key: Mapped[str | None] = mapped_column(
        sa.String(128), nullable=True, unique=True, index=True
    )
    password_hash: Mapped[str | None] = mapped_column(sa.String(256), nullable=True)


class TableRow(Base):
    """A lobby table; its game (same id) starts when every seat is taken."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    host: Mapped[str] = mapped_column(sa.String(32))
    host_name: Mapped[str] = mapped_column(sa.String(64))
    players: Mapped[int] = mapped_column(sa.Integer)
    rules: Mapped[Any] = mapped_column(sa.JSON)
    public: Mapped[bool] = mapped_column(sa.Boolean)
    invite: Mapped[str] = mapped_column(sa.String(32), unique=True)
    timer: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    bot_level: Mapped[str] = mapped_column(sa.String(32))
    auto_start: Mapped[bool] = mapped_column(sa.Boolean)
    status: Mapped[str] = mapped_column(sa.String(16), index=True)
    seats: Mapped[Any] = mapped_column(sa.JSON)
    created_at: Mapped[float] = mapped_column(sa.Float)
    # A private table's finished game is shown to outsiders only once its host publishes it.
    published: Mapped[bool] = mapped_column(sa.Boolean, server_default=sa.false())
    name: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)  # set by the host
    webhook: Mapped[str | None] = mapped_column(sa.String(512), nullable=True)  # play-by-post
    rematch: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)  # the next table
    # A rated table: people only, official rules, 5-10 players (storage/ratings.py).
    rated: Mapped[bool] = mapped_column(sa.Boolean, server_default=sa.false())
    # user ids the host removed from the waiting table (api/hosting.py); NULL: nobody
    removed: Mapped[Any] = mapped_column(sa.JSON, nullable=True)
    # the host's switch for the bots' table talk (table/chat.py); on unless turned off
    bots_talk: Mapped[bool] = mapped_column(sa.Boolean, server_default=sa.true())
    # the table's settings that change no rule (table/options.py, migration 0010): the chat
    # mode, the language of a blind table's aliases (NULL: not blind), the category its host
    # chose (NULL: the ``rated`` flag says it)
    chat: Mapped[str] = mapped_column(sa.String(8), server_default="free")
    blind: Mapped[str | None] = mapped_column(sa.String(16), nullable=True)
    category: Mapped[str | None] = mapped_column(sa.String(16), nullable=True)
    # who moves when the table's timer runs out (table/options.py, migration 0012): the
    # stand-in bot, as every table stored before it, or at random (secrethitler.io's timed mode)
    on_timeout: Mapped[str] = mapped_column(sa.String(8), server_default="standin")
    # a rated table's admissions: user id -> the keyed hashes of the address and device her
    # seat was taken from (competition/eligibility.py); NULL: none
    admissions: Mapped[Any] = mapped_column(sa.JSON, nullable=True)
    # (migration 0011) a system table: ``newbie``, ``queue`` or ``tournament`` (NULL: a
    # person's); its rating limit (NULL: none); the tournament whose game it plays
    kind: Mapped[str | None] = mapped_column(sa.String(16), nullable=True, index=True)
    rating_min: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    rating_max: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    tournament_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True, index=True)


class SessionRow(Base):
    """A signed-in session: a token is valid only while its row exists (logout deletes it)."""

    __tablename__ = "sessions"
    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(32), index=True)
    created_at: Mapped[float] = mapped_column(sa.Float)


class GameRow(Base):
    """A game's fixings (everything chance decided) and its outcome; actions are separate."""

    __tablename__ = "games"
    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(sa.String(32), index=True)
    players: Mapped[int] = mapped_column(sa.Integer)
    names: Mapped[Any] = mapped_column(sa.JSON)
    rules: Mapped[Any] = mapped_column(sa.JSON)
    seed: Mapped[int | None] = mapped_column(sa.BigInteger, nullable=True)
    roles: Mapped[Any] = mapped_column(sa.JSON)
    first_president: Mapped[int] = mapped_column(sa.Integer)
    deck: Mapped[Any] = mapped_column(sa.JSON)
    reshuffles: Mapped[Any] = mapped_column(sa.JSON)
    status: Mapped[str] = mapped_column(sa.String(16), index=True)
    winner: Mapped[str | None] = mapped_column(sa.String(16), nullable=True)
    reason: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    action_count: Mapped[int] = mapped_column(sa.Integer)
    created_at: Mapped[float] = mapped_column(sa.Float)
    finished_at: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    # a blind game's alias of each seat (table/blind.py; NULL: not blind)
    aliases: Mapped[Any] = mapped_column(sa.JSON, nullable=True)


class ActionRow(Base):
    """One accepted action, in order (``idx`` from 0). ``by``: null, ``timer`` or ``absent``."""

    __tablename__ = "actions"
    game_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    idx: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(sa.Integer)
    action: Mapped[Any] = mapped_column(sa.JSON)
    by: Mapped[str | None] = mapped_column(sa.String(16), nullable=True)
    ts: Mapped[float] = mapped_column(sa.Float)


class ChatRow(Base):
    __tablename__ = "chat"
    table_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    user_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    name: Mapped[str] = mapped_column(sa.String(64))
    text: Mapped[str] = mapped_column(sa.Text)
    ts: Mapped[float] = mapped_column(sa.Float)
    # actions played before the line (NULL: said before the game); a bot's talk line (JSON)
    after: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    line: Mapped[Any] = mapped_column(sa.JSON, nullable=True)


class RatedGameRow(Base):
    """A rated game's players (user ids by seat, taken at the start: a leaver still counts);
    ``rated_at`` is set once its rating update is committed (each game counts once)."""

    __tablename__ = "rated_games"
    game_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_ids: Mapped[Any] = mapped_column(sa.JSON)
    created_at: Mapped[float] = mapped_column(sa.Float)
    rated_at: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    # the season in force when the game started (NULL: none)
    season_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)


class RatingRow(Base):
    __tablename__ = "ratings"
    user_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(sa.Float)
    sigma: Mapped[float] = mapped_column(sa.Float)
    games: Mapped[int] = mapped_column(sa.Integer)
    updated_at: Mapped[float] = mapped_column(sa.Float)


class RatingHistoryRow(Base):
    """One player's rating change by one rated game."""

    __tablename__ = "rating_history"
    game_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True, index=True)
    players: Mapped[int] = mapped_column(sa.Integer)
    role: Mapped[str] = mapped_column(sa.String(16))
    won: Mapped[bool] = mapped_column(sa.Boolean)
    mu_before: Mapped[float] = mapped_column(sa.Float)
    sigma_before: Mapped[float] = mapped_column(sa.Float)
    mu: Mapped[float] = mapped_column(sa.Float)
    sigma: Mapped[float] = mapped_column(sa.Float)
    ts: Mapped[float] = mapped_column(sa.Float, index=True)
    # the game's season (NULL: none in force) and the season rating before and after it
    season_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True, index=True)
    season_mu_before: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    season_sigma_before: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    season_mu: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    season_sigma: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    # the player left the game or was voted out of it (rated as a loss: docs/competitive.md)
    left_early: Mapped[bool] = mapped_column(sa.Boolean, server_default=sa.false())
    # moves against the player's own team in this game (competition/signals.py)
    throws: Mapped[int] = mapped_column(sa.Integer, server_default="0")


class SeasonRow(Base):
    """A season (``secret-hitler admin season``): rated games that start between ``starts_at``
    and ``ends_at`` count on its ladder; a player is ranked after ``placement`` of them."""

    __tablename__ = "seasons"
    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(64))
    starts_at: Mapped[float] = mapped_column(sa.Float, index=True)
    ends_at: Mapped[float] = mapped_column(sa.Float)
    placement: Mapped[int] = mapped_column(sa.Integer)
    created_at: Mapped[float] = mapped_column(sa.Float)


class SeasonRatingRow(Base):
    """A player's rating in one season (from the default at her first game of the season)."""

    __tablename__ = "season_ratings"
    season_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(sa.Float)
    sigma: Mapped[float] = mapped_column(sa.Float)
    games: Mapped[int] = mapped_column(sa.Integer)
    updated_at: Mapped[float] = mapped_column(sa.Float)


class RatedAdmissionRow(Base):
    """Where a rated game's seat was taken from: the keyed hashes of the address and the device
    (competition/eligibility.py), kept for the conduct signals (several accounts, one place)."""

    __tablename__ = "rated_admissions"
    game_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    address: Mapped[str] = mapped_column(sa.String(64), index=True)
    device: Mapped[str | None] = mapped_column(sa.String(64), nullable=True, index=True)
    ts: Mapped[float] = mapped_column(sa.Float)


class RatedLeaveRow(Base):
    """A player who left a rated game before its end (``kind``: ``left``, or ``replaced`` by
    her table's vote), once per game; counted by the season of the game."""

    __tablename__ = "rated_leaves"
    game_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True, index=True)
    season_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True, index=True)
    kind: Mapped[str] = mapped_column(sa.String(16))
    ts: Mapped[float] = mapped_column(sa.Float)


class ConductFlagRow(Base):
    """A collusion signal for moderators (competition/signals.py): one row per ``kind`` and
    ``subject`` (the user ids concerned, sorted, comma-separated), refreshed as it grows;
    ``cleared_at`` once a moderator cleared it."""

    __tablename__ = "conduct_flags"
    __table_args__ = (sa.UniqueConstraint("kind", "subject", name="uq_conduct_flags_kind_subject"),)
    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(sa.String(32))
    subject: Mapped[str] = mapped_column(sa.String(200))
    detail: Mapped[Any] = mapped_column(sa.JSON)
    created_at: Mapped[float] = mapped_column(sa.Float)
    updated_at: Mapped[float] = mapped_column(sa.Float)
    cleared_at: Mapped[float | None] = mapped_column(sa.Float, nullable=True)


class QueueEntryRow(Base):
    """A person in the matchmaking queue (competition/queue.py): what she waits for, the rating
    her band is measured from, her state (``waiting``, ``check``: in a ready check, ``seated``:
    at ``table_id``) and ``updated_at``, which a client's long poll compares."""

    __tablename__ = "queue_entries"
    __table_args__ = (sa.Index("ix_queue_entries_pool", "players", "category", "state"),)
    user_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(64))
    players: Mapped[int] = mapped_column(sa.Integer)
    category: Mapped[str] = mapped_column(sa.String(16))
    rating: Mapped[float] = mapped_column(sa.Float)
    joined_at: Mapped[float] = mapped_column(sa.Float)
    state: Mapped[str] = mapped_column(sa.String(16))
    match_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True, index=True)
    ready: Mapped[bool] = mapped_column(sa.Boolean, server_default=sa.false())
    admission: Mapped[Any] = mapped_column(sa.JSON, nullable=True)
    table_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    updated_at: Mapped[float] = mapped_column(sa.Float)


class QueueMatchRow(Base):
    """A ready check under way: the people whose entries name it confirm before ``deadline``."""

    __tablename__ = "queue_matches"
    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    players: Mapped[int] = mapped_column(sa.Integer)
    category: Mapped[str] = mapped_column(sa.String(16))
    created_at: Mapped[float] = mapped_column(sa.Float)
    deadline: Mapped[float] = mapped_column(sa.Float)


class QueueNoShowRow(Base):
    """A ready check a person let pass (the no-show cooldown counts them)."""

    __tablename__ = "queue_no_shows"
    user_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    ts: Mapped[float] = mapped_column(sa.Float, primary_key=True)


class TournamentRow(Base):
    """A tournament (competition/tournaments.py): its format, tables, category and rules, when it
    starts and its check-in opens, its state and current round."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(64))
    host: Mapped[str] = mapped_column(sa.String(32))
    host_name: Mapped[str] = mapped_column(sa.String(64))
    format: Mapped[str] = mapped_column(sa.String(16))
    players: Mapped[int] = mapped_column(sa.Integer)
    rounds: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    category: Mapped[str] = mapped_column(sa.String(16))
    rules: Mapped[Any] = mapped_column(sa.JSON)
    timer: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    scoring: Mapped[str] = mapped_column(sa.String(16))
    max_entrants: Mapped[int] = mapped_column(sa.Integer)
    starts_at: Mapped[float] = mapped_column(sa.Float)
    checkin: Mapped[float] = mapped_column(sa.Float)
    status: Mapped[str] = mapped_column(sa.String(16), index=True)
    round: Mapped[int] = mapped_column(sa.Integer, server_default="0")
    seed: Mapped[int] = mapped_column(sa.BigInteger)
    created_at: Mapped[float] = mapped_column(sa.Float)
    finished_at: Mapped[float | None] = mapped_column(sa.Float, nullable=True)


class TournamentEntrantRow(Base):
    """A person signed up for a tournament: ``signed``, ``checked`` (in), ``playing``,
    ``withdrawn``, ``dropped`` (left a game), ``out`` (eliminated); ``round_out``: when."""

    __tablename__ = "tournament_entrants"
    tournament_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True, index=True)
    name: Mapped[str] = mapped_column(sa.String(64))
    state: Mapped[str] = mapped_column(sa.String(16))
    signed_at: Mapped[float] = mapped_column(sa.Float)
    checked_at: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    seed: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    admission: Mapped[Any] = mapped_column(sa.JSON, nullable=True)
    round_out: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)


class TournamentTableRow(Base):
    """A table of a tournament round and the people seated at its deal (user ids by seat: a bot
    that replaces one later leaves her here); ``done`` once its results are stored."""

    __tablename__ = "tournament_tables"
    table_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(sa.String(32), index=True)
    round: Mapped[int] = mapped_column(sa.Integer)
    seats: Mapped[Any] = mapped_column(sa.JSON)
    done: Mapped[bool] = mapped_column(sa.Boolean, server_default=sa.false())
    created_at: Mapped[float] = mapped_column(sa.Float)


class TournamentResultRow(Base):
    """One seat of a finished tournament game: the role, the result, the points, and whether a
    bot finished the game for her (``left_early``: 0 points, shown in the standings)."""

    __tablename__ = "tournament_results"
    tournament_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    round: Mapped[int] = mapped_column(sa.Integer)
    seat: Mapped[int] = mapped_column(sa.Integer)
    role: Mapped[str] = mapped_column(sa.String(16))
    won: Mapped[bool] = mapped_column(sa.Boolean)
    left_early: Mapped[bool] = mapped_column(sa.Boolean)
    points: Mapped[float] = mapped_column(sa.Float)
    ts: Mapped[float] = mapped_column(sa.Float)


class ReportRow(Base):
    __tablename__ = "reports"
    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    reporter: Mapped[str] = mapped_column(sa.String(32))
    target: Mapped[str] = mapped_column(sa.String(32), index=True)
    game_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    moment: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    reason: Mapped[str] = mapped_column(sa.Text)
    created_at: Mapped[float] = mapped_column(sa.Float)


class BlockRow(Base):
    """``user_id`` blocked ``blocked``: the two never meet at a table."""

    __tablename__ = "blocks"
    user_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    blocked: Mapped[str] = mapped_column(sa.String(32), primary_key=True, index=True)
    created_at: Mapped[float] = mapped_column(sa.Float)


class BanRow(Base):
    """A ban (``secret-hitler admin ban``): ``kind`` ``user`` (a user id) or ``address`` (an IP)."""

    __tablename__ = "bans"
    kind: Mapped[str] = mapped_column(sa.String(8), primary_key=True)
    value: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    reason: Mapped[str | None] = mapped_column(sa.Text, nullable=True)
    created_at: Mapped[float] = mapped_column(sa.Float)


class ClosedTableRow(Base):
    """A table an administrator closed (``secret-hitler admin close-table``). Kept apart from the
    table's own row, which the server rewrites: the closure cannot be overwritten by a join."""

    __tablename__ = "closed_tables"
    table_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    created_at: Mapped[float] = mapped_column(sa.Float)


class TableLease(Base):
    """Which node of a cluster owns a live table (cluster/lease.py). ``token`` grows at every
    change of owner: a write carrying an older token is refused (fencing)."""

    __tablename__ = "table_leases"
    table_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(sa.String(64))
    token: Mapped[int] = mapped_column(sa.BigInteger)
    expires_at: Mapped[float] = mapped_column(sa.Float)


users: sa.Table = User.__table__  # type: ignore[assignment]
tables: sa.Table = TableRow.__table__  # type: ignore[assignment]
games: sa.Table = GameRow.__table__  # type: ignore[assignment]
actions: sa.Table = ActionRow.__table__  # type: ignore[assignment]
chat: sa.Table = ChatRow.__table__  # type: ignore[assignment]
sessions: sa.Table = SessionRow.__table__  # type: ignore[assignment]
rated_games: sa.Table = RatedGameRow.__table__  # type: ignore[assignment]
ratings: sa.Table = RatingRow.__table__  # type: ignore[assignment]
rating_history: sa.Table = RatingHistoryRow.__table__  # type: ignore[assignment]
reports: sa.Table = ReportRow.__table__  # type: ignore[assignment]
blocks: sa.Table = BlockRow.__table__  # type: ignore[assignment]
bans: sa.Table = BanRow.__table__  # type: ignore[assignment]
closed_tables: sa.Table = ClosedTableRow.__table__  # type: ignore[assignment]
table_leases: sa.Table = TableLease.__table__  # type: ignore[assignment]
seasons: sa.Table = SeasonRow.__table__  # type: ignore[assignment]
season_ratings: sa.Table = SeasonRatingRow.__table__  # type: ignore[assignment]
rated_admissions: sa.Table = RatedAdmissionRow.__table__  # type: ignore[assignment]
rated_leaves: sa.Table = RatedLeaveRow.__table__  # type: ignore[assignment]
conduct_flags: sa.Table = ConductFlagRow.__table__  # type: ignore[assignment]
queue_entries: sa.Table = QueueEntryRow.__table__  # type: ignore[assignment]
queue_matches: sa.Table = QueueMatchRow.__table__  # type: ignore[assignment]
queue_no_shows: sa.Table = QueueNoShowRow.__table__  # type: ignore[assignment]
tournaments: sa.Table = TournamentRow.__table__  # type: ignore[assignment]
tournament_entrants: sa.Table = TournamentEntrantRow.__table__  # type: ignore[assignment]
tournament_tables: sa.Table = TournamentTableRow.__table__  # type: ignore[assignment]
tournament_results: sa.Table = TournamentResultRow.__table__  # type: ignore[assignment]


def make_engine(url: str, idle_in_transaction: float | None = None) -> Engine:
    """``idle_in_transaction`` (PostgreSQL, seconds): the server ends a session that holds a
    transaction open that long without a word (a cluster node frozen mid-commit must not keep
    the row locks that another node needs to take its tables over)."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1].split("?", 1)[0]
        if path and path != ":memory:":
            private_file(Path(path))
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")  # WAL: committed data survives a process kill
            cur.execute("PRAGMA busy_timeout=30000")
            # Checkpoints (which fsync) run in the store's background thread, never in a commit.
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    # A server that is down or unreachable must fail a connection attempt quickly (the store
    # retries with backoff), not hang a worker thread for the TCP timeout.
    connect_args: dict[str, Any] = {"connect_timeout": 5} if url.startswith("postgresql") else {}
    if idle_in_transaction is not None and url.startswith("postgresql"):
        ms = max(1, int(idle_in_transaction * 1000))
        connect_args["options"] = f"-c idle_in_transaction_session_timeout={ms}"
    return sa.create_engine(
        url, pool_size=5, max_overflow=5, pool_pre_ping=True, connect_args=connect_args
    )


def private_file(path: Path) -> None:
    """Make the SQLite file readable by the server's user only (0600; a folder made here: 0700).

    The database holds every live game's roles and deck. SQLite creates its ``-wal`` and ``-shm``
    files with the database file's mode; older ones are tightened too.
    """
    if not path.parent.exists():
        path.parent.mkdir(parents=True, mode=0o700)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        if p.exists():
            os.chmod(p, 0o600)


def migrate(engine: Engine) -> None:
    """Upgrade the schema to the newest migration (run at every startup)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
