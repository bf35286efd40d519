"""The strategist family: legal whole games at 2-5 players, no peeking, determinism for a seed and
variation between seeds, the archetype tables against the card data, the specs, and the shadow
Dinnertime checked by hand."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from fcm_agents.heuristic import HeuristicAgent
from fcm_agents.registry import make_agent, split_specs
from fcm_agents.strategist import ARCHETYPES, StrategistAgent, choose_archetype, read_map, shadow_dinnertime
from fcm_agents.strategist.archetypes import parse_strategist_params
from fcm_env.data import EMPLOYEES, EmployeeType, Good
from fcm_env.engine.game import Game
from fcm_env.engine.hidden.visibility import hidden_from
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.state import Phase

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from late_builders import GARDEN_2, demand, give, stock, two_chains

B, BEER = Good.BURGER, Good.BEER


def _play(game: Game, agents: list) -> list:
    moves = []
    while not game.is_over:
        player = game.current_player
        action = agents[player].act_on_game(game, player)
        game.apply(action)  # IllegalActionError if it were not legal
        moves.append(action)
    return moves


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "introductory"), (4, "standard"),
                                                  (5, "standard")])
def test_every_archetype_and_the_default_play_legal_whole_games(players, variant):
    names = [None, *ARCHETYPES]
    for k in range(0, len(names), players):
        lineup = names[k:k + players]
        agents = [StrategistAgent(name, seed=k + p) for p, name in enumerate(lineup)]
        agents += [HeuristicAgent(seed=p) for p in range(players - len(agents))]
        game = Game.new(players, seed=40 + k, variant=variant, max_rounds=6)
        assert len(_play(game, agents)) > 20 and game.winners


def test_a_seed_gives_the_same_game_and_other_seeds_vary_the_placements():
    def moves(seed: int) -> list:
        return _play(Game.new(2, seed=9, max_rounds=8), [StrategistAgent("marketing", seed=seed), HeuristicAgent(seed=0)])

    assert moves(1) == moves(1)
    assert len({tuple(moves(seed)) for seed in range(1, 6)}) > 1  # one map, not one game
    fixed = [StrategistAgent("marketing", seed=s, variation=0.0) for s in (1, 2)]
    games = [_play(Game.new(2, seed=9, max_rounds=8), [agent, HeuristicAgent(seed=0)]) for agent in fixed]
    assert games[0] == games[1]  # no variation: the seed draws nothing


def test_the_default_keeps_its_plan_for_the_whole_game_and_each_archetype_keeps_its_reserve():
    for name, plan in ARCHETYPES.items():
        game = Game.new(2, seed=3)
        agents = [StrategistAgent(name, seed=0), HeuristicAgent(seed=1)]
        while game.state.round < 2:
            player = game.current_player
            game.apply(agents[player].act_on_game(game, player))
        assert game.state.players[0].reserve == plan.reserve, name
    agent = StrategistAgent(seed=0)
    game = Game.new(2, seed=3, max_rounds=5)
    plans = set()
    while not game.is_over:
        player = game.current_player
        if player == 0 and game.state.phase != Phase.SETUP_RESTAURANTS:  # chosen once its restaurant is down
            plans.add(agent.plan_for(game.state, 0).name)
        game.apply(agent.act_on_game(game, player) if player == 0 else HeuristicAgent(seed=1).act_on_game(game, 1))
    assert len(plans) == 1 and plans <= set(ARCHETYPES)


@pytest.mark.parametrize("num_players", [2, 4])
def test_the_strategist_plays_the_same_whatever_the_hidden_facts(num_players):
    game = Game.new(num_players, seed=50 + num_players, max_rounds=6)
    rng = random.Random(num_players)
    checked = 0
    while not game.is_over:
        player = game.current_player
        if hidden_from(game.state, player).players():
            other = game.determinize(player, np.random.default_rng(checked))  # the hidden facts redrawn
            for name in (None, "discount", "drinks", "expansion"):  # expansion: the organisation planner
                mine, theirs = StrategistAgent(name, seed=4), StrategistAgent(name, seed=4)
                assert mine.act_on_game(other, player) == theirs.act_on_game(game, player)
            checked += 1
        game.apply(StrategistAgent(seed=player).act_on_game(game, player) if rng.random() < 0.8
                   else pick(rng, game.legal_actions()))
    assert checked > 20


# ------------------------------------------------------------------ the tables and the specs


def test_the_archetype_tables_follow_the_card_data():
    for plan in ARCHETYPES.values():
        assert plan.reserve in (100, 200, 300)
        for line, want in plan.hiring_plan:
            assert EMPLOYEES[line].entry_level and want >= 1, (plan.name, EmployeeType(line).name)
        for source, goals in plan.train_goals.items():
            for goal in goals:
                assert goal in EMPLOYEES[source].trains_to, (plan.name, EmployeeType(source).name)
        assert len(set(plan.play_priority)) == len(plan.play_priority)
    assert len(ARCHETYPES) >= 6
    assert {plan.reserve for plan in ARCHETYPES.values()} != {200}  # the reserve is chosen by plan


def test_specs_build_strategists_and_bad_ones_say_what_is_wrong():
    agent = make_agent("strategist:archetype=luxury,seed=3,variation=0.1")
    assert agent.fixed.name == "luxury" and agent._seed == 3 and agent.variation == 0.1
    assert make_agent("strategist", seed=8).fixed is None
    assert split_specs("strategist:archetype=cfo,seed=2,heuristic") == ["strategist:archetype=cfo,seed=2", "heuristic"]
    with pytest.raises(ValueError, match="unknown archetype 'tycoon': use one of marketing"):
        make_agent("strategist:archetype=tycoon")
    with pytest.raises(ValueError, match="unknown key 'speed'"):
        parse_strategist_params("speed=3")
    with pytest.raises(ValueError, match=r"variation must lie in \[0, 1\]"):
        parse_strategist_params("variation=1.5")


def test_the_map_reading_counts_what_the_fixed_map_shows():
    # late_builders' map: player 0's entrance at range 0 from house 2 and 2 from house 4; player 1 at 1 from both
    state = two_chains()
    reading = read_map(state, 0)
    assert reading.num_players == 2 and reading.reached_houses >= 2 and reading.near_houses >= 2
    assert reading.contested <= reading.reached_houses
    assert choose_archetype(reading) in ARCHETYPES


# ------------------------------------------------------------------ the shadow Dinnertime, by hand


def test_the_shadow_dinnertime_is_the_rules_dinnertime_on_a_copy():
    # rules: Phase 4, CFO (C22: +50% rounded up), waitress tips $3 (R36); D47. House 2 wants 2 burgers:
    # player 0 (range 0, $10) sells them for $20 and its CFO adds $10; player 1's waitress tips $3.
    state = two_chains()
    give(state, 0, cfo=1)
    give(state, 1, waitress=1)
    stock(state, 0, burger=2)
    demand(state, 2, B, B)
    before = state.clone()
    forecast = shadow_dinnertime(state)
    assert (forecast.sales, forecast.tips, forecast.cfo) == ((20, 0), (0, 3), (10, 0))
    assert forecast.served_by[2] == 0 and forecast.income(0) == 30 and forecast.income(1) == 3
    assert state.players[0].cash == before.players[0].cash and state.houses[2].demand == [B, B]  # untouched
    assert (state.players[0].stock == before.players[0].stock).all()


def test_the_shadow_dinnertime_weighs_stock_demand_and_a_price_manager():
    # rules: Phase 4 example: a luxuries manager (+$10) and a garden (double): 2 x ($10 + $10) x 2 = $80 for
    # the 2 beers of house 2, but only with the beers in stock
    state = two_chains()
    demand(state, 2, BEER, BEER, garden=GARDEN_2)
    assert shadow_dinnertime(state).income(0) == 0  # nothing in stock: nothing sold
    assert shadow_dinnertime(state, stock={0: {BEER: 2}}).sales[0] == 40
    lux = shadow_dinnertime(state, stock={0: {BEER: 2}}, work={0: {EmployeeType.LUXURIES_MANAGER: 1}})
    assert lux.sales[0] == 80
    # R33: house 2 wants a burger; player 0 offers 10 + 0, player 1 10 + 1; with a discount manager (-$3)
    # player 1 offers 7 + 1 = 8 and sells it for $7
    state = two_chains()
    demand(state, 2, B)
    both = {0: {B: 1}, 1: {B: 1}}
    assert shadow_dinnertime(state, stock=both).served_by[2] == 0
    cheaper = shadow_dinnertime(state, stock=both, work={1: {EmployeeType.DISCOUNT_MANAGER: 1}})
    assert cheaper.served_by[2] == 1 and cheaper.sales == (0, 7)
    # rules: Phase 6 — a house without a garden holds 3 demand tokens: 2 of the 4 asked fit, and 3 burgers
    # are more than either chain has
    more = shadow_dinnertime(state, stock=both, demand={2: [B, B, B, B]})
    assert more.served_by[2] is None and state.houses[2].demand == [B]
