"""A batched vector env: many single-agent games stepped in one call, into stacked numpy buffers.

``FcmVectorEnv`` is a ``gymnasium.vector.VectorEnv`` over ``num_envs`` copies of
``FcmSingleAgentEnv`` (same arguments, same rules, same rewards) stepped in turn in this
process. Observations and masks are written straight into preallocated arrays:

* ``obs``: ``float32[B, FLAT_SIZE]``, the learners' flat observations;
* ``action_masks()``: ``bool[B, NUM_ACTIONS]``, the learners' legal ids (all zero once a game is over);
* ``rewards`` ``float64[B]``, ``terminations`` / ``truncations`` ``bool[B]``.

Auto-reset is *same-step* (``metadata["autoreset_mode"] = AutoresetMode.SAME_STEP``, SB3's
convention): a sub-env whose game ended is reset inside the same ``step``; the returned row
already belongs to the new game, and the last observation and info of the finished game
are in ``infos["final_obs"]`` / ``infos["final_info"]`` (Gymnasium's dict-of-arrays infos,
with the ``"_final_obs"`` / ``"_final_info"`` masks). The same objects are kept, one per
sub-env, in ``final_observations`` / ``final_infos`` (None where no game ended this step).

Per-step infos of running games are not collected unless ``collect_infos=True`` (building
B dicts per step costs more than the rest of the batching). Infos carry no ``action_mask``:
``action_masks()`` holds them all. The sub-envs must use the flat observation
(``observation_format="flat"``): rows cut with ``fcm_env.env.split_observation`` give the dict.

Seeding follows Gymnasium: ``reset(seed=s)`` seeds sub-env ``i`` with ``s + i`` (or takes a
list of seeds); later auto-resets draw from each sub-env's own generator. So sub-env ``i``
plays exactly the games of ``FcmSingleAgentEnv(**kwargs)`` reset with ``seed=s + i`` and
then reset without a seed after every episode.

With ``copy=True`` (default) ``reset`` / ``step`` / ``action_masks`` return copies of the
buffers; ``copy=False`` returns the buffers themselves, overwritten by the next call.

``engine`` (``"auto"``, ``"native"``, ``"python"``) picks the sub-envs' engine. On the native engine with
the default random-legal opponents the whole batch steps in C++, over ``threads`` threads with the GIL
released (``fcm_env.env.native_vector``); the games, observations, masks, rewards and infos are the
Python engine's for the same seeds and actions. So does a batch whose ``env_fn`` (or ``opponent_sampler``)
has a ``native_opponents()`` method returning a native opponent mix (``fcm_agents.native._agents.OpponentMix``:
the training pool's ``fcm_training.sb3.selfplay.LearnerEnvs`` has one): the opponents it draws are drawn and
played in the core, as the sampler would draw them. Other opponents, or an ``env_fn`` without the hook (or
whose hook returns None), step the sub-envs in turn as above (``threads`` is then 1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from fcm_env import engines
from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS
from fcm_env.engine.actions import IllegalActionError

from . import common
from .native_vector import NativeBatch
from .single_agent import FcmSingleAgentEnv


class FcmVectorEnv(VectorEnv):
    """``num_envs`` single-agent games with stacked buffers (see the module docstring).

    The legal-action masks are neither in the observation nor in the infos: after ``reset`` and each
    ``step`` call ``env.action_masks()`` (``bool[num_envs, NUM_ACTIONS]``), the method sb3-contrib's
    ``MaskablePPO`` calls too.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": ["human", "ansi", "rgb_array"],
    }

    def __init__(
        self,
        num_envs: int = 8,
        env_fn: Callable[[], FcmSingleAgentEnv] | None = None,
        *,
        copy: bool = True,
        collect_infos: bool = False,
        threads: int = 1,
        **env_kwargs: Any,
    ):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if env_fn is not None and env_kwargs:
            raise ValueError("give env_fn or FcmSingleAgentEnv keyword arguments, not both")
        if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
            raise ValueError(f"threads must be a positive int, got {threads!r}")
        make = env_fn if env_fn is not None else (lambda: FcmSingleAgentEnv(**env_kwargs))
        self._native: NativeBatch | None = None
        plain = env_fn is None and not {"opponents", "opponent_sampler"} & set(env_kwargs)
        mixer = _native_opponents(env_fn, env_kwargs)
        if plain or mixer is not None:
            template = make()
            if engines.batch_core(template.engine) is not None and template.observation_format == "flat":
                mix = mixer() if mixer is not None else None
                if plain or mix is not None:
                    self._native = NativeBatch(int(num_envs), int(threads), _settings(template), mix)
        self.envs: list[Any] = self._native.subs if self._native else [make() for _ in range(int(num_envs))]
        for e in [] if self._native else self.envs:
            if not isinstance(e, FcmSingleAgentEnv):
                raise TypeError(f"env_fn must build FcmSingleAgentEnv instances, got {type(e).__name__}")
        if not self._native and len({id(e) for e in self.envs}) != len(self.envs):
            raise ValueError("env_fn returned the same instance twice: it must build a new env per call")
        if not self._native and any(e.observation_format != "flat" for e in self.envs):
            # the batch is one float32[B, FLAT_SIZE] buffer (shared memory in ParallelFcmVectorEnv)
            raise ValueError("the vector envs batch the flat observation: build the sub-envs with "
                             "observation_format='flat' and cut the rows with fcm_env.env.split_observation")
        first = self.envs[0]
        self.num_envs = int(num_envs)
        self.copy = copy
        self.collect_infos = collect_infos
        self.render_mode = first.render_mode
        self.single_observation_space = common.observation_space("flat")
        self.single_action_space = common.action_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

        b = self.num_envs
        if self._native:  # the core writes into the batch's own buffers
            self._obs, self._masks = self._native.obs, self._native.masks
        else:
            self._obs = np.zeros((b, FLAT_SIZE), dtype=np.float32)
            self._masks = np.zeros((b, NUM_ACTIONS), dtype=bool)
        self._rewards = np.zeros(b, dtype=np.float64)
        self._terminations = np.zeros(b, dtype=bool)
        self._truncations = np.zeros(b, dtype=bool)
        self.final_observations: list[np.ndarray | None] = [None] * b
        self.final_infos: list[dict[str, Any] | None] = [None] * b
        self._has_reset = False

    # ------------------------------------------------------------------ API

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        """Every sub-env starts a new game: ``(obs [B, FLAT_SIZE], infos)``."""
        seeds = self._seeds(seed)
        infos: dict[str, Any] = {}
        if self._native:
            self._native.reset(seeds)
            if self.collect_infos:
                for i, e in enumerate(self.envs):
                    infos = self._add_info(infos, e._info(), i)
        for i, (e, s) in enumerate(zip([] if self._native else self.envs, seeds, strict=False)):
            e._reset_core(s)
            self._write(i)
            if self.collect_infos:
                infos = self._add_info(infos, e._info(), i)
        self.final_observations = [None] * self.num_envs
        self.final_infos = [None] * self.num_envs
        self._has_reset = True
        if self.render_mode == "human":
            self.render()
        return self._out(), infos

    def step(self, actions: Sequence[int] | np.ndarray):
        """One action per sub-env: ``(obs, rewards, terminations, truncations, infos)``."""
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {actions.shape}")
        infos: dict[str, Any] = {}
        if self._native:
            if actions.dtype.kind not in "iu":  # as every sub-env refuses it (common.action_index): 3.7 is no id
                raise IllegalActionError(f"actions must be integer ids 0..{NUM_ACTIONS - 1}, got an array of "
                                         f"{actions.dtype}")
            return self._native_step(actions)
        for i, e in enumerate(self.envs):
            reward, terminated, truncated = e._advance(actions[i])
            self._rewards[i] = reward
            self._terminations[i] = terminated
            self._truncations[i] = truncated
            if terminated or truncated:
                final_obs = e.observe_into(np.empty(FLAT_SIZE, dtype=np.float32))
                final_info = e._info()
                self.final_observations[i] = final_obs
                self.final_infos[i] = final_info
                infos = self._add_info(infos, {"final_obs": final_obs, "final_info": final_info}, i)
                e._reset_core(None)
            else:
                self.final_observations[i] = None
                self.final_infos[i] = None
            self._write(i)
            if self.collect_infos:
                infos = self._add_info(infos, e._info(), i)
        if self.render_mode == "human":
            self.render()
        return (self._out(), self._rewards.copy(), self._terminations.copy(), self._truncations.copy(), infos)

    def _native_step(self, actions: np.ndarray):
        """``step`` on the native batch: one C++ call, then the final observations and infos of ended games."""
        batch = self._native
        batch.step(actions)
        infos: dict[str, Any] = {}
        ended = np.flatnonzero(batch.done).tolist()  # a few games a step at most: only those are visited
        self.final_observations = [None] * self.num_envs
        self.final_infos = [None] * self.num_envs
        for i in ended:
            final_obs = batch.final_obs[i].copy()
            final_info = batch.final_info(i)
            self.final_observations[i] = final_obs
            self.final_infos[i] = final_info
            infos = self._add_info(infos, {"final_obs": final_obs, "final_info": final_info}, i)
        if self.collect_infos:
            for i in range(self.num_envs):
                infos = self._add_info(infos, self.envs[i]._info(), i)
        if self.render_mode == "human":
            self.render()
        return (self._out(), batch.rewards.copy(), batch.terminations.copy(), batch.truncations.copy(), infos)

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """``int64[B]``: a uniformly random legal action id per sub-env (its learner's), for exploration or a
        random learner. With ``u = rng.random(B)`` (one draw per sub-env), sub-env ``i`` gets the
        ``floor(u[i] * k)``-th of its ``k`` sorted legal ids: the same ids on either engine. On the native
        batch the core picks them from its legal lists, with no pass over the ``B x NUM_ACTIONS`` masks."""
        if not self._has_reset:
            raise RuntimeError("call reset() before random_actions(): no game has started yet")
        u = rng.random(self.num_envs)
        if self._native:
            return self._native.pick(u)
        return pick_from_masks(self._masks, u)

    def action_masks(self) -> np.ndarray:
        """``bool[B, NUM_ACTIONS]``: each learner's legal ids (a copy; with ``copy=False`` the buffer)."""
        if not self._has_reset:
            raise RuntimeError("call reset() before action_masks(): no game has started yet")
        return self._masks.copy() if self.copy else self._masks

    def write_into(self, obs: np.ndarray, masks: np.ndarray) -> None:
        """Write observations and masks into these arrays from now on (say, shared memory).

        ``obs`` must be ``float32[B, FLAT_SIZE]`` and ``masks`` ``bool[B, NUM_ACTIONS]``; what the
        current buffers hold is copied over. With ``copy=False`` the returned arrays are these.
        """
        b = self.num_envs
        if obs.shape != (b, FLAT_SIZE) or obs.dtype != np.float32:
            raise ValueError(f"obs must be float32[{b}, {FLAT_SIZE}], got {obs.dtype}{list(obs.shape)}")
        if masks.shape != (b, NUM_ACTIONS) or masks.dtype != bool:
            raise ValueError(f"masks must be bool[{b}, {NUM_ACTIONS}], got {masks.dtype}{list(masks.shape)}")
        obs[:] = self._obs
        masks[:] = self._masks
        self._obs, self._masks = obs, masks
        if self._native:
            self._native.obs, self._native.masks = obs, masks

    def render(self) -> tuple[Any, ...] | None:
        """One render per sub-env (``human``: each sub-env prints its game and None is returned)."""
        if self.render_mode is None:
            return None
        frames = tuple(e.render() for e in self.envs)
        return None if self.render_mode == "human" else frames

    def close_extras(self, **kwargs: Any) -> None:
        for e in self.envs:
            e.close()

    # ------------------------------------------------------------------ helpers

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        return vector_seeds(seed, self.num_envs)

    def env_call(self, kind: str, name: str, indices: Sequence[int] | None = None, args: tuple = (),
                 kwargs: dict[str, Any] | None = None) -> list[Any]:
        """On the sub-envs ``indices`` (all by default): ``get_attr`` / ``set_attr`` (``args[0]``) /
        ``method`` (call ``name``) / ``call`` (call it if callable, else its value); one result each."""
        envs = self.envs if indices is None else [self.envs[i] for i in indices]
        kwargs = kwargs or {}
        if kind == "get_attr":
            return [getattr(e, name) for e in envs]
        if kind == "set_attr":
            for e in envs:
                setattr(e, name, args[0])
            return [None] * len(envs)
        if kind == "method":
            return [getattr(e, name)(*args, **kwargs) for e in envs]
        if kind == "call":
            values = [getattr(e, name) for e in envs]
            return [v(*args, **kwargs) if callable(v) else v for v in values]
        raise ValueError(f"kind must be get_attr, set_attr, method or call, got {kind!r}")

    def _write(self, i: int) -> None:
        e = self.envs[i]
        e.observe_into(self._obs[i])
        e.mask_into(self._masks[i])

    def _out(self) -> np.ndarray:
        return self._obs.copy() if self.copy else self._obs


