"""Players for fcm-magnate: the ``Agent`` protocol, random and heuristic baselines.

``PolicyAgent`` (a MaskablePPO checkpoint, needs torch) and ``OnnxAgent`` (an exported
policy run with onnxruntime) are imported lazily so that the baselines need neither.
"""

from .base import Agent, GameAgent
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["Agent", "GameAgent", "HeuristicAgent", "RandomAgent"]
