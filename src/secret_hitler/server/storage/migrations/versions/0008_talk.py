"""Table talk (issue 30): a table's "bots talk" switch, and each chat line's place in the game
and its structured talk line (a bot's), so that a game's talk goes into its downloaded record.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04

Three columns are added. ``tables.bots_talk`` defaults to true (the tables stored before talk
get the default a new table gets); ``chat.after`` (the actions played before the line, NULL for
lobby chat and for lines stored before this revision) and ``chat.line`` (NULL: a person's text)
are nullable, so every stored line stays as it was.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("bots_talk", sa.Boolean, nullable=False, server_default=sa.true())
        )
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("after", sa.Integer, nullable=True))
        batch.add_column(sa.Column("line", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("line")
        batch.drop_column("after")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("bots_talk")
