"""Map tiles in any of their four rotations, as small numpy layers.

A board is assembled by pasting rotated tiles, so the 20 x 4 rotated versions are
computed once at import and shared by every board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from fcm_env.data import MAP_TILES, TILE_BY_ID, TILE_SIZE, Direction, Good, MapTileSpec

# square kinds (the ``kind`` layer of a board)
EMPTY = 0
ROAD = 1
BRIDGE = 2
HOUSE = 3
DRINK = 4

KIND_OF_CHAR = {".": EMPTY, "R": ROAD, "X": BRIDGE, "H": HOUSE, "b": DRINK, "l": DRINK, "s": DRINK}
NO_DRINK = -1


def rotate_cell(row: int, col: int, quarter_turns: int) -> tuple[int, int]:
    """Where a tile square lands after turning the tile clockwise (map_tiles.json convention)."""
    for _ in range(quarter_turns % 4):
        row, col = col, TILE_SIZE - 1 - row
    return row, col


@dataclass(frozen=True)
class TilePlacement:
    """A tile letter and its rotation in clockwise quarter turns (0-3)."""

    tile: str
    rotation: int = 0

    def __post_init__(self) -> None:
        if self.tile not in TILE_BY_ID:
            raise ValueError(f"unknown map tile {self.tile!r}; expected a letter A-T")
        if self.rotation not in (0, 1, 2, 3):
            raise ValueError(f"tile rotation must be 0-3 quarter turns, got {self.rotation!r}")

    @classmethod
    def parse(cls, value: TilePlacement | str | tuple[str, int]) -> TilePlacement:
        """Accept ``TilePlacement``, ``"G"``, ``"G2"`` or ``("G", 2)``."""
        if isinstance(value, TilePlacement):
            return value
        if isinstance(value, str):
            text = value.strip().upper()
            if not text or not (len(text) == 1 or (len(text) == 2 and text[1].isdigit())):
                raise ValueError(f"tile placement {value!r}: expected a letter A-T and an optional rotation 0-3")
            return cls(text[0], int(text[1:] or 0))
        if isinstance(value, tuple) and len(value) == 2:
            return cls(str(value[0]).upper(), int(value[1]))
        raise ValueError(f"tile placement {value!r}: expected 'G', 'G2' or ('G', 2)")

    def __str__(self) -> str:
        return f"{self.tile}{self.rotation}"


@dataclass(frozen=True)
class RotatedTile:
    """Layers of one tile in one rotation (all 5x5, read-only)."""

    spec: MapTileSpec
    rotation: int
    chars: tuple[str, ...]
    kind: np.ndarray  # int8
    drink: np.ndarray  # int8, NO_DRINK where none
    house: np.ndarray  # int16, 0 where none
    houses: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # (number, cells)


def _rotate_grid(grid: tuple[str, ...], quarter_turns: int) -> tuple[str, ...]:
    rows = [list(r) for r in grid]
    for _ in range(quarter_turns % 4):
        # rules: map_tiles.json coordinate_system: new[r][c] = old[4-c][r]
        rows = [[rows[TILE_SIZE - 1 - c][r] for c in range(TILE_SIZE)] for r in range(TILE_SIZE)]
    return tuple("".join(r) for r in rows)


@cache
def rotated_tile(tile: str, rotation: int) -> RotatedTile:
    spec = TILE_BY_ID[tile]
    chars = _rotate_grid(spec.grid, rotation)
    kind = np.array([[KIND_OF_CHAR[ch] for ch in row] for row in chars], dtype=np.int8)
    drink = np.full((TILE_SIZE, TILE_SIZE), NO_DRINK, dtype=np.int8)
    for good, (r, c) in spec.drinks:
        rr, cc = rotate_cell(r, c, rotation)
        drink[rr, cc] = int(good)
    house = np.zeros((TILE_SIZE, TILE_SIZE), dtype=np.int16)
    houses = []
    for h in spec.houses:
        cells = tuple(sorted(rotate_cell(r, c, rotation) for r, c in h.cells))
        for rr, cc in cells:
            house[rr, cc] = h.number
        houses.append((h.number, cells))
    for arr in (kind, drink, house):
        arr.setflags(write=False)
    return RotatedTile(spec, rotation, chars, kind, drink, house, tuple(houses))


def all_tile_ids() -> tuple[str, ...]:
    return tuple(t.id for t in MAP_TILES)


__all__ = [
    "BRIDGE",
    "DRINK",
    "EMPTY",
    "HOUSE",
    "NO_DRINK",
    "ROAD",
    "Direction",
    "Good",
    "RotatedTile",
    "TilePlacement",
    "all_tile_ids",
    "rotate_cell",
    "rotated_tile",
]
