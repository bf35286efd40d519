"""The heuristic answers a house placement (reached in DAgger roll-ins, where it used to crash)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from builders import phase3_game

from fcm_agents import HeuristicAgent
from fcm_env.data import EmployeeType as E
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.board import occupancy, placement

CROSS = "A0 B0 P0 / O0 R0 S0 / G0 T0 N0"
HOME = {0: [(0, 0, 2)], 1: [(3, 10, 1)]}


def test_heuristic_places_a_new_house_as_close_to_its_restaurant_as_it_can():
    # rules: Place new houses and gardens (a new business developer, any house number, any empty
    # 2x3 area next to a road); the heuristic wants the house near its own entrance
    game = phase3_game(CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 1})
    game.apply(Action.choose_house(14))
    assert game.pending.decision == Decision.HOUSE_PLACE
    legal = game.legal_actions()
    grid = game.state.board.ranges_from(occupancy.entrances_of(game.state, 0))

    def nearest(action: Action) -> int:
        house, _garden = placement.house_footprint(*action.args)
        return min(int(grid[sq]) for sq in house)

    chosen = HeuristicAgent().act_on_game(game, 0)
    assert chosen in legal
    assert nearest(chosen) == min(nearest(a) for a in legal)
    assert nearest(chosen) < max(nearest(a) for a in legal)  # the choice matters on this map
