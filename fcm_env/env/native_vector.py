"""The batched vector env on the native core: ``FcmVectorEnv(num_envs, engine="native", threads=T)``.

When the sub-envs play against the default random-legal opponents, or against an opponent mix a higher
layer hands over (``opponents``: an object whose ``opponent_mix_capsule()`` gives the C++ mix, as
``fcm_agents.native._agents.OpponentMix`` does; the env builds it through the ``native_opponents()`` of its
``env_fn`` or ``opponent_sampler``), the whole batch steps in C++
(``fcm_env.native._core.VecEnv``): the learners' actions are checked, applied, the opponents play inside
the core, the rewards and the same-step auto-resets are computed there, and the observations and masks are
written into the batch buffers, the GIL released, over ``threads`` threads. Each sub-env draws exactly what
``FcmSingleAgentEnv(engine="python")`` draws (its game seed, learner seat and opponents' seeds from its own
generator, the opponents' moves as ``RandomLegalPlayer`` chooses them), so sub-env ``i`` plays the same
games on either engine.

``NativeSubEnv`` stands for one sub-env where Python asks for it (``FcmVectorEnv.envs``, ``env_call``): its
game, learner, infos and render.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fcm_env import engines
from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS

from . import common
from .rewards import standings


def _native() -> Any:
    from fcm_env.native import _core

    return _core


class NativeSubEnv:
    """One sub-env of a native batch, as Python reads it (attributes of ``FcmSingleAgentEnv`` it shares)."""

    def __init__(self, batch: NativeBatch, index: int) -> None:
        self._batch = batch
        self.index = index
        for name, value in batch.settings.items():
            setattr(self, name, value)
        self.agent_names = [f"player_{p}" for p in range(batch.num_players)]
        self.engine = "native"

    @property
    def game(self) -> Any:
        """A copy of the running game (a ``NativeGame``): reading it never changes the batch."""
        return engines.from_core(self._batch.core.game(self.index))

    @property
    def learner(self) -> int:
        return self._batch.core.learner(self.index)

    def _info(self) -> dict[str, Any]:
        return self._batch.info(self.game, self.learner)

    def action_masks(self) -> np.ndarray:
        return self._batch.masks[self.index].copy()

    def observe_into(self, out: np.ndarray) -> np.ndarray:
        """The learner's flat observation written into ``out`` (float32[FLAT_SIZE])."""
        return self.game.observe_flat(self.learner, out)

    def mask_into(self, out: np.ndarray) -> np.ndarray:
        """The learner's legal ids as 1s in ``out`` (int8 or bool [NUM_ACTIONS]); zeros once over."""
        out[:] = self._batch.masks[self.index]
        return out

    def render(self) -> str | np.ndarray | None:
        return common.render_game(self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


class NativeBatch:
    """The C++ batch and its buffers; ``FcmVectorEnv`` drives it (see the module docstring)."""

    def __init__(self, num_envs: int, threads: int, settings: dict[str, Any], opponents: Any = None) -> None:
        core = _native()
        if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
            raise ValueError(f"threads must be a positive int, got {threads!r}")
        self.settings = settings
        self.num_players = settings["num_players"]
        seat = settings["learner_seat"]
        self.core = core.VecEnv(num_envs, self.num_players, settings["variant"], settings["max_rounds"],
                                settings["reward_scheme"], settings["shaping"], -1 if seat == "random" else int(seat),
                                settings["truncation_as_termination"], settings["game_seeds"], int(threads),
                                opponents)
        self.opponents = opponents
        self.num_envs = num_envs
        self.obs = np.zeros((num_envs, FLAT_SIZE), dtype=np.float32)
        self.masks = np.zeros((num_envs, NUM_ACTIONS), dtype=bool)
        self.rewards = np.zeros(num_envs, dtype=np.float64)
        self.terminations = np.zeros(num_envs, dtype=bool)
        self.truncations = np.zeros(num_envs, dtype=bool)
        self.done = np.zeros(num_envs, dtype=bool)
        self.final_obs = np.zeros((num_envs, FLAT_SIZE), dtype=np.float32)
        self._entropy = np.random.default_rng()
        self.subs = [NativeSubEnv(self, i) for i in range(num_envs)]

    def reset(self, seeds: list[int | None]) -> None:
        chosen = []
        for s in seeds:
            if s is None:
                chosen.append(-1)
                continue
            seed = common.check_seed(s)
            if not 0 <= seed < 2**63:
                raise ValueError(f"the native vector env takes seeds 0 <= seed < 2**63, got {seed}")
            chosen.append(seed)
        entropy = [int(x) for x in self._entropy.integers(0, 2**63, size=self.num_envs)]
        self.core.reset(chosen, entropy, self.obs, self.masks)

    def pick(self, u: np.ndarray) -> np.ndarray:
        """``FcmVectorEnv.random_actions`` on the batch: the core picks from its cached legal lists."""
        return self.core.pick(np.ascontiguousarray(u, dtype=np.float64))

    def step(self, actions: np.ndarray) -> None:
        from fcm_env.engine.actions import IllegalActionError

        core = _native()
        ids = np.ascontiguousarray(actions, dtype=np.int64)
        try:
            self.core.step(ids, self.obs, self.masks, self.rewards, self.terminations, self.truncations, self.done,
                           self.final_obs)
        except core.NativeIllegalAction as error:  # checked before any game moved: nothing changed
            raise IllegalActionError(str(error)) from None

    def info(self, game: Any, learner: int) -> dict[str, Any]:
        """``FcmSingleAgentEnv._info`` of a native game: numbers only, the same keys on every step."""
        strings = self.settings["info_strings"]
        names = [f"player_{p}" for p in range(self.num_players)]
        info = common.step_info(game, learner, names, strings)
        info["learner_id"] = learner
        if strings:
            info["learner"] = names[learner]
        if game.is_over:
            common.final_info(info, game, learner, standings(game.state), names, strings)
        return info

    def final_info(self, index: int) -> dict[str, Any]:
        return self.info(engines.from_core(self.core.final_game(index)), self.core.final_learner(index))
