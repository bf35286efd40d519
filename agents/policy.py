"""``PolicyAgent``: a MaskablePPO policy (a saved checkpoint or a live policy object) as a player.

Needs torch and sb3-contrib (the ``train`` extra). The agent reads the flat
observation and the legal-action mask, so it plays through any front end that
provides those (the match runner, the PettingZoo env, the protocol).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .base import check_mask


class PolicyAgent:
    """Plays the policy's most likely legal action (or samples it with ``deterministic=False``)."""

    def __init__(self, source: str | Path | Any, name: str | None = None, *, deterministic: bool = True,
                 device: str = "cpu"):
        if isinstance(source, (str, Path)):
            from sb3_contrib import MaskablePPO

            path = Path(source)
            if not path.exists() and not path.with_suffix(".zip").exists():
                raise FileNotFoundError(f"no MaskablePPO checkpoint at {path}")
            self.policy = MaskablePPO.load(str(path), device=device).policy
            default_name = f"policy:{path}"
        elif hasattr(source, "predict"):
            self.policy = getattr(source, "policy", source)  # a model or its policy
            default_name = "policy"
        else:
            raise TypeError(f"PolicyAgent needs a checkpoint path or a policy, got {type(source).__name__}")
        self.policy.set_training_mode(False)
        self.name = name or default_name
        self.deterministic = deterministic

    def reset(self) -> None:
        """Stateless: nothing to reset."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        check_mask(action_mask)
        action, _ = self.policy.predict(
            np.asarray(observation, dtype=np.float32)[None],
            deterministic=self.deterministic,
            action_masks=np.asarray(action_mask, dtype=bool)[None],
        )
        return int(np.asarray(action).reshape(-1)[0])
