"""Stopping long commands on SIGINT / SIGTERM: one exception in the main thread, workers that leave it to the parent.

Shared by the tournaments (``fcm evaluate``, ``fcm simulate``, ``fcm leaderboard``:
``fcm_training.common.evaluate``) and the trainer (``fcm train``: ``fcm_training.sb3.selfplay``), so
every long command stops the same way:

* ``stop_on_signals()``: the first SIGINT or SIGTERM stops the worker processes at once (those
  ``register_worker`` named: SIGTERM, or SIGKILL for the trainer's, which hold nothing to save) and raises
  ``Interrupted`` in the main thread (exit code 130 or 143 for the caller to return); the caller
  keeps what finished and says in one line how to resume. A second signal within ``STOP_GRACE_S``
  is ignored (a double Ctrl-C must not cut the tidying short); one after that ends the process.
* ``deferred_signals()``: a block that a signal must not cut in two (writing a kept result):
  the ``Interrupted`` is raised when the block ends.
* Worker processes ignore SIGINT (``worker_signals``): a Ctrl-C at a terminal reaches the whole
  process group, and it is the parent that decides what stops. They are started with the stop
  signals blocked (``signals_blocked``), so no signal lands before they say so themselves.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: after the first signal the command has this long to tidy up before a further signal ends it at once
STOP_GRACE_S = 2.0


class Interrupted(KeyboardInterrupt):
    """SIGINT (Ctrl-C) or SIGTERM during a long command: it stops and keeps what finished.

    A ``KeyboardInterrupt``, so code that already stops on Ctrl-C stops on SIGTERM too.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def signal_name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        """128 + the signal number, as a shell reports a process the signal ended: 130 or 143."""
        return 128 + self.signum


#: worker processes a signal handler stops whatever the main thread is doing, each with whether to SIGKILL it
_live_workers: dict[multiprocessing.process.BaseProcess, bool] = {}
#: nesting depth of ``deferred_signals`` blocks, and the signal that arrived inside one
_deferring = [0]
_deferred: list[int] = []
#: every stop signal ``stop_on_signals`` caught in this process (``received_signals``)
_received: list[int] = []


def received_signals() -> list[int]:
    """The stop signals caught so far: a caller that sees another error than ``Interrupted`` after one (an
    import that the signal cut short fails as an ``ImportError``) reports the interrupt, not that error."""
    return list(_received)


def register_worker(process: multiprocessing.process.BaseProcess, *, kill: bool = False) -> None:
    """``process`` is stopped by the first signal inside ``stop_on_signals``: SIGTERM, or SIGKILL with ``kill``
    (a process that holds nothing worth a polite stop, or that may still have SIGTERM blocked)."""
    _live_workers[process] = kill


def forget_worker(process: multiprocessing.process.BaseProcess) -> None:
    _live_workers.pop(process, None)


def _stop_workers(kill: bool = False) -> None:
    for process, always_kill in list(_live_workers.items()):
        with contextlib.suppress(Exception):  # already gone
            (process.kill if kill or always_kill else process.terminate)()


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While inside: the first SIGINT or SIGTERM stops the registered workers (``register_worker``) and raises
    ``Interrupted`` in the main thread, so the caller can keep what finished and say how to resume; further
    signals in the next ``STOP_GRACE_S`` are ignored, and one after that ends the process at once (the
    tidying is stuck). Only in the main thread; elsewhere it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    first_at: list[float] = []

    def again(signum: int, _frame: object) -> None:
        if time.monotonic() - first_at[0] > STOP_GRACE_S:
            _stop_workers(kill=True)
            os._exit(128 + signum)

    def first(signum: int, _frame: object) -> None:
        first_at.append(time.monotonic())
        _received.append(signum)
        for s in STOP_SIGNALS:
            signal.signal(s, again)
        _stop_workers()
        if _deferring[0]:
            _deferred.append(signum)  # raised when the block ends
            return
        raise Interrupted(signum)

    previous = {s: signal.signal(s, first) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        _deferred.clear()
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Inside ``stop_on_signals``: a signal that arrives in this block raises ``Interrupted`` only when the
    block ends, so that keeping a result (a finished game, a checkpoint) is done whole or not at all."""
    _deferring[0] += 1
    try:
        yield
    finally:
        _deferring[0] -= 1
    if not _deferring[0] and _deferred:
        raise Interrupted(_deferred.pop())


@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
    """No SIGINT/SIGTERM handler runs in this thread while inside; a process started here inherits the
    block (fork or spawn alike), so it cannot be hit before it calls ``worker_signals``."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def worker_signals() -> None:
    """In a worker process: ignore SIGINT (the parent decides what stops and stops the workers), die of
    SIGTERM, and take the stop signals again (the parent started it with them blocked)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


class WorkerSignalsFirst:
    """A picklable factory (the ``env_fn`` of ``fcm_env.env.parallel.ParallelFcmVectorEnv``) that, called in an
    env worker process, first sets that process's signals (``worker_signals``); its other attributes are the
    factory's own (``call_factory`` reaches them through it). Here, so a worker unpickles it without torch."""

    def __init__(self, factory: Callable[..., Any]) -> None:
        self.factory = factory

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from fcm_env.env.parallel import worker_index

        if worker_index() > 0:
            worker_signals()
        return self.factory(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name == "factory" or name.startswith("__"):  # unpickling looks for __setstate__ before factory is set
            raise AttributeError(name)
        return getattr(self.factory, name)
