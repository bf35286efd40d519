"""The board planes of an observation: the map that never changes, and the pieces on it.

``Observer`` (``observation``) draws the planes through ``BoardPlanes``: the static planes (map, roads, tiles, drink sources) are
cached by board; the houses, restaurants and campaigns are drawn on a blank board
and kept as their nonzero entries (a ``Layer``), each layer cached under a key made
of exactly the state it is drawn from, then scattered into the zeroed planes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from fcm_env.data import DRINKS, CampaignType, Direction, Good, marketing_tile
from fcm_env.engine.board import Board
from fcm_env.engine.board.placement import RESTAURANT_ENTRANCE_OFFSETS, airplane_from_anchor, campaign_squares
from fcm_env.engine.board.tiles import BRIDGE
from fcm_env.engine.state import GameState

from .action_codec import BOARD_COLS, BOARD_ROWS
from .key_cache import KeyCache
from .layout import DURATION_SCALE, HOUSE_NUMBER_SCALE, ObservationLayout

_STATIC_CACHE_SIZE = 8  # boards
_LAYER_CACHE_SIZE = 16  # per layer of pieces: a few positions x up to five observers
NUM_GOODS = len(Good)


class Layer(NamedTuple):
    """The nonzero entries of some board planes: flat indices into the board, and their values."""

    index: np.ndarray
    values: np.ndarray

    @classmethod
    def merge(cls, layers: list[Layer]) -> Layer:
        """Layers of disjoint channels as one."""
        return cls(np.concatenate([layer.index for layer in layers]), np.concatenate([layer.values for layer in layers]))

    @classmethod
    def of(cls, planes: np.ndarray, start: int, stop: int) -> Layer:
        """The nonzero entries of channels ``start:stop`` of the board ``planes``."""
        flat = planes.reshape(-1)
        plane_size = planes.shape[1] * planes.shape[2]
        index = np.flatnonzero(flat[start * plane_size:stop * plane_size] != 0) + start * plane_size
        return cls(index, flat[index])


class BoardPlanes:
    """Draws the board planes ``C x 20 x 25`` of observations, caching what it drew.

    One instance per ``Observer``: it keeps the static planes of the last few boards
    and the last few versions of each layer of pieces.
    """

    def __init__(self, layout: ObservationLayout) -> None:
        self.shape = layout.board_shape
        self._ch = {c.name: c.index for c in layout.channels}
        self.num_static = self._ch["drink_soda"] + 1  # the static planes come first
        self._static = KeyCache(_STATIC_CACHE_SIZE)  # board -> its static planes
        #: houses, restaurants, campaigns: their channels, and the nonzero entries of their planes by what
        #: they are drawn from
        self._layers = {
            name: (self._ch[first], self._ch[last] + 1, KeyCache(_LAYER_CACHE_SIZE))
            for name, first, last in (
                ("houses", "house", "demand_soda"),
                ("restaurants", "restaurant_p0", "coming_soon"),
                ("campaigns", "campaign_billboard", "campaign_eternal"),
            )
        }
        self._merged = KeyCache(_LAYER_CACHE_SIZE)  # the three layers as one, by the layers' identities

    def write(self, state: GameState, board: np.ndarray, rel: list[int]) -> None:
        """Every board plane: the static ones copied, the others zeroed, then the pieces scattered in."""
        num_static = self.num_static
        board[:num_static] = self._static.get(state.board, _static_planes, state.board, self._ch, num_static)
        board[num_static:] = 0.0
        pieces = self.map_pieces(state, rel)
        if pieces.values.size:
            board.reshape(-1)[pieces.index] = pieces.values  # a view: the board is C-contiguous

    def static(self, board: Board) -> np.ndarray:
        """The first ``num_static`` planes of ``board``'s observations (read-only, cached)."""
        return self._static.get(board, _static_planes, board, self._ch, self.num_static)

    def map_pieces(self, state: GameState, rel: list[int]) -> Layer:
        """The houses, restaurants and campaigns as one set of nonzero board entries.

        Each layer of pieces is cached under a key holding everything it is drawn from.
        """
        # keys: everything each layer is drawn from (list comprehensions: cheaper than generators here)
        houses = tuple([(number, h.squares, h.garden, *h.demand) for number, h in state.houses.items()])
        restaurants = tuple([
            (rel[p.player], r.row, r.col, r.orientation, r.coming_soon) for p in state.players for r in p.restaurants
        ])
        campaigns = (state.board, tuple([
            (c.number, c.kind, rel[c.owner], c.product, c.remaining, c.eternal, c.row, c.col, c.orientation, c.squares)
            for c in state.campaigns
        ]))
        layers = []
        for name, key, draw in (
            ("houses", houses, lambda planes: self._write_houses(state, planes)),
            ("restaurants", restaurants, lambda planes: self._write_restaurants(state, planes, rel)),
            ("campaigns", campaigns, lambda planes: self._write_campaigns(state, planes, rel)),
        ):
            start, stop, cache = self._layers[name]
            layers.append(cache.get(key, self._draw_layer, draw, start, stop))
        # keyed by the layers' identities: the entry holds the layers, so no id is reused while it is cached
        return self._merged.get(tuple([id(layer) for layer in layers]), _merge_layers, layers)[1]

    def _draw_layer(self, draw: Callable[[np.ndarray], None], start: int, stop: int) -> Layer:
        """Draw a layer on a blank board and keep the nonzero entries of its channels."""
        planes = np.zeros(self.shape, dtype=np.float32)
        draw(planes)
        return Layer.of(planes, start, stop)

    def _write_houses(self, state: GameState, board: np.ndarray) -> None:
        ch = self._ch
        idx = _HouseIndex(tuple((n, h.squares, h.garden) for n, h in state.houses.items()))
        if not idx.numbers:
            return
        board[ch["house"], idx.rows, idx.cols] = 1.0
        board[ch["house_number"], idx.rows, idx.cols] = idx.number_values
        board[ch["garden"], idx.garden_rows, idx.garden_cols] = 1.0
        counts = np.zeros((len(idx.numbers), NUM_GOODS), dtype=np.float32)
        any_demand = False
        for i, house in enumerate(state.houses.values()):
            for good in house.demand:
                counts[i, good] += 1.0
                any_demand = True
        if any_demand:
            demand0 = ch["demand_burger"]
            board[demand0:demand0 + NUM_GOODS, idx.rows, idx.cols] = counts[idx.house_of_square].T

    def _write_restaurants(self, state: GameState, board: np.ndarray, rel: list[int]) -> None:
        chans, rows, cols = [], [], []
        r0, e0, soon = self._ch["restaurant_p0"], self._ch["entrance_p0"], self._ch["coming_soon"]
        for p in state.players:
            k = rel[p.player]
            for r in p.restaurants:
                dr, dc = RESTAURANT_ENTRANCE_OFFSETS[r.orientation]
                chans += [r0 + k] * 4 + [e0 + k]
                rows += [r.row, r.row, r.row + 1, r.row + 1, r.row + dr]
                cols += [r.col, r.col + 1, r.col, r.col + 1, r.col + dc]
                if r.coming_soon:
                    chans += [soon] * 4
                    rows += [r.row, r.row, r.row + 1, r.row + 1]
                    cols += [r.col, r.col + 1, r.col, r.col + 1]
        if chans:
            board[chans, rows, cols] = 1.0

    def _write_campaigns(self, state: GameState, board: np.ndarray, rel: list[int]) -> None:
        ch = self._ch
        kind0, prod0, own0 = ch["campaign_billboard"], ch["campaign_product_burger"], ch["campaign_owner_p0"]
        remaining, eternal = ch["campaign_remaining"], ch["campaign_eternal"]
        for c in state.campaigns:
            area = campaign_area(state.board, c.kind, c.number, c.row, c.col, c.orientation, c.squares)
            board[kind0 + c.kind][area] += 1.0
            board[prod0 + c.product][area] += 1.0
            board[own0 + rel[c.owner]][area] += 1.0
            board[remaining][area] += c.remaining / DURATION_SCALE
            if c.eternal:
                board[eternal][area] += 1.0


