"""The environments: PettingZoo AEC (``aec``), the Gymnasium single-agent view
(``single_agent``), the batched vector env (``vector``) and the same over worker processes
(``parallel``, shared memory).

``fcm_env.env`` is this package *and* the PettingZoo constructor: calling it,
``fcm_env.env(num_players=3)`` or ``fcm_env.env(3)``, returns the wrapped AEC env of ``aec.env``
(the PettingZoo spelling; a package cannot otherwise share the name of a function).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from .aec import env as _aec_env
from .aec import raw_env
from .checks import LegalActionWrapper, check_envs
from .common import DECISION_NAMES, OBSERVATION_FORMATS, PHASE_NAMES, split_observation
from .parallel import ParallelFcmVectorEnv
from .rewards import REWARD_SCHEMES, SHAPINGS, final_rewards, standings
from .single_agent import FcmSingleAgentEnv
from .vector import FcmVectorEnv

__all__ = [
    "DECISION_NAMES",
    "OBSERVATION_FORMATS",
    "PHASE_NAMES",
    "REWARD_SCHEMES",
    "SHAPINGS",
    "FcmSingleAgentEnv",
    "FcmVectorEnv",
    "LegalActionWrapper",
    "ParallelFcmVectorEnv",
    "check_envs",
    "final_rewards",
    "raw_env",
    "split_observation",
    "standings",
]


class _CallablePackage(types.ModuleType):
    """Module type of this package: calling it builds the wrapped AEC env."""

    def __call__(self, *args: Any, **kwargs: Any):
        return _aec_env(*args, **kwargs)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled as "import me again", as modules are: cloudpickle (Ray, RLlib's ``register_env``)
        pickles the modules a function uses, but knows only the exact ``ModuleType``, not this subclass."""
        return importlib.import_module, (self.__name__,)


sys.modules[__name__].__class__ = _CallablePackage
