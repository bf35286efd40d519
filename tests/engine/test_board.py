"""The assembled map: road graph, range, bridges, blocks, radio/airplane/billboard reach.

Expected values are worked out by hand from the tile grids in map_tiles.json. The
hand-built layouts are written out square by square (MAP_* below) so that each
computation can be followed; a test checks that the board really has that map.

Grid letters (map_tiles.json): R road, X bridge, H house, b/l/s drink sources, . empty.
Board coordinates are (row, col); tile t of a layout covers rows 5*(t // cols) .. +4
and columns 5*(t % cols) .. +4.

Where a fact of the map is seen in play it is checked on both engines (the ``engine`` fixture,
``tests/engine/on_engine_board.py``): a road distance as the one Dinnertime uses to choose the chain a house
eats at (``distance_at_dinner``), what a campaign reaches as the houses that get demand at Marketing
(``reached``), the map a seed draws as the new game's document. The loader takes 2-player maps of 3 x 3 tiles
only: the 2 x 2 maps below are played in the top-left tiles of a 3 x 3 map whose added tiles put no road
beside them (``*_ON_3X3``; every range inside the 2 x 2 block is the same, test_the_3x3_maps_keep_...). The
tables themselves (road graph, segments, rotations, blocks, masks, the BFS) and the maps no game holds (one
tile, 1 x 2) stay Python-only, each saying why; tests/native/test_native_board.py compares the native
board's tables with these on every tile and on random maps.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from on_engine_board import dinner_position, distance_at_dinner, reached

from fcm_env.data import MAP_TILES, Direction, EmployeeType, Good, load_json
from fcm_env.engine import UNREACHABLE, AirplaneLane, Board
from fcm_env.engine.board.tiles import BRIDGE, rotate_cell, rotated_tile
from fcm_env.engine.state import House
from fcm_env.engines import new_game

RAW_TILES = {t["id"]: t for t in load_json("map_tiles.json")["tiles"]}
TILE_IDS = [t.id for t in MAP_TILES]
N, E, S, W = Direction.N, Direction.E, Direction.S, Direction.W
U = UNREACHABLE

# map_tiles.json edge_midpoints: a road square there runs off the tile in this direction
OUTWARD = {(0, 2): N, (2, 4): E, (4, 2): S, (2, 0): W}


# --------------------------------------------------------------------------- helpers


def rotate_grid(grid, k):
    """map_tiles.json coordinate_system: one clockwise quarter turn is new[r][c] = old[4-c][r]."""
    grid = list(grid)
    for _ in range(k % 4):
        grid = ["".join(grid[4 - c][r] for c in range(5)) for r in range(5)]
    return grid


def layout_chars(board):
    """The map as grid letters, rebuilt from map_tiles.json and the board's layout strings."""
    rows = []
    for trow in board.layout_strings():
        grids = [rotate_grid(RAW_TILES[s[0]]["grid"], int(s[1:])) for s in trow]
        for r in range(5):
            rows.append("".join(g[r] for g in grids))
    return rows


def assert_board_has_map(board, chars):
    """The board's layers agree with a letter map (roads, bridges, houses, drinks)."""
    grid = np.array([list(row) for row in chars])
    assert board.shape == grid.shape
    assert np.array_equal(board.road_mask, np.isin(grid, ["R", "X"]))
    assert np.array_equal(board.kind == BRIDGE, grid == "X")
    assert np.array_equal(board.printed_house > 0, grid == "H")
    for letter, good in (("b", Good.BEER), ("l", Good.LEMONADE), ("s", Good.SODA)):
        assert np.array_equal(board.drink == int(good), grid == letter), letter


def square_of(board, node):
    return divmod(int(board.node_square[node]), board.width)


def links(board):
    """Every road-graph link as (square_a, direction, square_b), from ``node_neighbors``."""
    out = []
    for n, nbrs in enumerate(board.node_neighbors):
        for d, m in nbrs:
            out.append((square_of(board, n), d, square_of(board, m)))
    return out


def cross_tile_links(board):
    return {
        tuple(sorted((a, b))) for a, _, b in links(board) if board.tile_at(*a) != board.tile_at(*b)
    }


def road_squares(board):
    return {(int(r), int(c)) for r, c in np.argwhere(board.road_mask)}


def mask_of(rows):
    return np.array([[ch == "#" for ch in row] for row in rows])


# --------------------------------------------------------------------------- hand-built maps

# "H3 I1 / A0 B0": H turned 3 times (exits W N S, house 13 on the east side), I turned once
# (exits N E S, house 15 on the west side), crossroads A and B below.
LAYOUT_2X2 = "H3 I1 / A0 B0"
MAP_2X2 = [
    "..R....R..",
    "..R....R..",
    "RRRHH..RRR",
    "..RHHHHR..",
    "..R..HHR..",
    "..R....RHH",
    "..R....RHH",
    "RRRRRRRRRR",
    "HHR....R..",
    "HHR....R..",
]
# Road links across tile borders: TL-BL at (4,2)-(5,2), TR-BR at (4,7)-(5,7), BL-BR at (7,4)-(7,5).
# TL and TR share no road along their border (col 4: . . H H .; col 5: . . . H H).
# So the segment graph is the path TL - BL - BR - TR.

# "A0 B0 O0 / R0 G0 S0 / T0 C0 D0": crossroads around the bridge tile G, ring C and U-tile D
# below it. Tiles are numbered 0..8 row by row.
LAYOUT_3X3 = "A0 B0 O0 / R0 G0 S0 / T0 C0 D0"
MAP_3X3 = [
    "..R....RHH.bR..",
    "..R....RHH..R..",
    "RRRRRRRRRRRRRRR",
    "HHR....R....R..",
    "HHR....R....R..",
    "..R..HHR....Rs.",
    ".sR..HHR....R..",
    "RRRRRRRXRRRRRRR",
    "..R....R..b.R..",
    "..R....R....R..",
    "..R..RRRRRRRRRR",
    ".lR..R.HHRRHH.R",
    "RRRRRR.HHRRHH.R",
    "..R..R...R.....",
    "..R..RRRRR.....",
]
# Segments: one per tile, except G (tile 4) which has two: G_NS (col 7, rows 5-9) and
# G_EW (row 7, cols 5-9); they do not meet at the bridge (7,7) (R49).
# Segment links: A-B, B-O, A-R, B-G_NS, O-S, R-G_EW, G_EW-S, R-T, G_NS-C, S-D, T-C, C-D.

# "E0 L0 / N0 K0": E has two separate roads, E_NW (0,0)-(0,2),(1,0),(2,0) and E_ES
# (2,4),(3,4),(4,2)-(4,4); L has no road on its south edge; K's top row is all road.
LAYOUT_ELNK = "E0 L0 / N0 K0"
MAP_ELNK = [
    "RRR....R..",
    "Rb.....R..",
    "R.HHRRRRRR",
    "..HHR...l.",
    "..RRR.....",
    "..R..RRRRR",
    ".bR..R.HHR",
    "RRRRRR.HHR",
    "..........",
    "..........",
]
# Cross-tile links: E_ES-L (2,4)-(2,5), E_ES-N (4,2)-(5,2), N-K (7,4)-(7,5). E_NW links to nothing.
# (4,4) on E and (5,5) on K touch only diagonally.

# The 2 x 2 maps in the top-left tiles of a 2-player map: the added tiles D1 / F1 (east) have no road in
# their west column, K2 / L2 and Q2 / H2 (south) none in their top row.
LAYOUT_2X2_ON_3X3 = "H3 I1 D1 / A0 B0 F1 / K2 L2 C0"
LAYOUT_ELNK_ON_3X3 = "E0 L0 D1 / N0 K0 F1 / Q2 H2 C0"


def measured(engine, layout, mine, house, theirs_spot, theirs=0, handicap=0, prepare=None):
    """``distance_at_dinner`` from player 0's restaurants ``mine`` to ``house``, player 1's restaurant at
    ``theirs_spot`` (at distance ``theirs`` from the house, ``handicap`` dollars cheaper)."""
    build = dinner_position(layout, mine, [theirs_spot], prepare)
    return distance_at_dinner(engine, build, house, theirs=theirs, handicap=handicap)


