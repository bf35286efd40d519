"""What covers the map, derived from the state (never stored, so never stale)."""

from __future__ import annotations

import numpy as np

from fcm_env.data import EmployeeType
from fcm_env.engine.board.placement import (
    restaurant_corners,
    restaurant_entrance,
    restaurant_squares,
    static_occupied,
)
from fcm_env.engine.state import GameState, Restaurant


def occupied(state: GameState) -> np.ndarray:
    """H x W mask of squares no new piece may cover: printed map items plus placed pieces.

    Placed pieces are restaurants, placed houses, gardens and the billboard /
    mailbox / radio campaign tiles (airplanes lie off the map).
    """
    grid = static_occupied(state.board).copy()
    squares = [sq for p in state.players for r in p.restaurants
               for sq in restaurant_squares(r.row, r.col, r.orientation)]
    squares.extend(sq for house in state.houses.values() for sq in house.all_squares)
    squares.extend(sq for campaign in state.campaigns for sq in campaign.squares)
    if squares:  # one fancy-indexed write instead of one per square
        rows, cols = zip(*squares)
        grid[rows, cols] = True
    return grid


def house_grid(state: GameState) -> np.ndarray:
    """H x W grid of house numbers over every house and garden square (0 = none).

    This is the ``house_grid`` argument of the ``Board.houses_*`` queries.
    """
    grid = np.zeros((state.board.height, state.board.width), dtype=np.int16)
    for number, house in state.houses.items():
        for sq in house.all_squares:
            grid[sq] = number
    return grid


def entrance_squares(restaurant: Restaurant, drive_in: bool = False) -> tuple[tuple[int, int], ...]:
    """The printed entrance, or all four corners with a drive-in (C11, R32)."""
    if drive_in:
        return tuple(restaurant_corners(restaurant.row, restaurant.col))
    return (restaurant_entrance(restaurant.row, restaurant.col, restaurant.orientation),)


def has_drive_in(state: GameState, player: int) -> bool:
    """C11, R13: a local or regional manager at work gives every restaurant four entrances."""
    work = state.players[player].work
    return bool(work[EmployeeType.LOCAL_MANAGER] or work[EmployeeType.REGIONAL_MANAGER])


def entrances_of(state: GameState, player: int, *, open_only: bool = True) -> tuple[tuple[int, int], ...]:
    """Every entrance square of the player's restaurants, sorted (drive-ins included).

    ``open_only`` leaves out "coming soon" restaurants, which do not serve (rules: Phase 4).
    """
    drive_in = has_drive_in(state, player)
    squares = {
        sq
        for r in state.players[player].restaurants
        if not (open_only and r.coming_soon)
        for sq in entrance_squares(r, drive_in)
    }
    return tuple(sorted(squares))
