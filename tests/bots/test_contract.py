"""The agents' contract (bots/base.py): one way to ask for a turn and for claims, for every
caller; the bots never reach up into the simulator."""

from __future__ import annotations

import ast
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import secret_hitler.bots as bots_package
from secret_hitler.bots import Agent, make_agent
from secret_hitler.bots.base import AgentError, ask_claims, decide, makes_claims, play_out
from secret_hitler.engine import Action, Game, View


class Scripted(Agent):
    """Answers with whatever it is told to."""

    def __init__(self, seat: int, turn: Any = None, claims: Any = None) -> None:
        super().__init__(seat, random.Random(0))
        self.turn, self.answer = turn, claims

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return self.turn if self.turn is not None else legal[0]

    def claims(self, view: View, options: Sequence[Action]) -> Any:
        return self.answer(options) if callable(self.answer) else self.answer


def _claiming_moment() -> tuple[Game, int, list[Action]]:
    """A game right after a session, with the president's claim window open."""
    game = Game(7, "official", 1)
    rng = random.Random(1)
    while not game.claimants():
        seat = game.to_act()[0]
        game.apply(rng.choice([a for a in game.legal_actions(seat) if a.type != "claim"]))
    seat = game.claimants()[0]
    return game, seat, [a for a in game.legal_actions(seat) if a.type == "claim"]


def test_decide_returns_an_offered_action_or_raises() -> None:
    game = Game(7, "official", 2)
    seat = game.to_act()[0]
    legal = game.legal_actions(seat)
    view = game.view(seat)
    assert decide(Scripted(seat), view, legal) is legal[0]
    copy = Action.from_json(legal[-1].to_json())  # an equal action of the agent's own
    assert decide(Scripted(seat, copy), view, legal) is copy
    wrong = Action(seat, "vote", ja=True)
    with pytest.raises(AgentError, match="not among its legal actions"):
        decide(Scripted(seat, wrong), view, legal)
    random_bot = make_agent("random", seat, 3)  # needs no view: asked choose(legal)
    assert decide(random_bot, None, legal) in legal


def test_claims_are_read_one_way() -> None:
    game, seat, options = _claiming_moment()
    view = game.view(seat)
    first, second = options[0], options[1]
    assert first.subject == second.subject
    assert ask_claims(Scripted(seat, claims=None), view, options) == []
    assert ask_claims(Scripted(seat, claims=[]), view, options) == []
    assert ask_claims(Scripted(seat, claims=first), view, options) == [first]
    assert ask_claims(Scripted(seat, claims=(first,)), view, options) == [first]
    # one claim per subject: the first counts
    assert ask_claims(Scripted(seat, claims=[second, first]), view, options) == [second]
    for bad in ([Action(seat, "vote", ja=True)], ["president_hand"], 42):
        with pytest.raises(AgentError):
            ask_claims(Scripted(seat, claims=bad), view, options)
    with pytest.raises(AgentError, match="not offered"):
        ask_claims(Scripted(seat, claims=[Action(seat, "vote", ja=True)]), view, options)


def test_makes_claims_tells_the_agents_that_claim() -> None:
    assert not makes_claims(Agent(0))
    assert not makes_claims(make_agent("random", 0, 0))
    assert makes_claims(make_agent("rule", 0, 0))
    assert not makes_claims(object())


def test_play_out_names_the_seat_that_broke_the_contract() -> None:
    game = Game(5, "official", 4)
    agents: list[Agent] = [make_agent("rule", s, s) for s in range(5)]
    liar = game.candidate
    agents[liar] = Scripted(liar, turn=Action(liar, "execute", target=0))
    with pytest.raises(AgentError, match=f"at seat {liar} \\(game seed 4\\)"):
        play_out(game, agents)
    # a claim outside the offer, the same way
    game = Game(5, "official", 4)
    talkers: list[Agent] = [
        Scripted(s, claims=lambda options, s=s: [Action(s, "vote", ja=True)]) for s in range(5)
    ]
    with pytest.raises(AgentError, match="not offered"):
        play_out(game, talkers)


def test_the_bots_never_import_the_simulator() -> None:
    """Layers point down: the bots drive rollouts with their own contract (``play_out``);
    function-level imports count."""
    for path in Path(bots_package.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                assert not module.lstrip(".").startswith("sim"), (path.name, module)
                assert "secret_hitler.sim" not in module, (path.name, module)
            elif isinstance(node, ast.Import):
                assert all(not a.name.startswith("secret_hitler.sim") for a in node.names)
