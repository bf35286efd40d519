"""Placement legality (fcm_env.engine.board.placement) on small hand-drawn maps.

Maps are built from printed tiles; each test shows the map as render_ascii draws it
('#' road, 'H'/digits house, b/l/s drinks, '.' empty). Rows grow south, cols east.
"""

from __future__ import annotations

import numpy as np
import pytest

from fcm_env.data import Direction, marketing_tile
from fcm_env.engine.board import AirplaneLane, Board
from fcm_env.engine.board.placement import (
    airplane_anchor,
    airplane_anchor_grid,
    airplane_from_anchor,
    airplane_placements,
    campaign_placements,
    campaign_squares,
    garden_placements,
    garden_squares,
    garden_target,
    house_footprint,
    house_placements,
    list_placements,
    restaurant_corners,
    restaurant_entrance,
    restaurant_placements,
    restaurant_squares,
    static_occupied,
)

NW, NE, SE, SW = 0, 1, 2, 3
N, E, S, W = (int(d) for d in Direction)

# A0            D0            F0            F1            A0 L0
#   01234         01234         01234         01234         01234 56789
# 0 ..#..       0 #####       0 HH#..       0 ..#HH       0 ..#.. ..#..
# 1 ..#..       1 #HH.#       1 HH#..       1 ..#HH       1 ..#.. ..#..
# 2 #####       2 #HH.#       2 #####       2 ..###       2 ##### #####
# 3 HH#..       3 .....       3 .....       3 ..#..       3 HH#.. ...l.
# 4 HH#..       4 .....       4 .....       4 ..#..       4 HH#.. .....


def board_and_free(layout: str) -> tuple[Board, np.ndarray]:
    board = Board.from_tiles(layout)
    return board, static_occupied(board)


# ------------------------------------------------------------------ static occupancy


def test_static_occupied_marks_printed_roads_houses_and_drinks():
    board, occ = board_and_free("L0")
    assert occ[0, 2] and occ[2, 0]  # roads
    assert occ[3, 3]  # lemonade
    assert not occ[0, 0] and not occ[4, 4]
    assert occ.sum() == 7 + 1  # 7 road squares, 1 drink
    occ[0, 0] = True  # a fresh copy: the caller adds its pieces to it
    assert not static_occupied(board)[0, 0]


# ------------------------------------------------------------------ restaurants


def test_restaurant_count_on_tile_a_is_hand_checked():
    # A0 has three free 2x2 blocks, each fitting exactly one anchor:
    #   (0,0): entrances NE (0,1), SE (1,1), SW (1,0) touch a road; NW (0,0) does not -> 3
    #   (0,3): NW (0,3), SE (1,4), SW (1,3) touch a road; NE (0,4) does not         -> 3
    #   (3,3): NW (3,3), NE (3,4), SW (4,3) touch a road; SE (4,4) does not         -> 3
    board, occ = board_and_free("A0")
    legal = restaurant_placements(board, occ)
    assert legal.shape == (5, 5, 4)
    assert list_placements(legal) == [
        (0, 0, NE), (0, 0, SE), (0, 0, SW),
        (0, 3, NW), (0, 3, SE), (0, 3, SW),
        (3, 3, NW), (3, 3, NE), (3, 3, SW),
    ]


def test_restaurant_entrance_must_border_a_road():
    board, occ = board_and_free("A0")
    legal = restaurant_placements(board, occ)
    assert legal[0, 0, NE]  # entrance (0,1) next to road (0,2)
    assert not legal[0, 0, NW]  # entrance (0,0): only empty squares around it


def test_restaurant_entrance_next_to_a_dead_end_is_legal():
    # D0: the road square (2,0) only continues north: a dead end (C8 counts it)
    board, occ = board_and_free("D0")
    legal = restaurant_placements(board, occ)
    assert legal[3, 0, NW]
    assert not legal[3, 0, SE]  # entrance (4,1): no road around it


