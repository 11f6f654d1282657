"""Table chat: who may say a line and when, the text's cleaning, the lines a table keeps, and
the bots' talk in it (docs/server.md "Table talk").

A chat line is one dict, stored, sent and kept the same way for a person and a bot: ``id``,
``seat``, ``user_id`` (None: a bot), ``name``, ``text``, ``ts``, ``after`` (the actions played
before it; None before the game) and, for a bot's line, ``line`` (its structured talk line,
``talk.Line.to_json()``) and ``message`` (``talk.message(line)``: what each client renders in
its reader's language; ``text`` is the English fallback). ``talk_section`` turns a game's lines
into its record's ``talk`` section.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from typing import Any

from ... import talk
from ...engine import Game
from ...engine.actions import CLAIM, CLAIM_INVESTIGATION
from ...engine.speech import DEAD, LEGISLATIVE_SESSION, SILENT_GAME, SPECTATOR, silenced
from ...talk.said import Said
from ..accounts.auth import User
from ..core.guard import Guard
from ..core.protocol import ProtocolError
from ..core.text import BIDI, invisible
from .conn import Conn
from .options import reaction_line

CHAT_KEEP = 100  # lines a table keeps (and a welcome carries)

# The bots' talk limits, so that bots never flood a table's chat (issue 30). A level keeps its
# own pace (``bots.voice.Style.per_round``: at most 3 lines a round); these bound what reaches
# people whatever a level (or a plug-in) says.
#: Seconds between two lines of one bot: a short line is read in about two seconds, so a bot
#: that says three things says them one after the other, as a person types them.
BOT_LINE_GAP = 2.5
#: Lines all the bots of a table say in one round (a nomination to the next): about one line
#: per bot seat of a 7-player table, a few more than a table of bots says on average
#: (``evaluate talk``: 3 to 6 lines a round). Lines over it are dropped, except answers to
#: questions people put to a bot by name (they count; people's own chat rate bounds them).
TABLE_LINES_PER_ROUND = 8
#: Lines one bot may have waiting for its turn to speak (``BOT_LINE_GAP``); more are dropped,
#: oldest first: a bot says what is fresh.
BOT_QUEUE_MAX = 4


def clean_chat(text: str, max_len: int) -> str:
    """Plain text: control characters (except newline), lone surrogates and bidi controls
    removed, trimmed, 1..max_len characters, and at least one visible character.

    Nothing is escaped or interpreted: clients render chat as text, never as HTML.
    """
    cleaned = "".join(
        ch
        for ch in text
        if ch == "\n" or (ch not in BIDI and unicodedata.category(ch) not in ("Cc", "Cs"))
    ).strip()
    if not any(not ch.isspace() and not invisible(ch) for ch in cleaned):
        raise ProtocolError("chat_empty", "a chat message needs some text")
    if len(cleaned) > max_len:
        raise ProtocolError("chat_too_long", f"a chat message has at most {max_len} characters")
    return cleaned


#: What a person who may not chat now is told, by ``engine.speech.silenced``'s reason.
_SILENCED = {
    SPECTATOR: "spectators cannot chat during a game",
    DEAD: "dead players cannot chat",
    LEGISLATIVE_SESSION: "the president and chancellor cannot chat during the legislative session",
    SILENT_GAME: "this is a silent game: the players cannot chat until it is over",
}


class Chat:
    """A table's chat: its last lines and the id of the next one."""

    def __init__(self, limits: Guard, max_len: int) -> None:
        self.limits = limits
        self.max_len = max_len
        self.lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEEP)
        self.next_id = 1
        # The page language each person last chatted from (their clients say it with each line):
        # the table's languages, in which the recogniser reads everyone's lines.
        self.langs: dict[str, str] = {}

    def languages(self, user_id: str, lang: str | None) -> tuple[str, ...]:
        """The languages to read ``user_id``'s line in: ``lang``, the one their page shows
        (kept as theirs), then the others the table's people chat from, first seen first."""
        if lang in talk.LANGUAGES:
            self.langs.pop(user_id, None)
            self.langs[user_id] = lang
            if len(self.langs) > CHAT_KEEP:  # bounded: the people of one table
                self.langs.pop(next(iter(self.langs)))
        mine = self.langs.get(user_id)
        table = dict.fromkeys(v for k, v in self.langs.items() if k != user_id)
        return (mine, *table) if mine else tuple(table)

    def restore(self, lines: list[dict[str, Any]]) -> None:
        """The stored lines (oldest first), after a restart."""
        self.lines.extend(shown(line) for line in lines)
        self.next_id = (lines[-1]["id"] + 1) if lines else 1

    def check(self, conn: Conn, text: str, game: Game | None, mode: str = "free") -> str:
        """The cleaned line, if ``conn`` may say it now; else ``ProtocolError``. During a game
        only living seated players chat, and not the government during its legislative
        session, nor anyone at a silent table (``mode``, ``engine.speech``); at an emote-only
        table a line is reactions (``options.reaction_line``); every line counts against the
        sender's and her address's rates."""
        user = conn.user
        if user is None:
            raise ProtocolError("unauthorized", "sign in to chat")
        clean = clean_chat(text, self.max_len)
        why = None if game is None else silenced(game, conn.seat, mode)  # the speech rule
        if why is not None:
            raise ProtocolError("chat_forbidden", _SILENCED[why], detail=why)
        if mode == "emotes" and game is not None and not game.finished:
            clean = reaction_line(clean, game.n)
        checks = [("chat_rate", user.id)]
        if conn.addr is not None:
            checks.append(("chat_rate_address", conn.addr))
        if not self.limits.hit(*checks):
            wait = self.limits.retry_after(*checks)
            raise ProtocolError(
                "rate_limited",
                f"too many chat messages; wait {wait} s",
                detail={"retry_after": wait},
            )
        return clean

    def line(
        self,
        seat: int | None,
        user: User,
        name: str | None,
        text: str,
        now: float,
        after: int | None = None,
    ) -> dict[str, Any]:
        """The next line (not kept until ``said``: it is stored first)."""
        return {
            "id": self.next_id,
            "seat": seat,
            "user_id": user.id,
            "name": name or user.name,
            "text": text,
            "ts": round(now, 3),
            "after": after,
        }

    def bot_line(
        self, seat: int, name: str, line: talk.Line, names: list[str], after: int, now: float
    ) -> dict[str, Any]:
        """The next line, said by the bot at ``seat``: its talk line, the message clients render
        and the English text (logs, old clients, the record's readers without the phrases)."""
        return {
            "id": self.next_id,
            "seat": seat,
            "user_id": None,
            "name": name,
            "text": talk.render(line, "en", names),
            "ts": round(now, 3),
            "after": after,
            "line": line.to_json(),
            "message": talk.message(line).to_json(),
        }

    def said(self, line: dict[str, Any]) -> None:
        self.next_id += 1
        self.lines.append(line)


