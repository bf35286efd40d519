"""Scheduling a tournament's games on worker processes: ``run_jobs_in_processes`` (the default
``JobRunner``) plays them in this process or in a pool of workers, one game at a time each; a worker
that dies has its game played again, and one game that ends its worker every time stops the run
(``WorkerLost``): ``fcm_training.common.process_pool``. The workers ignore SIGINT: the parent decides
what stops (``fcm_training.common.interrupts``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fcm_agents.match import MatchResult

from .process_pool import ProcessPool, WorkerLost
from .tournament_games import Job, JobRunner, TournamentConfig, play_one

__all__ = ["WorkerLost", "run_games_in_processes", "run_jobs_in_processes"]


def _describe(job: Job) -> str:
    return f"game {job[1]} (seed {job[0].seed + job[1]})"


def _play(job: Job) -> MatchResult:
    """A worker's job: the module's ``play_one`` looked up at call time (a test may replace it)."""
    return play_one(job)


def run_jobs_in_processes(workers: int) -> JobRunner:
    """The default ``JobRunner``: this process (``workers`` 1) or ``workers`` worker processes, one game at
    a time each; a worker that dies has its game played again (``ProcessPool``)."""

    def run(jobs: Sequence[Job], done: Callable[[Job, MatchResult], None]) -> None:
        if workers <= 1 or len(jobs) <= 1:
            for job in jobs:
                done(job, play_one(job))
            return
        ProcessPool(workers, describe=_describe, name="fcm-game").run(_play, jobs, done)

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
