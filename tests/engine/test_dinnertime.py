"""Phase 4 Dinnertime: who eats where, what it pays, tips and the CFO."""

from __future__ import annotations

from late_builders import (
    GARDEN_2,
    LOOP,
    NEAR_2,
    STRADDLE,
    TILE_1,
    add_restaurant,
    demand,
    give,
    money,
    position,
    stock,
    two_chains,
)

from fcm_env.data import Good, Milestone
from fcm_env.engine.phases import dinnertime
from fcm_env.engine.state import Phase

B, P, BEER, LEM = Good.BURGER, Good.PIZZA, Good.BEER, Good.LEMONADE



def test_rulebook_example_one_burger_two_beers_to_a_garden_house_earn_125():
    # rules: Phase 4 example — luxuries manager (+$10), garden doubles the unit price,
    # First burger marketed adds $5 per burger (not doubled): 45 + 2 x 40 = 125
    state = two_chains()
    give(state, 0, luxuries_manager=1)
    state.players[0].milestones.add(Milestone.FIRST_BURGER_MARKETED)
    stock(state, 0, burger=1, beer=2)
    demand(state, 2, B, BEER, BEER, garden=GARDEN_2)
    dinnertime.run(state)
    p = state.players[0]
    assert p.cash == 125 and p.income == 125
    assert state.bank == 1000 - 125
    assert p.stock.tolist() == [0, 0, 0, 0, 0] and state.houses[2].demand == []
    assert state.phase == Phase.DINNERTIME


def test_drink_bonus_counts_for_every_drink_and_pizza_bonus_only_for_pizza():
    # rules: First drink marketed — +$5 for all drinks; First pizza marketed — pizza only
    state = two_chains()
    state.players[0].milestones |= {Milestone.FIRST_DRINK_MARKETED, Milestone.FIRST_PIZZA_MARKETED}
    stock(state, 0, burger=1, pizza=1, beer=1, lemonade=1)
    demand(state, 2, B, P, BEER, LEM)
    dinnertime.run(state)
    assert state.players[0].cash == 10 + 15 + 15 + 15


def test_nearer_chain_wins_at_equal_price():
    # rules: Phase 4 — lowest unit price + distance: 10 + 0 beats 10 + 1, even against
    # more waitresses and an earlier seat
    state = two_chains(order=[1, 0])
    give(state, 1, waitress=2)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    dinnertime.run(state)
    assert state.players[0].cash == 10
    assert state.players[1].cash == 6  # only the tips (R36)
    assert state.players[1].stock[B] == 1


def test_cheaper_chain_further_away_wins():
    # rules: Phase 4 — a discount manager (-$3): 7 + 1 = 8 beats 10 + 0 (R33)
    state = two_chains()
    give(state, 1, discount_manager=1)
    stock(state, 0, burger=2)
    stock(state, 1, burger=2)
    demand(state, 2, B, B)
    dinnertime.run(state)
    assert state.players[1].cash == 14 and state.players[0].cash == 0


def test_price_plus_distance_tie_goes_to_more_waitresses():
    # rules: Phase 4 — pricing manager: 9 + 1 = 10 = 10 + 0; the chain with more waitresses wins (R34)
    state = two_chains()
    give(state, 1, pricing_manager=1, waitress=1)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    dinnertime.run(state)
    assert state.players[1].cash == 9 + 3
    assert state.players[0].cash == 0


def test_full_tie_goes_to_the_earlier_seat():
    # rules: Phase 4 — same price + distance, same waitresses: earlier in turn order (R34)
    for order, winner in (([0, 1], 0), ([1, 0], 1)):
        state = two_chains(order=order)
        give(state, 1, pricing_manager=1)
        stock(state, 0, burger=1)
        stock(state, 1, burger=1)
        demand(state, 2, B)
        dinnertime.run(state)
        assert state.players[winner].cash == (10 if winner == 0 else 9)
        assert state.players[1 - winner].cash == 0


def test_first_to_lower_prices_takes_a_dollar_off():
    # rules: First to lower prices — price $1 lower: 9 + 1 = 10 ties 10 + 0; seat 1 has it in turn order [1, 0]
    state = two_chains(order=[1, 0])
    state.players[1].milestones.add(Milestone.FIRST_LOWER_PRICES)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    dinnertime.run(state)
    assert state.players[1].cash == 9


def test_no_road_connection_no_dinner():
    # rules: Phase 4 — house 7 sits in a road loop no restaurant of the two chains touches
    state = two_chains()
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 7, B)
    dinnertime.run(state)
    assert state.houses[7].demand == [B]
    assert state.players[0].cash == state.players[1].cash == 0
    # a restaurant on the loop serves it
    add_restaurant(state, 1, LOOP)
    dinnertime.run(state)
    assert state.houses[7].demand == [] and state.players[1].cash == 10


