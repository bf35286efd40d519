"""``HeuristicAgent``: the heuristic's plans put together, and the dispatch of each decision to its answer."""

from __future__ import annotations

from typing import Any

import numpy as np

from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.game import Game
from fcm_env.engine.hidden.visibility import hidden_from

from ..base import SeededAgent
from .from_legal import FROM_LEGAL
from .marketing import Marketing
from .placement import Placement
from .production import Production
from .staffing import Staffing

#: the method that answers each decision (``_<decision name>``, found on the plans; none: the first legal action)
HANDLERS: dict[Decision, str] = {decision: f"_{decision.name.lower()}" for decision in Decision}


class HeuristicAgent(Placement, Marketing, Staffing, Production, SeededAgent):
    """Engine-aware rule-based agent (see ``fcm_agents.heuristic`` for its plan)."""

    #: the answers the legal actions alone decide (``from_legal``); a subclass that changes a handler drops
    #: its decision here
    from_legal = FROM_LEGAL

    def __init__(self, seed: int | None = None, name: str = "heuristic"):
        super().__init__(seed, name)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        raise TypeError(
            "HeuristicAgent reads the engine state: call act_on_game(game, player) "
            "(the tournament runner and the single-agent env do this for you)"
        )

    # ------------------------------------------------------------------ dispatch

    def act_on_game(self, game: Game, player: int) -> Action:
        """The answer in a Python game (a native one is read through its ``snapshot()``; the registry's
        ``heuristic`` hands native games to the C++ twin instead: ``fcm_agents.native``)."""
        game = game.snapshot() if hasattr(game, "snapshot") else game
        pending = game.pending
        if pending is None or pending.player != player:
            raise ValueError(f"player {player} is not the one to move")
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        decision = pending.decision
        handler = getattr(self, HANDLERS[decision], None)
        if handler is None:
            return legal[0]
        quick = self.from_legal.get(decision)
        if quick is not None:
            choice = quick(legal)
            if choice is not None:
                return choice
        # the seat's view only: other players' hidden facts (reserve cards, face-down choices) erased;
        # where nothing is hidden from the seat that view is the game itself, so it is read as it is
        # (a search's rollouts ask for most of their moves here: a view costs about 10 us a move)
        hidden = hidden_from(game.state, player)
        view = game.seat_view(player) if hidden.reserves or hidden.structures or hidden.firings else game
        choice = handler(view, player, legal)
        return choice if choice is not None else legal[0]
