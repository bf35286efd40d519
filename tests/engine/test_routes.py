"""Drink buyers' hauls (rules: Get food & drinks; C18, C19, R22-R30, R49).

Every scenario is an exact map built with ``Board.from_tiles``; the expected hauls
were worked out by hand from the tile grids in ``map_tiles.json``. A haul is
``(beer, lemonade, soda)`` source counts. Board squares are ``(row, col)``; tile
square ``(r, c)`` of the tile at tile-row ``tr``, tile-col ``tc`` is board square
``(5*tr + r, 5*tc + c)``. The pictures in the comments use ``#`` for road.
"""

from __future__ import annotations

import numpy as np
import pytest

from fcm_env.data import Direction, Good
from fcm_env.engine.board import Board, axis_of
from fcm_env.engine.board.routes import HAUL_GOODS, air_hauls, haul_drinks, road_hauls


def hauls(*items: tuple[int, int, int]) -> tuple[tuple[int, int, int], ...]:
    return tuple(sorted(set(items)))


# ---------------------------------------------------------------- cart operator / truck driver


def test_source_next_to_the_first_road_square_is_collected_and_the_route_may_stop_at_once():
    # rules: Get food & drinks; C18, R22, R30
    # "N0 / S0" (N above S):     row 4 of N is empty, so N's roads never meet S's.
    #   4 |.....|  <- entrance (4,2) on tile N
    #   5 |..#s.|     first road square (5,2) is on tile S: leaving costs 1 range (R30),
    #   6 |..#..|     and (5,2) has the soda (5,3) beside it -> every route has the soda.
    #   7 |#####|     driving on down to (7,2) and west to (7,0) passes the beer (8,0).
    #   8 |b.#..|
    # range 0: the entrance cannot even reach a road; range 1: soda, or soda + beer.
    board = Board.from_tiles("N0 / S0")
    assert road_hauls(board, [(4, 2)], 0) == ()
    assert road_hauls(board, [(4, 2)], 1) == hauls((0, 0, 1), (1, 0, 1))
    assert road_hauls(board, [(4, 2)], 2) == hauls((0, 0, 1), (1, 0, 1))


def test_diagonal_contact_does_not_collect_and_separate_roads_of_a_drive_in_do_not_meet():
    # rules: Get food & drinks; C18 (diagonal touch), R29, R32
    # "M0" alone, two separate roads:
    #   0 |..###|   entrance (2,1): first road (2,0) is a dead end to the north; it
    #   1 |...l#|     touches the soda (3,1) only diagonally, so stopping there brings
    #   2 |#e.e#|     nothing; (3,0) and (4,1) touch the soda orthogonally.
    #   3 |#s...|   entrance (2,3): first road (2,4) touches the lemonade (1,3) only
    #   4 |###..|     diagonally; (1,4) and (0,3) touch it orthogonally.
    # The two roads never meet, so no route has both drinks.
    board = Board.from_tiles("M0")
    assert road_hauls(board, [(2, 1)], 0) == hauls((0, 0, 0), (0, 0, 1))
    assert road_hauls(board, [(2, 3)], 0) == hauls((0, 0, 0), (0, 1, 0))
    assert road_hauls(board, [(2, 1), (2, 3)], 3) == hauls((0, 0, 0), (0, 1, 0), (0, 0, 1))


def test_range_counts_one_per_tile_border_and_partial_routes_give_every_smaller_haul():
    # rules: Get food & drinks; C9, R22
    # "N0 S0 L0":
    #      0     5     10
    #   0 |..#..|..#s.|..#..|
    #   1 |.b#..|..#..|..#..|
    #   2 |#####|#####|#####|
    #   3 |e....|b.#..|...l.|
    # Entrance (3,0) -> first road (2,0), a dead end to the west, so every route drives east:
    #   (2,1) beer of N (1,1);  cross to S (range 1): (2,5) beer of S (3,5);
    #   then either the dead-end arm north to (0,7) (soda (0,8)) or on east;
    #   cross to L (range 2): (2,13) lemonade (3,13).
    board = Board.from_tiles("N0 S0 L0")
    assert road_hauls(board, [(3, 0)], 0) == hauls((0, 0, 0), (1, 0, 0))
    assert road_hauls(board, [(3, 0)], 1) == hauls((0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 0, 1))
    assert road_hauls(board, [(3, 0)], 2) == hauls(
        (0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 1, 0)
    )


def test_two_routes_with_the_same_drinks_are_one_choice():
    # rules: Get food & drinks; C18
    # "N0 S0 Q0": as above, but the third tile Q has a soda at (3,11) beside (2,11).
    # At range 2 the soda of S (via its north arm) and the soda of Q (straight on east)
    # both give (2, 0, 1): one outcome. Both sodas at once would need a U-turn.
    board = Board.from_tiles("N0 S0 Q0")
    assert road_hauls(board, [(3, 0)], 2) == hauls((0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 0, 1))


