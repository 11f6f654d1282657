"""Ratings (rated tables, rated games, ratings and their history) and moderation (reports,
blocklists, bans, tables closed by an administrator).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("user_ids", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("rated_at", sa.Float, nullable=True),
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ts", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_user_id", "rating_history", ["user_id"])
    op.create_index("ix_rating_history_ts", "rating_history", ["ts"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.String(32), nullable=False),
        sa.Column("target", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("moment", sa.Integer, nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_reports_target", "reports", ["target"])
    op.create_table(
        "blocks",
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("blocked", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked"])
    op.create_table(
        "bans",
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("value", sa.String(64), primary_key=True),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "closed_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in (
        "closed_tables",
        "bans",
        "blocks",
        "reports",
        "rating_history",
        "ratings",
        "rated_games",
    ):
        op.drop_table(name)
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