def test_restaurant_may_not_cover_road_house_or_drink():
    board, occ = board_and_free("A0")
    legal = restaurant_placements(board, occ)
    assert not legal[0, 1].any()  # covers road (0,2)
    assert not legal[3, 0].any()  # covers house 2
    board, occ = board_and_free("L0")
    legal = restaurant_placements(board, occ)
    assert not legal[3, 3].any()  # covers the lemonade at (3,3)
    assert legal[3, 0, NW]  # the same shape on empty squares is fine
    occ[3, 0] = True  # e.g. another restaurant or a billboard
    assert not restaurant_placements(board, occ)[3, 0].any()


def test_restaurant_may_not_hang_off_the_map():
    board, occ = board_and_free("A0")
    legal = restaurant_placements(board, occ)
    assert not legal[4, :].any() and not legal[:, 4].any()


def test_initial_restaurant_entrance_not_on_a_tile_with_an_initial_entrance():
    # A0 L0, anchor (0,4) straddles the tiles: SW entrance (1,4) on tile 0 touches road
    # (2,4); SE entrance (1,5) on tile 1 touches road (2,5); NW/NE touch no road.
    board, occ = board_and_free("A0 L0")
    free_for_all = restaurant_placements(board, occ, initial=True)
    assert free_for_all[0, 4].tolist() == [False, False, True, True]
    tile0_taken = restaurant_placements(board, occ, initial=True, entrance_tiles_taken=(0,))
    assert tile0_taken[0, 4].tolist() == [False, False, True, False]
    entrance_tiles = {board.tile_at(*restaurant_entrance(*p)) for p in list_placements(tile0_taken)}
    assert entrance_tiles == {1}  # no entrance on tile 0 at all, tile 1 is still open
    tile1_taken = restaurant_placements(board, occ, initial=True, entrance_tiles_taken=(1,))
    assert tile1_taken[0, 4].tolist() == [False, False, False, True]
    assert tile1_taken[0, 0, SE]  # the entrance tile matters, not the footprint
    # after setup several entrances may share a tile
    later = restaurant_placements(board, occ, entrance_tiles_taken=(0, 1))
    assert np.array_equal(later, free_for_all)


def test_restaurant_reach_needs_one_of_the_four_squares():
    board, occ = board_and_free("A0")
    reach = np.zeros(board.shape, dtype=bool)
    reach[4, 4] = True  # only the bottom-right block touches it
    legal = restaurant_placements(board, occ, reach=reach)
    assert list_placements(legal) == [(3, 3, NW), (3, 3, NE), (3, 3, SW)]
    assert not restaurant_placements(board, occ, reach=np.zeros(board.shape, dtype=bool)).any()


def test_restaurant_square_helpers():
    assert restaurant_squares(3, 4, SE) == ((3, 4), (3, 5), (4, 4), (4, 5))
    assert [restaurant_entrance(3, 4, o) for o in range(4)] == [(3, 4), (3, 5), (4, 5), (4, 4)]
    assert restaurant_corners(3, 4) == ((3, 4), (3, 5), (4, 5), (4, 4))


# ------------------------------------------------------------------ houses with garden


def test_house_placements_on_tile_d_are_hand_checked():
    # D0: only rows 3-4 hold a free 2x3 rectangle (no 3x2 anywhere). Of the windows
    # at cols 0-2, 1-3, 2-4 only the middle one touches no road ((3,0) touches (2,0),
    # (3,4) touches (2,4)); the garden may sit E or W.
    board, occ = board_and_free("D0")
    legal = house_placements(board, occ)
    assert list_placements(legal) == [(3, 0, E), (3, 0, W), (3, 2, E), (3, 2, W)]
    assert not legal[3, 1].any()  # all 6 squares free but no road next to them


def test_house_may_span_a_tile_border():
    # D0 K0: rows 3-4 are free across both tiles; road-adjacent squares on row 3 are
    # cols 0, 4, 5, 9, so windows starting at cols 0, 2, 3, 4, 5, 7 touch a road.
    board, occ = board_and_free("D0 K0")
    legal = house_placements(board, occ)
    starts = [0, 2, 3, 4, 5, 7]
    assert list_placements(legal) == [(3, c, o) for c in starts for o in (E, W)]
    assert legal[3, 3, E] and legal[3, 4, W]  # cols 3-5 and 4-6 straddle the border


