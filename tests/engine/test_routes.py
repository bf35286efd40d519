"""Drink buyers' hauls (rules: Get food & drinks; C18, C19, R22-R30, R49).

Every scenario but the helper's argument checks runs on both engines (the ``engine`` fixture): a 2-player map
(3 x 3 tiles) is built with ``Board.from_tiles``, player 0 holds a restaurant and buyers at work in Working
9-5 (``on_engine_working.buyers_on``), and the hauls the engine under test offers (the ``haul`` actions of the
PRODUCE decision, ``offered_hauls``) are compared with hauls worked out by hand from the tile grids in
``map_tiles.json``. A haul is ``(beer, lemonade, soda)`` source counts. A cart operator has range 2, a truck
driver 3, each +1 with "First cart operator played"; a zeppelin pilot flies 4 tiles (5). A haul of nothing is
not offered (D22) and a buyer with nothing to bring is not asked. Each scenario's own tiles keep the grids the
rule needs; the rest of the map is filled with tiles without drinks (A B C D F G H I), whose roads the
routes may also use. Board squares are ``(row, col)``; the pictures use ``#`` road, ``H`` house, ``b`` beer,
``l`` lemonade, ``s`` soda, ``r`` player 0's restaurant and ``e`` its entrance.
"""

from __future__ import annotations

import numpy as np
import pytest
from on_engine import full, play
from on_engine_working import buyers_on, offered_hauls

from fcm_env.data import Direction, Good, Milestone
from fcm_env.data import EmployeeType as E
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.board import Board, axis_of
from fcm_env.engine.board.routes import HAUL_GOODS, air_hauls, road_hauls
from fcm_env.engine.game import Game

CART, TRUCK, ZEPPELIN = E.CART_OPERATOR, E.TRUCK_DRIVER, E.ZEPPELIN_PILOT
DRINKS = (Good.BEER, Good.LEMONADE, Good.SODA)  # the order of a haul's counts
FIRST_CART = Milestone.FIRST_CART_OPERATOR


hauls = offered_hauls


# ---------------------------------------------------------------- cart operator / truck driver


def test_source_next_to_the_first_road_square_is_collected_and_the_route_may_stop_at_once(engine):
    # rules: Get food & drinks; C18, R22, R30
    # "N0 B0 C0 / S0 A0 Q0 / D0 F0 H0" (N above S; the squares that matter):
    #      0     5     10
    #   3 |..rr.|..#..|#...#|   entrance (4,2) on tile N: its only road neighbour (5,2) is on S, so
    #   4 |..er.|..#..|#####|     the first step already crosses a border: 1 range (R30).
    #   5 |..#s.|..#..|..#..|   (5,2) has the soda (5,3) beside it: every route has the soda, and a
    #   6 |..#..|..#..|..#..|     route may stop there at once (R22).
    #   7 |#####|#####|#####|   south to (7,2), west to the dead end (7,0) passes the beer (8,0);
    #   8 |b.#..|HH#..|.s...|     east, A (range 2) then Q (range 3): the soda (8,11) beside (7,11).
    # N's own beer (1,1) is 4 borders away round A and B. Cart (range 2): soda, soda + beer; the
    # truck (range 3) also reaches Q: two sodas. Beer and Q's soda exclude each other ((7,0) is a
    # dead end: no U-turn). Were the first step free, the cart would reach Q's soda too.
    game = buyers_on(engine, "N0 B0 C0 / S0 A0 Q0 / D0 F0 H0", [(3, 2, 3)], work={CART: 1, TRUCK: 1})
    assert game.pending.decision == Decision.PRODUCE and game.pending.player == 0
    assert hauls(game, CART) == [(0, 0, 1), (1, 0, 1)]
    assert hauls(game, TRUCK) == [(0, 0, 1), (0, 0, 2), (1, 0, 1)]


