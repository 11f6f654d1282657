"""A table built without a hub or a server: its services are fakes (a writer that can fail, a
clock the test moves, listeners that take notes: table_support.py), so its commit, timers,
presence and chat are checked in-process, and the bot driver is checked with a submit of the
test's own."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Callable
from typing import Any

import pytest
from table_support import (
    WAIT,
    Agrees,
    FakeClock,
    FakeWriter,
    Notes,
    first_move,
    frames,
    make_table,
    people,
    run,
    services,
    settle,
)

from secret_hitler.bots import Agent
from secret_hitler.engine import Action, Game
from secret_hitler.server.accounts.auth import User
from secret_hitler.server.core.protocol import Hello, ProtocolError
from secret_hitler.server.storage.writer import StorageUnavailable
from secret_hitler.server.table import session
from secret_hitler.server.table.conn import Conn
from secret_hitler.server.table.driver import BotDriver
from secret_hitler.server.table.presence import Presence
from secret_hitler.server.table.seats import Seat, Seating
from secret_hitler.server.table.services import Services
from secret_hitler.server.table.session import Table


# ---------------------------------------------------------------------- the commit
def test_an_action_is_applied_once_and_a_failed_commit_undoes_it_on_the_one_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    applied: list[Action] = []
    apply = Game.apply

    def counted(game: Game, step: Any) -> None:
        applied.append(step)
        apply(game, step)

    def no_copy(game: Game) -> Game:
        raise AssertionError("the game was copied")

    def no_replay(*args: Any, **kwargs: Any) -> Game:
        raise AssertionError("the game was replayed")

    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        table = make_table(services(writer, clock, notes), people())
        async with table.lock:
            await table.start_game()
        game = table.game
        assert game is not None
        watcher = Conn(None, User("u0", "P0"))
        table.attach(watcher)
        async with table.lock:
            table.hello(watcher, Hello(type="hello"))
        frames(watcher)
        record, views = game.to_record(), [game.view(s).to_json() for s in range(5)]
        seat, action = first_move(game)

        monkeypatch.setattr(Game, "apply", counted)
        monkeypatch.setattr(Game, "clone", no_copy)
        monkeypatch.setattr(session, "game_from_record", no_replay)
        writer.fail = StorageUnavailable("the database is unavailable")
        with pytest.raises(ProtocolError) as refused:
            await table.submit(seat, action)
        assert refused.value.code == "unavailable"
        assert table.game is game  # the same game, the action undone
        assert table.game.to_record() == record
        assert [table.game.view(s).to_json() for s in range(5)] == views
        assert (table.seq, table.action_by, table.status) == (1, [], "playing")
        assert frames(watcher) == []  # nobody heard of it
        assert ("turn", "t1") in notes.said and len(writer.actions()) == 0

        writer.fail = None  # the database is back: the same move is played on the same game
        assert await table.submit(seat, action) == 2
        assert [w.idx for w in writer.actions()] == [0]
        assert table.game is game and table.game.actions == [action]
        assert applied == [action, action]  # once per submission: no second game to keep in step
        [update] = frames(watcher)
        assert '"type":"update","seq":2' in update
        await table.close()

    run(scenario)


def test_a_cancelled_commit_undoes_the_action_too() -> None:
    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        table = make_table(services(writer, clock, notes), people())
        async with table.lock:
            await table.start_game()
        assert table.game is not None
        record = table.game.to_record()
        seat, action = first_move(table.game)
        writer.fail = asyncio.CancelledError()  # the sender went away mid-commit
        with pytest.raises(asyncio.CancelledError):
            await table.submit(seat, action)
        assert table.game.to_record() == record and table.unsynced
        await table.close()

    run(scenario)


def test_a_refused_action_changes_nothing_and_stores_nothing() -> None:
    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        table = make_table(services(writer, clock, notes), people())
        with pytest.raises(ProtocolError) as early:
            await table.play(0, {"type": "nominate", "target": 1})
        assert early.value.code == "game_not_started"
        async with table.lock:
            await table.start_game()
        assert table.game is not None
        seat, action = first_move(table.game)
        other = (seat + 1) % 5
        cases = [
            (None, action.to_json(), "not_seated"),
            (seat, {**action.to_json(), "seat": other}, "not_your_seat"),
            (seat, {"type": "warp"}, "invalid_action"),
            (other, {**action.to_json(), "seat": other}, "not_your_turn"),
            (seat, {"type": "nominate", "target": seat}, "illegal_action"),
        ]
        for conn_seat, data, code in cases:
            with pytest.raises(ProtocolError) as refused:
                await table.play(conn_seat, data)
            assert refused.value.code == code
        assert table.seq == 1 and writer.actions() == []
        await table.close()

    run(scenario)


# ---------------------------------------------------------------------- timers and presence
def test_the_decision_timer_runs_on_the_given_clock() -> None:
    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        svc = services(writer, clock, notes, grace=1e9)  # no stand-in: only the timer moves
        table = make_table(svc, people(), timer=60)
        async with table.lock:
            await table.start_game()
        assert table.game is not None
        assert table.deadline == round(clock.time() + 60, 3)
        seat = table.game.to_act()[0]
        clock.advance(60.0)
        table.driver.wake.set()
        await asyncio.wait_for(writer.wrote.wait(), WAIT)
        [move] = writer.actions()
        assert (move.seat, move.by) == (seat, "timer")
        assert table.action_by == ["timer"]
        assert table.deadline == round(clock.time() + 60, 3)  # the next decision's
        await table.close()

    run(scenario)


def test_presence_and_the_stand_in_time_follow_the_clock() -> None:
    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        table = make_table(services(writer, clock, notes), people())
        conn = Conn(None, User("u2", "P2"))
        table.attach(conn)
        assert conn.seat == 2
        async with table.lock:
            table.hello(conn, Hello(type="hello"))
        welcome, detail = frames(conn)  # and everyone sees the seat connected
        assert '"type":"welcome"' in welcome and '"type":"table"' in detail
        assert table.connected(2) and table.detail(False)["seats"][2]["connected"]

        watcher = Conn(None, None)
        table.attach(watcher)
        async with table.lock:
            table.hello(watcher, Hello(type="hello"))
        frames(conn)
        clock.advance(0.5)
        assert frames(conn) == []  # spectators are gathered for presence_delay
        clock.advance(0.5)
        [gathered] = frames(conn)
        assert '"spectators":1' in gathered

        async with table.lock:
            await table.start_game()
        clock.advance(5.0)
        table.detach(conn)
        seat = table.detail(False)["seats"][2]
        assert not seat["connected"]
        assert seat["standin_at"] == round(clock.time() + 30.0, 2)
        await table.close()

    run(scenario)


# ---------------------------------------------------------------------- chat
def test_chat_is_stored_before_it_is_said() -> None:
    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        table = make_table(services(writer, clock, notes), people())
        player, watcher = Conn(None, User("u1", "P1")), Conn(None, User("w", "W"))
        for c in (player, watcher):
            table.attach(c)
            async with table.lock:
                table.hello(c, Hello(type="hello"))
        line, _ = await table.chat_line(player, "hello")
        assert (line["id"], line["seat"], line["ts"]) == (1, 1, round(clock.time(), 3))
        assert '"text":"hello"' in frames(watcher)[-1]

        async with table.lock:
            await table.start_game()
        with pytest.raises(ProtocolError) as spectator:
            await table.chat_line(watcher, "hi")
        assert spectator.value.detail == "spectator"
        writer.fail = StorageUnavailable("down")
        frames(watcher)
        with pytest.raises(ProtocolError) as unavailable:
            await table.chat_line(player, "lost")
        assert unavailable.value.code == "unavailable"
        assert [c["text"] for c in table.chat.lines] == ["hello"] and table.chat.next_id == 2
        assert frames(watcher) == []
        await table.close()

    run(scenario)


# ---------------------------------------------------------------------- bots
def test_bots_play_a_whole_game_through_the_table() -> None:
    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        bots = [Seat("bot", None, f"Bot {i + 1}", "random") for i in range(5)]
        table = make_table(services(writer, clock, notes), bots)
        async with table.lock:
            await table.maybe_autostart()  # every seat is taken: it starts
        await asyncio.wait_for(notes.over.wait(), WAIT)
        game = table.game
        assert game is not None and game.finished and table.status == "finished"
        moves = writer.actions()
        assert [w.idx for w in moves] == list(range(len(game.actions)))
        assert moves[-1].finished is not None and moves[-1].table_update == {"status": "finished"}
        assert notes.said[-3:] == [("finished", "t1"), ("idle", "t1"), ("game_over", "t1")]
        assert table.action_by == [None] * len(game.actions)
        await table.close()

    run(scenario)


def bots_driver(
    svc: Services, clock: FakeClock, game: Game, moved: Callable[[int, Action, str | None], None]
) -> BotDriver:
    """A driver of five ``random`` bots playing ``game`` through a submit of the test's own: it
    checks each move, applies it and tells ``moved``."""
    seating = Seating([Seat("bot", None, f"Bot {i}", "random") for i in range(5)], "", "", set())
    presence = Presence(seating, clock, 1.0, lambda: None)

    async def submit(
        seat: int,
        action: Action,
        by: str | None = None,
        expect: tuple[int, str, int] | None = None,
    ) -> int:
        assert expect in (None, (game.round, game.phase.value, len(game.actions)))
        assert action in game.legal_actions(seat)
        game.apply(action)
        moved(seat, action, by)
        driver.schedule()
        return len(game.actions) + 1

    log = logging.LoggerAdapter(logging.getLogger("test"), {})
    driver = BotDriver(submit, lambda: game, seating, presence, svc, log, None, "random")
    return driver


def test_the_driver_moves_through_the_submit_it_holds() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        svc = services(FakeWriter(), clock, Notes())
        game = Game(5, "official", 7)
        moves: list[tuple[int, Action, str | None]] = []
        done = asyncio.Event()

        def moved(seat: int, action: Action, by: str | None) -> None:
            moves.append((seat, action, by))
            if game.finished:
                done.set()

        driver = bots_driver(svc, clock, game, moved)
        driver.start(name="driven")
        await asyncio.wait_for(done.wait(), WAIT)
        assert [a for _, a, _ in moves] == game.actions
        assert {by for _, _, by in moves} == {None}
        await driver.stop()
        assert driver.task is None

    run(scenario)


# ---------------------------------------------------------------------- when a bot's move leaves

Moves = list[tuple[int, Action, float]]


def _timed_moves(
    think: Callable[[Any, list[Action]], float],
    enough: Callable[[Moves, Game], bool],
    bot_delay: float = 1.0,
) -> tuple[float, Moves]:
    """A table of five bots on the table's clock (moved in steps of 10 ms until ``enough``),
    each decision taking ``think(agent, legal)`` seconds of it, with the same random source for
    the delays: (when the driver started, [(seat, move, when it left)])."""
    out: Moves = []

    async def scenario() -> float:
        clock = FakeClock()
        svc = services(FakeWriter(), clock, Notes(), rng=random.Random(5), bot_delay=bot_delay)
        game = Game(5, "official", 7)
        driver = bots_driver(
            svc,
            clock,
            game,
            lambda seat, action, by: out.append((seat, action, round(clock.now, 6))),
        )

        class Thinks(Agent):
            """Takes ``think(self, legal)`` seconds of the table's clock, then its last move."""

            async def act_async(self, view: Any, legal: list[Action]) -> Action:
                done = asyncio.get_running_loop().create_future()
                clock.call_later(think(self, legal), lambda: done.done() or done.set_result(None))
                await done
                return legal[-1]

        driver.crew.make_agent = lambda level, seat, seed: Thinks(seat)
        started = clock.now
        driver.start(name="timed")
        for _ in range(100_000):
            if enough(out, game) or game.finished:
                break
            clock.advance(0.01)
            driver.wake.set()
            await settle()
        await driver.stop()
        return started

    return asyncio.run(scenario()), out


