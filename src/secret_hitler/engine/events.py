"""Events: what happened, each addressed to its audience (everyone, or some seats)."""

from __future__ import annotations

from typing import Any

#: Event types that are always addressed to some seats only (never public).
PRIVATE_EVENT_TYPES = frozenset(
    {
        "role",
        "night",
        "drew",
        "passed",
        "received",
        "chancellor_discarded",
        "peek",
        "investigation",
    }
)


class Event:
    """One entry of the game log.

    ``audience`` is ``None`` for a public event, else the tuple of seats that observe it.
    ``data`` holds only JSON values (str, int, bool, None, lists, dicts).
    """

    __slots__ = ("type", "data", "audience")

    def __init__(
        self, type: str, data: dict[str, Any], audience: tuple[int, ...] | None = None
    ) -> None:
        self.type = type
        self.data = data
        self.audience = audience

    def visible_to(self, seat: int | None) -> bool:
        """``seat=None`` is a spectator, who sees public events only."""
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self, with_audience: bool = False) -> dict[str, Any]:
        out = {"type": self.type, **self.data}
        if with_audience:
            out["audience"] = None if self.audience is None else list(self.audience)
        return out

    def __repr__(self) -> str:
        return f"Event({self.type!r}, {self.data!r}, audience={self.audience!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Event)
            and self.type == other.type
            and self.data == other.data
            and self.audience == other.audience
        )

    __hash__ = None  # type: ignore[assignment]
