"""Train the value network on positions files and export it.

Games are split by seed (every tenth seed is held out), so that the held-out loss is measured on
games the network never saw: positions of one game are alike, and a split by position would
flatter it. The trunk starts from the policy's weights and learns at a lower rate than the head;
the weights with the best held-out loss are kept (it overfits after a few passes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from ..common.held_out import split_by_seed, train_keeping_best
from .network import ValueNet, export_onnx, init_from_policy


@dataclass
class Positions:
    """Sparse observations (``positions`` module) of one or more files, concatenated."""

    idx: np.ndarray
    val: np.ndarray
    off: np.ndarray
    label: np.ndarray
    meta: np.ndarray
    #: the table size of the games (files written before it was recorded: 2)
    players: int = 2

    @classmethod
    def load(cls, paths: list[Path]) -> Positions:
        """The files' positions, concatenated; ``ValueError`` naming a file that is not a positions file,
        or files of different table sizes (a value learned across sizes would mean nothing at either)."""
        parts, sizes = [], {}
        for path in paths:
            try:
                with np.load(path) as data:
                    parts.append({key: data[key] for key in ("idx", "val", "off", "label", "meta")})
                    sizes[path] = int(data["players"]) if "players" in data.files else 2
            except (OSError, KeyError, ValueError) as error:
                raise ValueError(f"{path}: not a positions file ({error})") from None
        if len(set(sizes.values())) > 1:
            listed = ", ".join(f"{path} ({n} players)" for path, n in sizes.items())
            raise ValueError(f"positions of different table sizes: {listed}")
        offsets, base = [np.zeros(1, dtype=np.int64)], 0
        for part in parts:
            offsets.append(part["off"][1:] + base)
            base += int(part["off"][-1])
        return cls(np.concatenate([p["idx"] for p in parts]), np.concatenate([p["val"] for p in parts]).astype(np.float32),
                   np.concatenate(offsets), np.concatenate([p["label"] for p in parts]),
                   np.concatenate([p["meta"] for p in parts]), next(iter(sizes.values()), 2))

    def dense(self, rows: np.ndarray, flat_size: int) -> torch.Tensor:
        x = np.zeros((len(rows), flat_size), dtype=np.float32)
        for k, r in enumerate(rows):
            a, b = self.off[r], self.off[r + 1]
            x[k, self.idx[a:b]] = self.val[a:b]
        return torch.from_numpy(x)


def targets(data: Positions, lead_weight: float, scale: float = 60.0) -> np.ndarray:
    """What the network learns to predict: the win (1 or 0), mixed with ``lead_weight`` of the final cash
    lead squashed as the cash value squashes it (``(1 + tanh(lead / scale)) / 2``): a win by $200 and a
    win by $2 are not the same position, and the margin is a far less noisy signal than the result."""
    return blend(data.label, data.meta[:, 3], lead_weight, scale)


def blend(won: np.ndarray, lead: np.ndarray, lead_weight: float, scale: float = 60.0) -> np.ndarray:
    """``targets`` from the win labels and the final cash leads (dollars)."""
    squashed = (1.0 + np.tanh(lead / scale)) / 2.0
    return ((1.0 - lead_weight) * won + lead_weight * squashed).astype(np.float32)


def fit(paths: list[Path], out: Path, policy_onnx: Path, epochs: int = 2, batch: int = 256, seed: int = 0,
        lead_weight: float = 0.5, log: Callable[[str], None] = print) -> dict[str, float]:
    """Train on ``paths``, export the best network to ``out`` (ONNX); returns its held-out figures
    (``loss`` against the targets, ``accuracy``: the sign of the logit against the win)."""
    torch.manual_seed(seed)
    data = Positions.load(paths)
    train_rows, test_rows = split_by_seed(data.meta[:, 0])
    net = ValueNet()
    init_from_policy(net, policy_onnx)
    flat = net.board_size + net.vector_head.in_features
    head = {id(p) for p in net.head_parameters()}
    optimizer = torch.optim.Adam([
        {"params": [p for p in net.parameters() if id(p) not in head], "lr": 3e-4},
        {"params": net.head_parameters(), "lr": 1e-3}], weight_decay=1e-5)
    labels = torch.from_numpy(targets(data, lead_weight))
    wins = torch.from_numpy(data.label)
    log(f"{len(data.label)} positions: {len(train_rows)} to train on, {len(test_rows)} held out")

    def held_out_figures() -> dict[str, float]:
        net.eval()
        loss = right = 0.0
        with torch.no_grad():
            for i in range(0, len(test_rows), 1024):
                rows = test_rows[i:i + 1024]
                logits = net(data.dense(rows, flat))
                loss += F.binary_cross_entropy_with_logits(logits, labels[rows], reduction="sum").item()
                right += ((logits > 0).float() == wins[rows]).sum().item()
        net.train()
        return {"loss": loss / len(test_rows), "accuracy": right / len(test_rows)}

    def step_loss(rows: np.ndarray) -> torch.Tensor:
        return F.binary_cross_entropy_with_logits(net(data.dense(rows, flat)), labels[rows])

    best = train_keeping_best(net, optimizer, train_rows, batch, epochs, seed, step_loss, held_out_figures,
                              lambda figures: f"loss {figures['loss']:.4f}, accuracy {figures['accuracy']:.3f}", log)
    export_onnx(net, out)
    return best
