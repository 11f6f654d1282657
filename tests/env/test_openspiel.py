"""Secret Hitler in OpenSpiel: registered, OpenSpiel's random-simulation test passes for every
preset, chance nodes are the engine's (and a record's fixings), the resampler is the engine's,
and PettingZoo reaches it through Shimmy."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("shimmy")

from secret_hitler.engine import PRESETS, Game, replay  # noqa: E402
from secret_hitler.env import openspiel  # noqa: E402
from secret_hitler.env.encoding import Layout  # noqa: E402


@pytest.mark.parametrize(
    ("rules", "players"),
    [("official", 5), ("secrethitler-io", 7), ("kickstarter", 8), ("tabletop-tw", 6),
     ("forum", 9), ("summary-zh", 10)],
)  # fmt: skip
def test_openspiels_random_simulation_test_passes(rules: str, players: int) -> None:
    game = openspiel.load(players, rules)
    assert game.get_type().short_name == "secret_hitler"
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def _play(game, rng: random.Random):
    state = game.new_initial_state()
    chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1.0) < 1e-9
            state.apply_action(rng.choice(outcomes))
            chance += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state, chance


@pytest.mark.parametrize("rules", list(PRESETS))
def test_a_finished_state_is_an_engine_record_that_replays(rules: str) -> None:
    """The chance nodes are the deal, first president, deck and each reshuffle: the engine
    game built from them replays as a record to the returns' winner."""
    game = openspiel.load(7, rules)
    rng = random.Random(3)
    for _ in range(5):
        state, chance = _play(game, rng)
        engine = state.engine
        record = engine.to_record()
        assert chance == 3 + len(record["reshuffles"])
        result = replay(record)
        assert result.ok and result.game.winner == engine.winner
        returns = state.returns()
        assert sorted(set(returns)) == [-1.0, 1.0]
        for seat, role in enumerate(record["roles"]):
            won = (role == "liberal") == (engine.winner.value == "liberal")
            assert returns[seat] == (1.0 if won else -1.0)


def test_a_state_plays_one_engine_game_without_copying_or_rebuilding_it(monkeypatch) -> None:
    """Chance nodes are the engine's: a state applies each outcome and each move to its one
    engine game (no copy before a move, no game rebuilt after a chance node)."""
    built = []
    init = Game.__init__

    def counted(game, *args, **kwargs):
        built.append(kwargs.get("chance"))
        init(game, *args, **kwargs)

    def no_copy(game):
        raise AssertionError("the engine game was copied")

    monkeypatch.setattr(Game, "__init__", counted)
    monkeypatch.setattr(Game, "clone", no_copy)
    game = openspiel.load(7, "official")
    rng = random.Random(8)
    for _ in range(3):
        state = game.new_initial_state()
        engine = state.engine
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [o for o, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            assert state.engine is engine
    assert built == ["explicit"] * 3


def test_a_resampled_state_is_one_the_player_cannot_tell_apart() -> None:
    """``resample_from_infostate`` draws worlds with the engine's sampler: the player's
    information state, its turn and its legal actions are the same, the hidden roles vary."""
    game = openspiel.load(7, "official")
    rng = random.Random(4)
    resampled = other_roles = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            player = state.current_player()
            if rng.random() < 0.25:
                world = state.resample_from_infostate(player, rng.random)
                assert world.current_player() == player
                assert world.information_state_string(player) == (
                    state.information_state_string(player)
                )
                assert world.legal_actions() == state.legal_actions()
                resampled += 1
                other_roles += world.engine.roles != state.engine.roles
                if not world.is_terminal():  # the world plays on, its own chance included
                    world.apply_action(world.legal_actions()[0])
            state.apply_action(rng.choice(state.legal_actions()))
    assert resampled > 20 and other_roles > resampled // 4


def test_information_state_is_the_seats_view_and_the_environments_encoding() -> None:
    game = openspiel.load(7, "official")
    state, _ = _play(game, random.Random(5))
    big = Layout(openspiel.RECALL_HISTORY).size
    assert game.information_state_tensor_shape() == [big]
    assert game.observation_tensor_shape() == [Layout().size]
    view = state.engine.view(2)
    assert '"seat": 2' in state.information_state_string(2)
    assert len(state.information_state_string(2)) > len(state.observation_string(2))
    assert np.asarray(state.information_state_tensor(2)).shape == (big,)
    assert view.winner is not None


def test_pettingzoo_reaches_it_through_shimmy() -> None:
    from shimmy import OpenSpielCompatibilityV0

    # Shimmy loads the game again by its name and config at each reset
    config = {"players": 5, "rules": "official"}
    env = OpenSpielCompatibilityV0(game_name=openspiel.GAME_NAME, config=config)
    env.reset(seed=1)
    rng = random.Random(1)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(info["action_mask"])
        env.step(int(rng.choice(list(legal))))
        steps += 1
    assert steps > 10
