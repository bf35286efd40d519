"""A MaskablePPO rollout buffer that does not copy the 100 KB observations around.

sb3-contrib's ``MaskableRolloutBuffer`` allocates fresh observation and mask arrays at every
rollout, and before the first minibatch ``swap_and_flatten``s them (a transposing copy of the
whole rollout: 4,096 x 24,880 floats are 400 MB). Measured on the project's 2-core machine, that
copy was two thirds of the time of a PPO update (``docs/benchmarks.md``). This buffer gives the
same samples for the same indices, but keeps its arrays from one rollout to the next, stores
masks as bools (a quarter of the float32 masks), and reads a minibatch's rows straight from the
(step, env) layout instead of transposing everything first, with ``torch.index_select`` into
batch tensors kept from one minibatch to the next (about 3x faster than numpy's fancy indexing
into a fresh 51 MB array). A minibatch's tensors are therefore valid until the next one is
drawn, which is how MaskablePPO's ``train`` uses them.
"""

from __future__ import annotations

import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer, MaskableRolloutBufferSamples

SMALL = ("actions", "values", "log_probs", "advantages", "returns")


class InPlaceMaskableRolloutBuffer(MaskableRolloutBuffer):
    """Drop-in ``rollout_buffer_class`` for ``MaskablePPO`` (flat Box observations, Discrete actions)."""

    def reset(self) -> None:
        kept = getattr(self, "_kept", None)
        super().reset()  # the small arrays; the big ones it allocates are replaced below
        if kept is None:
            kept = (np.zeros_like(self.observations), np.ones(self.action_masks.shape, dtype=bool))
        self.observations, self.action_masks = kept
        self._kept = kept

    def get(self, batch_size: int | None = None):
        assert self.full, "the rollout buffer is not full"
        total = self.buffer_size * self.n_envs
        indices = np.random.permutation(total)
        if not self.generator_ready:
            for name in SMALL:
                self.__dict__[name] = self.swap_and_flatten(self.__dict__[name])
            self.generator_ready = True
        batch_size = batch_size or total
        for start in range(0, total, batch_size):
            yield self._get_samples(indices[start:start + batch_size])

    def _get_samples(self, batch_inds: np.ndarray, env=None) -> MaskableRolloutBufferSamples:
        # flattened index i is (env i // buffer_size, step i % buffer_size), as swap_and_flatten orders it
        rows = torch.from_numpy((batch_inds % self.buffer_size) * self.n_envs + batch_inds // self.buffer_size)
        if getattr(self, "_batch", None) is None or self._batch[0].shape[0] != rows.numel():
            self._batch = (torch.empty((rows.numel(), *self.obs_shape), dtype=torch.from_numpy(self.observations).dtype),
                           torch.empty((rows.numel(), self.mask_dims), dtype=torch.bool))
        obs, masks = self._batch
        torch.index_select(torch.from_numpy(self.observations.reshape(-1, *self.obs_shape)), 0, rows, out=obs)
        torch.index_select(torch.from_numpy(self.action_masks.reshape(-1, self.mask_dims)), 0, rows, out=masks)
        return MaskableRolloutBufferSamples(
            obs.to(self.device),
            self.to_torch(self.actions[batch_inds]),
            self.to_torch(self.values[batch_inds].flatten()),
            self.to_torch(self.log_probs[batch_inds].flatten()),
            self.to_torch(self.advantages[batch_inds].flatten()),
            self.to_torch(self.returns[batch_inds].flatten()),
            masks.to(self.device),
        )
