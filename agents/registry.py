"""Build agents from short specs: ``random``, ``heuristic``, ``policy:PATH``, ``onnx:PATH``.

Specs are plain strings so that tournaments can send them to worker processes
and write them into results and game records.
"""

from __future__ import annotations

from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

KINDS = ("random", "heuristic", "policy", "onnx")


def make_agent(spec: str, seed: int | None = None):
    """An agent for ``spec``; a seed makes random choices reproducible."""
    kind, _, arg = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "random":
        return RandomAgent(seed=seed, name=spec)
    if kind == "heuristic":
        return HeuristicAgent(seed=seed, name=spec)
    if kind == "policy":
        if not arg:
            raise ValueError("a policy agent needs a checkpoint path: policy:PATH")
        from .policy import PolicyAgent

        return PolicyAgent(arg, name=spec)
    if kind == "onnx":
        if not arg:
            raise ValueError("an ONNX agent needs a model path: onnx:PATH")
        from .onnx_agent import OnnxAgent

        return OnnxAgent(arg, name=spec)
    raise ValueError(f"unknown agent {spec!r}: use one of {', '.join(KINDS)} (policy/onnx take :PATH)")
