"""Tournament games as Ray tasks: ``fcm evaluate ... --backend ray [--address ADDR]``.

A ``GameRunner`` for the shared tournaments of ``fcm_training.common.evaluate`` (``ray_runner``
binds a cluster address; the caller passes it as ``runner=``). The same games as the process
pool there: game ``g`` is played by ``tournament_games.play_one`` on seed ``seed + g`` with the lineup
rotated by ``g`` seats and agents seeded per seat, so the results (and the ratings computed from
them in game order) are bit-for-bit those of ``workers=1``. Without ``address`` a local cluster of ``workers`` CPUs
is started (and stopped afterwards); with one (``auto`` or ``HOST:PORT``) the tasks go to that
cluster, and every node needs fcm-magnate installed and any ``onnx:PATH`` file at the same path.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from fcm_agents.match import MatchResult

from ..common.ray_tasks import _ray, ray_map_unordered
from ..common.tournament_games import GameRunner, TournamentConfig, play_one


def _play_chunk(config: TournamentConfig, indices: list[int]) -> list[MatchResult]:
    return [play_one((config, i)) for i in indices]


def chunks(games: int, workers: int) -> list[list[int]]:
    """Consecutive game indices per task: about four tasks per worker, as the process pool's chunksize."""
    size = max(1, games // (4 * max(1, workers)))
    return [list(range(start, min(start + size, games))) for start in range(0, games, size)]


def run_games_ray(config: TournamentConfig, progress: Callable[[], None] | None = None,
                  address: str | None = None) -> list[MatchResult]:
    """Every game of the tournament, in game order, played by Ray tasks (see the module docstring)."""
    with _ray(address, config.workers) as ray:
        task = ray.remote(num_cpus=1)(_play_chunk)
        shared = ray.put(config)
        pending = {task.remote(shared, indices): n for n, indices in enumerate(chunks(config.games, config.workers))}
        done: dict[int, list[MatchResult]] = {}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                n = pending.pop(ref)
                done[n] = ray.get(ref)
                if progress:
                    for _ in done[n]:
                        progress()
        return [result for n in sorted(done) for result in done[n]]


def ray_runner(address: str | None = None) -> GameRunner:
    """``run_games_ray`` on the cluster at ``address`` (None: a local one), as the ``runner`` of
    ``fcm_training.common.evaluate.run_games`` / ``run_tournament``."""
    return partial(run_games_ray, address=address)


def ray_job_runner(address: str | None = None, workers: int = 1):
    """A leaderboard ``JobRunner`` (``fcm_training.common.leaderboard``): one Ray task per game, each
    result handed over as it ends (the games and their results are those of the process runner)."""

    def run(jobs, done) -> None:
        for job, result in ray_map_unordered(play_one, jobs, address, workers):
            done(job, result)

    return run