def test_diagonal_contact_does_not_collect(engine):
    # rules: Get food & drinks; C18 (a source is collected from a road square orthogonally next to it)
    # "H0 B0 C0 / D0 A0 F0 / G0 S0 I0":
    #      0     5     10
    #   2 |#####|#####|#.HH#|   entrance (3,3) on H -> (2,3); east into B (range 1), south down
    #   3 |.HHer|..#..|#...#|     B's and A's column to (9,7) on A (range 2).
    #   ...
    #   8 |.....|HH#..|.....|   (9,7) touches S's soda (10,8) only diagonally: the cart (range 2)
    #   9 |.....|HH#..|.....|     collects nothing anywhere (the other tiles it reaches have no
    #  10 |HH#..|..#s.|..#..|     drinks), so it is not offered a haul. The truck steps on to (10,7)
    #  11 |HH#..|..#..|..#..|     on S (range 3), beside the soda, and on to (12,5) beside the beer
    #  12 |#####|#####|#####|     (13,5): soda, or soda + beer.
    #  13 |..#..|b.#..|...HH|
    game = buyers_on(engine, "H0 B0 C0 / D0 A0 F0 / G0 S0 I0", [(3, 3, 0)], work={CART: 1, TRUCK: 1})
    assert hauls(game, CART) == []
    assert hauls(game, TRUCK) == [(0, 0, 1), (1, 0, 1)]
    game = buyers_on(engine, "H0 B0 C0 / D0 A0 F0 / G0 S0 I0", [(3, 3, 0)], work={CART: 1})
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT  # not asked (D22)


def test_separate_roads_of_a_drive_in_do_not_meet(engine):
    # rules: Get food & drinks; C18, R29, R32 (a drive-in: every corner is an entrance)
    # "M0 B0 C0 / A0 F0 D0 / G0 H0 I0", a local manager at work:
    #      0     5
    #   0 |..###|..#HH|   restaurant (1,1)-(2,2): corner (2,1) leaves onto M's west road
    #   1 |.erl#|..#HH|     (2,0) (3,0) (4,0) (4,1) (4,2): the soda (3,1); corner (1,2) onto M's
    #   2 |#rr.#|#####|     north road (0,2) (0,3) (0,4) (1,4) (2,4): the lemonade (1,3).
    #   3 |#s...|..#..|   On M the two roads never meet; outside they do, round A, F and B:
    #   4 |###..|..#..|     M -> A -> F -> B -> M crosses 4 borders. Cart and truck: soda or
    #   5 |..#..|HH#..|     lemonade; the truck with First cart operator played (range 4) also
    #   6 |..#..|HH#..|     both. Without the drive-in the entrance (1,1) touches no road.
    #   7 |#####|#####|
    layout, drive_in = "M0 B0 C0 / A0 F0 D0 / G0 H0 I0", [(1, 1, 0)]
    game = buyers_on(engine, layout, drive_in, work={E.LOCAL_MANAGER: 1, CART: 1, TRUCK: 1})
    assert hauls(game, CART) == [(0, 0, 1), (0, 1, 0)]
    assert hauls(game, TRUCK) == [(0, 0, 1), (0, 1, 0)]
    game = buyers_on(engine, layout, drive_in, work={E.LOCAL_MANAGER: 1, TRUCK: 1}, milestones={FIRST_CART})
    assert hauls(game, TRUCK) == [(0, 0, 1), (0, 1, 0), (0, 1, 1)]
    game = buyers_on(engine, layout, drive_in, work={TRUCK: 1}, milestones={FIRST_CART})
    assert game.current_player == 1 and hauls(game, TRUCK) == []  # no drive-in: not asked (D22)


