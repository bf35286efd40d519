"""Placement legality: where restaurants, houses, gardens and campaign tiles may go.

The rules are checked on both engines (the ``engine`` fixture) through the placements ``legal_actions()``
offers at the decision that places the piece (setup's INITIAL_RESTAURANT, RESTAURANT_PLACE, NEW_BUSINESS,
HOUSE_PLACE, CAMPAIGN_PLACE) and through what a placement leaves on the board (``tests/engine/
on_engine_board.py``). The loader takes 2-player maps of 3 x 3 tiles only, so each small map of a rule is
drawn on the top-left tiles of such a map, with neighbours that put no road beside its border squares: the
small map's hand-checked placements are the offered ones whose footprint lies on it (``inside``). Where the
3 x 3 map changes a number, the comment recomputes it. Rows grow south, cols east; orientations: restaurant
entrance corner 0 NW 1 NE 2 SE 3 SW; house/garden side 0 N 1 E 2 S 3 W; campaign 0 as printed, 1 turned.

The placement module's own helpers (footprint squares, argument checks, the airplane anchor grid, the
vectorised window code against a loop) have no outcome in play and stay Python-only, each saying why.

MAP_AL "A0 L0 B0 / N2 F2 T0 / H0 C0 D0"     MAP_DK "D0 K0 A0 / L2 F2 H0 / B0 C0 I0"
    0     5     10                            0     5     10
  0 ..#..|..#..|..#HH                       0 #####|#####|..#..
  1 ..#..|..#..|..#HH                       1 #HH.#|#.HH#|..#..
  2 #####|#####|#####                       2 #HH.#|#.HH#|#####
  3 HH#..|...l.|..#..                       3 .....|.....|HH#..
  4 HH#..|.....|..#..                       4 .....|.....|HH#..
  5 .....|.....|..#..                       5 .....|.....|..#..
  6 .....|.....|.l#..                       6 .l...|.....|..#..
  7 #####|#####|#####                       7 #####|#####|#####
  8 ..#b.|..#HH|..#..                       8 ..#..|..#HH|.HH..
  9 ..#..|..#HH|..#..                       9 ..#..|..#HH|.HH..
 10 ..#..|#####|#####                      10 ..#HH|#####|..#..
 11 ..#..|#.HH#|#HH.#                      11 ..#HH|#.HH#|..#..
 12 #####|#.HH#|#HH.#                      12 #####|#.HH#|#####
 13 .HH..|#...#|.....                      13 ..#..|#...#|...HH
 14 .HH..|#####|.....                      14 ..#..|#####|...HH
houses (top-left): 2 (3,0), 4 (0,13), 10 (8,8),  houses: 7 (1,1), 18 (1,7), 2 (3,10), 10 (8,8),
5 (11,7), 7 (11,11), 13 (13,1)                   13 (8,11), 4 (10,3), 5 (11,7), 15 (13,13)

MAP_AL: A0 on tile 0 (L0 east of it has a road only at (2,5), N2 below it an empty top row), L0 on tile 1 (B0
east of it a road only at (2,10), F2 below an empty top row). Tile ranges from A0's road: [[0, 1, 2],
[5, 4, 3], [6, 5, 4]] (A - L - B - T, then F2, D0; N2, C0; H0). MAP_DK: D0 on tile 0, K0 on tile 1, rows 5
below them empty, A0's west column beside K0 holds only house 2 and a road at (2,10).

MAP_3X3 "A0 B0 O0 / R0 G0 S0 / T0 C0 D0" (tests/engine/test_board.py draws it): from player 0's entrance
(1,1) on A0 the tile ranges are [[0, 1, 2], [1, 2, 3], [2, 3, 4]]; G (tile 4) is a bridge tile (R49).
MAP_F0 / MAP_F1: F0 / F1 on tile 0 of "F? A0 B0 / N2 L2 H0 / C0 D0 I0":
  F0: HH#.. / HH#.. / ##### / ..... / .....      F1: ..#HH / ..#HH / ..### / ..#.. / ..#..  (house 10)
"""

from __future__ import annotations

import numpy as np
import pytest
from late_builders import add_campaign
from on_engine import full, play
from on_engine_board import campaign_place, inside, offered, setup_game, working_game

from fcm_env.data import Direction, Good, marketing_tile
from fcm_env.data import EmployeeType as E
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.board import AirplaneLane, Board
from fcm_env.engine.board.placement import (
    airplane_anchor,
    airplane_anchor_grid,
    airplane_from_anchor,
    airplane_placements,
    campaign_placements,
    campaign_squares,
    garden_placements,
    house_footprint,
    house_placements,
    list_placements,
    restaurant_corners,
    restaurant_entrance,
    restaurant_placements,
    restaurant_squares,
    static_occupied,
)
from fcm_env.engine.state import House