# MAP_3X3: player 1's restaurants at distance 0 from each house (an entrance on its tile by the road that
# touches it); C's ring leaves no free 2x2 on C, so house 5 is measured against D's (13,10) at range 1 with
# a $1 price cut. House -> (spot, distance, price cut).
AT_3X3 = {2: ((3, 3, 0), 0, 0), 4: ((0, 5, 1), 0, 0), 12: ((8, 8, 1), 0, 0), 5: ((13, 10, 0), 1, 1),
          7: ((13, 10, 0), 0, 0)}


def on_3x3(engine, mine, house, against=None, prepare=None):
    spot, theirs, handicap = against or AT_3X3[house]
    return measured(engine, LAYOUT_3X3, mine, house, spot, theirs, handicap, prepare)


def drive_in(state):
    """Player 0 has a local manager at work: a drive-in, every corner of its restaurants an entrance (C11)."""
    state.supply[EmployeeType.LOCAL_MANAGER] -= 1
    state.players[0].work[EmployeeType.LOCAL_MANAGER] += 1


@pytest.mark.parametrize(
    "layout, chars", [(LAYOUT_2X2, MAP_2X2), (LAYOUT_3X3, MAP_3X3), (LAYOUT_ELNK, MAP_ELNK)]
)
def test_hand_built_layouts_have_the_maps_written_out_above(layout, chars):
    # python-only: the Board's layers against the letter maps of this file (map construction; the native
    # board's tables equal the Board's: tests/native/test_native_board.py)
    # rules: Map setup (tiles in a grid, each at some rotation); map_tiles.json rotation convention
    board = Board.from_tiles(layout)
    assert layout_chars(board) == chars
    assert_board_has_map(board, chars)


@pytest.mark.parametrize(("small", "big"), [(LAYOUT_2X2, LAYOUT_2X2_ON_3X3), (LAYOUT_ELNK, LAYOUT_ELNK_ON_3X3)])
def test_the_3x3_maps_keep_the_2x2_blocks_ranges(small, big):
    # python-only: a check of this file's test maps (the 2 x 2 block of the 3 x 3 map has the 2 x 2 map's
    # letters and, from every square of it, the same ranges on it)
    a, b = Board.from_tiles(small), Board.from_tiles(big)
    assert layout_chars(b)[:10] and [row[:10] for row in layout_chars(b)[:10]] == layout_chars(a)
    for r in range(10):
        for c in range(10):
            assert np.array_equal(b.ranges_from([(r, c)])[:10, :10], a.ranges_from([(r, c)])), (r, c)


# --------------------------------------------------------------------------- single tiles vs JSON


@pytest.mark.parametrize("tile_id", TILE_IDS)
def test_in_tile_road_links_are_the_json_connects_minus_the_exits(tile_id):
    # python-only: the road graph of one tile alone (a 1-tile map, which no game holds; map construction
    # from map_tiles.json, compared with the native board's tables in tests/native/test_native_board.py)
    # map_tiles.json road_square_fields.connects: links to adjacent road squares on the tile plus
    # the outward exit direction; on a 1x1 map there is nothing beyond the exits.
    raw = RAW_TILES[tile_id]
    board = Board.from_tiles([[f"{tile_id}0"]])
    expected = {}
    for sq in raw["road_squares"]:
        rc = tuple(sq["rc"])
        expected[rc] = {Direction[d] for d in sq["connects"]} - {OUTWARD.get(rc)}
    got = defaultdict(set)
    for a, d, b in links(board):
        dr, dc = d.delta
        assert b == (a[0] + dr, a[1] + dc)  # a link in direction d goes to that neighbour
        got[a].add(d)
    assert road_squares(board) == set(expected)
    assert {rc: got.get(rc, set()) for rc in expected} == expected


@pytest.mark.parametrize("tile_id", TILE_IDS)
def test_exits_are_the_road_squares_on_edge_midpoints(tile_id):
    # python-only: the road graph of one tile alone (a 1-tile map, which no game holds; map construction
    # from map_tiles.json, compared with the native board's tables in tests/native/test_native_board.py)
    # map_tiles.json exits_field
    board = Board.from_tiles([[f"{tile_id}0"]])
    exits = {d for rc, d in OUTWARD.items() if board.road_mask[rc]}
    assert exits == {Direction[d] for d in RAW_TILES[tile_id]["exits"]}


@pytest.mark.parametrize("tile_id", TILE_IDS)
def test_segments_are_the_json_road_networks(tile_id):
    # python-only: the road graph of one tile alone (a 1-tile map, which no game holds; map construction
    # from map_tiles.json, compared with the native board's tables in tests/native/test_native_board.py)
    # map_tiles.json road_networks_exits (bridge tiles: the two crossing roads count separately, R49)
    raw = RAW_TILES[tile_id]
    board = Board.from_tiles([[f"{tile_id}0"]])
    assert board.num_segments == len(raw["road_networks_exits"])
    seg_exits = defaultdict(set)
    for n in range(board.num_nodes):
        sq = square_of(board, n)
        seg_exits[int(board.node_segment[n])]  # every segment gets an entry
        if sq in OUTWARD:
            seg_exits[int(board.node_segment[n])].add(OUTWARD[sq])
    got = Counter(frozenset(v) for v in seg_exits.values())
    want = Counter(frozenset(Direction[d] for d in net) for net in raw["road_networks_exits"])
    assert got == want


@pytest.mark.parametrize("tile_id", TILE_IDS)
def test_only_the_bridge_square_of_g_and_p_has_two_road_nodes(tile_id):
    # python-only: the road graph of one tile alone (a 1-tile map, which no game holds; map construction
    # from map_tiles.json, compared with the native board's tables in tests/native/test_native_board.py)
    # rules grid legend "X": a N-S road passes over an E-W road; R49
    raw = RAW_TILES[tile_id]
    board = Board.from_tiles([[f"{tile_id}0"]])
    per_square = Counter(square_of(board, n) for n in range(board.num_nodes))
    doubled = [sq for sq, k in per_square.items() if k == 2]
    assert max(per_square.values()) <= 2
    assert board.num_nodes == raw["counts"]["road"] + len(doubled)
    if tile_id in ("G", "P"):
        assert doubled == [(2, 2)]
        ns, ew = int(board.node_of[2, 2, 0]), int(board.node_of[2, 2, 1])
        assert ns != ew
        assert {d for d, _ in board.node_neighbors[ns]} == {N, S}  # through_pairs [[N,S],[E,W]]
        assert {d for d, _ in board.node_neighbors[ew]} == {E, W}
        assert board.node_segment[ns] != board.node_segment[ew]
    else:
        assert doubled == []


# --------------------------------------------------------------------------- rotation


@pytest.mark.parametrize("rotation", [0, 1, 2, 3])
@pytest.mark.parametrize("tile_id", TILE_IDS)
def test_rotation_keeps_what_is_printed_on_the_tile(tile_id, rotation):
    # python-only: tile rotation on a 1-tile map (map construction, which no game holds alone; the native
    # board's tables of every tile in every rotation: tests/native/test_native_board.py)
    # rules: Map setup ("Rotate each tile randomly"); R06; map_tiles.json rotate_90_clockwise
    raw = RAW_TILES[tile_id]
    board = Board.from_tiles([[f"{tile_id}{rotation}"]])
    chars = rotate_grid(raw["grid"], rotation)
    assert_board_has_map(board, chars)
    assert int(board.road_mask.sum()) == raw["counts"]["road"]
    assert int((board.printed_house > 0).sum()) == raw["counts"]["house"]
    drinks = Counter(int(g) for g in board.drink[board.drink >= 0])
    canonical = Board.from_tiles([[f"{tile_id}0"]])
    assert drinks == Counter(int(g) for g in canonical.drink[canonical.drink >= 0])
    assert sum(drinks.values()) == raw["counts"]["drink"]
    assert sorted(board.printed_houses) == sorted(h["number"] for h in raw["houses"])
    for number, cells in board.printed_houses.items():
        assert sorted(cells) == sorted(
            (r, c) for r in range(5) for c in range(5) if chars[r][c] == "H"
        ), number
    # the exits turn with the tile: N -> E -> S -> W -> N
    exits = {d for rc, d in OUTWARD.items() if board.road_mask[rc]}
    assert exits == {Direction[d].rotated(rotation) for d in raw["exits"]}
    assert board.num_segments == len(raw["road_networks_exits"])


