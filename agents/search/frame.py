"""What every search agent of this package shares: the engine-only interface, the forced-move
shortcut and the statistics (``stats``) the benchmarks report."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np

from fcm_env.engine.actions import Action
from fcm_env.engine.game import Game

from ..base import SeededAgent


@dataclass
class SearchStats:
    """What the search did, summed over the decisions it searched (forced moves are not searched)."""

    decisions: int = 0
    searched: int = 0
    iterations: int = 0
    rollout_moves: int = 0
    seconds: float = 0.0
    #: the processor time of those searches (this thread's): unlike ``seconds``, a busy machine does not
    #: inflate it, so budgets in iterations compare across loads
    cpu_seconds: float = 0.0


class EngineSearch(SeededAgent, ABC):
    """A player that searches from the engine: ``act_on_game`` checks the seat, plays a forced move
    at once and times ``_search`` (which subclasses write) for every real choice."""

    def __init__(self, seed: int | None = None, name: str = "search"):
        super().__init__(seed, name)
        self.stats = SearchStats()

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        raise TypeError(f"{type(self).__name__} reads the engine: call act_on_game(game, player) "
                        "(the tournament runner and the single-agent env do this for you)")

    def reset(self) -> None:
        super().reset()
        self.stats = SearchStats()

    def act_on_game(self, game: Game, player: int) -> Action:
        pending = game.pending
        if pending is None or pending.player != player:
            raise ValueError(f"player {player} is not the one to move")
        self.stats.decisions += 1
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        cpu_start = time.thread_time()
        start = time.perf_counter()
        action = self._search(game, player, legal, start)
        self.stats.searched += 1
        self.stats.seconds += time.perf_counter() - start
        self.stats.cpu_seconds += time.thread_time() - cpu_start
        return action

    @abstractmethod
    def _search(self, game: Game, player: int, legal: list[Action], start: float) -> Action:
        """The choice among ``legal`` (at least two), searched from ``start`` (``time.perf_counter``)."""
