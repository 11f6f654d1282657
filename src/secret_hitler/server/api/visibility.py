"""Who may see a stored table and its game (docs/security.md "Private tables and their games"):
one rule for the lobby, the games' records and reports."""

from __future__ import annotations

from typing import Any

from ..accounts.auth import User


def is_member(row: dict[str, Any], user: User | None) -> bool:
    return user is not None and (
        user.id == row["host"] or any(s.get("user_id") == user.id for s in row["seats"])
    )


def may_see(row: dict[str, Any], user: User | None, invite: str | None, published: bool) -> bool:
    """A public table is everyone's; a private one its host's, players' and invite holders' (and,
    for its finished game with ``published``, everyone's once the host published it)."""
    return (
        row["public"]
        or (published and bool(row.get("published")))
        or is_member(row, user)
        or (invite is not None and invite == row["invite"])
    )
