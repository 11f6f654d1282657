"""``evaluate votes`` / ``evaluate roles`` on a handful of games, and their CLI errors."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from secret_hitler import extras
from secret_hitler.bots import base
from secret_hitler.datasets import SECRETHITLER_IO
from secret_hitler.sim.evaluate import (
    EvaluateError,
    evaluate_roles,
    evaluate_votes,
    game_half,
    load_records,
    register_evaluate,
)
from secret_hitler.sim.simulator import Lineup, play_game

DATA = SECRETHITLER_IO  # the project's copy (data/), gzip-compressed


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test root."""

    register_evaluate(app)
    return app


def _bot_records(n: int) -> list[dict]:
    return [play_game(7, Lineup("bayes", "bayes"), seed=s)[1].to_record() for s in range(n)]


def test_a_bot_agrees_with_itself() -> None:
    """Votes depend on the view only, so replaying bayes games asks bayes the same questions."""
    report = evaluate_votes(_bot_records(3), "bayes")
    assert report.games == 3 and report.overall.total > 0
    assert report.overall.rate == 1.0
    assert set(report.by_role) <= {"liberal", "fascist", "hitler"}


def test_roles_on_bot_games_beat_the_uniform_prior() -> None:
    data = evaluate_roles(_bot_records(4), "bayes").to_json()["overall"]
    assert data["points"] > 0
    assert data["log_loss"] < data["uniform_log_loss"]
    assert data["top1"] > data["uniform_top1"]


def test_votes_on_real_games() -> None:
    records = load_records(DATA, limit=5)
    assert len(records) == 5
    report = evaluate_votes(records, "bayes")
    assert report.games == 5 and report.errors == 0
    assert 0.3 < report.overall.rate <= 1.0
    assert sum(t.total for t in report.by_role.values()) == report.overall.total


def test_cli_votes_and_roles_json() -> None:
    runner = CliRunner()
    out = runner.invoke(
        _app(), ["evaluate", "votes", str(DATA), "--bot", "bayes", "--limit", "3", "--json"]
    )
    assert out.exit_code == 0, out.output
    assert '"agreement"' in out.output
    out = runner.invoke(
        _app(), ["evaluate", "roles", str(DATA), "--bot", "bayes-human", "--limit", "2"]
    )
    assert out.exit_code == 0, out.output
    assert "log-loss" in out.output


