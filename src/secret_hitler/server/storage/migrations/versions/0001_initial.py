"""Initial schema: users, tables, games (fixings), actions, chat.

Revision ID: 0001
Revises:
Create Date: 2024-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("host", sa.String(32), nullable=False),
        sa.Column("host_name", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(32), nullable=False, unique=True),
        sa.Column("timer", sa.Integer, nullable=True),
        sa.Column("bot_level", sa.String(32), nullable=False),
        sa.Column("auto_start", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("names", sa.JSON, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("roles", sa.JSON, nullable=False),
        sa.Column("first_president", sa.Integer, nullable=False),
        sa.Column("deck", sa.JSON, nullable=False),
        sa.Column("reshuffles", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("winner", sa.String(16), nullable=True),
        sa.Column("reason", sa.String(32), nullable=True),
        sa.Column("action_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_games_table_id", "games", ["table_id"])
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("by", sa.String(16), nullable=True),
        sa.Column("ts", sa.Float, nullable=False),
    )
    op.create_table(
        "chat",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("user_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("ts", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("chat", "actions", "games", "tables", "users"):
        op.drop_table(name)