NW, NE, SE, SW = 0, 1, 2, 3
N, E_, S, W = (int(d) for d in Direction)
R, H, G, C = ActionKind.PLACE_RESTAURANT, ActionKind.PLACE_HOUSE, ActionKind.PLACE_GARDEN, ActionKind.PLACE_CAMPAIGN

MAP_AL = "A0 L0 B0 / N2 F2 T0 / H0 C0 D0"
MAP_DK = "D0 K0 A0 / L2 F2 H0 / B0 C0 I0"
MAP_3X3 = "A0 B0 O0 / R0 G0 S0 / T0 C0 D0"
MAP_F0 = "F0 A0 B0 / N2 L2 H0 / C0 D0 I0"
MAP_F1 = "F1 A0 B0 / N2 L2 H0 / C0 D0 I0"
HOME = {0: [(0, 0, SE)]}  # player 0's restaurant on (0,0)-(1,1), entrance (1,1) beside the road (1,2)
F_HOME = {0: [(8, 5, NW)]}  # on L2 (tile 4 of MAP_F0 / MAP_F1), entrance (8,5) beside the road (7,5)


def board_and_free(layout: str) -> tuple[Board, np.ndarray]:
    board = Board.from_tiles(layout)
    return board, static_occupied(board)


def restaurant_spots(game, manager: int) -> list[tuple[int, int, int]]:
    """RESTAURANT_PLACE's spots for a new restaurant of player 0 by ``manager`` (RESTAURANT_MANAGER asked)."""
    assert game.pending.decision == Decision.RESTAURANT_MANAGER, game.pending
    count = len(full(game).players[0].restaurants)
    game.apply(Action.select_restaurant(manager, count))
    return offered(game, R)


def house_spots(game) -> list[tuple[int, int, int]]:
    """HOUSE_PLACE's spots once player 0's new business developer took the lowest house token."""
    assert game.pending.decision == Decision.NEW_BUSINESS, game.pending
    number = min(args[0] for args in offered(game, ActionKind.CHOOSE_HOUSE))
    game.apply(Action.choose_house(number))
    return offered(game, H)


def gardened(game, spot) -> tuple[int, tuple]:
    """(house, its garden squares) that the garden ``spot`` gives a garden, played on a clone."""
    twin = game.clone()
    before = {n: h.garden for n, h in full(twin).houses.items()}
    play(twin, [Action.place_garden(*spot)])
    after = {n: h.garden for n, h in full(twin).houses.items()}
    changed = [n for n in after if after[n] != before[n]]
    assert len(changed) == 1, changed
    return changed[0], after[changed[0]]


def entrance_tile(spot) -> int:
    """The tile (0..8 row by row on a 3 x 3 map) of a restaurant spot's entrance corner."""
    dr, dc = ((0, 0), (0, 1), (1, 1), (1, 0))[spot[2]]
    return (spot[0] + dr) // 5 * 3 + (spot[1] + dc) // 5


# ------------------------------------------------------------------ static occupancy


def test_static_occupied_marks_printed_roads_houses_and_drinks():
    # python-only: the helper's count and its fresh-copy contract; the squares it marks are the ones no
    # piece is offered in play (test_restaurant_may_not_cover_road_house_or_drink, the radio spots below)
    board, occ = board_and_free("L0")
    assert occ[0, 2] and occ[2, 0]  # roads
    assert occ[3, 3]  # lemonade
    assert not occ[0, 0] and not occ[4, 4]
    assert occ.sum() == 7 + 1  # 7 road squares, 1 drink
    occ[0, 0] = True  # a fresh copy: the caller adds its pieces to it
    assert not static_occupied(board)[0, 0]


# ------------------------------------------------------------------ restaurants


def test_restaurant_count_on_tile_a_is_hand_checked(engine):
    # rules: Placing the first restaurants; C6, C8. A0 (tile 0 of MAP_AL) has three free 2x2 blocks, each
    # fitting exactly one anchor:
    #   (0,0): entrances NE (0,1), SE (1,1), SW (1,0) touch a road; NW (0,0) does not -> 3
    #   (0,3): NW (0,3), SE (1,4), SW (1,3) touch a road; NE (0,4) does not         -> 3
    #   (3,3): NW (3,3), NE (3,4), SW (4,3) touch a road; SE (4,4) does not         -> 3
    # (L0's (0,5), (3,5), (4,5) and N2's (5,3), (5,4) beside them are no road: the 1-tile count holds)
    game = setup_game(engine, MAP_AL)
    assert inside(offered(game, R), R, 5, 5) == [
        (0, 0, NE), (0, 0, SE), (0, 0, SW),
        (0, 3, NW), (0, 3, SE), (0, 3, SW),
        (3, 3, NW), (3, 3, NE), (3, 3, SW),
    ]