def test_range_counts_one_per_tile_border_and_partial_routes_give_every_smaller_haul(engine):
    # rules: Get food & drinks; C9, R22
    # "N0 S0 L0 / B0 A0 O0 / C0 D0 F0":
    #      0     5     10
    #   0 |..#..|..#s.|..#..|
    #   1 |.b#..|..#..|..#..|
    #   2 |#####|#####|#####|
    #   3 |er...|b.#..|...l.|
    #   4 |rr...|..#..|.....|
    #   5 |..#HH|..#..|.b#..|
    #   6 |..#HH|..#..|..#..|
    #   7 |#####|#####|#####|
    # Entrance (3,0) -> first road (2,0), a dead end to the west, so every route drives east:
    #   (2,1) beer of N (1,1)                                              range 0
    #   cross to S: (2,5) beer of S (3,5); then either S's dead-end arm
    #     north to (0,7) (soda (0,8)), or on east, or south                range 1
    #   cross to L: (2,13) lemonade (3,13); or south into A                range 2
    #   from A east into O: (5,12) beer of O (5,11)                        range 3
    # Cart (range 2): every smaller haul too; the truck adds the three beers.
    game = buyers_on(engine, "N0 S0 L0 / B0 A0 O0 / C0 D0 F0", [(3, 0, 0)], work={CART: 1, TRUCK: 1})
    assert hauls(game, CART) == [(1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 1, 0)]
    assert hauls(game, TRUCK) == [(1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 1, 0), (3, 0, 0)]


def test_two_routes_with_the_same_drinks_are_one_choice(engine):
    # rules: Get food & drinks; C18
    # "N0 S0 Q0 / B0 A0 H0 / C0 D0 F0": as above, but the third tile Q has a soda at (3,11) beside
    # (2,11). At range 2 the soda of S (via its north arm) and the soda of Q (straight on east)
    # both give (2, 0, 1): one action. Both sodas at once would need a U-turn; the tiles below
    # have no drinks, so the truck offers the same.
    game = buyers_on(engine, "N0 S0 Q0 / B0 A0 H0 / C0 D0 F0", [(3, 0, 0)], work={CART: 1, TRUCK: 1})
    assert hauls(game, CART) == [(1, 0, 0), (2, 0, 0), (2, 0, 1)]
    assert hauls(game, TRUCK) == [(1, 0, 0), (2, 0, 0), (2, 0, 1)]


def test_no_u_turn_so_the_sources_of_two_dead_end_arms_cannot_both_be_collected(engine):
    # rules: Get food & drinks; C18, R23
    # "N0 Q0 F0 / B0 A0 H0 / C0 D0 G0":
    #      0     5     10
    #   0 |..#..|..#..|HH#..|
    #   1 |.b#..|..#..|HH#..|
    #   2 |#####|#####|#####|
    #   3 |..er.|.s...|.....|
    #   4 |..rr.|.....|.....|
    # Entrance (3,2) faces the crossing (2,2). The beer (1,1) is reached west at (2,1) or
    # north at (1,2); both arms end at the board edge, so after the beer the route would have to
    # reverse to drive east to the soda (3,6) beside (2,6) (range 1). East of the soda F's
    # roads end at the edge too, and no road leaves the top row southwards: no loop to turn on.
    # So even the truck with First cart operator played (range 4): beer or soda, never both.
    layout = "N0 Q0 F0 / B0 A0 H0 / C0 D0 G0"
    game = buyers_on(engine, layout, [(3, 2, 0)], work={CART: 1})
    assert hauls(game, CART) == [(0, 0, 1), (1, 0, 0)]
    game = buyers_on(engine, layout, [(3, 2, 0)], work={TRUCK: 1}, milestones={FIRST_CART})
    assert hauls(game, TRUCK) == [(0, 0, 1), (1, 0, 0)]


def test_turning_round_on_a_loop_is_allowed_and_a_source_passed_twice_counts_once(engine):
    # rules: Get food & drinks; C18, R23, R24, R26
    # "C0 S0 F0 / D2 A0 B0 / G0 H0 I0":
    #      0     5     10
    #   0 |#####|rr#s.|HH#..|
    #   1 |#.HH#|re#..|HH#..|
    #   2 |#.HH#|#####|#####|
    #   3 |#...#|b.#..|.....|
    #   4 |#####|..#..|.....|
    # Entrance (1,6) touches (2,6) and (1,7) of S. The soda (0,8) is only beside (0,7), the
    # dead end of the north arm; the beer (3,5) is beside (2,5) and, across the border,
    # beside (3,4) on C's ring (R26). Beer then soda: drive west onto the ring (range 1),
    # go round it, come back east (range 2) past the beer again, north to (0,7): one beer, one
    # soda. F (east) and A (south) have no drinks and no loop back to S within range 3.
    game = buyers_on(engine, "C0 S0 F0 / D2 A0 B0 / G0 H0 I0", [(0, 5, 2)], work={CART: 1, TRUCK: 1})
    assert hauls(game, CART) == [(0, 0, 1), (1, 0, 0), (1, 0, 1)]
    assert hauls(game, TRUCK) == [(0, 0, 1), (1, 0, 0), (1, 0, 1)]


