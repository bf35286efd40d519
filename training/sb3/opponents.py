"""The opponent pool of self-play: frozen snapshots of the learner, the heuristic, the strategist family,
the random agent.

Snapshots are exported to ONNX when they are taken and played with onnxruntime
(``agents.OnnxAgent``, sampling from the masked policy): one decision costs about a fifth
of a batch-of-one torch forward pass, and a snapshot cannot change with the learner.
A ``strategist`` seat is one of the strategist family (``fcm_agents.strategist``) drawn per episode:
the default (which picks its plan from the map) or one archetype, each equally likely, so a league
sees every plan. Every opponent's decisions are timed under ``opponent/<kind>`` (``fcm_training.sb3.timing``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .timing import StageTimer, TimedAgent

KINDS = ("snapshot", "random", "heuristic", "strategist")


class OpponentPool:
    """Samples the opponents of each episode with the configured probabilities."""

    def __init__(self, probabilities: dict[str, float], pool_size: int, timer: StageTimer | None = None,
                 seed: int = 0):
        from fcm_agents import HeuristicAgent

        unknown = set(probabilities) - set(KINDS)
        if unknown:
            raise ValueError(f"opponents: unknown kinds {sorted(unknown)} (use {', '.join(KINDS)})")
        self.timer = timer or StageTimer()
        self.pool_size = pool_size
        self.snapshots: list[Any] = []
        self.kinds = sorted(probabilities)
        weights = np.array([probabilities[k] for k in self.kinds], dtype=float)
        if weights.sum() <= 0 or (weights < 0).any():
            raise ValueError("opponents: the probabilities must be >= 0 and sum to more than 0")
        self.probs = weights / weights.sum()
        self._heuristic = TimedAgent(HeuristicAgent(name="heuristic"), "heuristic", self.timer)
        self._seed = seed

    def add_snapshot(self, policy) -> None:
        """Freeze ``policy`` (a MaskablePPO policy) as an ONNX opponent; the oldest beyond ``pool_size`` goes."""
        from ..common.export import onnx_bytes

        self.add_onnx_snapshot(onnx_bytes(policy))

    def add_onnx_snapshot(self, model: bytes) -> None:
        """An exported policy (``fcm_training.common.export.onnx_bytes``) joins the pool as a sampling opponent."""
        from fcm_agents.onnx_agent import OnnxAgent

        k = len(self.snapshots)
        agent = OnnxAgent(model, name=f"snapshot{k}", deterministic=False, seed=self._seed * 1000 + k)
        self.snapshots.append(TimedAgent(agent, "snapshot", self.timer))
        if len(self.snapshots) > self.pool_size:
            self.snapshots.pop(0)

    def sample(self, rng: np.random.Generator, count: int) -> list[Any]:
        from fcm_agents import RandomAgent

        chosen = []
        for _ in range(count):
            kind = self.kinds[int(rng.choice(len(self.kinds), p=self.probs))]
            if kind == "snapshot" and self.snapshots:
                chosen.append(self.snapshots[int(rng.integers(len(self.snapshots)))])
            elif kind == "heuristic":
                chosen.append(self._heuristic)
            elif kind == "strategist":  # a fresh one per episode: a strategist keeps its game's plan
                from fcm_agents.strategist import ARCHETYPES, StrategistAgent

                names = [None, *ARCHETYPES]
                name = names[int(rng.integers(len(names)))]
                agent = StrategistAgent(name, seed=int(rng.integers(2**31)), name=f"strategist:{name or 'auto'}")
                chosen.append(TimedAgent(agent, "strategist", self.timer))
            else:  # random, and snapshot before the first snapshot exists
                chosen.append(TimedAgent(RandomAgent(seed=int(rng.integers(2**31)), name="random"), "random",
                                         self.timer))
        return chosen