def test_the_whole_basket_must_be_covered():
    # rules: Phase 4 — a chain with 1 of the 2 burgers wanted does not qualify; the further one does
    state = two_chains()
    stock(state, 0, burger=1, beer=5)
    stock(state, 1, burger=2, beer=1)
    demand(state, 2, B, B, BEER)
    dinnertime.run(state)
    assert state.players[1].cash == 30 and state.players[0].cash == 0
    # nobody covers it: the demand stays
    demand(state, 2, B, B, BEER)
    dinnertime.run(state)
    assert state.houses[2].demand == [B, B, BEER]


def test_houses_eat_in_number_order_and_stock_runs_out():
    # rules: Phase 4 — house 2 eats before house 4; the one burger goes to house 2
    state = position()
    add_restaurant(state, 0, TILE_1)  # distance 1 to both houses
    stock(state, 0, burger=1)
    demand(state, 4, B)
    demand(state, 2, B)
    dinnertime.run(state)
    assert state.houses[2].demand == [] and state.houses[4].demand == [B]
    assert state.players[0].cash == 10


def test_coming_soon_restaurant_does_not_serve():
    # rules: Place or move restaurants — "coming soon" opens only at the end of the turn
    state = position()
    add_restaurant(state, 0, NEAR_2, coming_soon=True)
    add_restaurant(state, 1, TILE_1)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    dinnertime.run(state)
    assert state.players[1].cash == 10 and state.players[0].cash == 0


def test_drive_in_corner_shortens_the_distance():
    # rules: Local manager — drive-in: all four corners are entrances (C11, R32);
    # the NE corner (3,10) is on tile 2 with house 4: distance 0 instead of 1
    state = position()
    add_restaurant(state, 0, STRADDLE)
    add_restaurant(state, 1, NEAR_2)  # tile 0: distance 2 to house 4
    give(state, 1, discount_manager=1)  # 7 + 2 = 9
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 4, B)
    dinnertime.run(state)
    assert state.players[1].cash == 7  # 10 + 1 > 9
    give(state, 0, local_manager=1)  # now 10 + 0 = 10 > 9 still
    give(state, 0, pricing_manager=1)  # 9 + 0 = 9 ties 9; player 0 is earlier in turn order
    stock(state, 1, burger=1)
    demand(state, 4, B)
    dinnertime.run(state)
    assert state.players[0].cash == 9


def test_waitresses_earn_3_or_5_with_first_waitress_even_without_sales():
    # rules: Phase 4 Waitresses; First waitress played; R36
    state = two_chains()
    give(state, 0, waitress=2)
    give(state, 1, waitress=1)
    state.players[1].milestones.add(Milestone.FIRST_WAITRESS)
    dinnertime.run(state)
    assert state.players[0].cash == 6 and state.players[1].cash == 5
    assert state.players[0].income == 6


def test_cfo_adds_half_rounded_up():
    # rules: Phase 4 CFO; C22 — (10 + 3) * 50% = 6.5 -> 7
    state = two_chains()
    give(state, 0, cfo=1, waitress=1)
    stock(state, 0, burger=1)
    demand(state, 2, B)
    dinnertime.run(state)
    assert state.players[0].cash == 20
    assert state.players[0].income == 13


def test_first_to_have_100_from_an_earlier_turn_acts_as_cfo():
    # rules: First to have $100 — the CEO counts as CFO (C27); 20 * 50% = 10
    state = two_chains()
    state.players[0].milestones.add(Milestone.FIRST_HAVE_100)
    state.milestones_gone.add(Milestone.FIRST_HAVE_100)
    stock(state, 0, burger=2)
    demand(state, 2, B, B)
    dinnertime.run(state)
    assert state.players[0].cash == 30


def test_cfo_on_negative_income_rounds_up_towards_plus_infinity():
    # rules: C21, C22, R37 — 4 discount managers: price 10 - 12 = -2, doubled by the garden:
    # 2 burgers cost 8; a waitress brings 3: income -5; CFO -2.5 -> -2
    state = two_chains()
    give(state, 0, discount_manager=4, waitress=1, cfo=1)
    state.players[0].cash = 20
    stock(state, 0, burger=2)
    demand(state, 2, B, B, garden=GARDEN_2)
    before = money(state)
    dinnertime.run(state)
    p = state.players[0]
    assert p.cash == 20 - 8 + 3 - 2 == 13
    assert p.income == -5 and not p.bankrupt
    assert state.bank == 1000 + 8 - 3 + 2
    assert money(state) == before


def test_negative_price_chain_that_cannot_pay_is_bankrupt_but_serves_to_the_end_of_dinnertime():
    # rules: C21 ("a chain that cannot pay is eliminated at the end of the turn"), R35 — price
    # 10 - 12 = -2: house 2's two burgers cost $4, the chain has $3: it pays 3 and is bankrupt.
    # It is still in the game: house 4 eats there too (-2 + distance 2 = 0 beats player 1's
    # 10 + 1 = 11) and the chain pays what it can ($0) for that burger. Cash earned (D34): -3 + 0.
    state = two_chains()
    give(state, 0, discount_manager=4)
    state.players[0].cash = 3
    stock(state, 0, burger=3)
    stock(state, 1, burger=1)
    demand(state, 2, B, B)
    demand(state, 4, B)
    dinnertime.run(state)
    p = state.players[0]
    assert p.bankrupt and p.cash == 0 and p.income == -3
    assert state.bank == 1003
    assert p.stock[B] == 0 and state.houses[4].demand == []
    assert state.players[1].cash == 0 and state.players[1].stock[B] == 1
    assert Milestone.FIRST_HAVE_20 not in p.milestones


