"""Matchmaking and tournaments (issue 42 points 3, 4 and 6, docs/competitive.md): the queue,
its ready checks and no-shows, tournaments with their entrants and per-seat results, system
tables (new-player, queue and tournament tables) and rating limits on any table.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-08

New tables: ``queue_entries`` (one row per person in the queue: what she waits for, her rating
for the band, the ready check she is in, the table she was seated at), ``queue_matches`` (a
ready check under way: its deadline), ``queue_no_shows`` (ready checks a person let pass, for
the no-show cooldown), ``tournaments``, ``tournament_entrants``, ``tournament_tables`` (each
round's tables with the people seated at the deal, who a bot may replace later) and
``tournament_results`` (one row per seat of a finished tournament game: role, result, points,
whether a bot finished it). Added columns of ``tables``, all nullable, so every stored table
stays as it was: ``kind`` (a system table: ``newbie``, ``queue`` or ``tournament``; NULL: a
person's), ``rating_min`` and ``rating_max`` (the rating limit of the table; NULL: none) and
``tournament_id`` (the tournament whose game the table plays).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("kind", sa.String(16), nullable=True))
        batch.add_column(sa.Column("rating_min", sa.Float, nullable=True))
        batch.add_column(sa.Column("rating_max", sa.Float, nullable=True))
        batch.add_column(sa.Column("tournament_id", sa.String(32), nullable=True))
    op.create_index("ix_tables_tournament_id", "tables", ["tournament_id"])
    op.create_index("ix_tables_kind", "tables", ["kind"])
    op.create_table(
        "queue_entries",
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("ready", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("admission", sa.JSON, nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_queue_entries_match_id", "queue_entries", ["match_id"])
    op.create_index("ix_queue_entries_pool", "queue_entries", ["players", "category", "state"])
    op.create_table(
        "queue_matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("deadline", sa.Float, nullable=False),
    )
    op.create_table(
        "queue_no_shows",
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("ts", sa.Float, primary_key=True),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("host", sa.String(32), nullable=False),
        sa.Column("host_name", sa.String(64), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("timer", sa.Integer, nullable=True),
        sa.Column("scoring", sa.String(16), nullable=False),
        sa.Column("max_entrants", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("checkin", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("signed_at", sa.Float, nullable=False),
        sa.Column("checked_at", sa.Float, nullable=True),
        sa.Column("seed", sa.Float, nullable=True),
        sa.Column("admission", sa.JSON, nullable=True),
        sa.Column("round_out", sa.Integer, nullable=True),
    )
    op.create_index("ix_tournament_entrants_user_id", "tournament_entrants", ["user_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("done", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tournament_tables_tournament_id", "tournament_tables", ["tournament_id"])
    op.create_table(
        "tournament_results",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("left_early", sa.Boolean, nullable=False),
        sa.Column("points", sa.Float, nullable=False),
        sa.Column("ts", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in (
        "tournament_results",
        "tournament_tables",
        "tournament_entrants",
        "tournaments",
        "queue_no_shows",
        "queue_matches",
        "queue_entries",
    ):
        op.drop_table(name)
    op.drop_index("ix_tables_kind", "tables")
    op.drop_index("ix_tables_tournament_id", "tables")
    with op.batch_alter_table("tables") as batch:
        for name in ("tournament_id", "rating_max", "rating_min", "kind"):
            batch.drop_column(name)
