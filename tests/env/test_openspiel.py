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


# ------------------------------------------------------------------ secrethitler.io's game types
#: Every game type as game parameters, together 5 to 10 players.
GAME_TYPES = [
    (5, "secrethitler-io", {"avalon": "merlin"}),
    (6, "official", {"avalon": "percival", "rebalanced": "6"}),
    (7, "secrethitler-io", {"avalon": "percival", "monarchist": True, "top_decking": "not_twice"}),
    (8, "official", {"monarchist": True}),
    (9, "official", {"rebalanced": "6,7,9", "top_decking": "forbidden"}),
    (10, "official", {"avalon": "percival", "monarchist": True, "top_decking": "forbidden"}),
]


@pytest.mark.parametrize(("players", "rules", "types"), GAME_TYPES)
def test_openspiels_random_simulation_test_passes_for_every_game_type(
    players: int, rules: str, types: dict[str, object]
) -> None:
    game = openspiel.load(players, rules, **types)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_game_types_are_game_parameters() -> None:
    """Loaded by name like any OpenSpiel game: the deal's outcomes are every deal of the table's
    role cards, the actions the environment's with the assassination where the game types need
    it; a combination the engine refuses, or a bad value, is refused naming the setting."""
    from secret_hitler.engine import Rules
    from secret_hitler.engine.chance import deals_of

    game = pyspiel.load_game("secret_hitler(players=7,avalon=percival,monarchist=true)")
    rules = Rules.from_json({"preset": "official", "avalon": "percival", "monarchist": True})
    deals = deals_of(rules.composition(7))
    assert len(game.new_initial_state().chance_outcomes()) == len(deals) == 2520
    assert game.num_distinct_actions() == 61
    assert openspiel.load(7).num_distinct_actions() == 51  # the default game is as before
    assert openspiel.load(7, rebalanced="7").num_distinct_actions() == 51
    size = Layout(openspiel.RECALL_HISTORY, game_types=True).size
    assert game.information_state_tensor_shape() == [size]
    with pytest.raises(Exception, match="monarchist: with avalon"):
        pyspiel.load_game("secret_hitler(players=6,avalon=percival,monarchist=true)")
    with pytest.raises(Exception, match="rebalanced: player counts"):
        openspiel.load(7, rebalanced="seven")
    with pytest.raises(Exception, match="avalon: must be one of"):
        openspiel.load(7, avalon="morgana")


@pytest.mark.parametrize(("players", "rules", "types"), GAME_TYPES[1:3])
def test_a_game_type_state_replays_and_pays_its_winners(
    players: int, rules: str, types: dict[str, object]
) -> None:
    """A finished game of a game type is an engine record that replays; each seat's return is
    whether it is among the winners (the Monarchist his own way); resampled worlds keep what
    the player knows (Percival's pair, Merlin's fascists)."""
    game = openspiel.load(players, rules, **types)
    rng = random.Random(players)
    resampled = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            player = state.current_player()
            if rng.random() < 0.1:
                world = state.resample_from_infostate(player, rng.random)
                assert world.information_state_string(player) == (
                    state.information_state_string(player)
                )
                resampled += 1
            state.apply_action(rng.choice(state.legal_actions()))
        engine = state.engine
        result = replay(engine.to_record())
        assert result.ok and result.game.winners == engine.winners
        assert state.returns() == [1.0 if s in engine.winners else -1.0 for s in range(players)]
    assert resampled > 5
