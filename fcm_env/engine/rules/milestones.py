"""Claiming milestones (rules: Milestones; C29).

A milestone can be claimed by every player who reaches it in the same turn; at
Clean-up every milestone claimed this turn is gone for everyone else. The
introductory variant plays without milestones.
"""

from __future__ import annotations

from fcm_env.data import Milestone
from fcm_env.engine import events
from fcm_env.engine.state import GameState


def can_claim(state: GameState, player: int, milestone: Milestone) -> bool:
    return (
        state.uses_milestones
        and milestone not in state.milestones_gone
        and milestone not in state.players[player].milestones
    )


def claim(state: GameState, player: int, milestone: Milestone) -> bool:
    """Award ``milestone`` to ``player`` if still available to them; True if awarded."""
    if not can_claim(state, player, milestone):
        return False
    state.players[player].milestones.add(milestone)
    state.milestones_this_turn.add(milestone)
    events.emit(state, "milestone", player=int(player), milestone=milestone.name.lower())
    return True


def has(state: GameState, player: int, milestone: Milestone) -> bool:
    return milestone in state.players[player].milestones


def close_turn(state: GameState) -> None:
    """rules: Phase 7; C29 — milestones claimed this turn are gone for all others."""
    state.milestones_gone |= state.milestones_this_turn
    state.milestones_this_turn = set()
