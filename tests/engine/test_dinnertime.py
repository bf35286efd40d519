"""Phase 4 Dinnertime: who eats where, what it pays, tips and the CFO.

Every scenario but the map check runs on both engines (the ``engine`` fixture): the position is built as a
Python ``GameState`` in phase DINNERTIME with nothing pending (still to run), loaded on the engine under test,
which runs Dinnertime itself and stops at Payday's first decision (``on_engine.dine``); the outcome is read
back whole (``full``). Unit price $10 (pricing manager -1, discount manager -3, luxuries manager +10, First to
lower prices -1); a garden doubles it; "First ... marketed" adds $5 per item (not doubled); waitresses $3 each
($5 with First waitress played); the CFO adds half the phase's cash, rounded up.
"""

from __future__ import annotations

import pytest
from late_builders import (
    GARDEN_2,
    LOOP,
    NEAR_2,
    NEAR_2_EAST,
    STRADDLE,
    TILE_1,
    add_restaurant,
    chain_that_cannot_pay,
    demand,
    give,
    money,
    position,
    stock,
    two_chains,
)
from on_engine import award, dine, full, settle

from fcm_env.data import Good, Milestone
from fcm_env.engine.state import Phase

B, P, BEER, LEM = Good.BURGER, Good.PIZZA, Good.BEER, Good.LEMONADE


def test_the_fixed_map_ranges_the_scenarios_rely_on():
    # python-only: checks the fixed map's road ranges with the Python board helper (no play); the
    # scenarios below see these ranges through who wins a house, on both engines.
    # rules: C9, C10 — one range per tile border crossed on the roads between the house and an entrance
    state = two_chains()
    add_restaurant(state, 0, NEAR_2_EAST)
    board = state.board
    house2, house4 = state.houses[2].all_squares, state.houses[4].all_squares
    assert board.distance(house2, [(1, 0)]) == 0 and board.distance(house4, [(1, 0)]) == 2
    assert board.distance(house2, [(3, 3)]) == 0
    assert board.distance(house2, [(3, 8)]) == 1 and board.distance(house4, [(3, 8)]) == 1
    assert board.distance(state.houses[7].all_squares, [(1, 0)]) >= 9999  # the isolated loop


def test_rulebook_example_one_burger_two_beers_to_a_garden_house_earn_125(engine):
    # rules: Phase 4 example — luxuries manager (+$10), garden doubles the unit price,
    # First burger marketed adds $5 per burger (not doubled): 45 + 2 x 40 = 125; C26: $20 reached
    # at once; C27: $100 at the end of the phase
    state = two_chains()
    give(state, 0, luxuries_manager=1)
    award(state, 0, Milestone.FIRST_BURGER_MARKETED)
    stock(state, 0, burger=1, beer=2)
    demand(state, 2, B, BEER, BEER, garden=GARDEN_2)
    state = dine(engine, state)
    p = state.players[0]
    assert p.cash == 125 and p.income == 125
    assert state.bank == 1000 - 125
    assert p.stock.tolist() == [0, 0, 0, 0, 0] and state.houses[2].demand == []
    assert {Milestone.FIRST_HAVE_20, Milestone.FIRST_HAVE_100} <= p.milestones


def test_drink_bonus_counts_for_every_drink_and_pizza_bonus_only_for_pizza(engine):
    # rules: First drink marketed — +$5 for all drinks; First pizza marketed — pizza only. A house
    # wants at most 3 tokens: house 2 a burger, a pizza and a beer, house 4 a lemonade (player 0 is
    # the only chain with stock): 10 + 15 + 15 and 15
    state = two_chains()
    award(state, 0, Milestone.FIRST_DRINK_MARKETED)
    award(state, 0, Milestone.FIRST_PIZZA_MARKETED)
    stock(state, 0, burger=1, pizza=1, beer=1, lemonade=1)
    demand(state, 2, B, P, BEER)
    demand(state, 4, LEM)
    state = dine(engine, state)
    assert state.players[0].cash == 10 + 15 + 15 + 15
    assert state.houses[2].demand == [] and state.houses[4].demand == []


