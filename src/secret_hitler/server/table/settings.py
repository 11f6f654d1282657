"""What a table is made with that someone chose: its game (seats, rules, timer) and its
settings that change no rule (``options.py``), in one value.

A table is made in four ways, each of which used to spell out every setting: a person's new
table (``lobby/plans.py``'s checked plan and the request's switches), a table the server opens
(a queue's, a new player's, a tournament round's), a rematch and a restore (both from the
stored row, ``from_row``). ``Table`` takes a ``TableSettings`` beside what makes the table
itself (its id, host, invite, seats, status); what it stores is ``describe.row``, of which
``from_row`` is the inverse for these fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.categories import STANDIN
from .options import DEFAULT_CHOSEN, chosen_category, stored_on_timeout


@dataclass(frozen=True)
class TableSettings:
    """A table's chosen settings. ``kind``: a system table's (``newbie``, ``queue``,
    ``tournament``; None: a person's); ``rating_min``/``rating_max``: the rating a person needs
    to sit (``competition/limits.py``; None: no limit); ``blind``: the language of a blind
    table's aliases (None: not blind); ``category``: the one its host chose."""

    players: int
    rules: Any  # as the host wrote them (a preset's name or settings)
    bot_level: str
    public: bool = True
    timer: int | None = None
    on_timeout: str = STANDIN  # who moves when the timer runs out (options.py)
    auto_start: bool = True
    name: str | None = None
    webhook: str | None = None  # play-by-post notifications (lobby/webhooks.py); never shown
    rated: bool = False
    bots_talk: bool = True
    chat: str = "free"
    blind: str | None = None
    category: str = DEFAULT_CHOSEN
    kind: str | None = None
    rating_min: float | None = None
    rating_max: float | None = None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> TableSettings:
        """The settings of a stored table ``row`` (a restored table, a rematch), with the
        defaults of rows stored before a setting existed."""
        rated = bool(row.get("rated"))
        return cls(
            players=row["players"],
            rules=row["rules"],
            bot_level=row["bot_level"],
            public=row["public"],
            timer=row["timer"],
            on_timeout=stored_on_timeout(row),
            auto_start=row["auto_start"],
            name=row.get("name"),
            webhook=row.get("webhook"),
            rated=rated,
            bots_talk=bool(row.get("bots_talk", True)),
            chat=row.get("chat") or "free",
            blind=row.get("blind"),
            category=chosen_category(row.get("category"), rated),
            kind=row.get("kind"),
            rating_min=row.get("rating_min"),
            rating_max=row.get("rating_max"),
        )
