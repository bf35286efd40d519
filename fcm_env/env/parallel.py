"""The batched vector env over several processes, observations and masks in shared memory.

``ParallelFcmVectorEnv`` keeps ``FcmVectorEnv``'s contract (same arguments, same-step
auto-reset, ``final_observations`` / ``final_infos``, ``action_masks()``, the same games for
the same seeds) with its sub-envs split into ``workers`` groups: the first group runs in this
process, every other group in a worker process of its own. ``step_async`` hands the actions to
the workers and returns; ``step_wait`` steps this process's group while the workers step
theirs, then waits for them (``step`` is both). Workers write observations, masks, rewards and
done flags straight into shared memory; only finished games' final observation and info travel
through a pipe.

Why not Gymnasium's ``AsyncVectorEnv`` or SB3's ``SubprocVecEnv``: they send every step's
actions and results through pipes (SB3 pickles each 100 KB observation) and ask for the masks
in a second round trip, and the main process idles while the workers step. Figures for 1 and 2
processes against both are in docs/benchmarks.md (``benchmarks/bench_vector.py``).

``env_fn`` must be picklable (workers are started with ``spawn``); each process builds its
sub-envs with its own copy. ``call_factory(name, *args)`` calls a method of every process's
copy of ``env_fn`` (the self-play trainer adds snapshot opponents to every process's pool this
way). ``worker_index()`` says, inside ``env_fn``, which process it runs in (0 = this one).

Determinism: the same seeds, ``num_envs`` and ``workers`` give the same games; sub-env ``i``
plays the games it would play in ``FcmVectorEnv`` when its opponents do not share random state
with other sub-envs.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable, Sequence
from multiprocessing import get_context
from multiprocessing.shared_memory import SharedMemory
from typing import Any, ClassVar

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS

from .single_agent import FcmSingleAgentEnv
from .vector import FcmVectorEnv, vector_seeds

_WORKER_INDEX = 0

#: name -> (dtype, columns or None); every array has one row per sub-env
_ARRAYS = {"obs": (np.float32, FLAT_SIZE), "masks": (bool, NUM_ACTIONS), "actions": (np.int64, None),
           "rewards": (np.float64, None), "terminations": (bool, None), "truncations": (bool, None)}


def worker_index() -> int:
    """0 in the main process, k in the k-th env worker process."""
    return _WORKER_INDEX


def split_sizes(num_envs: int, workers: int) -> list[int]:
    """Sub-envs per process, this process first: as equal as possible, the remainder to the workers."""
    base, extra = divmod(num_envs, workers)
    return [base + (1 if k >= workers - extra else 0) for k in range(workers)]


def _attach(names: dict[str, str], num_envs: int) -> tuple[dict[str, SharedMemory], dict[str, np.ndarray]]:
    """The shared arrays made by the parent; the blocks must outlive the arrays (they hold the mapping)."""
    blocks, arrays = {}, {}
    for key, (dtype, cols) in _ARRAYS.items():
        blocks[key] = SharedMemory(name=names[key])
        shape = (num_envs,) if cols is None else (num_envs, cols)
        arrays[key] = np.ndarray(shape, dtype=dtype, buffer=blocks[key].buf)
    return blocks, arrays


class _Group:
    """Sub-envs ``start .. start + count`` stepped in one process, writing into the shared arrays."""

    def __init__(self, env_fn: Callable[[], FcmSingleAgentEnv], start: int, count: int,
                 arrays: dict[str, np.ndarray]):
        self.start, self.stop = start, start + count
        self.arrays = arrays
        self.venv = FcmVectorEnv(count, env_fn, copy=False)
        rows = slice(self.start, self.stop)
        self.venv.write_into(arrays["obs"][rows], arrays["masks"][rows])

    def reset(self, seeds: list[int | None]) -> None:
        self.venv.reset(seed=seeds)

    def step(self) -> list[tuple[int, np.ndarray, dict[str, Any]]]:
        """Steps every sub-env of the group; the finished games' ``(index, final obs, final info)``."""
        rows = slice(self.start, self.stop)
        _, rewards, terminations, truncations, _ = self.venv.step(self.arrays["actions"][rows])
        self.arrays["rewards"][rows] = rewards
        self.arrays["terminations"][rows] = terminations
        self.arrays["truncations"][rows] = truncations
        return [(self.start + i, self.venv.final_observations[i], self.venv.final_infos[i])
                for i in np.flatnonzero(terminations | truncations)]

    def call(self, kind: str, name: str, indices: list[int], args: tuple, kwargs: dict) -> list[Any]:
        return self.venv.env_call(kind, name, [i - self.start for i in indices], args, kwargs)


