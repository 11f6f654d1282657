"""The hub: every live table of this node, their invites, the services its tables are given,
the limits on hosting, and the rebuild of unfinished games at startup.

Which tables are this node's is the ownership port's answer (``ownership.py``: every table on a
single server, the leased ones on a node of several), given at wiring; the hub asks no more.

A new table's settings are checked in ``plans.py`` (``plan_table``, ``rated_problem``) before
the hub makes it; what a table does once made is ``table/``'s, and what people do with it
``table/usecases.py``'s.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..accounts.auth import NameError_, User, clean_name
from ..competition import limits
from ..competition.eligibility import RatedEntry
from ..competition.rating import rate_finished
from ..core import protocol as P
from ..core.config import Settings
from ..core.errors import LobbyError
from ..core.guard import Guard
from ..core.metrics import Metrics
from ..storage import queries as S
from ..storage.writer import Store, Write
from ..table import usecases
from ..table.levels import default_level
from ..table.models import ModelSeats
from ..table.seats import Seat
from ..table.services import LoopClock, Services, Writer
from ..table.session import Table
from ..table.settings import TableSettings
from . import plans
from .ownership import Local, Ownership
from .plans import NewTable
from .webhooks import WebhookError, Webhooks, check_url

log = logging.getLogger("secret_hitler.server.hub")


def _admit_rated_host(table: Table, user: User, rated: RatedEntry | None) -> None:
    """A rated table's maker who sits at it: her standing allows a rated seat (else the table is
    not made), and her seat is admitted from where she asked (competition/eligibility.py)."""
    if not table.rated or table.seat_of(user.id) is None:
        return
    if rated is None:
        raise LobbyError(403, "rated_needs_account", "rated seats are for accounts")
    if rated.problem is not None:
        raise rated.problem
    table.seating.admissions[user.id] = rated.admission
    table.seating.stored()


class Keeper:
    """The hub's side of its tables' lives (``services.Listener``): a rated game is rated when it
    ends; a finished table is forgotten once it has had no connection for a while (it stays in
    the database: its detail and record are served from there)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._rating: set[asyncio.Task[bool]] = set()  # in flight (kept from the collector)

    def finished(self, table: Table) -> None:
        for hook in self.hub.game_ended:  # (the tournament director: the next round)
            hook(table)
        if table.rated:
            rating = rate_finished(self.hub.store, table.id, table.game)
            task = asyncio.get_running_loop().create_task(rating)
            self._rating.add(task)
            task.add_done_callback(self._rating.discard)

    def idle(self, table: Table, delay: float = 300.0) -> None:
        asyncio.get_running_loop().call_later(delay, self._evict, table)

    def _evict(self, table: Table) -> None:
        if not table.conns and table.status == "finished":
            self.hub.forget(table)


