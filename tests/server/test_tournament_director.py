"""The tournament director's steps (``lobby/director.py``) in-process, on a hub on SQLite, at the
times the test gives it: check-in opening and the start on the tournament's clock, a tournament
too small to start, a single elimination tournament played to its final and its champions,
a round whose node died before opening its tables opened by another director, and a withdrawal.
Games are played by the test through ``Table.submit`` (the first legal move of the seat to act):
no bot, no timer, nothing in the background decides a game."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from secret_hitler.server.competition import tournament_pages as pages
from secret_hitler.server.competition import tournaments as TN
from secret_hitler.server.core.config import Settings
from secret_hitler.server.core.errors import LobbyError
from secret_hitler.server.core.metrics import Metrics
from secret_hitler.server.lobby.director import REOPEN_AFTER, Director, table_id
from secret_hitler.server.lobby.hub import Hub
from secret_hitler.server.storage import db
from secret_hitler.server.storage.writer import Store
from secret_hitler.server.table.session import Table

START = 1_800_000_000.0


def tournament(
    fmt: str = TN.SWISS, rounds: int | None = 2, checkin: float = 600.0
) -> TN.Tournament:
    """A tournament starting at ``START`` (``checkin``: seconds before it that check-in opens;
    open already when that is before its creation)."""
    return TN.Tournament(
        id="Tcup",
        name="Cup",
        host="host",
        host_name="Host",
        format=fmt,
        players=5,
        rounds=rounds,
        category="casual",
        rules="official",
        timer=None,
        scoring="flat",
        max_entrants=50,
        starts_at=START,
        checkin=checkin,
        status=TN.SIGNUP if START - checkin > START - 3600 else TN.CHECKIN,
        round=0,
        seed=42,
        created_at=START - 3600,
    )


def with_hub(tmp_path: Path, scenario: Callable[[Hub, Director], Awaitable[None]]) -> None:
    async def run() -> None:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'game.db'}")
        db.migrate(engine)
        hub = Hub(Settings(data=tmp_path, bot_delay=0.0), Store(engine), Metrics())
        try:
            await scenario(hub, Director(hub))
        finally:
            await hub.close()

    asyncio.run(run())


async def sign_up(hub: Hub, n: int, at: float) -> list[str]:
    ids = [f"u{i:02d}" for i in range(n)]
    for uid in ids:
        await hub.store.write(TN.sign_up("Tcup", uid, uid.upper(), None, at))
    return ids


async def sign_up_one(hub: Hub, uid: str) -> list[str]:
    await hub.store.write(TN.sign_up("Tcup", uid, uid.upper(), None, START - 7000))
    return [uid]


async def detail(hub: Hub) -> dict[str, Any]:
    return await hub.store.read(pages.detail("Tcup"))  # type: ignore[no-any-return]


async def play_out(table: Table, away: int | None = None) -> None:
    """The table's game to its end, each move the first legal one of the first seat to act;
    ``away``: a seat whose every move a stand-in makes (``by: absent``: its player is gone)."""
    while table.status != "finished":
        game = table.game
        assert game is not None
        seat = game.to_act()[0]
        action = next(a for a in game.legal_actions(seat) if a.type != "claim")
        await table.submit(seat, action, "absent" if seat == away else None)


def tables_of(hub: Hub, found: dict[str, Any], number: int) -> list[Table]:
    (rnd,) = [r for r in found["round_tables"] if r["round"] == number]
    out = []
    for tb in rnd["tables"]:
        table = hub.get(tb["table_id"])
        assert table is not None and table.kind == "tournament"
        out.append(table)
    return out


def test_check_in_opens_and_the_tournament_starts_on_its_clock(tmp_path: Path) -> None:
    async def scenario(hub: Hub, director: Director) -> None:
        await hub.store.write(TN.create(tournament(), 3))
        ids = await sign_up(hub, 6, START - 7200)
        await director.step(START - 601)  # before check-in: nothing moves
        assert (await detail(hub))["status"] == TN.SIGNUP
        await director.step(START - 600)
        assert (await detail(hub))["status"] == TN.CHECKIN
        for uid in ids[:5]:
            await hub.store.write(TN.check_in("Tcup", uid, START - 300))
        with pytest.raises(LobbyError) as err:
            await hub.store.write(TN.check_in("Tcup", ids[0], START - 200))
        assert err.value.code == "not_signed_up"  # checked in already
        await director.step(START)
        found = await detail(hub)
        assert found["status"] == TN.RUNNING and found["round"] == 1
        assert {e["user_id"] for e in found["entrants"]} == set(ids[:5])  # u05 never came
        (table,) = tables_of(hub, found, 1)
        assert table.status == "playing" and table.id == table_id("Tcup", 1, 1)
        assert sorted(s.user_id or "" for s in table.seats) == ids[:5]
        await director.step(START + 1)  # the round is under way: nothing new
        assert len((await detail(hub))["round_tables"]) == 1

    with_hub(tmp_path, scenario)


def test_a_tournament_with_fewer_than_a_table_checked_in_is_cancelled(tmp_path: Path) -> None:
    async def scenario(hub: Hub, director: Director) -> None:
        await hub.store.write(TN.create(tournament(), 3))
        ids = await sign_up(hub, 4, START - 7200)
        await director.step(START - 600)
        for uid in ids:
            await hub.store.write(TN.check_in("Tcup", uid, START - 300))
        await director.step(START)
        found = await detail(hub)
        assert found["status"] == TN.CANCELLED and not found["round_tables"]
        assert not hub.tables

    with_hub(tmp_path, scenario)


def test_single_elimination_sends_each_tables_winners_on_to_a_final(tmp_path: Path) -> None:
    """Ten people: two tables of five; each table's winners go on (made up to a table of five
    by the best of the rest); the final's winners are the champions, ranked first."""

    async def scenario(hub: Hub, director: Director) -> None:
        await hub.store.write(TN.create(tournament(TN.ELIMINATION, None, checkin=START), 3))
        ids = await sign_up(hub, 10, 0)  # check-in is open from the start: checked in at once
        await director.step(START)
        first = await detail(hub)
        assert first["status"] == TN.RUNNING
        tables = tables_of(hub, first, 1)
        assert [t.players for t in tables] == [5, 5]
        assert sorted(s.user_id or "" for t in tables for s in t.seats) == ids
        for t in tables:
            await play_out(t)
        await director.step(START + 60)
        second = await detail(hub)
        won = {
            s["user_id"]
            for tb in second["round_tables"][0]["tables"]
            for s in tb["seats"]
            if s["won"]
        }
        (final,) = tables_of(hub, second, 2)
        finalists = {s.user_id for s in final.seats}
        assert len(finalists) == 5
        assert won <= finalists if len(won) <= 5 else finalists <= won
        out = {e["user_id"] for e in second["entrants"] if e["state"] == TN.OUT}
        assert out == set(ids) - finalists
        await play_out(final)
        await director.step(START + 120)
        done = await detail(hub)
        assert done["status"] == TN.FINISHED
        winners = {s["user_id"] for s in done["round_tables"][1]["tables"][0]["seats"] if s["won"]}
        assert set(done["champions"]) == winners and winners
        top = done["standings"][: len(winners)]
        assert {ln["user_id"] for ln in top} == winners and all(ln["champion"] for ln in top)
        assert top[0]["rank"] == 1  # (among them by points: who won more on her way)
        # then the finalists who lost, then those out in round 1
        rest = [ln["user_id"] for ln in done["standings"][len(winners) :]]
        assert set(rest[: 5 - len(winners)]) == finalists - winners

    with_hub(tmp_path, scenario)


