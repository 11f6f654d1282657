"""A live table: lobby seats, the running game, its connections, timers and bots.

Every change to a table happens on the event loop under the table's lock. An action is applied
to the in-memory game, committed to the database, and only then announced: each connection gets
the update for its own seat (its view, the events addressed to it, its legal actions).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...bots import Agent
from ...engine import Action, Game, GameError, IllegalAction, game_from_record
from ...engine.actions import CLAIM
from ..accounts.auth import User
from ..core import protocol as P
from ..core.logs import GameLog
from ..storage import ratings
from ..storage import writer as S
from ..table.chat import clean_chat
from ..table.driver import BotDriver
from ..table.updates import SeatUpdates, pad_to, welcome_length

if TYPE_CHECKING:
    from ..lobby.hub import Hub

log = logging.getLogger("secret_hitler.server.table")

LEGISLATIVE = ("discard", "enact", "veto_response")
RESUME_MAX = 1000  # updates a reconnecting client may catch up on; more: a fresh welcome
CHAT_KEEP = 100
SEND_QUEUE_MAX = 2000


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


class Conn:
    """One WebSocket connection; messages go through a queue so a slow client blocks nobody."""

    __slots__ = ("ws", "user", "seat", "ready", "out", "closed", "invite_ok", "addr", "close_code")

    def __init__(
        self, ws: Any, user: User | None, invite_ok: bool = False, addr: str | None = None
    ) -> None:
        self.ws = ws
        self.user = user
        self.seat: int | None = None
        self.ready = False
        self.out: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.invite_ok = invite_ok
        self.addr = addr  # the client address, for per-address limits (guard.Guard)
        self.close_code = 1000

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.out.qsize() > SEND_QUEUE_MAX:  # a client that does not read: drop it
            self.close()
            return
        self.out.put_nowait(text)

    def send_msg(self, msg: dict[str, Any]) -> None:
        self.send(P.dumps(msg))

    def send_own(self, text: str, starts: bool = False) -> None:
        """A frame for this connection alone (a welcome, a resume's updates), not one shared
        by every connection of its seat; ``starts``: it begins the connection's stream."""
        self.send(text)

    def close(self, code: int = 1000) -> None:
        """Close after the queued messages have been sent, with WebSocket close ``code``."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.out.put_nowait(None)


class Table(BotDriver):
    # Chance fixed in advance, as ``Game`` keyword arguments (record fixings): server/tutorial.py
    fixings: dict[str, Any] | None = None

    def __init__(
        self,
        hub: Hub,
        *,
        id: str,
        host: str,
        host_name: str,
        players: int,
        rules: Any,
        public: bool,
        invite: str,
        timer: int | None,
        bot_level: str,
        auto_start: bool,
        seats: list[Seat],
        status: str = "waiting",
        created_at: float | None = None,
        host_addr: str | None = None,
        name: str | None = None,
        webhook: str | None = None,
        rematch: str | None = None,
        rated: bool = False,
        removed: set[str] | None = None,
    ) -> None:
        self.hub = hub
        self.rated = rated  # ratings count this table's game (server/ratings.py)
        self.id = id
        self.host = host
        self.host_name = host_name
        self.players = players
        self.rules = rules
        self.public = public
        self.invite = invite
        self.timer = timer
        self.bot_level = bot_level
        self.auto_start = auto_start
        self.seats = seats
        self.status = status
        self.created_at = time.time() if created_at is None else created_at
        self.host_addr = host_addr  # the creator's address (not stored: None after a restart)
        self.touched = asyncio.get_running_loop().time()  # last lobby change (waiting expiry)
        self.name = name  # the host's name for the table
        self.webhook = webhook  # play-by-post notifications (webhooks.py); never shown
        self.rematch = rematch  # the table opened by "rematch" after this game
        # since when (loop time) no seated player has been connected (offline expiry)
        self.offline_since: float | None = self.touched
        self.renamed: dict[int, str] = {}  # seats of deleted users: their placeholder names
        self.remake: dict[str, Any] | None = None  # an open remake vote (hosting.py)
        self.remake_result: dict[str, Any] | None = None  # how the last one went (hosting.py)
        self.removed: set[str] = removed or set()  # users the host removed (stored with the row)
        self.game: Game | None = None
        self.action_by: list[str | None] = []
        self.conns: set[Conn] = set()
        self.present: dict[int | None, int] = {}  # ready connections per seat (None: spectators)
        self._presence_flush: asyncio.TimerHandle | None = None
        self.lock = asyncio.Lock()
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEEP)
        self.chat_next = 1
        self.agents: dict[int, Agent] = {}
        self.standins: dict[int, Agent] = {}
        self.fallbacks: dict[int, Agent] = {}  # who moves for a seat whose bot failed
        self.last_seat: dict[str, int | None] = {}
        # timers (loop time) and the pending decision
        self.decision_key: tuple[int, str] | None = None
        self.deadline: float | None = None  # epoch seconds, for clients
        self.deadline_at: float | None = None  # loop time
        self.bot_due: dict[int, float] = {}
        self.claim_due: dict[int, float] = {}
        self.claims_asked: dict[int, int] = {}  # seat -> action count when last asked
        self.away_since: dict[int, float] = {}
        self.wake = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self.log = GameLog(log, {"game_id": id})
        # Storage faults: a failed commit leaves the game as it was before the action, but the
        # database may still hold that action (a COMMIT whose answer was lost), so the next
        # action first reloads the game from the database (``_resync``).
        self.unsynced = False
        self.problem: str | None = None  # why a ``broken`` table could not be restored
        self._saved_seats = [Seat.from_json(s.to_json()) for s in seats]  # as last committed

    # ------------------------------------------------------------------ description
    def seat_of(self, user_id: str | None) -> int | None:
        if user_id is None:
            return None
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.user_id == user_id:
                return i
        return None

    def is_member(self, user_id: str | None) -> bool:
        return user_id is not None and (user_id == self.host or self.seat_of(user_id) is not None)

    def connected(self, seat: int) -> bool:
        return self.present.get(seat, 0) > 0

    @property
    def seq(self) -> int:
        return 0 if self.game is None else len(self.game.actions) + 1

    @staticmethod
    def _wall_clock(loop_time: float) -> float:
        """A time of the event loop's clock as Unix time (clients count down to it, like
        ``deadline``)."""
        try:
            now = asyncio.get_running_loop().time()
        except RuntimeError:
            now = time.monotonic()
        return round(time.time() + loop_time - now, 2)

    def detail(self, member: bool) -> dict[str, Any]:
        g = self.game
        done = self.status == "finished"  # set only once the last action is committed
        seats = []
        for i, s in enumerate(self.seats):
            d = {"seat": i, **s.to_json()}
            d["connected"] = s.kind == "bot" or (s.kind == "human" and self.connected(i))
            away = self.away_since.get(i)
            if g is not None and not done and not d["connected"] and away is not None:
                d["standin_at"] = self._wall_clock(away + self.hub.settings.grace)
            seats.append(d)
        return {
            "id": self.id,
            "status": self.status,
            "players": self.players,
            "rules": self.rules,
            "public": self.public,
            "invite": self.invite if member else None,
            "host": self.host,
            "host_name": self.host_name,
            "timer": self.timer,
            "bot_level": self.bot_level,
            "auto_start": self.auto_start,
            "rated": self.rated,
            "seats": seats,
            "spectators": self.present.get(None, 0),
            "game_id": self.id if g is not None else None,
            "created_at": self.created_at,
            "winner": g.winner.value if done and g is not None and g.winner else None,
            "reason": g.reason.value if done and g is not None and g.reason else None,
            "problem": self.problem,
            "name": self.name,
            "webhook": self.webhook is not None,
            "rematch": self.rematch,
            "remake": None
            if self.remake is None
            else {
                "yes": len(self.remake["yes"]),
                "no": len(self.remake["no"]),
                "needed": self.remake["needed"],
                "ends_at": self.remake["ends_at"],
            },
            "remake_result": self.remake_result,
        }

    def row(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "host": self.host,
            "host_name": self.host_name,
            "players": self.players,
            "rules": self.rules,
            "public": self.public,
            "invite": self.invite,
            "timer": self.timer,
            "bot_level": self.bot_level,
            "auto_start": self.auto_start,
            "status": self.status,
            "seats": [s.to_json() for s in self.seats],
            "created_at": self.created_at,
            "name": self.name,
            "webhook": self.webhook,
            "rematch": self.rematch,
            "rated": self.rated,
            "removed": sorted(self.removed) or None,
        }

    def record(self) -> dict[str, Any]:
        assert self.game is not None
        rec = self.game.to_record()
        rec["id"] = self.id
        rec["chat"] = list(self.chat)
        if self.renamed:  # deleted accounts: the stored record says the same
            rec["players"] = [self.renamed.get(i, n) for i, n in enumerate(rec["players"])]
        return rec

    def human_connected(self) -> bool:
        return any(s.kind == "human" and self.connected(i) for i, s in enumerate(self.seats))

    def pass_host(self, exclude: str | None = None, connected_only: bool = False) -> bool:
        """The host role goes to the next human seat after the host's (a connected one first;
        ``connected_only``: only a connected one); False when nobody can take it."""
        start = self.seat_of(self.host)
        start = -1 if start is None else start
        order = [(start + k) % self.players for k in range(1, self.players + 1)]
        humans = [
            i
            for i in order
            if self.seats[i].kind == "human"
            and self.seats[i].user_id not in (self.host, exclude, None)
        ]
        humans.sort(key=lambda i: not self.connected(i))  # stable: seat order within each
        if connected_only:
            humans = [i for i in humans if self.connected(i)]
        if not humans:
            return False
        seat = self.seats[humans[0]]
        assert seat.user_id is not None
        old = self.host
        self.host, self.host_name = seat.user_id, seat.name or ""
        self.log.info("host passed", extra={"from": old, "to": self.host})
        return True

    # ------------------------------------------------------------------ broadcasting
    def broadcast_table(self) -> None:
        """Send the table detail to every ready connection (it includes any pending presence
        change, so a scheduled presence broadcast is dropped)."""
        if self._presence_flush is not None:
            self._presence_flush.cancel()
            self._presence_flush = None
        if not self.conns:
            return
        texts: dict[bool, str] = {}
        for c in self.conns:
            if not c.ready:
                continue
            member = self.is_member(c.user.id if c.user else None)
            if member not in texts:
                texts[member] = P.dumps(P.table_msg(self.detail(member)))
            c.send(texts[member])

    def _broadcast_update(self, ev_from: int, action: Action | None, by: str | None) -> None:
        g = self.game
        assert g is not None
        # Each seat's text is built and encoded once, only for seats that have a connection
        # (spectators: once for all of them, only when someone watches).
        ready = [c for c in self.conns if c.ready]
        if ready:
            updates = SeatUpdates(g, self.seq, ev_from, action, by, self.deadline)
            frames = updates.frames({c.seat for c in ready})  # one length for every recipient
            for c in ready:
                c.send(frames[c.seat])
        if g.finished and ready:
            over = P.dumps(P.game_over(self.record()))
            for c in ready:
                c.send(over)

    def welcome(self, conn: Conn, seat: int | None | str = "own") -> dict[str, Any]:
        """The ``welcome`` message for ``conn`` (as ``seat`` sees the game, default its own)."""
        g = self.game
        if seat == "own":
            seat = conn.seat
        assert seat is None or isinstance(seat, int)
        member = self.is_member(conn.user.id if conn.user else None)
        return {
            "v": P.VERSION,
            "type": "welcome",
            "seat": conn.seat,
            "user_id": conn.user.id if conn.user else None,
            "table": self.detail(member),
            "seq": self.seq,
            "view": None if g is None else g.view(seat).to_json(),
            "legal": []
            if g is None or seat is None
            else [a.to_json() for a in g.legal_actions(seat)],
            "deadline": self.deadline,
            "chat": list(self.chat),
        }

    def send_welcome(self, conn: Conn) -> None:
        text = P.dumps(self.welcome(conn))
        if self.game is not None:
            # Its length comes from the spectators' welcome and public counts only (no size
            # channel; docs/security.md "Frame sizes").
            public = len(P.dumps(self.welcome(conn, seat=None)).encode())
            length = welcome_length(self.game, public)
            if len(text.encode()) > length - 16:
                self.log.error("welcome over its padded length")
                length = welcome_length(self.game, len(text.encode()))
            text = pad_to(text, length)
        conn.send_own(text, starts=True)
        if conn.user is not None:
            self.last_seat[conn.user.id] = conn.seat
        if self.game is not None and self.game.finished:
            conn.send_msg(P.game_over(self.record()))

    def missed_updates(self, seat: int | None, since: int) -> list[str]:
        """The update frames after ``since`` for ``seat``, rebuilt by replaying the stored game
        (padded like live updates)."""
        g = self.game
        assert g is not None
        current = self.seq
        h = game_from_record(g.to_record(), apply_actions=False)
        acts = g.actions
        start = max(since, 1)
        for a in acts[: start - 1]:
            h.apply(a)
        out = []
        if since == 0:
            deadline = self.deadline if current == 1 else None
            out.append(SeatUpdates(h, 1, 0, None, None, deadline).text(seat))
        for k in range(start + 1, current + 1):
            ev = len(h.events)
            a = acts[k - 2]
            h.apply(a)
            deadline = self.deadline if k == current else None
            out.append(SeatUpdates(h, k, ev, a, self.action_by[k - 2], deadline).text(seat))
        return out

    # ------------------------------------------------------------------ connections
    def _present(self, seat: int | None, delta: int) -> bool:
        """Count a ready connection in or out of ``seat``; True when the table detail changed
        (a seat became connected or disconnected, or the spectator count moved)."""
        before = self.present.get(seat, 0)
        after = before + delta
        if after:
            self.present[seat] = after
        else:
            self.present.pop(seat, None)
        return seat is None or (before == 0) != (after == 0)

    def _presence_changed(self, seat: int | None) -> None:
        """A seat's connected flag is announced at once; spectators coming and going are
        gathered for ``presence_delay`` seconds into one broadcast, so each costs O(1)."""
        if seat is not None:
            self.broadcast_table()
        elif self._presence_flush is None:
            self._presence_flush = asyncio.get_running_loop().call_later(
                self.hub.settings.presence_delay, self.broadcast_table
            )

    def attach(self, conn: Conn) -> None:
        conn.seat = self.seat_of(conn.user.id if conn.user else None)
        self.conns.add(conn)

    def detach(self, conn: Conn) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        was_ready = conn.ready
        conn.ready = False
        seat = conn.seat
        changed = was_ready and self._present(seat, -1)
        if seat is not None and not self.connected(seat):
            self.away_since[seat] = asyncio.get_running_loop().time()
            self.wake.set()
            if self.offline_since is None and not self.human_connected():
                self.offline_since = self.away_since[seat]
        if changed:
            self._presence_changed(seat)
        if not self.conns and self.status == "finished":
            self.hub.evict(self)

    def hello(self, conn: Conn, msg: P.Hello) -> None:
        user_id = conn.user.id if conn.user else None
        was_ready = conn.ready
        conn.ready = True
        changed = not was_ready and self._present(conn.seat, +1)
        since = msg.since
        same_seat = user_id is None or self.last_seat.get(user_id, conn.seat) == conn.seat
        if (
            since is not None
            and self.game is not None
            and same_seat
            and 0 <= since <= self.seq
            and self.seq - since <= RESUME_MAX
        ):
            member = self.is_member(user_id)
            conn.send_msg(P.resumed(since, self.seq, self.detail(member)))
            for text in self.missed_updates(conn.seat, since):
                conn.send_own(text)
            if msg.chat_since is not None:
                for c in self.chat:
                    if c["id"] > msg.chat_since:
                        conn.send_msg(P.chat_msg(c))
            if user_id is not None:
                self.last_seat[user_id] = conn.seat
            if self.game.finished:
                conn.send_msg(P.game_over(self.record()))
        else:
            self.send_welcome(conn)
        if conn.seat is not None:
            self.away_since.pop(conn.seat, None)
            self.offline_since = None
        if changed:
            self._presence_changed(conn.seat)

    def reseat(self, user_id: str) -> None:
        """A user's seat changed (join/leave): refresh their connections."""
        for c in self.conns:
            if c.user is not None and c.user.id == user_id:
                seat = self.seat_of(user_id)
                if seat != c.seat:
                    if c.ready:
                        self._present(c.seat, -1)
                        self._present(seat, +1)
                    c.seat = seat
                    if c.ready:
                        self.send_welcome(c)

    # ------------------------------------------------------------------ lobby
    async def persist(self) -> None:
        """Store the lobby state; if that fails the seats go back to what is stored."""
        self.touched = asyncio.get_running_loop().time()
        try:
            await self.hub.write(self, S.save_table(self.row(), insert=False))
        except Exception:
            self._restore_seats()
            raise
        self._saved_seats = [Seat.from_json(s.to_json()) for s in self.seats]

    def _restore_seats(self) -> None:
        self.seats = [Seat.from_json(s.to_json()) for s in self._saved_seats]
        if self.game is not None:  # a restored human seat that nobody plays gets its stand-in
            now = asyncio.get_running_loop().time()
            for i, s in enumerate(self.seats):
                if s.kind == "human" and not self.connected(i):
                    self.away_since.setdefault(i, now)
            self.wake.set()

    def free_seat(self) -> int | None:
        for i, s in enumerate(self.seats):
            if s.kind == "empty":
                return i
        return None

    async def maybe_autostart(self) -> None:
        if self.status == "waiting" and self.auto_start and self.free_seat() is None:
            await self.start_game()

    async def start_game(self, remake: bool = False) -> None:
        """Deal and start (under the lock, status waiting, every seat taken). ``remake``: the
        game of this table is dealt anew (hosting.py), everyone is welcomed to it."""
        names = [s.name or f"Seat {i}" for i, s in enumerate(self.seats)]
        seed = secrets.randbits(63)
        game = Game(names, self.rules, seed, **(self.fixings or {}))
        rec = game.to_record()
        now = time.time()
        game_row = {
            "id": self.id,
            "table_id": self.id,
            "players": self.players,
            "names": names,
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
            "created_at": now,
            "finished_at": None,
        }
        status = self.status
        self.status = "playing"
        write = S.start_game(self.row(), game_row, replace=remake)
        if self.rated:
            write = ratings.with_rated_start(write, self.id, [s.user_id for s in self.seats])
        try:
            await self.hub.write(self, write)
        except Exception:
            self.status = status
            self._restore_seats()
            raise
        self._saved_seats = [Seat.from_json(s.to_json()) for s in self.seats]
        self.log.info("game started", extra={"players": self.players, "remake": remake})
        if remake:
            await self._stop_driver()
        self.run_game(game)
        self.broadcast_table()
        if remake:
            for c in self.conns:
                if c.ready:
                    self.send_welcome(c)
        else:
            self._broadcast_update(0, None, None)
        self.hub.webhooks.turn(self)

    async def _stop_driver(self) -> None:
        """Stop driving the current game (a remake replaces it)."""
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.driver
            self.driver = None
        self.hub.metrics.games_active.dec()
        self.agents.clear()
        self.standins.clear()
        self.fallbacks.clear()
        self.bot_due.clear()
        self.claim_due.clear()
        self.claims_asked.clear()
        self.decision_key = None
        self.action_by = []

    def run_game(self, game: Game) -> None:
        """Take over a started game (new, or rebuilt after a restart) and drive it."""
        self.game = game
        loop = asyncio.get_running_loop()
        now = loop.time()
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                self._make_agent(i)
            elif s.kind == "human" and not self.connected(i):
                self.away_since[i] = now
        self.hub.metrics.games_active.inc()
        self._schedule()
        if not game.finished:
            self.driver = asyncio.create_task(self._drive(), name=f"table-{self.id}")

    # ------------------------------------------------------------------ actions
    async def submit(
        self,
        seat: int,
        action: Action,
        by: str | None = None,
        expect: tuple[int, str, int] | None = None,
    ) -> int:
        """Apply, commit, announce. Returns the update's seq; raises ``ProtocolError``."""
        t0 = time.perf_counter()
        async with self.lock:
            if self.problem is not None:
                raise P.ProtocolError("table_unavailable", "this table could not be restored")
            if self.unsynced:
                await self._resync()
            g = self.game
            if g is None:
                raise P.ProtocolError("game_not_started", "the game has not started")
            if g.finished:
                raise P.ProtocolError("game_over", "the game is over")
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
                g.apply(action)
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
                await self.hub.write(self, write)
            except asyncio.CancelledError:  # the caller went away: the commit may still happen
                self._undo_last(n_res)
                self.unsynced = True  # the next action first takes the game from the database
                raise
            except Exception as exc:
                self._undo_last(n_res)  # nobody heard of it: the game goes back
                self.unsynced = True
                if isinstance(exc, P.ProtocolError):  # e.g. the table moved to another node
                    raise
                if S.is_unavailable(exc):
                    self.log.warning("action not stored: the database is unavailable")
                    raise P.ProtocolError(
                        "unavailable",
                        "the database is unavailable: the action was not played; try again",
                    ) from None
                self.log.error("could not store an action", exc_info=exc)
                raise P.ProtocolError("internal_error", "the action could not be stored") from None
            if g.finished:
                self.status = "finished"
            self.action_by.append(by)
            self.hub.metrics.actions_total.labels(by=by or "player").inc()
            decision = self.decision_key
            self._schedule()
            self._broadcast_update(n_ev, action, by)
            if g.finished:
                self._finished()
                self.hub.webhooks.game_over(self)
            elif self.decision_key != decision:
                self.hub.webhooks.turn(self)
            seq = self.seq
        self.hub.metrics.action_latency.observe(time.perf_counter() - t0)
        return seq

    def _undo_last(self, n_res: int) -> None:
        """The game as it was before its last (uncommitted) action, rebuilt by replay."""
        g = self.game
        assert g is not None
        rec = g.to_record()
        rec["actions"] = rec["actions"][:-1]
        rec["reshuffles"] = rec["reshuffles"][:n_res]
        rec.pop("result", None)
        self.game = game_from_record(rec)

    async def _resync(self) -> None:
        """(under the lock) Take the game from the database after a failed commit; announce any
        action it holds that nobody was told of (a commit whose acknowledgement was lost)."""
        try:
            stored = await self.hub.store.read(lambda conn: S.load_table(conn, self.id, 0))
        except Exception as exc:
            if S.is_unavailable(exc):
                raise P.ProtocolError(
                    "unavailable", "the database is unavailable; try again shortly"
                ) from None
            raise
        if stored is None or stored.game is None or self.game is None:
            self.unsynced = False
            return
        announced = self.seq
        try:
            game = game_from_record(S.record_of(stored))
        except Exception as exc:
            self.mark_broken(exc)
            raise P.ProtocolError("table_unavailable", "this table could not be restored") from None
        self.game = game
        self.action_by = [a["by"] for a in stored.actions]
        self.unsynced = False
        if self.seq == announced:
            return
        self.log.warning("the database held unannounced actions", extra={"seq": self.seq})
        self._schedule()
        for c in self.conns:
            if c.ready:
                for text in self.missed_updates(c.seat, announced):
                    c.send_own(text)
        if game.finished:
            self.status = "finished"
            over = P.dumps(P.game_over(self.record()))
            for c in self.conns:
                if c.ready:
                    c.send(over)
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
        self.hub.metrics.games_active.dec()
        if self.rated:
            ratings.game_finished(self)
        self.deadline = self.deadline_at = None
        self.wake.set()
        self.broadcast_table()
        if not self.conns:
            self.hub.evict(self)

    # ------------------------------------------------------------------ chat
    async def chat_line(self, conn: Conn, text: str) -> dict[str, Any]:
        user = conn.user
        if user is None:
            raise P.ProtocolError("unauthorized", "sign in to chat")
        clean = clean_chat(text, self.hub.settings.chat_max)
        g = self.game
        seat = conn.seat
        if g is not None and not g.finished:
            if seat is None:
                raise P.ProtocolError(
                    "chat_forbidden", "spectators cannot chat during a game", detail="spectator"
                )
            if not g.alive[seat]:
                raise P.ProtocolError("chat_forbidden", "dead players cannot chat", detail="dead")
            if g.phase.value in LEGISLATIVE and seat in (g.president, g.chancellor):
                raise P.ProtocolError(
                    "chat_forbidden",
                    "the president and chancellor cannot chat during the legislative session",
                    detail="legislative_session",
                )
        checks = [("chat_rate", user.id)]
        if conn.addr is not None:
            checks.append(("chat_rate_address", conn.addr))
        if not self.hub.guard.hit(*checks):
            raise P.ProtocolError("rate_limited", "too many chat messages; wait a few seconds")
        async with self.lock:
            name = self.seats[seat].name if seat is not None else user.name
            message = {
                "id": self.chat_next,
                "seat": seat,
                "user_id": user.id,
                "name": name or user.name,
                "text": clean,
                "ts": round(time.time(), 3),
            }
            try:
                await self.hub.write(self, S.save_chat(self.id, message))
            except S.StorageUnavailable:
                raise P.ProtocolError(
                    "unavailable", "the database is unavailable: the message was not sent"
                ) from None
            self.chat_next += 1
            self.chat.append(message)
            text_out = P.dumps(P.chat_msg(message))
            for c in self.conns:
                if c.ready:
                    c.send(text_out)
        return message

    async def close(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.driver
        for c in list(self.conns):
            c.close()
