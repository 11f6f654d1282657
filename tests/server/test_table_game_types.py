"""secrethitler.io's table settings on a table built in-process (table_support.py): a timer's
move is the engine's forced move, a silent table keeps its players quiet and an emote-only one
takes reactions, a blind table plays by aliases and says no real name until the end, and every
bot level sits and stands in at a table that deals the new roles (docs/game-types.md)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from typing import Any

import pytest
from table_support import (
    WAIT,
    Agrees,
    FakeClock,
    FakeWriter,
    Notes,
    frames,
    people,
    run,
    services,
    settle,
)

from secret_hitler import talk
from secret_hitler.engine import Game, game_from_record
from secret_hitler.engine.record import parse_table
from secret_hitler.server.accounts.auth import User
from secret_hitler.server.core.protocol import Hello, ProtocolError
from secret_hitler.server.table import usecases
from secret_hitler.server.table.blind import UNKNOWN, draw_aliases
from secret_hitler.server.table.conn import Conn
from secret_hitler.server.table.options import REACTIONS, reaction_line
from secret_hitler.server.table.seats import Seat
from secret_hitler.server.table.services import Services
from secret_hitler.server.table.session import Table
from secret_hitler.server.table.settings import TableSettings

AVALON = {"preset": "secrethitler-io", "avalon": "percival"}


def _table(svc: Services, seats: list[Seat], rules: Any = "official", **kw: Any) -> Table:
    settings = TableSettings(
        players=len(seats), rules=rules, bot_level=kw.pop("bot_level", "random"), **kw
    )
    return Table(svc, settings, id="t1", host="u0", host_name="P0", invite="invite", seats=seats)


def _connect(table: Table, user: User | None) -> Conn:
    conn = Conn(None, user)
    table.attach(conn)
    table.hello(conn, Hello(type="hello"))
    return conn


async def _start(table: Table) -> Game:
    async with table.lock:
        await table.start_game()
    assert table.game is not None
    return table.game


async def _time_out(table: Table, clock: FakeClock, writer: FakeWriter) -> None:
    """Let the table's timer run out once and wait for the move it makes."""
    before = len(writer.actions())
    assert table.timer is not None
    clock.advance(float(table.timer))
    table.driver.wake.set()
    for _ in range(2000):
        if len(writer.actions()) > before:
            return
        await settle(1)
    raise AssertionError("the timer made no move")


# ---------------------------------------------------------------------- the timer
def test_a_timed_out_decision_is_the_stand_ins_by_default() -> None:
    """A table's timer, as it always was (a play-by-post table's too): the move a person did not
    make in time is her stand-in bot's decision, never a random one; the record says so."""

    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        svc = services(writer, clock, notes, rng=random.Random(7), grace=1e9)
        table = _table(svc, people(7), timer=3 * 86400)
        table.driver.crew.make_agent = Agrees.make  # the stand-in: Ja, else its first move
        game = await _start(table)
        deal = game_from_record(game.to_record(), apply_actions=False)
        await _time_out(table, clock, writer)  # the nomination
        await _time_out(table, clock, writer)  # the votes, seat after seat
        while len(game.actions) < 8:
            await settle(1)
        for action in game.actions:
            legal = [a for a in deal.legal_actions(action.seat) if a.type != "claim"]
            assert action == Agrees(action.seat).choose(legal)
            deal.apply(action)
        assert all(a.ja for a in game.actions if a.type == "vote")  # no vote drawn at random
        assert set(table.action_by) == {"timer"}
        assert table.detail(False)["on_timeout"] == "standin"
        assert table.table_section()["on_timeout"] == "standin"
        await table.close()

    run(scenario)


def test_a_timed_out_decision_is_the_engines_forced_move_in_timed_mode() -> None:
    """A table whose host chose secrethitler.io's timed mode (``on_timeout: "random"``): the
    timer moves as the site's does, ``Game.forced_action`` with the table's random source (a
    stand-in bot plays only for people who are away); the record and the detail say so."""

    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        svc = services(writer, clock, notes, rng=random.Random(7), grace=1e9)
        table = _table(svc, people(7), AVALON, timer=60, on_timeout="random")
        table.driver.crew.make_agent = Agrees.make  # a stand-in that would move otherwise
        game = await _start(table)
        deal = game_from_record(game.to_record(), apply_actions=False)
        await _time_out(table, clock, writer)  # the nomination
        await _time_out(table, clock, writer)  # the votes, seat after seat
        while len(game.actions) < 8:
            await settle(1)
        rng = random.Random(7)  # the table's: each timed-out move is the engine's next draw
        for action in game.actions:
            assert action == deal.forced_action(action.seat, rng)
            deal.apply(action)
        assert set(table.action_by) == {"timer"}
        assert table.detail(False)["on_timeout"] == "random"
        record = table.record()
        assert parse_table(record["table"], 7)["on_timeout"] == "random"
        await table.close()

    run(scenario)


