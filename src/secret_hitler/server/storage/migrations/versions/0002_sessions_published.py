"""Server-side sessions (revocable tokens) and the host's "published" flag on tables.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("published", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("published")
    op.drop_index("ix_sessions_user_id", table_name="sessions")
    op.drop_table("sessions")
