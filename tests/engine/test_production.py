"""Phase 3 Working 9-5: get food & drinks (rules: Get food & drinks; C18-C20, C28, R22-R28, R43, R52).

Drink routes use this hand-built 2-player map (a haul is (beer, lemonade, soda) sources):

       0     5     10
  0 |..#..|..#s.|..#..|    player 0's restaurant: squares (3,0)-(4,1), entrance NW (3,0),
  1 |.b#..|..#..|..#l.|    leaving onto the dead end (2,0), so every route drives east:
  2 |#####|#####|###..|      (2,1) beer (1,1) of tile N                      range 0
  3 |RR...|b.#..|..#..|      cross into S: (2,5) beer (3,5)                  range 1
  4 |RR...|..#..|..#..|        S's north arm, dead end at (0,7): soda (0,8)  range 1
  5 |..#..|.....|.b#..|      cross into L: north to the dead end (0,12):
  6 |..#..|.....|..#..|        lemonade (1,13)                               range 2
  7 |#####|#.7H#|#####|      or south, cross into O: (5,12) beer (5,11)      range 3
  8 |2H#..|#.HH#|..#..|    No U-turns (R23), so the soda of S, the lemonade of L and the
  9 |HH#..|#####|..#..|    beer of O exclude each other. S's south arm ends at (4,7).
 10 |#####|###..|10#..|
 11 |#.5H#|#b...|HH#..|    Non-empty hauls: range 2 (cart operator)  (1,0,0) (2,0,0) (2,0,1)
 12 |#.HH#|#.8H#|#####|    (2,1,0); range 3 (truck driver, or cart operator with First cart
 13 |#...#|..HH#|RR...|    operator played) adds (3,0,0). Player 1's restaurant: (13,10)-(14,11).
 14 |#####|..###|RR...|
"""

from __future__ import annotations

import pytest
from builders import full_fingerprint
from on_engine import award, full, load, play

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good, Milestone
from fcm_env.engine.actions import Action, Decision, IllegalActionError
from fcm_env.engine.board import Board
from fcm_env.engine.game import Game
from fcm_env.engine.phases import working
from fcm_env.engine.state import Restaurant

ROUTE = "N0 S0 L3 / A0 D2 O0 / C0 E0 F0"
ROUTE_HOME = {0: [(3, 0, 0)], 1: [(13, 10, 0)]}
CROSS = "A0 B0 P0 / O0 R0 S0 / G0 T0 N0"
CROSS_HOME = {0: [(0, 0, 2)], 1: [(3, 10, 1)]}
DRY = "A0 B0 C0 / D0 F0 G0 / H0 I0 J0"  # nine tiles without a drink source
DRY_HOME = {0: [(0, 0, 2)], 1: [(3, 8, 0)]}


def working_on(engine, layout, restaurants, *, work=None, milestones=(), supply=None):
    """Round 2, phase 3 on ``Board.from_tiles(layout)`` (the position of ``builders.phase3_game``), loaded on
    ``engine`` at the start of Working 9-5, player 0 first in turn order; the engine then answers player 0's
    recruiting and training with "done" and stops at its next decision (a later sub-step, or the next
    player when player 0 has nothing more to do).

    ``restaurants`` maps player -> [(row, col, orientation)]; ``work`` maps EmployeeType -> count for player 0
    (taken from the supply); ``milestones`` are player 0's, claimed in an earlier turn; ``supply`` overrides
    pile sizes.
    """
    state = Game.new(2, 0, board=Board.from_tiles(layout)).state
    state.round = 2
    state.turn_order = [0, 1]
    for p, spots in restaurants.items():
        state.players[p].restaurants = [Restaurant(*spot) for spot in spots]
    for etype, count in (work or {}).items():
        state.supply[etype] -= count
        state.players[0].work[etype] += count
    for milestone in milestones:
        award(state, 0, milestone)
    for etype, count in (supply or {}).items():
        state.supply[etype] = count
    working.start(state)
    game = load(engine, state)
    while game.pending.player == 0 and game.pending.decision in (Decision.RECRUIT, Decision.TRAIN):
        play(game, [Action.pass_()])
    return game


def stock(game, player=0):
    return full(game).players[player].stock.tolist()


def hauls(game, etype):
    return sorted(tuple(a.args[1:]) for a in game.legal_actions() if a.args and a.args[0] == etype)


# ---------------------------------------------------------------- kitchen


