"""A person gets time to claim (``SH_CLAIM_WAIT``, docs/server.md): after a government with a
person in it, a bot candidate waits before it nominates, for every window that government
opened (a president who peeked has the peek to claim too), and nominates as soon as the person
has claimed them all; without her claims, once the wait has passed.

On the table's clock with a fixed deal (table_support.py): the same game every run, and the
wait costs nothing. Ada (seat 0, a person) is the third president and the first
three hands are three fascist policies, so her government enacts the third fascist policy and
she peeks. The bots vote Ja and take their first legal move; Ada does the same, and claims
every window she has at once until her own government's (test_table.py has the wait for a
hand alone)."""

from __future__ import annotations

from typing import Any

import pytest
from table_support import (
    Agrees,
    FakeClock,
    FakeWriter,
    Notes,
    make_table,
    run,
    services,
    settle,
)

from secret_hitler.engine import Game
from secret_hitler.server.accounts.auth import User
from secret_hitler.server.core.config import Settings
from secret_hitler.server.core.protocol import Hello
from secret_hitler.server.table.conn import Conn
from secret_hitler.server.table.seats import Seat
from secret_hitler.server.table.session import Table

WAIT = 45.0  # SH_CLAIM_WAIT of the test (not the default, 20 s)


def _deal(table: Table) -> None:
    """Seat 3 is the first president, Ada the third; the first three hands are fascist."""
    table.fixings = {
        "roles": ["liberal", "liberal", "liberal", "fascist", "hitler"],
        "first_president": 3,
        "deck": ["fascist"] * 9 + ["liberal"] * 6 + ["fascist"] * 2,
    }


def _claim(game: Game, subject: str) -> dict[str, Any]:
    """Ada's first legal claim of ``subject``."""
    return next(
        a for a in game.legal_actions(0) if a.type == "claim" and a.subject == subject
    ).to_json()


async def _ada_plays_until_her_government_is_over(table: Table, game: Game) -> None:
    """Ada votes Ja, takes her first legal move and claims every window at once, until a bot
    is the candidate after her presidency (her hand and her peek still unclaimed)."""
    for _ in range(10_000):
        if game.phase.value == "nominate" and game.round == 4:
            assert game.candidate == 1 and game.open_claims(0) == ("president_hand", "peek")
            return
        if game.round < 3:
            for subject in game.open_claims(0):  # a chancellor's hand: claimed at once
                await table.play(0, _claim(game, subject))
        if 0 in game.to_act():
            turn = [a for a in game.legal_actions(0) if a.type != "claim"]
            ja = [a for a in turn if a.type == "vote" and a.ja]
            await table.play(0, (ja or turn)[0].to_json())
        await settle(1)
    raise AssertionError(f"the deal went elsewhere: round {game.round}, {game.phase.value}")


async def _to_the_bot_candidate(claim_wait: float) -> tuple[Table, FakeClock, Game]:
    writer, clock, notes = FakeWriter(), FakeClock(), Notes()
    seats = [Seat("human", "u0", "Ada")] + [
        Seat("bot", None, f"Bot {i}", "random") for i in range(1, 5)
    ]
    table = make_table(services(writer, clock, notes, claim_wait=claim_wait), seats)
    _deal(table)
    table.driver.crew.make_agent = Agrees.make
    ada = Conn(None, User("u0", "Ada"))  # connected: a bot waits for people who are there
    table.attach(ada)
    async with table.lock:
        table.hello(ada, Hello(type="hello"))
        await table.start_game()
    game = table.game
    assert game is not None and game.candidate == 3
    await _ada_plays_until_her_government_is_over(table, game)
    return table, clock, game


async def _held(table: Table, game: Game) -> bool:
    """Whether the candidate still waits, once everything that can run has run."""
    table.driver.wake.set()
    await settle(200)
    return game.phase.value == "nominate"


async def _nominated(table: Table, game: Game) -> None:
    table.driver.wake.set()
    for _ in range(1000):
        if game.phase.value != "nominate":
            break
        await settle(1)
    assert game.phase.value == "vote", game.phase


def test_the_bot_candidate_waits_for_every_window_then_nominates_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Her hand claimed, the candidate still waits for her peek; both claimed, it nominates at
    once, with most of the wait left. The wait is SH_CLAIM_WAIT's."""
    monkeypatch.setenv("SH_CLAIM_WAIT", str(WAIT))

    async def scenario() -> None:
        table, clock, game = await _to_the_bot_candidate(Settings.from_env().claim_wait)
        clock.advance(WAIT - 1)
        assert await _held(table, game), "the bot nominated before Ada could claim"
        await table.play(0, _claim(game, "president_hand"))
        assert await _held(table, game), "the bot nominated before Ada claimed her peek"
        await table.play(0, _claim(game, "peek"))
        await _nominated(table, game)
        assert [a.type for a in game.actions[-3:]] == ["claim", "claim", "nominate"]
        assert game.actions[-1].seat == 1
        await table.close()

    run(scenario)


def test_without_her_claims_the_bot_candidate_nominates_when_the_wait_is_over() -> None:
    async def scenario() -> None:
        table, clock, game = await _to_the_bot_candidate(WAIT)
        clock.advance(WAIT - 1)
        assert await _held(table, game)
        clock.advance(1)
        await _nominated(table, game)
        assert game.actions[-1].type == "nominate" and game.actions[-1].seat == 1
        assert game.open_claims(0) == ("president_hand", "peek")  # she may still claim
        await table.close()

    run(scenario)