def test_cli_errors_exit_2_without_traceback(tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(_app(), ["evaluate", "votes", str(tmp_path / "missing.jsonl")])
    assert out.exit_code == 2
    assert "no such file" in out.output and "Traceback" not in out.output
    out = runner.invoke(_app(), ["evaluate", "votes", str(tmp_path)])
    assert out.exit_code == 2 and "directory" in out.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    out = runner.invoke(_app(), ["evaluate", "roles", str(bad)])
    assert out.exit_code == 2 and "Traceback" not in out.output
    out = runner.invoke(_app(), ["evaluate", "votes", str(bad), "--bot", "nobody"])
    assert out.exit_code == 2 and "unknown bot" in out.output
    out = runner.invoke(_app(), ["evaluate", "roles", str(bad), "--bot", "random"])
    assert out.exit_code == 2


def test_with_no_path_the_project_sample_is_used() -> None:
    out = CliRunner().invoke(_app(), ["evaluate", "votes", "--limit", "2", "--json"])
    assert out.exit_code == 0, out.output
    assert '"games": 2' in out.output
    assert load_records(None, limit=3) == load_records(DATA, limit=3)


def test_a_plain_copy_and_the_gzip_sample_give_the_same_records(tmp_path: Path) -> None:
    plain = tmp_path / "games.jsonl"
    plain.write_bytes(gzip.decompress(DATA.read_bytes()))
    assert load_records(plain, limit=20) == load_records(DATA, limit=20)


def test_a_level_whose_extra_is_missing_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(extras.EXTRAS, "bots", ("a_module_that_is_not_installed",))
    monkeypatch.delitem(base._REGISTRY, "bayes", raising=False)
    out = CliRunner().invoke(_app(), ["evaluate", "votes", "--limit", "1"])
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert "bot 'bayes' needs the bots extra: pip install 'secret-hitler[bots]'" in out.output


def test_the_split_is_fixed_and_halves_the_real_games() -> None:
    records = load_records(DATA, limit=200)
    halves = [game_half(r, i) for i, r in enumerate(records)]
    assert halves == [game_half(r, i) for i, r in enumerate(records)]  # no hidden state
    assert 70 < halves.count("test") < 130
    # the split is by the secrethitler.io id, not by position: shuffling changes nothing
    ids = {r["source"]["id"]: h for r, h in zip(records, halves, strict=True)}
    assert all(game_half(r, 999) == ids[r["source"]["id"]] for r in reversed(records))


def test_roles_report_team_error_last_round_and_stages() -> None:
    records = load_records(DATA, limit=12)
    test = [r for i, r in enumerate(records) if game_half(r, i) == "test"]
    report = evaluate_roles(records, "bayes-human", half="test", players=7)
    data = report.to_json()
    assert report.games == sum(len(r["roles"]) == 7 for r in test) > 0
    last = data["last_round"]
    # at 7 players the 4 liberals and Hitler do not know the team: 5 seats per game
    assert last["points"] == 5 * report.games
    assert last["all_liberal_error"] == round(3 / 7, 4)  # calling everyone liberal
    assert 0.0 <= last["team_error"] < last["all_liberal_error"]
    # the viewer's own seat counts in team_error and is always right (he knows his role):
    # over the other 6 players the error is 7/6 of it, and calling everyone liberal misses
    # 3 of 6 for a liberal viewer, 2 of 6 for Hitler
    for block in (last, data["overall"]):
        assert block["team_error"] == pytest.approx(6 / 7 * block["team_error_others"], abs=2e-4)
    assert last["all_liberal_error_others"] == round((4 * 3 / 6 + 2 / 6) / 5, 4)
    assert data["by_role"]["spectator"]["points"] > 0
    assert set(data["by_stage"]) <= {"0", "1-2", "3-4", "5-6", "7+"}
    assert sum(b["points"] for b in data["by_stage"].values()) == data["overall"]["points"]
    with pytest.raises(EvaluateError, match="--half"):
        evaluate_roles(records, "bayes", half="middle")


def test_team_split_error_sums_hitler_out() -> None:
    """The likeliest team split can differ from the likeliest world's teams: two worlds with
    the same fascist party (Hitler swapped) outweigh one more likely world."""
    import numpy as np

    from secret_hitler.sim.role_reading import _likeliest_split

    worlds = np.array([[2, 1, 0, 0], [1, 2, 0, 0], [0, 0, 2, 1]])
    split = _likeliest_split(worlds, np.array([0.3, 0.3, 0.4]))
    assert split.tolist() == [True, True, False, False]


def test_votes_report_nominations_claims_tracker_and_zone() -> None:
    """On bots' own games, bayes mostly names the same nominee (ties and mixed choices are
    drawn by its own random state) and its liberals, like the people there, never lie; every
    vote counts once per breakdown."""
    records = _bot_records(3)
    data = evaluate_votes(records, "bayes").to_json()
    total = data["overall"]["votes"]
    assert sum(t["votes"] for t in data["by_tracker"].values()) == total
    assert sum(t["votes"] for t in data["by_zone"].values()) == total
    noms = data["nominations_by_role"]
    assert sum(n["nominations"] for n in noms.values()) > 10
    for n in noms.values():
        assert n["agreement"] > 0.6 > 0.4 > n["uniform_agreement"]
    claims = data["claims_by_role"]
    assert claims["liberal"]["people_claims"] > 0
    assert claims["liberal"]["people_false_share"] == claims["liberal"]["bot_false_share"] == 0
    real = evaluate_votes(load_records(DATA, limit=4), "bayes-human").to_json()
    assert sum(c["people_claims"] for c in real["claims_by_role"].values()) > 0
    assert 0.0 <= real["nominations_by_role"]["liberal"]["agreement"] <= 1.0


def test_claim_truth_is_read_from_the_seats_own_events() -> None:
    """The evaluation judges a claim by the engine's claim truth on the claimant's own log
    (tests/engine/test_seat.py holds the cases of every subject)."""
    from secret_hitler.engine import Action, Game
    from secret_hitler.sim.evaluate import claim_is_true

    roles = ["liberal"] * 4 + ["fascist", "fascist", "hitler"]
    deck = ["fascist", "liberal", "fascist"] + ["liberal"] * 5 + ["fascist"] * 9
    game = Game(7, "official", roles=roles, first_president=0, deck=deck)
    game.apply(Action.nominate(0, 1))
    for seat in range(7):
        game.apply(Action.vote(seat, True))
    drew = Action.claim_policies(0, "president_hand", ["liberal", "fascist", "fascist"])
    assert claim_is_true(game.view(0), drew)
    assert not claim_is_true(
        game.view(0), Action.claim_policies(0, "president_hand", ["fascist"] * 3)
    )
    assert not claim_is_true(game.view(1), drew)  # what seat 0 drew, seat 1 never saw


@pytest.mark.parametrize("players", [5, 6, 8, 9, 10])
def test_the_seven_player_models_carry_over_to_other_sizes(players: int) -> None:
    """BOT_MODEL's frequencies are fitted at 7 players and its temper at each size; on bayes
    games it did not see, its posterior beats the uniform prior (log-loss) at every other size."""
    records = [
        play_game(players, Lineup("bayes", "bayes"), seed=1000 + s)[1].to_record() for s in range(6)
    ]
    data = evaluate_roles(records, "bayes").to_json()["overall"]
    assert data["points"] > 0
    assert data["log_loss"] < data["uniform_log_loss"]


def test_the_search_level_is_scored_on_the_posterior_each_side_decides_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--bot search`` scores its liberals on SEARCH_MODEL and its Hitler on BOT_MODEL (the
    fascist side's): the very figures of ``bayes`` reading with each model."""
    from secret_hitler.bots import bayes
    from secret_hitler.bots.beliefs import BOT_MODEL, SEARCH_MODEL

    records = load_records(None, 6)
    search = evaluate_roles(records, "search").to_json()["by_role"]
    monkeypatch.setattr(bayes, "DEFAULT_MODEL", SEARCH_MODEL)
    weighted = evaluate_roles(records, "bayes").to_json()["by_role"]
    monkeypatch.setattr(bayes, "DEFAULT_MODEL", BOT_MODEL)
    plain = evaluate_roles(records, "bayes").to_json()["by_role"]
    assert search["liberal"]["points"] > 0 and search["hitler"]["points"] > 0
    assert search["liberal"] == weighted["liberal"] != plain["liberal"]
    assert search["hitler"] == plain["hitler"] != weighted["hitler"]


def test_the_peoples_games_leave_out_the_game_types_the_bots_were_not_fitted_on() -> None:
    """The sample's finished games without top-decking import (issue 41), but the evaluations
    read the games the bots' models of people were fitted on, as before: the same 926."""
    from secret_hitler.datasets import open_text
    from secret_hitler.importers.secrethitler_io import iter_records
    from secret_hitler.sim.people_games import modelled

    with open_text(DATA) as fh:
        finished = [c.record for c in iter_records(fh) if c.record and "result" in c.record]
    left_out = [r for r in finished if not modelled(r)]
    assert [r["rules"]["top_decking"] for r in left_out] == ["not_twice", "forbidden", "forbidden"]
    kept = load_records(DATA)
    assert len(kept) == 926 and kept == [r for r in finished if modelled(r)]
    assert modelled({"rules": {"preset": "official", "rebalanced": [7]}})  # only another deck
    assert not modelled({"rules": {"preset": "secrethitler-io", "avalon": "merlin"}})
