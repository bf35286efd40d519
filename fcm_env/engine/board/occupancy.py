"""What covers the map, derived from the state (never stored, so never stale)."""

from __future__ import annotations

import numpy as np

from fcm_env.data import EmployeeType
from fcm_env.engine.board.placement import (
    RESTAURANT_ENTRANCE_OFFSETS,
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
    grid = _fixed_cover(state).copy()
    rows: list[int] = []
    cols: list[int] = []
    for p in state.players:
        for r in p.restaurants:  # the 2x2 of ``restaurant_squares``, row by row
            _check_restaurant(r)
            rows += (r.row, r.row, r.row + 1, r.row + 1)
            cols += (r.col, r.col + 1, r.col, r.col + 1)
    for campaign in state.campaigns:
        for r, c in campaign.squares:
            rows.append(r)
            cols.append(c)
    if rows:  # one fancy-indexed write instead of one per square
        grid[rows, cols] = True
    return grid


def _well_formed(r: Restaurant) -> bool:
    """A restaurant as the engine places them: int orientation 0..3, anchor not negative (the fast paths)."""
    return type(r.orientation) is int and 0 <= r.orientation <= 3 and r.row >= 0 and r.col >= 0


def _check_restaurant(r: Restaurant) -> None:
    """What ``restaurant_squares`` rejects (a bad orientation, a negative anchor) raises its ValueError."""
    if not _well_formed(r):
        restaurant_squares(r.row, r.col, r.orientation)


#: the last map + houses covered (``_fixed_cover``): (board, house numbers, squares, gardens) and the mask
_cover_memo: list[tuple[tuple, np.ndarray]] = []


def _fixed_cover(state: GameState) -> np.ndarray:
    """The printed map's items plus every house and garden (read-only; ``occupied`` copies it).

    Houses and gardens are added a few times a game while restaurants and campaigns come and go
    every round, so this part is remembered for the last layout seen. The layout is recognised by
    the board and the houses' own square tuples, compared as they are (clones share those
    tuples, so the check is mostly identity tests): never by a move count, so a hand-edited or
    loaded state cannot get a stale mask.
    """
    key = houses_key(state)
    if _cover_memo and _cover_memo[0][0] == key:
        return _cover_memo[0][1]
    grid = static_occupied(state.board).copy()
    squares = [sq for house in state.houses.values() for sq in house.all_squares]
    if squares:
        rows, cols = zip(*squares)
        grid[rows, cols] = True
    grid.setflags(write=False)
    _cover_memo[:] = [(key, grid)]
    return grid


def houses_key(state: GameState) -> tuple:
    """What fixes where the houses are: the board, the house numbers, their squares and gardens.

    Equal keys mean equal house layouts, so anything derived from the board and the houses' squares
    alone may be remembered under this key. Compare keys with ``==`` (cheap: clones share the square
    tuples, so most comparisons are identity checks); hashing one walks every square.
    """
    houses = state.houses
    values = houses.values()
    return (state.board, tuple(houses), tuple([h.squares for h in values]), tuple([h.garden for h in values]))


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
    p = state.players[player]
    if not p.restaurants:
        return ()
    work = p.work
    drive_in = bool(work[EmployeeType.LOCAL_MANAGER] or work[EmployeeType.REGIONAL_MANAGER])  # has_drive_in
    squares = set()
    for r in p.restaurants:
        if open_only and r.coming_soon:
            continue
        if drive_in or not _well_formed(r):
            squares.update(entrance_squares(r, drive_in))  # (and its ValueError for a malformed restaurant)
        else:  # ``restaurant_entrance`` of a well-formed restaurant
            dr, dc = RESTAURANT_ENTRANCE_OFFSETS[r.orientation]
            squares.add((r.row + dr, r.col + dc))
    return tuple(sorted(squares))