def test_nearer_chain_wins_at_equal_price(engine):
    # rules: Phase 4 — lowest unit price + distance: 10 + 0 beats 10 + 1, even against
    # more waitresses and an earlier seat
    state = two_chains(order=[1, 0])
    give(state, 1, waitress=2)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    state = dine(engine, state)
    assert state.players[0].cash == 10
    assert state.players[1].cash == 6 and state.players[1].income == 6  # only the tips (R36)
    assert state.players[1].stock[B] == 1


def test_cheaper_chain_further_away_wins(engine):
    # rules: Phase 4 — a discount manager (-$3): 7 + 1 = 8 beats 10 + 0 (R33)
    state = two_chains()
    give(state, 1, discount_manager=1)
    stock(state, 0, burger=2)
    stock(state, 1, burger=2)
    demand(state, 2, B, B)
    state = dine(engine, state)
    assert state.players[1].cash == 14 and state.players[0].cash == 0


def test_price_plus_distance_tie_goes_to_more_waitresses(engine):
    # rules: Phase 4 — pricing manager: 9 + 1 = 10 = 10 + 0; the chain with more waitresses wins (R34)
    state = two_chains()
    give(state, 1, pricing_manager=1, waitress=1)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    state = dine(engine, state)
    assert state.players[1].cash == 9 + 3
    assert state.players[0].cash == 0


@pytest.mark.parametrize(("order", "winner"), [([0, 1], 0), ([1, 0], 1)])
def test_full_tie_goes_to_the_earlier_seat(engine, order, winner):
    # rules: Phase 4 — same price + distance, same waitresses: earlier in turn order (R34)
    state = two_chains(order=order)
    give(state, 1, pricing_manager=1)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    state = dine(engine, state)
    assert state.players[winner].cash == (10 if winner == 0 else 9)
    assert state.players[1 - winner].cash == 0


def test_full_tie_at_range_0_goes_to_the_earlier_seat(engine):
    # rules: Phase 4; R34 — both at range 0 from house 2, same price, no waitresses: the first seat
    # (player 1) wins
    state = position(order=[1, 0])
    add_restaurant(state, 0, NEAR_2)
    add_restaurant(state, 1, NEAR_2_EAST)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    state = dine(engine, state)
    assert state.players[1].cash == 10 and state.players[0].cash == 0


def test_first_to_lower_prices_takes_a_dollar_off(engine):
    # rules: First to lower prices — price $1 lower: 9 + 1 = 10 ties 10 + 0; seat 1 has it in turn order [1, 0]
    state = two_chains(order=[1, 0])
    award(state, 1, Milestone.FIRST_LOWER_PRICES)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    state = dine(engine, state)
    assert state.players[1].cash == 9 and state.players[0].stock[B] == 1


def test_no_road_connection_no_dinner(engine):
    # rules: Phase 4 — house 7 sits in a road loop no restaurant of the two chains touches
    state = two_chains()
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 7, B)
    after = dine(engine, state)
    assert after.houses[7].demand == [B]
    assert after.players[0].cash == after.players[1].cash == 0
    # a restaurant on the loop serves it
    state = two_chains()
    add_restaurant(state, 1, LOOP)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 7, B)
    after = dine(engine, state)
    assert after.houses[7].demand == [] and after.players[1].cash == 10


def test_the_whole_basket_must_be_covered(engine):
    # rules: Phase 4 — a chain with 1 of the 2 burgers wanted does not qualify; the further one does
    state = two_chains()
    stock(state, 0, burger=1, beer=5)
    stock(state, 1, burger=2, beer=1)
    demand(state, 2, B, B, BEER)
    after = dine(engine, state)
    assert after.players[1].cash == 30 and after.players[0].cash == 0
    # nobody covers it (the stock that was left): the demand stays
    state = two_chains()
    stock(state, 0, burger=1, beer=5)
    demand(state, 2, B, B, BEER)
    after = dine(engine, state)
    assert after.houses[2].demand == [B, B, BEER] and after.players[0].stock.tolist() == [1, 0, 5, 0, 0]


