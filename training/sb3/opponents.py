"""The opponent pool of self-play: frozen snapshots of the learner, the heuristic, the strategist family,
the random agent, and a frozen policy (an exploiter's target, played greedily).

Snapshots are exported to ONNX when they are taken and played with the native forward pass where it knows
the network (else onnxruntime) through ``agents.OnnxAgent``, sampling from the masked policy: a snapshot
cannot change with the learner. A ``strategist`` seat is one of the strategist family
(``fcm_agents.strategist``) drawn per episode: the default (which picks its plan from the map) or one
archetype, each equally likely, so a league sees every plan.

Each seat of an episode draws from the env's generator, in order: its kind (by the probabilities), then a
snapshot's index and sampling seed, a strategist's archetype and seed, or a random player's seed (a frozen
seat draws nothing). Every seat owns what it draws: a snapshot seat samples from a generator of its own, so a
game's moves do not depend on which other games run beside it.

On the native engine ``native_mix`` hands the same pool to the native batch
(``fcm_agents.native._agents.OpponentMix``): the same draws from the same generator, and every seat played
in C++ (the heuristic's and the strategists' twins, the snapshots through the native pass), so the
learner's games step without a Python call. Off the native batch every opponent's decisions are timed
under ``opponent/<kind>`` (``fcm_training.sb3.timing``); in it, they are part of the ``env`` stage.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .timing import StageTimer, TimedAgent

KINDS = ("snapshot", "random", "heuristic", "strategist", "frozen")


class OpponentPool:
    """Samples the opponents of each episode with the configured probabilities."""

    def __init__(self, probabilities: dict[str, float], pool_size: int, timer: StageTimer | None = None,
                 seed: int = 0, frozen: str | Path | bytes | None = None):
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
        if probabilities.get("frozen", 0) > 0 and frozen is None:
            raise ValueError("opponents: a frozen opponent needs the policy it plays (frozen=PATH)")
        self._frozen_model = None if frozen is None else (
            bytes(frozen) if isinstance(frozen, (bytes, bytearray)) else Path(frozen).read_bytes())
        self._frozen: Any = None
        if self._frozen_model is not None:
            from fcm_agents.onnx_agent import OnnxAgent

            self._frozen = OnnxAgent(self._frozen_model, name="frozen", deterministic=True)
        self._mix: Any = None  # the native batch's twin of this pool, once asked for
        self._models: list[bytes] = []  # the snapshots' ONNX bytes, oldest first

    def add_snapshot(self, policy) -> None:
        """Freeze ``policy`` (a MaskablePPO policy) as an ONNX opponent; the oldest beyond ``pool_size`` goes."""
        from ..common.export import onnx_bytes

        self.add_onnx_snapshot(onnx_bytes(policy))

    def add_onnx_snapshot(self, model: bytes) -> None:
        """An exported policy (``fcm_training.common.export.onnx_bytes``) joins the pool as a sampling opponent."""
        from fcm_agents.onnx_agent import OnnxAgent

        k = len(self.snapshots)
        agent = OnnxAgent(model, name=f"snapshot{k}", deterministic=False, seed=self._seed * 1000 + k)
        if self._mix is not None:
            self._mix.add_snapshot(_native_network(agent, model))
        self.snapshots.append(agent)
        self._models.append(model)
        if len(self.snapshots) > self.pool_size:
            self.snapshots.pop(0)
            self._models.pop(0)

    def native_mix(self) -> Any:
        """This pool as the native batch plays it (``fcm_agents.native._agents.OpponentMix``, its snapshots
        on the native pass): the same draws from the env's generator. ``UnknownNetwork`` when a snapshot is of
        a design the native pass does not know."""
        if self._mix is None:
            from fcm_agents.native import _agents
            from fcm_agents.strategist import ARCHETYPES
            from fcm_agents.strategist.archetypes import NEAR_BEST

            mix = _agents.OpponentMix(list(self.kinds), [float(p) for p in self.probs], [None, *ARCHETYPES],
                                      float(NEAR_BEST), int(self.pool_size))
            for agent, model in zip(self.snapshots, self._models, strict=True):
                mix.add_snapshot(_native_network(agent, model))
            if self._frozen is not None:
                mix.set_frozen(_native_network(self._frozen, self._frozen_model))
            self._mix = mix
        return self._mix

    def sample(self, rng: np.random.Generator, count: int) -> list[Any]:
        from fcm_agents import RandomAgent

        chosen = []
        for _ in range(count):
            kind = self.kinds[int(rng.choice(len(self.kinds), p=self.probs))]
            if kind == "snapshot" and self.snapshots:
                k = int(rng.integers(len(self.snapshots)))
                seat = self.snapshots[k].with_seed(int(rng.integers(2**31)), name=f"snapshot{k}")
                chosen.append(TimedAgent(seat, "snapshot", self.timer))
            elif kind == "frozen":  # greedy: it draws nothing
                chosen.append(TimedAgent(self._frozen, "frozen", self.timer))
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



def _native_network(agent: Any, model: bytes) -> Any:
    """The native pass's network of a snapshot; ``UnknownNetwork`` saying why when the pass does not know it."""
    network = getattr(agent.session, "network", None)
    if network is None:  # the auto backend fell back to onnxruntime: the native backend names the reason
        from fcm_agents.onnx_agent import _session

        network = _session(model, "native").network
    return network
