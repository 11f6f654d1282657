"""The tournament director: moves every open tournament along (docs/competitive.md
"Tournaments"). Check-in opens, the tournament starts, each round's tables are seated
(``competition/seating.py``) and opened through the hub as tables of kind ``tournament``, each
finished table's results are recorded (``competition/tournaments.py``: the points, and who a bot
finished the game for), and when every table of a round is over the next round is seated, the
losers of a single elimination round go out, and at the end the tournament is finished.

The database is the one source of truth, so that the director is cluster-wide without a leader:
every node runs one, and each step is a transaction that checks the state it changes (a round is
added only by the node whose write finds the previous round still current, a table's results are
recorded once), so two nodes that take the same step at once change the database once. A
round's seating is computed from the tournament's seed and the round's number, the same on every
node, and its tables' ids follow from it (``table_id``): a node that dies between storing a
round and opening its tables leaves them to any other node's director, which opens the missing
ones (after ``REOPEN_AFTER`` seconds, so as not to race the node that is opening them). A table
of a running round lives on as every table does: when its node dies, another node resumes it
(``cluster/``), and its result is read from the database, wherever it was played.

The director wakes every ``TICK`` seconds and at once when a game ends on this node (``poke``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import secrets
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection

from ...engine.settings import MIN_PLAYERS
from ..competition import seating
from ..competition import tournaments as TN
from ..competition.tournaments import Tournament
from ..core.errors import LobbyError
from ..storage import db
from ..storage.writer import Refused, Write
from ..table.session import Table

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("secret_hitler.server.director")

TICK = 2.0  # seconds between two looks at the open tournaments
REOPEN_AFTER = 30.0  # seconds after a round was stored before another node opens its tables
#: The host of a tournament's tables: nobody (no person hosts them: no seat changes, no rematch).
HOST_PREFIX = "~"


def table_id(tournament_id: str, number: int, index: int) -> str:
    """The id of round ``number``'s table ``index`` (from 1): the same on every node."""
    return f"{tournament_id}-{number}-{index}"


