"""Phase 6 Marketing campaigns: reach of each campaign type, demand limits, expiry.

Every scenario runs on both engines (the ``engine`` fixture): the position is built as a Python ``GameState``
on the fixed map of ``late_builders`` in phase MARKETING with nothing pending (the campaigns still to run),
loaded on the engine under test, which runs Marketing and then Clean-up itself, up to the next round's first
decision (``on_engine_marketing.market``); what Marketing left is read back whole (``full``): the houses'
demand, the campaigns and their tokens, the marketing supply, busy and returned marketeers (Clean-up moves
only work and beach cards, and no demand or campaign). A campaign's reach is seen as the demand it places."""

from __future__ import annotations

from late_builders import add_campaign, demand, position
from on_engine import award
from on_engine_marketing import market

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good, Milestone

B, P, BEER, LEM = int(Good.BURGER), int(Good.PIZZA), int(Good.BEER), int(Good.LEMONADE)
GARDEN_10 = ((9, 8), (9, 9))  # north of house 10 (tile 4)


def demands(state):
    """The demand tokens on the map, by house (houses without any left out)."""
    return {n: h.demand for n, h in state.houses.items() if h.demand}


def test_billboard_reaches_the_houses_next_to_it(engine):
    # rules: Billboard campaign — orthogonally adjacent houses; (5,0)-(5,1) touches house 2 from below
    state = position()
    c = add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=2)
    assert c.squares == ((5, 0), (5, 1))
    after = market(engine, state)
    assert demands(after) == {2: [B]}
    assert [(c.number, c.remaining) for c in after.campaigns] == [(14, 1)]


def test_billboard_reaches_a_house_through_its_garden_only(engine):
    # rules: Billboard campaign — "reached even if only its garden is adjacent"; (8,8)-(8,9) touches
    # (9,8), a square of house 10's garden, and no house square. C17: without the garden it reaches nothing.
    state = position()
    add_campaign(state, 14, 0, Good.PIZZA, row=8, col=8, remaining=2)
    assert demands(market(engine, state)) == {}
    state = position()
    add_campaign(state, 14, 0, Good.PIZZA, row=8, col=8, remaining=2)
    demand(state, 10, garden=GARDEN_10)
    assert demands(market(engine, state)) == {10: [P]}


def test_mailbox_reaches_its_block_only(engine):
    # rules: Mailbox campaign; R45 — the area enclosed by roads: (6,0) shares house 2's block (rows 3-6 west
    # of the road at column 2); (0,3) lies in the block north-east of the tile-0 crossing, without a house;
    # (8,0)-(9,1) lies in the block of house 7 (rows 8-13, west of the road at column 7)
    state = position()
    add_campaign(state, 9, 0, Good.PIZZA, row=6, col=0, remaining=2)
    add_campaign(state, 10, 1, Good.PIZZA, row=0, col=3, remaining=2)
    add_campaign(state, 8, 1, Good.BEER, row=8, col=0, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    assert demands(market(engine, state)) == {2: [P], 7: [BEER]}


def test_airplane_reaches_every_house_under_its_lane(engine):
    # rules: Airplane campaign — 1 column from the north edge at column 0 crosses house 2 (beer);
    # 3 rows from the west edge at rows 10-12 cross houses 10 (rows 10-11) and 7 (rows 12-13) (pizza)
    state = position()
    add_campaign(state, 4, 0, Good.BEER, row=0, col=0, orientation=0, remaining=2)
    add_campaign(state, 5, 1, Good.PIZZA, row=10, col=0, orientation=3, remaining=2)
    assert demands(market(engine, state)) == {2: [BEER], 7: [P], 10: [P]}


def test_radio_reaches_its_tile_and_the_eight_around(engine):
    # rules: Radio campaign; R46 — from tile 0 (corner): tiles 0, 1, 3, 4, of the houses only house 2;
    # from tile 4 (the middle of the 3 x 3 map): every tile, houses 2, 4, 7 and 10
    state = position()
    add_campaign(state, 1, 0, Good.BURGER, row=0, col=3, remaining=2)
    assert demands(market(engine, state)) == {2: [B]}
    state = position()
    add_campaign(state, 2, 1, Good.LEMONADE, row=5, col=5, remaining=2)
    assert demands(market(engine, state)) == {2: [LEM], 4: [LEM], 7: [LEM], 10: [LEM]}


def test_radio_with_first_radio_places_two_tokens_up_to_the_limits(engine):
    # rules: First radio campaign; Phase 6 — at most 3 tokens, 5 with a garden
    state = position()
    award(state, 1, Milestone.FIRST_RADIO)
    add_campaign(state, 2, 1, Good.BURGER, row=5, col=5, remaining=3)
    demand(state, 2, Good.PIZZA, Good.PIZZA)  # room for 1
    demand(state, 10, Good.PIZZA, Good.PIZZA, Good.PIZZA, Good.PIZZA, garden=GARDEN_10)  # room for 1
    demand(state, 7, Good.PIZZA, Good.PIZZA, Good.PIZZA)  # full
    state = market(engine, state)
    assert state.houses[2].demand == [P, P, B]
    assert state.houses[4].demand == [B, B]
    assert state.houses[7].demand == [P, P, P]
    assert state.houses[10].demand == [P, P, P, P, B]


def test_radio_without_the_milestone_places_one_token(engine):
    state = position()
    add_campaign(state, 2, 1, Good.BURGER, row=5, col=5, remaining=3)
    demand(state, 10, garden=GARDEN_10)
    state = market(engine, state)
    assert [state.houses[n].demand for n in (2, 4, 7, 10)] == [[B]] * 4


def test_campaigns_run_in_tile_number_order(engine):
    # rules: Phase 6 — lowest number first: airplane #4 (beer) fills house 2 before mailbox #9 (pizza)
    state = position()
    add_campaign(state, 9, 0, Good.PIZZA, row=6, col=0, remaining=2)
    add_campaign(state, 4, 1, Good.BEER, row=0, col=0, orientation=0, remaining=2)
    demand(state, 2, Good.BURGER, Good.BURGER)
    state = market(engine, state)
    assert state.houses[2].demand == [B, B, BEER]
    assert sorted((c.number, c.remaining) for c in state.campaigns) == [(4, 1), (9, 1)]


def test_last_token_returns_the_tile_and_the_marketeer(engine):
    # rules: Phase 6 — no tokens left: the tile goes back to the stock, the marketeer to the player
    state = position()
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=1, marketeer=E.MARKETING_TRAINEE)
    add_campaign(state, 9, 0, Good.PIZZA, row=6, col=0, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    assert 14 not in state.marketing_supply
    state = market(engine, state)
    assert [(c.number, c.remaining) for c in state.campaigns] == [(9, 1)]
    assert state.marketing_supply == sorted(state.marketing_supply) and 14 in state.marketing_supply
    p = state.players[0]
    assert p.busy[E.MARKETING_TRAINEE] == 0 and p.hand[E.MARKETING_TRAINEE] == 1
    assert p.busy[E.CAMPAIGN_MANAGER] == 1
    assert state.houses[2].demand == [P, B]  # both reach house 2; mailbox 9 runs before billboard 14


def test_eternal_campaign_keeps_its_token_for_ever(engine):
    # rules: First billboard placed — eternal campaigns never end; the marketeer is out of the game.
    # Three Marketing phases (each run again on the position the last one left): three burgers.
    state = position()
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=1, eternal=True)
    for _ in range(3):
        state = market(engine, state)
    assert [(c.number, c.remaining, c.eternal) for c in state.campaigns] == [(14, 1, True)]
    assert 14 not in state.marketing_supply
    assert state.players[0].busy.sum() == 0 and state.players[0].hand[E.BRAND_MANAGER] == 0
    assert state.houses[2].demand == [B, B, B]


