"""The posterior stays exact under every preset's night knowledge and boards (issue 13.2).

Checked against brute force on small tables: the worlds are every distinct role assignment
(enumerated by permutation); the worlds the posterior keeps are exactly those consistent with
what the seat's ``View`` says it knows (own role, night, investigations, not-Hitler
confirmations, executions that did not end the game, revealed roles); and the posterior equals
Bayes' rule computed world by world, each world's likelihood from a belief that holds that one
world only (so no world's weight depends on the others'). Games are played by the bots under
each preset, including Hitler who never knows his team (summary-zh), custom fascist counts and
forum's next-president powers.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

import numpy as np
import pytest
from bot_games import claims_after_a_step

from secret_hitler.bots import beliefs as B
from secret_hitler.bots import make_agent, posterior
from secret_hitler.engine import Game, View
from secret_hitler.engine.settings import PRESETS, Rules
from secret_hitler.sim.simulator import derive_seed

ROLE = {"liberal": B.LIB, "fascist": B.FAS, "hitler": B.HIT}


def _assignments(n: int, fascists: int) -> set[tuple[int, ...]]:
    roles = [B.HIT] + [B.FAS] * fascists + [B.LIB] * (n - fascists - 1)
    return set(permutations(roles))


def _consistent(view: View, world: tuple[int, ...], executed: set[int]) -> bool:
    """Whether ``world`` agrees with every hard fact the view states (not its events)."""
    for s, role in enumerate(view.known_roles):
        if role is not None and world[s] != ROLE[role]:
            return False
    for target, party in view.investigations:
        if (world[target] == B.LIB) != (party == "liberal"):
            return False
    if any(world[s] == B.HIT for s in view.not_hitler):
        return False
    return not any(world[s] == B.HIT for s in executed)  # the game went on after them


def _single_world_loglik(view: View, world: np.ndarray, model: B.Model) -> float:
    """The log-likelihood of this seat's events in one world, from a belief of that world only."""
    saved = posterior.worlds_matrix  # where a posterior gets its worlds
    try:
        posterior.worlds_matrix = lambda n, f: world[None, :]  # type: ignore[assignment]
        b = B.Beliefs.for_view(view, model=model)
    finally:
        posterior.worlds_matrix = saved
    b.update(view)
    out = float(b.logw[0])
    if b.session is not None and np.isfinite(out):
        out += float(b._open_session_loglik(b.session)[0])
    return out


def _rules(preset: str, **changes: Any) -> Any:
    return {"preset": preset, **changes} if changes else preset


CASES = [(5, p, {}, "bot") for p in PRESETS] + [
    (6, "official", {}, "bot"),
    (6, "summary-zh", {}, "bot"),
    (6, "official", {"fascists": 2}, "bot"),  # custom fascist count (one more than the table's)
    (5, "official", {"hitler_knows_fascists": False}, "bot"),
    (7, "forum", {}, "bot"),
    # HUMAN_MODEL's own terms (every president's picks, candidates' votes, term weights)
    (5, "official", {}, "human"),
    (6, "summary-zh", {}, "human"),
    (7, "forum", {}, "human"),
]
MODELS = {"bot": B.BOT_MODEL, "human": B.HUMAN_MODEL}


@pytest.mark.parametrize("players,preset,changes,model_name", CASES)
def test_posterior_matches_brute_force(
    players: int, preset: str, changes: dict, model_name: str
) -> None:
    model = MODELS[model_name]
    rules = Rules.from_json(_rules(preset, **changes))
    fascists = rules.fascist_count(players)
    worlds = _assignments(players, fascists)
    R = B.worlds_matrix(players, fascists)
    assert {tuple(int(v) for v in row) for row in R} == worlds and len(R) == len(worlds)
    checked = 0
    for g in range(2):
        seed = derive_seed("exact", players, preset, str(changes), g)
        game = Game(players, _rules(preset, **changes), seed)
        agents = [make_agent("bayes", s, seed + s) for s in range(players)]
        beliefs = [B.Beliefs.for_view(game.view(s), model=model) for s in range(players)]
        executed: set[int] = set()
        step = 0
        while not game.finished:
            seat = game.to_act()[0]
            legal = [a for a in game.legal_actions(seat) if a.type != "claim"]
            action = agents[seat].act(game.view(seat), legal)
            game.apply(action)
            claims_after_a_step(game, agents)
            if action.type == "execute" and not game.finished:
                assert action.target is not None
                executed.add(action.target)
            step += 1
            if game.finished or step % 9:
                continue
            for s in range(players):
                view = game.view(s)
                b = beliefs[s]
                b.update(view)
                keep = {tuple(int(v) for v in R[i]) for i in np.nonzero(np.isfinite(b.logw))[0]}
                expect = {w for w in worlds if _consistent(view, w, executed)}
                assert keep == expect, (preset, changes, s, view.role)
                if s != (step // 9) % players:
                    continue  # brute force for one seat per checkpoint (it replays per world)
                brute = np.array(
                    [_single_world_loglik(view, np.array(w, dtype=np.int8), b.model) for w in R]
                )
                assert np.allclose(B._normalize(brute), b.probs(), atol=1e-9)
                checked += 1
    assert checked >= 3


@pytest.mark.parametrize("players", [5, 6])
def test_hitler_who_never_knows_his_team_keeps_every_team_open(players: int) -> None:
    """summary-zh: Hitler learns nothing at night, so every fascist set stays possible; under
    official rules at 5-6 players he knows his fascist."""
    for preset, open_worlds in (("summary-zh", players - 1), ("official", 1)):
        game = Game(players, preset, seed=players)
        hitler = next(s for s, r in enumerate(game.roles) if r.value == "hitler")
        b = B.Beliefs.for_view(game.view(hitler))
        b.update(game.view(hitler))
        assert b.possible() == open_worlds, preset


def test_forum_powers_are_read_as_the_next_presidents_choice() -> None:
    """forum: a power goes to the next elected president; the execution the beliefs price is
    the seat that chose it (the event's president), as the engine logged it."""
    seen = 0
    for g in range(12):
        seed = derive_seed("forum", g)
        game = Game(7, "forum", seed)
        agents = [make_agent("rule", s, seed + s) for s in range(7)]
        while not game.finished:
            seat = game.to_act()[0]
            legal = [a for a in game.legal_actions(seat) if a.type != "claim"]
            action = agents[seat].act(game.view(seat), legal)
            game.apply(action)
            if action.type == "execute":
                event = [e for e in game.view(None).events if e["type"] == "executed"][-1]
                assert event["president"] == action.seat
                seen += 1
    assert seen > 0
