"""Which squares are taken, derived from the state (never stored, so never stale)."""

from __future__ import annotations

import numpy as np

from .placement import restaurant_corners, restaurant_entrance, restaurant_squares, static_occupied
from .state import GameState, Restaurant


def occupied(state: GameState) -> np.ndarray:
    """H x W mask of squares no new piece may cover: printed map items plus placed pieces."""
    grid = static_occupied(state.board).copy()
    for p in state.players:
        for r in p.restaurants:
            for sq in restaurant_squares(r.row, r.col, r.orientation):
                grid[sq] = True
    return grid


def entrance_squares(restaurant: Restaurant, drive_in: bool = False) -> tuple[tuple[int, int], ...]:
    """The printed entrance, or all four corners with a drive-in (C11, R32)."""
    if drive_in:
        return tuple(restaurant_corners(restaurant.row, restaurant.col))
    return (restaurant_entrance(restaurant.row, restaurant.col, restaurant.orientation),)
