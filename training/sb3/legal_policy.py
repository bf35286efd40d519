"""MaskablePPO's policy with the softmax taken over each position's legal actions only.

sb3-contrib's masked distribution sets illegal logits to -1e8 and then runs softmax,
log-softmax and entropy over all 2,757 actions of every sample; a position has about 6
legal actions. Measured on the project's 2-core machine (one torch thread), those passes
over a 512 x 2,757 minibatch were about half of a PPO training step (docs/benchmarks.md).
``LegalActionsPolicy`` computes the logits as before (one matrix product), gathers each
row's legal ones into a ``batch x K`` block (K = the largest legal count in the batch) and
does the distribution there. Log-probabilities and entropy are those of the masked
distribution (a test compares them with sb3-contrib's), the network and its saved
weights are the same, so checkpoints, ``get_distribution``/``predict`` and the ONNX export
are unchanged.

The action layer itself (``latent x 2,757`` weights) is evaluated only at the legal ids: each
(row, legal id) pair costs one dot product, about 3,000 pairs per minibatch of 512 instead of
512 x 2,757 logits. On the project's 2-core machine that took the action layer from about 17
of the 85 ms of a minibatch step (forward and backward) to well under 1 ms (docs/benchmarks.md).
"""

from __future__ import annotations

from typing import NamedTuple

import torch
import torch.nn.functional as F
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn


class LegalLayout(NamedTuple):
    """Where each row's legal ids go in a ``batch x K`` block (K = the largest legal count)."""

    rows: torch.Tensor  # [P]: the row of each legal (row, id) pair, row-major
    cols: torch.Tensor  # [P]: its action id
    slots: torch.Tensor  # [P]: its column in the block
    ids: torch.Tensor  # [B, K]: each row's legal ids in increasing order (0 at padding)
    valid: torch.Tensor  # [B, K]: False at padding


def legal_layout(masks, batch: int, num_actions: int, device) -> LegalLayout:
    """The pairs of legal (row, id) in ``masks`` and their block layout; an empty row is an error."""
    masks = torch.as_tensor(masks, dtype=torch.bool, device=device).reshape(batch, num_actions)
    counts = masks.sum(dim=1)
    if bool((counts == 0).any()):
        raise ValueError("an action mask has no legal action")
    k = int(counts.max())
    rows, cols = masks.nonzero(as_tuple=True)  # row-major: each row's legal ids in increasing order
    starts = torch.cumsum(counts, 0) - counts
    slots = torch.arange(rows.numel(), device=device) - starts[rows]
    ids = torch.zeros(batch, k, dtype=torch.long, device=device)
    ids[rows, slots] = cols
    valid = torch.arange(k, device=device)[None, :] < counts[:, None]
    return LegalLayout(rows, cols, slots, ids, valid)


def legal_log_probs(logits: torch.Tensor, masks) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(ids [B, K], valid [B, K], log_probs [B, K])``: each row's legal ids in increasing order
    (padded with id 0 where ``valid`` is False) and their log-probabilities (-inf at padding)."""
    layout = legal_layout(masks, logits.shape[0], logits.shape[1], logits.device)
    log_probs = logits.gather(1, layout.ids).masked_fill(~layout.valid, float("-inf")).log_softmax(dim=1)
    return layout.ids, layout.valid, log_probs


def legal_log_probs_from_latent(latent: torch.Tensor, action_net: nn.Linear,
                                masks) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``legal_log_probs(action_net(latent), masks)`` computed at the legal ids only."""
    layout = legal_layout(masks, latent.shape[0], action_net.out_features, latent.device)
    pair_logits = (latent.index_select(0, layout.rows) * F.embedding(layout.cols, action_net.weight)).sum(1)
    pair_logits = pair_logits + action_net.bias.index_select(0, layout.cols)
    block = latent.new_full(layout.ids.shape, float("-inf")).index_put((layout.rows, layout.slots), pair_logits)
    return layout.ids, layout.valid, block.log_softmax(dim=1)