def test_a_round_stored_by_a_node_that_died_is_opened_by_another(tmp_path: Path) -> None:
    """A node stored round 1 and died before opening its table: after ``REOPEN_AFTER`` any
    director opens it, with the people the round seated."""

    async def scenario(hub: Hub, director: Director) -> None:
        await hub.store.write(TN.create(tournament(checkin=START), 3))
        ids = await sign_up(hub, 5, 0)
        await hub.store.write(TN.begin("Tcup", dict.fromkeys(ids, 0.0)))
        tid = table_id("Tcup", 1, 1)
        await hub.store.write(TN.add_round("Tcup", 1, [(tid, ids)], START))
        await director.step(START + 1)
        assert hub.get(tid) is None  # the node that stored it may still be opening it
        await director.step(START + REOPEN_AFTER)
        table = hub.get(tid)
        assert table is not None and table.status == "playing"
        assert [s.user_id for s in table.seats] == ids
        with pytest.raises(TN.StepTaken, match="round 1 was seated already"):  # no second one
            await hub.store.write(TN.add_round("Tcup", 1, [], START))

    with_hub(tmp_path, scenario)


def test_who_withdraws_plays_no_further_round(tmp_path: Path) -> None:
    async def scenario(hub: Hub, director: Director) -> None:
        await hub.store.write(TN.create(tournament(checkin=START), 3))
        ids = await sign_up(hub, 6, 0)
        await director.step(START)
        (table,) = tables_of(hub, await detail(hub), 1)
        await hub.store.write(TN.withdraw("Tcup", ids[0]))
        with pytest.raises(LobbyError) as err:
            await hub.store.write(TN.withdraw("Tcup", ids[0]))
        assert err.value.code == "not_entered"
        await play_out(table)
        await director.step(START + 60)
        found = await detail(hub)
        (second,) = tables_of(hub, found, 2)
        assert ids[0] not in {s.user_id for s in second.seats} and second.players == 5
        line = next(ln for ln in found["standings"] if ln["user_id"] == ids[0])
        assert line["state"] == TN.WITHDRAWN and line["games"] == 1  # her game still counts

    with_hub(tmp_path, scenario)


