"""The engine's own steps between decisions: which phase follows which, and the game's end.

``advance`` runs every step that needs no player decision (phase changes,
Dinnertime, paying salaries, running campaigns, Clean-up) until a player must
decide or the game is over.
"""

from __future__ import annotations

from . import structure, working
from .state import GameState, Phase


def advance(state: GameState) -> None:
    while not state.pending and state.phase != Phase.GAME_OVER:
        if state.phase in (Phase.SETUP_RESTAURANTS, Phase.SETUP_RESERVE):
            state.round = 1
            structure.start_restructuring(state)
        elif state.phase == Phase.ORDER_OF_BUSINESS:
            working.start(state)
        else:
            break  # phases 4-7: being written


def winners(state: GameState) -> tuple[int, ...]:
    return ()