def _bot_moves(think: float, count: int = 30) -> tuple[float, Moves]:
    """Every decision takes ``think`` seconds; the first ``count`` moves."""
    return _timed_moves(lambda agent, legal: think, lambda out, game: len(out) >= count)


def test_when_a_bots_move_leaves_does_not_depend_on_how_long_it_thought() -> None:
    """The delay is drawn first and the bot thinks inside it: a bot that thinks 0 s and one
    that thinks 0.4 s (less than the shortest delay, 0.5 s at ``bot_delay`` 1) move at the same
    times, given the same random source. A bot that thinks longer than its delay (2 s) moves
    when it is done."""
    started, quick = _bot_moves(0.0)
    _, slow = _bot_moves(0.4)
    assert len(quick) == 30 and slow == quick
    drawn = 0.5 + 1.0 * random.Random(5).random()  # the first decision's delay: U(0.5, 1.5)
    assert abs(quick[0][2] - (started + drawn)) <= 0.011
    _, slower = _bot_moves(2.0, count=1)
    assert abs(slower[0][2] - (started + 2.0)) <= 0.011


def test_a_bot_still_thinking_holds_up_no_other_move() -> None:
    """In a vote, one bot thinks 30 s of the table's clock (a slow model): the other bots'
    votes leave as soon as they are decided, and the slow one when it is done."""
    _, out = _timed_moves(
        lambda agent, legal: 30.0 if agent.seat == 1 and legal[0].type == "vote" else 0.0,
        lambda out, game: sum(1 for _, a, _ in out if a.type == "vote") >= 5,
        bot_delay=0.0,
    )
    nominated = next(when for _, a, when in out if a.type == "nominate")
    votes = [(seat, when) for seat, a, when in out if a.type == "vote"]
    assert len(votes) == 5 and votes[-1][0] == 1  # the slow bot's vote is the last
    assert all(when <= nominated + 0.1 for seat, when in votes[:-1])
    assert votes[-1][1] >= nominated + 30.0 - 0.011


