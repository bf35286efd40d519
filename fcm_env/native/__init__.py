"""The native (C++) core, built with the package: today numpy's default random generator, bit for bit.

Why it starts here: the native engine must play the same game as the Python engine for the same seed and
actions, and the only randomness of a game (the map tiles, their turns, the first turn order: ``Game.new``)
and of the seeded agents (``RandomAgent``) comes from ``numpy.random.default_rng``. ``Pcg64(seed)`` draws
exactly what ``numpy.random.default_rng(seed)`` draws for the calls the project makes: ``integers``,
``permutation``, ``choice(..., replace=False)`` (tests/native/test_rng.py). The engine itself follows in
later slices (docs/architecture.md, "Where the native engine goes").

The extension is compiled by ``pip install`` (pybind11, a C++17 compiler); ``fcm_env`` never needs it.
"""

from __future__ import annotations

try:
    from fcm_env.native._core import Pcg64, seed_sequence_pool
except ImportError as exc:  # pragma: no cover - an install without its compiled part
    raise ImportError(
        "fcm_env.native: the C++ core is not built in this install (it needs a C++17 compiler at "
        f"`pip install` time): reinstall with `pip install -e .` from a checkout ({exc})"
    ) from exc

__all__ = ["Pcg64", "seed_sequence_pool"]
