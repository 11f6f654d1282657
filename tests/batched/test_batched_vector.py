"""The Gymnasium vector adapter: the spaces, next-step autoreset, rewards to the seat that
acted, and an illegal action refused without a change."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("gymnasium")

from secret_hitler.batched.vector import SecretHitlerVectorEnv  # noqa: E402


def test_random_games_end_with_team_rewards_and_start_again() -> None:
    env = SecretHitlerVectorEnv(8, players=5)
    obs, info = env.reset(seed=1)
    assert obs["observation"].shape == (8, 825) and obs["action_mask"].shape == (8, 51)
    rng = np.random.default_rng(0)
    ended = np.zeros(8, int)
    for _ in range(400):
        legal = [np.flatnonzero(m) for m in obs["action_mask"]]
        actions = np.array([rng.choice(x) if len(x) else 0 for x in legal])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert np.all(rewards[~terminated] == 0.0)
        assert np.all(rewards[terminated] != 0.0)  # the last move's seat gets its team's result
        ended += terminated
        assert not truncated.any()
    assert np.all(ended >= 1)  # every game ended at least once and was dealt again


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = SecretHitlerVectorEnv(2, players=7)
    obs, _ = env.reset(seed=2)
    bad = np.array([int(np.flatnonzero(obs["action_mask"][0] == 0)[0])] * 2)
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)
    again = env._obs()[0]
    np.testing.assert_array_equal(again["observation"], obs["observation"])


def test_with_claims_a_claim_keeps_the_turn_and_shows_in_the_observation() -> None:
    """``claims=True``: Discrete(68) and the longer observation; a claim is a step after which
    the same seat acts again, its window closed, and the claims rows change."""
    env = SecretHitlerVectorEnv(16, players=7, claims=True)
    obs, info = env.reset(seed=3)
    assert obs["observation"].shape == (16, 945) and obs["action_mask"].shape == (16, 68)
    rng = np.random.default_rng(1)
    claims = 0
    for _ in range(300):
        legal = [np.flatnonzero(m) for m in obs["action_mask"]]
        # claim whenever one is open, else a random move
        actions = np.array(
            [(x[x >= 51][0] if np.any(x >= 51) else rng.choice(x)) if len(x) else 0 for x in legal]
        )
        before, seats = obs, info["seat"]
        obs, _, terminated, _, info = env.step(actions)
        for g in np.flatnonzero((actions >= 51) & ~terminated):
            claims += 1
            assert info["seat"][g] == seats[g]
            assert obs["action_mask"][g, actions[g]] == 0
            assert not np.array_equal(obs["observation"][g], before["observation"][g])
    assert claims > 100