def test_restaurant_entrance_must_border_a_road(engine):
    # rules: C8 — the entrance square must be next to a road
    spots = offered(setup_game(engine, MAP_AL), R)
    assert (0, 0, NE) in spots  # entrance (0,1) next to road (0,2)
    assert (0, 0, NW) not in spots  # entrance (0,0): only empty squares around it


def test_restaurant_entrance_next_to_a_dead_end_is_legal(engine):
    # rules: C8 (a dead end counts). D0 on tile 0 of MAP_DK: the road square (2,0) only continues north
    spots = offered(setup_game(engine, MAP_DK), R)
    assert (3, 0, NW) in spots
    assert (3, 0, SE) not in spots  # entrance (4,1): no road around it ((5,1) on L2 is empty)


def test_restaurant_may_not_cover_road_house_or_drink(engine):
    # rules: Placing the first restaurants ("empty squares that do not contain any other restaurants, roads,
    # drinks, or houses"); Place or move restaurants
    spots = offered(setup_game(engine, MAP_AL), R)
    assert not [s for s in spots if s[:2] == (0, 1)]  # covers road (0,2)
    assert not [s for s in spots if s[:2] == (3, 0)]  # covers house 2
    assert not [s for s in spots if s[:2] == (3, 8)]  # covers L0's lemonade at (3,8)
    assert (3, 5, NW) in spots  # the same shape on L0's empty squares is fine (entrance (3,5) by road (2,5))
    # a regional manager's new restaurant in Working 9-5: the same spot, and none over a mailbox on (3,5)
    game = working_game(engine, MAP_AL, HOME, work={E.REGIONAL_MANAGER: 1})
    spots = restaurant_spots(game, E.REGIONAL_MANAGER)
    assert (3, 5, NW) in spots and (3, 4, NW) in spots

    def billboard(state):
        add_campaign(state, 9, 1, Good.BURGER, row=3, col=5, remaining=2)  # mailbox 9, 1x1, by the road (2,5)

    game = working_game(engine, MAP_AL, HOME, work={E.REGIONAL_MANAGER: 1}, prepare=billboard)
    spots = restaurant_spots(game, E.REGIONAL_MANAGER)
    assert not [s for s in spots if s[:2] in ((3, 5), (3, 4), (2, 4), (2, 5))]  # every 2x2 holding (3,5)
    assert (0, 5, SE) in spots


def test_restaurant_may_not_hang_off_the_map(engine):
    # rules: C6 (a 2x2 restaurant on the map). The 15 x 15 map's last row and column hold no anchor; D0's
    # bottom-right block (13,13)-(14,14) with its NE entrance (13,14) beside the road (12,14) is offered
    spots = offered(setup_game(engine, MAP_AL), R)
    assert max(s[0] for s in spots) == 13 and max(s[1] for s in spots) == 13
    assert (13, 13, NE) in spots


def test_initial_restaurant_entrance_not_on_a_tile_with_an_initial_entrance(engine):
    # rules: C8 — at setup no two first restaurants have their entrance on one tile. Anchor (0,4) straddles
    # tiles 0 and 1: SW entrance (1,4) on tile 0 touches road (2,4); SE entrance (1,5) on tile 1 touches road
    # (2,5); NW/NE touch no road.
    def at_0_4(spots):
        return [s[2] for s in spots if s[:2] == (0, 4)]

    game = setup_game(engine, MAP_AL)  # player 1 places first (reverse turn order)
    assert at_0_4(offered(game, R)) == [SE, SW]
    play(game, [Action.place_restaurant(3, 3, NW)])  # player 1's entrance (3,3) on tile 0
    assert game.pending.decision == Decision.INITIAL_RESTAURANT and game.pending.player == 0
    spots = offered(game, R)
    assert at_0_4(spots) == [SE]
    # no entrance on tile 0 at all; every other tile still has a free spot beside a road, but C0 (tile 7):
    # its free squares (11,6), (12,6), (13,6), (13,7), (13,8) inside the ring hold no 2x2 with house 5 there
    assert {entrance_tile(s) for s in spots} == {1, 2, 3, 4, 5, 6, 8}
    game = setup_game(engine, MAP_AL)
    play(game, [Action.place_restaurant(0, 8, SW)])  # entrance (1,8) on tile 1
    spots = offered(game, R)
    assert at_0_4(spots) == [SW]
    assert (0, 0, SE) in spots  # the entrance tile matters, not the footprint
    # after setup several entrances may share a tile: a regional manager's restaurant, with entrances of
    # both chains on tiles 0 and 1 already
    game = working_game(engine, MAP_AL, {0: [(0, 8, SW)], 1: [(3, 3, NW)]}, work={E.REGIONAL_MANAGER: 1})
    spots = restaurant_spots(game, E.REGIONAL_MANAGER)
    assert at_0_4(spots) == [SE, SW]
    assert (0, 0, SE) in spots