@pytest.mark.parametrize("tile_id", TILE_IDS)
def test_four_quarter_turns_are_the_identity(tile_id):
    # python-only: tile rotation on a 1-tile map (map construction, which no game holds alone; the native
    # board's tables of every tile in every rotation: tests/native/test_native_board.py)
    # map_tiles.json: k = clockwise quarter turns, so k = 4 is no turn at all
    for r in range(5):
        for c in range(5):
            assert rotate_cell(r, c, 4) == (r, c)
            assert rotate_cell(*rotate_cell(r, c, 1), 3) == (r, c)
    once = rotated_tile(tile_id, 1).chars
    assert rotate_grid(once, 3) == list(RAW_TILES[tile_id]["grid"])
    for k in range(4):
        assert list(rotated_tile(tile_id, k).chars) == rotate_grid(RAW_TILES[tile_id]["grid"], k)


def test_tile_f_turned_once_clockwise():
    # python-only: tile rotation on a 1-tile map (map construction, which no game holds alone; the native
    # board's tables of every tile in every rotation: tests/native/test_native_board.py)
    # map_tiles.json: F is
    #   HHR..      new[r][c] = old[4-c][r]: row r of the new tile is column r of F read
    #   HHR..      bottom to top, giving
    #   RRRRR        ..RHH
    #   .....        ..RHH
    #   .....        ..RRR
    #                ..R..
    #                ..R..
    # House 10 moves from the NW corner to the NE corner; exits N, E, W become E, S, N.
    board = Board.from_tiles("F1")
    assert layout_chars(board) == ["..RHH", "..RHH", "..RRR", "..R..", "..R.."]
    assert board.printed_houses[10] == ((0, 3), (0, 4), (1, 3), (1, 4))
    assert road_squares(board) == {(0, 2), (1, 2), (2, 2), (2, 3), (2, 4), (3, 2), (4, 2)}
    assert {d for rc, d in OUTWARD.items() if board.road_mask[rc]} == {N, E, S}


# --------------------------------------------------------------------------- cross-tile links (C31)


def test_ring_next_to_u_tile_links_at_every_touching_road_square():
    # python-only: which road squares link across a border, on a 1 x 2 map (no game holds it); that linked
    # tiles are one border apart is seen at Dinnertime in test_linked_tiles_are_one_border_apart_at_dinnertime
    # C31 / R48: roads of neighbouring tiles connect wherever two road squares are orthogonally
    # adjacent across the border. C0's east column is all road; K0's west column is road in rows
    # 0-2 (RRRRR / R.HHR / R.HHR / ..... / .....), so rows 0, 1 and 2 link, two of them away from
    # the edge midpoint (row 2).
    board = Board.from_tiles("C0 K0")
    assert cross_tile_links(board) == {((0, 4), (0, 5)), ((1, 4), (1, 5)), ((2, 4), (2, 5))}
    assert board.distance([(0, 4)], [(0, 5)]) == 1


def test_full_road_edges_link_along_the_whole_border():
    # python-only: the link set on a 2 x 1 map (no game holds it), as the test above
    # C31: K turned twice has RRRRR as its bottom row; C0's top row is RRRRR: five links.
    board = Board.from_tiles("K2 / C0")
    assert cross_tile_links(board) == {((4, c), (5, c)) for c in range(5)}


def test_ring_and_u_tile_in_the_3x3_layout_link_in_three_rows():
    # python-only: the set of linked road squares (the road graph); in play: the next test
    # C31: C0 (tile 7) east column rows 10-14 is all road; D0 (tile 8) west column is road in rows
    # 10-12 only. T0 (tile 6) has a road only at the midpoint (12,4) of its east edge.
    board = Board.from_tiles(LAYOUT_3X3)
    between_c_and_d = {
        (a, b) for a, b in cross_tile_links(board) if {board.tile_at(*a), board.tile_at(*b)} == {7, 8}
    }
    assert between_c_and_d == {((10, 9), (10, 10)), ((11, 9), (11, 10)), ((12, 9), (12, 10))}
    between_t_and_c = {
        (a, b) for a, b in cross_tile_links(board) if {board.tile_at(*a), board.tile_at(*b)} == {6, 7}
    }
    assert between_t_and_c == {((12, 4), (12, 5))}


def test_roads_touching_only_diagonally_at_a_tile_corner_do_not_link():
    # python-only: the link set and a square-to-square distance (the road graph); in play: the next test
    # C31 links orthogonal neighbours only. In MAP_ELNK, (4,4) (end of E's E-S road) and (5,5)
    # (corner of K's U-road) touch diagonally. The real route is E_ES -> N -> K: 2 borders.
    board = Board.from_tiles(LAYOUT_ELNK)
    assert cross_tile_links(board) == {((2, 4), (2, 5)), ((4, 2), (5, 2)), ((7, 4), (7, 5))}
    assert board.distance([(4, 4)], [(5, 5)]) == 2


def test_roads_touching_only_diagonally_do_not_link_at_dinnertime(engine):
    # C31, Phase 4 (lowest price + distance). MAP_ELNK in LAYOUT_ELNK_ON_3X3: player 0's entrance (4,1) faces
    # E's E-S road (4,2); house 18 on K (rows 6-7, cols 7-8) is 2 borders away (E_ES - N - K), not 1 across the
    # corner where (4,4) and (5,5) touch diagonally. Player 1's entrance (8,5) by K's road (7,5): 0.
    assert measured(engine, LAYOUT_ELNK_ON_3X3, [(3, 0, 2)], 18, (8, 5, 0)) == 2


def test_tiles_whose_roads_do_not_touch_are_not_connected():
    # python-only: a 2 x 1 map (no game holds it); roads with no link at Dinnertime:
    # test_two_roads_of_one_tile_stay_apart_at_dinnertime
    # C9/C31: L0's bottom row is empty (..R.. / ..R.. / RRRRR / ...l. / .....), so nothing links it
    # to C0 below; the two road systems are unconnected.
    board = Board.from_tiles("L0 / C0")
    assert cross_tile_links(board) == set()
    assert board.num_segments == 2
    assert board.distance([(2, 2)], [(5, 2)]) == U
    assert board.tile_ranges_from([(2, 2)]).tolist() == [[0], [U]]


def test_two_roads_of_one_tile_stay_apart_without_a_link_elsewhere():
    # python-only: segment count and tile ranges (the road graph); in play: the next test
    # map_tiles.json E: road_networks_exits [[E,S],[N,W]]. In MAP_ELNK E_NW ((0,0)...) runs off
    # the board to the north and west and touches nothing else.
    board = Board.from_tiles(LAYOUT_ELNK)
    assert board.num_segments == 5
    assert board.distance([(0, 0)], [(4, 4)]) == U
    assert board.tile_ranges_from([(0, 0)]).tolist() == [[0, U], [U, U]]


def test_two_roads_of_one_tile_stay_apart_at_dinnertime(engine):
    # map_tiles.json E: road_networks_exits [[E,S],[N,W]]; Phase 4 (no road, no dinner). LAYOUT_ELNK_ON_3X3:
    # player 0's only entrance (0,3) faces E's N-W road (0,2), which leaves the map and links nothing (the
    # added tiles D1, Q2 touch no road of it): house 8 (touching only E's E-S road) never eats there, however
    # cheap; player 1's entrance (4,1) on the E-S road serves it. From E_ES itself house 8 is at 0.
    assert measured(engine, LAYOUT_ELNK_ON_3X3, [(0, 3, 0)], 8, (3, 0, 2)) is None
    assert measured(engine, LAYOUT_ELNK_ON_3X3, [(3, 0, 2)], 8, (0, 3, 2)) == 0


# --------------------------------------------------------------------------- bridges (R49)


@pytest.mark.parametrize("tile_id", ["G", "P"])
def test_bridge_roads_do_not_meet_on_a_one_tile_map(tile_id):
    # python-only: a 1-tile map (no game holds it) and its road nodes; the bridge's two roads are seen apart
    # at Dinnertime in test_bridge_forces_a_detour_at_dinnertime
    # R49: at a bridge square the N-S and E-W roads do not connect; a route goes straight through.
    board = Board.from_tiles(f"{tile_id}0")
    assert board.num_segments == 2
    ns = board.node_segment[board.node_of[0, 2, 0]]
    ew = board.node_segment[board.node_of[2, 0, 1]]
    assert ns != ew
    assert board.node_segment[board.node_of[4, 2, 0]] == ns  # straight over the bridge
    assert board.node_segment[board.node_of[2, 4, 1]] == ew
    assert board.distance([(0, 2)], [(4, 2)]) == 0
    assert board.distance([(2, 0)], [(2, 4)]) == 0
    assert board.distance([(0, 2)], [(2, 0)]) == U
    assert board.distance([(0, 2)], [(2, 4)]) == U
    ranges = board.ranges_from([(0, 2)])
    assert ranges[4, 2] == 0 and ranges[2, 4] == U and ranges[2, 0] == U


