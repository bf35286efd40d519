"""Test-wide settings."""

from __future__ import annotations

import os

import pytest

# Small torch models on a 2-core machine run faster on one thread (no thread contention with
# the test process itself); training code sets its own thread count from its config.
os.environ.setdefault("OMP_NUM_THREADS", "1")


def pytest_configure(config):
    config.addinivalue_line("markers", "native_engine: the test's native-core half (the load_game fixture)")
    try:
        import torch
    except ImportError:  # the engine tests need no torch
        return
    torch.set_num_threads(1)


# ------------------------------------------------------------------ both engines

def _native_built() -> bool:
    from fcm_env.engines import native_available

    return native_available()


@pytest.fixture(params=["python", pytest.param("native", marks=pytest.mark.native_engine)])
def load_game(request):
    """``Game.from_dict`` on the engine the test runs on: a scenario that loads a position and asserts
    through the public API (``pending``, ``advance``, ``apply``, ``legal_actions``, ``state``) runs on the
    Python engine and on the native core (``fcm_env.engines.load_game``; skipped where the core is not built)."""
    if request.param == "native" and not _native_built():
        pytest.skip("the native core is not built in this install")
    from fcm_env.engines import load_game as load_on

    return lambda document: load_on(request.param, document)


@pytest.fixture(params=["python", pytest.param("native", marks=pytest.mark.native_engine)])
def engine(request) -> str:
    """The engine a rule test runs on, ``"python"`` or ``"native"`` (test ids ``[python]`` / ``[native]``; the
    native half is skipped where the core is not built). With ``tests/engine/on_engine.py``'s helpers a
    scenario builds its position as a Python ``GameState``, loads it on this engine through the state
    document and asserts through the face (``fcm_env.engines.GameLike``) and ``snapshot()``."""
    if request.param == "native" and not _native_built():
        pytest.skip("the native core is not built in this install")
    return request.param
