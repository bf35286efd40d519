"""Plain-text picture of a board: one character per square, tile borders drawn.

Used by the CLI, logs and tests. Things placed during play (restaurants,
campaigns, placed houses) are drawn from an ``overlay`` of square -> character,
so this module needs nothing from the game state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from fcm_env.data import TILE_SIZE, Good
from fcm_env.engine.board.geometry import Board, Square
from fcm_env.engine.board.tiles import BRIDGE, DRINK, HOUSE, ROAD

DRINK_CHARS = {int(Good.BEER): "b", int(Good.LEMONADE): "l", int(Good.SODA): "s"}

LEGEND = (
    "legend: . empty  # road  X bridge (roads pass, do not meet)  H house (number on its top row)",
    "        b beer  l lemonade  s soda  | and - tile borders",
)


def square_chars(board: Board, house_grid: np.ndarray | None = None) -> list[list[str]]:
    """The printed map as a grid of characters; houses show their number on their top row."""
    grid = board.printed_house if house_grid is None else house_grid
    rows = []
    for r in range(board.height):
        row = []
        for c in range(board.width):
            kind = int(board.kind[r, c])
            if kind == ROAD:
                row.append("#")
            elif kind == BRIDGE:
                row.append("X")
            elif kind == DRINK:
                row.append(DRINK_CHARS[int(board.drink[r, c])])
            elif kind == HOUSE or grid[r, c] > 0:
                row.append("H")
            else:
                row.append(".")
        rows.append(row)
    for number in sorted({int(n) for n in np.unique(grid) if n > 0}):
        cells = np.argwhere(grid == number)
        top = int(cells[:, 0].min())
        cols = sorted(int(c) for r, c in cells if r == top)
        for col, ch in zip(cols, str(number)):
            rows[top][col] = ch
    return rows


def render_ascii(
    board: Board,
    overlay: Mapping[Square, str] | None = None,
    *,
    house_grid: np.ndarray | None = None,
    legend: bool = True,
    extra_legend: Sequence[str] = (),
) -> str:
    """Text picture of ``board``; ``overlay`` characters replace the printed ones."""
    chars = square_chars(board, house_grid)
    for (r, c), ch in (overlay or {}).items():
        if len(ch) != 1:
            raise ValueError(f"overlay character for square {(r, c)} must be one character, got {ch!r}")
        chars[r][c] = ch
    border = "+" + "+".join("-" * TILE_SIZE for _ in range(board.tile_cols)) + "+"
    header = "   " + "".join(
        f"{c:<{TILE_SIZE + 1}}" if c % TILE_SIZE == 0 else "" for c in range(board.width)
    )
    lines = [header.rstrip(), "  " + border]
    for r, row in enumerate(chars):
        cells = "|".join("".join(row[c:c + TILE_SIZE]) for c in range(0, board.width, TILE_SIZE))
        lines.append(f"{r:>2}|{cells}|")
        if r % TILE_SIZE == TILE_SIZE - 1:
            lines.append("  " + border)
    if legend:
        lines.extend(LEGEND)
        lines.extend(extra_legend)
    return "\n".join(lines)
