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


def _native_players():
    """``fcm_agents.native``, or None in an install without the native players."""
    try:
        from .. import native
    except ImportError:
        return None
    return native


#: the method that answers each decision (``_<decision name>``, found on the plans; none: the first legal action)
HANDLERS: dict[Decision, str] = {decision: f"_{decision.name.lower()}" for decision in Decision}


class HeuristicAgent(Placement, Marketing, Staffing, Production, SeededAgent):
    """Engine-aware rule-based agent (see ``fcm_agents.heuristic`` for its plan)."""

    #: the answers the legal actions alone decide (``from_legal``); a subclass that changes a handler drops
    #: its decision here
    from_legal = FROM_LEGAL

    def __init__(self, seed: int | None = None, name: str = "heuristic"):
        super().__init__(seed, name)
        self._twin = None  # the native twin, made at the first native game

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        raise TypeError(
            "HeuristicAgent reads the engine state: call act_on_game(game, player) "
            "(the tournament runner and the single-agent env do this for you)"
        )

    # ------------------------------------------------------------------ dispatch

    @property
    def plays_native(self) -> bool:
        """Whether a native game is answered by the native twin (``fcm_agents.native``: the same answers in C++):
        where the native players are built, for the classes that have a twin (a subclass with answers of its
        own plays them in Python, on a Python copy of the position)."""
        if self._twin is None and _native_players() is not None:
            self._twin = self._make_twin(_native_players())
        return self._twin is not None

    def _make_twin(self, native):
        """This agent's native twin, or None for a subclass of the heuristic without one."""
        return native.NativeHeuristicAgent(seed=self._seed, name=self.name) if type(self) is HeuristicAgent else None

    def reset(self) -> None:
        super().reset()
        if self._twin is not None:
            self._twin.reset()

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_twin"] = None  # a native player is not copied: a copy makes its own at its first native game
        return state

    def act_on_game(self, game: Game, player: int) -> Action:
        if getattr(game, "engine", None) == "native":
            if self.plays_native:
                return self._twin.act_on_game(game, player)
            game = game.to_python()
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