def test_house_may_not_overlap_anything():
    board, occ = board_and_free("D0")
    occ[4, 2] = True  # e.g. a mailbox
    legal = house_placements(board, occ)
    assert list_placements(legal) == []


def test_house_footprint_per_garden_side():
    assert house_footprint(3, 0, E) == (((3, 0), (3, 1), (4, 0), (4, 1)), ((3, 2), (4, 2)))
    assert house_footprint(3, 0, W) == (((3, 1), (3, 2), (4, 1), (4, 2)), ((3, 0), (4, 0)))
    assert house_footprint(1, 1, N) == (((2, 1), (2, 2), (3, 1), (3, 2)), ((1, 1), (1, 2)))
    assert house_footprint(1, 1, S) == (((1, 1), (1, 2), (2, 1), (2, 2)), ((3, 1), (3, 2)))


# ------------------------------------------------------------------ gardens


def test_garden_completes_a_printed_house_to_2x3():
    # D0, house 7 at rows 1-2 cols 1-2: N (row 0) and W (col 0) are road; E (col 3)
    # and S (row 3) are free.
    board, occ = board_and_free("D0")
    houses = {7: board.printed_houses[7]}
    legal = garden_placements(board, occ, houses)
    assert list_placements(legal) == [(1, 3, E), (3, 1, S)]
    assert garden_target(1, 3, E, houses) == 7
    assert garden_target(3, 1, S, houses) == 7
    assert garden_squares(1, 3, E) == ((1, 3), (2, 3))
    assert garden_squares(3, 1, S) == ((3, 1), (3, 2))


def test_garden_may_not_lie_on_a_road_or_an_occupied_square():
    board, occ = board_and_free("D0")
    houses = {7: board.printed_houses[7]}
    legal = garden_placements(board, occ, houses)
    assert not legal[0, 1, N]  # (0,1), (0,2) are road
    assert not legal[1, 0, W]  # (1,0), (2,0) are road
    occ[3, 2] = True
    assert list_placements(garden_placements(board, occ, houses)) == [(1, 3, E)]


def test_garden_may_not_leave_the_map():
    # B0: house 4 sits in the NE corner; N and E would be off the map, S and W are road
    board, occ = board_and_free("B0")
    assert not garden_placements(board, occ, {4: board.printed_houses[4]}).any()


def test_house_with_a_garden_is_not_offered():
    # the caller passes only houses without a garden: with none, nothing is legal
    board, occ = board_and_free("D0")
    assert not garden_placements(board, occ, {}).any()
    assert garden_target(1, 3, E, {}) is None


def test_garden_target_is_none_for_a_square_next_to_no_house():
    board, _ = board_and_free("D0")
    houses = {7: board.printed_houses[7]}
    assert garden_target(3, 2, S, houses) is None
    assert garden_target(1, 3, W, houses) is None  # right square, wrong side


# ------------------------------------------------------------------ billboards, mailboxes, radios


def test_billboard_11_both_orientations():
    # F0: a free 2x5 strip (rows 3-4) whose row 3 touches the road: 2x3 fits at cols 0-2.
    board, occ = board_and_free("F0")
    assert list_placements(campaign_placements(board, occ, marketing_tile(11))) == [
        (3, 0, 0), (3, 1, 0), (3, 2, 0),
    ]
    # F1: the strip turned upright (cols 0-1) beside the road in col 2: 3x2 at rows 0-2.
    board, occ = board_and_free("F1")
    assert list_placements(campaign_placements(board, occ, marketing_tile(11))) == [
        (0, 0, 1), (1, 0, 1), (2, 0, 1),
    ]
    assert campaign_squares(0, 0, 1, marketing_tile(11)) == ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1))


