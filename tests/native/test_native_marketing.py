"""Phase 6 Marketing campaigns in the native core (phase_marketing.cpp, marketing_areas.cpp): hand-worked
reach of every campaign type on the fixed map of native_steps.py, demand limits, order and expiry, each run
by both engines (the same state document after); then random positions comparing the two engines.

rules: Phase 6; Billboard, Mailbox (R45), Airplane (C15), Radio (R46) campaigns; First radio campaign;
C17, C21, C30; D39.
"""

from __future__ import annotations

import random

import pytest
from native_steps import add_campaign, native_marketing, position, run_both

from fcm_env.data import MARKETING_TILES, CampaignType, EmployeeType, Good, Milestone
from fcm_env.engine.persistence.serialize import state_to_dict
from fcm_env.engine.phases import marketing
from fcm_env.engine.state import Phase

B, P, BEER, LEM = int(Good.BURGER), int(Good.PIZZA), int(Good.BEER), int(Good.LEMONADE)
GARDEN_10 = ((9, 8), (9, 9))  # a garden north of house 10 (tile 4)


def run(state):
    return run_both(state, marketing.run)


def demands(state):
    return {n: h.demand for n, h in state.houses.items() if h.demand}


def test_billboard_reaches_the_houses_orthogonally_next_to_it():
    # Billboard: tile 14 (1 x 2) on (5,0)-(5,1) touches house 2 ((4,0), (4,1)) from below
    state = position()
    add_campaign(state, 14, 0, B, row=5, col=0)
    run(state)
    assert demands(state) == {2: [B]} and state.phase == Phase.MARKETING


def test_billboard_reaches_a_house_through_its_garden_only():
    # Billboard: (8,8) touches (9,8), a square of house 10's garden; without the garden nothing (C17)
    for garden, expected in (((), {}), (GARDEN_10, {10: [P]})):
        state = position()
        state.houses[10].garden = garden
        add_campaign(state, 15, 0, P, row=8, col=8)
        run(state)
        assert demands(state) == expected


def test_mailbox_reaches_the_houses_of_its_block():
    # R45: (8,0) lies in the block bounded by roads that holds house 7 (rows 8-14, west of column 7);
    # (0,3) lies in a block without houses
    state = position()
    add_campaign(state, 9, 0, BEER, row=8, col=0)
    add_campaign(state, 10, 1, LEM, row=0, col=3)
    run(state)
    assert demands(state) == {7: [BEER]}


def test_airplanes_reach_every_house_under_their_lane():
    # C15: tile 4 from the north edge over column 0 crosses house 2; tile 5 from the west edge over
    # rows 10-12 crosses houses 10 (rows 10-11) and 7 (rows 12-13)
    state = position()
    add_campaign(state, 4, 0, BEER, row=0, col=0, orientation=0)
    add_campaign(state, 5, 1, P, row=10, col=0, orientation=3)
    run(state)
    assert demands(state) == {2: [BEER], 7: [P], 10: [P]}


def test_radio_reaches_its_tile_and_the_tiles_around_it():
    # R46: a radio on tile 0 (a corner) reaches tiles 0, 1, 3, 4: house 2 only; one on tile 4 (the
    # middle) reaches the whole 3 x 3 map: houses 2, 4, 7 and 10
    state = position()
    add_campaign(state, 1, 0, B, row=0, col=0)
    add_campaign(state, 2, 1, LEM, row=7, col=7)
    run(state)
    assert demands(state) == {2: [B, LEM], 4: [LEM], 7: [LEM], 10: [LEM]}


def test_first_radio_campaign_places_two_tokens_up_to_the_limits():
    # First radio campaign: 2 tokens a house; limits 3, or 5 with a garden: house 2 ([P, P]) takes one,
    # house 10 with a garden and 4 tokens takes one, houses 4 and 7 take two
    state = position()
    state.players[0].milestones.add(Milestone.FIRST_RADIO)
    state.houses[2].demand = [P, P]
    state.houses[10].garden = GARDEN_10
    state.houses[10].demand = [P, P, P, P]
    add_campaign(state, 3, 0, B, row=7, col=7)
    run(state)
    assert demands(state) == {2: [P, P, B], 4: [B, B], 7: [B, B], 10: [P, P, P, P, B]}


