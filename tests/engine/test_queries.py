"""The public engine API for front ends: stepping a hand-made position (on both engines: ``load_game``), and the
table queries."""

from __future__ import annotations

import json

import pytest
from late_builders import GARDEN_2, add_campaign, demand, give, position, stock, two_chains

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good, Milestone
from fcm_env.engine import queries
from fcm_env.engine.actions import Decision
from fcm_env.engine.game import Game
from fcm_env.engine.state import Phase

B, BEER = Good.BURGER, Good.BEER



def test_a_hand_written_position_at_dinnertime_advances_to_the_next_decision(load_game):
    # rules: Phase 4 example (luxuries manager +$10, garden doubles, First burger marketed +$5 a
    # burger): 45 + 2 x 40 = $125; then Payday asks player 0, who must pay a $5 salary
    state = two_chains()
    give(state, 0, luxuries_manager=1)
    state.players[0].milestones.add(Milestone.FIRST_BURGER_MARKETED)
    state.milestones_gone.add(Milestone.FIRST_BURGER_MARKETED)  # claimed in an earlier turn
    stock(state, 0, burger=1, beer=2)
    demand(state, 2, B, BEER, BEER, garden=GARDEN_2)
    game = load_game(json.loads(json.dumps(Game(state).to_dict())))  # a document, loaded
    assert game.pending is None and game.state.phase == Phase.WORKING  # loading moves nothing
    assert game.advance() is game
    p = game.snapshot().state.players[0]  # the whole position (the native game's state holds the table facts)
    assert p.cash == 125 and p.income == 125 and game.snapshot().state.houses[2].demand == []
    assert game.state.phase == Phase.PAYDAY
    assert game.pending.decision == Decision.FIRE and game.pending.player == 0
    assert game.state.players[1].cash == 0


def test_a_hand_written_position_in_phase_dinnertime_runs_dinnertime_on_advance(load_game):
    # rules: Phase 4 (Dinnertime asks nothing, so a position in it is one where it is still to
    # run); Phase 4 CFO, C22; First to have $20 (C26); D47 — house 2's 2 burgers earn 2 x $10 = $20,
    # the CFO adds $10: $30; player 1's waitress tips $3. Then Payday asks player 0 (a CFO to pay).
    state = two_chains()
    state.phase = Phase.DINNERTIME
    give(state, 0, cfo=1)
    give(state, 1, waitress=1)
    stock(state, 0, burger=2)
    demand(state, 2, B, B)
    game = load_game(json.loads(json.dumps(Game(state).to_dict())))
    assert game.pending is None and game.state.phase == Phase.DINNERTIME  # loading moves nothing
    game.advance()
    full = game.snapshot().state
    players = full.players
    assert players[0].cash == 30 and players[0].income == 20 and players[1].cash == 3
    assert full.bank == 1000 - 33 and full.houses[2].demand == []
    assert Milestone.FIRST_HAVE_20 in players[0].milestones
    assert game.state.phase == Phase.PAYDAY
    assert game.pending.decision == Decision.FIRE and game.pending.player == 0


def test_a_hand_written_position_in_phase_marketing_runs_the_campaigns_on_advance(load_game):
    # rules: Phase 6 (no decisions: a position in it is one where the campaigns are still to run),
    # Phase 7; D47 — billboard 14 (1 pizza token left) reaches house 2: 1 pizza demand; the
    # campaign ends, tile and marketing trainee go back; Clean-up opens round 3.
    state = position()
    state.phase = Phase.MARKETING
    add_campaign(state, 14, 1, Good.PIZZA, row=5, col=0, remaining=1, marketeer=E.MARKETING_TRAINEE)
    game = load_game(json.loads(json.dumps(Game(state).to_dict())))
    assert game.pending is None and game.state.phase == Phase.MARKETING
    game.advance()
    state = game.snapshot().state
    assert state.houses[2].demand == [Good.PIZZA] and state.campaigns == []
    assert 14 in state.marketing_supply and state.players[1].hand[E.MARKETING_TRAINEE] == 1
    assert state.round == 3 and state.phase in (Phase.RESTRUCTURING, Phase.ORDER_OF_BUSINESS)


def test_unit_price_and_distance():
    # python-only: the front ends' query API (fcm_env.engine.queries) reads a Python state (a native game's is its snapshot()); prices and distances are played on both engines in test_dinnertime.py
    # rules: Phase 4 — discount manager -$3; distances on the fixed map (late_builders)
    state = two_chains()
    give(state, 1, discount_manager=1)
    assert queries.unit_price(state, 0) == 10 and queries.unit_price(Game(state), 1) == 7
    assert queries.distance(state, 0, 2) == 0 and queries.distance(state, 0, 4) == 2
    assert queries.distance(state, 1, 2) == 1
    assert queries.distance(state, 0, 7) is None  # house 7's loop touches no other road
    with pytest.raises(ValueError, match="player must be a player id 0..1, got 2"):
        queries.unit_price(state, 2)
    with pytest.raises(ValueError, match="house 99 is not on the map"):
        queries.distance(state, 0, 99)