def test_square_mailbox_has_no_rotated_orientation():
    board, occ = board_and_free("A0")
    legal = campaign_placements(board, occ, marketing_tile(7))  # 2x2, rotatable=False
    assert not legal[:, :, 1].any()
    assert list_placements(legal) == [(0, 0, 0), (0, 3, 0), (3, 3, 0)]
    with pytest.raises(ValueError, match="no rotated orientation"):
        campaign_squares(0, 0, 1, marketing_tile(7))


def test_radio_goes_next_to_any_road_without_reach():
    board, occ = board_and_free("A0 L0")
    legal = campaign_placements(board, occ, marketing_tile(1))
    assert np.array_equal(legal[:, :, 0], board.has_road_access & ~occ)
    assert legal[3, 5, 0] and legal[0, 3, 0]
    assert not legal[0, 0, 0] and not legal[0, 4, 0]  # no road next to them
    # A0: (0,1) (1,0) (1,1) (0,3) (1,3) (1,4) (3,3) (3,4) (4,3);
    # L0: (0,6) (0,8) (1,5) (1,6) (1,8) (1,9) (3,5) (3,6) (3,7) (3,9)
    a0 = [(0, 1), (1, 0), (1, 1), (0, 3), (1, 3), (1, 4), (3, 3), (3, 4), (4, 3)]
    l0 = [(0, 6), (0, 8), (1, 5), (1, 6), (1, 8), (1, 9), (3, 5), (3, 6), (3, 7), (3, 9)]
    assert list_placements(legal) == sorted((r, c, 0) for r, c in a0 + l0)
    assert not legal[:, :, 1].any()


def test_billboard_must_touch_a_road():
    board, occ = board_and_free("D0")
    legal = campaign_placements(board, occ, marketing_tile(11))
    assert not legal[3, 1, 0]  # free, but none of its 6 squares touches a road
    assert legal[3, 0, 0]
    board, occ = board_and_free("A0")
    legal = campaign_placements(board, occ, marketing_tile(15))  # 1x1
    assert not legal[0, 0, 0] and legal[0, 1, 0]


def test_billboard_next_to_a_road_but_out_of_range():
    # A0 L0, a marketing trainee-like range from an entrance at (1,1) on tile 0: the
    # road of tile 1 is one border away, so (3,5) is at range 1, (3,3) at range 0.
    board, occ = board_and_free("A0 L0")
    ranges = board.ranges_from([(1, 1)])
    assert ranges[3, 5] == 1 and ranges[3, 3] == 0
    tile15 = marketing_tile(15)
    in_range0 = campaign_placements(board, occ, tile15, reach=ranges <= 0)
    assert in_range0[3, 3, 0] and not in_range0[3, 5, 0]
    in_range1 = campaign_placements(board, occ, tile15, reach=ranges <= 1)
    assert in_range1[3, 5, 0]
    assert np.array_equal(in_range1, campaign_placements(board, occ, tile15))


def test_one_square_next_to_the_road_and_in_reach_is_enough():
    # D0, billboard 11 at (3,0): of its 6 squares only (3,0) touches a road (C14)
    board, occ = board_and_free("D0")
    tile = marketing_tile(11)
    reach = np.zeros(board.shape, dtype=bool)
    reach[3, 0] = True
    assert list_placements(campaign_placements(board, occ, tile, reach=reach)) == [(3, 0, 0)]
    # in reach only where no road is next to it, or next to a road only out of reach: no
    reach = np.ones(board.shape, dtype=bool)
    reach[3, 0] = False
    legal = campaign_placements(board, occ, tile, reach=reach)
    assert not legal[3, 0, 0]
    assert legal[3, 2, 0]  # (3,4) touches the road and is in reach


def test_billboard_may_not_overlap_anything():
    board, occ = board_and_free("F0")
    occ[3, 2] = True
    legal = campaign_placements(board, occ, marketing_tile(11))
    assert list_placements(legal) == []


def test_campaign_placements_reject_airplanes():
    board, occ = board_and_free("A0")
    with pytest.raises(ValueError, match="airplane"):
        campaign_placements(board, occ, marketing_tile(5))


