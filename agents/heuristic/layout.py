"""The heuristic's reading of the map: what the board and the houses' squares decide, per house layout.

Search agents play thousands of all-heuristic rollouts, so what depends only on the board and the
houses' squares (road ranges, a lone entrance's worth, the houses a campaign spot reaches) is
computed once per house layout (``_HouseLayout``, found again by ``_layout``) and remembered there:
``reach`` (road ranges to the houses), ``entrance_scores`` (a restaurant entrance's worth) and
``spot_reach`` (the houses a campaign spot advertises to).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from fcm_env.data import CampaignType, marketing_tile
from fcm_env.engine.board import UNREACHABLE, Board, occupancy, placement
from fcm_env.engine.state import GameState, House


class _HouseLayout:
    """What the heuristic derives from the map and where the houses are, computed once per layout.

    Road ranges to the houses, the range grid of a lone entrance and the houses a campaign spot
    reaches depend only on the board (fixed) and on the houses' and gardens' squares (a new house
    or garden changes them; demand does not). A layout is found again by ``signature``
    (``occupancy.houses_key``: the board itself and every house's number, squares and garden,
    compared as they are), never by a move count, so a cached answer is never used for a map it
    was not computed on, whatever game, clone, seat view, loaded or hand-edited position asks.
    """

    def __init__(self, board: Board, houses: Mapping[int, House], signature: tuple):
        self.board = board
        self.signature = signature
        self.numbers = tuple(houses)
        self._squares = [[r * board.width + c for r, c in h.all_squares] for h in houses.values()]
        #: every house's squares (garden included) as flat map indices, house after house; where each starts
        self.flat = np.array([i for sq in self._squares for i in sq], dtype=np.intp)
        self.starts = np.cumsum([0] + [len(sq) for sq in self._squares[:-1]]).astype(np.intp)
        #: entrance squares (sorted tuple) -> ({house: range}, the houses in range) (``reach``)
        self.distances: dict[tuple, tuple[dict[int, int], tuple[int, ...]]] = {}
        #: campaign reach key -> the houses it reaches (``spot_reach``)
        self.reached: dict[tuple, tuple[int, ...]] = {}
        #: billboard rows x cols -> the bit set of the houses next to it, per anchor [row][col] (``rings``)
        self._rings: dict[tuple[int, int], list[list[int]]] = {}
        self._decoded: dict[int, tuple[int, ...]] = {}
        #: a lone entrance square -> (its range to each house, its "room to grow" term) (``entrance_scores``)
        self.entrance: dict[tuple[int, int], tuple[np.ndarray, float]] = {}
        self._grid: np.ndarray | None = None

    @property
    def grid(self) -> np.ndarray:
        """``occupancy.house_grid`` of this layout (read it, never write it)."""
        if self._grid is None:
            grid = np.zeros(self.board.shape, dtype=np.int16)
            flat = grid.reshape(-1)
            for number, squares in zip(self.numbers, self._squares):
                flat[squares] = number
            grid.setflags(write=False)
            self._grid = grid
        return self._grid

    def rings(self, rows: int, cols: int) -> list[list[int]] | None:
        """For every anchor [row][col] of a rows x cols billboard, the houses orthogonally next to it
        (what ``Board.houses_next_to`` answers for one spot) as a bit set (bit n: house n), all
        anchors at once; None when a house number is too large for 63-bit sets. Exact for every
        anchor where the billboard fits on the map (legal spots): the squares above, below, left
        and right of it, cut at the map's edges, and not the billboard's own squares."""
        shape = (rows, cols)
        if shape not in self._rings:
            if max(self.numbers, default=0) > 62:
                return None
            grid = self.grid.astype(np.int64)
            bits = np.where(grid > 0, np.left_shift(1, grid), 0)
            H, W = bits.shape
            across = np.zeros_like(bits)  # across[r, c]: the houses on row r, columns c .. c+cols-1
            down = np.zeros_like(bits)  # down[r, c]: the houses on column c, rows r .. r+rows-1
            if cols <= W:
                across[:, :W - cols + 1] = np.bitwise_or.reduce(
                    [bits[:, k:k + W - cols + 1] for k in range(cols)], axis=0)
            if rows <= H:
                down[:H - rows + 1] = np.bitwise_or.reduce(
                    [bits[k:k + H - rows + 1] for k in range(rows)], axis=0)
            ring = np.zeros_like(bits)
            ring[1:] |= across[:-1]  # the row above
            ring[:H - rows] |= across[rows:]  # the row below
            ring[:, 1:] |= down[:, :-1]  # the column to the left
            ring[:, :W - cols] |= down[:, cols:]  # the column to the right
            self._rings[shape] = ring.tolist()
        return self._rings[shape]

    def houses_of(self, bits: int) -> tuple[int, ...]:
        """The house numbers of a bit set, ascending (as ``Board.houses_in`` lists them)."""
        found = self._decoded.get(bits)
        if found is None:
            found = self._decoded[bits] = tuple(n for n in range(bits.bit_length()) if bits >> n & 1)
        return found

    def house_ranges(self, grid: np.ndarray) -> np.ndarray:
        """Per house (in ``numbers`` order): the least value of a range grid over its squares."""
        if not self.numbers:
            return np.zeros(0, dtype=grid.dtype)
        return np.minimum.reduceat(grid.reshape(-1)[self.flat], self.starts)


#: the last few layouts seen, shared by every agent (a pure function's memo: see ``_HouseLayout``)
_LAYOUTS: OrderedDict[int, _HouseLayout] = OrderedDict()
_LAYOUTS_KEPT = 8
_MEMO_LIMIT = 4096  # entries per memo of one layout before it is emptied (a long search on one map)
_last: list[_HouseLayout] = []  # the layout found last: most calls ask for it again


def _layout(state: GameState) -> _HouseLayout:
    signature = occupancy.houses_key(state)
    if _last and _last[0].signature == signature:  # compared element by element: mostly identity checks
        return _last[0]
    key = hash(signature)
    layout = _LAYOUTS.get(key)
    if layout is None or layout.signature != signature:
        layout = _HouseLayout(state.board, state.houses, signature)
        _LAYOUTS[key] = layout
        if len(_LAYOUTS) > _LAYOUTS_KEPT:
            _LAYOUTS.popitem(last=False)
    else:
        _LAYOUTS.move_to_end(key)
    _last[:] = [layout]
    return layout


def _remember(memo: dict, key: Any, value: Any) -> Any:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


def reach(state: GameState, player: int) -> tuple[dict[int, int], tuple[int, ...]]:
    """(Road range from the player's open restaurants to every house, ``UNREACHABLE`` if none; the houses
    within reach), remembered per layout and entrance squares: the ranges depend on nothing else (the
    board is fixed; drive-ins and closed restaurants change the entrances). The dict is shared: read it,
    never change it."""
    entrances = occupancy.entrances_of(state, player)
    layout = _layout(state)
    found = layout.distances.get(entrances)
    if found is not None:
        return found
    if not entrances:
        ranges = [UNREACHABLE] * len(layout.numbers)
    else:
        ranges = layout.house_ranges(state.board.ranges_from(entrances)).tolist()
    distances = dict(zip(layout.numbers, ranges))
    near = tuple(n for n, d in distances.items() if d < UNREACHABLE)
    return _remember(layout.distances, entrances, (distances, near))


def entrance_scores(layout: _HouseLayout, entrances: list[tuple[int, int]],
                    other: np.ndarray | None) -> dict[tuple[int, int] | None, float]:
    """A restaurant entrance's worth: the houses it is close to (less where another chain is closer),
    and some room to grow nearby.

    Per house in map order: 1 / (1 + range), times 0.3 where another chain's entrance is closer,
    nothing for a house out of reach; summed house after house, then 0.2 x the share of the map
    within range 2. The sum runs left to right (``np.add.accumulate``) in float64, the same
    additions in the same order as a Python loop, so the scores (and the ties) are the same.
    """
    board = layout.board
    new = [e for e in entrances if e not in layout.entrance]
    if new:
        grids = board.ranges_from_each(new).reshape(len(new), -1)
        ranges = (np.minimum.reduceat(grids[:, layout.flat], layout.starts, axis=1) if layout.numbers
                  else np.zeros((len(new), 0), dtype=grids.dtype))
        room = 0.2 * (grids < 3).sum(axis=1).astype(np.float64) / grids.shape[1]
        for e, r, extra in zip(new, ranges, room.tolist()):
            _remember(layout.entrance, e, (r, extra))
    if not entrances:
        return {}
    known = [layout.entrance[e] for e in entrances]
    ranges = np.array([r for r, _ in known]).reshape(len(entrances), len(layout.numbers))
    room = np.array([extra for _, extra in known], dtype=np.float64)
    value = 1.0 / (1.0 + ranges)
    if other is not None:
        value = np.where(other[None, :] < ranges, value * 0.3, value)
    value = np.where(ranges >= UNREACHABLE, 0.0, value)
    total = np.add.accumulate(value, axis=1)[:, -1] if layout.numbers else np.zeros(len(entrances))
    return dict(zip(entrances, (total + room).tolist()))


def spot_reach(layout: _HouseLayout, number: int):
    """``(row, col, orientation) -> houses`` for a tile: the houses a campaign of that tile placed
    there advertises to (``Board.houses_*`` on the layout's house grid), remembered per layout.

    A billboard reaches the houses next to its rectangle (``_HouseLayout.rings``); a radio the
    houses of its tile's neighbourhood, a mailbox those of its block, an airplane those under
    its lane: spots that share the tile, block or lane share the answer.
    """
    board = layout.board
    tile = marketing_tile(number)
    kind = tile.type
    memo = layout.reached
    grid = layout.grid
    if kind == CampaignType.BILLBOARD:
        shapes = ((tile.h, tile.w), (tile.w, tile.h))
        rings = [layout.rings(*shape) for shape in shapes]
        if rings[0] is not None:
            def reached(row: int, col: int, orientation: int) -> tuple[int, ...]:
                return layout.houses_of(rings[orientation != 0][row][col])
            return reached

        def reached(row: int, col: int, orientation: int) -> tuple[int, ...]:
            rows, cols = shapes[orientation != 0]
            return board.houses_next_to(row, col, rows, cols, grid)
        return reached
    if kind == CampaignType.AIRPLANE:
        size = tile.along_edge

        def find(row: int, col: int, orientation: int) -> tuple[tuple, Any]:
            lane = placement.airplane_from_anchor(row, col, orientation, size, board)
            key = (kind, lane.edge, lane.start, lane.size)
            return key, lambda: board.houses_under_airplane(lane, grid)
    elif kind == CampaignType.RADIO:
        def find(row: int, col: int, orientation: int) -> tuple[tuple, Any]:
            tile_index = board.tile_at(row, col)
            return (kind, tile_index), lambda: board.houses_near_tile(tile_index, grid)
    else:  # a mailbox
        def find(row: int, col: int, orientation: int) -> tuple[tuple, Any]:
            block = board.block_at(row, col)
            return (kind, block), lambda: board.houses_in_block(block, grid)

    def reached(row: int, col: int, orientation: int) -> tuple[int, ...]:
        key, compute = find(row, col, orientation)
        found = memo.get(key)
        return found if found is not None else _remember(memo, key, compute())
    return reached
