"""What a tournament plays: its config, the seating of game ``g`` and ``play_one``, the one game
every runner plays (worker processes, ``fcm_training.common.tournament_workers``, or Ray tasks,
``fcm_training.rllib.evaluate``), so the results do not depend on the runner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fcm_agents.match import MatchResult, play_game
from fcm_agents.registry import make_agent


@dataclass(frozen=True)
class TournamentConfig:
    lineup: tuple[str, ...]  # agent spec per seat of the table, e.g. ("heuristic", "random")
    games: int = 100
    seed: int = 0
    variant: str = "standard"
    max_rounds: int = 30
    workers: int = 1
    #: the engine the games are played on (``fcm_env.env.engines``): the same games either way
    engine: str = "python"

    def __post_init__(self) -> None:
        if not 2 <= len(self.lineup) <= 5:
            raise ValueError(f"a lineup has 2-5 agents (one per player), got {len(self.lineup)}")
        if self.games < 1:
            raise ValueError(f"games must be at least 1, got {self.games}")


def seating(lineup: Sequence[str], game_index: int) -> list[str]:
    """Agent spec per player id for game ``game_index`` (the lineup rotated by that many seats)."""
    n = len(lineup)
    shift = game_index % n
    return [lineup[(i + shift) % n] for i in range(n)]


#: ``(config, progress)`` -> every game of the tournament, in game order; ``progress()`` after each game
GameRunner = Callable[[TournamentConfig, Callable[[], None] | None], list[MatchResult]]

#: one game of a tournament: its config and its index
Job = tuple[TournamentConfig, int]
#: plays ``jobs`` and calls ``done(job, result)`` as each game ends (in any order); what a resumable run needs
JobRunner = Callable[[Sequence[Job], Callable[[Job, MatchResult], None]], None]


def play_one(args: Job) -> MatchResult:
    """Game ``index`` of the tournament (its seed, its seating, its agents' seeds): what every runner plays."""
    config, index = args
    if any(spec.startswith(("policy:", "onnx:")) for spec in config.lineup):
        _one_thread()
    seed = config.seed + index
    specs = seating(config.lineup, index)
    agents = [make_agent(spec, seed=seed * 10 + i) for i, spec in enumerate(specs)]
    return play_game(agents, seed=seed, variant=config.variant, max_rounds=config.max_rounds, engine=config.engine)


def _one_thread() -> None:
    """Policies decide one position at a time: one thread per game process avoids contention."""
    try:
        import torch
    except ImportError:  # an ONNX-only tournament needs no torch
        return
    if torch.get_num_threads() != 1:
        torch.set_num_threads(1)