def test_kitchen_trainee_takes_one_burger_or_one_pizza_and_first_pizza_brings_a_pizza_cook(engine):
    # rules: Get food & drinks (kitchen trainee: one burger or pizza); First pizza produced; C28
    game = working_on(engine, CROSS, CROSS_HOME, work={E.KITCHEN_TRAINEE: 1})
    assert game.pending.decision == Decision.PRODUCE and game.pending.player == 0
    assert game.legal_actions() == [
        Action.pass_(), Action.produce(E.KITCHEN_TRAINEE, Good.BURGER), Action.produce(E.KITCHEN_TRAINEE, Good.PIZZA),
    ]
    cooks = int(full(game).supply[E.PIZZA_COOK])
    play(game, [Action.produce(E.KITCHEN_TRAINEE, Good.PIZZA)])
    state = full(game)
    p = state.players[0]
    assert p.stock.tolist() == [0, 1, 0, 0, 0]
    assert Milestone.FIRST_PIZZA_PRODUCED in p.milestones
    assert Milestone.FIRST_BURGER_PRODUCED not in p.milestones
    assert p.beach[E.PIZZA_COOK] == 1 and state.supply[E.PIZZA_COOK] == cooks - 1
    assert p.work[E.PIZZA_COOK] == 0  # on the beach: it cannot act this turn
    assert game.current_player == 1  # nothing else to do


def test_cooks_produce_their_full_amount_only(engine):
    # rules: Get food & drinks (burger cook 3, pizza chef 8); R52 all or nothing
    game = working_on(engine, CROSS, CROSS_HOME, work={E.BURGER_COOK: 2, E.PIZZA_CHEF: 1},
                      milestones={Milestone.FIRST_BURGER_PRODUCED, Milestone.FIRST_PIZZA_PRODUCED})
    assert game.legal_actions() == [
        Action.pass_(), Action.produce(E.BURGER_COOK, Good.BURGER), Action.produce(E.PIZZA_CHEF, Good.PIZZA),
    ]
    play(game, [Action.produce(E.BURGER_COOK, Good.BURGER)])
    assert stock(game) == [3, 0, 0, 0, 0]
    assert game.legal_actions() == [
        Action.pass_(), Action.produce(E.BURGER_COOK, Good.BURGER), Action.produce(E.PIZZA_CHEF, Good.PIZZA),
    ]
    play(game, [Action.produce(E.PIZZA_CHEF, Good.PIZZA)])
    assert stock(game) == [3, 8, 0, 0, 0]
    assert game.legal_actions() == [Action.pass_(), Action.produce(E.BURGER_COOK, Good.BURGER)]
    used = full(game).turn.used
    assert used[E.BURGER_COOK] == 1 and used[E.PIZZA_CHEF] == 1
    play(game, [Action.produce(E.BURGER_COOK, Good.BURGER)])
    assert stock(game) == [6, 8, 0, 0, 0]
    assert game.current_player == 1


def test_first_burger_produced_brings_a_burger_cook_onto_the_beach_that_does_not_act(engine):
    # rules: First burger produced — a burger cook at once, on the beach (training is over); C28, R43
    game = working_on(engine, CROSS, CROSS_HOME, work={E.BURGER_COOK: 1})
    cooks = int(full(game).supply[E.BURGER_COOK])
    play(game, [Action.produce(E.BURGER_COOK, Good.BURGER)])
    state = full(game)
    p = state.players[0]
    assert Milestone.FIRST_BURGER_PRODUCED in p.milestones
    assert p.beach[E.BURGER_COOK] == 1 and p.work[E.BURGER_COOK] == 1
    assert state.supply[E.BURGER_COOK] == cooks - 1
    assert p.stock.tolist() == [3, 0, 0, 0, 0]
    assert game.current_player == 1  # the new cook brings nothing this turn


def test_first_burger_produced_with_an_empty_pile_brings_nothing(engine):
    # rules: First burger/pizza produced — "If there are no more cook cards ... you receive nothing"; C28
    game = working_on(engine, CROSS, CROSS_HOME, work={E.KITCHEN_TRAINEE: 1}, supply={E.BURGER_COOK: 0})
    play(game, [Action.produce(E.KITCHEN_TRAINEE, Good.BURGER)])
    state = full(game)
    p = state.players[0]
    assert Milestone.FIRST_BURGER_PRODUCED in p.milestones
    assert p.beach[E.BURGER_COOK] == 0 and state.supply[E.BURGER_COOK] == 0
    assert p.stock.tolist() == [1, 0, 0, 0, 0]