# ---------------------------------------------------------------------- people's claims
def _rigged(table: Table) -> None:
    """Seat 0 (a person) is the first president; seats 3 and 4 are the fascists; the first
    hand is three fascist policies."""
    deck = ["fascist"] * 3 + ["liberal"] * 6 + ["fascist"] * 8
    table.fixings = {
        "roles": ["liberal", "liberal", "liberal", "fascist", "hitler"],
        "first_president": 0,
        "deck": deck,
    }


def test_a_bot_candidate_gives_the_last_governments_people_time_to_claim() -> None:
    """After Ada's government, the bot candidate waits ``claim_wait`` (20 s) for her claim:
    it has not nominated 19 s on, and nominates as soon as she claims; without a claim it
    nominates once the 20 s have passed."""

    async def scenario(claims: bool) -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        seats = [Seat("human", "u0", "Ada")] + [
            Seat("bot", None, f"Bot {i}", "random") for i in range(1, 5)
        ]
        table = make_table(services(writer, clock, notes, claim_wait=20.0), seats)
        _rigged(table)

        table.driver.crew.make_agent = Agrees.make  # the bots elect Ada's government
        ada = Conn(None, User("u0", "Ada"))
        table.attach(ada)
        async with table.lock:
            table.hello(ada, Hello(type="hello"))
            await table.start_game()
        game = table.game
        assert game is not None and game.candidate == 0
        await table.play(0, {"type": "nominate", "target": 1})
        await table.play(0, {"type": "vote", "ja": True})
        for _ in range(1000):  # the bots vote
            if game.phase.value == "discard":
                break
            await settle(1)
        await table.play(0, {"type": "discard", "policy": "fascist"})
        for _ in range(1000):  # the bot chancellor enacts
            if game.phase.value == "nominate":
                break
            await settle(1)
        assert game.candidate == 1 and "president_hand" in game.open_claims(0)
        clock.advance(19.0)
        table.driver.wake.set()
        await settle(200)
        assert game.phase.value == "nominate", "the bot nominated before Ada could claim"
        if claims:
            hand = ["fascist", "fascist", "fascist"]
            await table.play(0, {"type": "claim", "subject": "president_hand", "policies": hand})
        else:
            clock.advance(1.0)
            table.driver.wake.set()
        for _ in range(1000):
            if game.phase.value != "nominate":
                break
            await settle(1)
        assert game.phase.value == "vote"
        assert [a.type for a in game.actions[-2 if claims else -1 :]] == (
            ["claim", "nominate"] if claims else ["nominate"]
        )
        await table.close()

    run(lambda: scenario(True))
    run(lambda: scenario(False))


