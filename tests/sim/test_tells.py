"""``evaluate tells`` (sim/tells.py): the machinery on synthetic seats (a planted tell is found,
no tell gives about 0.5), the features of a real game, and the command."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from secret_hitler.cli import app
from secret_hitler.sim.simulator import Lineup, play_game
from secret_hitler.sim.tells import (
    ONE_TEAM_MIN_LINES,
    SeatRow,
    analyse,
    auc,
    describe,
    fold_of_games,
    game_rows,
    kind_shares,
    line_kind,
)
from secret_hitler.talk import Accuse, Answer, Claim, ExplainVote, HitlerGuess

runner = CliRunner()


def _rows(games: int, seed: int, tell: float) -> list[SeatRow]:
    """Seven seats a game, three of the fascist party; talk feature ``kind:tell`` is Poisson
    with mean 1 for liberals and ``1 + tell`` for fascists; every other feature is noise."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        fascists = set(rng.choice(7, 3, replace=False).tolist())
        for s in range(7):
            fascist = s in fascists
            row = SeatRow(g, s, fascist)
            row.talk = {
                "kind:tell": float(rng.poisson(1 + (tell if fascist else 0.0))),
                **{f"kind:noise{j}": float(rng.poisson(1)) for j in range(6)},
            }
            row.moves = {f"vote{j}": float(rng.poisson(2)) for j in range(6)}
            row.kinds["tell"] = int(row.talk["kind:tell"])
            row.lines = int(sum(row.talk.values()))
            out.append(row)
    return out


def test_a_planted_tell_is_found_in_talk_and_not_in_moves():
    report = analyse(_rows(150, 1, tell=1.5), seed=3, bootstrap=200)
    assert report.auc["talk"] > 0.75
    assert report.auc["both"] > 0.7
    assert 0.4 < report.auc["moves"] < 0.6
    for which, (lo, hi) in report.ci95.items():
        assert lo <= report.auc[which] <= hi
    lo, hi = report.ci95["talk"]
    assert lo > 0.6  # the interval sees the tell too
    assert report.both_minus_moves > 0.1


def test_the_planted_tell_tops_the_single_features_and_is_printed():
    report = analyse(_rows(150, 1, tell=1.5), seed=3, bootstrap=50)
    top = report.top_talk
    assert top[0]["feature"] == "kind:tell" and top[0]["auc"] > 0.75
    assert top[0]["per_fascist_seat"] > top[0]["per_liberal_seat"] + 1  # Poisson 2.5 against 1
    assert all(abs(f["auc"] - 0.5) < 0.1 for f in top[1:])  # the noise tells nothing
    text = "\n".join(describe(report.to_json()))
    assert f"{top[0]['auc']:.3f} kind:tell" in text


def test_no_tell_gives_an_auc_near_one_half():
    report = analyse(_rows(150, 2, tell=0.0), seed=3, bootstrap=200)
    for which in ("talk", "moves", "both"):
        assert abs(report.auc[which] - 0.5) < 0.06, report.auc
        lo, hi = report.ci95[which]
        assert lo < 0.5 < hi


def test_the_auc_counts_ties_half():
    labels = np.array([0, 0, 1, 1])
    assert auc(np.array([0.1, 0.2, 0.3, 0.4]), labels) == 1.0
    assert auc(np.array([0.4, 0.3, 0.2, 0.1]), labels) == 0.0
    assert auc(np.array([0.5, 0.5, 0.5, 0.5]), labels) == 0.5
    assert auc(np.array([0.1, 0.3, 0.3, 0.4]), labels) == pytest.approx(0.875)
    assert auc(np.array([0.1, 0.2]), np.array([1, 1])) == 0.5  # one class: no ranking


def test_the_folds_deal_whole_games_evenly_and_by_the_seed():
    folds = fold_of_games([g for g in range(23) for _ in range(7)], 5, 0)
    assert sorted(folds) == list(range(23))  # one fold per game: its seats go together
    sizes = sorted(list(folds.values()).count(k) for k in range(5))
    assert sizes[-1] - sizes[0] <= 1
    assert folds == fold_of_games(list(range(23)), 5, 0)
    assert folds != fold_of_games(list(range(23)), 5, 1)


def test_a_kind_said_by_one_team_only_is_flagged():
    rows = []
    for g in range(ONE_TEAM_MIN_LINES):
        lib, fas = SeatRow(g, 0, False), SeatRow(g, 1, True)
        lib.kinds.update({"hitler_guess": 1, "accuse.hedged": 1})
        fas.kinds.update({"accuse.hedged": 1})
        rows += [lib, fas]
    kinds, one_team = kind_shares(rows)
    assert one_team == ["hitler_guess"]
    share = {k["kind"]: k["fascist_share"] for k in kinds}
    assert share == {"accuse.hedged": 0.5, "hitler_guess": 0.0}


def test_the_kind_of_a_line():
    assert line_kind(Claim("chancellor_hand", ("liberal", "liberal"))) is None  # a move
    assert line_kind(Accuse(3, "hedged", "voted_failed_government")) == "accuse.hedged"
    assert line_kind(Answer(HitlerGuess(2), to=1)) == "hitler_guess"
    assert line_kind(ExplainVote(False)) == "explain_vote.nein"


def test_the_features_of_a_game_are_each_seat_s_own():
    result, game = play_game(5, Lineup("bayes", "bayes"), "official", 7, talk="listen")
    rows = game_rows(game, result.said)
    assert [r.seat for r in rows] == list(range(5))
    assert [r.fascist for r in rows] == [r.value != "liberal" for r in game.roles]
    for row in rows:
        mine = [e.line for e in result.said if e.seat == row.seat]
        assert row.lines == len(mine)
        talked = [x for x in mine if line_kind(x) is not None]
        assert row.talk.get("lines", 0) == len(talked) == sum(row.kinds.values())
        votes = [e for e in game.events if e.type == "votes"]
        cast = sum(1 for e in votes if e.data["votes"][row.seat] is not None)
        assert row.moves.get("votes", 0) == cast
    assert any(r.talk for r in rows)


def test_evaluate_tells_cli_json():
    args = ["evaluate", "tells", "--games", "10", "--players", "5", "--bootstrap", "20"]
    result = runner.invoke(app, [*args, "--json", "--seed", "2"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 10 and data["seats"] == 50
    for which in ("talk", "moves", "both"):
        lo, hi = data["ci95"][which]
        assert 0 <= lo <= data["auc"][which] <= hi <= 1
    assert data["lines_per_seat_and_game"]["all"] > 0
    again = runner.invoke(app, [*args, "--json", "--seed", "2", "--jobs", "2"])
    assert json.loads(again.output) == data  # the same games and folds whatever the processes
    bad = runner.invoke(app, ["evaluate", "tells", "--bot", "chess"])
    assert bad.exit_code == 2 and "chess" in bad.output