def test_local_manager_needs_one_of_the_four_squares_on_a_tile_within_range_3(engine):
    # rules: Place or move restaurants — local manager: within range 3; D8: at least one of the 4 squares on
    # a tile within range 3. MAP_AL, entrances (the drive-in's 4 corners, C11) on (0,0)-(1,1): tiles 0, 1, 2
    # and 5 are within range 3 (A - L - B - T), tiles 3, 4, 6, 7, 8 are at 4 to 6.
    game = working_game(engine, MAP_AL, HOME, work={E.LOCAL_MANAGER: 1})
    spots = restaurant_spots(game, E.LOCAL_MANAGER)
    assert (4, 3, NW) in spots  # (4,3), (4,4) on tile 0, (5,3), (5,4) on tile 3; entrance (4,3) by road (4,2)
    assert (5, 3, SW) not in spots  # all on tile 3 (range 5), entrance (6,3) by road (7,3)
    far = {3, 4, 6, 7, 8}
    assert all({(r + dr) // 5 * 3 + (c + dc) // 5 for dr in (0, 1) for dc in (0, 1)} - far for r, c, _ in spots)
    assert {entrance_tile(s) for s in spots} >= {0, 1, 2, 5}
    # a regional manager places anywhere (rules: Place or move restaurants)
    game = working_game(engine, MAP_AL, HOME, work={E.REGIONAL_MANAGER: 1})
    assert (5, 3, SW) in restaurant_spots(game, E.REGIONAL_MANAGER)


def test_restaurant_reach_with_no_square_offers_nothing():
    # python-only: the helper's empty reach mask; in play a chain always reaches its own tile (range 0)
    board, occ = board_and_free("A0")
    reach = np.zeros(board.shape, dtype=bool)
    reach[4, 4] = True  # only the bottom-right block touches it
    assert list_placements(restaurant_placements(board, occ, reach=reach)) == [(3, 3, NW), (3, 3, NE), (3, 3, SW)]
    assert not restaurant_placements(board, occ, reach=np.zeros(board.shape, dtype=bool)).any()


def test_restaurant_square_helpers():
    # python-only: coordinate helpers (a placed restaurant is kept as its anchor and entrance corner; which
    # corner is the entrance is seen in play in test_restaurant_count_on_tile_a_is_hand_checked)
    assert restaurant_squares(3, 4, SE) == ((3, 4), (3, 5), (4, 4), (4, 5))
    assert [restaurant_entrance(3, 4, o) for o in range(4)] == [(3, 4), (3, 5), (4, 5), (4, 4)]
    assert restaurant_corners(3, 4) == ((3, 4), (3, 5), (4, 5), (4, 4))


# ------------------------------------------------------------------ houses with garden


def test_house_placements_on_tile_d_are_hand_checked(engine):
    # rules: Place new houses and gardens ("any empty area ... connected to at least one road"; a placed house
    # comes with a garden: 2x3). D0 (tile 0 of MAP_DK): only rows 3-4 hold a free 2x3 rectangle (no 3x2 on the
    # tile). Of the windows at cols 0-2, 1-3, 2-4 only the middle one touches no road ((3,0) touches (2,0),
    # (3,4) touches (2,4); row 5 of L2 below is empty); the garden may sit E or W.
    game = working_game(engine, MAP_DK, {}, work={E.NEW_BUSINESS_DEVELOPER: 1})
    spots = house_spots(game)
    assert inside(spots, H, 5, 5) == [(3, 0, E_), (3, 0, W), (3, 2, E_), (3, 2, W)]
    assert not [s for s in spots if s[:2] == (3, 1)]  # all 6 squares free but no road next to them


def test_house_may_span_a_tile_border(engine):
    # rules: Place new houses and gardens (the rectangle may span tile borders). D0 K0 (tiles 0 and 1 of
    # MAP_DK): rows 3-4 are free across both tiles; road-adjacent squares on row 3 are cols 0, 4, 5, 9, so
    # windows starting at cols 0, 2, 3, 4, 5, 7 touch a road.
    game = working_game(engine, MAP_DK, {}, work={E.NEW_BUSINESS_DEVELOPER: 1})
    spots = house_spots(game)
    starts = [0, 2, 3, 4, 5, 7]
    assert inside(spots, H, 5, 10) == [(3, c, o) for c in starts for o in (E_, W)]
    assert (3, 3, E_) in spots and (3, 4, W) in spots  # cols 3-5 and 4-6 straddle the border


def test_house_may_not_overlap_anything(engine):
    # rules: Place new houses and gardens (empty squares only). House 7's garden on (3,1), (3,2) leaves every
    # 2x3 window of D0's rows 3-4 (cols 0-2, 1-3, 2-4 all hold col 1 or 2) covered
    game = working_game(engine, MAP_DK, {}, work={E.NEW_BUSINESS_DEVELOPER: 2})
    play(game, [Action.place_garden(3, 1, S)])
    assert full(game).houses[7].garden == ((3, 1), (3, 2))
    assert inside(house_spots(game), H, 5, 5) == []


@pytest.mark.parametrize(("side", "squares", "garden"), [
    (E_, ((3, 0), (3, 1), (4, 0), (4, 1)), ((3, 2), (4, 2))),
    (W, ((3, 1), (3, 2), (4, 1), (4, 2)), ((3, 0), (4, 0))),
    (N, ((4, 0), (4, 1), (5, 0), (5, 1)), ((3, 0), (3, 1))),
    (S, ((3, 0), (3, 1), (4, 0), (4, 1)), ((5, 0), (5, 1))),
])
def test_house_footprint_per_garden_side(engine, side, squares, garden):
    # rules: Place new houses and gardens — the 2x3 rectangle from (3,0) (MAP_DK): 2 x 3 with the garden E or
    # W, 3 x 2 (rows 3-5: L2's empty row 5 below D0) with it N or S; the house is the other 2x2
    game = working_game(engine, MAP_DK, {}, work={E.NEW_BUSINESS_DEVELOPER: 1})
    number = min(args[0] for args in offered(game, ActionKind.CHOOSE_HOUSE))
    play(game, [Action.choose_house(number), Action.place_house(3, 0, side)])
    state = full(game)
    assert state.houses[number] == House(number, squares, garden, placed=True)
    assert number not in state.house_supply


# ------------------------------------------------------------------ gardens


def test_garden_completes_a_printed_house_to_2x3(engine):
    # rules: Place new houses and gardens (a garden joins a printed house into a 2x3 rectangle). D0, house 7
    # at rows 1-2 cols 1-2: N (row 0) and W (col 0) are road; E (col 3) and S (row 3) are free.
    game = working_game(engine, MAP_DK, {}, work={E.NEW_BUSINESS_DEVELOPER: 1})
    gardens = inside(offered(game, G), G, 5, 5)
    assert gardens == [(1, 3, E_), (3, 1, S)]
    assert gardened(game, (1, 3, E_)) == (7, ((1, 3), (2, 3)))
    assert gardened(game, (3, 1, S)) == (7, ((3, 1), (3, 2)))
    left = full(game).gardens_left
    play(game, [Action.place_garden(1, 3, E_)])
    assert full(game).gardens_left == left - 1 and not full(game).houses[7].placed


def test_garden_may_not_lie_on_a_road_or_an_occupied_square(engine):
    # rules: Place new houses and gardens (only on empty squares)
    game = working_game(engine, MAP_DK, {}, work={E.NEW_BUSINESS_DEVELOPER: 2})
    gardens = offered(game, G)
    assert (0, 1, N) not in gardens  # (0,1), (0,2) are road
    assert (1, 0, W) not in gardens  # (1,0), (2,0) are road
    number = min(args[0] for args in offered(game, ActionKind.CHOOSE_HOUSE))
    play(game, [Action.choose_house(number), Action.place_house(3, 0, E_)])  # (3,0)-(4,2), garden (3,2), (4,2)
    assert game.pending.decision == Decision.NEW_BUSINESS
    assert inside(offered(game, G), G, 5, 5) == [(1, 3, E_)]


def test_garden_may_not_leave_the_map(engine):
    # rules: Place new houses and gardens. B0 (tile 2 of MAP_AL): house 4 sits in the map's NE corner
    # (0,13)-(1,14); N and E would be off the map, S (row 2) and W (col 12) are road. House 2 (3,0)-(4,1)
    # still gets one south of it, on N2's empty row 5.
    game = working_game(engine, MAP_AL, {}, work={E.NEW_BUSINESS_DEVELOPER: 1})
    houses = {gardened(game, spot)[0] for spot in offered(game, G)}
    assert 4 not in houses and 2 in houses
    assert gardened(game, (5, 0, S)) == (2, ((5, 0), (5, 1)))


def test_house_with_a_garden_is_not_offered(engine):
    # rules: Place new houses and gardens (each house gets one garden): once house 7 has one, the second
    # developer is offered no garden on D0
    game = working_game(engine, MAP_DK, {}, work={E.NEW_BUSINESS_DEVELOPER: 2})
    play(game, [Action.place_garden(1, 3, E_)])
    assert game.pending.decision == Decision.NEW_BUSINESS
    assert inside(offered(game, G), G, 5, 5) == []


def test_garden_next_to_no_house_is_not_offered(engine):
    # rules: Place new houses and gardens (a garden completes a house): the right square on the wrong side,
    # or a square below no house, is no garden spot
    gardens = offered(working_game(engine, MAP_DK, {}, work={E.NEW_BUSINESS_DEVELOPER: 1}), G)
    assert (3, 2, S) not in gardens  # (3,2), (3,3): nothing at (1,2)-(2,3) is a house's top-left
    assert (1, 3, W) not in gardens  # right square, wrong side
    assert (3, 1, S) in gardens


# ------------------------------------------------------------------ billboards, mailboxes, radios


def _launch(game, marketeer, number, spot, good=Good.BURGER):
    """Place tile ``number`` at ``spot`` and answer the product (and duration) questions."""
    play(game, [Action.place_campaign(*spot), Action.choose_product(good)])
    if game.pending is not None and game.pending.decision == Decision.CAMPAIGN_DURATION:
        play(game, [Action.choose_duration(1)])
    return [c for c in full(game).campaigns if c.number == number]


def test_billboard_11_both_orientations(engine):
    # rules: Initiate marketing campaigns; C13. MAP_F0: a free 2x5 strip (rows 3-4) whose row 3 touches the
    # road: 2x3 fits at cols 0-2.
    game = working_game(engine, MAP_F0, F_HOME, work={E.BRAND_MANAGER: 1})
    assert inside(campaign_place(game, E.BRAND_MANAGER, 11), C, 5, 5, 11) == [(3, 0, 0), (3, 1, 0), (3, 2, 0)]
    # MAP_F1: the strip turned upright (cols 0-1) beside the road in col 2: 3x2 at rows 0-2.
    game = working_game(engine, MAP_F1, F_HOME, work={E.BRAND_MANAGER: 1})
    assert inside(campaign_place(game, E.BRAND_MANAGER, 11), C, 5, 5, 11) == [(0, 0, 1), (1, 0, 1), (2, 0, 1)]
    (placed,) = _launch(game, E.BRAND_MANAGER, 11, (0, 0, 1))
    assert placed.squares == ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1))
    assert (placed.row, placed.col, placed.orientation, placed.owner) == (0, 0, 1, 0)


