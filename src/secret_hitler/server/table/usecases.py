"""What people do with a table outside its game, one use-case per function: take a seat, leave
it, add or remove a bot, the host's seat changes and settings, the start, a rematch, a deleted
account, and the hub's and the administrator's closures.

Each use-case is one sequence under the table's lock: check, change, store (``Table.persist``:
if the write fails the seats go back to what is stored), tell every connection. Whoever calls
one (the HTTP routes of ``api/``, the hub's sweeper, moderation) only finds the table, says who
asks and turns a refusal (``LobbyError``) into its answer; nothing else changes a table's seats.
The game's own actions take the same lock in ``session.py`` (``Table.submit``, ``Table.play``),
the remake vote in ``remake.py``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Literal, Protocol, TypedDict

from ..accounts.auth import User
from ..accounts.users import DELETED, placeholder
from ..competition import limits
from ..competition.eligibility import RatedEntry, table_refusal
from ..core import protocol as P
from ..core.errors import LobbyError
from ..core.text import skeleton
from ..storage.ratings import record_leave
from . import afk
from .levels import bot_seat, check_level
from .remake import people
from .seats import Seat
from .session import Table


class Admission(Protocol):
    """Who may not sit at a table (``lobby.moderation.Moderation``: the blocklists)."""

    def check_join(self, user_id: str, table: Table) -> None:
        """``LobbyError`` when ``user_id`` may not take a seat at ``table`` as it is seated now."""


class SettingsChange(TypedDict, total=False):
    """The host's table settings to change, already checked (``Hub.check_table_settings``);
    a key left out stays as it is, a ``None`` name or webhook removes it."""

    name: str | None
    webhook: str | None
    bots_talk: bool


# ---------------------------------------------------------------------- checks
def _host(table: Table, user: User) -> None:
    if user.id != table.host:
        raise LobbyError(403, "not_host", "only the host may do this")


def _host_waiting(table: Table, user: User) -> None:
    _host(table, user)
    if table.status != "waiting":
        raise LobbyError(409, "not_waiting", "the game has already started")


def _no_bots(table: Table) -> None:
    if table.rated:
        raise LobbyError(409, "rated_table", "a rated table is for people only: no bots")


def _check_level(table: Table, level: str, field: str = "level") -> None:
    """A bot level this server offers (``levels.py``): every level plays every game type."""
    check_level(table.services.models, level, field)


def _rated_seat(table: Table, rated: RatedEntry | None) -> None:
    """A rated seat for this person: her standing allows one, and nobody at the table took a
    seat from her address or device (competition/eligibility.py)."""
    if rated is None:
        raise LobbyError(403, "rated_needs_account", "rated seats are for accounts")
    if rated.problem is not None:
        raise rated.problem
    refused = table_refusal(rated.admission, table.seating.seated_admissions().values())
    if refused is not None:
        raise refused


def _check_bot_game(table: Table, seats: list[Seat]) -> None:
    """The host's limit of running games of bots only (the hub's ``Quotas``)."""
    quotas = table.services.quotas
    if quotas is not None:
        quotas.check_bot_game(table.host, table.host_addr, seats)


def _name_free(table: Table, name: str) -> None:
    """No two seats of a table show the same name, or names that look alike (text.skeleton):
    a person cannot pass for another player or for a bot."""
    mine = skeleton(name)
    for i, s in enumerate(table.seats):
        if s.kind != "empty" and s.name and skeleton(s.name) == mine:
            raise LobbyError(
                409,
                "name_taken",
                f"seat {i} is called {s.name!r}: take a different name to join this table",
            )


# ---------------------------------------------------------------------- a player's seat
async def join(
    table: Table,
    user: User,
    seat: int | None,
    admission: Admission,
    rated: RatedEntry | None = None,
    player: limits.Player | None = None,
) -> int:
    """``user`` takes ``seat`` (None: the first free one) at a waiting table, which starts if
    it is full and starts by itself. At a rated table ``rated`` says where she asks from and
    whether her standing allows a rated seat (competition/eligibility.py): none, or one from an
    address or device that already holds a seat there, is refused. At a new-player table or
    one with a rating limit, ``player`` is her record (competition/limits.py). Returns the
    seat."""
    async with table.lock:
        if table.status != "waiting":
            raise LobbyError(409, "not_waiting", "the game has already started")
        if table.seat_of(user.id) is not None:
            raise LobbyError(409, "already_seated", "you already hold a seat at this table")
        if user.id in table.removed:
            raise LobbyError(403, "removed", "the host removed you from this table")
        admission.check_join(user.id, table)
        newbie_games = table.services.settings.newbie_games
        problem = limits.seat_refusal(
            table.kind, table.rating_min, table.rating_max, player, newbie_games
        )
        if problem is not None:
            raise problem
        if seat is None:
            seat = table.free_seat()
            if seat is None:
                raise LobbyError(409, "table_full", "every seat is taken")
        elif not 0 <= seat < table.players:
            raise LobbyError(
                400, "bad_seat", f"seat: {seat} is not at this table (0-{table.players - 1})"
            )
        elif table.seats[seat].kind != "empty":
            raise LobbyError(409, "seat_taken", f"seat {seat} is taken")
        _name_free(table, user.name)
        if table.rated:
            _rated_seat(table, rated)
            assert rated is not None
            table.seating.admissions[user.id] = rated.admission
        table.seats[seat] = Seat("human", user.id, user.name, None)
        await table.persist()
        table.reseat(user.id)
        table.broadcast_table()
        table.log.info("joined", extra={"seat": seat, "user_id": user.id})
        await table.maybe_autostart()
        return seat


async def leave(table: Table, user: User) -> None:
    """``user`` gives up her seat: freed at a waiting table, played on by a bot during the game
    (a finished table keeps it); a leaving host hands the role to the next person."""
    async with table.lock:
        seat = table.seat_of(user.id)
        if seat is None:
            raise LobbyError(409, "not_seated", "you hold no seat at this table")
        left = None
        if table.status == "waiting":
            table.seats[seat] = Seat()
        elif table.status == "playing":
            table.seat_to_bot(seat)
            if table.rated:  # a rated game left before its end counts (docs/competitive.md)
                left = record_leave(table.id, user.id, "left", table.services.clock.time())
        else:
            return
        if user.id == table.host:
            table.pass_host()  # the next person hosts (nobody left: the role stays)
        await table.persist(left)
        table.reseat(user.id)
        table.broadcast_table()
        table.log.info("left", extra={"seat": seat, "user_id": user.id})


# ---------------------------------------------------------------------- the host's seats
async def add_bot(table: Table, user: User, seat: int | None, level: str | None) -> int:
    """The host seats a bot of ``level`` (None: the table's) at ``seat`` (None: the first free
    one) of a waiting table, which starts if it is full and starts by itself. Returns the seat."""
    async with table.lock:
        _host_waiting(table, user)
        _no_bots(table)
        level = level or table.bot_level
        _check_level(table, level)
        seat = seat if seat is not None else table.free_seat()
        if seat is None:
            raise LobbyError(409, "table_full", "every seat is taken")
        if not 0 <= seat < table.players:
            raise LobbyError(400, "bad_seat", f"seat: {seat} is not at this table")
        if table.seats[seat].kind != "empty":
            raise LobbyError(409, "seat_taken", f"seat {seat} is taken")
        bot = bot_seat(table.services.models, seat, level)
        after = [bot if i == seat else s for i, s in enumerate(table.seats)]
        if table.auto_start and all(s.kind != "empty" for s in after):  # it would start now
            _check_bot_game(table, after)
        table.seats[seat] = bot
        await table.persist()
        table.broadcast_table()
        await table.maybe_autostart()
        return seat


async def remove_bot(table: Table, user: User, seat: int) -> None:
    """The host empties a bot's seat at a waiting table."""
    async with table.lock:
        _host_waiting(table, user)
        if not 0 <= seat < table.players or table.seats[seat].kind != "bot":
            raise LobbyError(400, "bad_seat", f"seat {seat} holds no bot")
        table.seats[seat] = Seat()
        await table.persist()
        table.broadcast_table()


