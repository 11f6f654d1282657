"""Events: what happened, each addressed to its audience (everyone, or some seats).

Event data is handed out to players through views, so it is read-only all the way down: a
``ReadOnlyDict`` of JSON scalars and ``ReadOnlyList``/``ReadOnlyDict`` values. They are ``dict``
and ``list`` subclasses, so they compare equal to plain JSON and serialize with ``json`` as they
are; only mutation is refused.
"""

from __future__ import annotations

from typing import Any, NoReturn

#: Event types that are always addressed to some seats only (never public). The web client and
#: the tests read this list from the engine (``GET /api/rules``), never a copy of it.
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


def _read_only(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise TypeError("game data is read-only: copy it (dict(x), list(x)) to change it")


class ReadOnlyList(list[Any]):
    """A list that refuses changes (so a view cannot rewrite the game's log)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = pop = remove = clear = sort = reverse = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReadOnlyList, (list(self),))

    def __copy__(self) -> ReadOnlyList:
        return self

    def __deepcopy__(self, memo: Any) -> ReadOnlyList:
        return self


class ReadOnlyDict(dict[str, Any]):
    """A dict that refuses changes (so a view cannot rewrite the game's log)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReadOnlyDict, (dict(self),))

    def __copy__(self) -> ReadOnlyDict:
        return self

    def __deepcopy__(self, memo: Any) -> ReadOnlyDict:
        return self


def freeze(value: Any) -> Any:
    """A read-only deep copy of a JSON value (lists and tuples become ``ReadOnlyList``)."""
    if isinstance(value, dict):
        return ReadOnlyDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return ReadOnlyList(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A plain, mutable deep copy of a JSON value (tuples become lists)."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


class Event:
    """One entry of the game log.

    ``audience`` is ``None`` for a public event, else the tuple of seats that observe it.
    ``data`` holds only JSON values and is read-only all the way down, so the engine shares one
    event between the games that log the same one (``Game._note``).
    """

    __slots__ = ("type", "data", "audience", "_json")

    def __init__(
        self, type: str, data: dict[str, Any], audience: tuple[int, ...] | None = None
    ) -> None:
        self.type = type
        self.data = data
        self.audience = audience
        self._json: ReadOnlyDict | None = None

    def visible_to(self, seat: int | None) -> bool:
        """``seat=None`` is a spectator, who sees public events only."""
        return self.audience is None or (seat is not None and seat in self.audience)

    @property
    def json(self) -> ReadOnlyDict:
        """``{"type": ..., **data}``, read-only, built once and shared by every view."""
        out = self._json
        if out is None:
            out = self._json = ReadOnlyDict(type=self.type, **self.data)
        return out

    def to_json(self, with_audience: bool = False) -> dict[str, Any]:
        """A plain, mutable copy of the event as JSON."""
        out: dict[str, Any] = thaw(self.json)
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

    def __hash__(self) -> int:
        raise TypeError("an Event is mutable inside the engine and not hashable")
