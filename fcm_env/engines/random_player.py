"""The random legal player, once: a uniformly random legal move from a seeded numpy generator.

Why here: the envs' default opponent (``RandomLegalPlayer``) and ``fcm_agents.RandomAgent`` must choose alike
(the native batch's opponents draw the same), and the envs import no agent package, so the choice lives below
both, on the face that either engine's game has.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fcm_env.engine.actions import Action


def random_legal_action(game: Any, rng: np.random.Generator) -> Action:
    """One of ``game``'s legal actions, uniformly (one ``rng.integers`` draw over the sorted list)."""
    actions = game.legal_actions_view()
    return actions[int(rng.integers(len(actions)))]


class RandomLegalPlayer:
    """The envs' default opponent: ``random_legal_action`` from its own generator seeded with ``seed``."""

    name = "random"
    #: it reads only the legal actions, which both engines list alike: a native game is asked as it is
    reads_legal_actions_only = True

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def act_on_game(self, game: Any, player: int) -> Action:
        return random_legal_action(game, self._rng)
