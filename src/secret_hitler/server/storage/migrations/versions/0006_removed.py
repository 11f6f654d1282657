"""The people a host removed from a waiting table, stored with the table: a removed person
cannot come back by themselves after a restart either (server/hosting.py).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

One nullable column is added (NULL: nobody removed), so every stored table and game stays as it
was.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("removed", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("removed")