def test_a_chain_missing_part_of_one_basket_still_serves_the_next_house(engine):
    # rules: Phase 4 — all or nothing: player 0 has one burger of two, so player 1 serves house 2
    # (2 x $10); house 4 then eats at player 0 (10 + 2), the only chain with a burger left
    state = two_chains()
    stock(state, 0, burger=1)
    stock(state, 1, burger=2)
    demand(state, 2, B, B)
    demand(state, 4, B)
    state = dine(engine, state)
    assert state.players[1].cash == 20 and state.players[0].cash == 10
    assert state.houses[2].demand == [] and state.houses[4].demand == []


def test_houses_eat_in_number_order_and_stock_runs_out(engine):
    # rules: Phase 4 — house 2 eats before house 4; the one burger goes to house 2
    state = position()
    add_restaurant(state, 0, TILE_1)  # distance 1 to both houses
    stock(state, 0, burger=1)
    demand(state, 4, B)
    demand(state, 2, B)
    state = dine(engine, state)
    assert state.houses[2].demand == [] and state.houses[4].demand == [B]
    assert state.players[0].cash == 10


def test_the_house_eating_first_takes_the_nearer_chain(engine):
    # rules: Phase 4 — house 2 eats first: player 0 (range 0) takes it, so house 4 goes to player 1
    # (range 1 < 2)
    state = two_chains()
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    demand(state, 4, B)
    state = dine(engine, state)
    assert state.players[0].cash == 10 and state.players[1].cash == 10


def test_coming_soon_restaurant_does_not_serve(engine):
    # rules: Place or move restaurants — "coming soon" opens only at the end of the turn
    state = position()
    add_restaurant(state, 0, NEAR_2, coming_soon=True)
    add_restaurant(state, 1, TILE_1)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    state = dine(engine, state)
    assert state.players[1].cash == 10 and state.players[0].cash == 0


def test_coming_soon_and_unconnected_restaurants_do_not_serve(engine):
    # rules: Phase 4 — a "coming soon" restaurant does not serve; C10: no road connection from the
    # loop of house 7 to houses 2 and 4
    state = position()
    add_restaurant(state, 0, NEAR_2, coming_soon=True)
    add_restaurant(state, 1, LOOP)
    stock(state, 0, burger=3)
    stock(state, 1, burger=3)
    demand(state, 2, B)
    demand(state, 4, B)
    state = dine(engine, state)
    assert state.houses[2].demand == [B] and state.houses[4].demand == [B]
    assert state.players[0].cash == 0 and state.players[1].cash == 0


def test_drive_in_corner_shortens_the_distance(engine):
    # rules: Local manager — drive-in: all four corners are entrances (C11, R32);
    # the NE corner (3,10) is on tile 2 with house 4: distance 0 instead of 1
    state = position()
    add_restaurant(state, 0, STRADDLE)
    add_restaurant(state, 1, NEAR_2)  # tile 0: distance 2 to house 4
    give(state, 1, discount_manager=1)  # 7 + 2 = 9
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 4, B)
    after = dine(engine, state)
    assert after.players[1].cash == 7 and after.players[0].cash == 0  # 10 + 1 > 9
    state = position()
    add_restaurant(state, 0, STRADDLE)
    add_restaurant(state, 1, NEAR_2)
    give(state, 1, discount_manager=1)
    give(state, 0, local_manager=1)  # now 10 + 0 = 10 > 9 still
    give(state, 0, pricing_manager=1)  # 9 + 0 = 9 ties 9; player 0 is earlier in turn order
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 4, B)
    after = dine(engine, state)
    assert after.players[0].cash == 9 and after.players[1].cash == 0


def test_waitresses_earn_3_or_5_with_first_waitress_even_without_sales(engine):
    # rules: Phase 4 Waitresses; First waitress played; R36
    state = two_chains()
    give(state, 0, waitress=2)
    give(state, 1, waitress=1)
    award(state, 1, Milestone.FIRST_WAITRESS)
    state = dine(engine, state)
    assert state.players[0].cash == 6 and state.players[1].cash == 5
    assert state.players[0].income == 6


def test_first_waitress_played_raises_tips_to_five(engine):
    # rules: First waitress played — $5 a waitress; 2 waitresses -> $10 (and $20 is not reached: no milestone)
    state = two_chains()
    give(state, 0, waitress=2)
    award(state, 0, Milestone.FIRST_WAITRESS)
    state = dine(engine, state)
    assert state.players[0].cash == 10 and Milestone.FIRST_HAVE_20 not in state.players[0].milestones