def test_square_next_to_one_bridge_road_cannot_reach_a_square_next_to_the_other():
    # python-only: a 1-tile map (no game holds it); in play: test_bridge_forces_a_detour_at_dinnertime
    # R49, C10. G0:  HHR.. / HHR.. / RRXRR / ..R.. / ..R..
    # (0,3) touches only the N-S road (0,2); (1,4) touches only the E-W road (2,4);
    # (4,3) touches only the N-S road (4,2); (1,3) touches both (1,2) and (2,3).
    board = Board.from_tiles("G0")
    assert board.distance([(0, 3)], [(1, 4)]) == U
    assert board.distance([(0, 3)], [(4, 3)]) == 0
    assert board.distance([(1, 4)], [(1, 3)]) == 0
    assert board.distance([(0, 3)], [(1, 3)]) == 0
    # house 12 (NW corner) touches (0,2), (1,2) (N-S) and (2,0), (2,1) (E-W): both roads
    house = board.printed_houses[12]
    assert board.distance(house, [(0, 3)]) == 0
    assert board.distance(house, [(1, 4)]) == 0


def test_bridge_forces_a_detour_in_the_3x3_layout():
    # python-only: segment count and square-to-square distances (the road graph); in play: the next test
    # R49, C9. In MAP_3X3 G_NS (e.g. (5,7)) and G_EW (e.g. (7,5)) are on the same tile but the
    # shortest road route goes around: G_NS - B - A - R - G_EW (or three other 4-step loops).
    board = Board.from_tiles(LAYOUT_3X3)
    assert board.num_segments == 10
    assert board.distance([(5, 7)], [(7, 5)]) == 4
    # (5,8) touches only G_NS, (6,9) only G_EW (S0's (6,10) is empty)
    assert board.distance([(5, 8)], [(6, 9)]) == 4
    # the bridge square itself lies on both roads
    assert board.distance([(7, 7)], [(5, 7)]) == 0
    assert board.distance([(7, 7)], [(7, 5)]) == 0


def test_bridge_forces_a_detour_at_dinnertime(engine):
    # R49, C9; Phase 4. MAP_3X3: an entrance facing only G's N-S road ((5,8), restaurant (5,8)-(6,9)) and one
    # facing only G's E-W road ((8,9), restaurant (8,8)-(9,9)). House 4 on B, north of G: 1 border from G_NS
    # but 3 from G_EW (G_EW - R - A - B or - S - O - B): the roads do not meet on the bridge. Houses 2 (A) and
    # 7 (D) are 2 from either (G_NS - B - A, G_EW - R - A; G_NS - C - D, G_EW - S - D); house 5 (C) 1 from
    # G_NS, 3 from G_EW.
    ns, ew = [(5, 8, 0)], [(8, 8, 1)]
    assert on_3x3(engine, ns, 4) == 1 and on_3x3(engine, ew, 4) == 3
    assert on_3x3(engine, ns, 5) == 1 and on_3x3(engine, ew, 5) == 3
    assert on_3x3(engine, ns, 2) == on_3x3(engine, ew, 2) == 2
    assert on_3x3(engine, ns, 7) == on_3x3(engine, ew, 7) == 2


# --------------------------------------------------------------------------- distances (Range, C9)


def test_squares_next_to_the_same_road_on_one_tile_are_at_range_0(engine):
    # rules: Dinnertime ("a house on the same tile as a restaurant entrance will be at distance 0
    # if the two are connected by a road on the same tile"); Concepts, Range.
    board = Board.from_tiles(LAYOUT_2X2)
    assert board.distance([(0, 1)], [(4, 3)]) == 0  # next to (0,2) and (4,2), both on H3's road
    assert board.distance([(0, 2)], [(4, 2)]) == 0
    # at Dinnertime (LAYOUT_2X2_ON_3X3): player 0's entrance (0,1) by H3's road (0,2); house 13 on H3 touches
    # that road at (2,2), (3,2): distance 0, as player 1's entrance (1,3) by (1,2): the tie is player 0's
    assert measured(engine, LAYOUT_2X2_ON_3X3, [(0, 0, 1)], 13, (0, 3, 3)) == 0


def test_each_tile_border_crossed_costs_one():
    # python-only: the tile ranges, tiles without a house included (the Board's table); in play: the next test
    # rules: Concepts, Range ("the number of times you cross onto a different tile"); C9.
    # MAP_3X3: every tile but G is one road; from A's road (0,2): B and R 1, O, G (both roads)
    # and T 2, S and C 3, D 4.
    board = Board.from_tiles(LAYOUT_3X3)
    assert board.tile_ranges_from([(0, 2)]).tolist() == [[0, 1, 2], [1, 2, 3], [2, 3, 4]]
    assert board.distance([(0, 2)], [(0, 12)]) == 2
    assert board.distance([(0, 2)], [(10, 12)]) == 4  # D's road (top row of D0)
    # from B's road (0,7): G_NS 1 but G_EW 3 (via A-R or O-S); T and D 3 (via C or R / S)
    ranges = board.ranges_from([(0, 7)])
    assert ranges[5, 7] == 1
    assert ranges[7, 5] == 3
    assert ranges[7, 7] == 1  # the bridge square is on both roads: the nearer one counts
    assert board.tile_ranges_from([(0, 7)]).tolist() == [[1, 0, 1], [2, 1, 2], [3, 2, 3]]
    # from G's E-W road (7,6): B (north) and C (south) need 3 borders although they are adjacent
    assert board.tile_ranges_from([(7, 6)]).tolist() == [[2, 3, 2], [1, 0, 1], [2, 3, 2]]


def test_each_tile_border_crossed_costs_one_at_dinnertime(engine):
    # rules: Concepts, Range; C9; Phase 4. MAP_3X3's houses: 2 on A, 4 on B, 12 on G (touching both of G's
    # roads), 5 on C, 7 on D. From player 0's entrance (1,1) by A's road (restaurant (0,0)-(1,1)) the tile
    # ranges [[0, 1, 2], [1, 2, 3], [2, 3, 4]] give houses 2, 4, 12, 5, 7 at 0, 1, 2, 3, 4.
    assert [on_3x3(engine, [(0, 0, 2)], h) for h in (2, 4, 12, 5, 7)] == [0, 1, 2, 3, 4]
    # from the entrance (0,6) by B's road only (restaurant (0,5)-(1,6)): [[1, 0, 1], [2, 1, 2], [3, 2, 3]]
    # (G_NS at 1): houses 2, 12, 5, 7 at 1, 1, 2, 3
    assert [on_3x3(engine, [(0, 5, 1)], h) for h in (2, 12, 5, 7)] == [1, 1, 2, 3]
    # from the entrance (8,9) by G's E-W road only: [[2, 3, 2], [1, 0, 1], [2, 3, 2]]: houses 2, 4, 5, 7 at
    # 2, 3, 3, 2 and house 12 (next to G_EW) at 0 (player 1 at (5,8) by G_NS, also 0: the tie is player 0's)
    assert [on_3x3(engine, [(8, 8, 1)], h) for h in (2, 4, 5, 7)] == [2, 3, 3, 2]
    assert on_3x3(engine, [(8, 8, 1)], 12, against=((5, 8, 0), 0, 0)) == 0


def test_range_follows_the_road_not_the_straight_line():
    # python-only: the Board's segment count, tile ranges and house-to-house distances; in play: the next test
    # C9: "the tiles passed on the way count even if it is not the straight line".
    # MAP_2X2: H3 (top left) and I1 (top right) share no road; the route is TL-BL-BR-TR.
    board = Board.from_tiles(LAYOUT_2X2)
    assert board.num_segments == 4
    assert board.distance([(0, 2)], [(0, 7)]) == 3
    assert board.tile_ranges_from([(0, 2)]).tolist() == [[0, 3], [1, 2]]
    # houses 13 (rows 2-3, cols 3-4) and 15 (rows 3-4, cols 5-6) touch each other, but each
    # connects only to its own tile's road (C10): 3 borders apart.
    h13, h15 = board.printed_houses[13], board.printed_houses[15]
    h2, h4 = board.printed_houses[2], board.printed_houses[4]
    assert board.distance(h13, h15) == 3
    assert board.distance(h13, h2) == 1
    assert board.distance(h13, h4) == 2
    assert board.distance(h15, h4) == 1