def test_square_mailbox_has_no_rotated_orientation(engine):
    # rules: Mailbox campaign (2x2 tile 7: one footprint). A0's three free 2x2 blocks all touch a road
    game = working_game(engine, MAP_AL, {0: [(13, 13, NE)]}, work={E.BRAND_MANAGER: 1})
    spots = campaign_place(game, E.BRAND_MANAGER, 7)
    assert spots and not [s for s in spots if s[2] == 1]
    assert inside(spots, C, 5, 5, 7) == [(0, 0, 0), (0, 3, 0), (3, 3, 0)]


def test_campaign_squares_of_a_square_tile_refuse_a_turned_orientation():
    # python-only: the square helper's argument check (no turned spot is ever offered: the test above)
    with pytest.raises(ValueError, match="no rotated orientation"):
        campaign_squares(0, 0, 1, marketing_tile(7))


def test_radio_goes_next_to_any_road_without_reach(engine):
    # rules: Radio campaign; C13, R17 (next to a road; no range). MAP_AL, brand director, radio 1 (1x1).
    game = working_game(engine, MAP_AL, {0: [(13, 13, NE)]}, work={E.BRAND_DIRECTOR: 1})
    spots = campaign_place(game, E.BRAND_DIRECTOR, 1)
    assert not [s for s in spots if s[2] == 1]
    # A0: (0,1) (1,0) (1,1) (0,3) (1,3) (1,4) (3,3) (3,4) (4,3);
    # L0: (0,6) (0,8) (1,5) (1,6) (1,8) (1,9) (3,5) (3,6) (3,7) (3,9) — not (3,8), the lemonade;
    # (0,4), (0,5), (0,9), (4,4), (4,9) and L0's row 4 touch no road (B0's col 10 and rows 5 are empty there)
    a0 = [(0, 1), (1, 0), (1, 1), (0, 3), (1, 3), (1, 4), (3, 3), (3, 4), (4, 3)]
    l0 = [(0, 6), (0, 8), (1, 5), (1, 6), (1, 8), (1, 9), (3, 5), (3, 6), (3, 7), (3, 9)]
    assert inside(spots, C, 5, 10, 1) == sorted((r, c, 0) for r, c in a0 + l0)
    # on the whole map: every square next to a road that nothing covers (the map's tables; the restaurant
    # on (13,13)-(14,14))
    board = Board.from_tiles(MAP_AL)
    free = board.has_road_access & ~static_occupied(board)
    free[13:15, 13:15] = False
    assert spots == [(int(r), int(c), 0) for r, c in np.argwhere(free)]


