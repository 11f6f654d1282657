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
