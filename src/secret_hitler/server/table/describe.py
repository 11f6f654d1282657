"""What a table says of itself: the detail each viewer is shown (the lobby's cards, the table
page, every API answer about a table), the rows the database stores (the table's, a new
game's), and its game's record.

Pure reads of a ``Table`` (session.py), which answers ``detail``, ``row`` and ``record`` with
these; nothing here changes the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import Game
from ...engine.writer import with_talk
from ...talk.narrate import rules_named
from . import blind
from .chat import talk_section
from .options import table_section as options_section

if TYPE_CHECKING:
    from .session import Table


def detail(table: Table, member: bool, viewer: str | None = None) -> dict[str, Any]:
    """The table as ``viewer`` (a user id, None: anyone) may see it; ``member``: seated or
    hosting (the invite is shown)."""
    g = table.game
    done = table.status == "finished"  # set only once the last action is committed
    grace = table.services.settings.grace
    away_since = table.presence.away_since
    hide = table.hides_names
    host_shown = not hide or (viewer is not None and viewer == table.host)
    seats = []
    for i, s in enumerate(table.seats):
        d = {"seat": i, **s.to_json()}
        if hide:
            own = viewer is not None and s.user_id == viewer
            d = blind.masked_seat(d, table.aliases[i] if table.aliases else None, own)
        d["connected"] = s.kind == "bot" or (s.kind == "human" and table.connected(i))
        away = away_since.get(i)
        if g is not None and not done and not d["connected"] and away is not None:
            d["standin_at"] = table.wall_clock(away + grace)
        seats.append(d)
    return {
        "id": table.id,
        "status": table.status,
        "players": table.players,
        "rules": table.rules,
        **rules_named(table.rules),  # their name and game types, in the narrator's words
        "public": table.public,
        "invite": table.invite if member else None,
        "host": table.host if host_shown else None,
        "host_name": table.host_name if host_shown else None,
        "timer": table.timer,
        "on_timeout": table.on_timeout,
        "bot_level": table.bot_level,
        "auto_start": table.auto_start,
        "rated": table.rated,
        **table.category.to_json(),
        "chat": table.chat_mode,
        "blind": table.blind is not None,
        "bots_talk": table.bots_talk,
        "seats": seats,
        "spectators": table.presence.spectators,
        "game_id": table.id if g is not None else None,
        "created_at": table.created_at,
        "winner": g.winner.value if done and g is not None and g.winner else None,
        "reason": g.reason.value if done and g is not None and g.reason else None,
        "problem": table.problem,
        "name": table.name,
        "webhook": table.webhook is not None,
        "rematch": table.rematch,
        "remake": None
        if table.remake is None
        else {
            "yes": len(table.remake["yes"]),
            "no": len(table.remake["no"]),
            "needed": table.remake["needed"],
            "ends_at": table.remake["ends_at"],
        },
        "remake_result": table.remake_result,
        "afk": table.afk.shown(),
        "afk_result": table.afk.result,
        "kind": table.kind,
        "rating_min": table.rating_min,
        "rating_max": table.rating_max,
    }


def row(table: Table) -> dict[str, Any]:
    """The table as the database stores it (``storage.queries.save_table``)."""
    return {
        "id": table.id,
        "host": table.host,
        "host_name": table.host_name,
        "players": table.players,
        "rules": table.rules,
        "public": table.public,
        "invite": table.invite,
        "timer": table.timer,
        "on_timeout": table.on_timeout,
        "bot_level": table.bot_level,
        "auto_start": table.auto_start,
        "status": table.status,
        "seats": [s.to_json() for s in table.seats],
        "created_at": table.created_at,
        "name": table.name,
        "webhook": table.webhook,
        "rematch": table.rematch,
        "rated": table.rated,
        "removed": sorted(table.removed) or None,
        "bots_talk": table.bots_talk,
        "admissions": table.seating.admissions_json(),
        "chat": table.chat_mode,
        "blind": table.blind,
        "category": table.chosen,
        "kind": table.kind,
        "rating_min": table.rating_min,
        "rating_max": table.rating_max,
    }


def record(table: Table) -> dict[str, Any]:
    """The game's record (RECORD-FORMAT.md) as the table shows it: a blind game's real names,
    the table's settings and its last chat lines, and the talk made of them."""
    assert table.game is not None
    rec = table.game.to_record()
    rec["id"] = table.id
    if table.real_names is not None:  # a blind game is played by its aliases
        rec["players"] = list(table.real_names)
    rec["table"] = table.table_section()
    rec["chat"] = [table.shown_line(line) for line in table.chat.lines]
    if table.renamed:  # deleted accounts: the stored record says the same
        rec["players"] = [table.renamed.get(i, n) for i, n in enumerate(rec["players"])]
    return with_talk(rec, talk_section(rec["chat"], len(table.game.actions)))


def table_section(table: Table) -> dict[str, Any]:
    """The record's ``table`` section (``engine.record.parse_table``): the settings of this
    table that change no rule."""
    return options_section(
        table.chat_mode,
        table.aliases,
        table.timer,
        table.category.category,
        table.blind,
        table.on_timeout,
    )


def new_game_row(
    table: Table, game: Game, names: list[str], aliases: list[str] | None, seed: int
) -> dict[str, Any]:
    """The database's row of a game just dealt at ``table`` (``names``: its people's names,
    ``aliases``: a blind game's, which it is played by; ``seed``: the deal's)."""
    rec = game.to_record()
    return {
        "id": table.id,
        "table_id": table.id,
        "players": table.players,
        "names": names,
        "aliases": aliases,
        "rules": rec["rules"],
        "seed": seed,
        "roles": rec["roles"],
        "first_president": rec["first_president"],
        "deck": rec["deck"],
        "reshuffles": [],
        "status": "playing",
        "winner": None,
        "reason": None,
        "action_count": 0,
        "created_at": table.services.clock.time(),
        "finished_at": None,
    }
