"""secrethitler.io's game types in the batched engine, judged by the engine as the presets are
(test_batched_engine.py): the rebalanced 6-, 7- and 9-player tables (another deck, and at 6
players one fascist policy on the track from the start) and no top-decking (a failed election's
chaos ends the game: always, or the second since the last passed election) deal as the engine
deals them, every random game replays in the engine to the same end, and sampled games see and
may do at every step what the environment's seats see and may do (with no top-decking the
environment's ``game_types`` blocks: 61 actions, 908 floats). The game types the batched engine
does not play are refused with a clear error."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pettingzoo")

from test_batched_engine import STEPS, _fixings, _summary  # noqa: E402

from secret_hitler.batched import core as C  # noqa: E402
from secret_hitler.batched import play, record  # noqa: E402
from secret_hitler.engine import Game, Rules, replay, replay_summary  # noqa: E402
from secret_hitler.env import raw_env  # noqa: E402

# the site's lobby offers the three checkboxes together; each applies at its own count
REBALANCED = {"preset": "secrethitler-io", "rebalanced": [6, 7, 9]}
TABLES = [
    (6, REBALANCED),
    (7, REBALANCED),
    (9, REBALANCED),
    (7, {"preset": "secrethitler-io", "top_decking": "forbidden"}),
    (6, {"preset": "secrethitler-io", "top_decking": "not_twice", "rebalanced": [6]}),
]
IDS = ["rebalanced-6", "rebalanced-7", "rebalanced-9", "no-top-decking-7", "not-twice-6"]
GAMES = 256
SAMPLED = 3


@pytest.mark.parametrize(("players", "rules"), TABLES, ids=IDS)
def test_every_game_replays_in_the_engine_to_the_same_end(
    players: int, rules: dict[str, object]
) -> None:
    """The deal is the engine's table (its deck and starting track), and every game, written
    as a record with the rules it was played under, replays to the same winner, reason and
    final state; under no top-decking some games end top-decked."""
    env = C.Env(players, rules)
    engine = Game(players, rules, seed=0)
    state = env.init(jax.random.split(jax.random.key(players), GAMES))
    assert np.all(np.asarray(state.liberal) == engine.liberal)
    assert np.all(np.asarray(state.fascist) == engine.fascist)
    deck = sorted(p.value for p in engine.initial_deck)
    final, seats, actions = play.random_games(env.config, state, jax.random.key(8), STEPS)
    final = jax.device_get(final)
    assert bool(np.all(final.terminated)) and not bool(np.any(final.truncated))
    reasons = set()
    for g, rec in enumerate(record.to_records(env.config, final, seats, actions)):
        assert Rules.from_json(rec["rules"]) == env.config.rules
        assert sorted(rec["deck"]) == deck  # the engine's deck for this count
        result = replay(rec)  # every action checked, the recorded result too
        assert result.ok, (g, result.error)
        expected = replay_summary(result.game)
        expected.pop("next")
        assert _summary(final, g, players) == expected, g
        reasons.add(expected["reason"])
    assert ("top_decked" in reasons) == (env.config.top_decking != "allowed")


@pytest.mark.parametrize(("players", "rules"), TABLES, ids=IDS)
def test_observations_and_masks_equal_the_environments(
    players: int, rules: dict[str, object]
) -> None:
    """Sampled games stepped in both with the same fixings and actions: the current player,
    every seat's observation (the pile fractions of a 16-policy deck, the ``game_types`` block
    and its known parties included) and mask at every step, and the rewards at the end."""
    benv = C.Env(players, rules)
    state = benv.init(jax.random.split(jax.random.key(30 + players), SAMPLED))
    final, seats, actions, states = play.random_games(
        benv.config, state, jax.random.key(4), STEPS, True
    )
    final, seats, actions = jax.device_get((final, seats, actions))
    every_seat = np.tile(np.arange(players), STEPS)
    for g, rec in enumerate(record.to_records(benv.config, final, seats, actions)):
        mine = jax.tree.map(lambda x, g=g: np.repeat(np.asarray(x[:, g]), players, 0), states)
        obs, masks = jax.device_get(benv.observe(mine, every_seat))
        obs = obs.reshape(STEPS, players, -1)
        masks = masks.reshape(STEPS, players, -1).astype(np.int8)
        current = np.asarray(states.current_player[:, g])
        env = raw_env(players, rules)
        env.reset(options=_fixings(rec))
        for t in range(len(rec["actions"])):
            assert current[t] == int(env.agent_selection.split("_")[1]), (g, t)
            for s in range(players):
                want = env.observe(f"player_{s}")
                np.testing.assert_array_equal(obs[t, s], want["observation"], err_msg=f"{g} {t}")
                np.testing.assert_array_equal(masks[t, s], want["action_mask"], err_msg=f"{g} {t}")
            env.step(int(actions[t, g]))
        assert all(env.terminations.values()) and bool(final.terminated[g])
        rewards = np.asarray(states.rewards[len(rec["actions"]), g])
        assert rewards.tolist() == [env.rewards[f"player_{s}"] for s in range(players)]


@pytest.mark.parametrize(
    "game_type",
    [
        {"avalon": "merlin"},
        {"avalon": "percival"},
        {"monarchist": True},
    ],
    ids=["avalon", "percival", "monarchist"],
)
def test_game_types_it_does_not_play_are_refused_clearly(game_type: dict[str, object]) -> None:
    """A table of roles or endings the batched engine has no place for is refused at
    configuration, saying what it plays and where the game type is played, instead of being
    played as a plain game."""
    with pytest.raises(ValueError, match="not Avalon SH or the Monarchist") as error:
        C.Config(7, {"preset": "secrethitler-io", **game_type})
    assert "secret_hitler.env" in str(error.value)
