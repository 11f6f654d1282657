"""Optional accounts (username, password hash) and table settings: a name and a webhook.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Only columns are added (all nullable), so every stored table and game stays as it was.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("username", sa.String(64), nullable=True))
        # The lookup key: the username's confusable skeleton (text.skeleton), unique.
        batch.add_column(sa.Column("username_key", sa.String(128), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(256), nullable=True))
        batch.create_index("ix_users_username_key", ["username_key"], unique=True)
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("name", sa.String(64), nullable=True))
        batch.add_column(sa.Column("webhook", sa.String(512), nullable=True))
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rematch")
        batch.drop_column("webhook")
        batch.drop_column("name")
    with op.batch_alter_table("users") as batch:
        batch.drop_index("ix_users_username_key")
        batch.drop_column("password_hash")
        batch.drop_column("username_key")
        batch.drop_column("username")
