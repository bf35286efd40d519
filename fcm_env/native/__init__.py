"""The native (C++) core, built with the package: so far numpy's default random generator and the map.

Why it starts here: the native engine must play the same game as the Python engine for the same seed and
actions, and the only randomness of a game (the map tiles, their turns, the first turn order: ``Game.new``)
and of the seeded agents (``RandomAgent``) comes from ``numpy.random.default_rng``. ``Pcg64(seed)`` draws
exactly what ``numpy.random.default_rng(seed)`` draws for the calls the project makes: ``integers``,
``permutation``, ``choice(..., replace=False)`` (tests/native/test_rng.py). ``Board(layout)`` is the map with its road tables, table for table
``fcm_env.engine.board.Board``'s (tests/native/test_board.py). The rest of the engine follows in later
slices (docs/architecture.md, "Where the native engine goes").

The extension is compiled by ``pip install`` (pybind11, a C++17 compiler); ``fcm_env`` never needs it.
"""

from __future__ import annotations

from fcm_env.data import MAP_TILES

try:
    from fcm_env.native._core import Board, Pcg64, seed_sequence_pool, set_map_tiles
except ImportError as exc:  # pragma: no cover - an install without its compiled part
    raise ImportError(
        "fcm_env.native: the C++ core is not built in this install (it needs a C++17 compiler at "
        f"`pip install` time): reinstall with `pip install -e .` from a checkout ({exc})"
    ) from exc

# the component data has one home, fcm_env/data: the core gets the printed map tiles from it
set_map_tiles([
    (tile.id, list(tile.grid), [(int(good), r, c) for good, (r, c) in tile.drinks],
     [(house.number, [list(cell) for cell in house.cells]) for house in tile.houses])
    for tile in MAP_TILES
])

__all__ = ["Board", "Pcg64", "seed_sequence_pool"]
