"""Phase 4 Dinnertime in the native core (phase_dinnertime.cpp): hand-computed scenarios on the fixed map of
native_steps.py, each run by both engines (the same state document after) and checked against the outcome
worked out from the rules; then random positions that only compare the two engines.

rules: Phase 4; C10-C12, C21-C23, C26, C27; R33-R38. Unit price $10 (pricing manager -1, discount manager
-3, luxuries manager +10, First to lower prices -1); a garden doubles it; "First ... marketed" adds $5 per
item (not doubled); waitresses $3 each ($5 with First waitress played); the CFO adds half the phase's cash,
rounded up.
"""

from __future__ import annotations

import random

import pytest
from native_steps import (
    GARDEN_2,
    LOOP,
    NEAR_2,
    NEAR_2_EAST,
    TILE_1,
    add_restaurant,
    give,
    position,
    run_both,
    stock,
)

from fcm_env.data import Good, Milestone
from fcm_env.engine.board.occupancy import entrances_of
from fcm_env.engine.phases import dinnertime
from fcm_env.engine.state import Phase

B, P, BEER, LEM = int(Good.BURGER), int(Good.PIZZA), int(Good.BEER), int(Good.LEMONADE)


def dinner(state):
    return run_both(state, dinnertime.run)


def two_chains(**kw):
    """Player 0 at range 0 from house 2 (2 from house 4), player 1 at range 1 from both."""
    state = position(**kw)
    add_restaurant(state, 0, NEAR_2)
    add_restaurant(state, 1, TILE_1)
    return state


def wants(state, house, *goods, garden=None):
    state.houses[house].demand = [int(g) for g in goods]
    if garden is not None:
        state.houses[house].garden = garden


def test_the_fixed_map_ranges_the_scenarios_rely_on():
    # C9, C10: one range per tile border crossed on the roads between the house and an entrance
    state = two_chains()
    add_restaurant(state, 0, NEAR_2_EAST)
    board = state.board
    house2, house4 = state.houses[2].all_squares, state.houses[4].all_squares
    assert board.distance(house2, [(1, 0)]) == 0 and board.distance(house4, [(1, 0)]) == 2
    assert board.distance(house2, [(3, 3)]) == 0
    assert board.distance(house2, [(3, 8)]) == 1 and board.distance(house4, [(3, 8)]) == 1
    assert board.distance(state.houses[7].all_squares, [(1, 0)]) >= 9999  # the isolated loop


def test_rulebook_example_one_burger_two_beers_to_a_garden_house_earn_125():
    # Phase 4 example: luxuries manager -> $20; garden doubles -> $40 an item; First burger marketed
    # +$5 for the burger only: 45 + 40 + 40 = 125. C26: $20 reached at once; C27: $100 at the end.
    state = two_chains()
    give(state, 0, luxuries_manager=1)
    state.players[0].milestones.add(Milestone.FIRST_BURGER_MARKETED)
    stock(state, 0, burger=1, beer=2)
    wants(state, 2, B, BEER, BEER, garden=GARDEN_2)
    dinner(state)
    p = state.players[0]
    assert p.cash == 125 and p.income == 125 and state.bank == 1000 - 125
    assert p.stock.tolist() == [0, 0, 0, 0, 0] and state.houses[2].demand == []
    assert {Milestone.FIRST_HAVE_20, Milestone.FIRST_HAVE_100} <= p.milestones
    assert state.phase == Phase.DINNERTIME


def test_range_beats_waitresses_and_seat_and_waitresses_tip_without_sales():
    # R33: 10 + 0 beats 10 + 1 although player 1 sits first with 2 waitresses; R36: tips 2 x $3 anyway
    state = two_chains(order=[1, 0])
    give(state, 1, waitress=2)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    wants(state, 2, B)
    dinner(state)
    assert state.players[0].cash == 10 and state.players[1].cash == 6
    assert state.players[1].stock[B] == 1 and state.players[1].income == 6


def test_cheaper_chain_further_away_wins():
    # R33: discount manager 7 + 1 = 8 < 10 + 0; two burgers at $7
    state = two_chains()
    give(state, 1, discount_manager=1)
    stock(state, 0, burger=2)
    stock(state, 1, burger=2)
    wants(state, 2, B, B)
    dinner(state)
    assert state.players[1].cash == 14 and state.players[0].cash == 0


def test_tie_on_price_plus_range_goes_to_more_waitresses_then_to_the_earlier_seat():
    # R34: pricing manager 9 + 1 = 10 + 0; player 1's waitress decides: $9 + $3 tip
    state = two_chains()
    give(state, 1, pricing_manager=1, waitress=1)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    wants(state, 2, B)
    dinner(state)
    assert state.players[1].cash == 12 and state.players[0].cash == 0
    # both at range 0, same price, no waitresses: the first seat (player 1) wins
    state = position(order=[1, 0])
    add_restaurant(state, 0, NEAR_2)
    add_restaurant(state, 1, NEAR_2_EAST)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    wants(state, 2, B)
    dinner(state)
    assert state.players[1].cash == 10 and state.players[0].cash == 0


