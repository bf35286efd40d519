"""Tournaments: many seeded games between agents, with seat rotation, statistics and ratings.

The public entry: ``run_tournament`` plays a tournament and returns its statistics and games,
``run_games`` its games. Game ``g`` is played on seed ``seed + g`` with the lineup rotated by ``g``
seats, so every agent plays every player id equally often over ``n`` games. The summary gives, per
agent name: games, seats, wins, ties and losses (a shared first place is a tie, never a win for a
seat), wins/games with a 95% Wilson interval, mean final cash, mean place, and an openskill
Plackett-Luce rating (docs/evaluation.md). Games run in worker processes (``workers``, the default
runner) or by any other runner the caller passes: ``fcm_training.rllib.evaluate`` plays them as Ray
tasks (``fcm evaluate --backend ray``). Every runner plays game ``g`` with ``play_one``, so the
results do not depend on the runner. This module imports no backend: the caller picks the runner.

Long runs are meant to be stopped and resumed: ``TournamentRun`` keeps each game as it ends
(``games.jsonl``) and resumes a folder; ``stop_on_signals`` (``fcm_training.common.interrupts``, shared
with the trainer) turns SIGINT and SIGTERM into ``Interrupted`` after stopping the worker processes,
which ignore SIGINT themselves; a worker that dies has its game played again (``process_pool``).

The parts, each in its module: ``tournament_games`` (the config, the seating, ``play_one``),
``tournament_workers`` (worker processes, ``WorkerLost``), ``tournament_results`` (statistics,
ratings, the table) and ``tournament_run`` (the run kept on disk, ``TournamentRun``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fcm_agents.match import MatchResult

from .tournament_games import GameRunner, JobRunner, TournamentConfig
from .tournament_results import AgentStats, summarise
from .tournament_run import TournamentRun, write_results
from .tournament_workers import run_games_in_processes


def run_games(config: TournamentConfig, progress: Callable[[], None] | None = None, *,
              runner: GameRunner | None = None) -> list[MatchResult]:
    """Play every game of the tournament, in game order, with ``runner`` (default: worker processes)."""
    return (runner or run_games_in_processes)(config, progress)


def run_tournament(config: TournamentConfig, out_dir: Path | None = None, *, progress=None,
                   records: bool = True, runner: GameRunner | None = None, job_runner: JobRunner | None = None,
                   resume: bool = False) -> tuple[list[AgentStats], list[MatchResult]]:
    """Play the tournament and return its statistics and games (in game order).

    With ``out_dir`` the games are kept as they end and the files written (``TournamentRun``);
    ``resume`` plays only the games ``out_dir`` lacks. A ``runner`` (a ``GameRunner``, which returns
    every game at once) keeps nothing until the end; a ``job_runner`` (default: worker processes) does.
    """
    if runner is not None:
        results = run_games(config, progress=progress, runner=runner)
        stats = summarise(results)
        if out_dir is not None:
            write_results(out_dir, config, stats, results, records=records)
        return stats, results
    run = TournamentRun(config, out_dir, records=records, resume=resume)
    run.play(job_runner, progress)
    return run.save(), run.ordered()
