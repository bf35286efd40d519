"""Worker processes that a stop can kill at any moment without hanging the parent.

Each worker has a pipe of its own and holds one job at a time, so the parent always knows which job a
worker holds. That is why this is not ``multiprocessing.Pool``: its workers share one task queue guarded
by a cross-process lock, an idle worker waits for its next task holding that lock, and a worker killed
there (the first Ctrl-C kills them at once, ``fcm_training.common.interrupts``) leaves the lock taken
forever, so ``Pool.terminate`` then waits on it and the stopped command never ends (seen in CI on
``distill positions``; a stop during tiny jobs hangs on the first try). Here a worker that dies has its job played again by a new one (up to
``MAX_TRIES``; then ``WorkerLost``), and a stop terminates the workers with nothing shared to wait on.

The workers ignore SIGINT (a Ctrl-C at a terminal reaches the whole process group; the parent decides).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from .interrupts import deferred_signals, forget_worker, register_worker, signals_blocked, worker_signals


class WorkerLost(RuntimeError):
    """A job ended its worker process (killed, out of memory, a crash) every time it was tried."""


def _serve(conn: Connection, parent_pid: int) -> None:
    """A worker process: run the ``(function, argument)`` jobs the parent sends, one at a time, until told
    to stop (``None``) or the parent is gone."""
    worker_signals()
    while True:
        try:
            while not conn.poll(1.0):
                if os.getppid() != parent_pid:
                    return
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        function, argument = job
        try:
            reply: tuple[bool, object] = (True, function(argument))
        except Exception as exc:  # noqa: BLE001 - the parent raises it: a bad agent stops the run with its message
            reply = (False, exc)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # noqa: BLE001 - an exception that does not pickle: its text does
            conn.send((False, RuntimeError(f"{type(reply[1]).__name__}: {reply[1]} ({exc})")))


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    job: Any = None
    busy: bool = False


class ProcessPool:
    """``size`` worker processes (forked where fork exists) that run one job at a time each.

    ``describe(job)`` names a job in the messages about a worker that died (``"game 3 (seed 3)"``); ``name``
    names the processes, and without its ``fcm-`` what a job is (``"fcm-game"``: "that game is played again").
    """

    #: a job that ends its worker this many times stops the run (``WorkerLost``)
    MAX_TRIES = 3

    def __init__(self, size: int, describe: Callable[[Any], str] = repr, name: str = "fcm-worker") -> None:
        if size < 1:
            raise ValueError(f"ProcessPool: size must be at least 1, got {size}")
        self.size = size
        self.describe = describe
        self.name = name
        # fork where there is one, named rather than left to the default: importing torchrl sets the
        # process-wide default to spawn, which would re-import everything in every worker
        self.context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                                   else None)

    def _start(self, workers: list[_Worker], at: int | None = None) -> _Worker:
        """A new worker, put in ``workers`` (at ``at``, else at the end) before a stop can end the start.

        Blocking the signals in this thread is not enough: another thread (a timer, a progress bar) takes
        the signal and Python runs the handler in this thread at the next bytecode, blocked or not. A
        worker started but not yet in the list was then never stopped nor reaped (a zombie child, seen in
        CI). So the handler's ``Interrupted`` waits for the end of the block (``deferred_signals``); the
        block on the signals stays, so that the child starts with them held back until it ignores SIGINT."""
        parent_end, child_end = self.context.Pipe()
        with deferred_signals(), signals_blocked():
            process = self.context.Process(target=_serve, args=(child_end, os.getpid()), daemon=True,
                                           name=self.name)
            process.start()
            register_worker(process)
            child_end.close()
            worker = _Worker(process, parent_end)
            if at is None:
                workers.append(worker)
            else:
                workers[at] = worker
        return worker

    @staticmethod
    def _give(worker: _Worker, function: Callable[[Any], Any], queue: deque) -> None:
        worker.busy = bool(queue)
        worker.job = queue.popleft() if queue else None
        if worker.busy:
            with contextlib.suppress(OSError):  # it died: its sentinel says so, and the job goes back
                worker.conn.send((function, worker.job))

    def run(self, function: Callable[[Any], Any], jobs: Sequence[Any],
            done: Callable[[Any, Any], None]) -> None:
        """``done(job, function(job))`` for every job, in the order they finish. An exception a job raises
        stops the run and is raised here; so is ``WorkerLost``."""
        queue = deque(jobs)
        tries: Counter[Hashable] = Counter()
        workers: list[_Worker] = []
        finished = False
        try:
            for _ in range(min(self.size, len(queue))):
                self._give(self._start(workers), function, queue)
            while busy := [w for w in workers if w.busy]:
                ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
                for worker in busy:
                    if worker.conn in ready:
                        try:
                            ok, value = worker.conn.recv()
                        except (EOFError, OSError):  # died before or while it answered
                            ok, value = None, None
                    elif worker.process.sentinel in ready:
                        ok, value = None, None
                    else:
                        continue
                    if ok is None:
                        self._replace(workers, worker, function, queue, tries)
                        continue
                    if not ok:
                        raise value  # the job's own error, e.g. an agent's
                    job = worker.job
                    self._give(worker, function, queue)
                    done(job, value)
            finished = True
        finally:
            self._close(workers, finished)

    def _replace(self, workers: list[_Worker], worker: _Worker, function: Callable[[Any], Any], queue: deque,
                 tries: Counter[Hashable]) -> None:
        """A worker died holding ``worker.job``: that job goes back to the front of the queue, and a fresh
        worker takes the dead one's place in ``workers``."""
        job = worker.job
        worker.process.join(1.0)
        code = worker.process.exitcode
        self._close([worker], False)
        key = _key(job)
        tries[key] += 1
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        what = self.describe(job)
        if tries[key] >= self.MAX_TRIES:
            raise WorkerLost(f"{what} ended its worker process {tries[key]} times (the last by {how})")
        noun = self.name.removeprefix("fcm-")
        print(f"a {noun} worker process ended ({how}) during {what}: that {noun} is played again",
              file=sys.stderr, flush=True)
        queue.appendleft(job)
        self._give(self._start(workers, workers.index(worker)), function, queue)

    @staticmethod
    def _close(workers: Sequence[_Worker], graceful: bool) -> None:
        """Stop the workers: politely after the last job (they are idle), else SIGTERM, SIGKILL after 1 s.
        A stop that lands meanwhile waits until every worker is reaped (``deferred_signals``)."""
        with deferred_signals():
            ProcessPool._reap(workers, graceful)

    @staticmethod
    def _reap(workers: Sequence[_Worker], graceful: bool) -> None:
        for worker in workers:
            if graceful:
                with contextlib.suppress(OSError):
                    worker.conn.send(None)
            else:
                with contextlib.suppress(Exception):
                    worker.process.terminate()
        deadline = time.monotonic() + (5.0 if graceful else 1.0)
        for worker in workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(30.0)  # SIGKILL cannot be refused; a loaded machine may be slow to reap
            worker.conn.close()
            forget_worker(worker.process)


def _key(job: Any) -> Hashable:
    """A job's key for counting its tries: itself where hashable, else its identity."""
    try:
        hash(job)
    except TypeError:
        return id(job)
    return job


def map_in_processes(function: Callable[[Any], Any], items: Sequence[Any], workers: int,
                     name: str = "fcm-worker") -> list[Any]:
    """``[function(item) for item in items]`` in ``workers`` processes (``ProcessPool``), in the items' order.
    Use it inside ``stop_on_signals``, so that a stop kills the workers at once."""
    items = list(items)
    results: dict[int, Any] = {}
    ProcessPool(min(workers, max(1, len(items))), describe=lambda job: f"{name.removeprefix('fcm-')} {job[0]}", name=name).run(
        _Indexed(function), list(enumerate(items)), lambda job, value: results.__setitem__(job[0], value))
    return [results[i] for i in range(len(items))]


class _Indexed:  # a class, so it pickles
    """``function`` applied to the item of an ``(index, item)`` job."""

    def __init__(self, function: Callable[[Any], Any]) -> None:
        self.function = function

    def __call__(self, job: tuple[int, Any]) -> Any:
        return self.function(job[1])