def test_first_to_lower_prices_takes_a_dollar_off_and_ties_go_by_seat():
    # First to lower prices: 9 + 1 = 10 = 10 + 0, no waitresses: player 1 sits first and sells at $9
    state = two_chains(order=[1, 0])
    state.players[1].milestones.add(Milestone.FIRST_LOWER_PRICES)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    wants(state, 2, B)
    dinner(state)
    assert state.players[1].cash == 9 and state.players[0].stock[B] == 1


def test_a_chain_must_cover_the_whole_demand_and_houses_eat_in_number_order():
    # Phase 4: all or nothing - player 0 has one burger of two, so player 1 serves house 2 (2 x $10);
    # house 4 then eats at player 0 (10 + 2), the only chain with a burger left
    state = two_chains()
    stock(state, 0, burger=1)
    stock(state, 1, burger=2)
    wants(state, 2, B, B)
    wants(state, 4, B)
    dinner(state)
    assert state.players[1].cash == 20 and state.players[0].cash == 10
    assert state.houses[2].demand == [] and state.houses[4].demand == []
    # house 2 eats first: player 0 (range 0) takes it, so house 4 goes to player 1 (range 1 < 2)
    state = two_chains()
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    wants(state, 2, B)
    wants(state, 4, B)
    dinner(state)
    assert state.players[0].cash == 10 and state.players[1].cash == 10


def test_coming_soon_and_unconnected_restaurants_do_not_serve():
    # Phase 4: a "coming soon" restaurant does not serve; C10: no road connection to house 7's loop
    state = position()
    add_restaurant(state, 0, NEAR_2, coming_soon=True)
    add_restaurant(state, 1, LOOP)
    stock(state, 0, burger=3)
    stock(state, 1, burger=3)
    wants(state, 2, B)
    wants(state, 4, B)
    dinner(state)
    assert state.houses[2].demand == [B] and state.houses[4].demand == [B]
    assert state.players[0].cash == 0 and state.players[1].cash == 0
    assert entrances_of(state, 0) == ()


def test_negative_price_the_chain_pays_and_goes_bankrupt_when_it_cannot():
    # C21: 4 discount managers: 10 - 12 = -$2 an item; three burgers cost the chain $6. With $4 it pays
    # $4 to the bank, is bankrupt, and its income is what it paid (-4).
    state = two_chains()
    give(state, 0, discount_manager=4)
    stock(state, 0, burger=3)
    state.players[0].cash = 4
    wants(state, 2, B, B, B)
    dinner(state)
    p = state.players[0]
    assert p.cash == 0 and p.bankrupt and p.income == -4 and state.bank == 1004
    assert state.houses[2].demand == [] and p.stock[B] == 0
    # with $10 it pays the whole $6 and is not bankrupt
    state = two_chains()
    give(state, 0, discount_manager=4)
    stock(state, 0, burger=3)
    state.players[0].cash = 10
    wants(state, 2, B, B, B)
    dinner(state)
    assert state.players[0].cash == 4 and not state.players[0].bankrupt and state.players[0].income == -6


def test_cfo_adds_half_of_the_phase_cash_rounded_up():
    # C22, R37: 3 burgers ($30) + 1 waitress ($3) = $33 earned; the CFO adds ceil(16.5) = 17
    state = two_chains()
    give(state, 0, cfo=1, waitress=1)
    stock(state, 0, burger=3)
    wants(state, 2, B, B, B)
    dinner(state)
    assert state.players[0].income == 33 and state.players[0].cash == 50


def test_cfo_share_of_a_loss_rounds_towards_plus_infinity():
    # C21, C22: 5 discount + 2 pricing managers: 10 - 15 - 2 = -$7 for one burger; half of -7 is -3.5,
    # rounded up to -3: $20 - 7 - 3 = $10
    state = two_chains()
    give(state, 0, cfo=1, discount_manager=5, pricing_manager=2)
    stock(state, 0, burger=1)
    state.players[0].cash = 20
    wants(state, 2, B)
    dinner(state)
    assert state.players[0].income == -7 and state.players[0].cash == 10


def test_first_to_have_100_acts_as_cfo_only_from_a_later_turn():
    # C27: the CEO acts as a CFO once "First to have $100" was claimed in an earlier turn: $30 -> +$15
    for this_turn, expected in ((False, 45), (True, 30)):
        state = two_chains()
        state.players[0].milestones.add(Milestone.FIRST_HAVE_100)
        if this_turn:
            state.milestones_this_turn.add(Milestone.FIRST_HAVE_100)
        stock(state, 0, burger=3)
        wants(state, 2, B, B, B)
        dinner(state)
        assert state.players[0].cash == expected


