"""``bayes-human`` votes: the trees the bot evaluates are the ones the fit script scores, and its
features come from the voting seat's view only (issue 13.4)."""

from __future__ import annotations

import copy
import json
import sys
from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest

from secret_hitler.bots.base import make_agent
from secret_hitler.bots.bayes import BayesAgent, human_vote_trees
from secret_hitler.bots.beliefs import HUMAN_MODEL
from secret_hitler.engine import Action, game_from_record
from secret_hitler.engine import actions as A
from secret_hitler.engine.types import Phase
from secret_hitler.sim.evaluate import load_records

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


def test_the_bot_votes_by_the_fitted_trees() -> None:
    """Outside the two plain-sense votes (only in the Hitler zone, on a chancellor not
    confirmed not-Hitler), ``bayes-human`` votes ja exactly when the trees the fit script
    scores (``fit_vote_model.tree_margins``) give P(ja) >= 0.5; the bot's own evaluation of the
    trees gives the same log-odds."""
    import fit_vote_model

    model = json.loads(files("secret_hitler.bots").joinpath("data", "human_vote.json").read_text())
    checked = ja = 0
    for record in load_records(fit_vote_model.DATA, 6):
        agents = {s: make_agent("bayes-human", s, 0) for s in range(record["players"])}
        game = game_from_record(record, apply_actions=False)
        for raw in record["actions"]:
            action = Action.from_json(raw)
            if action.type == A.VOTE and game.phase is Phase.VOTE:
                seat = action.seat
                view = game.view(seat)
                agent = agents[seat]
                assert isinstance(agent, BayesAgent)
                x = agent.vote_features(view)
                margin = float(fit_vote_model.tree_margins(model["trees"], x[None, :])[0])
                assert human_vote_trees().margin(x) == pytest.approx(margin, abs=1e-9)
                zone = view.fascist_policies >= view.hitler_zone
                if not zone or view.nominee in view.not_hitler:
                    chosen = agent.act(view, game.legal_actions(seat))
                    assert chosen.ja == (margin >= 0.0)
                    checked += 1
                    ja += bool(chosen.ja)
            game.apply(action)
    assert checked > 300
    assert 0.2 < ja / checked < 0.8  # both votes occur: the model is not a constant


def test_vote_features_depend_only_on_what_the_seat_knows() -> None:
    """Swapping the roles of a fascist and a liberal changes nothing a third, liberal seat
    observes, so none of its vote features may change (no feature reads a hidden role)."""
    compared = 0
    for record in load_records(None, 4):
        roles = record["roles"]
        fascist = roles.index("fascist")
        liberals = [s for s, r in enumerate(roles) if r == "liberal"]
        swapped = copy.deepcopy(record)
        swapped["roles"][fascist], swapped["roles"][liberals[0]] = "liberal", "fascist"
        pair = {fascist, liberals[0]}
        game_a = game_from_record(record, apply_actions=False)
        game_b = game_from_record(swapped, apply_actions=False)
        agents_a: dict[int, BayesAgent] = {}
        agents_b: dict[int, BayesAgent] = {}
        for raw in record["actions"]:
            action = Action.from_json(raw)
            seat = action.seat
            if action.type == A.VOTE and game_a.phase is Phase.VOTE and seat in liberals[1:]:
                va, vb = game_a.view(seat), game_b.view(seat)
                if not any(target in pair for target, _ in va.investigations):
                    # (else this seat learned the swapped party itself)
                    a = agents_a.setdefault(seat, BayesAgent(seat, None, HUMAN_MODEL))
                    b = agents_b.setdefault(seat, BayesAgent(seat, None, HUMAN_MODEL))
                    assert np.array_equal(a.vote_features(va), b.vote_features(vb))
                    compared += 1
            game_a.apply(action)
            game_b.apply(action)
    assert compared > 50


def test_trees_fitted_on_other_features_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A data file written for another feature list names the command to rerun (and the fit
    script, which builds no ``bayes-human``, can still import the bot to rerun it)."""
    from secret_hitler.bots import human_vote

    monkeypatch.setattr(human_vote, "VOTE_FEATURES", (*human_vote.VOTE_FEATURES, "a_new_feature"))
    with pytest.raises(RuntimeError, match="rerun its command"):
        human_vote.human_vote_trees.__wrapped__()
