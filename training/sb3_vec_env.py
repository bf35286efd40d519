"""Stable-Baselines3 view of the batched env, so sb3-contrib's ``MaskablePPO`` trains on it directly.

``Sb3FcmVecEnv`` is an SB3 ``VecEnv`` around ``fcm_env.env.vector.FcmVectorEnv``:

* ``reset()`` uses the seeds given by ``seed()`` (sub-env ``i``: ``seed + i``) once, as SB3 does;
* ``step_wait()`` returns ``(obs float32[B, F], rewards float32[B], dones bool[B], infos list[dict])``
  with SB3's auto-reset keys: ``infos[i]["terminal_observation"]`` and ``"TimeLimit.truncated"``
  (True when ``max_rounds`` cut the game off), plus the finished game's info (winners, rank, cash);
* ``env_method("action_masks")`` returns one bool mask per sub-env, which is what
  ``sb3_contrib.common.maskable.utils.get_action_masks`` stacks; ``has_attr("action_masks")``
  is True, so ``MaskablePPO`` sees masking as supported.

Wrap it in ``VecMonitor`` for episode returns and lengths in the logs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvObs, VecEnvStepReturn

from fcm_env.env.single_agent import FcmSingleAgentEnv
from fcm_env.env.vector import FcmVectorEnv


class Sb3FcmVecEnv(VecEnv):
    """SB3 ``VecEnv`` over ``FcmVectorEnv`` (same arguments: ``num_envs``, ``env_fn`` or env kwargs)."""

    def __init__(self, num_envs: int = 8, env_fn: Callable[[], FcmSingleAgentEnv] | None = None,
                 **env_kwargs: Any):
        self.env_fn = env_fn
        self.venv = FcmVectorEnv(num_envs, env_fn, copy=True, **env_kwargs)
        self.envs = self.venv.envs
        self.actions: np.ndarray | None = None
        super().__init__(num_envs, self.venv.single_observation_space, self.venv.single_action_space)

    def call_factory(self, name: str, *args: Any) -> list[Any]:
        """``env_fn.<name>(*args)``, as a one-item list (``ParallelSb3FcmVecEnv`` has one per process)."""
        return [getattr(self.env_fn, name)(*args)]

    # ------------------------------------------------------------------ stepping

    def reset(self) -> VecEnvObs:
        seeds = self._seeds if any(s is not None for s in self._seeds) else None
        obs, _ = self.venv.reset(seed=seeds)
        self.reset_infos = [self.envs[i]._info() for i in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self.actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminations, truncations, _ = self.venv.step(self.actions)
        dones = terminations | truncations
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            info = dict(self.venv.final_infos[i])
            info["terminal_observation"] = self.venv.final_observations[i]
            info["TimeLimit.truncated"] = bool(truncations[i] and not terminations[i])
            infos[i] = info
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.venv.close()

    # ------------------------------------------------------------------ attributes and methods of sub-envs

    def _targets(self, indices: VecEnvIndices) -> list[FcmSingleAgentEnv]:
        return [self.envs[i] for i in self._get_indices(indices)]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(e, attr_name) for e in self._targets(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for e in self._targets(indices):
            setattr(e, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks" and not method_args and not method_kwargs:
            masks = self.venv.action_masks()  # one batched copy instead of one call per sub-env
            return [masks[i] for i in self._get_indices(indices)]
        return [getattr(e, method_name)(*method_args, **method_kwargs) for e in self._targets(indices)]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]  # sub-envs are bare FcmSingleAgentEnv

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [e.render() if e.render_mode == "rgb_array" else None for e in self.envs]