def test_first_waitress_played_raises_tips_to_five():
    # First waitress played: $5 a waitress; 2 waitresses -> $10 (and $20 is not reached: no milestone)
    state = two_chains()
    give(state, 0, waitress=2)
    state.players[0].milestones.add(Milestone.FIRST_WAITRESS)
    dinner(state)
    assert state.players[0].cash == 10 and Milestone.FIRST_HAVE_20 not in state.players[0].milestones


def test_the_bank_breaks_mid_dinner_and_pays_on_from_the_reserve():
    # Breaking the bank: $15 left, a $30 sale: $15, the bank breaks, the two $200 reserve cards come in,
    # and the other $15 is paid from them: 15 + 400 - 15 = 385; C24: $200 cards show 3 CEO slots
    state = two_chains(bank=15)
    stock(state, 0, burger=3)
    wants(state, 2, B, B, B)
    dinner(state)
    assert state.players[0].cash == 30 and state.bank == 385
    assert state.bank_breaks == 1 and state.reserve_revealed and state.ceo_slots == 3


def test_after_the_final_break_sales_are_written_down_and_cash_milestones_are_not_claimed():
    # C23, R38: the second break ends the game after this Dinnertime; what the bank cannot pay is written
    # down (bank_debt), and "$20" / "$100" are no longer claimed. Luxuries + garden: 3 x $40 = $120.
    state = two_chains(bank=15)
    state.bank_breaks = 1
    state.reserve_revealed = True
    give(state, 0, luxuries_manager=1)
    stock(state, 0, burger=3)
    wants(state, 2, B, B, B, garden=GARDEN_2)
    dinner(state)
    p = state.players[0]
    assert p.cash == 120 and state.bank == 0 and state.bank_debt == 105 and state.bank_breaks == 2
    assert not ({Milestone.FIRST_HAVE_20, Milestone.FIRST_HAVE_100} & p.milestones)


def test_both_players_reaching_20_in_one_dinner_both_claim_it():
    # Milestones: every player who reaches one in the same turn claims it; C26 at once
    state = two_chains()
    stock(state, 0, burger=2)
    stock(state, 1, pizza=2)
    wants(state, 2, B, B)
    wants(state, 4, P, P)
    dinner(state)
    for p in state.players:
        assert p.cash == 20 and Milestone.FIRST_HAVE_20 in p.milestones
    assert Milestone.FIRST_HAVE_20 in state.milestones_this_turn


def _random_position(rng: random.Random):
    n = rng.choice([2, 3, 4, 5])
    state = position(n, variant=rng.choice(["standard", "standard", "introductory"]), seed=rng.randrange(10**6),
                     order=rng.sample(range(n), n), bank=rng.choice([5, 40, 150, 1000]))
    board = state.board
    if state.variant == "standard":
        state.bank_breaks = rng.choice([0, 0, 1])
        state.reserve_revealed = state.bank_breaks > 0
    houses = list(state.houses.values())
    for p in state.players:
        for _ in range(rng.choice([0, 1, 1, 2])):
            r, c = rng.randrange(board.height - 1), rng.randrange(board.width - 1)
            add_restaurant(state, p.player, (r, c, rng.randrange(4)), coming_soon=rng.random() < 0.15)
        cards = {name: rng.choice(weights) for name, weights in (
            ("waitress", [0, 0, 1, 2]), ("cfo", [0, 0, 0, 1]), ("pricing_manager", [0, 0, 1]),
            ("discount_manager", [0, 0, 0, 1, 3, 4]), ("luxuries_manager", [0, 0, 0, 1]),
            ("local_manager", [0, 0, 1]))}
        give(state, p.player, **cards)
        p.stock[:] = [rng.randrange(4) for _ in range(5)]
        p.cash = rng.choice([0, 3, 15, 25, 90])
        for m in (Milestone.FIRST_WAITRESS, Milestone.FIRST_LOWER_PRICES, Milestone.FIRST_BURGER_MARKETED,
                  Milestone.FIRST_PIZZA_MARKETED, Milestone.FIRST_DRINK_MARKETED, Milestone.FIRST_HAVE_100,
                  Milestone.FIRST_HAVE_20):
            if state.variant == "standard" and rng.random() < 0.2:
                p.milestones.add(m)
    for m in (Milestone.FIRST_HAVE_20, Milestone.FIRST_HAVE_100):
        if state.variant == "standard" and rng.random() < 0.2:
            (state.milestones_this_turn if rng.random() < 0.5 else state.milestones_gone).add(m)
    for house in houses:
        if rng.random() < 0.6:
            house.demand = [rng.randrange(5) for _ in range(rng.randrange(1, 4))]
    return state


@pytest.mark.parametrize("seed", range(4))
def test_random_positions_dine_as_in_the_python_engine(seed):
    rng = random.Random(f"native dinnertime {seed}")
    for _ in range(60):
        dinner(_random_position(rng))
