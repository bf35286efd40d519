"""The heuristic as a model of other players' hidden choices, for ``Game.determinize``."""

from __future__ import annotations

from typing import Any

import numpy as np

from fcm_env.engine.actions import Action
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState

from .agent import HeuristicAgent


class HeuristicHiddenModel:
    """A model of hidden choices for ``Game.determinize``: the other players are assumed to choose as
    this heuristic would, from what the determinization leaves them (public facts and their own cards).

    Reserve card: the heuristic's rule (the $200 card). Face-down Restructuring and firing: the
    heuristic's ``_restructure`` and ``_fire`` on the erased state, one atomic choice at a time.
    """

    def __init__(self) -> None:
        self._agent = HeuristicAgent(seed=0)

    def reserve(self, state: GameState, player: int, values: tuple[int, ...], rng: np.random.Generator) -> int:
        return min(values, key=lambda v: abs(v - 200))

    def choose(self, state: GameState, pending: Any, legal: list[Action], rng: np.random.Generator) -> Action:
        handler = getattr(self._agent, f"_{pending.decision.name.lower()}")
        choice = handler(Game(state), pending.player, legal)
        return choice if choice in legal else legal[0]
