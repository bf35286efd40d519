"""Stable-Baselines3 view of the batched env, so sb3-contrib's ``MaskablePPO`` trains on it directly.

``Sb3FcmVecEnv`` is an SB3 ``VecEnv`` around ``fcm_env.env.vector.FcmVectorEnv``:

* ``reset()`` uses the seeds given by ``seed()`` (sub-env ``i``: ``seed + i``) once, as SB3 does;
* ``step_wait()`` returns ``(obs float32[B, F], rewards float32[B], dones bool[B], infos list[dict])``
  with SB3's auto-reset keys: ``infos[i]["terminal_observation"]`` and ``"TimeLimit.truncated"``
  (True when ``max_rounds`` cut the game off), plus the finished game's info (winner, rank, cash);
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

from fcm_env.env.parallel import ParallelFcmVectorEnv
from fcm_env.env.single_agent import FcmSingleAgentEnv
from fcm_env.env.vector import FcmVectorEnv


class Sb3FcmVecEnv(VecEnv):
    """SB3 ``VecEnv`` over ``FcmVectorEnv`` (same arguments: ``num_envs``, ``env_fn`` or env kwargs).

    ``venv`` may instead be any vector env with ``FcmVectorEnv``'s contract (``ParallelFcmVectorEnv``:
    ``ParallelSb3FcmVecEnv`` passes one); sub-env attributes and methods go through its ``env_call``.
    """

    def __init__(self, num_envs: int = 8, env_fn: Callable[[], FcmSingleAgentEnv] | None = None, *,
                 venv: FcmVectorEnv | ParallelFcmVectorEnv | None = None, **env_kwargs: Any):
        self.env_fn = env_fn
        self.venv = venv if venv is not None else FcmVectorEnv(num_envs, env_fn, copy=True, **env_kwargs)
        self.actions: np.ndarray | None = None
        self.render_mode = self.venv.render_mode
        super().__init__(self.venv.num_envs, self.venv.single_observation_space, self.venv.single_action_space)

    @property
    def envs(self) -> list[FcmSingleAgentEnv]:
        """The sub-envs themselves (in-process only: a parallel venv's live in other processes)."""
        if isinstance(self.venv, ParallelFcmVectorEnv):
            raise AttributeError("the sub-envs run in worker processes: use get_attr / env_method")  # noqa: TRY004
        return self.venv.envs

    def call_factory(self, name: str, *args: Any) -> list[Any]:
        """``env_fn.<name>(*args)`` in every process that builds sub-envs (one here; one per worker in
        ``ParallelSb3FcmVecEnv``)."""
        if isinstance(self.venv, ParallelFcmVectorEnv):
            return self.venv.call_factory(name, *args)
        return [getattr(self.env_fn, name)(*args)]

    # ------------------------------------------------------------------ stepping

    def reset(self) -> VecEnvObs:
        seeds = self._seeds if any(s is not None for s in self._seeds) else None
        obs, _ = self.venv.reset(seed=seeds)
        self.reset_infos = self.venv.env_call("method", "_info")
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self.actions = np.asarray(actions).reshape(self.num_envs)
        if isinstance(self.venv, ParallelFcmVectorEnv):
            self.venv.step_async(self.actions)  # the workers start at once

    def step_wait(self) -> VecEnvStepReturn:
        if isinstance(self.venv, ParallelFcmVectorEnv):
            obs, rewards, terminations, truncations, _ = self.venv.step_wait()
        else:
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

    def has_attr(self, attr_name: str) -> bool:
        """Asked of the first sub-env (all sub-envs are built by the same ``env_fn``)."""
        try:
            self.venv.env_call("get_attr", attr_name, [0])
        except AttributeError:
            return False
        return True

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self.venv.env_call("get_attr", attr_name, list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self.venv.env_call("set_attr", attr_name, list(self._get_indices(indices)), (value,))

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks" and not method_args and not method_kwargs:
            masks = self.venv.action_masks()  # one batched copy instead of one call per sub-env
            return [masks[i] for i in self._get_indices(indices)]
        return self.venv.env_call("method", method_name, list(self._get_indices(indices)), method_args,
                                  method_kwargs)

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]  # sub-envs are bare FcmSingleAgentEnv

    def get_images(self) -> Sequence[np.ndarray | None]:
        if self.render_mode != "rgb_array":
            return [None] * self.num_envs
        return self.venv.env_call("method", "render")
