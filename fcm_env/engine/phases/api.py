"""The shape every phase module's ``ROUTES`` table has: decision -> (legal, apply).

``legal(state, pending)`` lists the actions the pending decision allows (any order;
``Game`` sorts them). ``apply(state, pending, action)`` performs an action that
``Game`` has already checked against that list, and leaves ``state.pending`` set to
the next decision, or empty when the engine should move on (``flow.advance``).
"""

from __future__ import annotations

from collections.abc import Callable

from fcm_env.engine.actions import Action, Pending
from fcm_env.engine.state import GameState

Legal = Callable[[GameState, Pending], list[Action]]
Apply = Callable[[GameState, Pending, Action], None]
