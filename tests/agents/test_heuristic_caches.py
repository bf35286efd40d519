"""What the heuristic remembers per house layout is exact, and never outlives the layout.

The heuristic keeps road ranges, a lone entrance's worth and the houses a campaign spot reaches per
*house layout* (``fcm_agents.heuristic.layout._HouseLayout``, found by ``occupancy.houses_key``). These
tests compare each with the plain computation it replaces, and check that a layout edited by hand
(no move, no ``advance()``) is seen at once. The golden games (test_heuristic_speedup_guard.py)
check the choices themselves.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from fcm_agents.heuristic import HeuristicAgent
from fcm_agents.heuristic.layout import _layout
from fcm_env.data import HOUSES, MARKETING_TILES, CampaignType, Good
from fcm_env.engine.board import UNREACHABLE, occupancy, placement
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.state import House


def _mid_game(num_players: int, seed: int, rounds: int = 5) -> Game:
    game = Game.new(num_players, seed=seed, max_rounds=rounds + 2)
    agent = HeuristicAgent(seed=seed)
    rng = random.Random(seed)
    while game.state.round < rounds:
        player = game.current_player
        game.apply(agent.act_on_game(game, player) if rng.random() < 0.6 else pick(rng, game.legal_actions()))
    return game


def _distances_plain(state, player: int) -> dict[int, int]:
    entrances = occupancy.entrances_of(state, player)
    if not entrances:
        return {n: UNREACHABLE for n in state.houses}
    grid = state.board.ranges_from(entrances)
    return {n: int(min(grid[sq] for sq in h.all_squares)) for n, h in state.houses.items()}


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_billboard_rings_are_the_houses_next_to_every_spot(num_players):
    game = _mid_game(num_players, seed=20 + num_players)
    state = game.state
    board = state.board
    layout = _layout(state)
    grid = occupancy.house_grid(state)
    assert (layout.grid == grid).all()
    shapes = {shape for t in MARKETING_TILES if t.type == CampaignType.BILLBOARD for shape in t.footprints()}
    reached = 0
    for rows, cols in shapes:
        rings = layout.rings(rows, cols)
        for r in range(board.height - rows + 1):
            for c in range(board.width - cols + 1):
                want = board.houses_next_to(r, c, rows, cols, grid)
                assert layout.houses_of(rings[r][c]) == want, (rows, cols, r, c)
                reached += bool(want)
    assert reached > 50


def test_distances_follow_a_layout_edited_by_hand():
    game = _mid_game(3, seed=8)
    state = game.state
    agent = HeuristicAgent()
    for p in range(3):
        assert agent._distances(state, p) == _distances_plain(state, p)
    # a new house with its garden next to a road, written straight into the state (no move, no advance())
    free = placement.list_placements(placement.house_placements(state.board, occupancy.occupied(state)))
    row, col, side = free[len(free) // 2]
    number = state.house_supply.pop(0)
    house, garden = placement.house_footprint(row, col, side)
    state.houses[number] = House(number, house, garden, placed=True)
    for p in range(3):
        got = agent._distances(state, p)
        assert number in got and got == _distances_plain(state, p)
    # a restaurant moved by hand changes the entrances, so the ranges
    r = state.players[0].restaurants[0]
    state.players[0].restaurants[0] = replace(r, row=r.row + 1 if r.row + 2 < state.board.height else r.row - 1)
    assert agent._distances(state, 0) == _distances_plain(state, 0)


def _wanted_plain(state, player: int) -> dict[int, float]:
    dist = _distances_plain(state, player)
    wanted: dict[int, float] = {}
    for n, house in state.houses.items():
        if dist[n] < UNREACHABLE:
            for good in house.demand:
                wanted[good] = wanted.get(good, 0.0) + 1.0
    return wanted


def test_wanted_goods_follow_demand_edited_by_hand():
    game = _mid_game(2, seed=3)
    state = game.state
    agent = HeuristicAgent()
    near = [n for n, d in _distances_plain(state, 0).items() if d < UNREACHABLE]
    assert near and agent._wanted_goods(state, 0) == _wanted_plain(state, 0)
    state.houses[near[0]].demand.extend([Good.SODA, Good.SODA])  # straight into the state
    assert agent._wanted_goods(state, 0) == _wanted_plain(state, 0)
    assert agent._wanted_goods(state, 0)[Good.SODA] >= 2.0


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_entrance_scores_are_the_plain_loop_to_the_last_bit(num_players):
    """The first restaurants' scores: numpy sums in the loop's order give the very same floats."""
    game = Game.new(num_players, seed=40 + num_players)
    agent = HeuristicAgent()
    while game.pending.decision.name == "INITIAL_RESTAURANT":
        state = game.state
        player = game.current_player
        board = state.board
        others = [sq for q in range(num_players) if q != player
                  for r in state.players[q].restaurants for sq in occupancy.entrance_squares(r)]
        other_grid = board.ranges_from(others) if others else None
        legal = [a for a in game.legal_actions() if a.kind.name == "PLACE_RESTAURANT"]
        entrances = list(dict.fromkeys(placement.restaurant_entrance(*a.args) for a in legal))
        layout = _layout(state)
        other = layout.house_ranges(other_grid) if other_grid is not None else None
        scores = agent._entrance_scores(layout, entrances, other)
        for e in entrances:
            grid = board.ranges_from([e])
            total = 0.0
            for house in state.houses.values():
                d = min(int(grid[sq]) for sq in house.all_squares)
                if d >= UNREACHABLE:
                    continue
                value = 1.0 / (1.0 + d)
                if other_grid is not None and min(int(other_grid[sq]) for sq in house.all_squares) < d:
                    value *= 0.3
                total += value
            total += 0.2 * float((grid < 3).sum()) / grid.size
            assert scores[e] == total, e  # exactly: ties must break the same way
        game.apply(agent.act_on_game(game, player))


def test_house_values_use_the_remembered_ranges_of_every_player():
    game = _mid_game(4, seed=12)
    state = game.state
    agent = HeuristicAgent()
    for p in range(4):
        values = agent._house_values(state, p)
        mine = _distances_plain(state, p)
        for n, house in state.houses.items():
            limit = HOUSES.demand_limit_with_garden if house.has_garden else HOUSES.demand_limit
            if len(house.demand) >= limit:
                assert values[n] == 0.0
            elif mine[n] >= UNREACHABLE:
                assert values[n] == (0.1 if house.has_garden else 0.05)
            else:
                assert 0.0 < values[n] <= 2.0
