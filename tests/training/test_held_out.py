"""train_keeping_best: the network ends with the weights of the lowest held-out loss, not the last."""

from __future__ import annotations

import numpy as np
import torch

from fcm_training.common.held_out import train_keeping_best


def _run(held_out_losses: list[float], start: dict | None = None):
    torch.manual_seed(0)
    net = torch.nn.Linear(1, 1, bias=False)
    with torch.no_grad():
        net.weight.fill_(0.0)
    optimizer = torch.optim.SGD(net.parameters(), lr=1.0)
    seen: list[float] = []  # the weight at each check
    losses = iter(held_out_losses)

    def held_out() -> dict[str, float]:
        seen.append(net.weight.item())
        return {"loss": next(losses)}

    # every step pushes the weight up by exactly 1 (d(-w)/dw = -1 with lr 1)
    best = train_keeping_best(net, optimizer, np.arange(8), batch=2, epochs=1, seed=0,
                              step_loss=lambda rows: -net.weight.sum(), held_out=held_out,
                              describe=lambda f: f"loss {f['loss']}", log=lambda line: None, start=start)
    return net, best, seen


def test_the_weights_of_the_best_check_are_kept():
    # 8 rows in batches of 2: 4 steps, a check after each (four checks an epoch)
    net, best, seen = _run([3.0, 1.0, 2.0, 4.0])
    assert seen == [1.0, 2.0, 3.0, 4.0]
    assert best == {"loss": 1.0}
    assert net.weight.item() == 2.0  # the weight at the second check, not the last (4.0)


def test_the_starting_weights_win_when_no_check_beats_them():
    net, best, _ = _run([3.0, 1.0, 2.0, 4.0], start={"loss": 0.5})
    assert best == {"loss": 0.5}
    assert net.weight.item() == 0.0