def test_cfo_adds_half_rounded_up(engine):
    # rules: Phase 4 CFO; C22 — (10 + 3) * 50% = 6.5 -> 7
    state = two_chains()
    give(state, 0, cfo=1, waitress=1)
    stock(state, 0, burger=1)
    demand(state, 2, B)
    state = dine(engine, state)
    assert state.players[0].cash == 20
    assert state.players[0].income == 13


def test_cfo_adds_half_of_the_phase_cash(engine):
    # rules: C22, R37 — 3 burgers ($30) + 1 waitress ($3) = $33 earned; the CFO adds ceil(16.5) = 17
    state = two_chains()
    give(state, 0, cfo=1, waitress=1)
    stock(state, 0, burger=3)
    demand(state, 2, B, B, B)
    state = dine(engine, state)
    assert state.players[0].income == 33 and state.players[0].cash == 50


def test_first_to_have_100_from_an_earlier_turn_acts_as_cfo(engine):
    # rules: First to have $100 — the CEO counts as CFO (C27); 20 * 50% = 10
    state = two_chains()
    award(state, 0, Milestone.FIRST_HAVE_100)
    stock(state, 0, burger=2)
    demand(state, 2, B, B)
    state = dine(engine, state)
    assert state.players[0].cash == 30


@pytest.mark.parametrize(("this_turn", "cash"), [(False, 45), (True, 30)])
def test_first_to_have_100_acts_as_cfo_only_from_a_later_turn(engine, this_turn, cash):
    # rules: First to have $100; C27 — the CEO acts as a CFO once the milestone was claimed in an
    # earlier turn: $30 -> +$15; claimed in this turn: no bonus yet
    state = two_chains()
    award(state, 0, Milestone.FIRST_HAVE_100, this_turn=this_turn)
    stock(state, 0, burger=3)
    demand(state, 2, B, B, B)
    state = dine(engine, state)
    assert state.players[0].cash == cash


def test_cfo_on_negative_income_rounds_up_towards_plus_infinity(engine):
    # rules: C21, C22, R37 — 4 discount managers: price 10 - 12 = -2, doubled by the garden:
    # 2 burgers cost 8; a waitress brings 3: income -5; CFO -2.5 -> -2
    state = two_chains()
    give(state, 0, discount_manager=4, waitress=1, cfo=1)
    state.players[0].cash = 20
    stock(state, 0, burger=2)
    demand(state, 2, B, B, garden=GARDEN_2)
    before = money(state)
    state = dine(engine, state)
    p = state.players[0]
    assert p.cash == 20 - 8 + 3 - 2 == 13
    assert p.income == -5 and not p.bankrupt
    assert state.bank == 1000 + 8 - 3 + 2
    assert money(state) == before


def test_cfo_share_of_a_loss_rounds_towards_plus_infinity(engine):
    # rules: C21, C22 — 5 discount + 2 pricing managers: 10 - 15 - 2 = -$7 for one burger; half of -7
    # is -3.5, rounded up to -3: $20 - 7 - 3 = $10
    state = two_chains()
    give(state, 0, cfo=1, discount_manager=5, pricing_manager=2)
    stock(state, 0, burger=1)
    state.players[0].cash = 20
    demand(state, 2, B)
    state = dine(engine, state)
    assert state.players[0].income == -7 and state.players[0].cash == 10


@pytest.mark.parametrize(("cash", "left", "bankrupt"), [(4, 0, True), (10, 4, False)])
def test_negative_price_the_chain_pays_and_goes_bankrupt_when_it_cannot(engine, cash, left, bankrupt):
    # rules: C21 — 4 discount managers: 10 - 12 = -$2 an item; three burgers cost the chain $6. With
    # $4 it pays $4 to the bank, is bankrupt, and its income is what it paid (-4); with $10 it pays
    # the whole $6 and is not bankrupt
    state = two_chains()
    give(state, 0, discount_manager=4)
    stock(state, 0, burger=3)
    state.players[0].cash = cash
    demand(state, 2, B, B, B)
    state = dine(engine, state)
    p = state.players[0]
    assert p.cash == left and p.bankrupt is bankrupt and p.income == left - cash
    assert state.bank == 1000 + cash - left
    assert state.houses[2].demand == [] and p.stock[B] == 0


