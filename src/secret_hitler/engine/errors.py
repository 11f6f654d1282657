"""Typed errors: every refusal carries a stable machine-readable code and a clear message."""

from __future__ import annotations

from typing import Any


def brief(value: Any, limit: int = 40) -> str:
    """A short ``repr`` for an error message: bad input is never echoed at length."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class GameError(Exception):
    """Base class for every error the engine raises on purpose."""

    code: str = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class IllegalAction(GameError):
    """The action is well formed but not allowed now. The game is left unchanged."""

    code = "illegal_action"


class InvalidAction(GameError):
    """The action is malformed (unknown type, missing or mistyped field)."""

    code = "invalid_action"


class InvalidSettings(GameError):
    """A rule setting or preset is unknown or out of range; the message names the setting."""

    code = "invalid_settings"


class InvalidRecord(GameError):
    """A game record does not follow the record format; the message names the field."""

    code = "invalid_record"
