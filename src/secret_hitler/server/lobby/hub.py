"""The hub: every live table, their invites, and the rebuild of unfinished games at startup."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from typing import TYPE_CHECKING, Any

from ...bots import available_bots
from ...bots import default_level as bots_default_level
from ...engine import Rules, game_from_record
from ..accounts.auth import NameError_, User, clean_name
from ..core.config import Settings
from ..core.guard import Guard
from ..core.metrics import Metrics
from ..core.text import brief, json_problem
from ..lobby.webhooks import WebhookError, Webhooks, check_url
from ..storage import writer as S
from ..storage.ratings import rated_problem
from ..storage.writer import Store
from ..table.session import Seat, Table

if TYPE_CHECKING:
    from ..cluster.node import Cluster

log = logging.getLogger("secret_hitler.server.hub")

RULES_TEXT_MAX = 64  # characters of a preset or setting name, or of a text value in rules
RULES_DEPTH_MAX = 8


class LobbyError(Exception):
    """A refused lobby request: HTTP status, stable code, message, and the refused field (a
    setting or body field name, so a client can say which in its own language)."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field


def setting_named(message: str) -> str | None:
    """The setting an engine refusal names ("powers: ..." -> "powers"), if it names one."""
    name = message.split(":", 1)[0]
    return name if ":" in message and re.fullmatch(r"[a-z_]{1,32}", name) else None


def bot_levels() -> list[str]:
    return available_bots()


def default_level() -> str:
    """Filled seats and stand-ins: the strongest level that decides within 50 ms (bots.base)."""
    return bots_default_level()


