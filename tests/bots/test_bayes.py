"""The `bayes` bot: always legal, truthful as a liberal, fast enough for a table of 10."""

from __future__ import annotations

import time

import pytest

from secret_hitler.bots import make_agent
from secret_hitler.engine import Game
from secret_hitler.sim.simulator import Lineup, play_game


@pytest.mark.parametrize("players", [5, 6, 7, 8, 9, 10])
@pytest.mark.parametrize("lineup", [("bayes", "bayes"), ("bayes", "random"), ("random", "bayes")])
def test_bayes_plays_legal_games(players: int, lineup: tuple[str, str]) -> None:
    for i in range(6):
        result, game = play_game(players, Lineup(*lineup), seed=1000 * players + i)
        assert game.finished and result.winner in ("liberal", "fascist")


@pytest.mark.parametrize("players", [5, 7, 10])
def test_act_with_the_full_legal_list(players: int) -> None:
    """Server style: claims mixed into the legal actions; the answer is still legal."""
    for seed in range(5):
        game = Game(players, seed=seed)
        agents = [make_agent("bayes", s, seed) for s in range(players)]
        while not game.finished:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            action = agents[seat].act(game.view(seat), legal)
            assert action in legal
            game.apply(action)


def test_liberals_claim_the_truth() -> None:
    for seed in range(30):
        _, game = play_game(7, Lineup("bayes", "bayes"), seed=seed)
        drew: dict[int, list[str]] = {}
        last_session = None
        for e in game.events:
            if e.type == "legislative_session":
                last_session = (e.data["president"], e.data["chancellor"])
            elif e.type == "drew" and last_session:
                drew[last_session[0]] = sorted(e.data["policies"])
            elif e.type == "claim" and e.data["subject"] == "president_hand":
                seat = e.data["seat"]
                if game.roles[seat].value == "liberal":
                    assert sorted(e.data["policies"]) == drew[seat]


def test_decision_time_at_ten_players() -> None:
    times: list[float] = []

    class Timed:
        def __init__(self, seat: int) -> None:
            self.inner = make_agent("bayes", seat, seat)

        def act(self, view, legal):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            out = self.inner.act(view, legal)
            times.append(time.perf_counter() - t)
            return out

        def claims(self, view, options):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            out = self.inner.claims(view, options)
            times.append(time.perf_counter() - t)
            return out

    for seed in range(6):
        play_game(10, Lineup("bayes", "bayes"), seed=seed, agents=[Timed(s) for s in range(10)])  # type: ignore[misc]
    times.sort()
    median = times[len(times) // 2]
    p99 = times[int(len(times) * 0.99)]
    assert median < 0.002 and p99 < 0.020, (median, p99)


def test_registered() -> None:
    agent = make_agent("bayes", 3, 1)
    assert agent.name == "bayes"
    assert make_agent("bayes-human", 0, 1).name == "bayes-human"
