"""The simulator: determinism across process counts, seeds, summaries, Wilson intervals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from secret_hitler.engine import replay
from secret_hitler.sim import Lineup, SimConfig, game_seed, play_game, simulate, summarize, wilson
from secret_hitler.sim.simulator import REASONS, plot_summary, write_jsonl


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
