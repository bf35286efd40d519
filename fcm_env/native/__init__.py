"""The native (C++) core, built with the package: so far numpy's generator, the map and the setup.

Why it starts here: the native engine must play the same game as the Python engine for the same seed and
actions, and the only randomness of a game (the map tiles, their turns, the first turn order: ``Game.new``)
and of the seeded agents (``RandomAgent``) comes from ``numpy.random.default_rng``. ``Pcg64(seed)`` draws
exactly what ``numpy.random.default_rng(seed)`` draws for the calls the project makes: ``integers``,
``permutation``, ``choice(..., replace=False)`` (tests/native/test_native_rng.py). ``Board(layout)`` is the
map with its road tables, table for table ``fcm_env.engine.board.Board``'s
(tests/native/test_native_board.py), and ``new_game(...)`` sets up the game that ``Game.new`` sets up: the
same state document (tests/native/test_native_setup.py). Legal actions and moves follow in later slices
(docs/architecture.md, "Where the native engine goes").

The extension is compiled by ``pip install`` (pybind11, a C++17 compiler); ``fcm_env`` never needs it.
"""

from __future__ import annotations

from fcm_env.data import EMPLOYEES, HOUSES, MAP_TILES, MARKETING_TILES, RESERVE_CARDS, Milestone, setup_for

try:
    from fcm_env.native._core import (
        Board,
        GameState,
        Pcg64,
        new_game,
        seed_sequence_pool,
        set_components,
        set_map_tiles,
    )
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

#: milestone names by number, as the state document writes them
MILESTONE_NAMES = [m.name for m in sorted(Milestone)]


def _components() -> dict:
    """The facts of the components that the native setup reads, from fcm_env.data (their one home)."""
    sizes = (2, 3, 4, 5)
    return {  # the piles as the engine's initial_supply sets them out: the 1x types reduced (C2, R05)
        "supply": {n: [spec.copies_in_play(n) for spec in sorted(EMPLOYEES, key=lambda s: s.type)] for n in sizes},
        "bank": {n: setup_for(n).bank for n in sizes},
        "bank_intro": {n: setup_for(n).bank_introductory for n in sizes},
        "tiles": {n: [setup_for(n).tile_rows, setup_for(n).tile_cols] for n in sizes},
        "marketing": {n: [t.number for t in MARKETING_TILES if n in t.available_for_players] for n in sizes},
        "reserve_values": [card.value for card in RESERVE_CARDS],
        "house_tokens": list(HOUSES.numbers),
        "garden_tokens": HOUSES.garden_tokens,
        "num_map_tiles": len(MAP_TILES),
    }


set_components(_components())

__all__ = ["MILESTONE_NAMES", "Board", "GameState", "Pcg64", "new_game", "seed_sequence_pool"]
