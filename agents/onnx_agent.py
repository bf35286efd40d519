"""``OnnxAgent``: a policy exported by ``training/export.py``, run with onnxruntime (no torch).

The exported graph takes ``observation`` (float32 [batch, FLAT_SIZE]) and
``action_mask`` (float32 [batch, NUM_ACTIONS], 1 = legal) and returns ``action``
(int64 [batch], the best legal action) and ``masked_logits``. The mask is applied
inside the graph, so any program that can run ONNX can play the policy.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .base import check_mask


class OnnxAgent:
    def __init__(self, path: str | Path, name: str | None = None):
        import onnxruntime

        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"no ONNX model at {path}")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.name = name or f"onnx:{path}"

    def reset(self) -> None:
        """Stateless: nothing to reset."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        check_mask(action_mask)
        action, _ = self.session.run(
            ["action", "masked_logits"],
            {
                "observation": np.asarray(observation, dtype=np.float32)[None],
                "action_mask": np.asarray(action_mask, dtype=np.float32)[None],
            },
        )
        return int(action[0])