async def hand_seat(
    table: Table, user: User, seat: int, to: Literal["empty", "bot"], level: str | None
) -> None:
    """The host frees another person's seat (``to: empty``, a waiting table: she is removed,
    and not back by herself) or gives it to a bot (``to: bot``; during a game only a seat whose
    player is offline)."""
    async with table.lock:
        _host(table, user)
        if not 0 <= seat < table.players:
            raise LobbyError(400, "bad_seat", f"seat: {seat} is not at this table")
        s = table.seats[seat]
        if s.kind != "human" or s.user_id is None:
            raise LobbyError(409, "bad_seat", f"seat {seat} holds no player")
        if s.user_id == user.id:
            raise LobbyError(409, "bad_seat", "leave the table to give up your own seat")
        level = level or table.bot_level
        _check_level(table, level)
        removed = False
        if table.status == "waiting":
            if to == "empty":
                table.seats[seat] = Seat()
                removed = s.user_id not in table.removed
                table.removed.add(s.user_id)  # not back at this table by themselves
            else:
                _no_bots(table)
                table.seats[seat] = bot_seat(table.services.models, seat, level)
        elif table.status == "playing":
            if to == "empty":
                raise LobbyError(409, "not_waiting", "during a game a seat can go to a bot only")
            if table.rated:
                raise LobbyError(
                    409,
                    "use_afk_vote",
                    "at a rated table the players vote to replace an absent player",
                )
            if table.connected(seat):
                raise LobbyError(409, "player_online", f"seat {seat}'s player is connected")
            table.seat_to_bot(seat)
        else:
            raise LobbyError(409, "game_over", "the game is over")
        try:
            await table.persist()  # (the removal is stored with the table: migration 0006)
        except Exception:
            if removed:
                table.removed.discard(s.user_id)  # not stored: nothing changed
            raise
        table.reseat(s.user_id)
        table.broadcast_table()
        table.log.info("seat freed by host", extra={"seat": seat, "to": to})


