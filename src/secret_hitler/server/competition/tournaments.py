"""Tournaments in the database (docs/competitive.md "Tournaments"): the tournament, its entrants,
each round's tables and each finished game's results; what the pages show of them (the
standings, the rounds and the bracket) is ``tournament_pages.py``'s.

A tournament is ``signup`` (people sign up), then ``checkin`` (from ``checkin`` seconds before it
starts: the signed-up confirm they are here; someone who signs up now is checked in at once),
``running`` (rounds of tables, played by the checked-in), and ``finished``, or ``cancelled`` by
its host or an administrator. An entrant is ``signed``, ``checked``, ``playing``, ``withdrawn``
(she left the tournament), ``dropped`` (she left a game or was voted out: a bot finished it for
her, and she is seated no more), or ``out`` (eliminated). The director (``lobby/director.py``, on
the node that does the cluster-wide work) moves tournaments along; these writes are what it and
the routes do, each one transaction, each checking the state it changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ...engine.record import game_from_record
from ...engine.roles import tells_winners, winners_of
from ...engine.types import Role
from ..core.errors import LobbyError
from ..storage import db
from ..storage.queries import load_table, record_of
from ..storage.ratings import preset_of, stood_in
from ..storage.writer import Refused, Write
from . import scoring
from .eligibility import Admission

#: A round's table is over, and its result can be read, once its status is one of these.
TABLE_OVER = ("finished", "closed", "broken", "expired")
SWISS, ELIMINATION = "swiss", "elimination"
FORMATS = (SWISS, ELIMINATION)
SIGNUP, CHECKIN, RUNNING, FINISHED, CANCELLED = (
    "signup",
    "checkin",
    "running",
    "finished",
    "cancelled",
)
OPEN = (SIGNUP, CHECKIN, RUNNING)
SIGNED, CHECKED, PLAYING, WITHDRAWN, DROPPED, OUT = (
    "signed",
    "checked",
    "playing",
    "withdrawn",
    "dropped",
    "out",
)
NAME_MAX = 64
ROUNDS_MAX = 12
ENTRANTS_MAX = 200
TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
T, E, TT, TR = db.tournaments, db.tournament_entrants, db.tournament_tables, db.tournament_results


class StepTaken(Refused):
    """A step of the director that another node took first (a round seated already): nothing
    was written. Never a person's step, so never an error code of the API."""


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    name: str
    host: str
    host_name: str
    format: str
    players: int  # the tables' size the host asked for (tables are 5-10: seating.table_sizes)
    rounds: int | None  # a Swiss tournament's rounds (elimination: as many as it takes)
    category: str
    rules: Any
    timer: int | None
    scoring: str
    max_entrants: int
    starts_at: float
    checkin: float  # seconds before ``starts_at`` that check-in opens
    status: str
    round: int
    seed: int
    created_at: float
    finished_at: float | None = None

    @property
    def checkin_opens(self) -> float:
        return self.starts_at - self.checkin

    def row(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> dict[str, Any]:
        out = self.row()
        del out["seed"]
        out["checkin_opens"] = self.checkin_opens
        return out


def _tournament(row: Any) -> Tournament:
    m = dict(row._mapping)
    return Tournament(**m)


def get(conn: Connection, tournament_id: str) -> Tournament | None:
    row = conn.execute(sa.select(T).where(T.c.id == tournament_id)).first()
    return None if row is None else _tournament(row)


def _must(conn: Connection, tournament_id: str) -> Tournament:
    found = get(conn, tournament_id)
    if found is None:
        raise LobbyError(404, "not_found", "no such tournament")
    return found


# ---------------------------------------------------------------------- the host's and people's steps
def create(t: Tournament, open_most: int) -> Write:
    """Store a new tournament; refused when its host has ``open_most`` open ones already."""

    def run(conn: Connection) -> None:
        hosted = conn.execute(
            sa.select(sa.func.count()).where(T.c.host == t.host, T.c.status.in_(OPEN))
        ).scalar()
        if int(hosted or 0) >= open_most:
            raise LobbyError(
                429,
                "too_many_tournaments",
                f"you host {hosted} open tournaments (at most {open_most})",
            )
        conn.execute(T.insert().values(**t.row()))

    return run


def _count(conn: Connection, tournament_id: str, states: Iterable[str]) -> int:
    return int(
        conn.execute(
            sa.select(sa.func.count()).where(
                E.c.tournament_id == tournament_id, E.c.state.in_(list(states))
            )
        ).scalar()
        or 0
    )


def sign_up(
    tournament_id: str, user_id: str, name: str, admission: dict[str, Any] | None, now: float
) -> Write:
    """``user_id`` signs up (during check-in she is checked in at once)."""

    def run(conn: Connection) -> str:
        t = _must(conn, tournament_id)
        check_signup_open(t)
        seen = conn.execute(
            sa.select(E.c.state).where(E.c.tournament_id == t.id, E.c.user_id == user_id)
        ).scalar()
        if seen is not None:
            raise LobbyError(409, "already_signed_up", "you are signed up already")
        if _count(conn, t.id, (SIGNED, CHECKED)) >= t.max_entrants:
            raise LobbyError(409, "tournament_full", f"the tournament is full ({t.max_entrants})")
        state = CHECKED if t.status == CHECKIN else SIGNED
        conn.execute(
            E.insert().values(
                tournament_id=t.id,
                user_id=user_id,
                name=name,
                state=state,
                signed_at=now,
                checked_at=now if state == CHECKED else None,
                seed=None,
                admission=admission,
                round_out=None,
            )
        )
        return state

    return run


def check_signup_open(t: Tournament) -> None:
    """Sign-up is open until the tournament begins."""
    if t.status in (FINISHED, CANCELLED):
        raise LobbyError(409, "tournament_over", "the tournament is over")
    if t.status not in (SIGNUP, CHECKIN):
        raise LobbyError(409, "tournament_started", "sign-up is closed: the tournament began")


def check_in(tournament_id: str, user_id: str, now: float) -> Write:
    def run(conn: Connection) -> None:
        t = _must(conn, tournament_id)
        if t.status != CHECKIN:
            raise LobbyError(409, "not_checkin", "check-in is not open")
        done = conn.execute(
            E.update()
            .where(E.c.tournament_id == t.id, E.c.user_id == user_id, E.c.state == SIGNED)
            .values(state=CHECKED, checked_at=now)
        )
        if done.rowcount != 1:
            raise LobbyError(409, "not_signed_up", "you are not signed up (or checked in already)")

    return run


def withdraw(tournament_id: str, user_id: str) -> Write:
    """``user_id`` leaves the tournament: before it runs her sign-up goes; while it runs she is
    seated no more (a game she is playing goes on: leaving it is the table's)."""

    def run(conn: Connection) -> None:
        t = _must(conn, tournament_id)
        where = (E.c.tournament_id == t.id, E.c.user_id == user_id)
        if t.status in (SIGNUP, CHECKIN):
            if conn.execute(E.delete().where(*where)).rowcount != 1:
                raise LobbyError(409, "not_signed_up", "you are not signed up")
            return
        if t.status != RUNNING:
            raise LobbyError(409, "tournament_over", "the tournament is over")
        done = conn.execute(
            E.update()
            .where(*where, E.c.state == PLAYING)
            .values(state=WITHDRAWN, round_out=t.round)
        )
        if done.rowcount != 1:
            raise LobbyError(409, "not_entered", "you are not playing this tournament")

    return run


def set_status(tournament_id: str, status: str, now: float, host: str | None = None) -> Write:
    """The host (``host``: her id, checked) or the director changes the status: ``checkin``
    (open now, from ``signup``) or ``cancelled``."""

    def run(conn: Connection) -> None:
        t = _must(conn, tournament_id)
        if host is not None and t.host != host:
            raise LobbyError(403, "not_host", "only the tournament's host may do this")
        if t.status not in OPEN:
            raise LobbyError(409, "tournament_over", "the tournament is over")
        values: dict[str, Any] = {"status": status}
        if status == CANCELLED:
            values["finished_at"] = now
        elif status == CHECKIN and t.status != SIGNUP:
            raise LobbyError(409, "not_signup", "check-in is open already, or the tournament runs")
        conn.execute(T.update().where(T.c.id == t.id).values(**values))

    return run


def start_now(tournament_id: str, host: str, now: float, least: int) -> Write:
    """The host starts her tournament now (its start moves to ``now``; the director begins it):
    at least ``least`` people must have checked in."""

    def run(conn: Connection) -> None:
        t = _must(conn, tournament_id)
        if t.host != host:
            raise LobbyError(403, "not_host", "only the tournament's host may do this")
        no_checkin = t.checkin <= 0  # (everyone signed up plays)
        if t.status != CHECKIN and not (no_checkin and t.status == SIGNUP):
            raise LobbyError(
                409,
                "not_checkin",
                "open check-in first" if t.status == SIGNUP else "the tournament began already",
            )
        checked = _count(conn, t.id, (CHECKED, SIGNED) if no_checkin else (CHECKED,))
        if checked < least:
            raise LobbyError(
                409, "too_few_checked_in", f"{checked} checked in: a table needs {least}"
            )
        conn.execute(T.update().where(T.c.id == t.id).values(starts_at=now, status=CHECKIN))

    return run


# ---------------------------------------------------------------------- the director's steps
def due() -> Write:
    """The open tournaments, oldest start first."""

    def run(conn: Connection) -> list[Tournament]:
        rows = conn.execute(sa.select(T).where(T.c.status.in_(OPEN)).order_by(T.c.starts_at))
        return [_tournament(r) for r in rows]

    return run


def entrants(conn: Connection, tournament_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        sa.select(E).where(E.c.tournament_id == tournament_id).order_by(E.c.signed_at, E.c.user_id)
    )
    return [dict(r._mapping) for r in rows]


def open_checkin(tournament_id: str) -> Write:
    def run(conn: Connection) -> None:
        conn.execute(
            T.update().where(T.c.id == tournament_id, T.c.status == SIGNUP).values(status=CHECKIN)
        )

    return run


def begin(tournament_id: str, seeds: dict[str, float]) -> Write:
    """The start: those in ``seeds`` play (with their seed rating: the checked-in, or everyone
    signed up when the tournament has no check-in), the others' sign-ups go."""

    def run(conn: Connection) -> None:
        done = conn.execute(
            T.update().where(T.c.id == tournament_id, T.c.status == CHECKIN).values(status=RUNNING)
        )
        if done.rowcount != 1:
            raise LobbyError(409, "tournament_started", "the tournament runs already")
        for user_id, seed in seeds.items():
            conn.execute(
                E.update()
                .where(E.c.tournament_id == tournament_id, E.c.user_id == user_id)
                .values(state=PLAYING, seed=seed)
            )
        conn.execute(
            E.delete().where(E.c.tournament_id == tournament_id, E.c.state.in_((SIGNED, CHECKED)))
        )

    return run


def add_round(
    tournament_id: str, number: int, tables: Sequence[tuple[str, list[str]]], now: float
) -> Write:
    """Round ``number``'s tables (id, user ids by seat); the tournament is in that round now."""

    def run(conn: Connection) -> None:
        done = conn.execute(
            T.update()
            .where(T.c.id == tournament_id, T.c.status == RUNNING, T.c.round == number - 1)
            .values(round=number)
        )
        if done.rowcount != 1:
            raise StepTaken(f"round {number} was seated already")
        if tables:
            conn.execute(
                TT.insert(),
                [
                    {
                        "table_id": tid,
                        "tournament_id": tournament_id,
                        "round": number,
                        "seats": seats,
                        "done": False,
                        "created_at": now,
                    }
                    for tid, seats in tables
                ],
            )

    return run


@dataclass(frozen=True, slots=True)
class RoundTable:
    """A table of the current round as the director reads it: who sat where at the deal, and
    what the database says of its game."""

    table_id: str
    seats: list[str | None]
    done: bool
    status: str | None  # the table's status (None: no such table)
    # roles, winner, reason, rules, status, winners (read once the table is over, until recorded)
    game: dict[str, Any] | None
    bots: frozenset[int]  # seats a bot holds now
    stood_in: frozenset[int]  # seats a stand-in played more than their player did


def round_tables(tournament_id: str, number: int) -> Write:
    """Round ``number``'s tables; the game, who a bot sat for and the winners are read only for
    a table that is over and not recorded yet (the director looks every few seconds)."""

    def run(conn: Connection) -> list[RoundTable]:
        out = []
        rows = conn.execute(
            sa.select(TT).where(TT.c.tournament_id == tournament_id, TT.c.round == number)
        )
        for r in rows:
            table = conn.execute(
                sa.select(db.tables.c.status, db.tables.c.seats).where(db.tables.c.id == r.table_id)
            ).first()
            status = None if table is None else table.status
            game: dict[str, Any] | None = None
            bots: frozenset[int] = frozenset()
            away: frozenset[int] = frozenset()
            if table is not None and not r.done and status in TABLE_OVER:
                g = db.games.c
                row = conn.execute(
                    sa.select(g.roles, g.winner, g.reason, g.rules, g.status).where(
                        g.id == r.table_id
                    )
                ).first()
                game = None if row is None else dict(row._mapping)
                if game is not None and game["status"] == "finished" and game["winner"]:
                    game["winners"] = _winners(conn, r.table_id, game)
                bots = frozenset(i for i, s in enumerate(table.seats) if s.get("kind") == "bot")
                away = frozenset(stood_in(conn, r.table_id)) if game is not None else frozenset()
            out.append(
                RoundTable(r.table_id, list(r.seats), bool(r.done), status, game, bots, away)
            )
        return out

    return run


def _winners(conn: Connection, table_id: str, game: dict[str, Any]) -> list[int]:
    """The seats that won a finished game, as the engine names them: the winning party's
    (``winners_of``), but where a Monarchist plays his win is his own and may depend on the
    game's course (Hitler executed), so that game is replayed from its record."""
    roles = [Role(r) for r in game["roles"]]
    if not tells_winners(roles):
        return list(winners_of(roles, game["winner"], game["reason"] or "", False))
    stored = load_table(conn, table_id, chat_limit=0)
    assert stored is not None
    return list(game_from_record(record_of(stored)).winners or ())


def results_of(t: Tournament, rt: RoundTable, now: float) -> list[dict[str, Any]]:
    """The results rows of a round table that is over: its game's winners (the engine's,
    ``_winners``) score their team's win (``scoring.win_points``), a seat a bot finished (the
    player left, was voted out, or a stand-in made most of her moves) scores 0 and says so. A
    table that ended without a game's end (an administrator closed it) scores 0 for everyone."""
    game = rt.game
    finished = game is not None and game["status"] == "finished" and game["winner"] is not None
    rows = []
    winners: set[int] = set()
    if finished and game is not None:
        winners = set(game["winners"])
        preset = preset_of(game["rules"])
    for seat, user_id in enumerate(rt.seats):
        if user_id is None:
            continue
        left = seat in rt.bots or seat in rt.stood_in
        role = game["roles"][seat] if finished and game is not None else "none"
        won = seat in winners
        points = 0.0
        if won and not left and game is not None:
            liberals = game["winner"] == "liberal"  # the winning party's chance sets the points
            points = scoring.win_points(t.scoring, len(rt.seats), preset, liberals)
        rows.append(
            {
                "tournament_id": t.id,
                "table_id": rt.table_id,
                "user_id": user_id,
                "round": t.round,
                "seat": seat,
                "role": role,
                "won": won,
                "left_early": left,
                "points": points,
                "ts": now,
            }
        )
    return rows


def record_table(t: Tournament, rt: RoundTable, rows: list[dict[str, Any]]) -> Write:
    """A round table's results, once: its players who left are dropped from the tournament."""

    def run(conn: Connection) -> bool:
        done = conn.execute(
            TT.update().where(TT.c.table_id == rt.table_id, TT.c.done.is_(False)).values(done=True)
        )
        if done.rowcount != 1:
            return False  # recorded already
        if rows:
            conn.execute(TR.insert(), rows)
        for r in rows:
            if r["left_early"]:
                conn.execute(
                    E.update()
                    .where(
                        E.c.tournament_id == t.id,
                        E.c.user_id == r["user_id"],
                        E.c.state == PLAYING,
                    )
                    .values(state=DROPPED, round_out=t.round)
                )
        return True

    return run


def eliminate(tournament_id: str, number: int, out: Iterable[str]) -> Write:
    """A single elimination round is over: these people are out."""
    gone = list(out)

    def run(conn: Connection) -> None:
        if gone:
            conn.execute(
                E.update()
                .where(
                    E.c.tournament_id == tournament_id,
                    E.c.user_id.in_(gone),
                    E.c.state == PLAYING,
                )
                .values(state=OUT, round_out=number)
            )

    return run


def finish(tournament_id: str, now: float) -> Write:
    def run(conn: Connection) -> None:
        conn.execute(
            T.update()
            .where(T.c.id == tournament_id, T.c.status == RUNNING)
            .values(status=FINISHED, finished_at=now)
        )

    return run


def results(conn: Connection, tournament_id: str) -> list[scoring.Result]:
    rows = conn.execute(sa.select(TR).where(TR.c.tournament_id == tournament_id))
    return [
        scoring.Result(r.user_id, r.table_id, r.round, r.role, r.won, r.left_early, r.points)
        for r in rows
    ]


def history(tournament_id: str) -> Write:
    """What a round's seating reads: the entrants, every result so far, and the seats of every
    table played (who met whom)."""

    def run(conn: Connection) -> tuple[list[dict[str, Any]], list[scoring.Result], list[list[str]]]:
        seated = conn.execute(sa.select(TT.c.seats).where(TT.c.tournament_id == tournament_id))
        met = [[u for u in seats if u is not None] for (seats,) in seated]
        return entrants(conn, tournament_id), results(conn, tournament_id), met

    return run


def places(admission: Any) -> frozenset[str]:
    """The address and device an entrant of a rated tournament signed up from (an
    ``eligibility.Admission`` as stored): two people sharing one never sit at one table."""
    found = Admission.from_json(admission)
    if found is None:
        return frozenset()
    return frozenset(
        p for p in (f"a:{found.address}", f"d:{found.device}" if found.device else None) if p
    )


def table_created(table_id: str) -> Write:
    """When a round's table was stored (None: it is no round's)."""

    def run(conn: Connection) -> float | None:
        found = conn.execute(sa.select(TT.c.created_at).where(TT.c.table_id == table_id)).scalar()
        return None if found is None else float(found)

    return run


def seed_ratings(user_ids: Sequence[str]) -> Write:
    """Each person's seed: her all-time rating's ordinal (mu - 3 sigma, the leaderboard's
    order), 0 for one never rated."""

    def run(conn: Connection) -> dict[str, float]:
        r = db.ratings.c
        rows = conn.execute(
            sa.select(r.user_id, r.mu, r.sigma).where(r.user_id.in_(list(user_ids)))
        )
        found = {row.user_id: float(row.mu - 3 * row.sigma) for row in rows}
        return {u: found.get(u, 0.0) for u in user_ids}

    return run


def advancing(
    round_results: Sequence[scoring.Result], playing: Sequence[str], least: int
) -> list[str]:
    """Who plays the next round of a single elimination tournament: the winners of each table
    of the round just over who played their game to its end and are still in (``playing``);
    when they are fewer than a table (``least``), the best of the others by that round's points,
    then by their order in ``playing`` (their seed), make up the table."""
    still = {u: i for i, u in enumerate(playing)}
    won = [r.user_id for r in round_results if r.won and not r.left and r.user_id in still]
    if len(won) >= least:
        return sorted(won, key=still.__getitem__)
    points = {r.user_id: r.points for r in round_results}
    others = sorted(
        (u for u in playing if u not in won), key=lambda u: (-points.get(u, 0.0), still[u])
    )
    return sorted([*won, *others[: least - len(won)]], key=still.__getitem__)
