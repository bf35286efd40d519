"""What one player may see of another: the hidden-information rules in one place.

rules: Phase 1 (cards are chosen face down and opened together; "during all
phases except this one, every player can ... see the cards of another player");
Setting goals (reserve cards are kept face down); C26 (First to have $20 may look
at the face-down reserve cards); C30 (fired cards are chosen secretly and revealed
together).

The rules of what is face down live in the engine (``fcm_env.engine.hidden.visibility``), which
redraws the same facts for a search; this module applies them to what an observation shows.

Readings (documented in ``docs/observation.md``):

* while Restructuring is hidden, another player's cards show as they were public
  at the start of the phase: every card in hand, only the CEO at work (the CEO is
  always at work). Their hand + work total is unchanged by any choice they make;
* while firing is hidden, another player's ``fired`` choices show as none;
* another player's kept reserve card shows once the reserve cards are opened, or
  to an observer holding First to have $20; one's own card always shows.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from fcm_env.data import EmployeeType
from fcm_env.engine.events import HIDDEN_DECISIONS  # the engine's event log hides the same choices
from fcm_env.engine.hidden.visibility import (  # noqa: F401 (reserve_visible: the encoder reads it here)
    firing_hidden,
    reserve_visible,
    structure_hidden,
)
from fcm_env.engine.state import GameState

CEO = int(EmployeeType.CEO)


class VisibleCards(NamedTuple):
    hand: np.ndarray
    work: np.ndarray
    beach: np.ndarray
    busy: np.ndarray
    fired: np.ndarray
    structure_hidden: bool
    firing_hidden: bool


def visible_cards(state: GameState, observer: int, player: int) -> VisibleCards:
    """``player``'s card pools as ``observer`` may see them (copies where something is hidden)."""
    p = state.players[player]
    hand, work, fired = p.hand, p.work, p.fired
    s_hidden = structure_hidden(state, observer, player)
    f_hidden = firing_hidden(state, observer, player)
    if s_hidden:
        hand = p.hand + p.work
        hand[CEO] = p.hand[CEO]
        work = np.zeros_like(p.work)
        work[CEO] = p.work[CEO]
    if f_hidden:
        fired = np.zeros_like(p.fired)
    return VisibleCards(hand, work, p.beach, p.busy, fired, s_hidden, f_hidden)


def context_visible(state: GameState, observer: int) -> bool:
    """The pending record's context is public unless it belongs to another player's hidden choice."""
    if not state.pending:
        return False
    pending = state.pending[-1]
    return pending.player == observer or pending.decision not in HIDDEN_DECISIONS
