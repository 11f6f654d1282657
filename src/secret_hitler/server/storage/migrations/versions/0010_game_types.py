"""secrethitler.io's table settings (issue 41, docs/game-types.md): a table's chat mode, blind
names and the category its host chose, and a blind game's aliases.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05

Four columns are added, each with a default or nullable, so every stored table and game stays as
it was: ``tables.chat`` (``free``, ``emotes`` or ``silent``; the tables stored before get
``free``), ``tables.blind`` (the language of a blind table's aliases; NULL: not blind),
``tables.category`` (the category the host chose; NULL: the ``rated`` flag decides, as it did)
and ``games.aliases`` (a blind game's name for each seat; NULL: not blind).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("chat", sa.String(8), nullable=False, server_default="free"))
        batch.add_column(sa.Column("blind", sa.String(16), nullable=True))
        batch.add_column(sa.Column("category", sa.String(16), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("aliases", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("aliases")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("category")
        batch.drop_column("blind")
        batch.drop_column("chat")
