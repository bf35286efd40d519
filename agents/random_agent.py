"""Uniform random play over the legal actions: the floor every other agent must beat."""

from __future__ import annotations

from typing import Any

import numpy as np

from fcm_env.engine.actions import Action
from fcm_env.engine.game import Game
from fcm_env.engines import random_legal_action

from .base import SeededAgent, check_mask


class RandomAgent(SeededAgent):
    """Picks uniformly among legal actions, from its own seeded generator.

    The same seed gives the same choices in the same positions, on every machine.
    """

    #: ``act_on_game`` reads only the legal actions: a native game is asked directly (``agent_move``)
    reads_legal_actions_only = True

    def __init__(self, seed: int | None = None, name: str = "random"):
        super().__init__(seed, name)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        legal = check_mask(action_mask)
        return int(legal[self._rng.integers(legal.size)])

    def act_on_game(self, game: Game, player: int) -> Action:
        if game.current_player != player:
            raise ValueError(f"player {player} is not the one to move (player {game.current_player} is)")
        return random_legal_action(game, self._rng)  # the envs' random opponent's very choice