def test_bridge_roads_do_not_meet(engine):
    # rules: Get food & drinks; C31, R49
    # "P0 A0 B0 / D0 F0 H0 / C0 G0 I0":
    #      0     5
    #   0 |..#er|..#..|   entrance (0,3) -> N-S road (0,2): straight over the bridge (2,2) to
    #   1 |l.#rr|..#..|     (4,2), beside the beer (4,3); it may not turn west to the lemonade.
    #   2 |#####|#####|   entrance (3,0) (a restaurant at (3,0)-(4,1)) -> E-W road (2,0),
    #   3 |er#..|HH#..|     beside the lemonade (1,0); straight under the bridge east; it may
    #   4 |rr#b.|HH#..|     not turn south to the beer.
    #   5 |#####|HH#..|   D's top road touches the beer (4,3) from (5,3), across the border
    #   6 |#HH.#|HH#..|     (R26): the E-W road reaches it round A, F and D (3 borders), the
    #   7 |#HH.#|#####|     N-S road the lemonade round D, F, A (4 borders, back into P).
    # Cart: beer alone, lemonade alone; the truck from the E-W road also lemonade + beer.
    layout = "P0 A0 B0 / D0 F0 H0 / C0 G0 I0"
    game = buyers_on(engine, layout, [(0, 3, 0)], work={CART: 1, TRUCK: 1})
    assert hauls(game, CART) == [(1, 0, 0)] and hauls(game, TRUCK) == [(1, 0, 0)]
    game = buyers_on(engine, layout, [(3, 0, 0)], work={CART: 1, TRUCK: 1})
    assert hauls(game, CART) == [(0, 1, 0)] and hauls(game, TRUCK) == [(0, 1, 0), (1, 1, 0)]
    game = buyers_on(engine, layout, [(0, 3, 0)], work={TRUCK: 1}, milestones={FIRST_CART})
    assert hauls(game, TRUCK) == [(1, 0, 0), (1, 1, 0)]


def test_no_road_no_haul(engine):
    # rules: Get food & drinks; C8 (an entrance must touch a road to be used)
    # "A0 B0 C0 / D0 F0 G0 / H0 I0 M0": a restaurant at (13,13)-(14,14) in M's corner, entrance
    # (14,14): its neighbours are the restaurant and the board edge, no road; M's lemonade and soda
    # stay out of reach even at range 4. A chain without restaurants has no entrance at all.
    layout = "A0 B0 C0 / D0 F0 G0 / H0 I0 M0"
    for restaurants in ([(13, 13, 2)], []):
        game = buyers_on(engine, layout, restaurants, work={CART: 1, TRUCK: 1}, milestones={FIRST_CART})
        assert hauls(game, CART) == [] and hauls(game, TRUCK) == []
        assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT  # not asked (D22)


def test_the_route_helpers_check_their_arguments():
    # python-only: the Python route helpers' argument checks (a negative range, an entrance or tile
    # off the map) and their fixed (beer, lemonade, soda) order; in play the range is a card's and
    # the entrances are the restaurants', so no position reaches them.
    board = Board.from_tiles("M0 B0 C0 / A0 F0 D0 / G0 H0 I0")
    assert road_hauls(board, [(2, 1)], -1) == () and road_hauls(board, [], 3) == ()
    with pytest.raises(ValueError):
        road_hauls(board, [(15, 0)], 1)
    assert air_hauls(board, [1], -1) == ()
    with pytest.raises(ValueError):
        air_hauls(board, [9], 1)
    assert HAUL_GOODS == DRINKS


