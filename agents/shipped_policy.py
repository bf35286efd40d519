"""``ShippedPolicy``: the policy shipped for the table an agent sits at (the spec ``policy``).

An agent spec is resolved before the table is known, so the choice is made per decision: the flat
observation says the player count (its ``num_players`` one-hot), and the agent asks the model
shipped for that count (``fcm_agents.models.MODEL_FILES``), loading it on first use; where none is
shipped for that count it plays the 2-player model, whose transfer figures docs/models.md gives.
"""

from __future__ import annotations

import numpy as np

from .models import DEFAULT_PLAYERS, MODEL_FILES, shipped_model_path
from .onnx_agent import OUTPUTS, OnnxAgent, _session


def _count_slice() -> slice:
    """Where the flat observation keeps its player-count one-hot (2..5)."""
    from fcm_env.encoding.layout import observation_layout

    layout = observation_layout()
    where = layout.slice("num_players")
    return slice(layout.board_size + where.start, layout.board_size + where.stop)


class ShippedPolicy(OnnxAgent):
    """The shipped ONNX policy, per table size (module docstring)."""

    def __init__(self, name: str = "policy", *, deterministic: bool = True, seed: int | None = None,
                 backend: str = "auto"):
        super().__init__(shipped_model_path(DEFAULT_PLAYERS), name=name, deterministic=deterministic, seed=seed,
                         backend=backend)
        self._sessions = {DEFAULT_PLAYERS: self.session}
        self._counts = _count_slice()

    def player_count(self, observation: np.ndarray) -> int:
        """The table size a flat observation describes (the 2-player default if it says none)."""
        one_hot = observation[self._counts]
        return 2 + int(np.argmax(one_hot)) if one_hot.any() else DEFAULT_PLAYERS

    def session_for(self, num_players: int):
        """The model for ``num_players``: the one shipped for it, else the 2-player one."""
        if num_players not in MODEL_FILES:
            return self._sessions[DEFAULT_PLAYERS]
        found = self._sessions.get(num_players)
        if found is None:
            found = self._sessions[num_players] = _session(str(shipped_model_path(num_players)), self.backend)
        return found

    def _session_for(self, num_players: int):
        return self.session_for(num_players)

    def _run(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        counts = np.array([self.player_count(row) for row in observations])
        if (counts == counts[0]).all():  # one table (the usual case): one call
            return self.session_for(int(counts[0])).run(list(OUTPUTS), {"observation": observations,
                                                                         "action_mask": masks})
        actions = np.zeros(len(observations), dtype=np.int64)
        logits = np.zeros(masks.shape, dtype=np.float32)
        for n in np.unique(counts):
            rows = np.flatnonzero(counts == n)
            a, lg = self.session_for(int(n)).run(list(OUTPUTS), {"observation": observations[rows],
                                                                 "action_mask": masks[rows]})
            actions[rows], logits[rows] = a, lg
        return actions, logits
