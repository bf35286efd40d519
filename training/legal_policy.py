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
"""

from __future__ import annotations

import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy


def legal_log_probs(logits: torch.Tensor, masks) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(ids [B, K], valid [B, K], log_probs [B, K])``: each row's legal ids in increasing order
    (padded with id 0 where ``valid`` is False) and their log-probabilities (-inf at padding)."""
    masks = torch.as_tensor(masks, dtype=torch.bool, device=logits.device).reshape(logits.shape)
    counts = masks.sum(dim=1)
    if bool((counts == 0).any()):
        raise ValueError("an action mask has no legal action")
    k = int(counts.max())
    rows, cols = masks.nonzero(as_tuple=True)  # row-major: each row's legal ids in increasing order
    starts = torch.cumsum(counts, 0) - counts
    slots = torch.arange(rows.numel(), device=logits.device) - starts[rows]
    ids = torch.zeros(logits.shape[0], k, dtype=torch.long, device=logits.device)
    ids[rows, slots] = cols
    valid = torch.arange(k, device=logits.device)[None, :] < counts[:, None]
    log_probs = logits.gather(1, ids).masked_fill(~valid, float("-inf")).log_softmax(dim=1)
    return ids, valid, log_probs


class LegalActionsPolicy(MaskableActorCriticPolicy):
    """Same network and distribution as ``MaskableActorCriticPolicy``; cheaper with masks (see above)."""

    def _heads(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.extract_features(obs)
        if self.share_features_extractor:
            latent_pi, latent_vf = self.mlp_extractor(features)
        else:
            pi_features, vf_features = features
            latent_pi = self.mlp_extractor.forward_actor(pi_features)
            latent_vf = self.mlp_extractor.forward_critic(vf_features)
        return self.action_net(latent_pi), self.value_net(latent_vf)

    def forward(self, obs: torch.Tensor, deterministic: bool = False, action_masks=None):
        if action_masks is None:
            return super().forward(obs, deterministic, action_masks)
        logits, values = self._heads(obs)
        ids, _, log_probs = legal_log_probs(logits, action_masks)
        if deterministic:
            pick = log_probs.argmax(dim=1, keepdim=True)  # the first best, as argmax over all ids
        else:
            pick = torch.multinomial(log_probs.exp(), 1)
        return ids.gather(1, pick).squeeze(1), values, log_probs.gather(1, pick).squeeze(1)

    def evaluate_actions(self, obs: torch.Tensor, actions: torch.Tensor, action_masks=None):
        if action_masks is None:
            return super().evaluate_actions(obs, actions, action_masks)
        logits, values = self._heads(obs)
        ids, valid, log_probs = legal_log_probs(logits, action_masks)
        taken = (ids == actions.long().reshape(-1, 1)) & valid
        if not bool(taken.any(dim=1).all()):
            raise ValueError("an evaluated action is not legal under its mask")
        safe = log_probs.masked_fill(~valid, 0.0)
        log_prob = safe.masked_fill(~taken, 0.0).sum(dim=1)
        entropy = -(safe.exp().masked_fill(~valid, 0.0) * safe).sum(dim=1)
        return values, log_prob, entropy
