"""Who moves when a table's timer runs out (docs/game-types.md "Timed tables"): the table's
stand-in bot, as every timed table has, or a random move, secrethitler.io's timed mode, which a
host chooses.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-08

One column is added with a default, so every stored table stays as it was: ``tables.on_timeout``
(``standin`` or ``random``; the tables stored before get ``standin``: a timer's move by the
stand-in, which their players and the play-by-post tables' rely on).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("on_timeout", sa.String(8), nullable=False, server_default="standin")
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("on_timeout")