def test_house_choice_names_the_winner_and_why():
    # python-only: the query API's explanation of a house's choice (words for people); R33/R34 themselves are played on both engines in test_dinnertime.py
    # rules: Phase 4; R33 — 7 + 1 = 8 beats 10 + 0
    state = two_chains()
    give(state, 1, discount_manager=1)
    stock(state, 0, burger=2)
    stock(state, 1, burger=2)
    demand(state, 2, B, B)
    choice = queries.house_choice(state, 2)
    assert choice.chosen == 1 and choice.demand == (int(B), int(B))
    assert [(o.player, o.total) for o in choice.offers] == [(0, 10), (1, 8)]
    assert choice.reason == "lowest unit price + distance (7 + 1 = 8)"
    # R34 — a pricing manager instead: 9 + 1 = 10 + 0, the chain with a waitress wins
    state = two_chains()
    give(state, 1, pricing_manager=1, waitress=1)
    stock(state, 0, burger=1)
    stock(state, 1, burger=1)
    demand(state, 2, B)
    choice = queries.house_choice(state, 2)
    assert choice.chosen == 1 and choice.reason == "tie on price + distance (10): most waitresses (1)"
    # nobody has the beer: no chain; no demand at all: no question
    demand(state, 4, BEER)
    assert queries.house_choice(state, 4).chosen is None
    assert not any(o.competes for o in queries.house_choice(state, 4).offers)
    assert queries.house_choice(state, 10).reason == "no demand"


def test_open_slots_and_the_order_of_business_count():
    # python-only: the query API's counts for front ends; the structure rules are played on both engines in test_structure.py and test_flow.py
    # rules: Company structure (CEO 3 slots; a management trainee adds 2 and takes 1; R10), Phase 2
    # (First airplane campaign counts two extra open slots)
    state = position()
    assert queries.open_slots(state, 0) == 3
    give(state, 0, management_trainee=1, waitress=2)
    assert queries.open_slots(state, 0) == 3 + 2 - 3 == 2
    state.players[0].milestones.add(Milestone.FIRST_AIRPLANE)
    assert queries.order_slots(state, 0) == 4 and queries.order_slots(state, 1) == 3


def test_campaign_reach_of_placed_and_hypothetical_campaigns():
    # python-only: the query API's reach of hypothetical campaigns; the reach in play is tested on both engines in test_marketing_run.py
    # rules: Billboard campaign (houses orthogonally next to it), Airplane campaign (every house
    # under the lane): the same squares as tests/engine/test_marketing_run.py
    state = position()
    add_campaign(state, 14, 0, Good.BURGER, row=5, col=0)
    assert queries.campaign_houses(state, 14) == (2,)
    assert queries.campaign_reach(state, 5, 10, 0, 3) == (7, 10)  # 3 rows from the west edge
    assert queries.campaign_reach(state, 13, 8, 8, 0) == ()  # a billboard touching no house
    with pytest.raises(ValueError, match="no campaign with tile 12"):
        queries.campaign_houses(state, 12)


def test_income_forecast_runs_dinnertime_on_a_copy():
    # python-only: the query API's forecast on a Python copy; the same Dinnertime is played on both engines above and in test_dinnertime.py
    # the Phase 4 rulebook example again: $125 for player 0, $3 of tips for player 1's waitress
    state = two_chains()
    give(state, 0, luxuries_manager=1)
    give(state, 1, waitress=1)
    state.players[0].milestones.add(Milestone.FIRST_BURGER_MARKETED)
    stock(state, 0, burger=1, beer=2)
    demand(state, 2, B, BEER, BEER, garden=GARDEN_2)
    before = Game(state).to_dict()
    assert queries.income_forecast(state) == {0: 125, 1: 3}
    assert Game(state).to_dict() == before  # nothing moved
    assert int(state.players[0].work[E.LUXURIES_MANAGER]) == 1


def test_placement_footprint_reads_the_shape_of_every_kind_of_placement():
    # python-only: the query API's shapes for drawing placements; the placements themselves are played on both engines in test_placement.py
    from fcm_env.data import MARKETING_TILES, CampaignType, Direction
    from fcm_env.engine.actions import Action, ActionKind

    game = Game.new(2, seed=1)
    # a restaurant is 2x2 from its top-left square; orientation 0 puts the entrance there (NW)
    shape = queries.placement_footprint(game, Action(ActionKind.PLACE_RESTAURANT, (3, 4, 0)))
    assert shape.squares == ((3, 4), (3, 5), (4, 4), (4, 5)) and shape.entrance == (3, 4)
    # a house is 2x2 with a 2x1 garden on the side its orientation names (0: above it)
    shape = queries.placement_footprint(game.state, Action(ActionKind.PLACE_HOUSE, (5, 5, 0)))
    assert shape.squares == ((6, 5), (6, 6), (7, 5), (7, 6)) and shape.garden == ((5, 5), (5, 6))
    billboard = next(t.number for t in MARKETING_TILES if t.type == CampaignType.BILLBOARD)
    shape = queries.placement_footprint(game, Action(ActionKind.PLACE_CAMPAIGN, (5, 5, 0)), billboard)
    assert shape.squares == ((5, 5), (5, 6), (5, 7), (6, 5), (6, 6), (6, 7))  # 2x3, lying
    # an airplane flies beside the map: no squares, a lane (a board alone is enough to ask)
    plane = next(t for t in MARKETING_TILES if t.type == CampaignType.AIRPLANE)
    shape = queries.placement_footprint(game.state.board, Action(ActionKind.PLACE_CAMPAIGN, (0, 3, 0)), plane.number)
    assert shape.squares == () and shape.lane.edge == Direction.N and list(shape.lane.span()) == [3]
    with pytest.raises(ValueError, match="needs the tile being placed"):
        queries.placement_footprint(game, Action(ActionKind.PLACE_CAMPAIGN, (5, 5, 0)))
    with pytest.raises(ValueError, match="is not a placement"):
        queries.placement_footprint(game, Action(ActionKind.RECRUIT, (int(E.WAITRESS),)))
