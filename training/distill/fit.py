"""Train the policy-value network on the search's positions and export it.

The policy head learns the search's visit shares over the legal actions (cross-entropy against
``visits / sum(visits)``: the search's improved policy, as in Expert Iteration and AlphaZero), the
value head the game's outcome for the deciding seat (the win mixed with the squashed final cash
lead, ``fcm_training.value.fit.blend``). Games are split by seed (every tenth seed is held out) and
the weights with the best held-out loss are kept, as for the value network.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS

from ..common.held_out import split_by_seed, train_keeping_best
from ..value.fit import Positions, blend
from .network import PolicyValueNet, export_onnx, from_shipped
from .positions import load


class Labelled:
    """Positions files as batches: dense observations, legal masks, visit shares and value targets."""

    def __init__(self, paths: list[Path], lead_weight: float):
        data = load(paths)
        self.obs = Positions(data["idx"], data["val"].astype(np.float32), data["off"], data["label"], data["meta"])
        self.legal, self.visits, self.legal_off = data["legal"], data["visits"], data["legal_off"]
        self.meta = data["meta"]
        self.value = torch.from_numpy(blend(data["label"], data["meta"][:, 3], lead_weight))
        self.won = torch.from_numpy(data["label"])

    def __len__(self) -> int:
        return len(self.meta)

    def batch(self, rows: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(observations, masks, visit shares) of ``rows``."""
        mask = np.zeros((len(rows), NUM_ACTIONS), dtype=np.float32)
        share = np.zeros((len(rows), NUM_ACTIONS), dtype=np.float32)
        for k, r in enumerate(rows):
            a, b = self.legal_off[r], self.legal_off[r + 1]
            ids, visits = self.legal[a:b], self.visits[a:b]
            mask[k, ids] = 1.0
            share[k, ids] = visits / max(float(visits.sum()), 1.0)
        return self.obs.dense(rows, FLAT_SIZE), torch.from_numpy(mask), torch.from_numpy(share)


def losses(net: PolicyValueNet, data: Labelled, rows: np.ndarray, value_coef: float):
    """(total loss, policy cross-entropy, value loss, searched-move agreements, value agreements) on ``rows``."""
    obs, mask, share = data.batch(rows)
    _, masked, value_logit = net(obs, mask)
    log_p = torch.log_softmax(masked, dim=1)
    policy = -(share * torch.where(mask > 0.5, log_p, torch.zeros_like(log_p))).sum(dim=1).mean()
    value = F.binary_cross_entropy_with_logits(value_logit, data.value[rows])
    agree = (masked.argmax(dim=1) == share.argmax(dim=1)).float().sum()
    called = ((value_logit > 0).float() == data.won[rows]).float().sum()
    return policy + value_coef * value, policy, value, agree, called


def fit(paths: list[Path], out: Path, policy_onnx: Path, value_onnx: Path | None, epochs: int = 2, batch: int = 256,
        seed: int = 0, lead_weight: float = 0.5, value_coef: float = 1.0, lr: float = 3e-4,
        log: Callable[[str], None] = print) -> dict[str, float]:
    """Train on ``paths`` from the shipped networks, export the best to ``out`` (ONNX, ``network``);
    returns its held-out figures: ``policy`` (cross-entropy), ``value`` (loss), ``agreement`` (the
    network's favourite is the search's most visited move), ``accuracy`` (the value's sign against the win)."""
    torch.manual_seed(seed)
    data = Labelled(paths, lead_weight)
    train_rows, test_rows = split_by_seed(data.meta[:, 0])
    if len(train_rows) < batch or not len(test_rows):
        raise ValueError(f"{len(data)} positions ({len(train_rows)} to train on, {len(test_rows)} held out, by seed): "
                         f"too few for batches of {batch} and a held-out check; play more games")
    net = from_shipped(policy_onnx, value_onnx)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)
    log(f"{len(data)} positions: {len(train_rows)} to train on, {len(test_rows)} held out")

    def held_out_figures() -> dict[str, float]:
        net.eval()
        sums = np.zeros(5)
        with torch.no_grad():
            for i in range(0, len(test_rows), 512):
                rows = test_rows[i:i + 512]
                parts = losses(net, data, rows, value_coef)
                sums += [parts[0].item() * len(rows), parts[1].item() * len(rows), parts[2].item() * len(rows),
                         parts[3].item(), parts[4].item()]
        net.train()
        n = len(test_rows)
        return {"loss": sums[0] / n, "policy": sums[1] / n, "value": sums[2] / n, "agreement": sums[3] / n,
                "accuracy": sums[4] / n}

    def describe(figures: dict[str, float]) -> str:
        return (f"policy {figures['policy']:.4f}, value {figures['value']:.4f}, agreement {figures['agreement']:.3f}, "
                f"accuracy {figures['accuracy']:.3f}")

    start = held_out_figures()
    log(f"before training: held-out {describe(start)}")
    best = train_keeping_best(net, optimizer, train_rows, batch, epochs, seed,
                              lambda rows: losses(net, data, rows, value_coef)[0], held_out_figures, describe, log,
                              start=start)
    export_onnx(net, out)
    return best
