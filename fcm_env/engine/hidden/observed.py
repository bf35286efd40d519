"""The key under which an observer sees a move: equal keys for moves it cannot tell apart.

A search that keeps one tree over information sets (IS-MCTS) must merge the moves of another
player that its own player cannot distinguish. The engine's event log already says what each
player sees of a move (``events.action_event``: a face-down choice, D50-D52, is shown only to
the player who makes it); this key follows the same rule, so a tree keyed by it never splits
on a fact the searcher may not see (tests/engine/test_determinize.py compares the two).
"""

from __future__ import annotations

from fcm_env.engine.actions import Action, Decision, Pending
from fcm_env.engine.events import HIDDEN_DECISIONS

#: an ``ObservedAction`` is (decision, player, action or None when the move is hidden from the observer)
ObservedAction = tuple[Decision, int, Action | None]


def observed_action(pending: Pending, action: Action, observer: int) -> ObservedAction:
    """What ``observer`` sees when ``pending.player`` takes ``action`` for ``pending``."""
    hidden = pending.decision in HIDDEN_DECISIONS and pending.player != observer
    return pending.decision, pending.player, None if hidden else action