# ---------------------------------------------------------------------- chat modes
def test_a_silent_table_keeps_its_players_quiet_while_the_game_runs() -> None:
    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        table = _table(services(writer, clock, notes), people(), chat="silent")
        player = _connect(table, User("u1", "P1"))
        await table.chat_line(player, "good luck all")  # before the deal: free
        await _start(table)
        frames(player)
        with pytest.raises(ProtocolError) as quiet:
            await table.chat_line(player, "I am liberal")
        assert (quiet.value.code, quiet.value.detail) == ("chat_forbidden", "silent_game")
        async with table.lock:
            welcome = json.loads(frames(_connect(table, User("u1", "P1")))[0])
        assert welcome["silenced"] == "silent_game"
        # the claims stay open: they are actions
        game = table.game
        assert game is not None and table.chat_mode == "silent"
        await table.close()

    run(scenario)


def test_an_emote_only_table_takes_reactions_during_its_game() -> None:
    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        table = _table(services(writer, clock, notes), people(), chat="emotes")
        player = _connect(table, User("u1", "P1"))
        await table.chat_line(player, "hi all, glhf")  # before the deal: free
        await _start(table)
        for text in ("I am liberal", ":sus: 9", ":sus: :sus: :sus: :sus: 3", ":nope:", "3,4"):
            with pytest.raises(ProtocolError) as refused:
                await table.chat_line(player, text)
            assert refused.value.code == "chat_reactions_only"
        line, _ = await table.chat_line(player, "  :sus:   3  ")
        assert line["text"] == ":sus: 3"
        assert [c["text"] for c in table.chat.lines] == ["hi all, glhf", ":sus: 3"]
        await table.close()

    run(scenario)


def test_a_reaction_line_is_reactions_and_seat_numbers() -> None:
    assert reaction_line(":ja: :nein:", 5) == ":ja: :nein:"
    assert all(reaction_line(f":{r}:", 5) for r in REACTIONS)
    for bad in ("", "5 6", ":JA:", "::", "１", ":sus:3", "0"):
        with pytest.raises(ProtocolError):
            reaction_line(bad, 5)


def test_bots_talk_only_at_tables_whose_chat_is_free() -> None:
    async def scenario() -> None:
        for chat, said in (("free", True), ("emotes", False), ("silent", False)):
            writer, clock, notes = FakeWriter(), FakeClock(), Notes()
            seats = [Seat("human", "u0", "P0")]
            seats += [Seat("bot", None, f"Bot {i + 1}", "rule") for i in range(1, 5)]
            table = _table(services(writer, clock, notes, grace=1e9), seats, chat=chat)
            await _start(table)
            assert await table.bot_chat(1, talk.Accuse(3, talk.HEDGED)) is said, chat
            await table.close()

    run(scenario)


# ---------------------------------------------------------------------- blind tables
def _names_in(text: str, names: list[str]) -> list[str]:
    return [n for n in names if n in text]


def test_a_blind_table_says_no_real_name_until_its_game_ends() -> None:
    """Every frame each person gets (details, welcome, updates, chat) and every detail the lobby
    gives holds no other seat's real name or user id before the end; the game itself is played
    by the aliases; the end shows the real names and the record keeps both."""

    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        svc = services(writer, clock, notes, grace=1e9)
        seats = [Seat("human", f"user{i}", f"Realname{i}") for i in range(5)]
        table = _table(svc, seats, blind="en", timer=60)
        conns = [_connect(table, User(f"user{i}", f"Realname{i}")) for i in range(5)]
        watcher = _connect(table, None)
        await table.chat_line(conns[1], "hello from seat two")
        game = await _start(table)
        assert table.aliases is not None and list(game.names or ()) == table.aliases
        await table.chat_line(conns[2], "who is hitler")
        for _ in range(8):
            await _time_out(table, clock, writer)
        lobby = [table.detail(False, None), table.detail(True, "user3")]
        for i, conn in enumerate(conns):
            others = [f"Realname{j}" for j in range(5) if j != i]
            others += [f"user{j}" for j in range(5) if j != i]
            for text in frames(conn):
                assert _names_in(text, others) == [], (i, text[:300])
        seen = "".join(frames(watcher)) + json.dumps(lobby[0])
        assert _names_in(seen, [f"Realname{j}" for j in range(5)]) == []
        assert _names_in(json.dumps(lobby[1]), ["Realname0", "user0"]) == []
        assert lobby[1]["host"] is None and lobby[1]["host_name"] is None
        own = lobby[1]["seats"][3]
        assert own["user_id"] == "user3" and own["name"] == table.aliases[3]
        # the end: every name shown, the record keeping the aliases beside them
        while not game.finished:
            seat = game.to_act()[0]
            await table.submit(seat, game.forced_action(seat, random.Random(1)))
        detail = table.detail(False, None)
        assert [s["name"] for s in detail["seats"]] == [f"Realname{i}" for i in range(5)]
        record = table.record()
        assert record["players"] == [f"Realname{i}" for i in range(5)]
        assert parse_table(record["table"], 5) == {
            "chat": "free",
            "blind": True,
            "aliases": table.aliases,
            "turn_timer": 60,
            "on_timeout": "standin",
            "category": "casual",
        }
        assert game_from_record(record).winner == game.winner
        assert any("Realname2" in text for text in frames(watcher))
        await table.close()

    run(scenario)


