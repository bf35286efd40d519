"""API checkers that respect the action mask.

Why: Gymnasium's ``check_env`` and stable-baselines3's ``check_env`` step with
``action_space.sample()``, which knows nothing of the mask; this env rejects an illegal id
by design (``IllegalActionError``), so run unchanged they fail at their first random step.
``LegalActionWrapper`` maps any id onto the legal ids so that every checker runs in full
against the env's real reset / step / observation / info behaviour:

    from gymnasium.utils.env_checker import check_env
    from fcm_env.env import FcmSingleAgentEnv, LegalActionWrapper

    check_env(LegalActionWrapper(FcmSingleAgentEnv(num_players=2, max_rounds=3)))
    # stable-baselines3: stable_baselines3.common.env_checker.check_env(the same wrapped env)

``check_envs()`` runs Gymnasium's checker on the single-agent env and PettingZoo's
``api_test`` (which samples with the mask already) on the AEC env. The wrapper is for
checkers only: do not train through it (the agent would never learn which ids are legal).
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np

from .single_agent import FcmSingleAgentEnv


class LegalActionWrapper(gymnasium.ActionWrapper, gymnasium.utils.RecordConstructorArgs):
    """Maps an unmasked action id onto the legal ids: ``legal[id % count]`` (checkers only).

    A proper Gymnasium wrapper (it records its constructor arguments, as Gymnasium's own wrappers do),
    so it may wrap ``gymnasium.make("fcm/FoodChainMagnateSingle-v0")`` and pass ``check_env`` there."""

    def __init__(self, env: gymnasium.Env):
        if not isinstance(env.unwrapped, FcmSingleAgentEnv):
            raise TypeError(f"LegalActionWrapper wraps FcmSingleAgentEnv, got {type(env.unwrapped).__name__}")
        gymnasium.utils.RecordConstructorArgs.__init__(self)
        gymnasium.ActionWrapper.__init__(self, env)

    def action(self, action: int) -> int:
        legal = np.flatnonzero(self.env.unwrapped.action_masks())
        if legal.size == 0:
            raise RuntimeError("no legal action: the episode is over, call reset()")
        return int(legal[int(action) % legal.size])


def check_envs(num_players: int = 2, max_rounds: int = 3, num_cycles: int = 300) -> None:
    """Gymnasium's ``check_env`` (through the wrapper) and PettingZoo's ``api_test``; raises on a failure."""
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from .aec import env as aec_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an unbounded Box observation and the wrapper: warnings only
        check_env(LegalActionWrapper(FcmSingleAgentEnv(num_players=num_players, max_rounds=max_rounds)),
                  skip_render_check=True)
        api_test(aec_env(num_players=num_players, max_rounds=max_rounds), num_cycles=num_cycles)