def test_range_follows_the_road_not_the_straight_line_at_dinnertime(engine):
    # C9; Phase 4. LAYOUT_2X2_ON_3X3: H3 (top left) and I1 (top right) share no road; the route is
    # TL-BL-BR-TR. Player 0's entrance (0,1) faces H3's road (as house 13 does): house 15 (touching only I1's
    # road, right beside house 13) is 3 away, house 2 (A0) 1, house 4 (B0) 2. From the entrance (0,6) by I1's
    # road, house 4 is 1 away. Player 1 sits at distance 0 of each: (0,5) NE on I1, (5,3) SW on A0, (5,5) NE
    # on B0.
    h15, h2, h4 = ((0, 5, 1), 15), ((5, 3, 3), 2), ((5, 5, 1), 4)
    assert [measured(engine, LAYOUT_2X2_ON_3X3, [(0, 0, 1)], house, spot) for spot, house in (h15, h2, h4)] == [3, 1, 2]
    assert measured(engine, LAYOUT_2X2_ON_3X3, [(0, 5, 1)], 4, (5, 5, 1)) == 1


def test_square_next_to_a_road_on_another_tile_costs_one_more():
    # python-only: square ranges on a 2 x 2 and a 2 x 1 map (no game holds them); in play: the next test
    # R30: an entrance may face a road square on a different tile; leaving costs +1.
    # MAP_ELNK: (4,7) lies on L (rows 0-4, cols 5-9) and touches only K's road (5,7).
    # (3,7) touches L's road (2,7). Segment ranges from L: E_ES 1, N 2, K 3.
    board = Board.from_tiles(LAYOUT_ELNK)
    assert board.ranges_from([(5, 7)])[4, 7] == 1
    assert board.ranges_from([(2, 7)])[3, 7] == 0
    assert board.ranges_from([(2, 7)])[4, 7] == 4
    assert board.distance([(4, 7)], [(5, 9)]) == 1
    assert board.tile_ranges_from([(2, 7)]).tolist() == [[1, 0], [2, 3]]
    # house 8 (rows 2-3, cols 2-3) touches only E_ES: (2,4), (3,4), (4,2), (4,3)
    h8, h18 = board.printed_houses[8], board.printed_houses[18]
    assert board.distance(h8, [(2, 7)]) == 1
    assert board.distance(h8, [(0, 0)]) == U
    assert board.distance(h8, h18) == 2  # E_ES - N - K
    # L0 over C0: L's bottom row (4,0)-(4,4) touches only C's top road row
    lc = Board.from_tiles("L0 / C0")
    ranges = lc.ranges_from([(5, 2)])
    assert ranges[4].tolist() == [1, 1, 1, 1, 1]
    assert lc.ranges_from([(2, 2)])[4].tolist() == [U] * 5


def test_an_entrance_facing_a_road_on_another_tile_costs_one_more_at_dinnertime(engine):
    # R30; Phase 4. LAYOUT_ELNK_ON_3X3, player 0's restaurant (3,6)-(4,7) on L: with its entrance at SE (4,7)
    # it faces only K's road (5,7) across the border: house 18 on K is at 0 + 1 = 1; with the entrance at NE
    # (3,7), by L's road (2,7), house 18 is 3 away (L - E_ES - N - K) and house 8 1 (L - E_ES). Player 1 at
    # distance 0: (8,5) NW by K's road, (3,0) SE by E's E-S road.
    assert measured(engine, LAYOUT_ELNK_ON_3X3, [(3, 6, 2)], 18, (8, 5, 0)) == 1
    assert measured(engine, LAYOUT_ELNK_ON_3X3, [(3, 6, 1)], 18, (8, 5, 0)) == 3
    assert measured(engine, LAYOUT_ELNK_ON_3X3, [(3, 6, 1)], 8, (3, 0, 2)) == 1
    # house 8 to house 18 is 2 (E_ES - N - K): from the entrance (4,1) by E's E-S road
    assert measured(engine, LAYOUT_ELNK_ON_3X3, [(3, 0, 2)], 18, (8, 5, 0)) == 2
    # MAP_3X3: the entrance (9,5) of a restaurant (8,5)-(9,6) on G faces only C's road (10,5): house 5 on C at
    # 1, house 7 on D at 2 (C - D, + 1) and house 12, on the restaurant's own tile, at 2 (C - G_NS, + 1)
    assert on_3x3(engine, [(8, 5, 3)], 5) == 1
    assert on_3x3(engine, [(8, 5, 3)], 7) == 2
    assert on_3x3(engine, [(8, 5, 3)], 12, against=((5, 8, 0), 0, 0)) == 2


def test_drive_in_restaurant_straddling_two_tiles_is_at_range_0_from_both():
    # python-only: distances from a set of corner squares on a 2 x 2 map (no game holds it); in play: next test
    # C11 / R32: with a drive-in every corner of the 2x2 restaurant is an entrance, and a
    # restaurant straddling two tiles is at range 0 from both. MAP_2X2: a restaurant on rows 0-1,
    # cols 3-6 has corners (0,3), (1,3) next to H3's road (0,2)/(1,2) and (0,6), (1,6) next to
    # I1's road (0,7)/(1,7); those two roads are 3 borders apart by road.
    board = Board.from_tiles(LAYOUT_2X2)
    corners = [(0, 3), (0, 6), (1, 3), (1, 6)]
    assert board.distance(corners, [(0, 2)]) == 0
    assert board.distance(corners, [(0, 7)]) == 0
    assert board.distance(corners, board.printed_houses[13]) == 0
    assert board.distance(corners, board.printed_houses[15]) == 0
    # with only the west corners as entrances, house 15 is 3 borders away (TL-BL-BR-TR)
    assert board.distance([(0, 3), (1, 3)], board.printed_houses[15]) == 3


def test_a_drive_in_makes_every_corner_an_entrance_at_dinnertime(engine):
    # C11 / R32 (a local or regional manager at work: every corner is an entrance; a restaurant straddling
    # two tiles is at range 0 from both); Phase 4. MAP_3X3: the restaurant (5,9)-(6,10) straddles G and S;
    # its SE entrance (6,10) faces S's road (7,10) only: house 12 on G (next to G_EW) is 1 away (S - G_EW);
    # with a drive-in its SW corner (6,9) faces G_EW (7,9): 0
    against = ((8, 8, 1), 0, 0)  # player 1's entrance (8,9) by G_EW
    assert on_3x3(engine, [(5, 9, 2)], 12, against=against) == 1
    assert on_3x3(engine, [(5, 9, 2)], 12, against=against, prepare=drive_in) == 0
    # the restaurant (8,8)-(9,9) with its NE entrance (8,9) by G_EW only: house 4 on B is 3 away; with a
    # drive-in its NW corner (8,8) faces G_NS (8,7) too: 1
    assert on_3x3(engine, [(8, 8, 1)], 4) == 3
    assert on_3x3(engine, [(8, 8, 1)], 4, prepare=drive_in) == 1


def test_linked_tiles_are_one_border_apart_at_dinnertime(engine):
    # C31 (roads of neighbouring tiles connect where road squares touch across the border); Phase 4. MAP_3X3:
    # C's ring links to D's west road ((10..12, 9)-(10..12, 10)) and to T's east road ((12,4)-(12,5)): from
    # an entrance by D's road ((13,10), restaurant (13,10)-(14,11)) or by T's ((13,1), restaurant
    # (13,0)-(14,1)) house 5 on C is 1 away. Player 1 at (5,8) by G_NS, 1 away too, $1 cheaper.
    against = ((5, 8, 0), 1, 1)
    assert on_3x3(engine, [(13, 10, 0)], 5, against=against) == 1
    assert on_3x3(engine, [(13, 0, 1)], 5, against=against) == 1


def test_ranges_from_a_road_square_is_zero_there_and_unreachable_away_from_roads():
    # python-only: the range mask of a 1-tile map (no game holds it); in play a square with no road next to it
    # holds no campaign (tests/engine/test_placement.py, test_billboard_must_touch_a_road)
    board = Board.from_tiles("F0")
    ranges = board.ranges_from([(2, 2)])
    assert ranges[2, 2] == 0
    # F0 HHR.. / HHR.. / RRRRR / ..... / .....: (0,0), (0,4) and row 4 touch no road (C10)
    assert ranges[0, 0] == U and ranges[0, 4] == U and (ranges[4] == U).all()
    assert board.distance([], [(2, 2)]) == U
    assert board.distance([(2, 2)], []) == U