def test_a_player_a_stand_in_played_for_scores_nothing_and_is_dropped(tmp_path: Path) -> None:
    """Away for her whole game (a stand-in made every move of her seat): 0 points whatever her
    team did, ``left`` in the standings and on her seat, and no seat in round 2."""

    async def scenario(hub: Hub, director: Director) -> None:
        await hub.store.write(TN.create(tournament(checkin=START), 3))
        await sign_up(hub, 6, 0)
        await director.step(START)
        (table,) = tables_of(hub, await detail(hub), 1)
        away = 1
        gone = table.seats[away].user_id
        await play_out(table, away)
        await director.step(START + 60)
        found = await detail(hub)
        seat = found["round_tables"][0]["tables"][0]["seats"][away]
        assert seat["user_id"] == gone and seat["left"] is True and seat["points"] == 0
        line = next(ln for ln in found["standings"] if ln["user_id"] == gone)
        assert line["left"] == 1 and line["points"] == 0 and line["state"] == TN.DROPPED
        others = [s for s in found["round_tables"][0]["tables"][0]["seats"] if s["seat"] != away]
        assert all(s["points"] == (1.0 if s["won"] else 0.0) for s in others)  # flat scoring
        (second,) = tables_of(hub, found, 2)
        assert gone not in {s.user_id for s in second.seats} and second.players == 5

    with_hub(tmp_path, scenario)


def test_a_tournament_without_check_in_starts_with_everyone_signed_up(tmp_path: Path) -> None:
    async def scenario(hub: Hub, director: Director) -> None:
        await hub.store.write(TN.create(tournament(checkin=0.0), 3))
        ids = await sign_up(hub, 4, START - 7200)
        with pytest.raises(LobbyError) as err:  # the host's start: five signed up are needed
            await hub.store.write(TN.start_now("Tcup", "host", START - 3600, 5))
        assert err.value.code == "too_few_checked_in"
        ids += await sign_up_one(hub, "u99")
        await hub.store.write(TN.start_now("Tcup", "host", START - 3600, 5))
        await director.step(START - 3600)
        found = await detail(hub)
        assert found["status"] == TN.RUNNING
        assert {e["user_id"]: e["state"] for e in found["entrants"]} == dict.fromkeys(
            ids, TN.PLAYING
        )

    with_hub(tmp_path, scenario)


def test_a_monarchists_game_scores_the_winners_the_engine_names(tmp_path: Path) -> None:
    """At a table with the Monarchist his win is his own (docs/game-types.md): the results
    count as won exactly the seats the engine's game names, replayed from the stored game."""

    async def scenario(hub: Hub, director: Director) -> None:
        rules = {"preset": "secrethitler-io", "avalon": "percival", "monarchist": True}
        t = dataclasses.replace(tournament(checkin=START), rules=rules, players=7)
        await hub.store.write(TN.create(t, 3))
        await sign_up(hub, 7, 0)
        await director.step(START)
        (table,) = tables_of(hub, await detail(hub), 1)
        await play_out(table)
        assert table.game is not None and table.game.winners is not None
        await director.step(START + 60)
        (played,) = (await detail(hub))["round_tables"][0]["tables"]
        won = sorted(s["seat"] for s in played["seats"] if s["won"])
        assert won == sorted(table.game.winners)
        roles = [s["role"] for s in played["seats"]]
        assert "monarchist" in roles

    with_hub(tmp_path, scenario)