def test_a_pizza_chef_and_a_kitchen_trainee_each_bring_the_first_cook_of_their_kind(engine):
    # rules: Get food & drinks (pizza chef 8, R52); First pizza produced, First burger produced; C28,
    # R43 — the chef's 8 pizzas put a pizza cook on the beach; the chef is then used; the trainee's
    # burger brings a burger cook
    game = working_on(engine, CROSS, CROSS_HOME, work={E.KITCHEN_TRAINEE: 1, E.PIZZA_CHEF: 1})
    assert game.legal_actions() == [
        Action.pass_(), Action.produce(E.KITCHEN_TRAINEE, Good.BURGER), Action.produce(E.KITCHEN_TRAINEE, Good.PIZZA),
        Action.produce(E.PIZZA_CHEF, Good.PIZZA),
    ]
    cooks = int(full(game).supply[E.PIZZA_COOK])
    play(game, [Action.produce(E.PIZZA_CHEF, Good.PIZZA)])
    state = full(game)
    p = state.players[0]
    assert p.stock[Good.PIZZA] == 8 and Milestone.FIRST_PIZZA_PRODUCED in p.milestones
    assert p.beach[E.PIZZA_COOK] == 1 and state.supply[E.PIZZA_COOK] == cooks - 1
    assert game.legal_actions() == [  # the chef is used
        Action.pass_(), Action.produce(E.KITCHEN_TRAINEE, Good.BURGER), Action.produce(E.KITCHEN_TRAINEE, Good.PIZZA),
    ]
    play(game, [Action.produce(E.KITCHEN_TRAINEE, Good.BURGER)])
    p = full(game).players[0]
    assert p.stock.tolist() == [1, 8, 0, 0, 0] and p.beach[E.BURGER_COOK] == 1
    assert Milestone.FIRST_BURGER_PRODUCED in p.milestones and game.current_player == 1


# ---------------------------------------------------------------- errand boy


def test_errand_boy_takes_one_drink_of_any_kind(engine):
    # rules: Get food & drinks (errand boy: one drink of your choice, no route); C16-style any drink
    game = working_on(engine, DRY, DRY_HOME, work={E.ERRAND_BOY: 1})
    assert game.legal_actions() == [Action.pass_()] + [
        Action.produce(E.ERRAND_BOY, g) for g in (Good.BEER, Good.LEMONADE, Good.SODA)
    ]
    play(game, [Action.produce(E.ERRAND_BOY, Good.LEMONADE)])
    assert stock(game) == [0, 0, 0, 1, 0]


def test_errand_boy_takes_two_of_one_drink_with_first_errand_boy_played(engine):
    # rules: First errand boy played; R25 — two drinks of the same type
    game = working_on(engine, DRY, DRY_HOME, work={E.ERRAND_BOY: 2}, milestones={Milestone.FIRST_ERRAND_BOY})
    play(game, [Action.produce(E.ERRAND_BOY, Good.SODA), Action.produce(E.ERRAND_BOY, Good.BEER)])
    assert stock(game) == [0, 0, 2, 0, 2]


# ---------------------------------------------------------------- cart operators, trucks, zeppelins


def test_cart_operator_offers_every_distinct_haul_within_range_2_at_2_drinks_per_source(engine):
    # rules: Get food & drinks (cart operator: range 2, 2 drinks per symbol); C18, R22, R23
    game = working_on(engine, ROUTE, ROUTE_HOME, work={E.CART_OPERATOR: 1})
    assert hauls(game, E.CART_OPERATOR) == [(1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 1, 0)]
    play(game, [Action.haul(E.CART_OPERATOR, 2, 0, 1)])
    assert stock(game) == [0, 0, 4, 0, 2]
    assert game.current_player == 1


def test_first_cart_operator_adds_one_range_and_first_errand_boy_one_drink_per_source(engine):
    # rules: First cart operator played (+1 range), First errand boy played (+1 drink per source)
    game = working_on(engine, ROUTE, ROUTE_HOME, work={E.CART_OPERATOR: 1},
                      milestones={Milestone.FIRST_CART_OPERATOR, Milestone.FIRST_ERRAND_BOY})
    assert hauls(game, E.CART_OPERATOR) == [(1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 1, 0), (3, 0, 0)]
    play(game, [Action.haul(E.CART_OPERATOR, 3, 0, 0)])
    assert stock(game) == [0, 0, 9, 0, 0]


def test_truck_driver_has_range_3_and_3_drinks_per_source(engine):
    # rules: Get food & drinks (truck driver: range 3, 3 drinks per symbol)
    game = working_on(engine, ROUTE, ROUTE_HOME, work={E.TRUCK_DRIVER: 1, E.CART_OPERATOR: 1})
    assert hauls(game, E.TRUCK_DRIVER) == [(1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 1, 0), (3, 0, 0)]
    play(game, [Action.haul(E.TRUCK_DRIVER, 2, 1, 0)])
    assert stock(game) == [0, 0, 6, 3, 0]
    # C18, R24: the cart operator may collect from the same sources again
    play(game, [Action.haul(E.CART_OPERATOR, 2, 1, 0)])
    assert stock(game) == [0, 0, 10, 5, 0]