# ---------------------------------------------------------------------- the host's table
async def change_settings(table: Table, user: User, change: SettingsChange) -> None:
    """The host names the table, sets or removes its webhook, or turns the bots' talk on or
    off (at once, also during a game)."""
    async with table.lock:
        _host(table, user)
        if "name" in change:
            table.name = change["name"]
        if "webhook" in change:
            table.webhook = change["webhook"]
        if "bots_talk" in change:
            table.bots_talk = change["bots_talk"]
        await table.persist()
        table.broadcast_table()


async def start(table: Table, user: User, fill: str | None) -> None:
    """The host starts a waiting table; its empty seats go to bots of level ``fill`` (None:
    every seat must be taken)."""
    async with table.lock:
        _host_waiting(table, user)
        if fill is not None:
            _no_bots(table)
            _check_level(table, fill, "fill_with_bots")
        if table.free_seat() is not None and fill is None:
            raise LobbyError(
                409, "not_enough_players", "seats are empty: take them or fill them with bots"
            )
        seats = [
            bot_seat(table.services.models, i, fill) if s.kind == "empty" and fill else s
            for i, s in enumerate(table.seats)
        ]
        _check_bot_game(table, seats)
        table.seats[:] = seats
        await table.start_game()


async def start_if_full(table: Table) -> None:
    """A new table whose seats are all taken starts now if it starts by itself."""
    async with table.lock:
        await table.maybe_autostart()


