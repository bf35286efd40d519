"""Where a piece may go on the map: restaurants, houses, gardens and campaign tiles.

Pure functions of a :class:`~fcm_env.engine.board.Board` plus what is already
placed; they never change anything. Every test of a window of squares is done for
the whole map at once (2-D integral images and shifted boolean arrays), so listing
every legal placement of one piece on the largest map costs microseconds.

Conventions (the flat action codec's ``row x col x orientation`` board-placement
segment is built on them, so they are part of the public contract):

``occupied``
    ``H x W`` bool array, True for every square a new piece may not cover. The
    caller builds it: start from :func:`static_occupied` (printed roads, bridges,
    houses, drinks) and set restaurants, gardens, placed houses and billboard /
    mailbox / radio campaigns.

``legal[H, W, O]``
    Results are bool arrays indexed by the *anchor* = the top-left square of the
    piece's footprint, and an orientation index ``O``:

    ============  =====  ===============================================  ===========
    piece         O      orientation index                                 footprint
    ============  =====  ===============================================  ===========
    restaurant    4      corner holding the printed entrance:              2 x 2
                         0 NW (the anchor), 1 NE, 2 SE, 3 SW
    house         4      side of the house the garden lies on              N/S: 3 x 2
                         (``Direction``: 0 N, 1 E, 2 S, 3 W)               E/W: 2 x 3
    garden        4      side of the printed house the garden lies on;     N/S: 1 x 2
                         the anchor is the garden's own top-left square    E/W: 2 x 1
    campaign      2      0: ``tile.h`` rows x ``tile.w`` cols;             h x w or
                         1: rotated (rotatable tiles with h != w only)     w x h
    ============  =====  ===============================================  ===========

    Footprints are given as rows x cols. ``list_placements`` turns such an array
    into the sorted list of ``(row, col, orientation)``.

airplanes
    Airplanes lie outside the map, so :func:`airplane_placements` answers
    ``bool[4, max(H, W)]`` indexed by ``(edge, start)`` (edge = ``Direction``).
    :func:`airplane_anchor` / :func:`airplane_from_anchor` map a lane into the
    shared anchor grid: N edge -> ``(0, start, 0)``, E -> ``(start, W-1, 1)``,
    S -> ``(H-1, start, 2)``, W -> ``(start, 0, 3)``.

Bad inputs (an orientation out of range, an anchor outside the map, an array of
the wrong shape or dtype) raise ``ValueError`` naming what was wrong. The square
helpers (``restaurant_squares`` ...) always reject a negative anchor; given
``board=`` they also reject a footprint that runs past the map's far edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from fcm_env.data import CampaignType, Direction, MarketingTileSpec
from fcm_env.engine.board.geometry import AirplaneLane, Board
from fcm_env.engine.board.tiles import EMPTY

Square = tuple[int, int]

RESTAURANT_ORIENTATIONS = 4
HOUSE_ORIENTATIONS = 4
GARDEN_ORIENTATIONS = 4
CAMPAIGN_ORIENTATIONS = 2
AIRPLANE_EDGES = 4

#: (row, col) offset of the entrance from the anchor, per restaurant orientation
RESTAURANT_ENTRANCE_OFFSETS: tuple[Square, ...] = ((0, 0), (0, 1), (1, 1), (1, 0))

# ------------------------------------------------------------------ window tests


def _window(mask: np.ndarray, rows: int, cols: int, op: np.ufunc) -> np.ndarray:
    """Reduce ``mask`` over the rows x cols window anchored at each square with ``op``
    (``np.logical_and``: all set; ``np.logical_or``: any set) by separable shifted
    boolean operations; False where the window leaves the map."""
    H, W = mask.shape
    out = np.zeros((H, W), dtype=bool)
    if rows > H or cols > W:
        return out
    nr, nc = H - rows + 1, W - cols + 1
    across = mask[:, :nc].copy()
    for k in range(1, cols):
        op(across, mask[:, k:k + nc], out=across)
    down = out[:nr, :nc]
    down[...] = across[:nr]
    for k in range(1, rows):
        op(down, across[k:k + nr], out=down)
    return out


def _window_all(mask: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """True where every square of the window is set."""
    return _window(mask, rows, cols, np.logical_and)


def _window_any(mask: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """True where the window lies on the map and at least one of its squares is set."""
    return _window(mask, rows, cols, np.logical_or)


def _shift(mask: np.ndarray, dr: int, dc: int) -> np.ndarray:
    """out[r, c] = mask[r + dr, c + dc] (dr, dc >= 0), False past the map edge."""
    H, W = mask.shape
    out = np.zeros((H, W), dtype=bool)
    out[:H - dr, :W - dc] = mask[dr:, dc:]
    return out


# ------------------------------------------------------------------ input checks


def _check_mask(board: Board, mask: np.ndarray, name: str) -> np.ndarray:
    arr = np.asarray(mask)
    if arr.shape != board.shape:
        raise ValueError(f"{name} must have the board's shape {board.shape}, got {arr.shape}")
    if arr.dtype != np.bool_:
        raise ValueError(f"{name} must be a bool array (a mask, not ranges), got dtype {arr.dtype}")
    return arr


def _check_orientation(orientation: int, count: int, piece: str) -> int:
    if not isinstance(orientation, (int, np.integer)) or not 0 <= orientation < count:
        raise ValueError(f"{piece} orientation must be an integer 0..{count - 1}, got {orientation!r}")
    return int(orientation)


def _check_anchor(row: int, col: int, rows: int, cols: int, board: Board | None, piece: str) -> None:
    """Reject an anchor off the map (negative always; past the far edge when a board is given)."""
    if row < 0 or col < 0:
        raise ValueError(f"{piece} anchor {(row, col)} is outside the map (negative coordinate)")
    if board is not None and (row + rows > board.height or col + cols > board.width):
        raise ValueError(
            f"{piece} at anchor {(row, col)} covers {rows}x{cols} squares and does not fit "
            f"on the {board.height}x{board.width} map"
        )


def _rect(row: int, col: int, rows: int, cols: int) -> tuple[Square, ...]:
    return tuple((row + r, col + c) for r in range(rows) for c in range(cols))


def static_occupied(board: Board) -> np.ndarray:
    """Squares the printed map covers (roads, bridges, houses, drinks): a fresh, writable copy.

    rules: Placing the first restaurants ("empty squares that do not contain any
    other restaurants, roads, drinks, or houses").
    """
    return np.asarray(board.kind != EMPTY)


def list_placements(legal: np.ndarray) -> list[tuple[int, ...]]:
    """The True indices of a legal array, sorted: ``(row, col, orientation)`` for board
    pieces, ``(edge, start)`` for :func:`airplane_placements`."""
    arr = np.asarray(legal)
    if arr.dtype != np.bool_:
        raise ValueError(f"legal must be a bool array, got dtype {arr.dtype}")
    # nonzero is C order = sorted; zipping its index lists gives the tuples of ints without one list per hit
    return list(zip(*(axis.tolist() for axis in arr.nonzero())))


# ------------------------------------------------------------------ restaurants


def restaurant_corners(row: int, col: int, *, board: Board | None = None) -> tuple[Square, ...]:
    """The 4 squares of the 2x2 restaurant anchored at (row, col), in orientation order
    NW, NE, SE, SW: with a drive-in all four are entrances (C11)."""
    _check_anchor(row, col, 2, 2, board, "restaurant")
    return tuple((row + dr, col + dc) for dr, dc in RESTAURANT_ENTRANCE_OFFSETS)


def restaurant_squares(row: int, col: int, orientation: int, *, board: Board | None = None) -> tuple[Square, ...]:
    """The 4 squares a restaurant covers (C6: 2x2), row by row; orientation is checked only."""
    _check_orientation(orientation, RESTAURANT_ORIENTATIONS, "restaurant")
    _check_anchor(row, col, 2, 2, board, "restaurant")
    return _rect(row, col, 2, 2)


def restaurant_entrance(row: int, col: int, orientation: int, *, board: Board | None = None) -> Square:
    """The printed entrance square: the corner named by ``orientation`` (0 NW, 1 NE, 2 SE, 3 SW)."""
    o = _check_orientation(orientation, RESTAURANT_ORIENTATIONS, "restaurant")
    _check_anchor(row, col, 2, 2, board, "restaurant")
    dr, dc = RESTAURANT_ENTRANCE_OFFSETS[o]
    return row + dr, col + dc


def restaurant_placements(
    board: Board,
    occupied: np.ndarray,
    *,
    initial: bool = False,
    entrance_tiles_taken: Iterable[int] = (),
    reach: np.ndarray | None = None,
) -> np.ndarray:
    """``legal[H, W, 4]`` for a restaurant: anchor = top-left, orientation = entrance corner.

    rules: Placing the first restaurants; Place or move restaurants; C6 (2x2), C8
    (entrance next to a road, a dead end counts; at setup no two entrances on one
    tile). ``reach`` (the local manager's range-3 squares) must cover at least one
    of the 4 squares.
    """
    occupied = _check_mask(board, occupied, "occupied")
    free4 = _window_all(~occupied, 2, 2)
    if reach is not None:
        free4 &= _window_any(_check_mask(board, reach, "reach"), 2, 2)
    door_ok = board.has_road_access
    if initial:
        taken = np.fromiter((int(t) for t in entrance_tiles_taken), dtype=np.int64)
        bad = taken[(taken < 0) | (taken >= board.num_tiles)]
        if bad.size:
            raise ValueError(f"entrance_tiles_taken holds tile index {int(bad[0])}, not 0..{board.num_tiles - 1}")
        tile_taken = np.zeros(board.num_tiles, dtype=bool)
        tile_taken[taken] = True
        door_ok = door_ok & ~tile_taken[board.tile]  # C8: one initial entrance per tile
    legal = np.empty((board.height, board.width, RESTAURANT_ORIENTATIONS), dtype=bool)
    for o, (dr, dc) in enumerate(RESTAURANT_ENTRANCE_OFFSETS):
        legal[:, :, o] = free4 & _shift(door_ok, dr, dc)
    return legal


# ------------------------------------------------------------------ houses and gardens


def _house_shape(orientation: int) -> tuple[int, int]:
    """rows x cols of house + garden: 3 x 2 with the garden N or S, 2 x 3 with it E or W."""
    return (3, 2) if orientation in (Direction.N, Direction.S) else (2, 3)


def house_footprint(
    row: int, col: int, orientation: int, *, board: Board | None = None
) -> tuple[tuple[Square, ...], tuple[Square, ...]]:
    """(4 house squares, 2 garden squares) of a placed house whose 2x3 rectangle starts at
    (row, col); the garden lies on side ``orientation`` (0 N, 1 E, 2 S, 3 W) of the house."""
    o = _check_orientation(orientation, HOUSE_ORIENTATIONS, "house")
    rows, cols = _house_shape(o)
    _check_anchor(row, col, rows, cols, board, "house")
    if o == Direction.N:
        return _rect(row + 1, col, 2, 2), _rect(row, col, 1, 2)
    if o == Direction.S:
        return _rect(row, col, 2, 2), _rect(row + 2, col, 1, 2)
    if o == Direction.E:
        return _rect(row, col, 2, 2), _rect(row, col + 2, 2, 1)
    return _rect(row, col + 1, 2, 2), _rect(row, col, 2, 1)


def house_placements(board: Board, occupied: np.ndarray) -> np.ndarray:
    """``legal[H, W, 4]`` for a new house with its garden (a 2x3 rectangle).

    rules: Place new houses and gardens ("any empty area ... connected to at least
    one road", no range limit; a placed house comes with a garden). The road may
    touch any of the 6 squares and the rectangle may span tile borders.
    """
    occupied = _check_mask(board, occupied, "occupied")
    free = ~occupied
    legal = np.empty((board.height, board.width, HOUSE_ORIENTATIONS), dtype=bool)
    for (rows, cols), sides in (((3, 2), (Direction.N, Direction.S)), ((2, 3), (Direction.E, Direction.W))):
        ok = _window_all(free, rows, cols) & _window_any(board.has_road_access, rows, cols)
        for side in sides:
            legal[:, :, side] = ok
    return legal


def _garden_shape(orientation: int) -> tuple[int, int]:
    return (1, 2) if orientation in (Direction.N, Direction.S) else (2, 1)


#: where a garden's top-left square lies relative to its house's top-left square
_GARDEN_OFFSET = {Direction.N: (-1, 0), Direction.E: (0, 2), Direction.S: (2, 0), Direction.W: (0, -1)}
_SIDES = np.arange(GARDEN_ORIENTATIONS)
_GARDEN_DR = np.array([_GARDEN_OFFSET[Direction(o)][0] for o in _SIDES])
_GARDEN_DC = np.array([_GARDEN_OFFSET[Direction(o)][1] for o in _SIDES])
_GARDEN_DROWS = np.array([0, 1, 0, 1])  # garden's last square - first square, per side
_GARDEN_DCOLS = np.array([1, 0, 1, 0])


def garden_squares(row: int, col: int, orientation: int, *, board: Board | None = None) -> tuple[Square, ...]:
    """The 2 squares of a garden anchored at its top-left (row, col): side by side when it
    lies N or S of its house, one above the other when E or W."""
    o = _check_orientation(orientation, GARDEN_ORIENTATIONS, "garden")
    rows, cols = _garden_shape(o)
    _check_anchor(row, col, rows, cols, board, "garden")
    return _rect(row, col, rows, cols)


def _house_corners(houses: Mapping[int, Sequence[Square]]) -> np.ndarray:
    """Top-left squares (n x 2) of the houses, in mapping order; each must be a 2x2 block."""
    corners = []
    for number, squares in houses.items():
        cells = sorted((int(r), int(c)) for r, c in squares)
        r, c = cells[0] if cells else (0, 0)
        if cells != [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]:
            raise ValueError(f"house {number} must cover a 2x2 block of squares, got {tuple(squares)}")
        corners.append((r, c))
    return np.array(corners, dtype=np.int64).reshape(-1, 2)


def garden_target(
    row: int, col: int, orientation: int, houses_without_garden: Mapping[int, Sequence[Square]]
) -> int | None:
    """The house a garden at this anchor and side would complete, or None if there is none."""
    o = _check_orientation(orientation, GARDEN_ORIENTATIONS, "garden")
    dr, dc = _GARDEN_OFFSET[Direction(o)]
    if not houses_without_garden:
        return None
    corners = _house_corners(houses_without_garden)
    hit = np.flatnonzero((corners[:, 0] == row - dr) & (corners[:, 1] == col - dc))
    return int(list(houses_without_garden)[hit[0]]) if hit.size else None


def garden_placements(
    board: Board, occupied: np.ndarray, houses_without_garden: Mapping[int, Sequence[Square]]
) -> np.ndarray:
    """``legal[H, W, 4]`` for a garden: anchor = the garden's top-left, orientation = side of
    its house.

    rules: Place new houses and gardens (a garden joins a printed house without one
    so that house + garden form a 2x3 rectangle; only on empty squares; no road
    needed). The caller passes only printed houses that have no garden yet.
    """
    occupied = _check_mask(board, occupied, "occupied")
    H, W = board.shape
    legal = np.zeros((H, W, GARDEN_ORIENTATIONS), dtype=bool)
    if not houses_without_garden:
        return legal
    corners = _house_corners(houses_without_garden)
    # every (house, side) pair at once: the garden's first and last square
    r0 = corners[:, :1] + _GARDEN_DR  # n x 4
    c0 = corners[:, 1:] + _GARDEN_DC
    r1, c1 = r0 + _GARDEN_DROWS, c0 + _GARDEN_DCOLS
    inside = (r0 >= 0) & (c0 >= 0) & (r1 < H) & (c1 < W)
    r0, c0, r1, c1 = r0[inside], c0[inside], r1[inside], c1[inside]
    side = np.broadcast_to(_SIDES, inside.shape)[inside]
    ok = ~occupied[r0, c0] & ~occupied[r1, c1]
    legal[r0[ok], c0[ok], side[ok]] = True
    return legal


# ------------------------------------------------------------------ billboards, mailboxes, radios


def _campaign_shapes(tile: MarketingTileSpec) -> tuple[tuple[int, int], ...]:
    if tile.type == CampaignType.AIRPLANE:
        raise ValueError(f"marketing tile {tile.number} is an airplane: use airplane_placements")
    return tile.footprints()


def campaign_squares(
    row: int, col: int, orientation: int, tile: MarketingTileSpec, *, board: Board | None = None
) -> tuple[Square, ...]:
    """Squares covered by a billboard, mailbox or radio: orientation 0 is ``tile.h`` rows x
    ``tile.w`` cols, orientation 1 the rotated footprint (rotatable non-square tiles only)."""
    o = _check_orientation(orientation, CAMPAIGN_ORIENTATIONS, "campaign")
    shapes = _campaign_shapes(tile)
    if o >= len(shapes):
        raise ValueError(
            f"marketing tile {tile.number} ({tile.h}x{tile.w}, rotatable={tile.rotatable}) has no "
            f"rotated orientation 1"
        )
    rows, cols = shapes[o]
    _check_anchor(row, col, rows, cols, board, "campaign")
    return _rect(row, col, rows, cols)


def campaign_placements(
    board: Board, occupied: np.ndarray, tile: MarketingTileSpec, reach: np.ndarray | None = None
) -> np.ndarray:
    """``legal[H, W, 2]`` for a billboard, mailbox or radio tile.

    rules: Initiate marketing campaigns; C13 (empty squares, next to a road; a
    road-range marketeer must reach it: ``reach = board.ranges_from(entrances) <=
    range``; brand managers/directors and radios pass None = unlimited but still
    need the road); C14 (one covered square that is next to a road and in reach is
    enough); C17 (it need not reach a house).
    """
    shapes = _campaign_shapes(tile)
    occupied = _check_mask(board, occupied, "occupied")
    hook = board.has_road_access  # squares a campaign may hang on the road from
    if reach is not None:
        hook = hook & _check_mask(board, reach, "reach")  # C14: the same square is next to the road and in reach
    free = ~occupied
    legal = np.zeros((board.height, board.width, CAMPAIGN_ORIENTATIONS), dtype=bool)
    for o, (rows, cols) in enumerate(shapes):
        legal[:, :, o] = _window_all(free, rows, cols) & _window_any(hook, rows, cols)
    return legal


# ------------------------------------------------------------------ airplanes


def _check_airplane(tile: MarketingTileSpec) -> int:
    if tile.type != CampaignType.AIRPLANE:
        raise ValueError(f"marketing tile {tile.number} is a {tile.type.key}, not an airplane")
    return tile.along_edge


def _edge_length(board: Board, edge: int) -> int:
    """Squares along an edge: columns on the N and S edges, rows on the E and W edges."""
    return board.width if edge in (Direction.N, Direction.S) else board.height


def airplane_placements(board: Board, tile: MarketingTileSpec) -> np.ndarray:
    """``legal[4, max(H, W)]`` indexed by (edge, start) for an airplane tile.

    rules: Initiate marketing campaigns (airplanes sit beside the board, no road or
    range needed, may not fly outside the board); C15 (airplane zones may overlap other
    airplanes) and the official FAQ (a plane may go on the same lines and side as another):
    other planes never block a lane.
    """
    size = _check_airplane(tile)
    legal = np.zeros((AIRPLANE_EDGES, max(board.height, board.width)), dtype=bool)
    for edge in Direction:
        legal[edge, : max(0, _edge_length(board, edge) - size + 1)] = True  # starts on the board
    return legal


def airplane_anchor(lane: AirplaneLane, board: Board) -> tuple[int, int, int]:
    """The lane's cell in the shared anchor grid: the map square next to its first row or
    column, with orientation = the edge (N -> (0, start, 0), E -> (start, W-1, 1),
    S -> (H-1, start, 2), W -> (start, 0, 3))."""
    edge = Direction(lane.edge)
    if lane.start < 0 or lane.size < 1 or lane.start + lane.size > _edge_length(board, edge):
        raise ValueError(f"airplane {lane} does not fit along the {edge.name} edge of the map")
    H, W = board.shape
    return {
        Direction.N: (0, lane.start, 0),
        Direction.E: (lane.start, W - 1, 1),
        Direction.S: (H - 1, lane.start, 2),
        Direction.W: (lane.start, 0, 3),
    }[edge]


def airplane_from_anchor(row: int, col: int, orientation: int, size: int, board: Board) -> AirplaneLane:
    """Inverse of :func:`airplane_anchor` for a plane of ``size`` rows/columns."""
    edge = Direction(_check_orientation(orientation, AIRPLANE_EDGES, "airplane"))
    if size < 1:
        raise ValueError(f"airplane size must be positive, got {size}")
    if not board.in_bounds(row, col):
        raise ValueError(f"airplane anchor {(row, col)} is outside the {board.height}x{board.width} map")
    H, W = board.shape
    on_edge, start = {
        Direction.N: (row == 0, col),
        Direction.E: (col == W - 1, row),
        Direction.S: (row == H - 1, col),
        Direction.W: (col == 0, row),
    }[edge]
    if not on_edge:
        raise ValueError(f"airplane anchor {(row, col)} is not on the {edge.name} edge of the map")
    lane = AirplaneLane(edge, start, size)
    if start + size > _edge_length(board, edge):
        raise ValueError(f"airplane {lane} would fly past the map corner")
    return lane


def airplane_anchor_grid(legal: np.ndarray, board: Board) -> np.ndarray:
    """Spread ``airplane_placements``'s ``legal[4, max(H, W)]`` into the anchor grid
    ``bool[H, W, 4]`` (what the flat action mask uses)."""
    H, W = board.shape
    arr = np.asarray(legal)
    if arr.shape != (AIRPLANE_EDGES, max(H, W)) or arr.dtype != np.bool_:
        raise ValueError(f"legal must be a bool array of shape {(AIRPLANE_EDGES, max(H, W))}, got {arr.shape}")
    grid = np.zeros((H, W, AIRPLANE_EDGES), dtype=bool)
    grid[0, :, Direction.N] = arr[Direction.N, :W]
    grid[:, W - 1, Direction.E] = arr[Direction.E, :H]
    grid[H - 1, :, Direction.S] = arr[Direction.S, :W]
    grid[:, 0, Direction.W] = arr[Direction.W, :H]
    return grid


__all__ = [
    "CAMPAIGN_ORIENTATIONS",
    "GARDEN_ORIENTATIONS",
    "HOUSE_ORIENTATIONS",
    "RESTAURANT_ENTRANCE_OFFSETS",
    "RESTAURANT_ORIENTATIONS",
    "airplane_anchor",
    "airplane_anchor_grid",
    "airplane_from_anchor",
    "airplane_placements",
    "campaign_placements",
    "campaign_squares",
    "garden_placements",
    "garden_squares",
    "garden_target",
    "house_footprint",
    "house_placements",
    "list_placements",
    "restaurant_corners",
    "restaurant_entrance",
    "restaurant_placements",
    "restaurant_squares",
    "static_occupied",
]
