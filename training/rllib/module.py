"""RLlib RLModules with the legal-action mask applied to the logits, so no illegal id is ever sampled.

``MaskedPPOModule`` is the learner (and the frozen ``snapshot``): an MLP trunk over the flat
observation, a policy head and a value head. Illegal ids get the logit ``MASKED`` (-1e9, as the
ONNX export), so their probability is exactly 0 in float32 and they are never sampled nor pushed
by the gradient. ``action_logits`` is the hook ``fcm_training.common.export`` looks for, so the module
exports to the same ONNX graph as an SB3 policy. ``UniformMaskedModule`` has no weights: it draws
among the legal ids of its mask (the ``random`` seat, and the ``heuristic`` seat whose mask the env
narrows to the heuristic's one choice), so it cannot pick an illegal id either.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.rl_module import RLModule
from ray.rllib.core.rl_module.torch import TorchRLModule
from torch import nn

from ..common.export import MASKED


class _NotOurDeprecation(logging.Filter):
    """Drops Ray's "`RLModule(config=[RLModuleConfig object])` has been deprecated" line, logged once per process.

    Ray 2.60's ``RLModule.__init__`` builds the deprecated ``RLModuleConfig`` itself, for every module however
    it is constructed (``self.config = RLModuleConfig(...)`` at the end of ``__init__`` in
    ray/rllib/core/rl_module/rl_module.py). Ours are built through ``RLModuleSpec.build`` with the keyword
    constructor (``observation_space=``, ``action_space=``, ``model_config=``): the line is not about them.
    Installed where these modules are imported, so in the driver and in every EnvRunner and Learner.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return "RLModule(config=[RLModuleConfig object])" not in record.getMessage()


logging.getLogger("ray._common.deprecation").addFilter(_NotOurDeprecation())


def masked(logits: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
    """``logits`` where the mask is set, ``MASKED`` elsewhere."""
    return torch.where(action_mask > 0.5, logits, torch.full_like(logits, MASKED))


class MaskedPPOModule(TorchRLModule, ValueFunctionAPI):
    """Shared-trunk actor-critic for the Dict observation; ``model_config["hidden"]`` sizes the trunk."""

    def setup(self) -> None:
        width = int(self.observation_space["observation"].shape[0])
        hidden = list((self.model_config or {}).get("hidden", [256, 128]))
        layers: list[nn.Module] = []
        for size in hidden:
            layers += [nn.Linear(width, size), nn.Tanh()]
            width = size
        self.trunk = nn.Sequential(*layers)
        self.pi = nn.Linear(width, int(self.action_space.n))
        self.vf = nn.Linear(width, 1)
        nn.init.orthogonal_(self.pi.weight, gain=0.01)  # near-uniform first policy, as SB3 starts
        nn.init.zeros_(self.pi.bias)

    def action_logits(self, observation: torch.Tensor) -> torch.Tensor:
        """Unmasked logits of a batch of flat observations (the export hook)."""
        return self.pi(self.trunk(observation))

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        return {Columns.ACTION_DIST_INPUTS: masked(self.action_logits(obs["observation"]), obs["action_mask"])}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        features = self.trunk(obs["observation"])
        return {Columns.ACTION_DIST_INPUTS: masked(self.pi(features), obs["action_mask"]),
                Columns.EMBEDDINGS: features}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is None:
            embeddings = self.trunk(batch[Columns.OBS]["observation"])
        return self.vf(embeddings).squeeze(-1)


class UniformMaskedModule(RLModule):
    """A frozen, weightless module: a uniform draw among the legal ids of its mask (never trained).

    Not a ``TorchRLModule``, so the torch Learner gives it no optimizer; it answers with actions
    directly, drawn from its own generator (seeded from the mask's first row count, so runs repeat).
    """

    def setup(self) -> None:
        self._rng = np.random.default_rng((self.model_config or {}).get("seed", 0))

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        masks = np.asarray(batch[Columns.OBS]["action_mask"])
        actions = [int(self._rng.choice(np.flatnonzero(row))) for row in masks]
        return {Columns.ACTIONS: np.array(actions, dtype=np.int64)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError("UniformMaskedModule is frozen: keep it out of policies_to_train")