def test_negative_price_chain_that_cannot_pay_is_bankrupt_but_serves_to_the_end_of_dinnertime(engine):
    # rules: C21 ("a chain that cannot pay is eliminated at the end of the turn"), R35 — price
    # 10 - 12 = -2: house 2's two burgers cost $4, the chain has $3: it pays 3 and is bankrupt.
    # It is still in the game: house 4 eats there too (-2 + distance 2 = 0 beats player 1's
    # 10 + 1 = 11) and the chain pays what it can ($0) for that burger. Cash earned (D34): -3 + 0.
    state = dine(engine, chain_that_cannot_pay())
    p = state.players[0]
    assert p.bankrupt and p.cash == 0 and p.income == -3
    assert state.bank == 1003
    assert p.stock[B] == 0 and state.houses[4].demand == []
    assert state.players[1].cash == 0 and state.players[1].stock[B] == 1
    assert Milestone.FIRST_HAVE_20 not in p.milestones


def test_cfo_share_of_a_chain_bankrupt_this_turn_is_half_the_cash_it_actually_earned(engine):
    # rules: C21, C22 ("50% of all cash earned this turn in phase 4"), D33, D34 — 4 discount
    # managers: price 10 - 12 = -2; First burger marketed: a burger earns -2 + 5 = 3. The chain has
    # $1. House 2's 3 beers bill -6: it pays its $1 and is bankrupt ($0). House 4 still eats
    # there (-2 + distance 2 = 0; player 1 has no stock): 2 burgers +6 -> $6; a waitress +3 -> $9.
    # Cash earned: -1 + 6 + 3 = 8 (the $5 it could not pay never left it), CFO ceil(8 / 2) = 4 ->
    # $13 (the bills, -6 + 6 + 3 = 3, would give only 2).
    state = two_chains()
    give(state, 0, discount_manager=4, cfo=1, waitress=1)
    award(state, 0, Milestone.FIRST_BURGER_MARKETED)
    state.players[0].cash = 1
    stock(state, 0, burger=2, beer=3)
    demand(state, 2, BEER, BEER, BEER)
    demand(state, 4, B, B)
    before = money(state)
    state = dine(engine, state)
    p = state.players[0]
    assert p.bankrupt and p.income == 8 and p.cash == 13
    assert p.stock.sum() == 0 and state.houses[2].demand == [] and state.houses[4].demand == []
    assert state.bank == 1000 + 1 - 6 - 3 - 4 == 988
    assert money(state) == before


def test_bonus_can_outweigh_a_negative_price(engine):
    # rules: C21 — price -2 and First burger marketed (+5): each burger earns 3 (no bankruptcy at $0)
    state = position()
    add_restaurant(state, 0, NEAR_2)
    give(state, 0, discount_manager=4)
    award(state, 0, Milestone.FIRST_BURGER_MARKETED)
    stock(state, 0, burger=2)
    demand(state, 2, B, B)
    state = dine(engine, state)
    assert state.players[0].cash == 6 and not state.players[0].bankrupt


def test_cash_milestones_are_claimed_in_dinnertime(engine):
    # rules: First to have $20 (C26), First to have $100 (C27) — checked after phase 4
    state = two_chains()
    state.players[0].cash = 15
    state.players[1].cash = 95
    give(state, 0, waitress=2)  # +6 -> 21
    give(state, 1, waitress=1)  # +3 -> 98: no $100
    after = dine(engine, state)
    assert after.players[0].milestones == {Milestone.FIRST_HAVE_20}
    assert after.players[1].milestones == {Milestone.FIRST_HAVE_20}
    # with $100 player 1 claims "$100" too (+3 -> 103: no CEO-as-CFO share in the turn it is
    # claimed, C27, which the parametrized test above checks in a later Dinnertime)
    state = two_chains()
    state.players[0].cash = 15
    state.players[1].cash = 100
    give(state, 0, waitress=2)
    give(state, 1, waitress=1)
    after = dine(engine, state)
    assert Milestone.FIRST_HAVE_100 in after.players[1].milestones and after.players[1].cash == 103
    assert Milestone.FIRST_HAVE_100 not in after.players[0].milestones
    assert after.milestones_this_turn == {Milestone.FIRST_HAVE_20, Milestone.FIRST_HAVE_100}


