"""``TwinnedAgent``: a reference agent (Python) and its C++ twin behind one agent, as the registry builds them.

Why: the Python agents are the readable reference and know nothing of C++; the native players
(``fcm_agents.native``) answer exactly what they answer, many times faster. The registry pairs them: a game
with a native core (``game.native_core``) is answered by the twin, any other by the reference. The pair is
built only where the native players are built (``with_twin``), so a pure-Python install gets the reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fcm_env.engine.actions import Action


def with_twin(reference: Any) -> Any:
    """``reference`` paired with its native twin, or ``reference`` itself where it has none (a class without
    a twin, or an install without the native players)."""
    try:
        from .native import twin_of
    except ImportError:
        return reference
    twin = twin_of(reference)
    return reference if twin is None else TwinnedAgent(reference, twin)


class TwinnedAgent:
    """One agent: native games to ``twin``, Python games to ``reference`` (see the module docstring).

    Every other attribute is the reference's (``name``, a strategist's ``fixed`` archetype, ...)."""

    #: ``agent_move`` hands it any game as it is: it picks the engine's player itself
    plays_native = True

    def __init__(self, reference: Any, twin: Any) -> None:
        self.reference = reference
        self.twin = twin

    def act_on_game(self, game: Any, player: int) -> Action:
        if getattr(game, "native_core", None) is not None:
            return self.twin.act_on_game(game, player)
        return self.reference.act_on_game(game, player)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        return self.reference.act(observation, action_mask)

    def reset(self) -> None:
        self.reference.reset()
        self.twin.reset()

    def __getattr__(self, name: str) -> Any:
        if name in ("reference", "twin") or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.reference, name)

    def __getstate__(self) -> dict[str, Any]:
        return {"reference": self.reference}  # a C++ player is not copied: the copy makes its own

    def __setstate__(self, state: dict[str, Any]) -> None:
        from .native import twin_of

        self.reference = state["reference"]
        self.twin = twin_of(self.reference)

    def __repr__(self) -> str:
        return f"TwinnedAgent({self.reference!r})"