def _worker_main(conn, env_fn, index: int, start: int, count: int, num_envs: int, names: dict[str, str]) -> None:
    global _WORKER_INDEX
    _WORKER_INDEX = index
    blocks, arrays = _attach(names, num_envs)
    try:
        group = _Group(env_fn, start, count, arrays)
        conn.send(("ok", None))
    except BaseException as error:  # noqa: BLE001 - reported to the parent, which raises it
        conn.send(("error", _portable(error)))
        return
    handlers = {
        "reset": lambda seeds: group.reset(seeds),
        "step": lambda _: group.step(),
        "call": lambda payload: group.call(*payload),
        "factory": lambda payload: getattr(env_fn, payload[0])(*payload[1]),
    }
    try:
        while True:
            try:
                command, payload = conn.recv()
            except EOFError:  # the parent is gone
                return
            if command == "close":
                conn.send(("ok", None))
                return
            try:
                result = handlers[command](payload)
            except BaseException as error:  # noqa: BLE001 - reported to the parent, which raises it
                conn.send(("error", _portable(error)))
                continue
            try:
                conn.send(("ok", result))
            except Exception as error:  # noqa: BLE001 - an answer that cannot travel between processes
                what = command if command not in ("call", "factory") else f"{command} {payload[:2]!r}"
                conn.send(("error", TypeError(f"env worker {index}: the result of {what} cannot be sent "
                                              f"to the main process: {error}")))
    finally:
        group.venv.close()
        group = arrays = None  # no views into the mappings may outlive them
        for block in blocks.values():
            block.close()


def _portable(error: BaseException) -> BaseException:
    """The exception itself when it pickles, else a RuntimeError carrying its traceback."""
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
        error.add_note("".join(traceback.format_exception(error)))
        return error
    except Exception:  # noqa: BLE001
        return RuntimeError("".join(traceback.format_exception(error)))