def test_both_players_reaching_20_in_one_dinner_both_claim_it(engine):
    # rules: Milestones — every player who reaches one in the same turn claims it; C26 at once
    state = two_chains()
    stock(state, 0, burger=2)
    stock(state, 1, pizza=2)
    demand(state, 2, B, B)
    demand(state, 4, P, P)
    state = dine(engine, state)
    for p in state.players:
        assert p.cash == 20 and Milestone.FIRST_HAVE_20 in p.milestones
    assert Milestone.FIRST_HAVE_20 in state.milestones_this_turn


def test_first_to_have_20_is_claimed_the_moment_a_payment_reaches_20(engine):
    # rules: First to have $20 ("awarded when the player holds $20 or more", C26: at any time,
    # not only at the end of phase 4). Price 10 - 12 = -2 with First burger marketed (+5 a
    # burger): house 2's two burgers earn 2 x 3 = 6, so $18 -> $24; house 4's three beers then
    # cost 3 x 2 = 6: $18 at the end of Dinnertime, and the milestone is kept.
    state = two_chains()
    give(state, 0, discount_manager=4)
    award(state, 0, Milestone.FIRST_BURGER_MARKETED)
    state.players[0].cash = 18
    stock(state, 0, burger=2, beer=3)
    demand(state, 2, B, B)
    demand(state, 4, BEER, BEER, BEER)
    state = dine(engine, state)
    p = state.players[0]
    assert p.cash == 18 and p.income == 0 and state.bank == 1000
    assert state.houses[2].demand == [] and state.houses[4].demand == []
    assert Milestone.FIRST_HAVE_20 in p.milestones
    assert Milestone.FIRST_HAVE_20 in state.milestones_this_turn


def test_the_bank_breaks_mid_dinner_and_pays_on_from_the_reserve(engine):
    # rules: Breaking the bank — $15 left, a $30 sale: $15, the bank breaks, the two $200 reserve
    # cards come in, and the other $15 is paid from them: 15 + 400 - 15 = 385; C24: $200 cards show
    # 3 CEO slots
    state = two_chains(bank=15)
    stock(state, 0, burger=3)
    demand(state, 2, B, B, B)
    state = dine(engine, state)
    assert state.players[0].cash == 30 and state.bank == 385
    assert state.bank_breaks == 1 and state.reserve_revealed and state.ceo_slots == 3


def test_after_the_final_break_sales_are_written_down_and_cash_milestones_are_not_claimed(engine):
    # rules: C23, R38 — the second break ends the game after this Dinnertime; what the bank cannot
    # pay is written down (bank_debt), and "$20" / "$100" are no longer claimed. Luxuries + garden:
    # 3 x $40 = $120.
    state = two_chains(bank=15)
    state.bank_breaks = 1
    state.reserve_revealed = True
    give(state, 0, luxuries_manager=1)
    stock(state, 0, burger=3)
    demand(state, 2, B, B, B, garden=GARDEN_2)
    state = dine(engine, state)
    p = state.players[0]
    assert state.phase == Phase.GAME_OVER
    assert p.cash == 120 and state.bank == 0 and state.bank_debt == 105 and state.bank_breaks == 2
    assert not ({Milestone.FIRST_HAVE_20, Milestone.FIRST_HAVE_100} & p.milestones)


def test_introductory_game_claims_no_milestones(engine):
    # rules: Introductory game — no milestones: $150 at Dinnertime claims neither "$20" nor "$100"
    # (no Payday either: the engine goes on to the next round)
    state = two_chains(variant="introductory")
    state.phase = Phase.DINNERTIME
    state.players[0].cash = 150
    after = full(settle(engine, state))
    assert after.round == 3 and after.players[0].cash == 150
    assert after.players[0].milestones == set() and after.milestones_gone == set()
