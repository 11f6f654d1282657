"""A new table's plan: its settings checked before it is made, one place for ``POST
/api/tables`` (``Hub.create_table``), ``POST /api/tables/check`` (what the creation form is
told), and a tournament's settings checked for every table size. ``plan_table`` checks the
timer, the rules (the engine's), the chat, the bot levels and seats, the category and whether
the table may be rated (``rated_problem``: the one place that decides), and returns what the
hub makes (``NewTable``); it changes nothing.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ... import ratings as R
from ...engine import Rules
from ...engine.categories import RATED, STANDIN, category_of, forced_by
from ..accounts.auth import User
from ..competition import limits
from ..core.errors import LobbyError
from ..core.text import brief, json_problem
from ..table.blind import alias_language
from ..table.levels import bot_seat, check_level, default_level
from ..table.models import ModelSeats
from ..table.options import (
    CHOSEN,
    Category,
    check_chat,
    check_on_timeout,
    chosen_category,
    table_category,
)
from ..table.seats import Seat
from ..table.settings import TableSettings

RULES_TEXT_MAX = 64  # characters of a preset or setting name, or of a text value in rules
RULES_DEPTH_MAX = 8


def setting_named(message: str) -> str | None:
    """The setting an engine refusal names ("powers: ..." -> "powers"), if it names one."""
    name = message.split(":", 1)[0]
    return name if ":" in message and re.fullmatch(r"[a-z_]{1,32}", name) else None


def rated_problem(
    players: int, rules: Rules, chat: str, timer: int | None, seats: list[Seat], public: bool
) -> str | None:
    """Why a table with these settings cannot be rated, or None: the one place that decides.
    What counts for ratings is the engine's table (``engine.categories``: the game's category
    must be ``rated``); the table's own rule adds that a rated table is public (the history in
    every player's public profile shows each rated game's role and result), for people only,
    and one whose handicap the ratings know (docs/ratings.md)."""
    if not public:
        return "rated: a rated table is public (its results show in public profiles)"
    category = category_of(rules, chat, timer)
    if category != RATED:
        why = ", ".join(dict.fromkeys(row.setting for row in forced_by(rules, chat, timer)))
        return f"rated: this game is {category} ({why}), and only rated games count"
    if players not in R.PLAYERS:
        return f"rated: a rated table has {R.PLAYERS.start}-{R.PLAYERS.stop - 1} players"
    if players in rules.rebalanced:
        return "rated: rebalanced tables are not rated yet (their handicap is not fitted)"
    if any(s.kind == "bot" for s in seats):
        return "rated: a rated table is for people only (no bots)"
    return None


@dataclasses.dataclass(frozen=True, slots=True)
class NewTable:
    """A new table's settings, checked (``Hub.plan_table``): what ``create_table`` makes and
    what ``POST /api/tables/check`` tells the creation form."""

    players: int
    rules: Any  # as the host wrote them (a preset's name or settings)
    timer: int | None
    on_timeout: str  # who moves when the timer runs out: the stand-in or at random
    chat: str
    blind: str | None  # the language of the aliases; None: not blind
    chosen: str  # the category the host chose
    category: Category
    rated: bool
    bot_level: str
    seats: list[Seat]
    rating_min: float | None = None  # the rating a person needs to sit (competition/limits.py)
    rating_max: float | None = None

    def settings(self, **chosen: Any) -> TableSettings:
        """The table's settings: this plan's, and what the request or the server chose
        beside it (``public``, ``auto_start``, ``name``, ``webhook``, ``bots_talk``, ``kind``)."""
        return TableSettings(
            players=self.players,
            rules=self.rules,
            bot_level=self.bot_level,
            timer=self.timer,
            on_timeout=self.on_timeout,
            rated=self.rated,
            chat=self.chat,
            blind=self.blind,
            category=self.chosen,
            rating_min=self.rating_min,
            rating_max=self.rating_max,
            **chosen,
        )


def plan_table(
    min_timer: int, models: ModelSeats | None, user: User | None, body: dict[str, Any]
) -> NewTable:
    """A new table's settings checked as ``Hub.create_table`` checks them (``user``: its maker,
    None: nobody signed in yet; ``min_timer``: the server's shortest timer; ``models``: the
    language-model seats it offers), or the ``LobbyError`` that refuses them; changes
    nothing."""
    players = body["players"]
    timer = body.get("timer")
    if timer is not None and timer < min_timer:
        raise LobbyError(
            400,
            "timer_too_short",
            f"timer: at least {min_timer} seconds",
            "timer",
        )
    on_timeout = body.get("on_timeout") or STANDIN
    try:
        check_on_timeout(on_timeout, timer)
    except ValueError as exc:
        raise LobbyError(400, "invalid_settings", str(exc), "on_timeout") from None
    rules = body.get("rules") or "official"
    problem = json_problem(rules, RULES_TEXT_MAX, RULES_DEPTH_MAX)
    if problem is not None:
        raise LobbyError(400, "invalid_settings", f"rules: {problem}", "rules")
    try:
        parsed = Rules.from_json(rules)
        parsed.validate(players)
    except Exception as exc:
        message = getattr(exc, "message", str(exc))
        raise LobbyError(400, "invalid_settings", message, setting_named(message)) from None
    chat = body.get("chat") or "free"
    try:
        check_chat(chat)
    except ValueError as exc:
        raise LobbyError(400, "invalid_settings", str(exc), "chat") from None
    bot_level = body.get("bot_level") or default_level()
    check_level(models, bot_level, "bot_level")
    seats = new_seats(models, user, body, players, bot_level)
    chosen = chosen_category(body.get("category"), bool(body.get("rated", False)))
    if chosen not in CHOSEN:
        raise LobbyError(
            400, "invalid_settings", f"category: one of {', '.join(CHOSEN)}", "category"
        )
    rated = chosen == RATED
    if rated:
        public = bool(body.get("public", True))
        problem = rated_problem(players, parsed, chat, timer, seats, public)
        if problem is not None:
            raise LobbyError(400, "not_ratable", problem)
    lang = alias_language(body.get("lang")) if body.get("blind") else None
    rating_min, rating_max = limits.check_limits(body.get("rating_min"), body.get("rating_max"))
    return NewTable(
        players=players,
        rules=rules,
        timer=timer,
        on_timeout=on_timeout,
        chat=chat,
        blind=lang,
        chosen=chosen,
        category=table_category(parsed, chat, timer, chosen),
        rated=rated,
        bot_level=bot_level,
        seats=seats,
        rating_min=rating_min,
        rating_max=rating_max,
    )


def new_seats(
    models: ModelSeats | None,
    user: User | None,
    body: dict[str, Any],
    players: int,
    bot_level: str,
) -> list[Seat]:
    """A new table's seats: the bots asked for (``bots``: seat -> level, None: the table's
    ``bot_level``) and the maker's own (``seat``, default 0; None: she only hosts)."""
    seats = [Seat() for _ in range(players)]
    for key, level in (body.get("bots") or {}).items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise LobbyError(400, "bad_seat", f"bots: {brief(key)} is not a seat number") from None
        if not 0 <= seat < players:
            raise LobbyError(
                400, "bad_seat", f"bots: seat {seat} is not at this table (0-{players - 1})"
            )
        level = level or bot_level
        check_level(models, level, "bots")
        seats[seat] = bot_seat(models, seat, level)
    host_seat = body.get("seat", 0)
    if host_seat is not None:
        if not 0 <= host_seat < players:
            raise LobbyError(
                400, "bad_seat", f"seat: {host_seat} is not at this table (0-{players - 1})"
            )
        if seats[host_seat].kind != "empty":
            raise LobbyError(409, "seat_taken", f"seat: seat {host_seat} is given to a bot")
        seats[host_seat] = Seat("human", *((user.id, user.name) if user else (None, None)))
    return seats
