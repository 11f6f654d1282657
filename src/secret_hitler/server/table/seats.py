"""Seating: who sits where at a table, who hosts it, and the seats as last stored.

A lobby change edits the seats and then stores them; if that write fails the seats go back to
what is stored (``roll_back``), so the table never shows a seating the database does not hold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..competition.eligibility import Admission


@dataclass(slots=True)
class Seat:
    kind: str = "empty"  # empty | human | bot
    user_id: str | None = None
    name: str | None = None
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "user_id": self.user_id, "name": self.name, "level": self.level}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        return Seat(
            data.get("kind", "empty"), data.get("user_id"), data.get("name"), data.get("level")
        )


def _copy(seats: list[Seat]) -> list[Seat]:
    return [Seat.from_json(s.to_json()) for s in seats]


class Seating:
    """The seats, the host, the people the host removed (not back by themselves), the
    placeholder names of seats whose account was deleted, and where each rated seat was taken
    from (``admissions``: user id -> ``Admission``; competition/eligibility.py)."""

    def __init__(self, seats: list[Seat], host: str, host_name: str, removed: set[str]) -> None:
        self.seats = seats
        self.host = host
        self.host_name = host_name
        self.removed = removed
        self.renamed: dict[int, str] = {}  # seat -> placeholder name (deleted accounts)
        self.admissions: dict[str, Admission] = {}
        self._stored = _copy(seats)
        self._stored_admissions: dict[str, Admission] = {}

    def seat_of(self, user_id: str | None) -> int | None:
        if user_id is None:
            return None
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.user_id == user_id:
                return i
        return None

    def is_member(self, user_id: str | None) -> bool:
        return user_id is not None and (user_id == self.host or self.seat_of(user_id) is not None)

    def free_seat(self) -> int | None:
        for i, s in enumerate(self.seats):
            if s.kind == "empty":
                return i
        return None

    def pass_host(
        self,
        connected: Callable[[int], bool],
        exclude: str | None = None,
        connected_only: bool = False,
    ) -> bool:
        """The host role goes to the next human seat after the host's (a connected one first;
        ``connected_only``: only a connected one); False when nobody can take it."""
        n = len(self.seats)
        start = self.seat_of(self.host)
        start = -1 if start is None else start
        order = [(start + k) % n for k in range(1, n + 1)]
        humans = [
            i
            for i in order
            if self.seats[i].kind == "human"
            and self.seats[i].user_id not in (self.host, exclude, None)
        ]
        humans.sort(key=lambda i: not connected(i))  # stable: seat order within each
        if connected_only:
            humans = [i for i in humans if connected(i)]
        if not humans:
            return False
        seat = self.seats[humans[0]]
        assert seat.user_id is not None
        self.host, self.host_name = seat.user_id, seat.name or ""
        return True

    def seated_admissions(self) -> dict[str, Admission]:
        """The admissions of the people who hold a seat now."""
        seated = {s.user_id for s in self.seats if s.kind == "human" and s.user_id is not None}
        return {uid: a for uid, a in self.admissions.items() if uid in seated}

    def admissions_json(self) -> dict[str, Any] | None:
        """The seated people's admissions as stored (None: none)."""
        return {uid: a.to_json() for uid, a in self.seated_admissions().items()} or None

    def restore_admissions(self, stored: Any) -> None:
        """The admissions a stored table holds (``admissions_json``)."""
        found = {
            str(uid): a
            for uid, data in (stored or {}).items()
            if (a := Admission.from_json(data)) is not None
        }
        self.admissions = dict(found)
        self._stored_admissions = dict(found)

    def stored(self) -> None:
        """The seats as they are now are what the database holds."""
        self._stored = _copy(self.seats)
        self._stored_admissions = dict(self.admissions)

    def roll_back(self) -> None:
        """Back to the seats the database holds (a write of new seats failed)."""
        self.seats = _copy(self._stored)
        self.admissions = dict(self._stored_admissions)
