"""Fitted numbers have provenance: each data file in bots/data names the command that wrote it,
and rerunning the fit on the committed data reproduces the committed numbers."""

from __future__ import annotations

import hashlib
import json
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from secret_hitler.bots import beliefs

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))


def _data(name: str) -> dict[str, Any]:
    text = files("secret_hitler.bots").joinpath("data", f"{name}.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def test_every_model_file_names_its_command_and_is_the_model_in_use() -> None:
    for name, model in (
        ("human_model", beliefs.HUMAN_MODEL),
        ("bot_model", beliefs.BOT_MODEL),
        ("eye_model", beliefs.EYE_MODEL),
        ("search_model", beliefs.SEARCH_MODEL),
    ):
        data = _data(name)
        assert data["command"].startswith("python benchmarks/fit_"), name
        script = data["command"].split()[1]
        assert (BENCH.parent / script).exists(), script
        assert beliefs.model_from_json(data["model"]) == model


def test_the_human_model_refits_to_the_committed_numbers() -> None:
    """The counting of fit_human_model.py on the committed data (train half) gives exactly the
    committed model; the term weights in use are the committed full fit's, and the same weight
    fit rerun on the first training games reproduces the committed small fit (the full one
    replays ~450 games and takes a minute: not rerun here)."""
    import fit_human_model

    data = _data("human_model")
    records = fit_human_model.train_records()
    assert len(records) == data["data"]["games"]
    refit = fit_human_model.fit_counts(records)
    committed = dict(data["model"])
    weights = dict(committed.pop("weights"))
    assert refit == committed
    assert set(weights) == set(beliefs.TERMS)
    assert weights == data["weight_fit"]["weights"]
    small = data["weight_fit_first_games"]
    rerun = fit_human_model.fit_term_weights(records[: small["games"]], refit)
    assert rerun["weights"] == small["weights"]
    assert rerun["log_loss"] == small["log_loss"]
    # the fitted weights beat the single temper they replace, on the games they were fitted on
    assert rerun["log_loss"]["fitted"] < rerun["log_loss"]["temper 0.6"]


@pytest.mark.parametrize("name", ["bot_model", "eye_model", "search_model"])
def test_the_bot_models_refit_from_their_committed_games(name: str) -> None:
    """fit_bot_model.py plays its games with the bots of its day and commits them; the counting
    on those games gives exactly the committed model. The temper is the scan's best, or the
    term weights (``search_model``) the weight fit's. The scan and the weight fit over all the
    games take a minute or more: rerun here on the first games, as committed."""
    import fit_bot_model

    data = _data(name)
    path = BENCH.parent / data["data"]["file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == data["data"]["sha256"]
    games = fit_bot_model.read_games(path)
    assert len(games) == data["data"]["games"]
    assert sum(g.winner.value == "liberal" for g in games) == data["data"]["liberal_wins"]
    committed = dict(data["model"])
    weights = committed.pop("weights", None)
    temper = committed.pop("temper", None)
    by_players = committed.pop("temper_by_players", None)
    refit = fit_bot_model.fit_file(games, temper=False)["model"]
    assert refit == committed
    if name in fit_bot_model.WEIGHTED:
        import fit_human_model

        assert temper is None and by_players is None
        assert set(dict(weights)) == set(beliefs.TERMS)
        assert dict(weights) == data["weight_fit"]["weights"]
        fit = data["weight_fit"]["log_loss"]
        assert fit["fitted"] < min(fit["temper 0.6"], fit["plain"])
        small = data["weight_fit_first_games"]
        records = [g.to_record() for g in games[: small["games"]]]
        rerun = fit_human_model.fit_term_weights(records, refit)
        assert rerun["weights"] == small["weights"]
        assert rerun["log_loss"] == small["log_loss"]
        return
    assert weights is None
    scan = data["temper_scan"]
    assert temper == fit_bot_model.best_temper(scan)
    assert scan[str(temper)] < scan["uniform"]
    small = dict(data["temper_scan_first_games"])
    first = small.pop("games")
    assert fit_bot_model.scan_temper(games[:first], refit) == small
    if by_players is None:
        return
    # The temper at other sizes: the best of each size's scan on its committed games.
    path = BENCH.parent / data["sizes_data"]["file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == data["sizes_data"]["sha256"]
    sized = fit_bot_model.read_games(path)
    scans = data["temper_scan_by_players"]
    assert by_players == fit_bot_model.tempers_by_players(scans)
    small = dict(data["temper_scan_by_players_first_games"])
    first = small.pop("games")
    firsts = [g for n in scans for g in [h for h in sized if h.n == int(n)][:first]]
    assert fit_bot_model.scan_sizes(firsts, data["model"]) == small


def _assert_same_trees(trees: dict[str, Any], committed: dict[str, Any]) -> None:
    """The same trees: the same splits on the same features, thresholds and leaves equal to
    rounding. The features are sums of posterior probabilities, whose last bit depends on the
    CPU's vector kernels (an AMD EPYC gave thresholds one unit in the last place apart)."""
    import numpy as np

    refit = json.loads(json.dumps(trees))
    assert set(refit) == set(committed)
    for key, value in refit.items():
        if key in ("threshold", "leaf"):
            assert np.allclose(value, committed[key], rtol=1e-12, atol=0), key
        else:
            assert value == committed[key], key


def _check_features() -> dict[str, Any]:
    import fit_vote_model

    from secret_hitler.sim.evaluate import load_records

    check = _data("human_vote")["check"]
    return fit_vote_model.extract(load_records(fit_vote_model.DATA, check["games"]))  # type: ignore[no-any-return]


def test_the_vote_model_refits_on_its_small_check() -> None:
    """fit_vote_model.py extracts 94,000 votes (minutes); the committed file also holds the trees
    fitted on its first games, which a rerun here reproduces in what they predict, and the trees
    the bot uses.

    Not split for split: the features are sums of posterior probabilities whose last bits
    depend on the CPU's vector kernels, and a quantile threshold can fall inside a cluster of
    votes whose feature is one value written three ways (0.5008878113817823 to ...825), so
    another CPU sends the whole cluster to the other side, and boosting carries the difference
    into every later tree. What must hold is the fit: the refitted trees fit the votes they were
    fitted on as well as the committed ones (log-loss within 2%; 150 trees instead of 200, a
    rate of 0.08 instead of 0.1, depth 4 or another min_hessian or l2 all move it by 6% or
    more), predict the held-out votes as well, and make the same call on almost every vote."""
    import fit_vote_model
    import numpy as np

    from secret_hitler.bots.bayes import VOTE_FEATURES, human_vote_trees

    data = _data("human_vote")
    assert data["command"].startswith("python benchmarks/fit_vote_model.py --write")
    assert data["features"] == list(VOTE_FEATURES)
    assert data["settings"] == fit_vote_model.TREES
    assert np.array_equal(human_vote_trees().leaf, np.array(data["trees"]["leaf"]))
    assert np.array_equal(human_vote_trees().threshold, np.array(data["trees"]["threshold"]))
    d = _check_features()
    refit = fit_vote_model.check_trees(d)
    committed = data["check"]["trees"]
    assert {k: len(v) if isinstance(v, list) else v for k, v in refit.items()} == {
        k: len(v) if isinstance(v, list) else v for k, v in committed.items()
    }
    x, y, train = d["x"], d["y"], d["half"] == 0
    ours, theirs = fit_vote_model.tree_margins(refit, x), fit_vote_model.tree_margins(committed, x)

    def log_loss(margin: np.ndarray, votes: np.ndarray) -> float:
        p = 1 / (1 + np.exp(-margin))
        return float(-np.mean(votes * np.log(p) + (1 - votes) * np.log(1 - p)))

    for rows in (train, ~train):
        assert log_loss(ours[rows], y[rows]) == pytest.approx(
            log_loss(theirs[rows], y[rows]), rel=0.02
        )
    assert np.mean((ours >= 0) == (theirs >= 0)) >= 0.95


def test_the_vote_fit_is_the_same_when_the_last_bits_of_its_arithmetic_differ(
    monkeypatch: Any,
) -> None:
    """NumPy's vector kernels (np.exp) round differently on different CPUs, and many candidate
    splits tie exactly (two thresholds that split a node's votes the same way): the fit must
    not let those last bits choose. Nudging every exponential by one unit in the last place
    gives the same trees as the plain fit of the same features on this machine."""
    import fit_vote_model
    import numpy as np

    d = _check_features()
    plain = fit_vote_model.check_trees(d)
    exp = np.exp
    for direction in (np.inf, -np.inf):
        monkeypatch.setattr(np, "exp", lambda a, d=direction: np.nextafter(exp(a), d))
        _assert_same_trees(fit_vote_model.check_trees(d), plain)


def test_the_vote_trees_settings_are_chosen_without_the_test_half(
    monkeypatch: Any, capsys: Any
) -> None:
    """``fit_vote_model.py --tune`` chooses depth, rate and number of trees by cross-validation
    on the train half: the held-out figure stays honest only if the test half plays no part.
    Shuffling the test half's votes changes nothing it prints; shuffling the train half's does."""
    import fit_vote_model
    import numpy as np

    from secret_hitler.sim.evaluate import load_records

    monkeypatch.setattr(fit_vote_model, "TUNE_GRID", {(1, 0.3): 100, (3, 0.3): 100})
    d = fit_vote_model.extract(load_records(fit_vote_model.DATA, 40))
    test = d["half"] == 1
    assert test.any() and (~test).any()

    def tuned(shuffle: np.ndarray) -> str:
        y = d["y"].copy()
        y[shuffle] = np.random.default_rng(1).permutation(y[shuffle])
        fit_vote_model.tune({**d, "y": y})
        return str(capsys.readouterr().out)

    plain = tuned(np.zeros_like(test))
    assert "chosen by 2-fold cross-validation on the train half" in plain
    assert tuned(test) == plain
    assert tuned(~test) != plain


def test_the_audit_replays_committed_games_event_by_event(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``fit_bot_model.py --audit`` feeds ``Beliefs`` one event at a time: on the first committed
    games it reports each event type's pull on the true world and a final log-loss below the
    uniform prior of the seats it reads (a liberal's 60 worlds at 7 players)."""
    import math

    import fit_bot_model

    data = _data("bot_model")
    games = fit_bot_model.read_games(BENCH.parent / data["data"]["file"])[:3]
    assert {g.n for g in games} == {7}
    fit_bot_model.audit(games)
    out = capsys.readouterr().out
    assert "  votes " in out and "  enacted " in out
    final = float(out.rsplit(":", 1)[1])
    assert 0.0 < final < math.log(60)


def test_the_talk_model_refits_from_its_committed_games() -> None:
    """fit_talk_model.py plays games of talking bots and commits them with their talk;
    counting the signals and votes of those games gives exactly the committed tables (the
    choice weights, the context multipliers, the consistency of votes with words), the talk
    weight in use is the scan's best (held-out log-loss of the listening liberals), and the
    scan reruns on the first games to the committed small fit."""
    import fit_talk_model

    data = _data("talk_model")
    assert data["command"].startswith("python benchmarks/fit_talk_model.py")
    path = BENCH.parent / data["data"]["file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == data["data"]["sha256"]
    records = fit_talk_model.read_records(path)
    assert len(records) == data["data"]["games"]
    assert sum(len(r["talk"]) for r in records) == data["data"]["lines"]
    assert beliefs.TalkModel.from_json(data["model"]) == beliefs.TALK_MODEL
    counted, _ = fit_talk_model.fit_choice(records)
    fitted = counted.to_json()
    for table in ("choice", "context", "consistency"):
        assert fitted[table] == data["model"][table]
    scan = data["weight_scan"]
    losses = scan["log_loss_held_out"]
    assert (
        data["model"]["weight"]
        == scan["best"]
        == min(map(float, losses), key=lambda w: losses[str(w)])
    )
    assert losses[str(scan["best"])] < losses["0.0"]  # listening beats deaf on held-out games
    small = data["first_games"]
    assert fit_talk_model.fit(records[: small["games"]]) == {
        k: v for k, v in small.items() if k != "games"
    }


def test_the_silence_rates_are_the_committed_counts() -> None:
    """fit_talk_silence.py's rates (how often each party leaves a question by name unanswered)
    are its rule on the counts it committed, and are the rates listeners read by."""
    import fit_talk_silence

    from secret_hitler.bots import listening

    data = _data("talk_silence")
    assert data["command"].startswith("python benchmarks/fit_talk_silence.py")
    counts = data["counts"]
    rates = {
        party: round(fit_talk_silence.rate(c["unanswered"], c["closed"]), 5)
        for party, c in counts.items()
    }
    assert rates == data["unanswered"]
    assert listening.by_role(rates) == listening.UNANSWERED
    assert rates["liberal"] < rates["fascist_party"]
