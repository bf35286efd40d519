"""Phase 6 Marketing campaigns: reach of each campaign type, demand limits, expiry."""

from __future__ import annotations

from late_builders import add_campaign, demand, position

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good, Milestone
from fcm_env.engine.board.occupancy import house_grid
from fcm_env.engine.phases import marketing as marketing_run
from fcm_env.engine.state import Phase

B, P, BEER = int(Good.BURGER), int(Good.PIZZA), int(Good.BEER)
GARDEN_10 = ((9, 8), (9, 9))  # north of house 10 (tile 4)


def reach(state, campaign):
    return marketing_run.houses_reached(state, campaign, house_grid(state))


def test_billboard_reaches_the_houses_next_to_it():
    # rules: Billboard campaign — orthogonally adjacent houses; (5,0)-(5,1) touches house 2 from below
    state = position()
    c = add_campaign(state, 14, 0, Good.BURGER, row=5, col=0)
    assert c.squares == ((5, 0), (5, 1))
    assert reach(state, c) == (2,)
    marketing_run.run(state)
    assert state.houses[2].demand == [B] and state.phase == Phase.MARKETING


def test_billboard_reaches_a_house_through_its_garden_only():
    # rules: Billboard campaign — "reached even if only its garden is adjacent"
    state = position()
    c = add_campaign(state, 14, 0, Good.PIZZA, row=8, col=8)
    assert reach(state, c) == ()  # C17: it may reach nothing
    demand(state, 10, garden=GARDEN_10)
    assert reach(state, c) == (10,)


def test_mailbox_reaches_its_block_only():
    # rules: Mailbox campaign; R45 — the area enclosed by roads: (6,0) shares house 2's block
    state = position()
    near = add_campaign(state, 9, 0, Good.PIZZA, row=6, col=0)
    far = add_campaign(state, 10, 1, Good.PIZZA, row=0, col=3)  # block north-east of the tile-0 crossing
    assert reach(state, near) == (2,)
    assert reach(state, far) == ()


def test_airplane_reaches_every_house_under_its_lane():
    # rules: Airplane campaign — 1 column from the north edge at column 0 crosses house 2;
    # 3 rows from the west edge at rows 10-12 cross houses 10 (rows 10-11) and 7 (rows 12-13)
    state = position()
    one = add_campaign(state, 4, 0, Good.BEER, row=0, col=0, orientation=0)
    three = add_campaign(state, 5, 1, Good.BEER, row=10, col=0, orientation=3)
    assert reach(state, one) == (2,)
    assert reach(state, three) == (7, 10)


def test_radio_reaches_its_tile_and_the_eight_around():
    # rules: Radio campaign; R46 — from tile 0 (corner): tiles 0, 1, 3, 4; from tile 4: the whole 3x3 map
    state = position()
    corner = add_campaign(state, 1, 0, Good.BURGER, row=0, col=3)
    centre = add_campaign(state, 2, 1, Good.BURGER, row=5, col=5)
    assert reach(state, corner) == (2,)
    assert reach(state, centre) == (2, 4, 7, 10)


def test_radio_with_first_radio_places_two_tokens_up_to_the_limits():
    # rules: First radio campaign; Phase 6 — at most 3 tokens, 5 with a garden
    state = position()
    state.players[1].milestones.add(Milestone.FIRST_RADIO)
    add_campaign(state, 2, 1, Good.BURGER, row=5, col=5, remaining=3)
    demand(state, 2, Good.PIZZA, Good.PIZZA)  # room for 1
    demand(state, 10, Good.PIZZA, Good.PIZZA, Good.PIZZA, Good.PIZZA, garden=GARDEN_10)  # room for 1
    demand(state, 7, Good.PIZZA, Good.PIZZA, Good.PIZZA)  # full
    marketing_run.run(state)
    assert state.houses[2].demand == [P, P, B]
    assert state.houses[4].demand == [B, B]
    assert state.houses[7].demand == [P, P, P]
    assert state.houses[10].demand == [P, P, P, P, B]


def test_radio_without_the_milestone_places_one_token():
    state = position()
    add_campaign(state, 2, 1, Good.BURGER, row=5, col=5, remaining=3)
    demand(state, 10, garden=GARDEN_10)
    marketing_run.run(state)
    assert [state.houses[n].demand for n in (2, 4, 7, 10)] == [[B]] * 4


