"""A live table: its lobby state, the running game and its commit, and the jobs it composes
(seating, presence, fan-out, chat, bot driving: each in a file of its own).

Every change to a table happens on the event loop under the table's lock. An action is applied
to the in-memory game (``Game.push``), committed through the table's writer (undone,
``Game.pop``, if that fails), and only then announced: each connection gets the update for its
own seat (its view, the events addressed to it, its legal actions). A table is given its
services (``services.Services``) and never reaches its host.

What a table says of itself (its detail, its rows, its record) is ``describe.py``'s; what people
do with it outside the game, ``usecases.py``'s. This module is still near 800 lines because what
is left shares the lock and the game: the table's state and the accessors its jobs read, the
game's one path (deal, commit or undo, resync after a failed commit, announce, welcome, resume)
and the chat lines said into it, each step reading and changing the same fields under the same
lock; split further, each file would reach into the other's fields.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Mapping
from typing import Any

from ... import talk
from ...engine import (
    Action,
    Game,
    GameError,
    IllegalAction,
    InvalidAction,
    InvalidSettings,
    Rules,
    game_from_record,
)
from ...engine.actions import CLAIM
from ...engine.speech import may_speak
from ...talk.narrate import Narrations
from ..core import protocol as P
from ..core.logs import GameLog
from ..storage import queries as S
from ..storage.ratings import with_rated_start
from ..storage.writer import StorageUnavailable, Write, is_unavailable
from . import blind, describe, fanout
from .afk import AfkVote
from .chat import Chat, claim_offer, recognised
from .conn import Conn
from .driver import BotDriver
from .options import Category, table_category
from .presence import Presence
from .seats import Seat, Seating
from .services import Services
from .settings import TableSettings
from .updates import event_bounds, seat_view, table_facts

log = logging.getLogger("secret_hitler.server.table")

RESUME_MAX = 1000  # updates a reconnecting client may catch up on; more: a fresh welcome


class Table:
    # Chance fixed in advance, as ``Game`` keyword arguments (record fixings): lobby/tutorial.py
    fixings: dict[str, Any] | None = None

    def __init__(
        self,
        services: Services,
        settings: TableSettings,
        *,
        id: str,
        host: str,
        host_name: str,
        invite: str,
        seats: list[Seat],
        status: str = "waiting",
        created_at: float | None = None,
        host_addr: str | None = None,
        rematch: str | None = None,
        removed: set[str] | None = None,
    ) -> None:
        self.services = services
        clock = services.clock
        # what was chosen for it (settings.py), as the attributes its jobs read; the host may
        # change some (its name, webhook, the bots' talk: usecases.py)
        self.players = settings.players
        self.rules = settings.rules
        self.public = settings.public
        self.timer = settings.timer
        self.on_timeout = settings.on_timeout  # who moves when the timer runs out (options.py)
        self.bot_level = settings.bot_level
        self.auto_start = settings.auto_start
        self.name = settings.name  # the host's name for the table
        self.webhook = settings.webhook  # play-by-post notifications; never shown
        self.rated = settings.rated  # ratings count this table's game (storage/ratings.py)
        self.bots_talk = settings.bots_talk  # the host's switch for the bots' talk (chat.py)
        self.chat_mode = settings.chat  # who may chat what (options.py)
        self.blind = settings.blind  # the language of a blind table's aliases
        self.chosen = settings.category  # the category its host chose
        self.kind = settings.kind  # a system table's kind (None: a person's)
        self.rating_min = settings.rating_min  # the rating a person needs to sit here
        self.rating_max = settings.rating_max
        # a blind game's aliases, and the real names it is played by (blind.py)
        self.aliases: list[str] | None = None
        self.real_names: list[str] | None = None
        self.id = id
        self.invite = invite
        self.status = status
        self.created_at = clock.time() if created_at is None else created_at
        self.host_addr = host_addr  # the creator's address (not stored: None after a restart)
        self.touched = clock.monotonic()  # last lobby change (waiting expiry)
        self.rematch = rematch  # the table opened by "rematch" after this game
        self.remake: dict[str, Any] | None = None  # an open remake vote (api/hosting.py)
        self.remake_result: dict[str, Any] | None = None  # how the last one went
        self.afk = AfkVote()  # the vote to replace an absent player by a bot (afk.py)
        # The one game: an action is pushed, committed, and popped again if the commit fails
        # (``_commit``), so the game is always the one the database holds once the lock is free.
        self.game: Game | None = None
        self.action_by: list[str | None] = []
        # the length of the game's log before each action and after the last (None: not known
        # since the game was taken; ``updates.event_bounds`` when a stand-in's move is shown)
        self._bounds: list[int] | None = None
        self.narration = Narrations()  # what the game's events tell each reader (updates.py)
        self.lock = asyncio.Lock()
        self.log = GameLog(log, {"game_id": id})
        self.seating = Seating(seats, host, host_name, removed or set())
        self.presence = Presence(
            self.seating, clock, services.settings.presence_delay, self.broadcast_table
        )
        self.presence.offline_since = self.touched
        self.chat = Chat(services.limits, services.settings.chat_max)
        self.driver = BotDriver(
            self.submit,
            lambda: self.game,
            self.seating,
            self.presence,
            services,
            self.log,
            timer=settings.timer,
            on_timeout=settings.on_timeout,
            bot_level=settings.bot_level,
            say=self.bot_chat,
            talk_on=lambda: self.bots_talk and self.chat_mode == "free",
        )
        # Storage faults: a failed commit leaves the game as it was before the action, but the
        # database may still hold that action (a COMMIT whose answer was lost), so the next
        # action first reloads the game from the database (``_resync``).
        self.unsynced = False
        self.problem: str | None = None  # why a ``broken`` table could not be restored

    # ------------------------------------------------------------------ seating
    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @seats.setter
    def seats(self, seats: list[Seat]) -> None:
        self.seating.seats = seats

    @property
    def host(self) -> str:
        return self.seating.host

    @host.setter
    def host(self, user_id: str) -> None:
        self.seating.host = user_id

    @property
    def host_name(self) -> str:
        return self.seating.host_name

    @host_name.setter
    def host_name(self, name: str) -> None:
        self.seating.host_name = name

    @property
    def removed(self) -> set[str]:
        return self.seating.removed

    @property
    def renamed(self) -> dict[int, str]:
        return self.seating.renamed

    def seat_of(self, user_id: str | None) -> int | None:
        return self.seating.seat_of(user_id)

    def is_member(self, user_id: str | None) -> bool:
        return self.seating.is_member(user_id)

    def free_seat(self) -> int | None:
        return self.seating.free_seat()

    def pass_host(self, exclude: str | None = None, connected_only: bool = False) -> bool:
        """The host role goes to the next human seat after the host's (``Seating.pass_host``)."""
        old = self.host
        passed = self.seating.pass_host(self.connected, exclude, connected_only)
        if passed:
            self.log.info("host passed", extra={"from": old, "to": self.host})
        return passed

    def seat_to_bot(self, seat: int) -> None:
        """A bot of the table's level takes the seat (a player left, or went away for good)."""
        self.seats[seat] = Seat("bot", None, self.seats[seat].name, self.bot_level)
        self.driver.seat_to_bot(seat)

    # ------------------------------------------------------------------ presence
    @property
    def conns(self) -> set[Conn]:
        return self.presence.conns

    def connected(self, seat: int) -> bool:
        return self.presence.connected(seat)

    def human_connected(self) -> bool:
        return self.presence.human_connected()

    def attach(self, conn: Conn) -> None:
        self.presence.attach(conn)

    def detach(self, conn: Conn) -> None:
        if self.presence.detach(conn):
            self.driver.wake.set()  # a stand-in may have to move for the seat
        if not self.conns and self.status == "finished":
            self.services.listener.idle(self)

    def hello(self, conn: Conn, msg: P.Hello) -> None:
        """(under the lock) Welcome a connection, or catch it up from ``since``."""
        user_id = conn.user.id if conn.user else None
        changed = self.presence.ready(conn)
        since = msg.since
        last_seat = self.presence.last_seat
        same_seat = user_id is None or last_seat.get(user_id, conn.seat) == conn.seat
        if (
            since is not None
            and self.game is not None
            and same_seat
            and 0 <= since <= self.seq
            and self.seq - since <= RESUME_MAX
        ):
            detail = self.detail(self.is_member(user_id), user_id)
            conn.send_msg(P.resumed(since, self.seq, detail))
            for text in self.missed_updates(conn.seat, since):
                conn.send_own(text)
            if msg.chat_since is not None:
                for c in self.chat.lines:
                    if c["id"] > msg.chat_since:
                        conn.send_msg(P.chat_msg(self.shown_line(c)))
            if user_id is not None:
                last_seat[user_id] = conn.seat
            if self.game.finished:
                conn.send_msg(P.game_over(self.record()))
        else:
            self.send_welcome(conn)
        self.presence.arrived(conn, changed)

    def reseat(self, user_id: str) -> None:
        """A user's seat changed (join/leave): refresh their connections."""
        self.presence.reseat(user_id, self.send_welcome)

    # ------------------------------------------------------------------ description
    @property
    def seq(self) -> int:
        return 0 if self.game is None else len(self.game.actions) + 1

    @property
    def deadline(self) -> float | None:
        """When the pending decision times out (Unix seconds), if the table has a timer."""
        return self.driver.deadline

    def wall_clock(self, monotonic: float) -> float:
        """A time of the monotonic clock as Unix time (clients count down to it)."""
        clock = self.services.clock
        return round(clock.time() + monotonic - clock.monotonic(), 2)

    @functools.cached_property
    def category(self) -> Category:
        """The table's category and why (``options.table_category``: the engine's table); its
        rules, timer, chat and chosen category never change."""
        try:
            rules = Rules.from_json(self.rules)
        except InvalidSettings:  # (never stored so: checked when the table was made)
            return Category(self.chosen, ())
        return table_category(rules, self.chat_mode, self.timer, self.chosen)

    @property
    def hides_names(self) -> bool:
        """A blind table hides who is who until its game is over (``blind.py``)."""
        return self.blind is not None and self.status != "finished"

    def shown_name(self, seat: int) -> str:
        """A seat's name as everyone may read it now: a blind game's alias, else the seat's."""
        if self.hides_names:
            return self.aliases[seat] if self.aliases is not None else blind.UNKNOWN
        return self.seats[seat].name or f"Bot {seat + 1}"

    def shown_line(self, line: dict[str, Any]) -> dict[str, Any]:
        """A chat line as it is sent now: a blind table's before its end says no name."""
        if not self.hides_names:
            return line
        seat = line.get("seat")
        alias = self.aliases[seat] if self.aliases is not None and seat is not None else None
        return blind.masked_line(line, alias)

    # what the table says of itself (describe.py)
    def detail(self, member: bool, viewer: str | None = None) -> dict[str, Any]:
        """The table as ``viewer`` (a user id, None: anyone) may see it; ``member``: seated or
        hosting (the invite is shown)."""
        return describe.detail(self, member, viewer)

    def row(self) -> dict[str, Any]:
        """The table as the database stores it."""
        return describe.row(self)

    def record(self) -> dict[str, Any]:
        """The game's record as the table shows it (its chat and settings, real names)."""
        return describe.record(self)

    def table_section(self) -> dict[str, Any]:
        """The record's ``table`` section: the settings of this table that change no rule."""
        return describe.table_section(self)

    # ------------------------------------------------------------------ fan-out
    def broadcast_table(self) -> None:
        """Send the table detail to every ready connection (it includes any pending presence
        change, so a gathered presence broadcast is dropped)."""
        self.presence.announced()
        if self.conns:
            fanout.send_detail(self.conns, self._detail_key, lambda key: self.detail(*key))

    def _detail_key(self, conn: Conn) -> tuple[bool, str | None]:
        """Who a connection's detail is for: a member or not, and (only where names are hidden,
        so that every other table shares two texts) which user."""
        user_id = conn.user.id if conn.user else None
        return self.is_member(user_id), user_id if self.hides_names else None

    def _broadcast_update(
        self, ev_from: int, action: Action | None, by: str | None, ack: fanout.Ack | None = None
    ) -> None:
        g = self.game
        assert g is not None
        ready = fanout.send_update(
            self.conns,
            g,
            self.seq,
            ev_from,
            action,
            by,
            self.deadline,
            self.driver.waits(),
            ack,
            self.chat_mode,
            self.narration,
        )
        if g.finished and ready:
            fanout.send_all(ready, P.encode(P.game_over(self.record())))

    def welcome(self, conn: Conn, seat: int | None | str = "own") -> dict[str, Any]:
        """The ``welcome`` message for ``conn`` (as ``seat`` sees the game, default its own)."""
        g = self.game
        if seat == "own":
            seat = conn.seat
        assert seat is None or isinstance(seat, int)
        viewer = conn.user.id if conn.user else None
        member = self.is_member(viewer)
        view: dict[str, Any] | None = None
        away: list[int] = []
        if g is not None:
            view, away = seat_view(g, self.action_by, self.event_bounds, seat)
        return {
            "v": P.VERSION,
            "type": "welcome",
            "seat": conn.seat,
            "user_id": conn.user.id if conn.user else None,
            "table": self.detail(member, viewer),
            "seq": self.seq,
            "view": view,
            "away": away,
            "legal": []
            if g is None or seat is None
            else [a.to_json() for a in g.legal_actions(seat)],
            "deadline": self.deadline,
            "model_deadlines": self.driver.waits(),
            "chat": [self.shown_line(line) for line in self.chat.lines],
            **({} if g is None else table_facts(g, seat, self.chat_mode)),
        }

    def send_welcome(self, conn: Conn) -> None:
        text = fanout.padded_welcome(lambda seat: self.welcome(conn, seat), self.game, self.log)
        conn.send_own(text, starts=True)
        if conn.user is not None:
            self.presence.last_seat[conn.user.id] = conn.seat
        if self.game is not None and self.game.finished:
            conn.send_msg(P.game_over(self.record()))

    def event_bounds(self) -> list[int]:
        """The length of the game's log before each action and after the last."""
        g = self.game
        assert g is not None
        if self._bounds is None or len(self._bounds) != len(g.actions) + 1:
            self._bounds = event_bounds(g)
        return self._bounds

    def missed_updates(self, seat: int | None, since: int) -> list[bytes]:
        """The update frames after ``since`` for ``seat`` (``fanout.missed_updates``)."""
        assert self.game is not None
        return fanout.missed_updates(
            self.game,
            self.action_by,
            self.deadline,
            seat,
            since,
            self.driver.waits(),
            self.chat_mode,
        )

    # ------------------------------------------------------------------ lobby
    async def _write(self, fn: Write) -> Any:
        return await self.services.writer.write(self.id, fn)

    async def persist(self, also: Write | None = None) -> None:
        """Store the lobby state (and ``also``, in the same transaction: a rated game's leave);
        if that fails the seats go back to what is stored."""
        self.touched = self.services.clock.monotonic()
        write = S.save_table(self.row(), insert=False)
        try:
            await self._write(write if also is None else S.both(write, also))
        except Exception:
            self._roll_back_seats()
            raise
        self.seating.stored()

    def _roll_back_seats(self) -> None:
        self.seating.roll_back()
        if self.game is not None:  # a restored human seat that nobody plays gets its stand-in
            now = self.services.clock.monotonic()
            for i, s in enumerate(self.seats):
                if s.kind == "human" and not self.connected(i):
                    self.presence.away_since.setdefault(i, now)
            self.driver.wake.set()

    async def maybe_autostart(self) -> None:
        if self.status == "waiting" and self.auto_start and self.free_seat() is None:
            await self.start_game()

    # ------------------------------------------------------------------ the game
    async def start_game(self, remake: bool = False) -> None:
        """Deal and start (under the lock, status waiting, every seat taken). ``remake``: the
        game of this table is dealt anew (api/hosting.py), everyone is welcomed to it."""
        names = [s.name or f"Seat {i}" for i, s in enumerate(self.seats)]
        seed = secrets.randbits(63)
        aliases = None
        if self.blind is not None:  # the game is played by aliases (blind.py)
            aliases = blind.draw_aliases(self.players, self.blind, self.services.rng)
        game = Game(aliases or names, self.rules, seed, **(self.fixings or {}))
        game_row = describe.new_game_row(self, game, names, aliases, seed)
        status = self.status
        self.status = "playing"
        write = S.start_game(self.row(), game_row, replace=remake)
        if self.rated:
            write = with_rated_start(
                write,
                self.id,
                [s.user_id for s in self.seats],
                self.seating.admissions_json(),
            )
        try:
            await self._write(write)
        except Exception:
            self.status = status
            self._roll_back_seats()
            raise
        self.seating.stored()
        self.log.info("game started", extra={"players": self.players, "remake": remake})
        self.aliases, self.real_names = aliases, (names if aliases else None)
        if remake:
            await self.driver.reset()
            self.services.metrics.games_active.dec()
            self.action_by = []
        self.run_game(game)
        self.broadcast_table()
        if remake:
            for c in self.conns:
                if c.ready:
                    self.send_welcome(c)
        else:
            self._broadcast_update(0, None, None)
        self.services.webhooks.turn(self)

    def stored_game(self, stored: S.StoredTable) -> Game:
        """The game the database holds for this table, as the table plays it: a blind game by
        its aliases (their real names kept for its end)."""
        assert stored.game is not None
        record = S.record_of(stored)
        aliases = stored.game.get("aliases")
        self.aliases, self.real_names = aliases, (record["players"] if aliases else None)
        if aliases:
            record["players"] = list(aliases)
        return game_from_record(record)

    def run_game(self, game: Game) -> None:
        """Take over a started game (new, or rebuilt after a restart) and drive it."""
        self._take(game)
        self.services.metrics.games_active.inc()
        self.driver.start(name=f"table-{self.id}")

    def _take(self, game: Game) -> None:
        """``game`` is the table's game, as the database holds it."""
        self.game = game
        self._bounds = None
        self.narration = Narrations()

    async def _playable(self) -> Game:
        """(under the lock) The game, if actions may be played now (after a failed commit, as
        the database holds it); else ``ProtocolError``. Every action passes here once."""
        if self.problem is not None:
            raise P.ProtocolError("table_unavailable", "this table could not be restored")
        if self.unsynced:
            await self._resync()
        g = self.game
        if g is None:
            raise P.ProtocolError("game_not_started", "the game has not started")
        if g.finished:
            raise P.ProtocolError("game_over", "the game is over")
        return g

    async def submit(
        self,
        seat: int,
        action: Action,
        by: str | None = None,
        expect: tuple[int, str, int] | None = None,
    ) -> int:
        """Play ``action`` for ``seat`` (bots, timers, stand-ins: ``by``; ``expect``: the
        decision it was chosen for). Returns the update's seq; raises ``ProtocolError``."""
        t0 = time.perf_counter()
        async with self.lock:
            seq = await self._commit(await self._playable(), seat, action, by, expect)
        self.services.metrics.action_latency.observe(time.perf_counter() - t0)
        return seq

    async def play(
        self, seat: int | None, data: Mapping[str, Any], ack: fanout.Ack | None = None
    ) -> int:
        """A client's action message, from the connection of ``seat`` (None: a spectator);
        ``ack``: its sender, whose update may carry the acknowledgement (``fanout.Ack``)."""
        t0 = time.perf_counter()
        async with self.lock:
            g = await self._playable()
            action = client_action(seat, data)
            seq = await self._commit(g, action.seat, action, None, None, ack)
        self.services.metrics.action_latency.observe(time.perf_counter() - t0)
        return seq

    async def _commit(
        self,
        g: Game,
        seat: int,
        action: Action,
        by: str | None,
        expect: tuple[int, str, int] | None,
        ack: fanout.Ack | None = None,
    ) -> int:
        """(under the lock) Apply, commit, announce."""
        if expect is not None and expect != (g.round, g.phase.value, len(g.actions)):
            raise P.ProtocolError("stale", "the game moved on")
        if action.type != CLAIM and seat not in g.to_act():
            raise P.ProtocolError(
                "not_your_turn",
                f"the game is not waiting for seat {seat} (phase {g.phase.value})",
            )
        # Until the action is committed nobody may learn its effects: welcomes wait for the
        # lock, and the table detail shows only committed status and results.
        n_ev, n_res = len(g.events), len(g.reshuffles)
        try:
            g.push(action)
        except IllegalAction as exc:
            raise P.ProtocolError("illegal_action", exc.message, detail=exc.code) from None
        except GameError as exc:
            self.log.error("action failed: %s", exc.message)
            raise P.ProtocolError("internal_error", exc.message) from None
        write = S.ActionWrite(
            game_id=self.id,
            idx=len(g.actions) - 1,
            seat=seat,
            action=action.to_json(),
            by=by,
            reshuffles=[[p.value for p in r] for r in g.reshuffles]
            if len(g.reshuffles) != n_res
            else None,
        )
        if g.finished:
            write.finished = {
                "winner": g.winner.value if g.winner else None,
                "reason": g.reason.value if g.reason else None,
            }
            write.table_update = {"status": "finished"}
        try:
            await self._write(write)
        except (Exception, asyncio.CancelledError) as exc:
            # Nobody heard of the action: the game undoes it (no copy, no replay). The database
            # may hold the action all the same (a COMMIT whose answer was lost): the next action
            # first reads the game back (``_resync``).
            g.pop()
            self.unsynced = True
            raise _not_stored(exc, self.log) from None
        g.clear_stack()  # committed: nothing left to undo
        if g.finished:
            self.status = "finished"
        self.action_by.append(by)
        if self._bounds is not None:
            self._bounds.append(len(g.events))
        self.services.metrics.actions_total.inc(by or "player")
        decision = self.driver.decision_key
        self.driver.schedule()
        self._broadcast_update(n_ev, action, by, ack)
        if g.finished:
            self._finished()
            self.services.webhooks.game_over(self)
        elif self.driver.decision_key != decision:
            self.services.webhooks.turn(self)
        return self.seq

    async def _resync(self) -> None:
        """(under the lock) Take the game from the database after a failed commit; announce
        any action it holds that nobody was told of (a commit whose acknowledgement was lost)."""
        try:
            stored = await self.services.writer.read(lambda conn: S.load_table(conn, self.id, 0))
        except Exception as exc:
            if is_unavailable(exc):
                raise P.ProtocolError(
                    "unavailable", "the database is unavailable; try again shortly"
                ) from None
            raise
        if stored is None or stored.game is None or self.game is None:
            self.unsynced = False
            return
        announced = self.seq
        try:
            game = self.stored_game(stored)
        except Exception as exc:
            self.mark_broken(exc)
            raise P.ProtocolError("table_unavailable", "this table could not be restored") from None
        self._take(game)
        self.action_by = [a["by"] for a in stored.actions]
        self.unsynced = False
        if self.seq == announced:
            return
        self.log.warning("the database held unannounced actions", extra={"seq": self.seq})
        self.driver.schedule()
        for c in self.conns:
            if c.ready:
                for text in self.missed_updates(c.seat, announced):
                    c.send_own(text)
        if game.finished:
            self.status = "finished"
            fanout.send_all(self.conns, P.encode(P.game_over(self.record())))
            self._finished()

    def mark_broken(self, exc: BaseException) -> None:
        """The stored game cannot be rebuilt: show the table as ``broken`` (never as playing)."""
        self.problem = f"the stored game could not be replayed: {str(exc)[:200]}"
        self.status = "broken"
        self.game = None
        self.log.error("table broken: %s", self.problem, exc_info=exc)
        self.broadcast_table()

    def _finished(self) -> None:
        g = self.game
        assert g is not None
        self.log.info(
            "game over",
            extra={"winner": g.winner.value if g.winner else None, "actions": len(g.actions)},
        )
        self.services.metrics.games_active.dec()
        self.services.listener.finished(self)
        self.driver.finished()
        self.broadcast_table()
        if not self.conns:
            self.services.listener.idle(self)

    # ------------------------------------------------------------------ chat
    async def chat_line(
        self, conn: Conn, text: str, lang: str | None = None
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """A person's chat line: stored, sent to all, and during a game read by the server's
        recogniser (``chat.recognised``, in ``lang``, the sender's page language, and the
        table's) and told to the bots. Returns the line and the engine claim it matches, for the
        sender's client to offer with one tap (never made for it)."""
        clean = self.chat.check(conn, text, self.game, self.chat_mode)
        user = conn.user
        assert user is not None
        seat = conn.seat
        async with self.lock:
            g = self.game
            after = None if g is None else len(g.actions)
            name = self.seats[seat].name if seat is not None else user.name
            line = self.chat.line(seat, user, name, clean, self.services.clock.time(), after)
            await self._store_chat(line)
            langs = self.chat.languages(user.id, lang)
            if g is None or g.finished or seat is None:
                return line, None
            heard = recognised(g, seat, clean, self._names(), langs)
            self.driver.heard(seat, len(g.actions), heard)
            return line, claim_offer(g, seat, heard)

    async def bot_chat(self, seat: int, line: talk.Line) -> bool:
        """A bot's talk line (the driver's ``say``), through the chat path people's lines take
        (stored, kept, sent to all); False when it was not said (the game is over, the bot may
        not talk now, the table's switch is off, storage failed)."""
        async with self.lock:
            g = self.game
            if g is None or g.finished or not self.bots_talk or self.seats[seat].kind != "bot":
                return False
            if not may_speak(g, seat, self.chat_mode) or self.chat_mode != "free":
                return False  # the engine's speech rule, which people's lines keep too
            name = self.seats[seat].name or f"Bot {seat + 1}"
            msg = self.chat.bot_line(
                seat, name, line, self._names(), len(g.actions), self.services.clock.time()
            )
            try:
                await self._store_chat(msg)
            except P.ProtocolError:
                return False
            self.driver.heard(seat, len(g.actions), [line])
            return True

    async def _store_chat(self, line: dict[str, Any]) -> None:
        """(under the lock) Store a chat line, keep it and send it to every connection."""
        try:
            await self._write(S.save_chat(self.id, line))
        except StorageUnavailable:
            raise P.ProtocolError(
                "unavailable", "the database is unavailable: the message was not sent"
            ) from None
        self.chat.said(line)
        fanout.send_all(self.conns, P.encode(P.chat_msg(self.shown_line(line))))

    def _names(self) -> list[str]:
        """The seats' names as the table reads them (the recogniser reads them; a bot's line
        says them): a blind game's aliases."""
        return [self.shown_name(i) for i in range(self.players)]

    async def close(self) -> None:
        await self.driver.stop()
        for c in list(self.conns):
            c.close()


def client_action(seat: int | None, data: Mapping[str, Any]) -> Action:
    """The action a client's message asks for, played for its connection's seat."""
    if seat is None:
        raise P.ProtocolError("not_seated", "spectators cannot act")
    if "seat" in data and data["seat"] != seat:
        raise P.ProtocolError(
            "not_your_seat", f"this connection plays seat {seat}, not {data['seat']!r}"
        )
    try:
        return Action.from_json({**data, "seat": seat})
    except InvalidAction as exc:
        raise P.ProtocolError("invalid_action", exc.message) from None


def _not_stored(exc: BaseException, log: logging.LoggerAdapter) -> BaseException:  # type: ignore[type-arg]
    """What the sender of an action that could not be stored is told."""
    if isinstance(exc, asyncio.CancelledError | P.ProtocolError):
        return exc  # the caller went away; or e.g. the table moved to another node
    if is_unavailable(exc):
        log.warning("action not stored: the database is unavailable")
        return P.ProtocolError(
            "unavailable", "the database is unavailable: the action was not played; try again"
        )
    log.error("could not store an action", exc_info=exc)
    return P.ProtocolError("internal_error", "the action could not be stored")