def test_cfo_share_of_a_chain_bankrupt_this_turn_is_half_the_cash_it_actually_earned():
    # rules: C21, C22 ("50% of all cash earned this turn in phase 4"), D33, D34 — 4 discount
    # managers: price 10 - 12 = -2; First burger marketed: a burger earns -2 + 5 = 3. The chain has
    # $1. House 2's 3 beers bill -6: it pays its $1 and is bankrupt ($0). House 4 still eats
    # there (-2 + distance 2 = 0; player 1 has no stock): 2 burgers +6 -> $6; a waitress +3 -> $9.
    # Cash earned: -1 + 6 + 3 = 8 (the $5 it could not pay never left it), CFO ceil(8 / 2) = 4 ->
    # $13 (the bills, -6 + 6 + 3 = 3, would give only 2).
    state = two_chains()
    give(state, 0, discount_manager=4, cfo=1, waitress=1)
    state.players[0].milestones.add(Milestone.FIRST_BURGER_MARKETED)
    state.milestones_gone.add(Milestone.FIRST_BURGER_MARKETED)
    state.players[0].cash = 1
    stock(state, 0, burger=2, beer=3)
    demand(state, 2, BEER, BEER, BEER)
    demand(state, 4, B, B)
    before = money(state)
    dinnertime.run(state)
    p = state.players[0]
    assert p.bankrupt and p.income == 8 and p.cash == 13
    assert p.stock.sum() == 0 and state.houses[2].demand == [] and state.houses[4].demand == []
    assert state.bank == 1000 + 1 - 6 - 3 - 4 == 988
    assert money(state) == before


def test_bonus_can_outweigh_a_negative_price():
    # rules: C21 — price -2 and First burger marketed (+5): each burger earns 3 (no bankruptcy at $0)
    state = position()
    add_restaurant(state, 0, NEAR_2)
    give(state, 0, discount_manager=4)
    state.players[0].milestones.add(Milestone.FIRST_BURGER_MARKETED)
    stock(state, 0, burger=2)
    demand(state, 2, B, B)
    dinnertime.run(state)
    assert state.players[0].cash == 6 and not state.players[0].bankrupt


def test_cash_milestones_are_claimed_in_dinnertime():
    # rules: First to have $20 (C26), First to have $100 (C27) — checked after phase 4
    state = two_chains()
    state.players[0].cash = 15
    state.players[1].cash = 95
    give(state, 0, waitress=2)  # +6 -> 21
    give(state, 1, waitress=1)  # +3 -> 98: no $100
    dinnertime.run(state)
    assert state.players[0].milestones == {Milestone.FIRST_HAVE_20}
    assert state.players[1].milestones == {Milestone.FIRST_HAVE_20}
    state.players[1].cash = 100
    dinnertime.run(state)
    assert Milestone.FIRST_HAVE_100 in state.players[1].milestones
    assert state.milestones_this_turn == {Milestone.FIRST_HAVE_20, Milestone.FIRST_HAVE_100}
    # the $100 CEO-as-CFO bonus starts only next turn (C27)
    assert not dinnertime.has_cfo(state, 1)


def test_first_to_have_20_is_claimed_the_moment_a_payment_reaches_20():
    # rules: First to have $20 ("awarded when the player holds $20 or more", C26: at any time,
    # not only at the end of phase 4). Price 10 - 12 = -2 with First burger marketed (+5 a
    # burger): house 2's two burgers earn 2 x 3 = 6, so $18 -> $24; house 4's three beers then
    # cost 3 x 2 = 6: $18 at the end of Dinnertime, and the milestone is kept.
    state = two_chains()
    give(state, 0, discount_manager=4)
    state.players[0].milestones.add(Milestone.FIRST_BURGER_MARKETED)
    state.players[0].cash = 18
    stock(state, 0, burger=2, beer=3)
    demand(state, 2, B, B)
    demand(state, 4, BEER, BEER, BEER)
    dinnertime.run(state)
    p = state.players[0]
    assert p.cash == 18 and p.income == 0 and state.bank == 1000
    assert state.houses[2].demand == [] and state.houses[4].demand == []
    assert Milestone.FIRST_HAVE_20 in p.milestones
    assert Milestone.FIRST_HAVE_20 in state.milestones_this_turn


def test_introductory_game_claims_no_milestones():
    # rules: Introductory game — no milestones
    state = two_chains(variant="introductory")
    state.players[0].cash = 150
    dinnertime.run(state)
    assert state.players[0].milestones == set()