async def start_with_bots(table: Table, due: Callable[[Table], bool]) -> bool:
    """The server starts a table it keeps (a new-player table, ``lobby/system.py``) if it is
    still waiting and ``due`` still says so under the lock: its empty seats go to bots of the
    table's level. Returns whether it started."""
    async with table.lock:
        if table.status != "waiting" or not due(table):
            return False
        level = table.bot_level
        table.seats[:] = [
            bot_seat(table.services.models, i, level) if s.kind == "empty" else s
            for i, s in enumerate(table.seats)
        ]
        await table.start_game()
        return True


async def start_waiting(table: Table) -> None:
    """Start a table its maker set up (the tutorial's fixed deal), unless it started already."""
    async with table.lock:
        if table.status == "waiting":
            await table.start_game()


async def rematch(
    table: Table,
    user: User,
    opened: Callable[[str], Table | None],
    open_new: Callable[[], Awaitable[Table]],
) -> Table:
    """After the game, a player asks for a rematch: the table ``open_new`` opens (the hub: the
    same people, bots and settings), or the one already opened (``opened``: by its id), whose
    id the finished table stores and shows."""
    async with table.lock:
        if table.seat_of(user.id) is None:
            raise LobbyError(403, "not_seated", "only the players of this game may ask")
        if table.status != "finished":
            raise LobbyError(409, "game_not_finished", "the game is still being played")
        if table.rematch is not None:
            existing = opened(table.rematch)
            if existing is not None:
                return existing
        new = await open_new()
        table.rematch = new.id
        await table.persist()
        table.broadcast_table()
        return new


# ---------------------------------------------------------------------- people who go
async def afk_vote(table: Table, user: User, seat: int, yes: bool, addr: str) -> bool:
    """``user`` (from ``addr``) votes on handing the absent player's ``seat`` to a bot for good
    (``afk.py``); the first vote opens the poll. Returns whether it passed: the seat is then a
    bot's and, at a rated table, the game counts as left for her. A refusal (she is back, the
    seat holds no person) closes the poll as not passed."""
    async with table.lock:
        if table.status != "playing" or table.game is None or table.game.finished:
            raise LobbyError(409, "not_playing", "there is no game being played")
        if not 0 <= seat < table.players:
            raise LobbyError(400, "bad_seat", f"seat: {seat} is not at this table")
        clock = table.services.clock
        vote = table.afk
        poll = vote.poll
        if poll is not None and clock.monotonic() >= poll.ends:
            poll = vote.poll = None
        if poll is not None and poll.seat != seat:
            raise LobbyError(409, "afk_vote_open", f"a vote on seat {poll.seat} is open")
        who = afk.voters(table, seat)
        if user.id not in who:
            raise LobbyError(403, "not_a_voter", "only the other living players may vote")
        refused = afk.refusal(table, seat)
        if poll is None:
            if refused is not None:
                raise refused
            if not yes:
                raise LobbyError(409, "no_afk_vote", "no vote to replace this player is open")
            poll = vote.poll = afk.Poll(
                seat, clock.monotonic() + afk.VOTE_WINDOW, round(clock.time() + afk.VOTE_WINDOW, 3)
            )
            clock.call_later(afk.VOTE_WINDOW + 0.01, lambda: _afk_expired(table, poll))
        (poll.yes if yes else poll.no).add(user.id)
        (poll.no if yes else poll.yes).discard(user.id)
        poll.voted_from[user.id] = addr
        poll.needed = people(who, poll.voted_from) // 2 + 1
        if refused is not None:  # she came back while the poll was open
            _afk_close(table, False)
            raise refused
        if people(poll.yes & who, poll.voted_from) < poll.needed:
            table.broadcast_table()
            return False
        target = table.seats[seat]
        assert target.user_id is not None
        vote.poll = None
        vote.result = _afk_result(table, poll, True)
        table.seat_to_bot(seat)
        left = None
        if table.rated:
            left = record_leave(table.id, target.user_id, "replaced", clock.time())
        await table.persist(left)
        table.reseat(target.user_id)
        table.broadcast_table()
        table.log.info("absent player replaced by the table's vote", extra={"seat": seat})
        return True


