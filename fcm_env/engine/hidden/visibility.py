"""What one player may see of another: the hidden-information rules, on the state alone.

rules: Phase 1 (cards are chosen face down and opened together); Setting goals (reserve cards
are kept face down); C26 (First to have $20 may look at the face-down reserve cards); C30 (fired
cards are chosen secretly and revealed together); D50-D52.
"""

from __future__ import annotations

from fcm_env.data import Milestone
from fcm_env.engine.state import GameState


def structure_hidden(state: GameState, observer: int, player: int) -> bool:
    """Another player's Restructuring choice is still face down."""
    return player != observer and not state.structure_revealed


def firing_hidden(state: GameState, observer: int, player: int) -> bool:
    """Another player's firing choice is still secret (C30)."""
    return player != observer and not state.firing_revealed


def reserve_visible(state: GameState, observer: int, player: int) -> bool:
    """Whether ``observer`` may see the reserve card ``player`` kept (setup; C26)."""
    if state.players[player].reserve is None:
        return False
    return (
        player == observer
        or state.reserve_revealed
        or Milestone.FIRST_HAVE_20 in state.players[observer].milestones
    )


def reserve_hidden(state: GameState, observer: int, player: int) -> bool:
    """``player`` has kept a reserve card that ``observer`` may not see."""
    return state.players[player].reserve is not None and not reserve_visible(state, observer, player)