class Hub:
    def __init__(
        self,
        settings: Settings,
        store: Store,
        metrics: Metrics,
        models: ModelSeats | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.metrics = metrics
        self.models = models  # the language models hosts may seat (``--llm-endpoints``)
        self.tables: dict[str, Table] = {}
        self.invites: dict[str, str] = {}
        self.guard = Guard(settings)
        self.webhooks = Webhooks(
            settings.webhook_timeout, settings.webhook_allow_private, settings.link_base
        )
        self.clock = LoopClock()
        # the bots' own threads (``Services.bot_pool``): SH_BOT_THREADS moves at once
        self.bot_pool = ThreadPoolExecutor(settings.bot_threads, thread_name_prefix="sh-bot")
        self.ownership: Ownership = Local(store)  # which tables are this node's
        self.services = self._services(self.ownership.writer)
        self._sweeper: asyncio.Task[None] | None = None
        # told when a game of this node's tables ends (the tournament director)
        self.game_ended: list[Callable[[Table], None]] = []

    def _services(self, writer: Writer) -> Services:
        """What every table of this hub is given (``table.services``)."""
        return Services(
            settings=self.settings,
            writer=writer,
            webhooks=self.webhooks,
            listener=Keeper(self),
            metrics=self.metrics,
            limits=self.guard,
            standin_level=default_level(),
            clock=self.clock,
            models=self.models,
            bot_pool=self.bot_pool,
            quotas=self,
        )

    def model_names(self) -> list[str]:
        """The names model seats show (their endpoints' display names): no person may take
        one (accounts/reserved.py)."""
        return [m["name"] for m in self.models.offered()] if self.models is not None else []

    def set_ownership(self, ownership: Ownership) -> None:
        """This node shares the tables with others (before any table is loaded): ``ownership``
        says which are its own, and fences its tables' writes."""
        assert not self.tables
        self.ownership = ownership
        writer: Writer = ownership.writer
        self.services = dataclasses.replace(self.services, writer=writer)

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

    def forget(self, table: Table) -> bool:
        """This node no longer holds the table (finished, expired, closed, or moved to another
        node); False if it did not hold it."""
        if self.tables.get(table.id) is not table:
            return False
        del self.tables[table.id]
        self.invites.pop(table.invite, None)
        self.metrics.tables_open.set(len(self.tables))
        return True

    def sessions_ended(self, user_id: str, sessions: set[str]) -> None:
        """Sessions of ``user_id`` were revoked (sign-out, a new password, a deleted account, a
        new sign-in): the connections opened with them end now, here and on every other node
        (``Ownership.announce_revoked``), so a stolen token stops working at once."""
        for table in self.tables.values():
            for conn in list(table.conns):
                if conn.user is not None and conn.user.session in sessions:
                    conn.send_msg(P.error("signed_out", "this session was signed out"))
                    conn.close()
        if sessions:
            self.ownership.announce_revoked(user_id)

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
        offline = table.presence.offline_since
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
        away = table.presence.away_since.setdefault(seat, now)
        return now - away >= self.settings.grace

    async def _sweep(self) -> None:
        """Close stale waiting tables; pass the host role of a host offline past the grace."""
        s = self.settings
        every = min(60.0, max(0.05, min(s.waiting_expiry, s.offline_expiry, s.grace) / 10))
        while True:
            await asyncio.sleep(every)
            now = self.clock.monotonic()
            for table in list(self.tables.values()):
                # (connections keep offline_since up to date; this also covers seat changes)
                presence = table.presence
                if presence.human_connected():
                    presence.offline_since = None
                elif presence.offline_since is None:
                    presence.offline_since = now
                try:
                    if self._stale(table, now):
                        await self._expire(table, now)
                    elif self._host_gone(table, now):
                        await self._pass_host(table, now)
                except Exception:
                    table.log.exception("could not look after a table")

    async def _pass_host(self, table: Table, now: float) -> None:
        await usecases.pass_host(table, lambda t: self._host_gone(t, now))

    async def _expire(self, table: Table, now: float) -> None:
        if await usecases.expire(table, lambda t: self._stale(t, now)):
            self.forget(table)

    # ------------------------------------------------------------------ lobby
    def plan_table(self, user: User | None, body: dict[str, Any]) -> NewTable:
        """A new table's settings checked as ``create_table`` checks them (``plans.py``), or
        the ``LobbyError`` that refuses them; changes nothing."""
        return plans.plan_table(self.settings.min_timer, self.models, user, body)

    async def create_table(
        self,
        user: User,
        body: dict[str, Any],
        addr: str | None = None,
        entry: RatedEntry | None = None,
        player: limits.Player | None = None,
    ) -> Table:
        """A new table; ``entry``: where its maker asks from and whether her standing allows a
        rated seat, for a rated table she sits at (competition/eligibility.py); ``player``: her
        record, for a table with a rating limit she sits at (competition/limits.py)."""
        self.check_new_table(user.id, addr)
        plan = self.plan_table(user, body)
        seats = plan.seats
        if any(s.user_id == user.id for s in seats):
            problem = limits.seat_refusal(None, plan.rating_min, plan.rating_max, player, 0)
            if problem is not None:
                raise problem
        if body.get("auto_start", True):
            self.check_bot_game(user.id, addr, seats)
        name, webhook = self.check_table_settings(body)
        table = Table(
            self.services,
            plan.settings(
                public=bool(body.get("public", True)),
                auto_start=bool(body.get("auto_start", True)),
                name=name,
                webhook=webhook,
                bots_talk=bool(body.get("bots_talk", True)),
            ),
            id=self.new_table_id(),
            host=user.id,
            host_name=user.name,
            invite=self._new_invite(),
            seats=seats,
            host_addr=addr,
        )
        _admit_rated_host(table, user, entry)
        await self.ownership.claim_new(table.id)
        await self.store.write(S.save_table(table.row(), insert=True))
        self._register(table)
        table.log.info("table created", extra={"players": plan.players, "host": user.id})
        await usecases.start_if_full(table)
        return table

    async def open_server_table(
        self,
        kind: str,
        body: dict[str, Any],
        host: tuple[str, str],
        people: Sequence[tuple[str, str, dict[str, Any] | None]] = (),
        stored: Callable[[Write], Write] | None = None,
        table_id: str | None = None,
    ) -> Table:
        """A table the server opens from settings (``lobby/system.py``): a queue's table with its
        ``people`` seated (user id, name, a rated seat's admission as stored), or a new-player
        table. ``body``: its settings, checked as ``plan_table`` checks a person's; ``host``: who
        hosts it (id, name); ``stored`` wraps its first write (the queue seats its people in that
        transaction, fenced by the system lease), which refuses it with nothing kept;
        ``table_id``: its id, where the caller must know it beforehand (a tournament's round:
        ``lobby/director.py``)."""
        plan = self.plan_table(None, {**body, "seat": None})
        seats = list(plan.seats)
        for i, (user_id, name, _) in enumerate(people):
            seats[i] = Seat("human", user_id, name)
        table = Table(
            self.services,
            plan.settings(kind=kind),
            id=table_id or self.new_table_id(),
            host=host[0],
            host_name=host[1],
            invite=self._new_invite(),
            seats=seats,
        )
        if table.rated:
            table.seating.restore_admissions({u: a for u, _, a in people if a is not None})
        await self.ownership.claim_new(table.id)
        first = S.save_table(table.row(), insert=True)
        await self.store.write(first if stored is None else stored(first))
        self._register(table)
        table.log.info("system table opened", extra={"kind": kind, "people": len(people)})
        await usecases.start_if_full(table)
        return table

    async def open_rematch(self, old: dict[str, Any], user: User, addr: str | None) -> Table:
        """A new table with the settings and seats of ``old`` (a table row), hosted by ``user``;
        its host starts it (the others may not be back yet)."""
        self.check_new_table(user.id, addr)
        table = Table(
            self.services,
            dataclasses.replace(TableSettings.from_row(old), auto_start=False, kind=None),
            id=self.new_table_id(),
            host=user.id,
            host_name=user.name,
            invite=self._new_invite(),
            seats=[Seat.from_json(s) for s in old["seats"]],
            host_addr=addr,
        )
        if table.rated:  # the same people, taken from where they were; a bot's seat is free
            table.seats[:] = [Seat() if s.kind == "bot" else s for s in table.seats]
            table.seating.restore_admissions(old.get("admissions"))
            table.seating.stored()
        await self.ownership.claim_new(table.id)  # (as a new table: served where it is made)
        await self.store.write(S.save_table(table.row(), insert=True))
        self._register(table)
        table.log.info("rematch opened", extra={"of": old["id"]})
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

    def new_table_id(self) -> str:
        """A table id not in use on this node (a system table names its id before it is made)."""
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
        stored_tables = await self.ownership.claim_stored(stored_tables)  # this node's
        for st in stored_tables:
            self.restore(st)

    def restore(self, st: S.StoredTable) -> Table | None:
        """Rebuild one stored table (startup, or a node taking over a table whose node is gone)."""
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
            self.services,
            TableSettings.from_row(row),
            id=row["id"],
            host=row["host"],
            host_name=row["host_name"],
            invite=row["invite"],
            seats=[Seat.from_json(s) for s in row["seats"]],
            status=row["status"],
            created_at=row["created_at"],
            rematch=row.get("rematch"),
            removed={str(u) for u in row.get("removed") or ()},
        )
        table.chat.restore(st.chat)
        table.seating.restore_admissions(row.get("admissions"))
        self._register(table)
        if st.game is not None:
            game = table.stored_game(st)
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
        if self.models is not None:
            await self.models.aclose()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