# ---------------------------------------------------------------- zeppelin pilot

AIR = "N0 Q0 B0 / A0 S0 C0 / D0 F0 G0"  # N: beer   Q: soda   A: -   S: beer, soda   (the rest: -)


def test_zeppelin_collects_its_start_tile_and_moves_orthogonally(engine):
    # rules: Get food & drinks; C19, R27
    # "N0 Q0 B0 / A0 S0 C0 / D0 F0 G0": tiles (0,0) N (1 beer), (0,1) Q (1 soda), (1,0) A
    # (nothing), (1,1) S (1 beer, 1 soda); no other tile has a drink. From A: N and S are next
    # to it, Q is diagonal (two steps, via N or S). A path never enters a tile twice and N's only
    # neighbours are A and Q, so N and S together need Q. Within 4 steps (5 likewise):
    #   A+N (1,0,0); A+S or A+N+Q (1,0,1); A+S+Q (1,0,2); all four (2,0,2);
    #   never Q alone (0,0,1) (diagonal), never N+S without Q (2,0,1).
    for milestones in ((), {FIRST_CART}):
        game = buyers_on(engine, AIR, [(5, 0, 0)], work={ZEPPELIN: 1}, milestones=milestones)
        assert hauls(game, ZEPPELIN) == [(1, 0, 0), (1, 0, 1), (1, 0, 2), (2, 0, 2)]
    # from S the start tile counts: every haul holds S's beer and soda; S+A+N now gives (2,0,1)
    game = buyers_on(engine, AIR, [(5, 5, 0)], work={ZEPPELIN: 1})
    assert hauls(game, ZEPPELIN) == [(1, 0, 1), (1, 0, 2), (2, 0, 1), (2, 0, 2)]
    # several restaurants (on N and on Q): the union of each start's flights (N alone, Q alone...)
    game = buyers_on(engine, AIR, [(3, 0, 0), (3, 8, 0)], work={ZEPPELIN: 1})
    assert hauls(game, ZEPPELIN) == [(0, 0, 1), (1, 0, 0), (1, 0, 1), (1, 0, 2), (2, 0, 1), (2, 0, 2)]


def test_zeppelin_never_enters_a_tile_twice(engine):
    # rules: Get food & drinks; C19
    # "N0 A0 Q0 / B0 C0 D0 / F0 G0 H0": N A Q in the top row, start on A (restaurant (0,5)):
    # beer on the left, soda on the right. Both would need A -> N -> A -> Q, re-entering A: never
    # at 4 steps. With First cart operator played (5 steps) the long way round the second row
    # does it: A -> N -> B -> C -> D -> Q.
    layout = "N0 A0 Q0 / B0 C0 D0 / F0 G0 H0"
    game = buyers_on(engine, layout, [(0, 5, 0)], work={ZEPPELIN: 1})
    assert hauls(game, ZEPPELIN) == [(0, 0, 1), (1, 0, 0)]
    game = buyers_on(engine, layout, [(0, 5, 0)], work={ZEPPELIN: 1}, milestones={FIRST_CART})
    assert hauls(game, ZEPPELIN) == [(0, 0, 1), (1, 0, 0), (1, 0, 1)]


# ---------------------------------------------------------------- drinks per source


@pytest.mark.parametrize(("buyer", "errand", "per_source"), [
    (CART, False, 2), (TRUCK, False, 3), (CART, True, 3), (TRUCK, True, 4),
])
def test_a_haul_brings_the_drinks_per_source_of_its_buyer(engine, buyer, errand, per_source):
    # rules: Get food & drinks (cart 2, truck 3, +1 with "First errand boy played"); R25 — the haul
    # (2, 0, 1) of test_range_counts_...'s map (two beers, S's soda) brings 2 x per_source beer
    # and per_source soda (stock: burger, pizza, beer, lemonade, soda)
    milestones = {Milestone.FIRST_ERRAND_BOY} if errand else ()
    game = buyers_on(engine, "N0 S0 L0 / B0 A0 O0 / C0 D0 F0", [(3, 0, 0)], work={buyer: 1}, milestones=milestones)
    play(game, [Action.haul(buyer, 2, 0, 1)])
    assert full(game).players[0].stock.tolist() == [0, 0, 2 * per_source, 0, per_source]


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
                counts[DRINKS.index(Good(good))] += 1
        out.add(tuple(counts))
    return out