def test_squares_within_range_exact_masks():
    # python-only: range masks on a 1-tile and a 2 x 2 map (no game holds them); a marketeer's reach by range
    # is checked in play in tests/engine/test_placement.py (test_billboard_next_to_a_road_but_out_of_range)
    # rules: Concepts, Range. F0 alone: every square on or next to the one road is at range 0.
    board = Board.from_tiles("F0")
    expected = mask_of([
        ".###.",
        "#####",
        "#####",
        "#####",
        ".....",
    ])
    for k in (0, 1, 5):
        assert np.array_equal(board.squares_within([(2, 2)], k), expected)
    # MAP_2X2 from (0,2): range 0 is H3's road and the squares next to it; range 1 adds A0 (BL)
    board = Board.from_tiles(LAYOUT_2X2)
    within0 = board.squares_within([(0, 2)], 0)
    tl = mask_of([
        ".###.",   # (0,0), (0,4) touch no road
        "####.",   # (1,4) touches nothing
        "####.",   # (2,4) house square with no road next to it
        "####.",
        ".###.",   # (4,0) and (4,4) touch nothing
    ])
    assert np.array_equal(within0[:5, :5], tl)
    assert not within0[5:, :].any() and not within0[:, 5:].any()
    within1 = board.squares_within([(0, 2)], 1)
    bl = mask_of([
        ".###.",
        "#####",
        "#####",
        "#####",
        ".###.",   # (9,0) house 2 corner and (9,4) touch no road
    ])
    assert np.array_equal(within1[:5, :5], tl)
    assert np.array_equal(within1[5:, :5], bl)
    assert not within1[:, 5:].any()
    assert int(within0.sum()) == 18 and int(within1.sum()) == 39


# --------------------------------------------------------------------------- mailbox blocks (R45)


@pytest.mark.parametrize(
    "layout, blocks",
    [
        ("F0", 3),   # NW (house 10), NE, and rows 3-4
        ("G0", 4),   # R45: the bridge cuts like a crossing: four quadrants
        ("C0", 1),   # the ring encloses one area (house 5)
        ("E0", 1),   # E's two roads leave one connected area
        (LAYOUT_2X2, 8),
        (LAYOUT_3X3, 16),
    ],
)
def test_number_of_mailbox_blocks(layout, blocks):
    # python-only: the block count (the Board's table, on maps no game holds); what a mailbox reaches in its
    # block is checked at Marketing in test_a_mailbox_reaches_the_houses_of_its_block
    # rules: Mailbox campaign ("the area enclosed by roads and perhaps the border of the board")
    # MAP_2X2 by hand: rows 0-1 cols 0-1; rows 3-6 cols 0-1; cols 3-6 rows 0-6 (crossing the tile
    # borders, houses 13 and 15); rows 0-1 cols 8-9; rows 3-6 cols 8-9 (house 4); and rows 8-9 at
    # cols 0-1 (house 2), 3-6 and 8-9.
    # MAP_3X3 by hand: 4 areas in each horizontal band rows 0-1, 3-6, 8-9(+10-11 under T's road)
    # and 4 at the bottom (T rows 13-14 west and east of its road, C's inside, D's area).
    assert Board.from_tiles(layout).num_blocks == blocks


def test_block_contents():
    # python-only: the Board's block table on a 2 x 2 and a 1-tile map; in play: the next test
    # rules: Mailbox campaign (a mailbox passes through houses, stops at roads); R45
    board = Board.from_tiles(LAYOUT_2X2)
    assert board.block_at(0, 2) == -1 and board.block_at(7, 7) == -1  # road squares
    assert board.houses_in_block(board.block_at(0, 3)) == (13, 15)
    assert board.block_at(0, 3) == board.block_at(6, 6)  # one block across all four tiles
    assert board.houses_in_block(board.block_at(3, 8)) == (4,)
    assert board.houses_in_block(board.block_at(9, 1)) == (2,)
    assert board.houses_in_block(board.block_at(0, 0)) == ()
    assert np.array_equal(board.block_mask(board.block_at(0, 0)), _rect(board, 0, 2, 0, 2))
    g = Board.from_tiles("G0")
    assert g.block_at(2, 2) == -1  # the bridge square
    quadrants = {g.block_at(0, 0), g.block_at(0, 4), g.block_at(4, 0), g.block_at(4, 4)}
    assert len(quadrants) == 4
    assert g.houses_in_block(g.block_at(1, 1)) == (12,)
    assert g.houses_in_block(g.block_at(4, 4)) == ()
    big = Board.from_tiles(LAYOUT_3X3)
    assert big.block_at(7, 7) == -1
    assert len({big.block_at(5, 5), big.block_at(5, 9), big.block_at(9, 5), big.block_at(9, 9)}) == 4
    assert big.houses_in_block(big.block_at(11, 6)) == (5,)
    assert big.houses_in_block(big.block_at(14, 14)) == (7,)
    assert big.houses_in_block(big.block_at(0, 10)) == (4,)


def test_a_mailbox_reaches_the_houses_of_its_block(engine):
    # rules: Mailbox campaign (the area enclosed by roads and the border of the board); R45; Phase 6. MAP_3X3,
    # mailbox 9 (1x1) advertising burgers: at (1,10) on O its block holds house 4 (B's (0,8)-(1,9), no road
    # between); at (13,6) inside C's ring house 5; at (13,10) D's south area around house 7; at (8,6) G's
    # south-west quarter: the bridge's two roads cut G like a crossing, so house 12 (its north-west quarter)
    # is not in it and nobody gets demand
    assert reached(engine, LAYOUT_3X3, 9, (1, 10, 0)) == {4}
    assert reached(engine, LAYOUT_3X3, 9, (13, 6, 0)) == {5}
    assert reached(engine, LAYOUT_3X3, 9, (13, 10, 0)) == {7}
    assert reached(engine, LAYOUT_3X3, 9, (8, 6, 0)) == set()


def _rect(board, r0, r1, c0, c1):
    mask = np.zeros(board.shape, dtype=bool)
    mask[r0:r1, c0:c1] = True
    return mask


# --------------------------------------------------------------------------- radio (R46)


def test_radio_reaches_its_tile_and_the_tiles_around_it():
    # python-only: the radio's tile lists and masks (the Board's tables); in play: the next test
    # rules: Radio campaign (its tile and the 8 tiles around it); R46 (tiles, not blocks)
    board = Board.from_tiles(LAYOUT_3X3)
    assert board.radio_tiles(0) == (0, 1, 3, 4)
    assert board.radio_tiles(8) == (4, 5, 7, 8)
    assert board.radio_tiles(1) == (0, 1, 2, 3, 4, 5)
    assert board.radio_tiles(3) == (0, 1, 3, 4, 6, 7)
    assert board.radio_tiles(4) == tuple(range(9))
    assert np.array_equal(board.radio_mask(0), _rect(board, 0, 10, 0, 10))
    # houses: 2 on A (tile 0), 4 on B (1), 12 on G (4), 5 on C (7), 7 on D (8)
    assert board.houses_near_tile(0) == (2, 4, 12)
    assert board.houses_near_tile(2) == (4, 12)
    assert board.houses_near_tile(4) == (2, 4, 5, 7, 12)
    assert board.houses_near_tile(8) == (5, 7, 12)
    assert board.houses_near_tile(6) == (5, 12)


@pytest.mark.parametrize(("spot", "houses"), [
    ((3, 3, 0), {2, 4, 12}),  # tile 0 (A): tiles 0, 1, 3, 4
    ((3, 13, 0), {4, 12}),  # tile 2 (O): tiles 1, 2, 4, 5
    ((8, 8, 0), {2, 4, 5, 7, 12}),  # tile 4 (G): all nine
    ((13, 10, 0), {5, 7, 12}),  # tile 8 (D): tiles 4, 5, 7, 8
    ((13, 0, 0), {5, 12}),  # tile 6 (T): tiles 3, 4, 6, 7
])
def test_a_radio_reaches_the_houses_of_its_tile_and_the_tiles_around_it(engine, spot, houses):
    # rules: Radio campaign (its tile and the 8 tiles around it); R46 (tiles, not blocks); Phase 6. MAP_3X3,
    # radio 1 on a square by a road of the tile; houses 2 on A, 4 on B, 12 on G, 5 on C, 7 on D
    assert reached(engine, LAYOUT_3X3, 1, spot) == houses


