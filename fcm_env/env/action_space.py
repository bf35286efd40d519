"""The action space: a ``gymnasium.spaces.Discrete`` whose masked ``sample`` suits a long, sparse mask.

The PettingZoo loop draws random legal actions with ``action_space(agent).sample(mask)``.
Gymnasium's ``Discrete.sample`` checks the mask with three passes over all 2,757 entries
and finds the legal ids with ``np.where``; on our mask that costs about as much as the
engine's own move (about 20 us measured). ``ActionSpace.sample`` checks the same things
and finds the ids in one pass (one native core call, ``mask_ids``; without the core, through
numpy's boolean view), and draws with
``np_random.integers(0, k)``, which consumes the generator exactly as Gymnasium's
``np_random.choice`` does: the same seed gives the same actions as a plain ``Discrete``
(``tests/env/test_action_space.py``). Anything unusual (a mask of another dtype, shape or
values, a probability vector) goes to Gymnasium's own ``sample`` with its own checks and
errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

try:  # the native core reads a mask in one pass; without it, numpy does in a few
    from fcm_env.native._core import mask_ids as _mask_ids
except ImportError:  # pragma: no cover - an install without the native core
    _mask_ids = None


class ActionSpace(spaces.Discrete):
    """``Discrete(n)`` with a faster ``sample(mask)``; draws and errors as Gymnasium's."""

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if probability is None and mask is not None and _mask_ids is not None:
            ids = _mask_ids(mask, self.n)  # None: not a plain 0/1 int8 mask of n entries
            if ids is not None:
                if ids.size == 0:
                    return self.start
                return self.start + ids[self.np_random.integers(0, ids.size)]
        if (
            probability is not None
            or type(mask) is not np.ndarray
            or mask.dtype != np.int8
            or mask.shape != (self.n,)
            or mask.view(np.uint8).max() > 1  # a value other than 0 or 1: Gymnasium says which
        ):
            return super().sample(mask, probability)
        ids = mask.view(np.bool_).nonzero()[0]
        if ids.size == 0:
            return self.start
        return self.start + self.dtype.type(ids[self.np_random.integers(0, ids.size)])