# ---------------------------------------------------------------------- moves made for a person
def _welcome(table: Table, user: User | None) -> dict[str, Any]:
    conn = Conn(None, user)
    table.attach(conn)
    table.hello(conn, Hello(type="hello"))
    [welcome, *_] = frames(conn)
    table.detach(conn)
    return json.loads(welcome)


def test_a_returning_person_is_told_what_was_played_for_them() -> None:
    """A fresh welcome (the tab was closed) marks in the log every move a stand-in made, for
    every seat and the spectators alike, and tells the person which of them were theirs since
    their own last move."""

    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        svc = services(writer, clock, notes, grace=1e9)  # the timer alone moves for people
        table = make_table(svc, people(), timer=60)
        async with table.lock:
            await table.start_game()
        game = table.game
        assert game is not None
        president = game.candidate
        for _ in range(2):  # the nomination, then the five votes, are made by the timer
            before = len(writer.actions())
            clock.advance(60.0)
            table.driver.wake.set()
            for _ in range(1000):
                if len(writer.actions()) > before and game.phase.value != "vote":
                    break
                await settle(1)
        assert table.action_by[:6] == ["timer"] * 6
        async with table.lock:
            mine = _welcome(table, User(f"u{president}", f"P{president}"))
            watching = _welcome(table, None)
        own_vote = 1 + [a.seat for a in game.actions[1:6]].index(president)
        assert mine["away"] == [0, own_vote] and watching["away"] == []
        for welcome in (mine, watching):
            marked = [e for e in welcome["view"]["events"] if "standin" in e]
            assert [(e["type"], e["standin"]["i"]) for e in marked] == [
                ("nominated", 0),
                *[("voted", i) for i in range(1, 6)],
            ]
            assert marked[0]["standin"] == {
                "by": "timer",
                "i": 0,
                "action": game.actions[0].public_json(),
            }
        await table.close()

    run(scenario)