def test_before_the_deal_a_blind_table_shows_each_person_only_her_own_name() -> None:
    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        seats = [Seat("human", "u0", "Ann"), Seat("bot", None, "Bot 2", "rule"), Seat()]
        seats += [Seat("human", "u3", "Cid"), Seat()]
        table = _table(services(writer, clock, notes), seats, blind="ru")
        mine = table.detail(True, "u3")
        names = [s["name"] for s in mine["seats"]]
        assert names == [UNKNOWN, "Bot 2", None, "Cid", None]
        assert [s["user_id"] for s in mine["seats"]] == [None, None, None, "u3", None]
        host = table.detail(True, "u0")
        assert host["host"] == "u0" and host["seats"][0]["name"] == "Ann"
        assert table.detail(False, None)["blind"] is True
        await table.close()

    run(scenario)


def test_aliases_are_adjective_and_animal_in_the_tables_language() -> None:
    rng = random.Random(3)
    for lang in ("en", "ru", "vi", "zh-Hans", "zh-Hant"):
        aliases = draw_aliases(10, lang, rng)
        assert len(set(aliases)) == 10
        if lang in ("en", "ru", "vi"):
            words = [a.split() for a in aliases]
            assert all(len(w) >= 2 for w in words)
            assert len({w[0] for w in words}) == 10  # no word twice
    assert draw_aliases(2, "ru", random.Random(0))  # gendered forms exist for every animal


# ---------------------------------------------------------------------- bots and the new roles
def test_every_bot_level_sits_and_stands_in_at_an_avalon_table_to_its_end() -> None:
    """Every bot level plays every game type (docs/bots.md "Game types"): at a table of Avalon
    SH with Percival the host seats bayes and search bots and fills the rest with bayes-human,
    the person who never came is played by the server's stand-in level (bayes), and the game
    reaches its end with every bot its own level (none fell back to the rule bot)."""

    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        # grace 0: the person who never connected is away at once, her stand-in moves for her
        svc = dataclasses.replace(services(writer, clock, notes, grace=0.0), standin_level="bayes")
        seats = [Seat("human", "u0", "P0"), *[Seat() for _ in range(6)]]
        table = _table(svc, seats, AVALON, bot_level="bayes")
        host = User("u0", "P0")
        assert await usecases.add_bot(table, host, 1, None) == 1  # the table's level: bayes
        assert await usecases.add_bot(table, host, 2, "search") == 2
        await usecases.start(table, host, "bayes-human")
        levels = ["bayes", "search", *["bayes-human"] * 4]
        assert [s.level for s in table.seats] == [None, *levels]
        game = table.game
        assert game is not None
        await asyncio.wait_for(notes.over.wait(), WAIT)
        assert game.finished and table.status == "finished"
        crew = table.driver.crew
        assert [crew.bots[s].agent.name for s in range(1, 7)] == levels
        assert crew.standin_level == "bayes" and crew.standins[0].agent.name == "bayes"
        mine = [by for a, by in zip(game.actions, table.action_by, strict=True) if a.seat == 0]
        assert mine and set(mine) == {"absent"}  # every move of hers her stand-in's
        record = table.record()
        assert {"merlin", "percival"} <= set(record["roles"])
        assert game_from_record(record).winner == game.winner  # the record replays to its end
        await table.close()

    run(scenario)


def test_rule_bots_play_an_avalon_table_to_its_assassination() -> None:
    """A whole game of rule bots at a table of Avalon SH with Percival and the Monarchist: the
    game ends, and when the liberals' trigger came Hitler named a target."""

    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        rules = {**AVALON, "monarchist": True}
        seats = [Seat("bot", None, f"Bot {i + 1}", "rule") for i in range(7)]
        table = _table(services(writer, clock, notes), seats, rules, bot_level="rule")
        table.fixings = None
        game = await _start(table)
        await asyncio.wait_for(notes.over.wait(), WAIT)
        kinds = [e.type for e in game.events]
        assert game.finished and ("assassination" in kinds) == ("assassinated" in kinds)
        assert table.record()["result"]["winners"] == list(game.winners or ())
        await table.close()

    run(scenario)
