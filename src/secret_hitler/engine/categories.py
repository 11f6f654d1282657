"""Which games count for ratings: the one table of categories (docs/game-types.md "Categories").

secrethitler.io sorts every game into ranked, practice, casual or custom, and some settings force
a category whatever the host chose (``create-game.js@f688831:224-233,304-306``). Ours are
``rated`` (the site's ranked), ``practice`` (not rated; the conduct rules are moderated),
``casual`` (not rated, not moderated) and ``custom`` (changed rules, not rated). ``FORCED`` is the
one table of what each game type or table setting forces; ``category_of`` gives a table's
category from its rules, its table settings and the host's choice, with the site's precedence
custom > casual > practice > rated. The lobby shows it on the table card and the ratings read it
(``GET /api/rules`` serves the table: ``catalog.py``).

Table settings change no rule, so the engine carries them without acting on them: a record may
keep them in its optional ``table`` section (``record.parse_table``). ``chat`` is ``free``,
``emotes`` (only emotes and digits) or ``silent`` (no seated player talks while the game runs:
``speech.silenced``); ``blind`` hides the players' names behind ``aliases`` until the end;
``turn_timer`` is the seconds a decision may take, and ``on_timeout`` who then moves for the
seat: ``standin``, the host's stand-in bot (a table's timer as it always was, a play-by-post
table's), or ``random``, ``Game.forced_action`` (secrethitler.io's timed mode). Only the
timer's length forces a category: under ``FAST_TIMER_S`` a decision is hurried whoever makes
the move it missed, and a stand-in's move is no more the player's own than a random one.

Beyond this table the host adds its own rule: a private or unlisted table, or one with a bot,
is never rated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal, get_args

from .settings import PRESETS, Rules

Category = Literal["rated", "practice", "casual", "custom"]
#: From the least forcing to the most: a table's category is the most forcing of the host's
#: choice and of every ``FORCED`` row that applies.
CATEGORIES: tuple[str, ...] = get_args(Category)
RATED, PRACTICE, CASUAL, CUSTOM = CATEGORIES
Chat = Literal["free", "emotes", "silent"]
CHAT_MODES: tuple[str, ...] = get_args(Chat)
#: Who moves for a seat whose turn timer ran out: the host's stand-in bot (the default), or a
#: random legal move (``Game.forced_action``, secrethitler.io's timed mode).
OnTimeout = Literal["standin", "random"]
ON_TIMEOUT_MODES: tuple[str, ...] = get_args(OnTimeout)
STANDIN, RANDOM = ON_TIMEOUT_MODES
#: A turn timer shorter than this (seconds) makes a game casual (``create-game.js@f688831:226``).
FAST_TIMER_S = 30
#: The presets a rated game may play; any other preset, or a changed rule, is custom.
RATED_PRESETS = ("official", "secrethitler-io")


def _custom(rules: Rules, chat: str, turn_timer: float | None) -> bool:
    """A preset other than ``RATED_PRESETS``, or any of its settings changed but the game
    types' own (``avalon``, ``monarchist``, ``rebalanced``, ``top_decking``)."""
    if rules.preset not in RATED_PRESETS:
        return True
    plain = replace(rules, avalon="off", monarchist=False, rebalanced=(), top_decking="allowed")
    return plain != PRESETS[rules.preset]


@dataclass(frozen=True, slots=True)
class Forcing:
    """One row of ``FORCED``: ``setting`` (a rule setting or a table setting) forces
    ``category`` when ``applies``; ``label`` is the web catalogs' key of its reason."""

    setting: str
    category: str
    label: str
    applies: Callable[[Rules, str, float | None], bool]


#: The one table: which game types and table settings force which category. Rebalanced tables
#: and blind tables force nothing (the site rates them).
FORCED: tuple[Forcing, ...] = (
    Forcing("rules", CUSTOM, "category.reason.custom", _custom),
    Forcing("avalon", CASUAL, "category.reason.avalon", lambda r, c, t: r.avalon != "off"),
    Forcing("monarchist", CASUAL, "category.reason.monarchist", lambda r, c, t: r.monarchist),
    Forcing(
        "top_decking",
        CASUAL,
        "category.reason.top_decking",
        lambda r, c, t: r.top_decking != "allowed",
    ),
    Forcing(
        "turn_timer",
        CASUAL,
        "category.reason.fast_timer",
        lambda r, c, t: t is not None and t < FAST_TIMER_S,
    ),
    Forcing("chat", CASUAL, "category.reason.emotes", lambda r, c, t: c == "emotes"),
    Forcing("chat", PRACTICE, "category.reason.silent", lambda r, c, t: c == "silent"),
)


def forced_by(
    rules: Rules, chat: str = "free", turn_timer: float | None = None
) -> tuple[Forcing, ...]:
    """The rows of ``FORCED`` that apply to a table (what the lobby explains on its card)."""
    _check(chat, turn_timer)
    return tuple(row for row in FORCED if row.applies(rules, chat, turn_timer))


def category_of(
    rules: Rules,
    chat: str = "free",
    turn_timer: float | None = None,
    chosen: str = RATED,
) -> str:
    """A table's category: the host's ``chosen`` one, or the most forcing one its rules and
    table settings force (custom > casual > practice > rated). Only ``rated`` counts for
    ratings."""
    if chosen not in CATEGORIES:
        raise ValueError(f"category: one of {', '.join(CATEGORIES)}")
    rank = CATEGORIES.index(chosen)
    for row in forced_by(rules, chat, turn_timer):
        rank = max(rank, CATEGORIES.index(row.category))
    return CATEGORIES[rank]


def _check(chat: str, turn_timer: float | None) -> None:
    if chat not in CHAT_MODES:
        raise ValueError(f"chat: one of {', '.join(CHAT_MODES)}")
    if turn_timer is not None and not turn_timer > 0:
        raise ValueError("turn_timer: a positive number of seconds, or none")


__all__ = [
    "CASUAL",
    "CATEGORIES",
    "CHAT_MODES",
    "CUSTOM",
    "FAST_TIMER_S",
    "FORCED",
    "ON_TIMEOUT_MODES",
    "PRACTICE",
    "RANDOM",
    "RATED",
    "RATED_PRESETS",
    "STANDIN",
    "Forcing",
    "OnTimeout",
    "category_of",
    "forced_by",
]
