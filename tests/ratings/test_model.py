"""The rating model against openskill itself: the same updates computed with openskill's API,
the handicap calibrated on the fitted win rates, and the bot-ratings command."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from secret_hitler import ratings as R
from secret_hitler.cli import app


def _direct(liberals, fascists, liberals_won, players):
    """The update as openskill computes it: two teams, the virtual fascist member added."""
    model = PlackettLuce()
    lib = [model.rating(mu=r.mu, sigma=r.sigma) for r in liberals]
    fas = [model.rating(mu=r.mu, sigma=r.sigma) for r in fascists]
    virtual = model.rating(mu=R.handicap(players), sigma=R.VIRTUAL_SIGMA)
    new_lib, new_fas = model.rate([lib, [*fas, virtual]], ranks=[0, 1] if liberals_won else [1, 0])
    return [x for p in new_lib for x in (p.mu, p.sigma)], [
        x for p in new_fas[:-1] for x in (p.mu, p.sigma)
    ]


@pytest.mark.parametrize("players", list(R.PLAYERS))
@pytest.mark.parametrize("liberals_won", [True, False])
def test_updates_match_openskill(players: int, liberals_won: bool) -> None:
    rng = random.Random(players * 2 + liberals_won)
    libs, fas = R.team_sizes(players)
    lib = [R.Rating(rng.uniform(15, 35), rng.uniform(2, 8.4)) for _ in range(libs)]
    fasc = [R.Rating(rng.uniform(15, 35), rng.uniform(2, 8.4)) for _ in range(fas)]
    new_lib, new_fas = R.rate_game(lib, fasc, liberals_won)
    want_lib, want_fas = _direct(lib, fasc, liberals_won, players)
    assert [x for r in new_lib for x in (r.mu, r.sigma)] == pytest.approx(want_lib, abs=1e-12)
    assert [x for r in new_fas for x in (r.mu, r.sigma)] == pytest.approx(want_fas, abs=1e-12)
    # the winners gain, the losers lose
    winners, losers = (new_lib, new_fas) if liberals_won else (new_fas, new_lib)
    before_w, before_l = (lib, fasc) if liberals_won else (fasc, lib)
    assert all(a.mu > b.mu for a, b in zip(winners, before_w, strict=True))
    assert all(a.mu < b.mu for a, b in zip(losers, before_l, strict=True))


@pytest.mark.parametrize("players", list(R.PLAYERS))
def test_handicap_gives_the_measured_win_rate(players: int) -> None:
    """At default ratings openskill predicts the liberals win as often as in real games."""
    model = PlackettLuce()
    libs, fas = R.team_sizes(players)
    lib = [model.rating() for _ in range(libs)]
    fasc = [model.rating() for _ in range(fas)]
    virtual = model.rating(mu=R.handicap(players), sigma=R.VIRTUAL_SIGMA)
    p = model.predict_win([lib, [*fasc, virtual]])[0]
    assert p == pytest.approx(R.liberal_win_rates()[players], abs=1e-6)
    assert R.expected_liberal_win([R.default()] * libs, [R.default()] * fas) == pytest.approx(p)
    # without it, openskill would make the bigger team (the liberals) a heavy favourite
    assert model.predict_win([lib, fasc])[0] > 0.55


def test_an_upset_moves_ratings_more_than_an_expected_result() -> None:
    """The handicap matters: losing as the favoured side costs more than as the underdog."""
    d = R.default()
    rates = R.liberal_win_rates()
    n = max(R.PLAYERS, key=lambda k: rates[k])  # the count where liberals are likeliest to win
    libs, fas = R.team_sizes(n)
    lost, _ = R.rate_game([d] * libs, [d] * fas, liberals_won=False)
    won, _ = R.rate_game([d] * libs, [d] * fas, liberals_won=True)
    p = rates[n]
    assert (d.mu - lost[0].mu) / (won[0].mu - d.mu) == pytest.approx(p / (1 - p), rel=0.1)


def test_team_balance_file_says_how_it_was_made() -> None:
    data = json.loads(R.TEAM_BALANCE.read_text(encoding="utf-8"))
    assert data["command"].startswith("python scripts/fit_team_balance.py")
    assert "secrethitler-io-games" in data["source"]
    for n in R.PLAYERS:
        entry = data["player_counts"][str(n)]
        assert 0 < entry["liberal_win_rate"] < 1
        assert entry["liberal_wins"] <= entry["games"]
    assert sum(data["player_counts"][str(n)]["games"] for n in R.PLAYERS) == data["pooled"]["games"]


def test_fit_script_reproduces_the_committed_file(tmp_path: Path) -> None:
    import runpy
    import sys

    out = tmp_path / "balance.json"
    argv = sys.argv
    sys.argv = ["fit_team_balance.py", "--out", str(out)]
    try:
        with pytest.raises(SystemExit) as done:
            runpy.run_path(
                str(Path(__file__).parents[2] / "scripts" / "fit_team_balance.py"),
                run_name="__main__",
            )
    finally:
        sys.argv = argv
    assert done.value.code == 0
    assert (
        json.loads(out.read_text())["player_counts"]
        == json.loads(R.TEAM_BALANCE.read_text())["player_counts"]
    )


def test_rated_players_only_5_to_10() -> None:
    with pytest.raises(ValueError, match="5-10"):
        R.handicap(4)


def test_bot_ratings_command(tmp_path: Path) -> None:
    out = tmp_path / "bots.json"
    result = CliRunner().invoke(
        app, ["ratings", "bots", "--games", "60", "--levels", "random,rule", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["command"] == "secret-hitler ratings bots --games 60 --seed 1 --levels random,rule"
    levels = data["levels"]
    assert set(levels) == {"random", "rule"}
    assert levels["rule"]["mu"] > levels["random"]["mu"]  # the rule bot beats random moves
    assert all(0 < v["sigma"] < PlackettLuce().sigma and v["games"] > 0 for v in levels.values())
    shown = R.bot_ratings(out)
    assert [b["level"] for b in shown] == ["rule", "random"]
    assert math.isclose(
        shown[0]["rating"], round(levels["rule"]["mu"] - 3 * levels["rule"]["sigma"], 2)
    )


def test_bot_ratings_command_refuses_unknown_levels(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["ratings", "bots", "--levels", "random,nope", "--out", str(tmp_path / "x.json")]
    )
    assert result.exit_code == 2
    assert "unknown level 'nope'" in result.output
    assert not (tmp_path / "x.json").exists()


def test_committed_bot_ratings_cover_every_level() -> None:
    from secret_hitler.bots import available_bots

    assert {b["level"] for b in R.bot_ratings()} >= {"random", "rule", "bayes"}
    assert set(available_bots()) >= {b["level"] for b in R.bot_ratings()}
