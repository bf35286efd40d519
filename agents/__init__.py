"""Players for fcm-magnate: the ``Agent`` protocol, random and heuristic baselines, trained policies.

``load_agent(spec)`` (the short name of ``fcm_agents.registry.make_agent``) builds any
agent from a spec string: ``load_agent("policy")`` is the trained policy shipped
with the package (``agents/models/policy_2p.onnx``, run with onnxruntime, no torch),
``load_agent("heuristic")`` the rule-based baseline; see ``fcm_agents.registry``.

    from fcm_agents import load_agent
    agent = load_agent("policy")
    action_id = agent.act(observation, action_mask)

``PolicyAgent`` (a MaskablePPO checkpoint, needs torch) and ``OnnxAgent`` (an exported
policy run with onnxruntime) are imported on first use, so the baselines need neither.
"""

from __future__ import annotations

from typing import Any

from .base import Agent, GameAgent
from .heuristic import HeuristicAgent
from .models import shipped_model_path
from .random_agent import RandomAgent
from .registry import load_agent, make_agent

__all__ = ["Agent", "GameAgent", "HeuristicAgent", "OnnxAgent", "PolicyAgent", "RandomAgent", "load_agent",
           "make_agent", "shipped_model_path"]


def __getattr__(name: str) -> Any:
    if name == "PolicyAgent":
        from .policy import PolicyAgent

        return PolicyAgent
    if name == "OnnxAgent":
        from .onnx_agent import OnnxAgent

        return OnnxAgent
    raise AttributeError(f"module 'agents' has no attribute {name!r}")
