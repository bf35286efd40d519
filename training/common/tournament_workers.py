"""Scheduling a tournament's games on worker processes: ``run_jobs_in_processes`` (the default
``JobRunner``) plays them in this process or in a pool of workers, one game at a time each; a worker
that dies has its game played again (``_Pool``), and one game that ends its worker every time stops
the run (``WorkerLost``). The workers ignore SIGINT: the parent decides what stops
(``fcm_training.common.interrupts``).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait

from fcm_agents.match import MatchResult

from .interrupts import forget_worker, register_worker, signals_blocked, worker_signals
from .tournament_games import Job, JobRunner, TournamentConfig, play_one


class WorkerLost(RuntimeError):
    """A game ended its worker process (killed, out of memory, a crash) every time it was tried."""


def _serve_games(conn: Connection, parent_pid: int) -> None:
    """A worker process: play the jobs the parent sends, one at a time, until told to stop.

    It ignores SIGINT (a Ctrl-C at the terminal reaches the whole process group: the parent decides
    what stops, and stops the workers with SIGTERM) and leaves when the parent is gone.
    """
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
        try:
            reply: tuple[bool, object] = (True, play_one(job))
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
    job: Job | None = None


class _Pool:
    """Worker processes that play one game at a time each, so the parent knows which game every worker
    holds: a worker that dies (SIGKILL, out of memory) has its game played again by a new worker, and an
    interrupt terminates them at once (no executor shutdown that waits for queued or running games)."""

    #: a game that ends its worker this many times stops the tournament (``WorkerLost``)
    MAX_TRIES = 3

    def __init__(self, size: int) -> None:
        self.size = size
        # fork where there is one, named rather than left to the default: importing torchrl sets the
        # process-wide default to spawn, which would re-import everything in every worker
        self.context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                                   else None)

    def _start(self) -> _Worker:
        parent_end, child_end = self.context.Pipe()
        with signals_blocked():
            process = self.context.Process(target=_serve_games, args=(child_end, os.getpid()), daemon=True,
                                           name="fcm-games")
            process.start()
            register_worker(process)
        child_end.close()
        return _Worker(process, parent_end)

    @staticmethod
    def _give(worker: _Worker, queue: deque[Job]) -> None:
        worker.job = queue.popleft() if queue else None
        with contextlib.suppress(OSError):  # it died: its sentinel says so, and the job goes back
            worker.conn.send(worker.job)

    def run(self, jobs: Sequence[Job], done: Callable[[Job, MatchResult], None]) -> None:
        queue = deque(jobs)
        tries: Counter[Job] = Counter()
        workers: list[_Worker] = []
        finished = False
        try:
            for _ in range(min(self.size, len(queue))):
                workers.append(self._start())
                self._give(workers[-1], queue)
            while busy := [w for w in workers if w.job is not None]:
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
                        workers[workers.index(worker)] = self._replace(worker, queue, tries)
                        continue
                    if not ok:
                        raise value  # the game's own error, e.g. an agent's
                    job = worker.job
                    self._give(worker, queue)
                    done(job, value)
            finished = True
        finally:
            self._close(workers, finished)

    def _replace(self, worker: _Worker, queue: deque[Job], tries: Counter[Job]) -> _Worker:
        """A worker died holding ``worker.job``: that game goes back to the front of the queue."""
        job = worker.job
        assert job is not None
        worker.process.join(1.0)
        code = worker.process.exitcode
        self._close([worker], False)
        tries[job] += 1
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        game = f"game {job[1]} (seed {job[0].seed + job[1]})"
        if tries[job] >= self.MAX_TRIES:
            raise WorkerLost(f"{game} ended its worker process {tries[job]} times (the last by {how})")
        print(f"a game worker process ended ({how}) during {game}: that game is played again", file=sys.stderr,
              flush=True)
        queue.appendleft(job)
        fresh = self._start()
        self._give(fresh, queue)
        return fresh

    @staticmethod
    def _close(workers: Sequence[_Worker], graceful: bool) -> None:
        """Stop the workers: politely after the last game (they are idle), else SIGTERM, SIGKILL after 1 s."""
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
                worker.process.join(1.0)
            worker.conn.close()
            forget_worker(worker.process)


def run_jobs_in_processes(workers: int) -> JobRunner:
    """The default ``JobRunner``: this process (``workers`` 1) or ``workers`` worker processes, one game at
    a time each; a worker that dies has its game played again (``_Pool``)."""

    def run(jobs: Sequence[Job], done: Callable[[Job, MatchResult], None]) -> None:
        if workers <= 1 or len(jobs) <= 1:
            for job in jobs:
                done(job, play_one(job))
            return
        _Pool(workers).run(jobs, done)

    return run


def run_games_in_processes(config: TournamentConfig,
                           progress: Callable[[], None] | None = None) -> list[MatchResult]:
    """The default ``GameRunner``: every game in this process (``workers`` 1) or a pool of ``workers``."""
    results: dict[int, MatchResult] = {}

    def done(job: Job, result: MatchResult) -> None:
        results[job[1]] = result
        if progress:
            progress()

    run_jobs_in_processes(config.workers)([(config, i) for i in range(config.games)], done)
    return [results[i] for i in range(config.games)]