def test_a_radio_reaches_a_placed_house_whose_garden_only_is_in_range(engine):
    # rules: Radio campaign ("A house will be reached even if only part of the house, or the garden, is on one
    # of these tiles"). MAP_3X3 with house 19 placed on O (tile 2) at (3,10)-(4,11), its garden south on S
    # (tile 5) at (5,10), (5,11). A radio on D (tile 8: tiles 4, 5, 7, 8) reaches it through the garden; one
    # on T (tile 6: tiles 3, 4, 6, 7) does not.
    def house_19(state):
        state.houses[19] = House(19, ((3, 10), (3, 11), (4, 10), (4, 11)), ((5, 10), (5, 11)), placed=True)
        state.house_supply.remove(19)

    assert reached(engine, LAYOUT_3X3, 1, (13, 10, 0), prepare=house_19) == {5, 7, 12, 19}
    assert reached(engine, LAYOUT_3X3, 1, (13, 0, 0), prepare=house_19) == {5, 12}


def test_radio_reaches_a_house_with_only_part_of_it_in_range():
    # python-only: the Board's helper with a hand-edited house grid; in play: the test above
    # rules: Radio campaign ("A house will be reached even if only part of the house, or the
    # garden, is on one of these tiles"). A placed house 19 on rows 3-5, cols 13-14: only its
    # last row (5) is on tile 5 (S0); the rest is on tile 2 (O0).
    board = Board.from_tiles(LAYOUT_3X3)
    grid = board.printed_house.copy()
    grid[3:6, 13:15] = 19
    assert 19 in board.houses_near_tile(8, grid)  # tiles 4, 5, 7, 8
    assert 19 not in board.houses_near_tile(6, grid)  # tiles 3, 4, 6, 7


# --------------------------------------------------------------------------- airplanes (C15, R20)


@pytest.mark.parametrize(
    "edge, start, size, houses",
    [
        (N, 0, 1, (2,)),          # column 0: house 2 (rows 3-4, cols 0-1)
        (N, 6, 3, (4, 5, 12)),    # cols 6-8: 12 (cols 5-6), 5 (cols 7-8), 4 (cols 8-9)
        (N, 10, 5, (7,)),         # cols 10-14: house 7 (cols 11-12)
        (S, 9, 1, (4,)),          # column 9 from the south edge: house 4
        (W, 10, 5, (5, 7)),       # rows 10-14
        (W, 2, 3, (2,)),          # rows 2-4
        (W, 0, 1, (4,)),          # row 0
        (E, 7, 1, ()),            # row 7 is all road
    ],
)
def test_airplane_reaches_every_house_in_its_rows_or_columns(engine, edge, start, size, houses):
    # rules: Airplane campaign ("all houses in a line of 1, 3 or 5 rows or columns across the board
    # ... even if only part of the house ... is in the fly-over zone"); C15; Phase 6. MAP_3X3: airplane 4, 5
    # or 6 (1, 3, 5 wide) at its edge anchor (N (0, start, 0), E (start, 14, 1), S (14, start, 2), W (start,
    # 0, 3)); the houses that get a demand token at Marketing
    number = {1: 4, 3: 5, 5: 6}[size]
    anchor = {N: (0, start, 0), E: (start, 14, 1), S: (14, start, 2), W: (start, 0, 3)}[edge]
    assert reached(engine, LAYOUT_3X3, number, anchor) == set(houses)


@pytest.mark.parametrize(
    "edge, start, size, houses",
    [(N, 0, 1, (2,)), (N, 6, 3, (4, 5, 12)), (N, 10, 5, (7,)), (S, 9, 1, (4,)), (W, 10, 5, (5, 7)),
     (W, 2, 3, (2,)), (W, 0, 1, (4,)), (E, 7, 1, ())],
)
def test_airplane_zone_is_its_whole_rows_or_columns(edge, start, size, houses):
    # python-only: the Board's fly-over mask and houses helper for the lanes of the test above
    board = Board.from_tiles(LAYOUT_3X3)
    lane = AirplaneLane(edge, start, size)
    assert board.houses_under_airplane(lane) == houses
    mask = board.airplane_mask(lane)
    assert int(mask.sum()) == size * 15
    if edge in (N, S):
        assert mask[:, start:start + size].all()
    else:
        assert mask[start:start + size, :].all()


def test_airplane_lane_span():
    # python-only: the lane helper
    assert list(AirplaneLane(E, 4, 3).span()) == [4, 5, 6]


# --------------------------------------------------------------------------- billboards


def _squares(mask):
    return {(int(r), int(c)) for r, c in np.argwhere(mask)}


def test_billboard_adjacency_is_orthogonal_only():
    # python-only: the adjacency mask helper on a 1-tile map; in play: test_a_billboard_reaches_... below
    # rules: Billboard campaign ("all houses it is orthogonally adjacent to")
    board = Board.from_tiles("A0")
    assert _squares(board.adjacency_mask(2, 2, 1, 1)) == {(1, 2), (3, 2), (2, 1), (2, 3)}
    assert _squares(board.adjacency_mask(0, 0, 1, 1)) == {(0, 1), (1, 0)}
    assert _squares(board.adjacency_mask(3, 3, 2, 2)) == {(2, 3), (2, 4), (3, 2), (4, 2)}
    assert _squares(board.adjacency_mask(1, 1, 2, 3)) == {
        (0, 1), (0, 2), (0, 3), (3, 1), (3, 2), (3, 3), (1, 0), (2, 0), (1, 4), (2, 4),
    }


def test_billboard_reaches_the_houses_next_to_it():
    # python-only: the Board's helper on a 2 x 2 map; in play: the next test
    # rules: Billboard campaign. MAP_2X2: (4,4) touches house 13 at (3,4) and house 15 at (4,5).
    board = Board.from_tiles(LAYOUT_2X2)
    assert board.houses_next_to(4, 4, 1, 1) == (13, 15)
    assert board.houses_next_to(4, 3, 1, 2) == (13, 15)
    assert board.houses_next_to(1, 5, 1, 1) == ()  # only diagonal to house 13's (2,4)
    assert board.houses_next_to(5, 4, 1, 1) == ()  # only diagonal to house 15's (4,5)
    assert board.houses_next_to(0, 5, 2, 1) == ()


def test_a_billboard_reaches_the_houses_orthogonally_next_to_it(engine):
    # rules: Billboard campaign ("all houses it is orthogonally adjacent to"); Phase 6. MAP_3X3, billboard 14
    # (1x2): at (5,3)-(5,4) on R its square (5,4) touches house 12's (5,5) across the tile border; at
    # (4,3)-(4,4) on A it only touches (5,5) diagonally: nobody; turned at (5,0)-(6,0), (5,0) is next to
    # house 2's (4,0)
    assert reached(engine, LAYOUT_3X3, 14, (5, 3, 0)) == {12}
    assert reached(engine, LAYOUT_3X3, 14, (4, 3, 0)) == set()
    assert reached(engine, LAYOUT_3X3, 14, (5, 0, 1)) == {2}


def test_a_billboard_next_to_only_the_garden_reaches_the_house(engine):
    # rules: Billboard campaign ("A house will be reached even if only its garden is adjacent"). MAP_3X3,
    # billboard 14 at (3,5)-(3,6) on B: no house square next to it; with house 12's garden north of it on
    # (4,5), (4,6), the garden is, and house 12 gets the demand
    def garden(state):
        state.houses[12].garden = ((4, 5), (4, 6))
        state.gardens_left -= 1

    assert reached(engine, LAYOUT_3X3, 14, (3, 5, 0)) == set()
    assert reached(engine, LAYOUT_3X3, 14, (3, 5, 0), prepare=garden) == {12}


def test_billboard_next_to_only_the_garden_reaches_the_house():
    # python-only: the Board's helper with a hand-edited house grid on a 1-tile map; in play: the test above
    # rules: Billboard campaign ("A house will be reached even if only its garden is adjacent").
    # F0 with a placed house 1 on (3,0)-(4,1) and its garden on (3,2), (4,2).
    board = Board.from_tiles("F0")
    grid = board.printed_house.copy()
    grid[3:5, 0:3] = 1
    assert board.houses_next_to(4, 3, 1, 1, grid) == (1,)
    assert board.houses_next_to(4, 3, 1, 1) == ()
    assert board.house_squares(1, grid) == ((3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2))


