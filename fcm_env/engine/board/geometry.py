"""The assembled map and its fixed geometry.

Roads never change after setup (rules: Map setup), so everything the rules ask of
the road network is computed once per board and then read from tables:

* the road graph: one node per road square, two on a bridge square (R49: the two
  roads of a bridge never meet), linked to every orthogonally adjacent road square
  on the same or a neighbouring tile (C31);
* *range*: the number of tile borders crossed along roads (rules: Concepts, Range;
  C9). Road squares of one tile that are linked on that tile form a *segment*
  (they are at range 0 from each other); segments of neighbouring tiles that touch
  are one step apart, so range between segments is a breadth-first search on a
  graph of at most ~40 segments. A square next to a road reaches that road's
  segment at cost 0, or 1 when the road square is on another tile (R30);
* mailbox blocks: areas of non-road squares enclosed by roads and the map edge
  (R45: a bridge cuts like a crossing);
* tile neighbourhoods for radios (R46) and air range for zeppelins (C19).

Coordinates are ``(row, col)`` with row 0 at the north edge. A tile index is
``tile_row * tile_cols + tile_col``. ``UNREACHABLE`` marks "no road connection".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from fcm_env.data import MAP_TILES, TILE_SIZE, Direction, setup_for
from fcm_env.engine.board.tiles import BRIDGE, EMPTY, NO_DRINK, ROAD, TilePlacement, rotated_tile

UNREACHABLE = 9999
"""Range value meaning "not connected by road" (every real range is far smaller)."""

AXIS_NS = 0
AXIS_EW = 1

Square = tuple[int, int]


def axis_of(direction: Direction) -> int:
    """The road axis a step in ``direction`` travels along (matters only on bridges)."""
    return AXIS_NS if direction in (Direction.N, Direction.S) else AXIS_EW


#: the two link directions of the road graph: (direction, its step, its road axis, the way back)
_LINK_STEPS = tuple((d, d.delta, axis_of(d), d.opposite) for d in (Direction.E, Direction.S))


@dataclass(frozen=True)
class AirplaneLane:
    """An airplane against one map edge, flying over ``size`` full rows or columns.

    ``edge`` N or S: the plane flies over columns ``start .. start+size-1``;
    ``edge`` W or E: over rows ``start .. start+size-1`` (rules: Airplane campaign; C15).
    """

    edge: Direction
    start: int
    size: int

    def span(self) -> range:
        return range(self.start, self.start + self.size)



class Board:
    """One assembled map: square layers plus road, range and block tables (read-only)."""

    def __init__(self, layout: Sequence[Sequence[TilePlacement | str | tuple[str, int]]]):
        rows = [[TilePlacement.parse(t) for t in row] for row in layout]
        if not rows or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
            raise ValueError("board layout must be a non-empty rectangle of tile placements")
        used = [t.tile for row in rows for t in row]
        if len(set(used)) != len(used):
            raise ValueError(f"board layout uses a map tile twice: {used}")
        self.layout: tuple[tuple[TilePlacement, ...], ...] = tuple(tuple(r) for r in rows)
        self.tile_rows = len(rows)
        self.tile_cols = len(rows[0])
        self.num_tiles = self.tile_rows * self.tile_cols
        self.height = self.tile_rows * TILE_SIZE
        self.width = self.tile_cols * TILE_SIZE
        self._build_layers()
        self._build_road_graph()
        self._build_segments()
        self._build_range_tables()
        self._build_blocks()
        #: ``distance`` answers by (footprint, footprint): a pure function of this fixed board
        self._distances: dict[tuple, int] = {}
        for arr in (
            self.kind, self.drink, self.printed_house, self.tile, self.node_of, self.node_square,
            self.node_segment, self.segment_tile, self.segment_distance, self.access,
            self.square_segment_distance, self.block, self.road_mask, self.has_road_access,
            self.near_segment, self.near_cost,
        ):
            arr.setflags(write=False)

    def __reduce__(self) -> tuple[type[Board], tuple[tuple[tuple[TilePlacement, ...], ...]]]:
        """Pickle as the layout: every table is rebuilt from it (the read-only views do not pickle)."""
        return (Board, (self.layout,))

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        """A board never changes after construction, so a deep copy of a game shares it."""
        return self

    # ------------------------------------------------------------------ construction

    @classmethod
    def random(cls, num_players: int, rng: np.random.Generator) -> Board:
        """Draw the setup-table number of tiles at random, each at a random rotation.

        rules: Map setup; R06. Uses exactly two draws from ``rng`` (tiles, rotations).
        """
        setup = setup_for(num_players)
        n = setup.tile_rows * setup.tile_cols
        picks = rng.choice(len(MAP_TILES), size=n, replace=False)
        turns = rng.integers(0, 4, size=n)
        flat = [TilePlacement(MAP_TILES[int(p)].id, int(t)) for p, t in zip(picks, turns)]
        return cls([flat[r * setup.tile_cols:(r + 1) * setup.tile_cols] for r in range(setup.tile_rows)])

    @classmethod
    def from_tiles(cls, layout: Sequence[Sequence[TilePlacement | str | tuple[str, int]]] | str) -> Board:
        """A given layout: rows of ``"G2"``-style strings (letter + clockwise quarter turns).

        A single string is split into rows on ``/`` and into tiles on spaces,
        e.g. ``"A0 B1 / C2 D3"``.
        """
        if isinstance(layout, str):
            layout = [row.split() for row in layout.split("/")]
        return cls(layout)

    def layout_strings(self) -> list[list[str]]:
        """The layout in the form ``from_tiles`` accepts (for saving a game)."""
        return [[str(t) for t in row] for row in self.layout]

    def _build_layers(self) -> None:
        H, W = self.height, self.width
        self.kind = np.zeros((H, W), dtype=np.int8)
        self.drink = np.full((H, W), NO_DRINK, dtype=np.int8)
        self.printed_house = np.zeros((H, W), dtype=np.int16)
        self.tile = np.zeros((H, W), dtype=np.int16)
        houses: dict[int, tuple[Square, ...]] = {}
        for tr, row in enumerate(self.layout):
            for tc, placement in enumerate(row):
                rt = rotated_tile(placement.tile, placement.rotation)
                r0, c0 = tr * TILE_SIZE, tc * TILE_SIZE
                window = (slice(r0, r0 + TILE_SIZE), slice(c0, c0 + TILE_SIZE))
                self.kind[window] = rt.kind
                self.drink[window] = rt.drink
                self.printed_house[window] = rt.house
                self.tile[window] = tr * self.tile_cols + tc
                for number, cells in rt.houses:
                    houses[number] = tuple((r0 + r, c0 + c) for r, c in cells)
        self.printed_houses: Mapping[int, tuple[Square, ...]] = MappingProxyType(houses)
        self.road_mask = (self.kind == ROAD) | (self.kind == BRIDGE)
        padded = np.pad(self.road_mask, 1)
        near_road = padded[:-2, 1:-1] | padded[2:, 1:-1] | padded[1:-1, :-2] | padded[1:-1, 2:]
        self.has_road_access = near_road & ~self.road_mask
        self.drink_sources: tuple[tuple[Square, int], ...] = tuple(
            ((int(r), int(c)), int(self.drink[r, c])) for r, c in np.argwhere(self.drink != NO_DRINK)
        )

    def _build_road_graph(self) -> None:
        """Nodes and links of the road graph (built on Python lists: one pass per board, every game)."""
        H, W = self.height, self.width
        road = self.road_mask.tolist()
        kind = self.kind.tolist()
        road_squares = [(r, c) for r in range(H) for c in range(W) if road[r][c]]  # argwhere order
        nodes: dict[Square, tuple[int, int]] = {}  # (NS node, EW node) of each road square
        squares: list[int] = []
        for r, c in road_squares:
            first = len(squares)
            squares.append(r * W + c)
            if kind[r][c] == BRIDGE:  # R49: the over- and under-pass are separate roads
                squares.append(r * W + c)
            nodes[r, c] = (first, len(squares) - 1)
        node_of = np.full((H, W, 2), -1, dtype=np.int32)
        if nodes:
            rows, cols = zip(*nodes)
            node_of[list(rows), list(cols)] = list(nodes.values())
        self.node_of = node_of
        self.node_square = np.array(squares, dtype=np.int32)
        self.num_nodes = len(squares)
        nbrs: list[list[tuple[Direction, int]]] = [[] for _ in squares]
        links: list[tuple[int, int]] = []
        for r, c in road_squares:
            for d, (dr, dc), axis, back in _LINK_STEPS:
                rr, cc = r + dr, c + dc
                if rr < H and cc < W and road[rr][cc]:  # C31: adjacency links, across tiles too
                    a = nodes[r, c][axis]
                    b = nodes[rr, cc][axis]
                    nbrs[a].append((d, b))
                    nbrs[b].append((back, a))
                    links.append((a, b))
        self.node_neighbors: tuple[tuple[tuple[Direction, int], ...], ...] = tuple(
            tuple(sorted(n)) for n in nbrs
        )
        self._links = links

    def _build_segments(self) -> None:
        parent = list(range(self.num_nodes))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        node_tile = self.tile.reshape(-1)[self.node_square]
        tile_of = node_tile.tolist()
        for a, b in self._links:
            if tile_of[a] == tile_of[b]:
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
        seg_id: dict[int, int] = {}
        segment_of = [seg_id.setdefault(find(n), len(seg_id)) for n in range(self.num_nodes)]
        node_segment = np.array(segment_of, dtype=np.int32)
        self.node_segment = node_segment
        self.num_segments = len(seg_id)
        self.segment_tile = np.zeros(self.num_segments, dtype=np.int16)
        self.segment_tile[node_segment] = node_tile
        adj: list[set[int]] = [set() for _ in range(self.num_segments)]
        for a, b in self._links:
            sa, sb = segment_of[a], segment_of[b]
            if sa != sb:
                adj[sa].add(sb)
                adj[sb].add(sa)
        self.segment_neighbors: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(s)) for s in adj)
        dist = [[UNREACHABLE] * self.num_segments for _ in range(self.num_segments)]
        for src in range(self.num_segments):
            row = dist[src]
            row[src] = 0
            queue = deque([src])
            while queue:
                s = queue.popleft()
                for t in adj[s]:
                    if row[t] == UNREACHABLE:
                        row[t] = row[s] + 1
                        queue.append(t)
        self.segment_distance = np.array(dist, dtype=np.int32).reshape(self.num_segments, self.num_segments)
        del self._links

    def _build_range_tables(self) -> None:
        H, W, S = self.height, self.width, self.num_segments
        access = np.full((H * W, S), UNREACHABLE, dtype=np.int32)
        access[self.node_square, self.node_segment] = 0
        rows, cols = np.nonzero(self.has_road_access)
        for d in Direction:
            dr, dc = d.delta
            rr, cc = rows + dr, cols + dc
            inside = (rr >= 0) & (rr < H) & (cc >= 0) & (cc < W)
            r0, c0, rr, cc = rows[inside], cols[inside], rr[inside], cc[inside]
            is_road = self.road_mask[rr, cc]
            r0, c0, rr, cc = r0[is_road], c0[is_road], rr[is_road], cc[is_road]
            seg = self.node_segment[self.node_of[rr, cc, axis_of(d)]]
            cost = (self.tile[r0, c0] != self.tile[rr, cc]).astype(np.int32)  # R30: onto another tile
            np.minimum.at(access, (r0 * W + c0, seg), cost)
        self.access = access
        # each square touches at most a few segments: relax only those (square, segment, cost) entries
        sq_idx, seg_idx = np.nonzero(access < UNREACHABLE)
        self._build_near_segments(sq_idx, seg_idx)
        via = access[sq_idx, seg_idx][:, None] + self.segment_distance[seg_idx]
        ssd = np.full((H * W, S), UNREACHABLE, dtype=np.int32)
        np.minimum.at(ssd, sq_idx, np.minimum(via, UNREACHABLE))
        self.square_segment_distance = ssd

    def _build_near_segments(self, sq_idx: np.ndarray, seg_idx: np.ndarray) -> None:
        """``access`` without its UNREACHABLE entries: the k-th (segment, cost) pair of every square in
        row k, padded with cost UNREACHABLE (``ranges_from`` reduces these few rows, not every segment)."""
        counts = np.bincount(sq_idx, minlength=self.height * self.width)
        depth = max(1, int(counts.max(initial=0)))
        rank = np.arange(sq_idx.size) - (np.cumsum(counts) - counts)[sq_idx]  # position within its square
        self.near_segment = np.zeros((depth, counts.size), dtype=np.intp)
        self.near_cost = np.full((depth, counts.size), UNREACHABLE, dtype=np.int32)
        self.near_segment[rank, sq_idx] = seg_idx
        self.near_cost[rank, sq_idx] = self.access[sq_idx, seg_idx]

    def _build_blocks(self) -> None:
        H, W = self.height, self.width
        road = self.road_mask.tolist()
        block = [[-1] * W for _ in range(H)]
        count = 0
        for r0 in range(H):
            for c0 in range(W):
                if road[r0][c0] or block[r0][c0] >= 0:
                    continue
                block[r0][c0] = count
                queue = deque([(r0, c0)])
                while queue:  # rules: Mailbox campaign; R45 (4-connected, roads and bridges cut)
                    r, c = queue.popleft()
                    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                        rr, cc = r + dr, c + dc
                        if 0 <= rr < H and 0 <= cc < W and block[rr][cc] < 0 and not road[rr][cc]:
                            block[rr][cc] = count
                            queue.append((rr, cc))
                count += 1
        self.block = np.array(block, dtype=np.int16).reshape(H, W)
        self.num_blocks = count

    # ------------------------------------------------------------------ squares and tiles

    @property
    def shape(self) -> tuple[int, int]:
        return self.height, self.width

    def in_bounds(self, row: int, col: int) -> bool:
        return 0 <= row < self.height and 0 <= col < self.width

    def tile_at(self, row: int, col: int) -> int:
        return int(self.tile[row, col])

    def tile_position(self, tile: int) -> tuple[int, int]:
        """(tile_row, tile_col) of a tile index."""
        return divmod(tile, self.tile_cols)

    def tile_window(self, tile: int) -> tuple[slice, slice]:
        tr, tc = self.tile_position(tile)
        return slice(tr * TILE_SIZE, (tr + 1) * TILE_SIZE), slice(tc * TILE_SIZE, (tc + 1) * TILE_SIZE)

    def is_empty_printed(self, row: int, col: int) -> bool:
        """True for a square the map prints nothing on (no road, house or drink)."""
        return int(self.kind[row, col]) == EMPTY

    # ------------------------------------------------------------------ roads and range

    def roads_touching(self, squares: Iterable[Square]) -> tuple[Square, ...]:
        """Road squares orthogonally adjacent to any of ``squares`` (C10: only roads connect)."""
        found = set()
        for r, c in squares:
            for d in Direction:
                dr, dc = d.delta
                rr, cc = r + dr, c + dc
                if self.in_bounds(rr, cc) and self.road_mask[rr, cc]:
                    found.add((rr, cc))
        return tuple(sorted(found))

    def _flat(self, squares: Iterable[Square]) -> np.ndarray:
        idx = [r * self.width + c for r, c in squares]
        return np.asarray(idx, dtype=np.intp)

    def segment_ranges_from(self, squares: Iterable[Square]) -> np.ndarray:
        """Range from the nearest of ``squares`` to every road segment (shape: segments)."""
        idx = self._flat(squares)
        if idx.size == 0:
            return np.full(self.num_segments, UNREACHABLE, dtype=np.int32)
        return self.square_segment_distance[idx].min(axis=0)

    def distance(self, a: Iterable[Square], b: Iterable[Square]) -> int:
        """Range by road between the nearest squares of two sets, or ``UNREACHABLE``.

        Each set is a footprint (a house with its garden, a restaurant's entrance
        squares); it connects to the roads orthogonally adjacent to its squares.
        """
        if type(a) is tuple and type(b) is tuple:  # the state's footprints: remembered (the board is fixed)
            key = (a, b)
            try:
                found = self._distances.get(key)
            except TypeError:  # squares that are not tuples (unhashable): nothing to remember them by
                return self._distance(a, b)
            if found is None:
                if len(self._distances) >= 4096:  # a long search on one map: start again
                    self._distances.clear()
                found = self._distances[key] = self._distance(a, b)
            return found
        return self._distance(a, b)

    def _distance(self, a: Iterable[Square], b: Iterable[Square]) -> int:
        src = self.segment_ranges_from(a)
        idx = self._flat(b)
        if idx.size == 0 or self.num_segments == 0:
            return UNREACHABLE
        best = int((self.access[idx] + src[None, :]).min())
        return min(best, UNREACHABLE)

    def ranges_from(self, squares: Iterable[Square]) -> np.ndarray:
        """Range by road from the nearest of ``squares`` to every square (H x W).

        A road square gets the range to reach it; another square gets the range to
        the best road square next to it (+1 if that road lies on another tile); a
        square with no road next to it is ``UNREACHABLE``.
        """
        src = self.segment_ranges_from(squares)
        if self.num_segments == 0:
            return np.full(self.shape, UNREACHABLE, dtype=np.int32)
        # min over each square's finite ``access`` entries: the UNREACHABLE ones clamp to UNREACHABLE anyway
        out = (self.near_cost + src[self.near_segment]).min(axis=0)
        return np.minimum(out, UNREACHABLE).reshape(self.shape)

    def ranges_from_each(self, squares: Sequence[Square]) -> np.ndarray:
        """``ranges_from([square])`` for each square at once: shape ``(len(squares), H, W)``.

        One batch of array operations instead of one call per square (a player scoring every
        entrance a new restaurant could have asks for a hundred or more). Worked square-major
        (rows of the transposed table are gathered whole), then transposed back.
        """
        idx = self._flat(squares)
        if self.num_segments == 0 or idx.size == 0:
            return np.full((idx.size, *self.shape), UNREACHABLE, dtype=np.int32)
        src = np.ascontiguousarray(self.square_segment_distance[idx].T)  # segments x squares asked
        out = None
        for near, cost in zip(self.near_segment, self.near_cost):  # the k-th road segment next to each square
            part = src[near]  # map squares x squares asked
            part += cost[:, None]
            out = part if out is None else np.minimum(out, part, out=out)
        np.minimum(out, UNREACHABLE, out=out)
        return out.T.reshape(idx.size, *self.shape)

    def squares_within(self, squares: Iterable[Square], max_range: int) -> np.ndarray:
        """Boolean H x W mask of the squares reachable within ``max_range`` by road."""
        return self.ranges_from(squares) <= max_range

    def tile_ranges_from(self, squares: Iterable[Square]) -> np.ndarray:
        """Range by road from ``squares`` to the nearest road square of each tile.

        Shape ``(tile_rows, tile_cols)``; ``UNREACHABLE`` where no road of the tile is reachable.
        """
        src = self.segment_ranges_from(squares)
        best = np.full(self.num_tiles, UNREACHABLE, dtype=np.int32)
        np.minimum.at(best, self.segment_tile.astype(np.intp), src)
        return best.reshape(self.tile_rows, self.tile_cols)

    # ------------------------------------------------------------------ air range

    def air_distance(self, tile_a: int, tile_b: int) -> int:
        """Orthogonal tile steps between two tiles (zeppelins move tile to tile, C19/R27)."""
        ar, ac = self.tile_position(tile_a)
        br, bc = self.tile_position(tile_b)
        return abs(ar - br) + abs(ac - bc)

    def tiles_within_air(self, tile: int, steps: int) -> tuple[int, ...]:
        return tuple(t for t in range(self.num_tiles) if self.air_distance(tile, t) <= steps)

    def tile_neighbors(self, tile: int) -> tuple[int, ...]:
        """Orthogonally adjacent tiles (the moves of a zeppelin)."""
        tr, tc = self.tile_position(tile)
        out = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            r, c = tr + dr, tc + dc
            if 0 <= r < self.tile_rows and 0 <= c < self.tile_cols:
                out.append(r * self.tile_cols + c)
        return tuple(out)

    def radio_tiles(self, tile: int) -> tuple[int, ...]:
        """The radio's tile and the up to 8 tiles around it (rules: Radio campaign; R46)."""
        tr, tc = self.tile_position(tile)
        return tuple(
            r * self.tile_cols + c
            for r in range(max(tr - 1, 0), min(tr + 2, self.tile_rows))
            for c in range(max(tc - 1, 0), min(tc + 2, self.tile_cols))
        )

    # ------------------------------------------------------------------ reach masks

    def radio_mask(self, tile: int) -> np.ndarray:
        tr, tc = self.tile_position(tile)
        mask = np.zeros(self.shape, dtype=bool)
        mask[
            max(tr - 1, 0) * TILE_SIZE:min(tr + 2, self.tile_rows) * TILE_SIZE,
            max(tc - 1, 0) * TILE_SIZE:min(tc + 2, self.tile_cols) * TILE_SIZE,
        ] = True
        return mask

    def airplane_mask(self, lane: AirplaneLane) -> np.ndarray:
        mask = np.zeros(self.shape, dtype=bool)
        if lane.edge in (Direction.N, Direction.S):
            mask[:, lane.start:lane.start + lane.size] = True
        else:
            mask[lane.start:lane.start + lane.size, :] = True
        return mask

    def block_mask(self, block_id: int) -> np.ndarray:
        return self.block == block_id

    def block_at(self, row: int, col: int) -> int:
        """Mailbox block of a square; -1 on a road square."""
        return int(self.block[row, col])

    def adjacency_mask(self, row: int, col: int, rows: int, cols: int) -> np.ndarray:
        """Squares orthogonally adjacent to a rectangle (a billboard's reach, no diagonals)."""
        mask = np.zeros(self.shape, dtype=bool)
        r0, r1, c0, c1 = row, row + rows, col, col + cols
        mask[max(r0 - 1, 0):r1 + 1, c0:c1] = True
        mask[r0:r1, max(c0 - 1, 0):c1 + 1] = True
        mask[r0:r1, c0:c1] = False
        return mask

    # ------------------------------------------------------------------ houses

    def houses_in(self, mask: np.ndarray, house_grid: np.ndarray | None = None) -> tuple[int, ...]:
        """House numbers with any square (house or garden) inside ``mask``, ascending.

        ``house_grid`` is the H x W grid of house numbers including placed houses and
        gardens (0 = no house); it defaults to the printed houses.
        """
        grid = self.printed_house if house_grid is None else house_grid
        values = grid[mask]
        return tuple(sorted(set(values[values > 0].tolist())))  # (np.unique costs more on a few squares)

    def houses_in_block(self, block_id: int, house_grid: np.ndarray | None = None) -> tuple[int, ...]:
        return self.houses_in(self.block == block_id, house_grid)

    def houses_near_tile(self, tile: int, house_grid: np.ndarray | None = None) -> tuple[int, ...]:
        return self.houses_in(self.radio_mask(tile), house_grid)

    def houses_under_airplane(self, lane: AirplaneLane, house_grid: np.ndarray | None = None) -> tuple[int, ...]:
        return self.houses_in(self.airplane_mask(lane), house_grid)

    def houses_next_to(
        self, row: int, col: int, rows: int, cols: int, house_grid: np.ndarray | None = None
    ) -> tuple[int, ...]:
        return self.houses_in(self.adjacency_mask(row, col, rows, cols), house_grid)

    def house_squares(self, number: int, house_grid: np.ndarray | None = None) -> tuple[Square, ...]:
        grid = self.printed_house if house_grid is None else house_grid
        return tuple((int(r), int(c)) for r, c in np.argwhere(grid == number))

    def __repr__(self) -> str:
        layout = " / ".join(" ".join(row) for row in self.layout_strings())
        return f"Board({self.tile_rows}x{self.tile_cols} tiles: {layout})"
