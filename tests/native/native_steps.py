"""Helpers of the native Dinnertime / Marketing / food-and-drinks tests: positions set directly on a Python
``GameState`` (as tests/engine/late_builders.py sets them), and the native core's test hooks that run one
engine phase alone (run_dinnertime / run_marketing of phase_dinnertime.cpp and
phase_marketing.cpp, reached as the core Game's ``_run_dinnertime`` / ``_run_marketing``: the engine step also starts the next phase, which other
source files own).

The map and the restaurant spots are those of tests/engine/late_builders.py (its docstring draws the map).
"""

from __future__ import annotations

import sys
from pathlib import Path

from fcm_env.data import CampaignType, EmployeeType, Good, marketing_tile
from fcm_env.engine.board import Board
from fcm_env.engine.board.placement import campaign_squares
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.serialize import state_to_dict
from fcm_env.engine.state import Campaign, GameState, Phase, Restaurant
from fcm_env.native import _core

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from late_builders import BOARD_2P, GARDEN_2, LOOP, MAP_2P, NEAR_2, NEAR_2_EAST, TILE_1  # noqa: F401


def native_dinnertime(document: dict) -> dict:
    """The native run_dinnertime alone on the document's state: the document after it."""
    game = _core.Game.from_checked_dict(document)
    game._run_dinnertime()
    return game.to_dict()


def native_marketing(document: dict) -> dict:
    """The native run_marketing alone on the document's state: the document after it."""
    game = _core.Game.from_checked_dict(document)
    game._run_marketing()
    return game.to_dict()


def position(num_players: int = 2, *, variant: str = "standard", board: Board | None = None,
             order: list[int] | None = None, bank: int = 1000, seed: int = 0) -> GameState:
    """A round-2 state at the end of Working 9-5 (nothing pending), nobody holding anything; standard
    games keep a $200 reserve card each. ``board`` defaults to BOARD_2P for 2 players."""
    if board is None and num_players == 2:
        board = BOARD_2P
    state = Game.new(num_players, seed=seed, variant=variant, board=board).state
    state.pending = []
    state.queue = []
    state.phase = Phase.WORKING
    state.round = 2
    state.turn_order = list(order if order is not None else range(num_players))
    state.bank = bank
    if variant == "standard":
        for p in state.players:
            p.reserve = 200
    return state


def add_restaurant(state: GameState, player: int, spot: tuple[int, int, int], *, coming_soon: bool = False) -> None:
    state.players[player].restaurants.append(Restaurant(*spot, coming_soon=coming_soon))


def give(state: GameState, player: int, where: str = "work", **cards: int) -> None:
    """Cards from the supply to a player's ``work`` / ``hand`` / ``busy`` (by lower-case type name)."""
    pool = getattr(state.players[player], where)
    for name, n in cards.items():
        etype = EmployeeType[name.upper()]
        state.supply[etype] -= n
        pool[etype] += n


def stock(state: GameState, player: int, **goods: int) -> None:
    for name, n in goods.items():
        state.players[player].stock[Good[name.upper()]] = n


def add_campaign(state: GameState, number: int, owner: int, product: int, *, row: int, col: int,
                 orientation: int = 0, remaining: int = 1, eternal: bool = False, marketeer: int | None = None,
                 busy: bool = True) -> Campaign:
    """Campaign tile ``number`` from the supply onto the board, its marketeer busy (unless eternal, or
    ``busy=False``: a fired marketeer, C30). Airplanes: (row, col, orientation) is the edge anchor."""
    tile = marketing_tile(number)
    squares = () if tile.type == CampaignType.AIRPLANE else campaign_squares(row, col, orientation, tile)
    if marketeer is None:
        marketeer = int(EmployeeType.BRAND_DIRECTOR if tile.type == CampaignType.RADIO else EmployeeType.BRAND_MANAGER)
    state.supply[marketeer] -= 1
    if busy and not eternal:
        state.players[owner].busy[marketeer] += 1
    if number in state.marketing_supply:
        state.marketing_supply.remove(number)
    campaign = Campaign(number, int(tile.type), owner, int(marketeer), int(product), remaining, eternal,
                        row, col, orientation, tuple(squares))
    state.campaigns.append(campaign)
    return campaign


def run_both(state: GameState, python_run) -> GameState:
    """Run a phase on ``state`` in Python (in place) and natively on its document; assert the same result."""
    before = state_to_dict(state)
    python_run(state)
    hook = native_dinnertime if python_run.__module__.endswith("dinnertime") else native_marketing
    assert hook(before) == state_to_dict(state), "the native phase leaves another state"
    return state
