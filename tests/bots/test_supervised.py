"""A bot seat under its contract (``bots.supervised``): whatever the seat's agent does, the host
gets an answer it may play, and who made it; what failed is logged."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import pytest

from secret_hitler.bots import Agent, make_agent
from secret_hitler.bots.base import decide
from secret_hitler.bots.supervised import FALLBACK, FALLBACK_LEVEL, Decided, Supervised, supervise
from secret_hitler.engine import Action, Game
from secret_hitler.engine.actions import CLAIM
from secret_hitler.talk import HEDGED, Accuse
from secret_hitler.talk.said import Said


def _turn(game: Game) -> tuple[int, list[Action]]:
    seat = game.to_act()[0]
    return seat, [a for a in game.legal_actions(seat) if a.type != CLAIM]


def _first_claims(seed: int = 1) -> tuple[Game, int, list[Action]]:
    """A game played by rule bots until a seat has a claim to make, and that seat's options."""
    game = Game(5, "official", seed)
    bots = [make_agent("rule", s, s) for s in range(5)]
    while not game.claimants():
        seat, legal = _turn(game)
        game.apply(bots[seat].act(game.view(seat), legal))
    seat = game.claimants()[0]
    return game, seat, [a for a in game.legal_actions(seat) if a.type == CLAIM]


class Raises(Agent):
    name = "raising"

    def act(self, view: Any, legal: Sequence[Action]) -> Action:
        raise RuntimeError("boom")

    def claims(self, view: Any, options: Sequence[Action]) -> list[Action]:
        raise RuntimeError("boom")

    def speak(self, view: Any) -> list[Any]:
        raise RuntimeError("boom")

    def listen(self, view: Any, said: Any) -> None:
        raise RuntimeError("boom")


class OffList(Agent):
    name = "off-list"

    def act(self, view: Any, legal: Sequence[Action]) -> Action:
        return Action(self.seat, "nominate", target=self.seat)  # never legal: oneself


class Hangs(Agent):
    """Never answers (its thought never ends)."""

    name = "hanging"

    async def act_async(self, view: Any, legal: Sequence[Action]) -> Action:
        await asyncio.get_running_loop().create_future()
        raise AssertionError("unreachable")


class Model(Agent):
    """A waiting agent (``Waits``) whose own fallback settled its turn."""

    name = "model"

    async def turn(self, view: Any, legal: Sequence[Action], deadline: float | None = None) -> Any:
        return Decided(legal[0], FALLBACK)

    async def claim(
        self, view: Any, options: Sequence[Action], deadline: float | None = None
    ) -> Any:
        return Decided([options[0]], "model")


def _decide(bot: Supervised, game: Game) -> tuple[Decided[Action], list[Action]]:
    seat, legal = _turn(game)
    return asyncio.run(bot.decide(game.view(seat), legal)), legal


def test_an_agent_that_raises_costs_the_move_not_the_seat(caplog: Any) -> None:
    game = Game(5, "official", 3)
    seat, _ = _turn(game)
    bot = Supervised(Raises(seat), seat, 7)
    with caplog.at_level(logging.WARNING):
        decided, legal = _decide(bot, game)
    assert decided.value in legal and decided.by is None  # a computing bot's: not announced
    assert "bot raising failed; rule moves instead" in caplog.text
    assert bot.agent is bot.own  # asked again next time


def test_an_answer_off_the_list_is_the_fallbacks_move(caplog: Any) -> None:
    game = Game(5, "official", 3)
    seat, _ = _turn(game)
    bot = Supervised(OffList(seat), seat, 7)
    with caplog.at_level(logging.WARNING):
        decided, legal = _decide(bot, game)
    assert decided.value in legal
    fallback = make_agent(FALLBACK_LEVEL, seat, 7)  # the same seed: the same move
    assert decided.value == fallback.act(game.view(seat), legal)
    assert "not among its legal actions" in caplog.text


def test_a_bot_that_overruns_its_time_loses_the_seat_for_good(caplog: Any) -> None:
    game = Game(5, "official", 3)
    seat, _ = _turn(game)
    bot = Supervised(Hangs(seat), seat, 7, timeout=0.01)
    with caplog.at_level(logging.ERROR):
        decided, legal = _decide(bot, game)
    assert decided.value in legal
    assert bot.agent is bot.fallback and bot.agent.name == FALLBACK_LEVEL
    assert f"bot hanging thought longer than 0.01 s; seat {seat} plays rule from now on" in (
        caplog.text
    )


def test_a_waiting_agents_fallback_is_announced() -> None:
    game = Game(5, "official", 3)
    seat, _ = _turn(game)
    decided, legal = _decide(Supervised(Model(seat), seat), game)
    assert decided == Decided(legal[0], FALLBACK)


def test_claims_a_failing_agent_did_not_make_are_its_fallbacks(caplog: Any) -> None:
    game, seat, options = _first_claims()
    view = game.view(seat)
    bot = Supervised(Raises(seat), seat, 5)
    with caplog.at_level(logging.ERROR):
        decided = asyncio.run(bot.claims(view, options))
    assert decided.by is None and "bot claims hook failed" in caplog.text
    fallback = make_agent(FALLBACK_LEVEL, seat, 5)
    assert decided.value == fallback.claims(view, options)  # the rule bot's claims
    made = asyncio.run(Supervised(Model(seat), seat).claims(view, options))
    assert made == Decided([options[0]], None)  # the model's own claim


def test_talk_that_fails_says_nothing_and_hearing_never_raises(caplog: Any) -> None:
    game = Game(5, "official", 3)
    bot = Supervised(Raises(0), 0)
    with caplog.at_level(logging.ERROR):
        assert bot.speech(game.view(0)) == []
        bot.hear(game.view(0), [Said(1, 0, Accuse(2, HEDGED))])
    assert caplog.text.count("bot raising talk failed") == 2


def test_a_level_that_cannot_be_made_is_played_by_the_fallback(caplog: Any) -> None:
    def broken(level: str, seat: int, seed: int | None) -> Agent:
        raise ValueError(f"no level {level}")

    with caplog.at_level(logging.ERROR):
        bot = supervise("nonesuch", 2, 9, make=broken, people=[True, False, False, False, False])
    assert bot.agent.name == FALLBACK_LEVEL and bot.own is bot.agent
    assert "bot nonesuch could not be created; seat 2 plays rule" in caplog.text


@pytest.mark.parametrize("level", ["rule", "random"])
def test_a_bot_that_keeps_the_contract_answers_itself(level: str) -> None:
    """On a thread of its own (rule) or at once (random, which reads no view): its own move."""
    game = Game(5, "official", 4)
    seat, legal = _turn(game)
    bot = supervise(level, seat, 11, offload=asyncio.to_thread)
    decided = asyncio.run(bot.decide(game.view(seat), legal))
    assert decided == Decided(decide(make_agent(level, seat, 11), game.view(seat), legal))
    assert bot.agent is bot.own and bot.agent.name == level