def test_billboard_must_touch_a_road(engine):
    # rules: Initiate marketing campaigns; C13, C14 (one covered square next to a road is enough). D0: of
    # billboard 11's 6 squares at (3,0) only (3,0) touches a road; at (3,1) none does.
    game = working_game(engine, MAP_DK, {0: [(13, 10, 0)]}, work={E.BRAND_MANAGER: 1})
    spots = campaign_place(game, E.BRAND_MANAGER, 11)
    assert (3, 1, 0) not in spots  # free, but none of its 6 squares touches a road
    assert (3, 0, 0) in spots
    # a 1x1 tile (mailbox 9: the 1x1 billboards 15 and 16 are not in a 2-player game) on A0
    game = working_game(engine, MAP_AL, {0: [(13, 13, NE)]}, work={E.BRAND_MANAGER: 1})
    spots = campaign_place(game, E.BRAND_MANAGER, 9)
    assert (0, 0, 0) not in spots and (0, 1, 0) in spots


def test_billboard_next_to_a_road_but_out_of_range(engine):
    # rules: Initiate marketing campaigns (range by road from any entrance, R19); C13. MAP_3X3, player 0's
    # entrance (1,1) on A. Billboard 14 (1x2, as printed: one row, two columns): at (3,3)-(3,4) both squares
    # are at range 0 (A's road (3,2), (2,4)); at (8,8)-(8,9) at 2 (G's roads, via B or R); at (6,10)-(6,11) at
    # 3 (S's roads); at (13,10)-(13,11) only (13,10) touches a road, at 4 (D's road (12,10); C's (13,9) is
    # another tile: 3 + 1). The marketing trainee (range 2), the campaign manager (3), the brand manager (none).
    def spots_of(marketeer):
        return campaign_place(working_game(engine, MAP_3X3, HOME, work={marketeer: 1}), marketeer, 14)

    trainee, manager, brand = spots_of(E.MARKETING_TRAINEE), spots_of(E.CAMPAIGN_MANAGER), spots_of(E.BRAND_MANAGER)
    assert (3, 3, 0) in trainee and (8, 8, 0) in trainee and (6, 10, 0) not in trainee
    assert (6, 10, 0) in manager and (13, 10, 0) not in manager
    assert (13, 10, 0) in brand
    assert set(trainee) < set(manager) < set(brand)