# ------------------------------------------------------------------ airplanes


@pytest.mark.parametrize(("number", "size"), [(4, 1), (5, 3), (6, 5)])
def test_airplane_starts_on_every_edge(number, size):
    # A0 L0 is 5 rows x 10 cols: N/S planes fly over columns, E/W planes over rows
    board = Board.from_tiles("A0 L0")
    tile = marketing_tile(number)
    assert tile.along_edge == size
    legal = airplane_placements(board, tile)
    assert legal.shape == (4, 10)
    for edge, length in ((N, 10), (E, 5), (S, 10), (W, 5)):
        assert legal[edge].tolist() == [s + size <= length for s in range(10)]


def test_airplane_may_not_fly_past_the_map_corner():
    board = Board.from_tiles("A0 L0")
    legal = airplane_placements(board, marketing_tile(6))
    assert legal[E, 0] and not legal[E, 1]  # rows 1-5: row 5 is off the map
    assert legal[N, 5] and not legal[N, 6]


def test_airplane_lanes_only_have_to_fit_along_their_edge():
    # C15 (airplane zones may overlap other airplanes; official FAQ: a plane may go on the same
    # lines and side as another), so no other plane is consulted. "A0 L0" is 5 rows x 10 columns:
    # plane #5 (3 wide) starts at columns 0-7 on N/S, rows 0-2 on E/W; plane #6 (5 wide) fits
    # the east edge only at row 0.
    board = Board.from_tiles("A0 L0")
    legal = airplane_placements(board, marketing_tile(5))
    assert legal[N].tolist() == legal[S].tolist() == [True] * 8 + [False] * 2
    assert legal[E].tolist() == legal[W].tolist() == [True] * 3 + [False] * 7
    assert airplane_placements(board, marketing_tile(6))[E].tolist() == [True] + [False] * 9


def test_airplane_anchor_round_trip_on_every_edge():
    board = Board.from_tiles("A0 L0")
    seen = set()
    for number in (4, 5, 6):
        tile = marketing_tile(number)
        for edge, start in list_placements(airplane_placements(board, tile)):
            lane = AirplaneLane(Direction(edge), start, tile.along_edge)
            anchor = airplane_anchor(lane, board)
            assert airplane_from_anchor(*anchor, tile.along_edge, board) == lane
            seen.add(anchor)
    assert airplane_anchor(AirplaneLane(Direction.N, 3, 1), board) == (0, 3, 0)
    assert airplane_anchor(AirplaneLane(Direction.E, 2, 1), board) == (2, 9, 1)
    assert airplane_anchor(AirplaneLane(Direction.S, 3, 1), board) == (4, 3, 2)
    assert airplane_anchor(AirplaneLane(Direction.W, 2, 1), board) == (2, 0, 3)
    assert len(seen) == 10 + 5 + 10 + 5  # each size-1 lane has its own anchor cell


def test_airplane_anchor_grid_matches_the_lanes():
    board = Board.from_tiles("A0 L0")
    legal = airplane_placements(board, marketing_tile(6))
    grid = airplane_anchor_grid(legal, board)
    assert grid.shape == (5, 10, 4)
    expected = sorted(
        airplane_anchor(AirplaneLane(Direction(e), s, 5), board) for e, s in list_placements(legal)
    )
    assert list_placements(grid) == expected


def test_airplane_from_anchor_rejects_an_anchor_off_its_edge():
    board = Board.from_tiles("A0 L0")
    with pytest.raises(ValueError, match="not on the N edge"):
        airplane_from_anchor(1, 3, N, 1, board)
    with pytest.raises(ValueError, match="not on the E edge"):
        airplane_from_anchor(0, 3, E, 1, board)
    with pytest.raises(ValueError, match="past the map corner"):
        airplane_from_anchor(0, 6, N, 5, board)
    with pytest.raises(ValueError, match="outside"):
        airplane_from_anchor(5, 0, W, 1, board)


