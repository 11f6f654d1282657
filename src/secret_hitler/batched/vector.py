"""A Gymnasium vector environment over the batched engine (``gymnasium.vector.VectorEnv``).

Every sub-environment is one game seen by its current player: ``step(actions)`` takes one
Discrete(51) index per game (Discrete(68) with ``claims=True``), the observation is the next current player's
``{"observation", "action_mask"}`` (the research environment's encoding), the reward is what
the step gave the seat that acted (its team's +1/-1 on the step that ends the game, else 0),
and a finished game is dealt again on the next step (Gymnasium's next-step autoreset). Illegal
actions raise ``ValueError`` and change nothing. ``info["seat"]`` is the seat to act.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import jax
import jax.numpy as jnp
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from . import core as C
from .observation import current_observation


class SecretHitlerVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games of ``players`` seats under ``rules``, stepped in lockstep in JAX;
    ``claims`` as the environment's."""

    metadata: dict[str, Any] = {"autoreset_mode": gym.vector.AutoresetMode.NEXT_STEP}

    def __init__(
        self, num_envs: int, players: int = 7, rules: Any = "official", claims: bool = False
    ) -> None:
        self.env = C.Env(players, rules, claims=claims)
        self.num_envs = num_envs
        actions = self.env.num_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.env.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._key = jax.random.key(0)
        self.state: C.State | None = None
        self._done = np.zeros(num_envs, bool)
        self._unpack = jax.jit(current_observation)  # computed from the state where read

    def _obs(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        st = self.state
        assert st is not None
        obs = {
            "observation": np.asarray(self._unpack(st)),
            "action_mask": np.asarray(st.legal_action_mask).astype(np.int8),
        }
        return obs, {"seat": np.asarray(st.current_player)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is not None:
            self._key = jax.random.key(seed)
        self._key, key = jax.random.split(self._key)
        self.state = self.env.init(jax.random.split(key, self.num_envs))
        self._done[:] = False
        return self._obs()

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        st = self.state
        assert st is not None
        actions = np.asarray(actions, np.int32).reshape(self.num_envs)
        mask = np.asarray(st.legal_action_mask)
        live = ~self._done
        size = self.env.num_actions
        ok = (actions >= 0) & (actions < size)
        ok &= mask[np.arange(self.num_envs), np.clip(actions, 0, size - 1)]
        if np.any(live & ~ok):
            bad = int(np.flatnonzero(live & ~ok)[0])
            raise ValueError(f"action {int(actions[bad])} is not legal in game {bad}")
        seat = np.asarray(st.current_player)
        st = self.env.step(st, jnp.asarray(actions))
        rewards = np.zeros(self.num_envs, np.float32)
        acted = live & (seat >= 0)
        rewards[acted] = np.asarray(st.rewards)[acted, seat[acted]]
        if np.any(self._done):  # next-step autoreset: games that ended last step start again
            self._key, key = jax.random.split(self._key)
            fresh = self.env.init(jax.random.split(key, self.num_envs))
            done = jnp.asarray(self._done)
            st = jax.tree.map(
                lambda new, old: jnp.where(done.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
                fresh,
                st,
            )
        self.state = st
        terminated = np.asarray(st.terminated) & live
        truncated = np.asarray(st.truncated) & live
        self._done = terminated | truncated
        obs, info = self._obs()
        return obs, rewards, terminated, truncated, info