def test_one_square_next_to_the_road_and_in_reach_is_enough(engine):
    # rules: C14 — one covered square next to a road and in reach is enough. MAP_3X3, billboard 14 (1x2) at
    # (6,9)-(6,10): (6,9) on G touches G's E-W road (7,9) at range 2, (6,10) on S touches S's road at range 3.
    # At (6,10)-(6,11) both squares touch only S's road (range 3).
    game = working_game(engine, MAP_3X3, HOME, work={E.MARKETING_TRAINEE: 1})
    trainee = campaign_place(game, E.MARKETING_TRAINEE, 14)
    assert (6, 9, 0) in trainee
    assert (6, 10, 0) not in trainee  # next to a road, but only out of reach
    game = working_game(engine, MAP_3X3, HOME, work={E.CAMPAIGN_MANAGER: 1})
    assert (6, 10, 0) in campaign_place(game, E.CAMPAIGN_MANAGER, 14)


def test_billboard_may_not_overlap_anything(engine):
    # rules: Initiate marketing campaigns (empty squares). MAP_F0 with player 1's mailbox 9 (1x1) on (3,2),
    # by the road (2,2): no 2x3 window of the strip (cols 0-2, 1-3, 2-4) is free
    def billboard(state):
        add_campaign(state, 9, 1, Good.PIZZA, row=3, col=2, remaining=2)

    game = working_game(engine, MAP_F0, F_HOME, work={E.BRAND_MANAGER: 1}, prepare=billboard)
    assert inside(campaign_place(game, E.BRAND_MANAGER, 11), C, 5, 5, 11) == []


def test_campaign_placements_reject_airplanes():
    # python-only: the helper's argument check (airplanes have their own placements, below)
    board, occ = board_and_free("A0")
    with pytest.raises(ValueError, match="airplane"):
        campaign_placements(board, occ, marketing_tile(5))


# ------------------------------------------------------------------ airplanes


def _lanes(size: int, length: int = 15) -> list[tuple[int, int, int]]:
    """Every airplane anchor on the 15 x 15 map for a plane ``size`` wide: N edge (0, start, 0), E edge
    (start, 14, 1), S edge (14, start, 2), W edge (start, 0, 3), start + size <= 15."""
    starts = range(length - size + 1)
    return sorted([(0, s, 0) for s in starts] + [(s, 14, 1) for s in starts]
                  + [(14, s, 2) for s in starts] + [(s, 0, 3) for s in starts])