class ParallelFcmVectorEnv(VectorEnv):
    """``FcmVectorEnv`` with its ``num_envs`` games over this process and ``workers - 1`` others.

    "Parallel" means worker processes: this is a Gymnasium vector env of single-agent games (masks from
    ``action_masks()``), not a PettingZoo ``ParallelEnv`` (the game has none: its decisions come one at a
    time, so the multi-agent env is AEC only, ``fcm_env.env``).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(self, num_envs: int = 8, env_fn: Callable[[], FcmSingleAgentEnv] | None = None, *,
                 workers: int = 2, copy: bool = True, start_method: str = "spawn", **env_kwargs: Any):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= num_envs:
            raise ValueError(f"workers must be an int from 1 to num_envs={num_envs}, got {workers!r}")
        if env_fn is not None and env_kwargs:
            raise ValueError("give env_fn or FcmSingleAgentEnv keyword arguments, not both")
        self.env_fn = env_fn if env_fn is not None else functools.partial(FcmSingleAgentEnv, **env_kwargs)
        self.num_envs = int(num_envs)
        self.copy = copy
        self.sizes = split_sizes(self.num_envs, workers)
        self._blocks: dict[str, SharedMemory] = {}
        self._arrays: dict[str, np.ndarray] = {}
        for key, (dtype, cols) in _ARRAYS.items():
            shape = (self.num_envs,) if cols is None else (self.num_envs, cols)
            block = SharedMemory(create=True, size=int(np.dtype(dtype).itemsize * np.prod(shape)))
            self._blocks[key] = block  # kept: the arrays below live in its mapping
            self._arrays[key] = np.ndarray(shape, dtype=dtype, buffer=block.buf)
        self._names = {key: block.name for key, block in self._blocks.items()}
        self._conns, self._processes = [], []
        self._waiting = False
        self._has_reset = False
        try:
            ctx = get_context(start_method)
            start = self.sizes[0]
            for k, count in enumerate(self.sizes[1:], start=1):
                parent, child = ctx.Pipe()
                process = ctx.Process(target=_worker_main, daemon=True, name=f"fcm-env-worker-{k}",
                                      args=(child, self.env_fn, k, start, count, self.num_envs, self._names))
                process.start()
                child.close()
                self._conns.append(parent)
                self._processes.append(process)
                start += count
            self._local = _Group(self.env_fn, 0, self.sizes[0], self._arrays)  # builds while the workers start
            for conn in self._conns:
                self._receive(conn)
        except BaseException:
            self.close()
            raise
        first = self._local.venv.envs[0]
        self.render_mode = None
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.final_observations: list[np.ndarray | None] = [None] * self.num_envs
        self.final_infos: list[dict[str, Any] | None] = [None] * self.num_envs

    # ------------------------------------------------------------------ plumbing

    def _receive(self, conn) -> Any:
        status, payload = conn.recv()
        if status == "error":
            raise payload
        return payload

    def _broadcast(self, command: str, payloads: Sequence[Any]) -> list[Any]:
        for conn, payload in zip(self._conns, payloads, strict=True):
            conn.send((command, payload))
        return [self._receive(conn) for conn in self._conns]

    def _starts(self) -> list[int]:
        return [int(s) for s in np.cumsum([0, *self.sizes[:-1]])]

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def call_factory(self, name: str, *args: Any) -> list[Any]:
        """``env_fn.<name>(*args)`` in every process (this one first); their results."""
        local = getattr(self.env_fn, name)(*args)
        return [local, *self._broadcast("factory", [(name, args)] * len(self._conns))]

    # ------------------------------------------------------------------ stepping

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        """Every sub-env starts a new game: ``(obs [B, FLAT_SIZE], {})`` (seeds as ``FcmVectorEnv``)."""
        if self._waiting:
            raise RuntimeError("a step is in flight: call step_wait() before reset()")
        seeds = vector_seeds(seed, self.num_envs)
        chunks = [seeds[s:s + n] for s, n in zip(self._starts(), self.sizes, strict=True)]
        for conn, chunk in zip(self._conns, chunks[1:], strict=True):
            conn.send(("reset", chunk))
        self._local.reset(chunks[0])
        for conn in self._conns:
            self._receive(conn)
        self.final_observations = [None] * self.num_envs
        self.final_infos = [None] * self.num_envs
        self._has_reset = True
        return self._out(self._arrays["obs"]), {}

    def step_async(self, actions: Sequence[int] | np.ndarray) -> None:
        """Hands one action per sub-env to the workers and returns (``step_wait`` collects the results)."""
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        if self._waiting:
            raise RuntimeError("a step is already in flight: call step_wait() first")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {actions.shape}")
        self._arrays["actions"][:] = actions
        for conn in self._conns:
            conn.send(("step", None))
        self._waiting = True

    def step_wait(self):
        """Steps this process's games while the workers step theirs: ``(obs, rewards, terminations,
        truncations, infos)`` as ``FcmVectorEnv.step``."""
        if not self._waiting:
            raise RuntimeError("no step in flight: call step_async() first")
        self._waiting = False
        finished = self._local.step()
        errors = []
        for conn in self._conns:
            try:
                finished += self._receive(conn)
            except Exception as error:  # noqa: BLE001 -- every worker must answer before one error is raised
                errors.append(error)
        if errors:
            raise errors[0]
        arrays = self._arrays
        self.final_observations = [None] * self.num_envs
        self.final_infos = [None] * self.num_envs
        infos: dict[str, Any] = {}
        for i, final_obs, final_info in finished:
            self.final_observations[i] = final_obs
            self.final_infos[i] = final_info
            infos = self._add_info(infos, {"final_obs": final_obs, "final_info": final_info}, i)
        return (self._out(arrays["obs"]), arrays["rewards"].copy(), arrays["terminations"].copy(),
                arrays["truncations"].copy(), infos)

    def step(self, actions: Sequence[int] | np.ndarray):
        """One action per sub-env: ``(obs, rewards, terminations, truncations, infos)``."""
        self.step_async(actions)
        return self.step_wait()

    def action_masks(self) -> np.ndarray:
        """``bool[B, NUM_ACTIONS]``: each learner's legal ids, read from shared memory."""
        if not self._has_reset:
            raise RuntimeError("call reset() before action_masks(): no game has started yet")
        return self._out(self._arrays["masks"])

    # ------------------------------------------------------------------ attributes and methods of sub-envs

    def env_call(self, kind: str, name: str, indices: Sequence[int] | None = None, args: tuple = (),
                 kwargs: dict[str, Any] | None = None) -> list[Any]:
        """``get_attr`` / ``set_attr`` / ``method`` ``name`` on the sub-envs ``indices`` (all by default),
        wherever they run; results in the order of ``indices``."""
        if self._waiting:
            raise RuntimeError("a step is in flight: call step_wait() first")
        wanted = list(range(self.num_envs)) if indices is None else [int(i) for i in indices]
        results: dict[int, Any] = {}
        for group, (start, count) in enumerate(zip(self._starts(), self.sizes, strict=True)):
            mine = [i for i in wanted if start <= i < start + count]
            if not mine:
                continue
            payload = (kind, name, mine, args, kwargs or {})
            if group == 0:
                got = self._local.call(*payload)
            else:
                conn = self._conns[group - 1]
                conn.send(("call", payload))
                got = self._receive(conn)
            results.update(zip(mine, got, strict=False))
        return [results.get(i) for i in wanted]

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Gymnasium's ``VectorEnv.call``: ``name`` of every sub-env, called when it is a method."""
        return tuple(self.env_call("call", name, None, args, kwargs))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return tuple(self.env_call("get_attr", name))

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(f"need {self.num_envs} values, got {len(values)}")
        for i, value in enumerate(values):
            self.env_call("set_attr", name, [i], (value,))

    def close_extras(self, **kwargs: Any) -> None:
        for conn, process in zip(self._conns, self._processes, strict=False):
            try:
                if self._waiting:
                    conn.recv()
                conn.send(("close", None))
                conn.recv()
            except (EOFError, OSError, BrokenPipeError):
                pass
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()
        self._waiting = False
        self._conns, self._processes = [], []
        if getattr(self, "_local", None) is not None:
            self._local.venv.close()
            self._local = None
        self._arrays = {}  # no views into the mappings may outlive them
        for block in self._blocks.values():
            block.close()
            block.unlink()
        self._blocks = {}

    def __del__(self) -> None:
        if getattr(self, "_blocks", None):
            self.close()