class Hub:
    def __init__(self, settings: Settings, store: Store, metrics: Metrics) -> None:
        self.settings = settings
        self.store = store
        self.metrics = metrics
        self.tables: dict[str, Table] = {}
        self.invites: dict[str, str] = {}
        self.standin_level = default_level()
        self.guard = Guard(settings)
        self.webhooks = Webhooks(settings.webhook_timeout, settings.webhook_allow_private)
        self._sweeper: asyncio.Task[None] | None = None
        self.cluster: Cluster | None = None  # one node of many (cluster.py), else None

    async def write(self, table: Table, fn: S.Write) -> Any:
        """A write of ``table``'s state; on a cluster it is fenced by the table's lease."""
        if self.cluster is not None:
            return await self.cluster.write(table, fn)
        return await self.store.write(fn)

    # ------------------------------------------------------------------ lookup
    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def by_invite(self, code: str) -> Table | None:
        table_id = self.invites.get(code)
        return None if table_id is None else self.tables.get(table_id)

    def public_tables(self) -> list[Table]:
        out = [t for t in self.tables.values() if t.public and t.status in ("waiting", "playing")]
        out.sort(key=lambda t: t.created_at, reverse=True)
        return out

    def _register(self, table: Table) -> None:
        self.tables[table.id] = table
        self.invites[table.invite] = table.id
        self.metrics.tables_open.set(len(self.tables))

    def evict(self, table: Table, delay: float = 300.0) -> None:
        """Forget a finished table once it has had no connection for ``delay`` seconds (it stays
        in the database: its detail and record are served from there)."""
        asyncio.get_running_loop().call_later(delay, self._evict_now, table)

    def _evict_now(self, table: Table) -> None:
        if table.conns or table.status != "finished":
            return
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.invites.pop(table.invite, None)
            self.metrics.tables_open.set(len(self.tables))

    # ------------------------------------------------------------------ limits
    def _hosted(self, user_id: str, addr: str | None, bot_only: bool = False) -> tuple[int, int]:
        """Open tables (or running bot-only games) hosted by this user and by this address."""
        by_user = by_addr = 0
        for t in self.tables.values():
            if bot_only:
                if t.status != "playing" or any(s.kind != "bot" for s in t.seats):
                    continue
            elif t.status not in ("waiting", "playing"):
                continue
            by_user += t.host == user_id
            by_addr += addr is not None and t.host_addr == addr
        return by_user, by_addr

    def check_new_table(self, user_id: str, addr: str | None) -> None:
        s = self.settings
        by_user, by_addr = self._hosted(user_id, addr)
        if by_user >= s.tables_per_user:
            raise LobbyError(
                429,
                "too_many_tables",
                f"you host {by_user} open tables (at most {s.tables_per_user})",
            )
        if by_addr >= s.tables_per_address:
            raise LobbyError(
                429,
                "too_many_tables",
                f"this address hosts {by_addr} open tables (at most {s.tables_per_address})",
            )

    def check_bot_game(self, host: str, addr: str | None, seats: list[Seat]) -> None:
        """Refuse to start one more game without a human seat beyond the host's limits."""
        if any(s.kind != "bot" for s in seats):
            return
        s = self.settings
        by_user, by_addr = self._hosted(host, addr, bot_only=True)
        if by_user >= s.bot_games_per_user or by_addr >= s.bot_games_per_address:
            raise LobbyError(
                429,
                "too_many_bot_games",
                f"at most {s.bot_games_per_user} running games of bots only per host "
                f"({s.bot_games_per_address} per address); wait for one to end",
            )

    def _stale(self, table: Table, now: float) -> bool:
        """A waiting table to close: no lobby change for ``waiting_expiry`` seconds, or no
        seated player connected for ``offline_expiry`` seconds (empty tables included)."""
        s = self.settings
        offline = table.offline_since
        return table.status == "waiting" and (
            now - table.touched >= s.waiting_expiry
            or (offline is not None and now - offline >= s.offline_expiry)
        )

    def _host_gone(self, table: Table, now: float) -> bool:
        """The host's seat has been offline for longer than the grace time (a host who has not
        connected since the table was made or restored: counted from the first sweep)."""
        seat = table.seat_of(table.host)
        if seat is None or table.status not in ("waiting", "playing") or table.connected(seat):
            return False
        away = table.away_since.setdefault(seat, now)
        return now - away >= self.settings.grace

    async def _sweep(self) -> None:
        """Close stale waiting tables; pass the host role of a host offline past the grace."""
        s = self.settings
        every = min(60.0, max(0.05, min(s.waiting_expiry, s.offline_expiry, s.grace) / 10))
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(every)
            now = loop.time()
            for table in list(self.tables.values()):
                # (connections keep offline_since up to date; this also covers seat changes)
                if table.human_connected():
                    table.offline_since = None
                elif table.offline_since is None:
                    table.offline_since = now
                try:
                    if self._stale(table, now):
                        await self._expire(table, now)
                    elif self._host_gone(table, now):
                        await self._pass_host(table, now)
                except Exception:
                    table.log.exception("could not look after a table")

    async def _pass_host(self, table: Table, now: float) -> None:
        async with table.lock:
            # to someone who is here: passing it between absent people would help nobody
            if self._host_gone(table, now) and table.pass_host(connected_only=True):
                await table.persist()
                table.broadcast_table()

    async def _expire(self, table: Table, now: float) -> None:
        async with table.lock:
            if not self._stale(table, now):
                return
            table.status = "expired"
            await table.persist()
            table.broadcast_table()
            table.log.info("table expired")
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
                self.invites.pop(table.invite, None)
                self.metrics.tables_open.set(len(self.tables))
            for c in list(table.conns):
                c.close(4410)

    # ------------------------------------------------------------------ lobby
    async def create_table(
        self, user: User, body: dict[str, Any], addr: str | None = None
    ) -> Table:
        self.check_new_table(user.id, addr)
        players = body["players"]
        timer = body.get("timer")
        if timer is not None and timer < self.settings.min_timer:
            raise LobbyError(
                400,
                "timer_too_short",
                f"timer: at least {self.settings.min_timer} seconds",
                "timer",
            )
        rules = body.get("rules") or "official"
        problem = json_problem(rules, RULES_TEXT_MAX, RULES_DEPTH_MAX)
        if problem is not None:
            raise LobbyError(400, "invalid_settings", f"rules: {problem}", "rules")
        try:
            Rules.from_json(rules).validate(players)
        except Exception as exc:
            message = getattr(exc, "message", str(exc))
            raise LobbyError(400, "invalid_settings", message, setting_named(message)) from None
        levels = bot_levels()
        bot_level = body.get("bot_level") or default_level()
        if bot_level not in levels:
            raise LobbyError(
                400,
                "invalid_bot",
                f"bot_level: unknown level {brief(bot_level)}; available: {', '.join(levels)}",
            )
        seats = [Seat() for _ in range(players)]
        for key, level in (body.get("bots") or {}).items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                raise LobbyError(
                    400, "bad_seat", f"bots: {brief(key)} is not a seat number"
                ) from None
            if not 0 <= seat < players:
                raise LobbyError(
                    400, "bad_seat", f"bots: seat {seat} is not at this table (0-{players - 1})"
                )
            level = level or bot_level
            if level not in levels:
                raise LobbyError(
                    400,
                    "invalid_bot",
                    f"bots: unknown level {brief(level)}; available: {', '.join(levels)}",
                )
            seats[seat] = Seat("bot", None, f"Bot {seat + 1}", level)
        host_seat = body.get("seat", 0)
        if host_seat is not None:
            if not 0 <= host_seat < players:
                raise LobbyError(
                    400, "bad_seat", f"seat: {host_seat} is not at this table (0-{players - 1})"
                )
            if seats[host_seat].kind != "empty":
                raise LobbyError(409, "seat_taken", f"seat: seat {host_seat} is given to a bot")
            seats[host_seat] = Seat("human", user.id, user.name, None)
        rated = bool(body.get("rated", False))
        if rated:
            problem = rated_problem(players, rules, seats, bool(body.get("public", True)))
            if problem is not None:
                raise LobbyError(400, "not_ratable", problem)
        if body.get("auto_start", True):
            self.check_bot_game(user.id, addr, seats)
        name, webhook = self.check_table_settings(body)
        table = Table(
            self,
            id=self._new_id(),
            host=user.id,
            host_name=user.name,
            players=players,
            rules=rules,
            public=bool(body.get("public", True)),
            invite=self._new_invite(),
            timer=body.get("timer"),
            bot_level=bot_level,
            auto_start=bool(body.get("auto_start", True)),
            seats=seats,
            host_addr=addr,
            name=name,
            webhook=webhook,
            rated=rated,
        )
        if self.cluster is not None:
            await self.cluster.claim_new(table.id)
        await self.store.write(S.save_table(table.row(), insert=True))
        self._register(table)
        table.log.info("table created", extra={"players": players, "host": user.id})
        async with table.lock:
            await table.maybe_autostart()
        return table

    def check_table_settings(self, body: dict[str, Any]) -> tuple[str | None, str | None]:
        """The table's ``name`` (display-name rules) and ``webhook`` (webhooks.check_url)."""
        name = body.get("name")
        if name == "":
            name = None  # no name (PATCH: removes it)
        elif name is not None:
            try:
                name = clean_name(name)
            except NameError_ as exc:
                raise LobbyError(400, "invalid_table_name", str(exc), "name") from None
        webhook = body.get("webhook")
        if webhook is not None:
            try:
                webhook = check_url(webhook, self.settings.webhook_allow_private)
            except WebhookError as exc:
                raise LobbyError(400, exc.code, str(exc), "webhook") from None
        return name, webhook

    def _new_id(self) -> str:
        while True:
            candidate = "t" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
            if candidate not in self.tables:
                return candidate

    def _new_invite(self) -> str:
        return secrets.token_urlsafe(8)

    # ------------------------------------------------------------------ startup / shutdown
    async def load(self) -> None:
        """Rebuild every waiting or playing table; unfinished games resume by replay."""
        self._sweeper = asyncio.create_task(self._sweep(), name="expire-waiting-tables")
        stored_tables = await self.store.read(S.load_active)
        if self.cluster is not None:  # only the tables whose lease this node gets
            stored_tables = await self.cluster.claim_stored(stored_tables)
        for st in stored_tables:
            self.restore(st)

    def restore(self, st: S.StoredTable) -> Table | None:
        """Rebuild one stored table (startup, or a cluster node taking an orphan over)."""
        try:
            self._restore(st)
        except Exception as exc:
            table = self.tables.get(st.table["id"])
            if table is None:
                log.exception("could not restore table", extra={"game_id": st.table["id"]})
            else:
                table.mark_broken(exc)
        return self.tables.get(st.table["id"])

    def _restore(self, st: S.StoredTable) -> None:
        row = st.table
        table = Table(
            self,
            id=row["id"],
            host=row["host"],
            host_name=row["host_name"],
            players=row["players"],
            rules=row["rules"],
            public=row["public"],
            invite=row["invite"],
            timer=row["timer"],
            bot_level=row["bot_level"],
            auto_start=row["auto_start"],
            seats=[Seat.from_json(s) for s in row["seats"]],
            status=row["status"],
            created_at=row["created_at"],
            name=row.get("name"),
            webhook=row.get("webhook"),
            rematch=row.get("rematch"),
            rated=bool(row.get("rated")),
            removed={str(u) for u in row.get("removed") or ()},
        )
        for c in st.chat:
            table.chat.append(c)
        table.chat_next = (st.chat[-1]["id"] + 1) if st.chat else 1
        self._register(table)
        if st.game is not None:
            game = game_from_record(S.record_of(st))
            table.action_by = [a["by"] for a in st.actions]
            if game.finished:
                table.status = "finished"
                table.game = game
            else:
                table.status = "playing"
                table.run_game(game)
                table.log.info("game resumed", extra={"actions": len(game.actions)})

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self.webhooks.close()
        await asyncio.gather(
            *(t.close() for t in list(self.tables.values())), return_exceptions=True
        )


def now() -> float:
    return time.time()