@pytest.mark.parametrize(("number", "size"), [(4, 1), (5, 3), (6, 5)])
def test_airplane_starts_on_every_edge(engine, number, size):
    # rules: Airplane campaign (along an edge, 1, 3 or 5 rows or columns); C15 (no road, no range). The map is
    # 15 x 15: on each edge the plane starts at 0..15 - size
    assert marketing_tile(number).along_edge == size
    game = working_game(engine, MAP_AL, HOME, work={E.BRAND_MANAGER: 1})
    spots = campaign_place(game, E.BRAND_MANAGER, number)
    assert spots == _lanes(size)
    assert len(spots) == 4 * (16 - size)


def test_airplane_may_not_fly_past_the_map_corner(engine):
    # rules: Airplane campaign. Plane 6 (5 wide): on the E edge rows 10-14 fit, rows 11-15 not; on N cols 10-14
    game = working_game(engine, MAP_AL, HOME, work={E.BRAND_MANAGER: 1})
    spots = campaign_place(game, E.BRAND_MANAGER, 6)
    assert (10, 14, 1) in spots and (11, 14, 1) not in spots
    assert (0, 10, 0) in spots and (0, 11, 0) not in spots


def test_airplane_lanes_only_have_to_fit_along_their_edge(engine):
    # C15 (airplane zones may overlap other airplanes; official FAQ: a plane may go on the same lines and
    # side as another), so no other plane is consulted: with player 1's plane 5 over columns 0-2 from the N
    # edge, plane 6 (5 wide) still starts at 0..10 on every edge, N 0 included
    def plane(state):
        add_campaign(state, 5, 1, Good.BEER, row=0, col=0, orientation=0, remaining=2)

    game = working_game(engine, MAP_AL, HOME, work={E.BRAND_MANAGER: 1}, prepare=plane)
    assert [c.number for c in full(game).campaigns] == [5]
    spots = campaign_place(game, E.BRAND_MANAGER, 6)
    assert spots == _lanes(5) and (0, 0, 0) in spots
    (placed,) = _launch(game, E.BRAND_MANAGER, 6, (0, 0, 0))
    assert (placed.row, placed.col, placed.orientation, placed.squares) == (0, 0, 0, ())


def test_airplane_anchor_round_trip_on_every_edge():
    # python-only: the anchor <-> lane mapping of the action codec's anchor grid (a helper; the anchors
    # offered in play are checked on both engines above)
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
    # python-only: the anchor grid helper against the lanes (no position)
    board = Board.from_tiles("A0 L0")
    legal = airplane_placements(board, marketing_tile(6))
    grid = airplane_anchor_grid(legal, board)
    assert grid.shape == (5, 10, 4)
    expected = sorted(
        airplane_anchor(AirplaneLane(Direction(e), s, 5), board) for e, s in list_placements(legal)
    )
    assert list_placements(grid) == expected


def test_airplane_from_anchor_rejects_an_anchor_off_its_edge():
    # python-only: the helper's argument checks
    board = Board.from_tiles("A0 L0")
    with pytest.raises(ValueError, match="not on the N edge"):
        airplane_from_anchor(1, 3, N, 1, board)
    with pytest.raises(ValueError, match="not on the E edge"):
        airplane_from_anchor(0, 3, E_, 1, board)
    with pytest.raises(ValueError, match="past the map corner"):
        airplane_from_anchor(0, 6, N, 5, board)
    with pytest.raises(ValueError, match="outside"):
        airplane_from_anchor(5, 0, W, 1, board)


def test_airplane_placements_reject_other_tiles():
    # python-only: the helper's argument check
    with pytest.raises(ValueError, match="not an airplane"):
        airplane_placements(Board.from_tiles("A0"), marketing_tile(11))


# ------------------------------------------------------------------ bad inputs


def test_bad_inputs_name_the_problem():
    # python-only: the placement helpers' argument checks (no move reaches them with bad arguments)
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
        house_footprint(3, 3, E_, board=board)
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
    # python-only: the vectorised window code against a loop, on random occupancy and reach masks (masks,
    # not positions: the engines' offered spots are compared on random positions in the lockstep tests)
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
    assert np.array_equal(houses[:, :, E_], _reference(board, occ, 2, 3, True))
    for number in (11, 13, 14, 7, 9, 1):
        tile = marketing_tile(number)
        legal = campaign_placements(board, occ, tile, reach=reach)
        for o, (rows, cols) in enumerate(tile.footprints()):
            assert np.array_equal(legal[:, :, o], _reference(board, occ, rows, cols, True, reach))
