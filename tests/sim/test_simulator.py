"""The simulator: determinism across process counts, seeds, summaries, Wilson intervals."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from secret_hitler.bots import Agent, make_agent
from secret_hitler.engine import Action, Game, View, replay
from secret_hitler.sim import Lineup, SimConfig, game_seed, play_game, simulate, summarize, wilson
from secret_hitler.sim.simulator import (
    REASONS,
    SimulationError,
    derive_seed,
    make_agents,
    plot_summary,
    run_game,
    write_jsonl,
)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (5, 10, 0.236593, 0.763407),
        (0, 10, 0.0, 0.277530),
        (10, 10, 0.722470, 1.0),
        (81, 263, 0.255289, 0.366210),
        (1, 50, 0.003539, 0.104954),
    ],
)
def test_wilson_interval_known_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-5)
    assert hi == pytest.approx(high, abs=1e-5)


def test_wilson_bounds_solve_the_score_equation() -> None:
    # The Wilson bounds are the x with (p - x)^2 = z^2 x (1 - x) / n.
    z = 1.959963984540054
    for k, n in [(3, 7), (50, 2000), (1999, 2000), (123, 456)]:
        p = k / n
        for x in wilson(k, n):
            assert (p - x) ** 2 == pytest.approx(z * z * x * (1 - x) / n, rel=1e-9, abs=1e-15)


def test_wilson_without_trials_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_game_seeds_depend_on_run_seed_and_index_only() -> None:
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(1, i) for i in range(1000)}) == 1000
    assert game_seed(1, 0) != game_seed(2, 0)
    assert 0 <= game_seed(123, 456) < 2**63


def test_same_seed_gives_the_same_games_whatever_the_jobs() -> None:
    config = SimConfig(7, Lineup("rule", "random"), "official", seed=42)
    one = [r.to_json() for r in simulate(config, 24, jobs=1)]
    two = [r.to_json() for r in simulate(config, 24, jobs=2)]
    assert one == two
    assert [r["index"] for r in one] == list(range(24))
    other = [
        r.to_json() for r in simulate(SimConfig(7, Lineup("rule", "random"), "official", 43), 24)
    ]
    assert other != one


def test_a_game_is_reproducible_from_its_seed_and_record(tmp_path: Path) -> None:
    config = SimConfig(6, Lineup("rule", "rule"), "official", seed=7, record_dir=str(tmp_path))
    results = simulate(config, 5, jobs=1)
    again, _ = play_game(6, Lineup("rule", "rule"), "official", results[3].seed, index=3)
    assert again.to_json() == results[3].to_json()
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 5
    for result, path in zip(results, files, strict=True):
        replayed = replay(json.loads(path.read_text()))
        assert replayed.ok
        assert replayed.game is not None and replayed.game.winner is not None
        assert replayed.game.winner.value == result.winner


def test_roles_get_their_bots() -> None:
    result, _ = play_game(7, Lineup("random", "rule", hitler="random"), "official", 3)
    for role, bot in zip(result.roles, result.bots, strict=True):
        assert bot == ("rule" if role == "fascist" else "random")


def test_summary_and_outputs(tmp_path: Path) -> None:
    results = simulate(SimConfig(5, Lineup("random", "random"), "official", 1), 30, jobs=1)
    summary = summarize(results)
    assert summary.games == 30
    assert summary.liberal_wins + summary.fascist_wins == 30
    assert sum(summary.reasons.values()) == 30 and set(summary.reasons) == set(REASONS)
    assert summary.liberal_ci == wilson(summary.liberal_wins, 30)
    assert summary.avg_rounds >= 3 and summary.avg_actions > summary.avg_rounds
    jsonl = tmp_path / "games.jsonl"
    write_jsonl(results, jsonl)
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert [line["index"] for line in lines] == list(range(30))
    assert {"seed", "winner", "reason", "rounds", "actions", "claims", "roles", "bots"} <= set(
        lines[0]
    )
    png = tmp_path / "chart.png"
    plot_summary(summary, png, "test")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


class _Sighted(Agent):
    """A random agent asked through ``act`` with a view (``needs_view`` left True)."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat)
        self.inner = make_agent("random", seat, seed)
        self.views = 0

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        assert view.seat == self.seat and view.round >= 1  # a real view, readable
        self.views += 1
        return self.inner.act(view, legal)


def test_an_agent_that_needs_no_view_is_asked_without_one_and_plays_the_same_game() -> None:
    seeds = [derive_seed("agent", 5, s) for s in range(7)]
    blind = Game(7, "official", 5)
    agents = [make_agent("random", s, seeds[s]) for s in range(7)]
    assert not agents[0].needs_view
    turns, _ = run_game(blind, agents)
    assert blind._observer is None  # no view was made, so no observer either
    sighted = Game(7, "official", 5)
    wrapped = [_Sighted(s, seeds[s]) for s in range(7)]
    assert run_game(sighted, wrapped) == (turns, 0)
    assert sum(a.views for a in wrapped) == turns
    assert blind.to_record() == sighted.to_record()


def test_make_agents_seeds_each_seat_as_derive_seed_does() -> None:
    agents = make_agents(["random", "rule", "random", "rule", "random"], 987654321)
    assert [a.name for a in agents] == ["random", "rule", "random", "rule", "random"]
    for s, agent in enumerate(agents):
        assert agent.seat == s
        expected = random.Random(derive_seed("agent", 987654321, s))
        assert agent.rng.getstate() == expected.getstate()


def test_an_illegal_choice_without_a_view_is_refused_and_not_applied() -> None:
    class Cheat(Agent):
        needs_view = False

        def choose(self, legal: Sequence[Action]) -> Action:
            return Action.nominate(self.seat, self.seat)  # never legal: nominating oneself

    game = Game(7, "official", 2)
    with pytest.raises(SimulationError, match="not among its legal actions"):
        run_game(game, [Cheat(s) for s in range(7)])
    assert game.actions == [] and game.phase.value == "nominate"