def shown(row: dict[str, Any]) -> dict[str, Any]:
    """A stored chat row as clients get it: a bot's line with the message they render."""
    raw = row.get("line")
    if raw is None or "message" in row:
        return row
    try:
        msg = talk.message(talk.line_from_json(raw)).to_json()
    except talk.InvalidLine:
        return row  # (never stored so) the text stands alone
    return {**row, "message": msg}


def talk_section(rows: list[dict[str, Any]], actions: int) -> list[dict[str, Any]]:
    """A game's chat rows as its record's ``talk`` section (``talk.said.Said`` entries): the
    lines said from the deal on (lobby chat has no ``after``), a bot's structured line, a
    person's text, each with its seat and, without one, its name."""
    out: list[dict[str, Any]] = []
    for row in rows:
        after = row.get("after")
        if after is None or not 0 <= after <= actions:
            continue
        raw, seat = row.get("line"), row.get("seat")
        try:
            line = None if raw is None else talk.line_from_json(raw)
        except talk.InvalidLine:
            continue
        name = row.get("name") if seat is None else None
        text = None if line is not None else row.get("text")
        out.append(Said(seat, after, line, text, name).to_json())
    return out


def recognised(
    game: Game, seat: int, text: str, names: list[str], langs: tuple[str, ...] = ()
) -> list[talk.Line]:
    """What a person's chat line says (``talk.recognise``), read with the speaker's context
    from the engine: the claims the seat may still make (its legal claim actions), the
    investigation it may claim, the government now; and in ``langs``, the speaker's language
    and the table's (``Chat.languages``): "toi boc 2 do 1 xanh" at a Vietnamese table."""
    offered = [a for a in game.legal_actions(seat) if a.type == CLAIM]
    investigated = next(
        (a.target for a in offered if a.subject == CLAIM_INVESTIGATION and a.target is not None),
        None,
    )
    government = None
    if game.president is not None and game.chancellor is not None:
        government = (game.president, game.chancellor)
    context = talk.Context(game.open_claims(seat), investigated, government)
    return talk.recognise(text, players=game.n, names=names, lang=langs, context=context)


def claim_offer(game: Game, seat: int, lines: list[talk.Line]) -> dict[str, Any] | None:
    """The engine claim a recognised line matches, if the seat may make it now: the action
    (JSON) the sender's client offers with one tap (never made for it)."""
    for line in lines:
        if isinstance(line, talk.Claim):
            action = line.to_action(seat)
            if action in game.legal_actions(seat):
                return action.to_json()
    return None
