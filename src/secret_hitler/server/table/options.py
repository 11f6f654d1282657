"""A table's own settings that change no rule of the game: its chat mode, blind names, what its
timer does and its category (docs/game-types.md "Player chat", "Blind mode", "Timed mode",
"Categories").

The engine knows what each setting means for the game (``engine/categories.py``: ``FORCED``,
the one table of which game types and settings force which category, and ``category_of``;
``engine/speech.py``: who may speak at a silent table); this module holds what the server adds:
the category a host may choose, the category and its reasons as a table shows them, the
check of who moves when the timer runs out, and the reactions an emote-only table's players may
send while the game runs.

``on_timeout`` (``engine.categories.ON_TIMEOUT_MODES``) says who moves for a person whose
decision the table's timer ran out on: ``standin``, the table's stand-in bot, as our timer
always did (every table stored before it, and a play-by-post table's days-long timer), or
``random``, the engine's forced move (``Game.forced_action``): secrethitler.io's timed mode,
which a host chooses. ``random`` needs a timer.

An emote-only table (``chat: "emotes"``) is secrethitler.io's "emotes only": while its game runs
a line is one to ``REACTION_TOKENS_MAX`` tokens, each a reaction (``:name:``, one of
``REACTIONS``) or a seat number, which every client renders in its reader's language
(``reaction.<name>`` in the web catalogs); before the deal and after the end the chat is free,
as on the site. ``GET /api/limits`` tells clients the reactions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine import InvalidSettings, Rules, game_from_record
from ...engine.categories import (
    CATEGORIES,
    CHAT_MODES,
    ON_TIMEOUT_MODES,
    RANDOM,
    RATED,
    STANDIN,
    category_of,
    forced_by,
)
from ..core.protocol import ProtocolError
from ..storage import queries as S

#: The categories a host may choose (``custom`` comes from changed rules, never from a choice).
CHOSEN = tuple(c for c in CATEGORIES if c != "custom")
#: A table whose host chose nothing: rated if it asked to be (``rated: true``), else casual.
DEFAULT_CHOSEN = "casual"

#: The reactions of an emote-only table, as their tokens' names (``:sus:``): votes and parties
#: to point with, what a player feels about a seat, and the table's manners.
REACTIONS: tuple[str, ...] = (
    "ja",
    "nein",
    "liberal",
    "fascist",
    "hitler",
    "sus",
    "trust",
    "agree",
    "disagree",
    "think",
    "laugh",
    "wow",
    "sorry",
    "thanks",
    "wait",
    "gg",
)
#: Tokens in one reaction line: a reaction and the seats it is about ("sus 3 5").
REACTION_TOKENS_MAX = 4


@dataclass(frozen=True, slots=True)
class Category:
    """A table's category and the label keys of every ``FORCED`` row that applies to it (what
    the table card and the creation form explain: ``category.reason.*``)."""

    category: str
    reasons: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "category_reasons": list(self.reasons)}


def table_category(rules: Rules, chat: str, timer: int | None, chosen: str) -> Category:
    """The category of a table (``engine.categories.category_of``) and why it is not rated."""
    return Category(
        category_of(rules, chat, timer, chosen),
        tuple(dict.fromkeys(row.label for row in forced_by(rules, chat, timer))),
    )


def chosen_category(chosen: str | None, rated: bool) -> str:
    """The category a host chose: ``chosen``, else rated for a table asked to be rated (the
    ``rated`` flag clients sent before categories), else ``DEFAULT_CHOSEN``."""
    if chosen is None:
        return RATED if rated else DEFAULT_CHOSEN
    return chosen


def table_section(
    chat: str,
    aliases: list[str] | None,
    timer: int | None,
    category: str,
    blind: str | None,
    on_timeout: str = STANDIN,
) -> dict[str, Any]:
    """A game record's ``table`` section (``engine.record.parse_table``: the settings of its
    table that change no rule): the chat mode, blind and its aliases, the turn timer and who
    moved when it ran out, the category."""
    out: dict[str, Any] = {"chat": chat, "blind": blind is not None}
    if aliases is not None:
        out["aliases"] = list(aliases)
    out["turn_timer"] = timer
    out["on_timeout"] = on_timeout
    out["category"] = category
    return out


def stored_category(table: dict[str, Any]) -> Category:
    """The category of a stored table row."""
    chosen = chosen_category(table.get("category"), bool(table.get("rated")))
    chat = table.get("chat") or "free"
    try:
        return table_category(Rules.from_json(table["rules"]), chat, table.get("timer"), chosen)
    except (InvalidSettings, ValueError):  # (never stored so: checked when the table was made)
        return Category(chosen, ())


def stored_section(table: dict[str, Any], game: dict[str, Any] | None) -> dict[str, Any]:
    """``table_section`` of a stored table row and its game row."""
    chat = table.get("chat") or "free"
    aliases = None if game is None else game.get("aliases")
    category = stored_category(table).category
    return table_section(
        chat, aliases, table.get("timer"), category, table.get("blind"), stored_on_timeout(table)
    )


def stored_on_timeout(table: dict[str, Any]) -> str:
    """Who moves when a stored table's timer runs out (a row stored before the setting: the
    stand-in, as it always was)."""
    return table.get("on_timeout") or STANDIN


def stored_record(stored: S.StoredTable) -> dict[str, Any]:
    """A stored finished game's whole record: its fixings and actions (``queries.record_of``)
    replayed, so that it names its winners where the game does (a Monarchist), and its table's
    settings (``table_section``)."""
    record = game_from_record(S.record_of(stored)).to_record()
    record["table"] = stored_section(stored.table, stored.game)
    return record


def check_chat(chat: str) -> str:
    """``chat`` if it is a chat mode, else ``ValueError`` naming them."""
    if chat not in CHAT_MODES:
        raise ValueError(f"chat: one of {', '.join(CHAT_MODES)}")
    return chat


def check_on_timeout(on_timeout: str, timer: int | None) -> str:
    """``on_timeout`` if it is who may move when this table's timer runs out, else
    ``ValueError`` saying why: one of ``ON_TIMEOUT_MODES``, and a random move needs a timer."""
    if on_timeout not in ON_TIMEOUT_MODES:
        raise ValueError(f"on_timeout: one of {', '.join(ON_TIMEOUT_MODES)}")
    if on_timeout == RANDOM and timer is None:
        raise ValueError("on_timeout: a random move needs a timer")
    return on_timeout


def reaction_line(text: str, players: int) -> str:
    """``text`` as an emote-only table's line: its tokens, each a reaction (``:name:``) or a
    seat number (1 to ``players``), joined by one space; ``ProtocolError`` otherwise."""
    tokens = text.split()
    if not 0 < len(tokens) <= REACTION_TOKENS_MAX or not all(
        _is_reaction(token, players) for token in tokens
    ):
        raise ProtocolError(
            "chat_reactions_only",
            f"this table's chat takes only reactions and seat numbers during the game (at most "
            f"{REACTION_TOKENS_MAX}: GET /api/limits 'reactions')",
        )
    return " ".join(tokens)


def _is_reaction(token: str, players: int) -> bool:
    if token.isascii() and token.isdigit():
        return 1 <= int(token) <= players
    return len(token) > 2 and token[0] == token[-1] == ":" and token[1:-1] in REACTIONS


__all__ = [
    "CHOSEN",
    "DEFAULT_CHOSEN",
    "REACTIONS",
    "REACTION_TOKENS_MAX",
    "Category",
    "check_chat",
    "check_on_timeout",
    "chosen_category",
    "reaction_line",
    "stored_category",
    "stored_on_timeout",
    "stored_record",
    "stored_section",
    "table_category",
    "table_section",
]