def test_campaigns_run_in_tile_number_order():
    # Phase 6: house 2 has room for one token; mailbox 9 (pizza, on (6,0) in house 2's block) runs
    # before billboard 14 (burger) although it was placed later
    state = position()
    state.houses[2].demand = [BEER, BEER]
    add_campaign(state, 14, 0, B, row=5, col=0)
    add_campaign(state, 9, 1, P, row=6, col=0)
    run(state)
    assert demands(state) == {2: [BEER, BEER, P]}


def test_expiry_returns_the_tile_and_the_marketeer_and_eternal_campaigns_stay():
    # Phase 6: the last token gone, tile 14 goes back to the supply (in order) and the brand manager to
    # the hand; tile 9 with 2 tokens keeps 1; an eternal campaign keeps its single token (First billboard)
    state = position()
    add_campaign(state, 14, 0, B, row=5, col=0, remaining=1)
    add_campaign(state, 9, 0, P, row=6, col=0, remaining=2)
    add_campaign(state, 11, 1, BEER, row=8, col=3, eternal=True)
    run(state)
    assert [(c.number, c.remaining) for c in state.campaigns] == [(9, 1), (11, 1)]
    assert 14 in state.marketing_supply and state.marketing_supply == sorted(state.marketing_supply)
    p = state.players[0]
    assert p.hand[EmployeeType.BRAND_MANAGER] == 1 and p.busy[EmployeeType.BRAND_MANAGER] == 1


def test_a_fired_marketeer_does_not_come_back():
    # C30, D39: the busy card was fired, its campaign runs out: the tile returns, no card does
    state = position()
    add_campaign(state, 14, 0, B, row=5, col=0, busy=False)
    run(state)
    assert state.campaigns == [] and state.players[0].hand[EmployeeType.BRAND_MANAGER] == 0


def test_a_campaign_of_a_bankrupt_chain_still_runs():
    # C21: the chain leaves at Clean-up; its campaigns run in this Marketing phase
    state = position()
    state.players[1].bankrupt = True
    add_campaign(state, 14, 1, B, row=5, col=0)
    run(state)
    assert demands(state) == {2: [B]}


def test_an_airplane_anchored_off_its_edge_is_refused_by_both_engines():
    # placement.airplane_from_anchor: an anchor must lie on the edge it names (ValueError, same words)
    state = position()
    add_campaign(state, 4, 0, B, row=3, col=0, orientation=0)
    document = state_to_dict(state)
    with pytest.raises(ValueError) as theirs:
        marketing.run(state)
    with pytest.raises(ValueError) as ours:
        native_marketing(document)
    assert str(ours.value) == str(theirs.value)


def _random_position(rng: random.Random):
    n = rng.choice([2, 3, 4, 5])
    state = position(n, seed=rng.randrange(10**6))
    board = state.board
    for p in state.players:
        if rng.random() < 0.3:
            p.milestones.add(Milestone.FIRST_RADIO)
    taken = {sq for house in state.houses.values() for sq in house.squares}
    for house in state.houses.values():
        if rng.random() < 0.3:  # any two free squares will do: reach only reads the house grid
            free = [(r, c) for r in range(board.height) for c in range(board.width) if (r, c) not in taken]
            house.garden = tuple(rng.sample(free, 2))
            taken.update(house.garden)
        house.demand = [rng.randrange(5) for _ in range(rng.choice([0, 0, 1, 2, 3]))]
    tiles = rng.sample(MARKETING_TILES, rng.randrange(1, 7))
    for tile in tiles:
        owner = rng.randrange(n)
        if tile.type == CampaignType.AIRPLANE:
            edge = rng.randrange(4)
            length = board.width if edge in (0, 2) else board.height
            start = rng.randrange(length - tile.along_edge + 1)
            row, col = {0: (0, start), 1: (start, board.width - 1), 2: (board.height - 1, start),
                        3: (start, 0)}[edge]
            orientation = edge
        else:
            orientation = rng.randrange(2) if tile.rotatable and tile.w != tile.h else 0
            rows, cols = (tile.h, tile.w) if orientation == 0 else (tile.w, tile.h)
            row, col = rng.randrange(board.height - rows + 1), rng.randrange(board.width - cols + 1)
        add_campaign(state, tile.number, owner, rng.randrange(5), row=row, col=col, orientation=orientation,
                     remaining=rng.randrange(1, 4), eternal=rng.random() < 0.2, busy=rng.random() < 0.85)
    rng.shuffle(state.campaigns)
    return state


@pytest.mark.parametrize("seed", range(4))
def test_random_positions_market_as_in_the_python_engine(seed):
    rng = random.Random(f"native marketing {seed}")
    for _ in range(50):
        run(_random_position(rng))