def _afk_expired(table: Table, poll: afk.Poll) -> None:
    """The poll's time is up without a majority."""
    if table.afk.poll is poll:
        _afk_close(table, False)


def _afk_close(table: Table, passed: bool) -> None:
    poll = table.afk.poll
    if poll is None:
        return
    table.afk.poll = None
    table.afk.result = _afk_result(table, poll, passed)
    table.broadcast_table()


def _afk_result(table: Table, poll: afk.Poll, passed: bool) -> dict[str, object]:
    """How a closed AFK vote went (counts only: the vote is anonymous)."""
    return {
        "seat": poll.seat,
        "passed": passed,
        "yes": len(poll.yes),
        "no": len(poll.no),
        "needed": poll.needed,
        "at": round(table.services.clock.time(), 3),
    }


async def forget_user(table: Table, user_id: str) -> None:
    """A deleted account leaves the table: a waiting seat is freed, a playing one goes to a
    bot; the name shown for the seat and in chat becomes a placeholder; a hostless table keeps
    no host's name."""
    async with table.lock:
        seat = table.seat_of(user_id)
        if seat is not None:
            if table.status == "waiting":
                table.seats[seat] = Seat()
            else:
                if table.status == "playing":
                    table.seat_to_bot(seat)
                s = table.seats[seat]
                table.seats[seat] = Seat(s.kind, None, placeholder(seat), s.level)
                table.renamed[seat] = placeholder(seat)
        lines = table.chat.lines
        for i, line in enumerate(lines):
            if line.get("user_id") == user_id:
                lines[i] = {**line, "user_id": None, "name": placeholder(line.get("seat"))}
        if table.host == user_id and not table.pass_host(exclude=user_id):
            table.host, table.host_name = "", DELETED  # nobody to take over: hostless
        await table.persist()
        table.broadcast_table()


async def pass_host(table: Table, host_gone: Callable[[Table], bool]) -> bool:
    """The host role goes to a connected player if ``host_gone`` (the hub's sweeper: the host
    is offline past the grace time) still holds under the lock. Returns whether it passed."""
    async with table.lock:
        # to someone who is here: passing it between absent people would help nobody
        if not (host_gone(table) and table.pass_host(connected_only=True)):
            return False
        await table.persist()
        table.broadcast_table()
        return True


async def expire(table: Table, stale: Callable[[Table], bool]) -> bool:
    """A waiting table nobody looks after closes (status ``expired``) if ``stale`` (the hub's
    sweeper) still holds under the lock; its connections close with 4410. Returns whether it
    expired: its keeper then forgets it."""
    async with table.lock:
        if not stale(table):
            return False
        table.status = "expired"
        await table.persist()
        table.broadcast_table()
        table.log.info("table expired")
        for c in list(table.conns):
            c.close(4410)
        return True


async def close(table: Table) -> bool:
    """An administrator closed the live table: its game stops and everyone is told (its status
    in the database is ``closed`` already, so it is not restored). Returns whether it was open:
    its keeper then forgets it, and the table's driver and connections stop."""
    async with table.lock:
        if table.status not in ("waiting", "playing"):
            return False
        table.status = "closed"
        table.log.warning("table closed by an administrator")
        try:
            await table.persist()  # the server may have rewritten the row since the closure
        except Exception:  # the closure itself is stored: the next start skips the table anyway
            table.log.warning("could not store the closed status", exc_info=True)
        table.broadcast_table()
        for c in list(table.conns):
            c.send_msg(P.error("table_closed", "an administrator closed this table"))
        if table.game is not None and not table.game.finished:
            table.services.metrics.games_active.dec()
        return True