def test_fired_marketeer_does_not_come_back_when_the_campaign_ends(engine):
    # C30: the campaign of a fired busy marketeer stays and runs out; no card returns
    state = position()
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=1, marketeer=E.CAMPAIGN_MANAGER)
    state.players[0].busy[E.CAMPAIGN_MANAGER] = 0
    state.supply[E.CAMPAIGN_MANAGER] += 1  # fired at Payday
    state = market(engine, state)
    assert state.campaigns == [] and state.players[0].hand[E.CAMPAIGN_MANAGER] == 0
    assert state.houses[2].demand == [B]


def test_fired_marketeer_counts_as_the_one_of_the_longest_campaign(engine):
    # D39: two campaigns of one marketeer type, one card fired: the card returns when the first ends
    state = position()
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=1, marketeer=E.CAMPAIGN_MANAGER)
    add_campaign(state, 9, 0, Good.PIZZA, row=6, col=0, remaining=3, marketeer=E.CAMPAIGN_MANAGER)
    p = state.players[0]
    p.busy[E.CAMPAIGN_MANAGER] -= 1
    state.supply[E.CAMPAIGN_MANAGER] += 1
    state = market(engine, state)
    p = state.players[0]
    assert p.hand[E.CAMPAIGN_MANAGER] == 1 and p.busy[E.CAMPAIGN_MANAGER] == 0
    assert [(c.number, c.remaining) for c in state.campaigns] == [(9, 2)]
    state = market(engine, market(engine, state))
    assert state.campaigns == [] and state.players[0].hand[E.CAMPAIGN_MANAGER] == 1


def test_timed_campaign_returns_its_marketeer_beside_an_eternal_one_of_the_same_type(engine):
    state = position()
    add_campaign(state, 9, 0, Good.PIZZA, row=6, col=0, eternal=True, marketeer=E.CAMPAIGN_MANAGER)
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=1, marketeer=E.CAMPAIGN_MANAGER)
    state = market(engine, state)
    p = state.players[0]
    assert p.busy[E.CAMPAIGN_MANAGER] == 0 and p.hand[E.CAMPAIGN_MANAGER] == 1
    assert [c.number for c in state.campaigns] == [9]


def test_campaigns_of_a_bankrupt_chain_still_run(engine):
    # C21 — its timed campaigns run out normally
    state = position()
    state.players[0].bankrupt = True
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0, remaining=2)
    state = market(engine, state)
    assert state.houses[2].demand == [B]
    assert [(c.number, c.remaining) for c in state.campaigns] == [(14, 1)]
