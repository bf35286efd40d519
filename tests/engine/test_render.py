"""Plain-text board pictures: exact text written out by hand from map_tiles.json grids."""

# python-only (every test of this file): the text pictures read a Python board (a native game is drawn from its snapshot())

from __future__ import annotations

import pytest

from fcm_env.engine import Board
from fcm_env.text.map import LEGEND, render_ascii


def test_single_tile_picture_of_f():
    # map_tiles.json F: HHR.. / HHR.. / RRRRR / ..... / .....  with house 10 on (0,0)-(1,1).
    # Roads are drawn '#', the house number replaces the left squares of the house's top row.
    expected = (
        "   0\n"
        "  +-----+\n"
        " 0|10#..|\n"
        " 1|HH#..|\n"
        " 2|#####|\n"
        " 3|.....|\n"
        " 4|.....|\n"
        "  +-----+"
    )
    board = Board.from_tiles("F0")
    assert render_ascii(board, legend=False) == expected
    with_legend = render_ascii(board)
    assert with_legend == expected + "\n" + "\n".join(LEGEND)
    assert render_ascii(board, extra_legend=["x: extra"]).splitlines()[-1] == "x: extra"


def test_single_tile_picture_of_p_with_bridge_and_drinks():
    # map_tiles.json P: ..R.. / l.R.. / RRXRR / ..R.. / ..Rb.  (bridge X, lemonade, beer)
    expected = (
        "   0\n"
        "  +-----+\n"
        " 0|..#..|\n"
        " 1|l.#..|\n"
        " 2|##X##|\n"
        " 3|..#..|\n"
        " 4|..#b.|\n"
        "  +-----+"
    )
    assert render_ascii(Board.from_tiles("P0"), legend=False) == expected


def test_two_by_two_picture_draws_tile_borders():
    # "H3 I1 / A0 B0" (see MAP_2X2 in test_board.py): H turned three times puts house 13 on rows
    # 2-3, cols 3-4; I turned once puts house 15 on rows 3-4, cols 5-6; A has house 2 at
    # (8,0)-(9,1), B house 4 at (5,8)-(6,9). A one-digit number fills only the first square.
    expected = (
        "   0     5\n"
        "  +-----+-----+\n"
        " 0|..#..|..#..|\n"
        " 1|..#..|..#..|\n"
        " 2|###13|..###|\n"
        " 3|..#HH|15#..|\n"
        " 4|..#..|HH#..|\n"
        "  +-----+-----+\n"
        " 5|..#..|..#4H|\n"
        " 6|..#..|..#HH|\n"
        " 7|#####|#####|\n"
        " 8|2H#..|..#..|\n"
        " 9|HH#..|..#..|\n"
        "  +-----+-----+"
    )
    assert render_ascii(Board.from_tiles("H3 I1 / A0 B0"), legend=False) == expected


def test_overlay_character_replaces_the_printed_square():
    board = Board.from_tiles("F0")
    text = render_ascii(board, {(3, 3): "R", (0, 4): "@"}, legend=False)
    lines = text.splitlines()
    assert lines[2] == " 0|10#.@|"
    assert lines[5] == " 3|...R.|"


def test_overlay_must_be_one_character():
    board = Board.from_tiles("F0")
    with pytest.raises(ValueError):
        render_ascii(board, {(0, 0): "AB"})
    with pytest.raises(ValueError):
        render_ascii(board, {(0, 0): ""})


def test_placed_house_from_a_house_grid_is_drawn_with_its_number():
    # P0 with a placed house 19 on (3,0)-(4,1): rows 3-4 become 19#.. and HH#b.
    board = Board.from_tiles("P0")
    grid = board.printed_house.copy()
    grid[3:5, 0:2] = 19
    lines = render_ascii(board, house_grid=grid, legend=False).splitlines()
    assert lines[5] == " 3|19#..|"
    assert lines[6] == " 4|HH#b.|"
