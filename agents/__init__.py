"""Players for fcm-magnate: the ``Agent`` protocol, random and heuristic baselines.

``PolicyAgent`` (a MaskablePPO checkpoint, needs torch) and ``OnnxAgent`` (an exported
policy run with onnxruntime) are imported on first use, so the baselines need neither.
"""

from __future__ import annotations

from typing import Any

from .base import Agent, GameAgent
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["Agent", "GameAgent", "HeuristicAgent", "OnnxAgent", "PolicyAgent", "RandomAgent"]


def __getattr__(name: str) -> Any:
    if name == "PolicyAgent":
        from .policy import PolicyAgent

        return PolicyAgent
    if name == "OnnxAgent":
        from .onnx_agent import OnnxAgent

        return OnnxAgent
    raise AttributeError(f"module 'agents' has no attribute {name!r}")
