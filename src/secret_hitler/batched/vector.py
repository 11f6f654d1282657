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
        # What a step reads of the state, compiled in one program: the mask, the observation
        # and the seat are derived from the state where read, and op by op they cost far more
        # than the step itself. Kept for the state they were read from.
        self._unpack = jax.jit(
            lambda st: (current_observation(st), st.legal_action_mask, st.current_player)
        )
        self._read_from: C.State | None = None
        self._read: tuple[np.ndarray, np.ndarray, np.ndarray] = (np.empty(0),) * 3
        self._deal_again = jax.jit(
            lambda done, fresh, old: jax.tree.map(
                lambda new, was: jnp.where(done.reshape((-1,) + (1,) * (was.ndim - 1)), new, was),
                fresh,
                old,
            )
        )

    def _current(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The current players' observations, masks and seats (read once per state)."""
        st = self.state
        assert st is not None
        if self._read_from is not st:
            self._read = tuple(np.asarray(x) for x in jax.device_get(self._unpack(st)))  # type: ignore[assignment]
            self._read_from = st
        return self._read

    def _obs(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        observation, mask, seat = self._current()
        obs = {"observation": observation, "action_mask": mask.astype(np.int8)}
        return obs, {"seat": seat}

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
        _, mask, seat = self._current()
        live = ~self._done
        size = self.env.num_actions
        ok = (actions >= 0) & (actions < size)
        ok &= mask[np.arange(self.num_envs), np.clip(actions, 0, size - 1)]
        if np.any(live & ~ok):
            bad = int(np.flatnonzero(live & ~ok)[0])
            raise ValueError(f"action {int(actions[bad])} is not legal in game {bad}")
        st = self.env.step(st, jnp.asarray(actions))
        rewards = np.zeros(self.num_envs, np.float32)
        acted = live & (seat >= 0)
        rewards[acted] = np.asarray(st.rewards)[acted, seat[acted]]
        if np.any(self._done):  # next-step autoreset: games that ended last step start again
            self._key, key = jax.random.split(self._key)
            fresh = self.env.init(jax.random.split(key, self.num_envs))
            st = self._deal_again(jnp.asarray(self._done), fresh, st)
        self.state = st
        terminated = np.asarray(st.terminated) & live
        truncated = np.asarray(st.truncated) & live
        self._done = terminated | truncated
        obs, info = self._obs()
        return obs, rewards, terminated, truncated, info