def _reference_air_hauls(board: Board, starts, steps: int) -> set[tuple[int, int, int]]:
    """Every flight of at most ``steps`` moves between orthogonal tiles, no tile twice: its tiles' sources."""
    on_tile = [[0, 0, 0] for _ in range(board.num_tiles)]
    for (r, c), good in board.drink_sources:
        on_tile[board.tile_at(r, c)][DRINKS.index(Good(good))] += 1
    out = set()

    def fly(tile: int, visited: frozenset, left: int) -> None:
        out.add(tuple(sum(on_tile[t][i] for t in visited) for i in range(3)))
        if left:
            for nxt in board.tile_neighbors(tile):
                if nxt not in visited:
                    fly(nxt, visited | {nxt}, left - 1)

    for start in starts:
        fly(start, frozenset({start}), steps)
    return out


def _random_drive_ins(board: Board, rng: np.random.Generator, count: int = 3) -> list[tuple[int, int, int]]:
    """``count`` restaurants on empty printed squares, apart, each with a corner next to a road."""
    spots, taken = [], set()
    while len(spots) < count:
        r, c = (int(x) for x in rng.integers(0, (board.height - 1, board.width - 1)))
        squares = {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)}
        if squares & taken or not all(board.is_empty_printed(*sq) for sq in squares):
            continue
        if not any(board.has_road_access[sq] for sq in squares):
            continue
        spots.append((r, c, int(rng.integers(4))))
        taken |= squares
    return spots


@pytest.mark.parametrize("seed", range(6))
def test_hauls_grow_with_range_stay_within_the_map_and_match_a_plain_search(engine, seed):
    # rules: Get food & drinks; C18, C19, R22 (a longer range may always stop early), R32: three
    # drive-ins (every corner an entrance) on the seeded map of 2-5 players; the cart (2), truck
    # (3) and zeppelin (4) offer exactly the non-empty hauls of a plain search, and one more range
    # each with First cart operator played (the cart's 3 is the truck's 3)
    players = 2 + seed % 4
    board = Game.new(players, seed).board
    spots = _random_drive_ins(board, np.random.default_rng(100 + seed))
    entrances = [(r + dr, c + dc) for r, c, _ in spots for dr in (0, 1) for dc in (0, 1)]
    starts = sorted({board.tile_at(*sq) for sq in entrances})
    on_map = [sum(1 for _, g in board.drink_sources if g == good) for good in DRINKS]
    work = {E.LOCAL_MANAGER: 1, CART: 1, TRUCK: 1, ZEPPELIN: 1}
    offered = {}
    for bonus, milestones in ((0, ()), (1, {FIRST_CART})):
        game = buyers_on(engine, None, spots, work=work, milestones=milestones, num_players=players, seed=seed)
        for etype, reach in ((CART, 2), (TRUCK, 3)):
            found = hauls(game, etype)
            assert found == sorted(_reference_road_hauls(board, entrances, reach + bonus) - {(0, 0, 0)})
            offered[etype, reach + bonus] = found
        found = hauls(game, ZEPPELIN)
        assert found == sorted(_reference_air_hauls(board, starts, 4 + bonus) - {(0, 0, 0)})
        offered[ZEPPELIN, 4 + bonus] = found
    assert offered[CART, 3] == offered[TRUCK, 3]
    for etype, low, high in ((CART, 2, 3), (TRUCK, 3, 4), (ZEPPELIN, 4, 5)):
        assert set(offered[etype, low]) <= set(offered[etype, high])
    for found in offered.values():
        assert all(0 <= n <= limit for haul in found for n, limit in zip(haul, on_map))
    assert offered[ZEPPELIN, 4]  # every map has drinks within 4 tiles of any start
