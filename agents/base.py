"""The ``Agent`` protocol every player of fcm-magnate implements.

An agent answers one decision at a time. Observation-based agents (trained
policies) implement ``act(observation, action_mask) -> int``: a flat action id
of ``fcm_env.encoding``. Engine-aware agents (the heuristic) also implement
``act_on_game(game, player) -> Action``: they read the engine state directly.
Tournament and self-play code prefers ``act_on_game`` when an agent has it.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from fcm_env.encoding import CODEC, FLAT_SIZE
from fcm_env.engine.actions import Action
from fcm_env.engine.game import Game
from fcm_env.engines import face_of


@runtime_checkable
class Agent(Protocol):
    """Chooses flat action ids from observations and legal-action masks."""

    name: str

    def act(self, observation: Any, action_mask: np.ndarray) -> int: ...

    def reset(self) -> None: ...


@runtime_checkable
class GameAgent(Protocol):
    """An agent that reads the engine state and answers with a typed ``Action``."""

    name: str

    def act_on_game(self, game: Game, player: int) -> Action: ...


def check_mask(action_mask: np.ndarray) -> np.ndarray:
    """The legal ids of a mask; a clear error for an all-zero mask (nothing to choose)."""
    legal = np.flatnonzero(np.asarray(action_mask))
    if legal.size == 0:
        raise ValueError("the action mask has no legal action: this agent is not the one to move")
    return legal


class SeededAgent:
    """Shared start of the built-in agents: a name and a generator that ``reset`` rewinds."""

    def __init__(self, seed: int | None = None, name: str = "agent"):
        self.name = name
        self._seed = seed
        self._rng = np.random.default_rng(seed)

    def reset(self) -> None:
        self._rng = np.random.default_rng(self._seed)


def agent_move(agent: Any, game: Any, player: int, out: np.ndarray | None = None) -> Action:
    """Ask any agent for ``player``'s move in a game of either engine: ``act_on_game`` if it reads the engine,
    else the seat's flat observation (into ``out`` when given) and legal-action mask, its answer decoded.
    Every front end and tournament asks bots through this.

    An agent that reads only the legal actions (``reads_legal_actions_only``) or reads the game through its
    face (``plays_native``: the native players and the search, which use the C++ core where the game has one)
    is handed the game as it is; one that reads the whole Python state gets ``game.snapshot()`` (on the
    Python engine the game itself)."""
    game = face_of(game)
    if hasattr(agent, "act_on_game"):
        if getattr(agent, "reads_legal_actions_only", False) or getattr(agent, "plays_native", False):
            return agent.act_on_game(game, player)
        return agent.act_on_game(game.snapshot(), player)
    observation = game.observe_flat(player, out if out is not None else np.zeros(FLAT_SIZE, np.float32))
    mask = np.zeros(CODEC.n, dtype=np.int8)
    if game.current_player == player:
        mask[game.legal_ids()] = 1
    return CODEC.decode(int(agent.act(observation, mask)), game.pending)