def new_tournament_id() -> str:
    return "T" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class Director:
    def __init__(self, hub: Hub, tick: float = TICK) -> None:
        self.hub = hub
        self.tick = tick
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ the loop
    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="tournament-director")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def poke(self) -> None:
        """Look again now (a game ended, a host started a tournament)."""
        self._wake.set()

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.tick)
            self._wake.clear()
            try:
                await self.step(time.time())
            except Exception:  # the next tick tries again; nothing half-done is stored
                log.exception("could not move the tournaments along")

    # ------------------------------------------------------------------ one look
    async def step(self, now: float) -> None:
        """Every open tournament, one step each where one is due."""
        for t in await self.hub.store.read(TN.due()):
            try:
                await self.advance(t, now)
            except (LobbyError, Refused) as exc:  # another node took this step first
                why = exc.message if isinstance(exc, LobbyError) else str(exc)
                log.info("tournament step not taken: %s", why, extra={"tournament": t.id})
            except Exception:  # (the next look tries again; the other tournaments go on)
                log.exception("could not move a tournament along", extra={"tournament": t.id})

    async def advance(self, t: Tournament, now: float) -> None:
        store = self.hub.store
        if t.status == TN.SIGNUP and now >= t.checkin_opens:
            await store.write(TN.open_checkin(t.id))
            t = dataclasses.replace(t, status=TN.CHECKIN)
        if t.status == TN.CHECKIN and now >= t.starts_at:
            await self._begin(t, now)
        elif t.status == TN.RUNNING:
            await self._run(t, now)

    async def _begin(self, t: Tournament, now: float) -> None:
        store = self.hub.store
        here = (TN.CHECKED,) if t.checkin > 0 else (TN.CHECKED, TN.SIGNED)  # 0: no check-in
        people = [e["user_id"] for e in await store.read(_entrants(t.id)) if e["state"] in here]
        if len(people) < MIN_PLAYERS:
            await store.write(TN.set_status(t.id, TN.CANCELLED, now))
            log.info("tournament cancelled: too few checked in", extra={"tournament": t.id})
            return
        seeds = await store.read(TN.seed_ratings(people))
        await store.write(TN.begin(t.id, seeds))
        log.info("tournament started", extra={"tournament": t.id, "players": len(people)})
        await self._seat(dataclasses.replace(t, status=TN.RUNNING), 1, now)

    async def _seat(self, t: Tournament, number: int, now: float) -> None:
        """Seat round ``number`` of the people still playing, store it, open its tables; too
        few for a table: the tournament is over."""
        store = self.hub.store
        people, results, met_at = await store.read(TN.history(t.id))
        playing = [e for e in people if e["state"] == TN.PLAYING]
        if len(playing) < MIN_PLAYERS:
            await store.write(TN.finish(t.id, now))
            return
        ids = [e["user_id"] for e in playing]
        points: Counter[str] = Counter()
        for r in results:
            points[r.user_id] += r.points
        met: Counter[tuple[str, str]] = Counter()
        for seats in met_at:
            for i, a in enumerate(seats):
                for b in seats[i + 1 :]:
                    met[seating.pair(a, b)] += 1
        seeds = {e["user_id"]: float(e["seed"] or 0.0) for e in playing}
        places = {e["user_id"]: TN.places(e["admission"]) for e in playing}
        sizes = seating.table_sizes(len(ids), t.players)
        # (in a thread: 200 people at tables of ten take about a second of annealing, which
        # the event loop, serving this node's tables, must not wait for)
        tables = await asyncio.to_thread(
            seating.seat_round,
            ids,
            sizes,
            dict(points),
            seeds,
            met,
            random.Random(t.seed * 1000 + number),
            (lambda a, b: bool(places[a] & places[b])) if t.category == "rated" else None,
            number == 1,
        )
        rows = [(table_id(t.id, number, i + 1), seats) for i, seats in enumerate(tables)]
        await store.write(TN.add_round(t.id, number, rows, now))
        names = {e["user_id"]: e["name"] for e in playing}
        admissions = {e["user_id"]: e["admission"] for e in playing}
        for tid, seats in rows:
            await self._open(t, tid, seats, names, admissions)

    async def _open(
        self,
        t: Tournament,
        tid: str,
        seats: list[str],
        names: dict[str, str],
        admissions: dict[str, Any],
    ) -> Table:
        """A round's table, its people seated, started at once (a person not there yet is
        waited for as at every table: a stand-in plays for her after ``SH_GRACE``)."""
        body = {"players": len(seats), "rules": t.rules, "timer": t.timer, "category": t.category}
        people = [(u, names.get(u, "?"), admissions.get(u)) for u in seats]
        return await self.hub.open_server_table(
            "tournament",
            body,
            (HOST_PREFIX + t.id, t.name),
            people,
            lambda first: _in_tournament(first, tid, t.id),
            table_id=tid,
        )

    async def _run(self, t: Tournament, now: float) -> None:
        """The current round: open a table no node opened, record each table that is over,
        and once all are over seat the next round or finish."""
        store = self.hub.store
        tables = await store.read(TN.round_tables(t.id, t.round))
        over = 0
        for rt in tables:
            if rt.done:
                over += 1
            elif rt.status is None:
                await self._reopen(t, rt, now)
            elif rt.status in TN.TABLE_OVER:
                await store.write(TN.record_table(t, rt, TN.results_of(t, rt, now)))
                over += 1
        if over < len(tables):
            return
        if t.format == TN.ELIMINATION:
            await self._eliminate(t, len(tables), now)
        elif t.rounds is not None and t.round >= t.rounds:
            await store.write(TN.finish(t.id, now))
        else:
            await self._seat(t, t.round + 1, now)

    async def _eliminate(self, t: Tournament, tables: int, now: float) -> None:
        store = self.hub.store
        if tables <= 1:  # that was the final
            await store.write(TN.finish(t.id, now))
            return
        people, results, _ = await store.read(TN.history(t.id))
        playing = sorted(
            (e for e in people if e["state"] == TN.PLAYING),
            key=lambda e: (-float(e["seed"] or 0.0), e["signed_at"]),
        )
        ids = [e["user_id"] for e in playing]
        on = TN.advancing([r for r in results if r.round == t.round], ids, MIN_PLAYERS)
        await store.write(TN.eliminate(t.id, t.round, [u for u in ids if u not in on]))
        await self._seat(t, t.round + 1, now)

    async def _reopen(self, t: Tournament, rt: TN.RoundTable, now: float) -> None:
        """A table of the round that no table row holds: the node that stored the round died
        before it opened it. Opened here, once the round is old enough."""
        created = await self.hub.store.read(TN.table_created(rt.table_id))
        if created is None or now - created < REOPEN_AFTER:
            return
        people = {e["user_id"]: e for e in await self.hub.store.read(_entrants(t.id))}
        seats = [u for u in rt.seats if u is not None]
        names = {u: people[u]["name"] for u in seats if u in people}
        admissions = {u: people[u]["admission"] for u in seats if u in people}
        try:
            await self._open(t, rt.table_id, seats, names, admissions)
        except Exception:  # another node opened it meanwhile: its row is there next time
            log.warning("could not open a tournament table", extra={"game_id": rt.table_id})


def _entrants(tournament_id: str) -> Any:
    def run(conn: Any) -> list[dict[str, Any]]:
        return TN.entrants(conn, tournament_id)

    return run


def _in_tournament(first: Write, tid: str, tournament_id: str) -> Write:
    """A round table's first write, and its tournament named in its row."""

    def run(conn: Connection) -> None:
        first(conn)
        conn.execute(
            db.tables.update().where(db.tables.c.id == tid).values(tournament_id=tournament_id)
        )

    return run