class LegalActionsPolicy(MaskableActorCriticPolicy):
    """Same network and distribution as ``MaskableActorCriticPolicy``; cheaper with masks (see above)."""

    def action_logits(self, obs: torch.Tensor) -> torch.Tensor:
        """The unmasked action logits (what the ONNX export runs)."""
        return self._heads(obs)[0]

    def _latents(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The policy's last hidden layer and the values."""
        features = self.extract_features(obs)
        if self.share_features_extractor:
            latent_pi, latent_vf = self.mlp_extractor(features)
        else:
            pi_features, vf_features = features
            latent_pi = self.mlp_extractor.forward_actor(pi_features)
            latent_vf = self.mlp_extractor.forward_critic(vf_features)
        return latent_pi, self.value_net(latent_vf)

    def _heads(self, obs: torch.Tensor, action_masks=None) -> tuple[torch.Tensor, torch.Tensor]:
        """Action logits and values (``action_masks`` may let a subclass skip work; never changes them)."""
        latent_pi, values = self._latents(obs)
        return self.action_net(latent_pi), values

    def _legal(self, obs: torch.Tensor, action_masks) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor,
                                                                torch.Tensor]:
        """``(ids, valid, log_probs, values)`` as ``legal_log_probs`` gives them (no masks: all legal)."""
        if action_masks is None:  # every id is legal: the full layer is the cheaper way
            logits, values = self._heads(obs)
            return (*legal_log_probs(logits, torch.ones_like(logits, dtype=torch.bool)), values)
        latent_pi, values = self._latents(obs)
        return (*legal_log_probs_from_latent(latent_pi, self.action_net, action_masks), values)

    def forward(self, obs: torch.Tensor, deterministic: bool = False, action_masks=None):
        ids, _, log_probs, values = self._legal(obs, action_masks)
        if deterministic:
            pick = log_probs.argmax(dim=1, keepdim=True)  # the first best, as argmax over all ids
        else:
            pick = torch.multinomial(log_probs.exp(), 1)
        return ids.gather(1, pick).squeeze(1), values, log_probs.gather(1, pick).squeeze(1)

    def evaluate_actions(self, obs: torch.Tensor, actions: torch.Tensor, action_masks=None):
        ids, valid, log_probs, values = self._legal(obs, action_masks)
        taken = (ids == actions.long().reshape(-1, 1)) & valid
        if not bool(taken.any(dim=1).all()):
            raise ValueError("an evaluated action is not legal under its mask")
        safe = log_probs.masked_fill(~valid, 0.0)
        log_prob = safe.masked_fill(~taken, 0.0).sum(dim=1)
        entropy = -(safe.exp().masked_fill(~valid, 0.0) * safe).sum(dim=1)
        return values, log_prob, entropy


class SpatialPolicy(LegalActionsPolicy):
    """For ``fcm_training.sb3.features.SpatialExtractor``: placement logits from the board, square by square.

    Only the extractor's global features feed the policy and value layers; its placement
    logits are added to the action logits of the board-placement segment of the codec. Given
    masks, the full-resolution placement head runs only on the rows that may place something
    (the other rows' placement ids are masked out, so their logits there cannot matter).
    """

    def __init__(self, *args, **kwargs):
        if kwargs.get("share_features_extractor") is False:
            raise ValueError("SpatialPolicy shares one features extractor between policy and value")
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = MlpExtractor(self.features_extractor.global_dim, net_arch=self.net_arch,
                                          activation_fn=self.activation_fn, device=self.device)

    def _actor(self, obs: torch.Tensor, action_masks=None,
               with_values: bool = False) -> tuple[torch.Tensor, torch.Tensor | None]:
        from fcm_env.encoding import CODEC

        extractor = self.features_extractor
        global_features, maps = extractor.trunk(obs.float())
        latent_pi, latent_vf = self.mlp_extractor(global_features)
        logits = self.action_net(latent_pi)
        start = CODEC.segment("place").start
        if action_masks is None:  # every row may place; no branch on tensor values either (the ONNX trace)
            placement = extractor.placement(tuple(maps), global_features)
        else:
            masks = torch.as_tensor(action_masks, dtype=torch.bool, device=obs.device).reshape(logits.shape)
            rows = masks[:, start:].any(dim=1).nonzero(as_tuple=True)[0]
            placement = torch.zeros_like(logits[:, start:])
            if rows.numel():
                subset = extractor.placement(tuple(m.index_select(0, rows) for m in maps),
                                             global_features.index_select(0, rows))
                placement = placement.index_copy(0, rows, subset)
        logits = torch.cat([logits[:, :start], logits[:, start:] + placement], dim=1)
        return logits, self.value_net(latent_vf) if with_values else None

    def _heads(self, obs: torch.Tensor, action_masks=None) -> tuple[torch.Tensor, torch.Tensor]:
        return self._actor(obs, action_masks, with_values=True)

    def _legal(self, obs: torch.Tensor, action_masks) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor,
                                                                torch.Tensor]:
        logits, values = self._heads(obs, action_masks)
        if action_masks is None:
            action_masks = torch.ones_like(logits, dtype=torch.bool)
        return (*legal_log_probs(logits, action_masks), values)

    def action_logits(self, obs: torch.Tensor) -> torch.Tensor:
        return self._actor(obs)[0]

    def get_distribution(self, obs: torch.Tensor, action_masks=None):
        distribution = self.action_dist.proba_distribution(action_logits=self._actor(obs, action_masks)[0])
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        return distribution

    def predict_values(self, obs: torch.Tensor) -> torch.Tensor:
        global_features, _ = self.features_extractor.trunk(obs.float())
        return self.value_net(self.mlp_extractor.forward_critic(global_features))