def test_campaigns_run_in_tile_number_order():
    # rules: Phase 6 — lowest number first: airplane #4 (beer) fills house 2 before mailbox #9 (pizza)
    state = position()
    add_campaign(state, 9, 0, Good.PIZZA, row=6, col=0, remaining=2)
    add_campaign(state, 4, 1, Good.BEER, row=0, col=0, orientation=0, remaining=2)
    demand(state, 2, Good.BURGER, Good.BURGER)
    marketing_run.run(state)
    assert state.houses[2].demand == [B, B, BEER]


def test_last_token_returns_the_tile_and_the_marketeer():
    # rules: Phase 6 — no tokens left: the tile goes back to the stock, the marketeer to the player
    state = position()
    ending = add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=1, marketeer=E.MARKETING_TRAINEE)
    going = add_campaign(state, 9, 0, Good.PIZZA, row=6, col=0, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    assert 14 not in state.marketing_supply
    marketing_run.run(state)
    assert state.campaigns == [going] and going.remaining == 1
    assert state.marketing_supply == sorted(state.marketing_supply) and 14 in state.marketing_supply
    p = state.players[0]
    assert p.busy[E.MARKETING_TRAINEE] == 0 and p.hand[E.MARKETING_TRAINEE] == 1
    assert p.busy[E.CAMPAIGN_MANAGER] == 1
    assert ending not in state.campaigns


def test_eternal_campaign_keeps_its_token_for_ever():
    # rules: First billboard placed — eternal campaigns never end; the marketeer is out of the game
    state = position()
    c = add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=1, eternal=True)
    for _ in range(3):
        marketing_run.run(state)
    assert state.campaigns == [c] and c.remaining == 1 and 14 not in state.marketing_supply
    assert state.players[0].busy.sum() == 0 and state.players[0].hand.sum() == 0
    assert state.houses[2].demand == [B, B, B]


def test_fired_marketeer_does_not_come_back_when_the_campaign_ends():
    # C30: the campaign of a fired busy marketeer stays and runs out; no card returns
    state = position()
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=1, marketeer=E.CAMPAIGN_MANAGER)
    state.players[0].busy[E.CAMPAIGN_MANAGER] = 0
    state.supply[E.CAMPAIGN_MANAGER] += 1  # fired at Payday
    marketing_run.run(state)
    assert state.campaigns == [] and state.players[0].hand[E.CAMPAIGN_MANAGER] == 0
    assert state.houses[2].demand == [B]


def test_fired_marketeer_counts_as_the_one_of_the_longest_campaign():
    # D39: two campaigns of one marketeer type, one card fired: the card returns when the first ends
    state = position()
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=1, marketeer=E.CAMPAIGN_MANAGER)
    add_campaign(state, 9, 0, Good.PIZZA, row=6, col=0, remaining=3, marketeer=E.CAMPAIGN_MANAGER)
    p = state.players[0]
    p.busy[E.CAMPAIGN_MANAGER] -= 1
    state.supply[E.CAMPAIGN_MANAGER] += 1
    marketing_run.run(state)
    assert p.hand[E.CAMPAIGN_MANAGER] == 1 and p.busy[E.CAMPAIGN_MANAGER] == 0
    marketing_run.run(state)
    marketing_run.run(state)
    assert state.campaigns == [] and p.hand[E.CAMPAIGN_MANAGER] == 1


def test_timed_campaign_returns_its_marketeer_beside_an_eternal_one_of_the_same_type():
    state = position()
    add_campaign(state, 9, 0, Good.PIZZA, row=6, col=0, eternal=True, marketeer=E.CAMPAIGN_MANAGER)
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=1, marketeer=E.CAMPAIGN_MANAGER)
    marketing_run.run(state)
    p = state.players[0]
    assert p.busy[E.CAMPAIGN_MANAGER] == 0 and p.hand[E.CAMPAIGN_MANAGER] == 1
    assert [c.number for c in state.campaigns] == [9]


def test_campaigns_of_a_bankrupt_chain_still_run():
    # C21 — its timed campaigns run out normally
    state = position()
    state.players[0].bankrupt = True
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=2)
    marketing_run.run(state)
    assert state.houses[2].demand == [B]