def test_no_u_turn_so_the_sources_of_two_dead_end_arms_cannot_both_be_collected():
    # rules: Get food & drinks; C18, R23
    # "N0 Q0":
    #      0     5
    #   0 |..#..|..#..|
    #   1 |.b#..|..#..|
    #   2 |#####|#####|
    #   3 |..e..|.s...|
    # Entrance (3,2) faces the crossing (2,2). The beer (1,1) is reached west at (2,1) or
    # north at (1,2); both arms end at the board edge, so after the beer the route
    # would have to reverse to drive east to the soda (3,6) beside (2,6) (range 1).
    board = Board.from_tiles("N0 Q0")
    assert road_hauls(board, [(3, 2)], 1) == hauls((0, 0, 0), (1, 0, 0), (0, 0, 1))
    assert road_hauls(board, [(3, 2)], 4) == hauls((0, 0, 0), (1, 0, 0), (0, 0, 1))


def test_turning_round_on_a_loop_is_allowed_and_a_source_passed_twice_counts_once():
    # rules: Get food & drinks; C18, R23, R24, R26
    # "C0 S0":
    #      0     5
    #   0 |#####|..#s.|
    #   1 |#.5H#|.e#..|
    #   2 |#.HH#|#####|
    #   3 |#...#|b.#..|
    #   4 |#####|..#..|
    # Entrance (1,6) touches (2,6) and (1,7) of S. The soda (0,8) is only beside (0,7), the
    # dead end of the north arm; the beer (3,5) is beside (2,5) and, across the border,
    # beside (3,4) on C's ring (R26). Beer then soda: drive west onto the ring (range 1),
    # go round it, come back east (range 2) past the beer again, north to (0,7).
    board = Board.from_tiles("C0 S0")
    assert road_hauls(board, [(1, 6)], 0) == hauls((0, 0, 0), (1, 0, 0), (0, 0, 1))
    assert road_hauls(board, [(1, 6)], 1) == hauls((0, 0, 0), (1, 0, 0), (0, 0, 1))
    assert road_hauls(board, [(1, 6)], 2) == hauls((0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1))
    # Entrance (1,1) inside C: at range 0 the ring (which passes (3,4) on every lap) is
    # enough for the beer of tile S, once.
    assert road_hauls(board, [(1, 1)], 0) == hauls((0, 0, 0), (1, 0, 0))
    assert road_hauls(board, [(1, 1)], 1) == hauls((0, 0, 0), (1, 0, 0), (1, 0, 1))


def test_bridge_roads_do_not_meet():
    # rules: Get food & drinks; C31, R49
    # "P0":
    #   0 |.e#..|   entrance (0,1) -> N-S road (0,2): straight over the bridge to (4,2),
    #   1 |l.#..|     beside the beer (4,3); it may not turn west to the lemonade (1,0).
    #   2 |##X##|   entrance (3,4) -> E-W road (2,4): straight under the bridge to (2,0),
    #   3 |..#.e|     beside the lemonade; it may not turn south to the beer.
    #   4 |..#b.|
    board = Board.from_tiles("P0")
    assert road_hauls(board, [(0, 1)], 0) == hauls((0, 0, 0), (1, 0, 0))
    assert road_hauls(board, [(3, 4)], 0) == hauls((0, 0, 0), (0, 1, 0))


def test_no_road_or_negative_range_gives_no_haul():
    # rules: Get food & drinks; C8 (an entrance must touch a road to be used)
    board = Board.from_tiles("M0")
    assert road_hauls(board, [(4, 4)], 3) == ()  # (4,4) touches no road
    assert road_hauls(board, [], 3) == ()
    assert road_hauls(board, [(2, 1)], -1) == ()
    with pytest.raises(ValueError):
        road_hauls(board, [(5, 0)], 1)


# ---------------------------------------------------------------- zeppelin pilot


def test_zeppelin_collects_its_start_tile_and_moves_orthogonally():
    # rules: Get food & drinks; C19, R27
    # "N0 Q0 / A0 S0": tile 0 N (1 beer), 1 Q (1 soda), 2 A (nothing), 3 S (1 beer, 1 soda).
    # From A (tile 2): N and S are next to it, Q is diagonal (two steps, via N or S).
    board = Board.from_tiles("N0 Q0 / A0 S0")
    assert air_hauls(board, [2], 0) == hauls((0, 0, 0))
    assert air_hauls(board, [3], 0) == hauls((1, 0, 1))  # the start tile counts
    # 1 step: A, A+N, A+S; never A+Q alone (diagonal)
    assert air_hauls(board, [2], 1) == hauls((0, 0, 0), (1, 0, 0), (1, 0, 1))
    # 2 steps adds A+N+Q = (1,0,1) (same as A+S) and A+S+Q = (1,0,2)
    assert air_hauls(board, [2], 2) == hauls((0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 0, 2))
    # 3 steps: all four tiles = (2,0,2)
    assert air_hauls(board, [2], 3) == hauls((0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 0, 2), (2, 0, 2))
    # several restaurants: the union of each start
    assert air_hauls(board, [0, 1], 0) == hauls((1, 0, 0), (0, 0, 1))