def test_a_haul_with_first_errand_boy_then_the_errand_boy_brings_two_of_one_drink(engine):
    # rules: R25 — a cart operator brings 2 drinks a source, 3 with First errand boy played: (2,0,1)
    # -> 6 beer, 3 soda; the errand boy then brings 2 of one drink with the milestone, and nothing is
    # left to do
    game = working_on(engine, ROUTE, ROUTE_HOME, work={E.CART_OPERATOR: 1, E.ERRAND_BOY: 1},
                      milestones={Milestone.FIRST_ERRAND_BOY})
    play(game, [Action.haul(E.CART_OPERATOR, 2, 0, 1)])
    assert stock(game) == [0, 0, 6, 0, 3]
    assert game.legal_actions() == [Action.pass_()] + [
        Action.produce(E.ERRAND_BOY, g) for g in (Good.BEER, Good.LEMONADE, Good.SODA)
    ]
    play(game, [Action.produce(E.ERRAND_BOY, Good.LEMONADE)])
    assert stock(game) == [0, 0, 6, 2, 3]
    assert game.current_player == 1


def test_zeppelin_flies_4_tiles_and_5_with_first_cart_operator(engine):
    # rules: Get food & drinks (zeppelin: range 4 ignoring roads, every symbol on every tile flown
    # over, the start tile included, no tile twice); C19, R27. Sources per tile of the map:
    #   N: beer     S: beer, soda    L: lemonade
    #   A: -        D: -             O: beer
    #   C: -        E: beer          F: -
    # From N, 4 steps reach at most 3 beers (N S O via L, or N S E via D); the 4 beers of
    # N S O E need the 5-step flight N S L O F E, which also passes the soda and the lemonade.
    game = working_on(engine, ROUTE, ROUTE_HOME, work={E.ZEPPELIN_PILOT: 1})
    four = hauls(game, E.ZEPPELIN_PILOT)
    assert (1, 0, 0) in four and (3, 1, 1) in four and (3, 0, 1) in four
    assert max(b for b, _, _ in four) == 3 and (4, 1, 1) not in four
    play(game, [Action.haul(E.ZEPPELIN_PILOT, 3, 1, 1)])
    assert stock(game) == [0, 0, 6, 2, 2]
    game = working_on(engine, ROUTE, ROUTE_HOME, work={E.ZEPPELIN_PILOT: 1},
                      milestones={Milestone.FIRST_CART_OPERATOR})
    five = hauls(game, E.ZEPPELIN_PILOT)
    assert set(four) < set(five) and (4, 1, 1) in five


def test_a_buyer_whose_routes_find_no_drink_is_not_asked(engine):
    # D22: a haul of nothing is the same as not using the card, so it is not offered, and a
    # decision whose only action would be "done" is skipped (no drink source on this map)
    game = working_on(engine, DRY, DRY_HOME, work={E.CART_OPERATOR: 1, E.ZEPPELIN_PILOT: 1})
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT
    game = working_on(engine, DRY, DRY_HOME, work={E.CART_OPERATOR: 1, E.KITCHEN_TRAINEE: 1})
    assert game.legal_actions() == [
        Action.pass_(), Action.produce(E.KITCHEN_TRAINEE, Good.BURGER), Action.produce(E.KITCHEN_TRAINEE, Good.PIZZA),
    ]


def test_passing_ends_food_and_drinks_and_illegal_uses_change_nothing(engine):
    # rules: Working 9-5 — the actions of kitchen staff and buyers are optional
    game = working_on(engine, ROUTE, ROUTE_HOME, work={E.CART_OPERATOR: 1, E.BURGER_COOK: 1})
    assert game.pending.decision == Decision.PRODUCE
    before = full_fingerprint(full(game))
    for bad in (Action.haul(E.CART_OPERATOR, 3, 0, 0), Action.haul(E.CART_OPERATOR, 0, 0, 0),
                Action.produce(E.BURGER_COOK, Good.PIZZA), Action.produce(E.KITCHEN_TRAINEE, Good.BURGER),
                Action.haul(E.TRUCK_DRIVER, 1, 0, 0)):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
    assert full_fingerprint(full(game)) == before
    play(game, [Action.pass_()])
    assert stock(game) == [0, 0, 0, 0, 0] and game.current_player == 1
