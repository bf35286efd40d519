"""The learner's games split over this process and worker processes, observations in shared memory.

``ParallelSb3FcmVecEnv`` is ``Sb3FcmVecEnv`` (same SB3 ``VecEnv`` contract: auto-reset,
``terminal_observation``, ``TimeLimit.truncated``, batched ``action_masks``) with its sub-envs
split into ``workers`` groups: the first group runs in this process, every other group in a
worker process of its own. ``step_async`` hands the actions to the workers and returns;
``step_wait`` steps this process's group while the workers step theirs, then waits for them.
Workers write observations, masks, rewards and done flags straight into shared memory; only
finished games' final observation and info travel through a pipe.

Why not SB3's ``SubprocVecEnv``: it pickles every 100 KB observation through a pipe and keeps
the main process idle while the workers step. Measured on the project's 2-core machine
(docs/benchmarks.md), with the main process stepping half of the games itself and no copies,
two processes take the learner's env time from about 0.33 to about 0.19 ms per learner step.

``env_fn`` must be picklable (workers are started with ``spawn``); each process builds its
sub-envs with its own copy. ``call_factory(name, *args)`` calls a method of every process's
copy of ``env_fn`` (the trainer adds snapshot opponents to every process's pool this way).
``worker_index()`` says, inside ``env_fn``, which process it runs in (0 = this one).

Determinism: the same seeds, ``num_envs`` and ``workers`` give the same games; sub-env ``i``
plays the games it would play in ``Sb3FcmVecEnv`` when its opponents do not share random state
with other sub-envs.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from multiprocessing import get_context
from multiprocessing.shared_memory import SharedMemory
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvObs, VecEnvStepReturn

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS
from fcm_env.env.single_agent import FcmSingleAgentEnv
from fcm_env.env.vector import FcmVectorEnv

_WORKER_INDEX = 0

#: name -> (dtype, columns or None); every array has one row per sub-env
_ARRAYS = {"obs": (np.float32, FLAT_SIZE), "masks": (bool, NUM_ACTIONS), "actions": (np.int64, None),
           "rewards": (np.float64, None), "terminations": (bool, None), "truncations": (bool, None)}


def worker_index() -> int:
    """0 in the training process, k in the k-th env worker process."""
    return _WORKER_INDEX


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

    def reset(self, seeds: list[int | None]) -> list[dict[str, Any]]:
        self.venv.reset(seed=seeds)
        return [e._info() for e in self.venv.envs]

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
        envs = [self.venv.envs[i - self.start] for i in indices]
        if kind == "get_attr":
            return [getattr(e, name) for e in envs]
        if kind == "set_attr":
            for e in envs:
                setattr(e, name, args[0])
            return []
        return [getattr(e, name)(*args, **kwargs) for e in envs]


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
                                              f"to the training process: {error}")))
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


def split_sizes(num_envs: int, workers: int) -> list[int]:
    """Sub-envs per process, this process first: as equal as possible, the remainder to the workers."""
    base, extra = divmod(num_envs, workers)
    return [base + (1 if k >= workers - extra else 0) for k in range(workers)]


class ParallelSb3FcmVecEnv(VecEnv):
    """SB3 ``VecEnv``: ``num_envs`` single-agent games over this process and ``workers - 1`` others."""

    def __init__(self, num_envs: int, env_fn: Callable[[], FcmSingleAgentEnv], workers: int = 2,
                 start_method: str = "spawn"):
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= num_envs:
            raise ValueError(f"workers must be an int from 1 to num_envs={num_envs}, got {workers!r}")
        self.env_fn = env_fn
        self.sizes = split_sizes(num_envs, workers)
        self._blocks: dict[str, SharedMemory] = {}
        self._arrays: dict[str, np.ndarray] = {}
        for key, (dtype, cols) in _ARRAYS.items():
            shape = (num_envs,) if cols is None else (num_envs, cols)
            block = SharedMemory(create=True, size=int(np.dtype(dtype).itemsize * np.prod(shape)))
            self._blocks[key] = block  # kept: the arrays below live in its mapping
            self._arrays[key] = np.ndarray(shape, dtype=dtype, buffer=block.buf)
        self._names = {key: block.name for key, block in self._blocks.items()}
        self._conns, self._processes = [], []
        self._waiting = False
        try:
            ctx = get_context(start_method)
            start = self.sizes[0]
            for k, count in enumerate(self.sizes[1:], start=1):
                parent, child = ctx.Pipe()
                process = ctx.Process(target=_worker_main, daemon=True, name=f"fcm-env-worker-{k}",
                                      args=(child, env_fn, k, start, count, num_envs, self._names))
                process.start()
                child.close()
                self._conns.append(parent)
                self._processes.append(process)
                start += count
            self._local = _Group(env_fn, 0, self.sizes[0], self._arrays)  # builds while the workers start
            for conn in self._conns:
                self._receive(conn)
        except BaseException:
            self.close()
            raise
        first = self._local.venv.envs[0]
        self.render_mode = first.render_mode
        super().__init__(num_envs, first.observation_space, first.action_space)

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

    def call_factory(self, name: str, *args: Any) -> list[Any]:
        """``env_fn.<name>(*args)`` in every process (this one first); their results."""
        local = getattr(self.env_fn, name)(*args)
        return [local, *self._broadcast("factory", [(name, args)] * len(self._conns))]

    # ------------------------------------------------------------------ stepping

    def reset(self) -> VecEnvObs:
        seeds = list(self._seeds) if any(s is not None for s in self._seeds) else [None] * self.num_envs
        starts = self._starts()
        chunks = [seeds[s:s + n] for s, n in zip(starts, self.sizes, strict=True)]
        for conn, chunk in zip(self._conns, chunks[1:], strict=True):
            conn.send(("reset", chunk))
        infos = self._local.reset(chunks[0])
        for conn in self._conns:
            infos += self._receive(conn)
        self.reset_infos = infos
        self._reset_seeds()
        self._reset_options()
        return self._arrays["obs"].copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._arrays["actions"][:] = np.asarray(actions).reshape(self.num_envs)
        for conn in self._conns:
            conn.send(("step", None))
        self._waiting = True

    def step_wait(self) -> VecEnvStepReturn:
        self._waiting = False
        finished = self._local.step()  # while the workers step theirs
        for conn in self._conns:
            finished += self._receive(conn)
        arrays = self._arrays
        dones = arrays["terminations"] | arrays["truncations"]
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i, final_obs, final_info in finished:
            info = dict(final_info)
            info["terminal_observation"] = final_obs
            info["TimeLimit.truncated"] = bool(arrays["truncations"][i] and not arrays["terminations"][i])
            infos[i] = info
        return arrays["obs"].copy(), arrays["rewards"].astype(np.float32), dones, infos

    def close(self) -> None:
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
        self._conns, self._processes = [], []
        if getattr(self, "_local", None) is not None:
            self._local.venv.close()
            self._local = None
        self._arrays = {}  # no views into the mappings may outlive them
        for block in self._blocks.values():
            block.close()
            block.unlink()
        self._blocks = {}

    # ------------------------------------------------------------------ attributes and methods of sub-envs

    def _route(self, kind: str, name: str, indices: VecEnvIndices, args: tuple = (),
               kwargs: dict | None = None) -> list[Any]:
        wanted = list(self._get_indices(indices))
        starts = self._starts()
        results: dict[int, Any] = {}
        for group, (start, count) in enumerate(zip(starts, self.sizes, strict=True)):
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

    def has_attr(self, attr_name: str) -> bool:
        """Asked of this process's sub-envs (all sub-envs are built by the same ``env_fn``)."""
        return hasattr(self._local.venv.envs[0], attr_name)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._route("get_attr", attr_name, indices)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self._route("set_attr", attr_name, indices, (value,))

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks" and not method_args and not method_kwargs:
            masks = self._arrays["masks"].copy()  # one batched copy from shared memory
            return [masks[i] for i in self._get_indices(indices)]
        return self._route("method", method_name, indices, method_args, method_kwargs)

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]  # sub-envs are bare FcmSingleAgentEnv