def test_airplane_placements_reject_other_tiles():
    with pytest.raises(ValueError, match="not an airplane"):
        airplane_placements(Board.from_tiles("A0"), marketing_tile(11))


# ------------------------------------------------------------------ bad inputs


def test_bad_inputs_name_the_problem():
    board, occ = board_and_free("A0")
    with pytest.raises(ValueError, match="occupied must have the board's shape"):
        restaurant_placements(board, occ[:4])
    with pytest.raises(ValueError, match="reach must be a bool array"):
        campaign_placements(board, occ, marketing_tile(11), reach=board.ranges_from([(1, 1)]))
    with pytest.raises(ValueError, match="restaurant orientation"):
        restaurant_entrance(0, 0, 4)
    with pytest.raises(ValueError, match="house orientation"):
        house_footprint(0, 0, -1)
    with pytest.raises(ValueError, match="campaign orientation"):
        campaign_squares(0, 0, 2, marketing_tile(11))
    with pytest.raises(ValueError, match="outside the map"):
        restaurant_squares(-1, 0, 0)
    with pytest.raises(ValueError, match="does not fit on the 5x5 map"):
        restaurant_squares(4, 0, 0, board=board)
    with pytest.raises(ValueError, match="does not fit"):
        house_footprint(3, 3, E, board=board)
    with pytest.raises(ValueError, match="does not fit"):
        campaign_squares(4, 0, 1, marketing_tile(14), board=board)  # 2 rows x 1 col from the last row
    assert campaign_squares(3, 4, 1, marketing_tile(14), board=board) == ((3, 4), (4, 4))
    with pytest.raises(ValueError, match="tile index 9"):
        restaurant_placements(board, occ, initial=True, entrance_tiles_taken=(9,))
    with pytest.raises(ValueError, match="2x2 block"):
        garden_placements(board, occ, {2: ((3, 0), (3, 1), (4, 0), (4, 2))})
    with pytest.raises(ValueError, match="does not fit"):
        airplane_anchor(AirplaneLane(Direction.N, 3, 3), board)


# ------------------------------------------------------------------ against a plain reference


def _reference(board, occ, rows, cols, need_road, reach=None):
    """Loop over every anchor: all squares free, and (if need_road) one road-adjacent
    square in reach."""
    H, W = board.shape
    out = np.zeros((H, W), dtype=bool)
    for r in range(H - rows + 1):
        for c in range(W - cols + 1):
            sq = [(r + i, c + j) for i in range(rows) for j in range(cols)]
            if any(occ[s] for s in sq):
                continue
            hooks = [s for s in sq if board.has_road_access[s] and (reach is None or reach[s])]
            out[r, c] = bool(hooks) or not need_road
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_vectorised_windows_match_a_square_by_square_reference(seed):
    rng = np.random.default_rng(seed)
    board = Board.random(5, rng)
    occ = static_occupied(board) | (rng.random(board.shape) < 0.1)
    reach = rng.random(board.shape) < 0.5
    legal = restaurant_placements(board, occ, reach=reach)
    free4 = _reference(board, occ, 2, 2, False)
    for r, c, o in np.ndindex(legal.shape):
        squares = restaurant_squares(r, c, o)
        entrance = restaurant_entrance(r, c, o)
        expected = (
            bool(free4[r, c])
            and any(reach[s] for s in squares)
            and bool(board.has_road_access[entrance])
        )
        assert legal[r, c, o] == expected, (r, c, o)
    houses = house_placements(board, occ)
    assert np.array_equal(houses[:, :, N], _reference(board, occ, 3, 2, True))
    assert np.array_equal(houses[:, :, E], _reference(board, occ, 2, 3, True))
    for number in (11, 13, 14, 7, 9, 1):
        tile = marketing_tile(number)
        legal = campaign_placements(board, occ, tile, reach=reach)
        for o, (rows, cols) in enumerate(tile.footprints()):
            assert np.array_equal(legal[:, :, o], _reference(board, occ, rows, cols, True, reach))
