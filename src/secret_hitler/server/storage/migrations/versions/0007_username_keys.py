"""Usernames are compared by a new skeleton (Unicode's confusables data, digits of any script:
server/core/text.py), so every account's lookup key is computed again.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04

Two accounts whose usernames the new skeleton finds alike keep working: the older account gets
the key, the newer one a key of its own (``skeleton~user id``) and signs in by its exact
username (api/accounts.py). Nothing else changes; a downgrade leaves the keys as they are (the
old skeleton's would not be unique any more).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from secret_hitler.server.core.text import skeleton

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    users = sa.table(
        "users",
        sa.column("id", sa.String),
        sa.column("username", sa.String),
        sa.column("username_key", sa.String),
        sa.column("created_at", sa.Float),
    )
    rows = conn.execute(
        sa.select(users.c.id, users.c.username)
        .where(users.c.username.is_not(None))
        .order_by(users.c.created_at, users.c.id)
    ).all()
    # first a key no skeleton can be (skeletons are letters and digits), so that no two rows
    # ever hold one key while they are rewritten
    for user_id, _ in rows:
        conn.execute(users.update().where(users.c.id == user_id).values(username_key=f"~{user_id}"))
    taken: set[str] = set()
    for user_id, username in rows:
        key = skeleton(username)
        if key in taken:
            key = f"{key}~{user_id}"
        taken.add(key)
        conn.execute(users.update().where(users.c.id == user_id).values(username_key=key))


def downgrade() -> None:
    pass
