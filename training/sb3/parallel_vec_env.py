"""SB3 ``VecEnv`` over the learner's games split across processes (shared-memory observations).

``ParallelSb3FcmVecEnv`` is ``Sb3FcmVecEnv`` (same SB3 ``VecEnv`` contract: auto-reset,
``terminal_observation``, ``TimeLimit.truncated``, batched ``action_masks``) on a
``fcm_env.env.parallel.ParallelFcmVectorEnv``: the first group of sub-envs runs in this
process, every other group in a worker process; ``step_async`` starts the workers, ``step_wait``
steps this process's group meanwhile. The process machinery, its determinism and its
figures are documented in ``fcm_env.env.parallel``.

``worker_index()`` (re-exported) says, inside ``env_fn``, which process it runs in.

The worker processes ignore SIGINT: a Ctrl-C at a terminal reaches the whole process group, and it is
the trainer that decides what stops (``fcm_training.common.interrupts``; ``close`` or a kill ends them).
They are started with SIGINT and SIGTERM blocked and set their signals when they build their games,
so a Ctrl-C while they start cannot print a ``KeyboardInterrupt`` traceback from them either.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable

from fcm_env.env.parallel import ParallelFcmVectorEnv, split_sizes, worker_index
from fcm_env.env.single_agent import FcmSingleAgentEnv

from ..common.interrupts import (
    WorkerSignalsFirst,
    deferred_signals,
    forget_worker,
    register_worker,
    signals_blocked,
)
from .vec_env import Sb3FcmVecEnv

__all__ = ["ParallelSb3FcmVecEnv", "split_sizes", "worker_index"]


class ParallelSb3FcmVecEnv(Sb3FcmVecEnv):
    """SB3 ``VecEnv``: ``num_envs`` single-agent games over this process and ``workers - 1`` others."""

    def __init__(self, num_envs: int, env_fn: Callable[[], FcmSingleAgentEnv], workers: int = 2,
                 start_method: str = "spawn"):
        # the workers inherit the blocked signals; a signal here waits until they are up (a second or two)
        before = set(multiprocessing.active_children())
        # a stop that another thread takes meanwhile raises once the workers are registered
        # (fcm_training.common.process_pool.ProcessPool._start says why blocking alone is not enough)
        with deferred_signals():
            with signals_blocked():
                venv = ParallelFcmVectorEnv(num_envs, WorkerSignalsFirst(env_fn), workers=workers, copy=True,
                                            start_method=start_method)
            # inside stop_on_signals (fcm train) the first signal kills them: they hold nothing to save
            self.workers = [p for p in multiprocessing.active_children() if p not in before]
            for process in self.workers:
                register_worker(process, kill=True)
        super().__init__(num_envs, env_fn, venv=venv)
        self.sizes = venv.sizes

    def close(self) -> None:
        for process in self.workers:
            forget_worker(process)
        super().close()
