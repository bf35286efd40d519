"""fcm-magnate: Food Chain Magnate as a reinforcement-learning environment.

``fcm_env.env(num_players=4, ...)`` builds the PettingZoo AEC env and ``fcm_env.raw_env``
is its unwrapped class (both loaded on first use, so ``import fcm_env`` stays light).
Importing the package registers the envs by id:

* PettingZoo: ``pettingzoo.make("aec", "fcm/FoodChainMagnate-v0", num_players=2)``
* Gymnasium (single-agent view): ``gymnasium.make("fcm/FoodChainMagnateSingle-v0", num_players=2)``
  (the env itself, no wrapper: ``env.action_masks()`` is reachable)
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

AEC_ENV_ID = "fcm/FoodChainMagnate-v0"
SINGLE_AGENT_ENV_ID = "fcm/FoodChainMagnateSingle-v0"


def _register() -> None:
    """Register with PettingZoo's and Gymnasium's registries (string entry points: nothing is loaded)."""
    import gymnasium
    import pettingzoo

    # pettingzoo < 1.25 has no registry: the env is still reachable as fcm_env.env(...)
    if hasattr(pettingzoo, "register") and AEC_ENV_ID not in getattr(pettingzoo, "aec_registry", {}):
        pettingzoo.register("aec", AEC_ENV_ID, entry_point="fcm_env.env.aec:env")
    if SINGLE_AGENT_ENV_ID not in gymnasium.registry:
        # no OrderEnforcing / PassiveEnvChecker by default: the env enforces reset-before-step itself
        # and passes Gymnasium's full check_env in the tests, and without them ``gymnasium.make(...)``
        # is the env, so ``env.action_masks()`` works (Gymnasium 1.x wrappers forward no attribute)
        gymnasium.register(SINGLE_AGENT_ENV_ID, entry_point="fcm_env.env.single_agent:FcmSingleAgentEnv",
                           order_enforce=False, disable_env_checker=True)


_register()


def __getattr__(name: str) -> Any:
    """``env`` (the callable ``fcm_env.env`` package) and ``raw_env``, imported on first use."""
    if name == "env":
        return importlib.import_module("fcm_env.env")
    if name == "raw_env":
        return importlib.import_module("fcm_env.env.aec").raw_env
    raise AttributeError(f"module 'fcm_env' has no attribute {name!r}")


__all__ = ["AEC_ENV_ID", "SINGLE_AGENT_ENV_ID", "env", "raw_env"]