def pick_from_masks(masks: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Row ``i``'s ``floor(u[i] * k_i)``-th set column (``k_i`` set in the row), in a few vectorised numpy
    calls: ``FcmVectorEnv.random_actions`` off the native batch, and the rule the core's pick follows."""
    flat = np.flatnonzero(masks)  # set (row, column) pairs in row order
    counts = np.bincount(flat // masks.shape[1], minlength=masks.shape[0])
    if not counts.all():
        raise ValueError(f"sub-env {int(np.argmin(counts))} has no legal action")
    starts = np.cumsum(counts) - counts
    picks = starts + np.minimum((u * counts).astype(np.int64), counts - 1)
    return flat[picks] % masks.shape[1]


def vector_seeds(seed: int | Sequence[int | None] | None, num_envs: int) -> list[int | None]:
    """One seed per sub-env, Gymnasium's way: ``s`` gives ``s + i``; a list is taken as it is; None: none."""
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return [int(seed) + i for i in range(num_envs)]
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(f"need {num_envs} seeds, got {len(seeds)}")
    return seeds


def _native_opponents(env_fn: Any, env_kwargs: dict[str, Any]) -> Callable[[], Any] | None:
    """The ``native_opponents`` hook of an ``env_fn`` or an ``opponent_sampler``, if it has one: a callable
    giving the opponents as a native mix for the C++ batch (or None: the sub-envs then step in Python)."""
    for source in (env_fn, env_kwargs.get("opponent_sampler")):
        hook = getattr(source, "native_opponents", None)
        if callable(hook):
            return hook
    return None


def _settings(env: FcmSingleAgentEnv) -> dict[str, Any]:
    """What the native batch takes from a sub-env built with the vector env's arguments (checked there)."""
    return {name: getattr(env, name) for name in (
        "num_players", "variant", "max_rounds", "reward_scheme", "shaping", "learner_seat",
        "truncation_as_termination", "game_seeds", "info_strings", "render_mode", "observation_format")}
