"""The text map: a board as a grid of cells, one or three characters per square, with row and
column numbers and tile borders drawn.

Why one module for both widths: the one-character picture (``fcm map``, ``fcm replay``, the env's
``ansi`` render mode through ``text.state``) and the terminal game's three-character map and
placement previews (``fcm play``) are one drawing at two widths. Things placed during play
(restaurants, campaigns, gardens, a placement's footprint) come in an ``overlay`` of square -> cell
text, so this module needs nothing from the game state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from fcm_env.data import TILE_SIZE, Good
from fcm_env.engine.board.geometry import Board, Square
from fcm_env.engine.board.tiles import BRIDGE, DRINK, HOUSE, ROAD

WIDTHS = (1, 3)  # characters per square
DRINK_CHARS = {int(Good.BEER): "b", int(Good.LEMONADE): "l", int(Good.SODA): "s"}
_CELLS = {1: {ROAD: "#", BRIDGE: "X"}, 3: {ROAD: "###", BRIDGE: "=X="}}
_ROW_LABEL = {1: "{:>2}", 3: "{:>3} "}  # the row number left of the map

LEGEND = (
    "legend: . empty  # road  X bridge (roads pass, do not meet)  H house (number on its top row)",
    "        b beer  l lemonade  s soda  | and - tile borders",
)
#: the three-character map's legend, its play pieces included (``text.state.piece_marks``)
LEGEND_WIDE = (
    "legend: ### road  =X= bridge  b/l/s beer/lemonade/soda  H12 house 12  g garden",
    "        [1] restaurant of player 1, <1> its entrance ((1) coming soon)  $11 M 7 R 2 campaigns",
)
LEGENDS = {1: LEGEND, 3: LEGEND_WIDE}


def square_cells(board: Board, house_grid: np.ndarray | None = None, width: int = 1) -> list[list[str]]:
    """The printed map as a grid of cells ``width`` characters wide. One character: ``H`` for a house
    square, the house's number written over its top row; three: ``H12`` on every square of house 12."""
    if width not in WIDTHS:
        raise ValueError(f"a square is {' or '.join(map(str, WIDTHS))} characters wide, got {width}")
    grid = board.printed_house if house_grid is None else house_grid
    named = _CELLS[width]
    rows = []
    for r in range(board.height):
        row = []
        for c in range(board.width):
            kind = int(board.kind[r, c])
            if kind in named:
                row.append(named[kind])
            elif kind == DRINK:
                row.append(f"{DRINK_CHARS[int(board.drink[r, c])]:^{width}}")
            elif kind == HOUSE or grid[r, c] > 0:
                row.append("H" if width == 1 else f"H{int(grid[r, c]):<2}")
            else:
                row.append(f"{'.':^{width}}")
        rows.append(row)
    if width == 1:
        for number in sorted({int(n) for n in np.unique(grid) if n > 0}):
            cells = np.argwhere(grid == number)
            top = int(cells[:, 0].min())
            cols = sorted(int(c) for r, c in cells if r == top)
            for col, ch in zip(cols, str(number)):
                rows[top][col] = ch
    return rows


def grid_lines(cells: Sequence[Sequence[str]], width: int, rows: range, cols: range) -> list[str]:
    """Rows ``rows`` x columns ``cols`` of a cell grid with row and column numbers and tile borders
    (``|`` and ``+---+``); a tile border closes the last row shown too."""
    label = _ROW_LABEL[width]
    pad = " " * len(label.format(0))

    def starts_tile(c: int) -> bool:
        return c % TILE_SIZE == 0

    # column numbers: over every column when it is wide enough, else over the first column of each tile
    runs: list[list[int]] = []
    for c in cols:
        if not runs or width > 1 or starts_tile(c):
            runs.append([c])
        else:
            runs[-1].append(c)
    header = pad + "".join((" " if starts_tile(run[0]) else "")
                           + (f"{run[0]:^{width}}" if width > 1 else f"{run[0]:<{len(run)}}") for run in runs)
    border = pad + "".join(("+" if starts_tile(c) else "") + "-" * width for c in cols) + "+"
    lines = [header.rstrip(), border]
    for r in rows:
        lines.append(label.format(r) + "".join(("|" if starts_tile(c) else "") + cells[r][c] for c in cols) + "|")
        if r % TILE_SIZE == TILE_SIZE - 1 or r == rows[-1]:
            lines.append(border)
    return lines


def render_ascii(
    board: Board,
    overlay: Mapping[Square, str] | None = None,
    *,
    house_grid: np.ndarray | None = None,
    legend: bool = True,
    extra_legend: Sequence[str] = (),
    width: int = 1,
    rows: range | None = None,
    cols: range | None = None,
) -> str:
    """Text picture of ``board``, ``width`` characters per square; ``overlay`` cells (each ``width``
    characters) replace the printed ones. ``rows`` / ``cols`` show a part of the map only."""
    cells = square_cells(board, house_grid, width)
    for (r, c), text in (overlay or {}).items():
        if len(text) != width:
            raise ValueError(f"overlay cell for square {(r, c)} must be {width} character(s) wide, got {text!r}")
        cells[r][c] = text
    lines = grid_lines(cells, width, rows or range(board.height), cols or range(board.width))
    if legend:
        lines.extend(LEGENDS[width])
        lines.extend(extra_legend)
    return "\n".join(lines)
