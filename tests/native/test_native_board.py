"""The native map is the Python map, table for table: the squares' kinds, drinks, printed houses and tiles,
the road graph (two nodes on a bridge, R49), its segments and their ranges (C9), each square's access to the
roads next to it (R30) and the mailbox blocks (R45), on random maps at every table size and on hand-given
layouts; a bad layout is a ValueError naming it, as in Python."""

from __future__ import annotations

import numpy as np
import pytest

from fcm_env.engine.board import Board
from fcm_env.native import Board as NativeBoard

TABLES = ("kind", "drink", "printed_house", "tile", "block", "road_mask", "has_road_access", "node_of",
          "node_square", "node_segment", "segment_tile", "segment_distance", "access", "square_segment_distance")


def _same_board(layout: list[list[str]]) -> None:
    python, native = Board.from_tiles(layout), NativeBoard(layout)
    tables = native.tables()
    for name in TABLES:
        ours, theirs = tables[name], np.asarray(getattr(python, name))
        assert ours.shape == theirs.shape and np.array_equal(ours, theirs.astype(ours.dtype)), (name, layout)
    assert (native.height, native.width, native.num_segments, native.num_blocks, native.num_nodes) == (
        python.height, python.width, python.num_segments, python.num_blocks, python.num_nodes)
    assert native.printed_houses == {n: [list(sq) for sq in squares] for n, squares in python.printed_houses.items()}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_maps_have_the_python_tables(players):
    for seed in range(12):
        _same_board(Board.random(players, np.random.default_rng(seed)).layout_strings())


def test_every_tile_in_every_rotation_has_the_python_tables():
    letters = "ABCDEFGHIJKLMNOPQRST"
    for turns in range(4):  # all 20 tiles at once on a 4 x 5 board, each rotation
        _same_board([[f"{letters[r * 5 + c]}{(turns + r + c) % 4}" for c in range(5)] for r in range(4)])


@pytest.mark.parametrize(("layout", "message"), [
    ([["A0", "A1"]], "board layout uses map tile A twice"),
    ([["Z0"]], "unknown map tile 'Z'; expected a letter A-T"),
    ([["A7"]], "tile rotation must be 0-3 quarter turns, got 7"),
    ([["A0", "B0"], ["C0"]], "board layout must be a non-empty rectangle of tile placements"),
    ([], "board layout must be a non-empty rectangle of tile placements"),
])
def test_a_bad_layout_is_a_value_error_naming_it(layout, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        NativeBoard(layout)
