"""A table's own settings that change no rule of the game: its chat mode, blind names and
category (docs/game-types.md "Player chat", "Blind mode", "Categories").

The engine knows what each setting means for the game (``engine/categories.py``: ``FORCED``,
the one table of which game types and settings force which category, and ``category_of``;
``engine/speech.py``: who may speak at a silent table); this module holds what the server adds:
the category a host may choose, the category and its reasons as a table shows them, and the
reactions an emote-only table's players may send while the game runs.

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
from ...engine.categories import CATEGORIES, CHAT_MODES, RATED, category_of, forced_by
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
    chat: str, aliases: list[str] | None, timer: int | None, category: str, blind: str | None
) -> dict[str, Any]:
    """A game record's ``table`` section (``engine.record.parse_table``: the settings of its
    table that change no rule): the chat mode, blind and its aliases, the turn timer, the
    category."""
    out: dict[str, Any] = {"chat": chat, "blind": blind is not None}
    if aliases is not None:
        out["aliases"] = list(aliases)
    out["turn_timer"] = timer
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
    return table_section(chat, aliases, table.get("timer"), category, table.get("blind"))


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
    "chosen_category",
    "reaction_line",
    "stored_category",
    "stored_record",
    "stored_section",
    "table_category",
    "table_section",
]