# --------------------------------------------------------------------------- random boards and layouts


@pytest.mark.parametrize("num_players, tiles", [(2, (3, 3)), (3, (3, 4)), (4, (4, 4)), (5, (4, 5))])
def test_random_board_size_tiles_and_rotations(engine, num_players, tiles):
    # rules: Map setup + setup table (3x3, 3x4, 4x4, 5x4 tiles); R06 (random orientations): the map a new
    # game on the engine under test draws (its document's layout strings)
    for seed in range(5):
        board = Board.from_tiles(new_game(engine, num_players, seed).to_dict()["board"])
        assert (board.tile_rows, board.tile_cols) == tiles
        assert board.shape == (tiles[0] * 5, tiles[1] * 5)
        placements = [p for row in board.layout for p in row]
        assert len(placements) == tiles[0] * tiles[1]
        assert len({p.tile for p in placements}) == len(placements)  # no tile used twice
        assert all(p.tile in RAW_TILES and p.rotation in (0, 1, 2, 3) for p in placements)
        assert_board_has_map(board, layout_chars(board))


def test_a_new_game_draws_its_map_from_the_seed(engine):
    # rules: Map setup; docs/state-format.md (same seed, same game): a new game on the engine under test draws
    # the map ``Board.random`` draws for its seed (the Python reference's), six seeds six maps
    for num_players in (2, 5):
        for seed in range(3):
            doc = new_game(engine, num_players, seed).to_dict()
            assert doc["board"] == new_game(engine, num_players, seed).to_dict()["board"]
            assert Board.from_tiles(doc["board"]).layout == Board.random(num_players, np.random.default_rng(seed)).layout
    layouts = {str(new_game(engine, 5, seed).to_dict()["board"]) for seed in range(6)}
    assert len(layouts) == 6


def test_random_board_is_reproducible_from_the_seed():
    # python-only: ``Board.random``'s tables for one generator state (the map a game draws: the test above)
    a = Board.random(5, np.random.default_rng(123))
    b = Board.random(5, np.random.default_rng(123))
    assert a.layout == b.layout
    for name in (
        "kind", "drink", "printed_house", "tile", "node_of", "node_square", "node_segment",
        "segment_distance", "access", "square_segment_distance", "block", "road_mask",
    ):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    layouts = {str(Board.random(5, np.random.default_rng(seed)).layout_strings()) for seed in range(6)}
    assert len(layouts) == 6


def test_random_board_rejects_a_bad_player_count():
    # python-only: the helper's argument check
    for bad in (1, 6):
        with pytest.raises(ValueError, match="num_players"):
            Board.random(bad, np.random.default_rng(0))


@pytest.mark.parametrize(
    "layout",
    [
        "A0 A1",         # a tile used twice
        "Z0",            # no such tile
        "U0",            # tiles are A-T only
        "A4",            # rotation must be 0-3
        "A0 B0 / C0",    # ragged
        "AB",
        "",
    ],
)
def test_from_tiles_rejects_bad_layouts(layout):
    # python-only: ``Board.from_tiles``' argument checks; a document with a bad layout is refused on both
    # engines (tests/engine/test_serialize.py, the board rows of MALFORMED), the native board's own words are
    # tests/native/test_native_board.py's
    with pytest.raises(ValueError):
        Board.from_tiles(layout)


def test_from_tiles_rejects_an_empty_row_list():
    # python-only: as the test above
    with pytest.raises(ValueError):
        Board.from_tiles([[]])
    with pytest.raises(ValueError):
        Board.from_tiles([])


def test_layout_spellings_and_round_trip():
    # python-only: the layout spellings ``Board.from_tiles`` accepts and ``layout_strings`` writes
    board = Board.from_tiles(LAYOUT_3X3)
    assert board.layout_strings() == [["A0", "B0", "O0"], ["R0", "G0", "S0"], ["T0", "C0", "D0"]]
    again = Board.from_tiles(board.layout_strings())
    assert again.layout == board.layout
    assert np.array_equal(again.square_segment_distance, board.square_segment_distance)
    assert Board.from_tiles([["g", ("b", 2)]]).layout_strings() == [["G0", "B2"]]
    rnd = Board.random(4, np.random.default_rng(7))
    assert Board.from_tiles(rnd.layout_strings()).layout == rnd.layout


# --------------------------------------------------------------------------- brute force check


def brute_force_ranges(board, chars, sources):
    """Independent 0-1 BFS over road squares (two nodes on a bridge, one per axis).

    A step to an orthogonally adjacent road square costs 1 when it crosses a tile border
    (rules: Concepts, Range; C9, C31); at a bridge a step keeps its axis (R49). A non-road
    square takes the best adjacent road square, +1 if that square is on another tile (R30).
    """
    H, W = len(chars), len(chars[0])

    def tile(r, c):
        return (r // 5) * (W // 5) + c // 5

    def axis(d):
        return 0 if d in (N, S) else 1

    def node(r, c, ax):
        return (r, c, ax if chars[r][c] == "X" else 0)

    def is_road(r, c):
        return 0 <= r < H and 0 <= c < W and chars[r][c] in "RX"

    dist = {}
    queue = deque()
    for r, c in sources:
        for ax in (0, 1):
            dist[node(r, c, ax)] = 0
            queue.append(node(r, c, ax))
    while queue:
        r, c, ax = cur = queue.popleft()
        for d in Direction:
            if chars[r][c] == "X" and axis(d) != ax:
                continue
            dr, dc = d.delta
            rr, cc = r + dr, c + dc
            if not is_road(rr, cc):
                continue
            w = int(tile(r, c) != tile(rr, cc))
            nxt = node(rr, cc, axis(d))
            if dist[cur] + w < dist.get(nxt, U):
                dist[nxt] = dist[cur] + w
                (queue.appendleft if w == 0 else queue.append)(nxt)
    out = np.full((H, W), U, dtype=np.int64)
    for r in range(H):
        for c in range(W):
            if is_road(r, c):
                out[r, c] = min(dist.get(node(r, c, 0), U), dist.get(node(r, c, 1), U))
                continue
            for d in Direction:
                dr, dc = d.delta
                rr, cc = r + dr, c + dc
                if is_road(rr, cc):
                    v = dist.get(node(rr, cc, axis(d)), U)
                    if v < U:
                        out[r, c] = min(out[r, c], v + int(tile(r, c) != tile(rr, cc)))
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_five_player_boards_agree_with_a_brute_force_search(seed):
    # python-only: the Board's 0-1 search against an independent one (internal algorithm; the native board's
    # ranges equal the Board's on random maps of every size: tests/native/test_native_board.py)
    # rules: Concepts, Range; C9, C31, R30, R49
    board = Board.random(5, np.random.default_rng(seed))
    chars = layout_chars(board)
    assert_board_has_map(board, chars)
    pick = np.random.default_rng(seed + 1)
    roads = sorted(road_squares(board))
    plain = [sq for sq in roads if chars[sq[0]][sq[1]] == "R"]
    sample = [plain[i] for i in pick.choice(len(plain), size=8, replace=False)]
    bridges = [sq for sq in roads if chars[sq[0]][sq[1]] == "X"]
    assert len(bridges) == 2  # all 20 tiles are on a 5-player map, G and P included
    ranges = {}
    for s in sample + bridges:
        got = board.ranges_from([s])
        assert got[s] == 0
        assert np.array_equal(got, brute_force_ranges(board, chars, [s])), s
        ranges[s] = got
        tiles = np.full(board.num_tiles, U)
        for r, c in roads:
            tiles[board.tile_at(r, c)] = min(tiles[board.tile_at(r, c)], got[r, c])
        assert board.tile_ranges_from([s]).reshape(-1).tolist() == tiles.tolist()
    # symmetry, also for non-road squares and footprints
    others = [tuple(int(v) for v in pick.integers(0, (board.height, board.width))) for _ in range(8)]
    for a in sample + others:
        for b in sample + others:
            assert board.distance([a], [b]) == board.distance([b], [a])
            if a in ranges:
                assert board.distance([a], [b]) == ranges[a][b]
    # triangle inequality over plain road squares (a bridge square lies on two roads, so it is
    # deliberately left out: it is at range 0 from both roads, which do not meet)
    for a in sample:
        for b in sample:
            for c in sample:
                assert ranges[a][c] <= ranges[a][b] + ranges[b][c]
