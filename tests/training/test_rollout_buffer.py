"""The in-place rollout buffer gives exactly the samples of sb3-contrib's MaskableRolloutBuffer."""

from __future__ import annotations

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

from fcm_training.sb3.rollout_buffer import InPlaceMaskableRolloutBuffer


def _fill(buffer, rng: np.random.Generator, n_steps: int, n_envs: int) -> None:
    buffer.reset()
    for _ in range(n_steps):
        masks = rng.random((n_envs, 7)) < 0.5
        buffer.add(rng.random((n_envs, 5)).astype(np.float32), rng.integers(0, 7, (n_envs, 1)),
                   rng.random(n_envs), rng.random(n_envs) < 0.1, torch.as_tensor(rng.random(n_envs)),
                   torch.as_tensor(rng.random(n_envs)), action_masks=masks)
    buffer.compute_returns_and_advantage(torch.as_tensor(rng.random(n_envs)), rng.random(n_envs) < 0.5)


def test_same_samples_for_the_same_indices_over_two_rollouts():
    obs_space, act_space = spaces.Box(-1, 1, (5,), np.float32), spaces.Discrete(7)
    ours = InPlaceMaskableRolloutBuffer(6, obs_space, act_space, n_envs=3, gamma=0.9, gae_lambda=0.8)
    ref = MaskableRolloutBuffer(6, obs_space, act_space, n_envs=3, gamma=0.9, gae_lambda=0.8)
    for rollout in range(2):  # the second rollout reuses the arrays of the first
        for buffer in (ours, ref):
            _fill(buffer, np.random.default_rng(rollout), 6, 3)
        np.random.seed(rollout)
        # a minibatch's tensors are valid until the next one is drawn (MaskablePPO's use): keep copies
        a = [type(x)(*(t.clone() for t in x)) for x in ours.get(4)]
        np.random.seed(rollout)
        b = list(ref.get(4))
        assert len(a) == len(b) == 5
        for x, y in zip(a, b, strict=True):
            for field in x._fields:
                got, want = getattr(x, field), getattr(y, field)
                if field == "action_masks":
                    want = want.bool()
                torch.testing.assert_close(got, want.to(got.dtype), msg=field)
