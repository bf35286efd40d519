"""Test-wide settings."""

from __future__ import annotations

import os

# Small torch models on a 2-core machine run faster on one thread (no thread contention with
# the test process itself); training code sets its own thread count from its config.
os.environ.setdefault("OMP_NUM_THREADS", "1")


def pytest_configure(config):
    try:
        import torch
    except ImportError:  # the engine tests need no torch
        return
    torch.set_num_threads(1)