class _HouseIndex:
    """Flat index arrays over the squares of a set of houses (one entry per house square)."""

    def __init__(self, key: tuple[tuple[int, tuple, tuple], ...]):
        self.numbers = tuple(n for n, _, _ in key)
        rows, cols, owner, values, grows, gcols = [], [], [], [], [], []
        for i, (number, squares, garden) in enumerate(key):
            for r, c in squares:
                rows.append(r)
                cols.append(c)
                owner.append(i)
                values.append(number / HOUSE_NUMBER_SCALE)
            for r, c in garden:
                grows.append(r)
                gcols.append(c)
        self.rows = np.array(rows, dtype=np.intp)
        self.cols = np.array(cols, dtype=np.intp)
        self.house_of_square = np.array(owner, dtype=np.intp)
        self.number_values = np.array(values, dtype=np.float32)
        self.garden_rows = np.array(grows, dtype=np.intp)
        self.garden_cols = np.array(gcols, dtype=np.intp)


def campaign_area(board: Board, kind: int, number: int, row: int, col: int, orientation: int,
                  squares: tuple[tuple[int, int], ...] | None) -> tuple[slice, slice] | tuple[list[int], list[int]]:
    """Index into a 20 x 25 plane for a campaign: its squares, or an airplane's rows / columns."""
    tile = marketing_tile(number)
    if kind == CampaignType.AIRPLANE:
        lane = airplane_from_anchor(row, col, orientation, tile.along_edge, board)
        span = slice(lane.start, lane.start + lane.size)
        if lane.edge in (Direction.N, Direction.S):
            return slice(0, board.height), span
        return span, slice(0, board.width)
    if squares is None:
        squares = campaign_squares(row, col, orientation, tile)
    return _rows_cols(squares)


def _rows_cols(squares: tuple[tuple[int, int], ...]) -> tuple[list[int], list[int]]:
    return [r for r, _ in squares], [c for _, c in squares]


def _merge_layers(layers: list[Layer]) -> tuple[list[Layer], Layer]:
    return layers, Layer.merge(layers)


def _static_planes(board: Board, ch: dict[str, int], count: int) -> np.ndarray:
    """The planes that never change during a game: the map, roads, tiles, drink sources."""
    planes = np.zeros((count, BOARD_ROWS, BOARD_COLS), dtype=np.float32)
    H, W = board.shape
    planes[ch["valid"], :H, :W] = 1.0
    planes[ch["road"], :H, :W] = board.road_mask
    planes[ch["bridge"], :H, :W] = board.kind == BRIDGE
    link = {d: ch[f"road_link_{d.name}"] for d in Direction}
    for node, neighbours in enumerate(board.node_neighbors):
        r, c = divmod(int(board.node_square[node]), W)
        for d, _ in neighbours:
            planes[link[d], r, c] = 1.0
    tile_rows = np.arange(H)[:, None] // (H // board.tile_rows)
    tile_cols = np.arange(W)[None, :] // (W // board.tile_cols)
    planes[ch["tile_parity"], :H, :W] = (tile_rows + tile_cols) % 2
    for good in DRINKS:
        planes[ch[f"drink_{good.name.lower()}"], :H, :W] = board.drink == int(good)
    planes.setflags(write=False)
    return planes
