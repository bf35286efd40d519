"""Minibatch training that keeps the weights with the best held-out loss.

The value network and the policy-value network both learn from positions of whole games, which a
network soon learns by heart: their held-out loss rises within an epoch or two. Both therefore check
the held-out figures four times an epoch and end with the best weights seen, not the last ones.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import torch

Figures = dict[str, float]

#: the held-out games: every tenth seed (a game's positions are alike, so a split by position would flatter)
HELD_OUT_RULE = "seed % 10 == 0"


def split_by_seed(seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(train_rows, test_rows)`` of positions whose games were played on ``seeds``: ``HELD_OUT_RULE``."""
    held_out = seeds % 10 == 0
    return np.flatnonzero(~held_out), np.flatnonzero(held_out)


def train_keeping_best(net: torch.nn.Module, optimizer: torch.optim.Optimizer, train_rows: np.ndarray, batch: int,
                       epochs: int, seed: int, step_loss: Callable[[np.ndarray], torch.Tensor],
                       held_out: Callable[[], Figures], describe: Callable[[Figures], str],
                       log: Callable[[str], None] = print, start: Figures | None = None) -> Figures:
    """``epochs`` shuffled passes over ``train_rows`` in batches of ``batch`` (a last partial batch is
    dropped), each step minimising ``step_loss(rows)``; ``held_out()`` (figures with a ``loss``) is asked
    four times an epoch and logged with ``describe``. ``net`` ends with the weights of the lowest held-out
    loss; ``start`` (the figures of the starting weights) lets those weights win too. Returns the best figures."""
    rng = np.random.default_rng(seed)
    best = start if start is not None else {"loss": float("inf")}
    best_state = {k: v.clone() for k, v in net.state_dict().items()} if start is not None else None
    began = time.perf_counter()
    steps_per_check = max(1, len(train_rows) // batch // 4)
    for epoch in range(epochs):
        rng.shuffle(train_rows)
        for step, i in enumerate(range(0, len(train_rows) - batch + 1, batch)):
            loss = step_loss(train_rows[i:i + batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % steps_per_check == steps_per_check - 1:
                figures = held_out()
                log(f"epoch {epoch} step {step + 1}: held-out {describe(figures)} ({time.perf_counter() - began:.0f} s)")
                if figures["loss"] < best["loss"]:
                    best, best_state = figures, {k: v.clone() for k, v in net.state_dict().items()}
    if best_state is not None:
        net.load_state_dict(best_state)
    return best
