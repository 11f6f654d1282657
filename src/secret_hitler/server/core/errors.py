"""Errors that modules of every layer raise, kept low enough for all of them to import."""

from __future__ import annotations


class LobbyError(Exception):
    """A refused lobby request: HTTP status, stable code, message, and the refused field (a
    setting or body field name, so a client can say which in its own language); ``headers``
    go with the answer (``Retry-After`` of a rate limit, a cookie dropped)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers or {}
