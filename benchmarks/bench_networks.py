"""What each network choice costs in speed and in strength (imitation of the heuristic).

    python benchmarks/bench_networks.py --games 30 --holdout 10 --epochs 3

For every candidate features extractor, on one torch thread:

* **speed**: a PPO-style training step (the masked distribution over all 2,757 actions as
  sb3-contrib computes it, or over the legal ones: ``fcm_training.sb3.legal_policy``) (forward of policy + value, backward, Adam) on a
  minibatch of 512 real observations, and a rollout forward pass on a batch of 16, in ms
  (median of ``--repeats``);
* **strength**: behaviour cloning on the same heuristic demonstrations (``--games`` pure
  heuristic 2-player games), then the accuracy of its most likely legal action against the
  heuristic's on ``--holdout`` unseen games, and the value head's error on their returns.

The demonstrations are collected once and shared, so the candidates differ only by network.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np
import torch

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS
from fcm_training.sb3.features import EXTRACTORS
from fcm_training.sb3.imitation import collect, imitation_accuracy, train_epochs

COMPACT = {"mix_channels": 8, "board_channels": 16, "board_features": 128, "vector_hidden": 128}
#: name -> (extractor, its settings, net_arch, softmax over legal actions only)
CANDIDATES = {
    "cnn (before)": ("cnn", {"board_channels": 16, "board_features": 128, "vector_hidden": 128}, [128, 128],
                     False),
    "compact mix 8, all-action softmax": ("compact", COMPACT, [128], False),
    "compact mix 8": ("compact", COMPACT, [128], True),
    "compact mix 16": ("compact", {**COMPACT, "mix_channels": 16}, [128], True),
    "spatial mix 16": ("spatial", {**COMPACT, "mix_channels": 16}, [128], True),
    "compact mix 4": ("compact", {**COMPACT, "mix_channels": 4, "board_channels": 8, "board_features": 64},
                      [128], True),
}


def build(name: str):
    from sb3_contrib import MaskablePPO

    from fcm_env.env.single_agent import FcmSingleAgentEnv
    from fcm_training.sb3.legal_policy import LegalActionsPolicy, SpatialPolicy

    extractor, kwargs, arch, legal_only = CANDIDATES[name]
    torch.manual_seed(0)
    policy = SpatialPolicy if extractor == "spatial" else LegalActionsPolicy if legal_only else "MlpPolicy"
    model = MaskablePPO(policy, FcmSingleAgentEnv(num_players=2), seed=0, device="cpu", policy_kwargs={
        "features_extractor_class": EXTRACTORS[extractor][0], "features_extractor_kwargs": kwargs,
        "net_arch": {"pi": arch, "vf": arch}})
    return model.policy


def speed(policy, data, repeats: int) -> tuple[float, float]:
    rng = np.random.default_rng(0)
    rows = rng.choice(len(data), 512)
    obs = np.zeros((512, FLAT_SIZE), np.float32)
    masks = np.zeros((512, NUM_ACTIONS), bool)
    data.densify(rows, obs, masks)
    obs_t, actions = torch.as_tensor(obs), torch.as_tensor(data.actions[rows])
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-4)
    steps, forwards = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        values, log_prob, entropy = policy.evaluate_actions(obs_t, actions, action_masks=masks)
        loss = -log_prob.mean() + 0.5 * values.pow(2).mean() - 0.01 * entropy.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        steps.append(time.perf_counter() - start)
        with torch.no_grad():
            start = time.perf_counter()
            policy(obs_t[:16], action_masks=masks[:16])
            forwards.append(time.perf_counter() - start)
    return statistics.median(steps) * 1e3, statistics.median(forwards) * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--holdout", type=int, default=10)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--only", nargs="*", default=None, help="candidate names")
    parser.add_argument("--placement-weight", type=float, default=1.0, help="BC weight of placement decisions")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    settings = {"num_players": 2, "variant": "standard", "max_rounds": 20, "reward": "win",
                "shaping": "cash_lead", "gamma": 0.995}
    start = time.perf_counter()
    train = collect(range(args.games), **settings)
    holdout = collect(range(10_000_000, 10_000_000 + args.holdout), **settings)
    print(f"demonstrations: {len(train)} training and {len(holdout)} held-out decisions "
          f"({time.perf_counter() - start:.0f} s); chance accuracy {holdout.chance_accuracy():.3f}")
    print(f"{'network':<36}{'params':>9}{'train step 512':>16}{'forward 16':>12}{'BC s':>7}"
          f"{'held-out acc':>14}{'placements':>12}{'value mse':>11}")
    for name in args.only or CANDIDATES:
        policy = build(name)
        params = sum(p.numel() for p in policy.parameters())
        step_ms, forward_ms = speed(build(name), train, args.repeats)
        optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
        start = time.perf_counter()
        train_epochs(policy, train, epochs=args.epochs, batch_size=256, optimizer=optimizer, value_coef=0.5,
                     rng=np.random.default_rng(0), placement_weight=args.placement_weight)
        seconds = time.perf_counter() - start
        held = imitation_accuracy(policy, holdout)
        print(f"{name:<36}{params / 1e3:>8.0f}k{step_ms:>13.1f} ms{forward_ms:>9.2f} ms{seconds:>7.0f}"
              f"{held['accuracy']:>14.3f}{held['placement_accuracy']:>12.3f}{held['value_mse']:>11.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
