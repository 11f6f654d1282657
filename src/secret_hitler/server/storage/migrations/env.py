"""Alembic environment: the server passes an open connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context

from secret_hitler.server.storage.db import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - the server always passes a connection
    raise RuntimeError("run migrations through secret_hitler.server.storage.db.migrate()")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