def test_zeppelin_never_enters_a_tile_twice():
    # rules: Get food & drinks; C19
    # "N0 A0 Q0" in a row, start on A (tile 1): beer on the left, soda on the right.
    # Both would need A -> N -> A -> Q, re-entering A, so never (1, 0, 1).
    board = Board.from_tiles("N0 A0 Q0")
    assert air_hauls(board, [1], 3) == hauls((0, 0, 0), (1, 0, 0), (0, 0, 1))
    assert air_hauls(board, [1], -1) == ()
    with pytest.raises(ValueError):
        air_hauls(board, [3], 1)


# ---------------------------------------------------------------- drinks per source


@pytest.mark.parametrize("per_source", [2, 3, 4])
def test_haul_drinks_multiplies_each_source_by_the_drinks_per_source(per_source):
    # rules: Get food & drinks (cart 2, truck 3, +1 with "First errand boy played"); R25
    drinks = haul_drinks((1, 0, 2), per_source)
    assert len(drinks) == len(Good)
    assert drinks[Good.BEER] == per_source
    assert drinks[Good.LEMONADE] == 0
    assert drinks[Good.SODA] == 2 * per_source
    assert drinks[Good.BURGER] == drinks[Good.PIZZA] == 0
    assert HAUL_GOODS == (Good.BEER, Good.LEMONADE, Good.SODA)


# ---------------------------------------------------------------- properties on random maps


def _reference_road_hauls(board: Board, entrances, max_range: int) -> set[tuple[int, int, int]]:
    """Plain depth-first search over (node, previous, range used, sources) states."""
    H, W = board.shape
    sources = {sq: i for i, (sq, _) in enumerate(board.drink_sources)}
    goods = [good for _, good in board.drink_sources]

    def collected(node: int) -> int:
        r, c = divmod(int(board.node_square[node]), W)
        mask = 0
        for d in Direction:
            sq = (r + d.delta[0], c + d.delta[1])
            if sq in sources:
                mask |= 1 << sources[sq]
        return mask

    def tile_of(node: int) -> int:
        return int(board.tile.reshape(-1)[board.node_square[node]])

    seen, masks = set(), set()
    stack = []
    for r, c in entrances:
        for d in Direction:
            rr, cc = r + d.delta[0], c + d.delta[1]
            if 0 <= rr < H and 0 <= cc < W and board.road_mask[rr, cc]:
                node = int(board.node_of[rr, cc, axis_of(d)])
                stack.append((node, -1, int(board.tile[r, c] != board.tile[rr, cc]), collected(node)))
    while stack:
        state = stack.pop()
        node, prev, used, mask = state
        if used > max_range or state in seen:
            continue
        seen.add(state)
        masks.add(mask)
        for _, nxt in board.node_neighbors[node]:
            if nxt != prev:
                stack.append((nxt, node, used + (tile_of(nxt) != tile_of(node)), mask | collected(nxt)))
    out = set()
    for mask in masks:
        counts = [0, 0, 0]
        for i, good in enumerate(goods):
            if mask >> i & 1:
                counts[HAUL_GOODS.index(Good(good))] += 1
        out.add(tuple(counts))
    return out


def _random_entrances(board: Board, rng: np.random.Generator, count: int = 12) -> list[tuple[int, int]]:
    squares = np.argwhere(board.has_road_access)
    picks = rng.choice(len(squares), size=count, replace=False)
    return [(int(squares[i][0]), int(squares[i][1])) for i in picks]


@pytest.mark.parametrize("seed", range(6))
def test_road_hauls_grow_with_range_stay_within_the_map_and_match_a_plain_search(seed):
    # rules: Get food & drinks; C18, R22 (a longer range may always stop early)
    board = Board.random(5, np.random.default_rng(seed))
    rng = np.random.default_rng(100 + seed)
    on_map = [sum(1 for _, g in board.drink_sources if g == good) for good in HAUL_GOODS]
    for _ in range(3):
        entrances = _random_entrances(board, rng)
        previous: tuple = ()
        for max_range in range(5):
            found = road_hauls(board, entrances, max_range)
            assert list(found) == sorted(set(found))
            assert set(previous) <= set(found)
            assert all(0 <= n <= limit for haul in found for n, limit in zip(haul, on_map))
            assert set(found) == _reference_road_hauls(board, entrances, max_range)
            previous = found
        assert previous  # every picked square touches a road


@pytest.mark.parametrize("seed", range(6))
def test_air_hauls_grow_with_steps_and_stay_within_the_map(seed):
    # rules: Get food & drinks; C19, R22
    board = Board.random(5, np.random.default_rng(seed))
    on_map = [sum(1 for _, g in board.drink_sources if g == good) for good in HAUL_GOODS]
    starts = [0, board.num_tiles // 2, board.num_tiles - 1]
    previous: tuple = ()
    for steps in range(6):
        found = air_hauls(board, starts, steps)
        assert set(previous) <= set(found)
        assert all(0 <= n <= limit for haul in found for n, limit in zip(haul, on_map))
        previous = found
