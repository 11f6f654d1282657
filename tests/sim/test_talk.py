"""Talk in the simulator: records keep it and replay to the same game, talk off leaves every
output as it was, and the ``evaluate talk`` report on a small run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from secret_hitler.cli import app
from secret_hitler.engine import game_from_record, replay, replay_summary
from secret_hitler.sim.simulator import Lineup, SimConfig, game_record, play_game, simulate
from secret_hitler.sim.talk_report import Paired, talk_report
from secret_hitler.talk.said import Said

pytest.importorskip("numpy")
runner = CliRunner()


@pytest.mark.parametrize("level", ["rule", "bayes"])
def test_a_talking_game_s_record_keeps_its_talk_and_replays_to_the_same_state(level):
    played, game = play_game(7, Lineup(level, level), "official", 12, talk="listen")
    record = json.loads(json.dumps(game_record(played, game)))
    assert len(record["talk"]) == len(played.said) > 0
    assert [Said.from_json(e, players=7) for e in record["talk"]] == played.said
    plain = game.to_record()
    assert {k: v for k, v in record.items() if k != "talk"} == plain
    result = replay(record)
    assert result.ok and result.game is not None
    assert replay_summary(result.game) == replay_summary(game)
    assert game_from_record(record).to_record() == plain


def test_talk_off_writes_what_it_wrote_before(tmp_path: Path):
    """No ``talk`` key anywhere when talk is off: result lines and records as before."""
    config = SimConfig(7, Lineup("rule", "rule"), "official", 4, str(tmp_path))
    results = simulate(config, 3)
    assert all("talk" not in r.to_json() for r in results)
    assert all("talk" not in json.loads(p.read_text()) for p in tmp_path.glob("*.json"))
    talking = simulate(SimConfig(7, Lineup("rule", "rule"), "official", 4, talk="speak"), 3)
    assert [r.winner for r in talking] == [r.winner for r in results]  # speaking changes no move
    assert all(r.to_json()["talk"]["lines"] > 0 for r in talking)


def test_simulate_with_talk_writes_records_with_talk(tmp_path: Path):
    args = ["simulate", "--games", "2", "--jobs", "1", "--quiet", "--json"]
    result = runner.invoke(app, [*args, "--talk", "listen", "--records", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["avg_lines"] > 0
    paths = sorted(tmp_path.glob("*.json"))
    assert len(paths) == 2
    for path in paths:
        record = json.loads(path.read_text())
        assert record["talk"] and replay(record).ok
    bad = runner.invoke(app, [*args, "--talk", "loud"])
    assert bad.exit_code == 2 and "--talk" in bad.output


def test_the_talk_report_on_a_small_run():
    report = talk_report(
        levels=("rule", "bayes"),
        accuracy_games=6,
        lineup=Lineup("bayes", "bayes"),
        games=12,
        seed=3,
        fascist_games=8,
    )
    data = report.to_json()
    assert data["lines_per_round"] > 0
    rows = {(r["level"], r["role"], r["certainty"]): r for r in data["accusations"]}
    assert {level for level, _, _ in rows} == {"rule", "bayes"}
    for (_level, role, certainty), row in rows.items():
        assert 0 <= row["named_fascist"] <= row["accusations"]
        lo, hi = row["ci95"]
        assert lo <= row["share"] <= hi
        if role == "liberal" and certainty == "known":
            assert row["share"] == 1.0  # a liberal's known line: what it held, always true
    listening = data["listening"]
    assert listening["games"] == 12
    diff = listening["listening_liberal_rate"] - listening["deaf_liberal_rate"]
    assert listening["difference"] == pytest.approx(diff, abs=1e-3)
    lo, hi = listening["difference_ci95"]
    assert lo <= listening["difference"] <= hi
    assert listening["won_only_listening"] - listening["won_only_deaf"] == round(diff * 12)
    fascists = data["fascists_listening"]
    assert fascists["games"] == 8
    gained = fascists["listening_fascist_rate"] - fascists["deaf_fascist_rate"]
    assert fascists["difference"] == pytest.approx(gained, abs=1e-3)
    assert fascists["won_only_listening"] - fascists["won_only_deaf"] == round(gained * 8)


def test_the_paired_interval():
    same = Paired(100, 50, 50, 0, 0)
    assert same.interval() == (0.0, 0.0)
    better = Paired(100, 60, 50, 10, 0)  # ten games turned, none lost
    lo, hi = better.interval()
    assert 0.0 < lo < 0.1 < hi
    assert Paired(1, 1, 0, 1, 0).interval() == (-1.0, 1.0)


def test_evaluate_talk_cli_json():
    args = ["evaluate", "talk", "--games", "4", "--accuracy-games", "2", "--levels", "rule"]
    result = runner.invoke(app, [*args, "--json", "--seed", "2"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["listening"]["games"] == 4 and data["accuracy_games_per_level"] == 2
    assert data["fascists_listening"] is None
    both = runner.invoke(app, [*args, "--fascist-games", "3", "--seed", "2"])
    assert both.exit_code == 0, both.output
    assert "listening fascists win" in both.output
    bad = runner.invoke(app, ["evaluate", "talk", "--levels", "chess"])
    assert bad.exit_code == 2 and "chess" in bad.output
