"""Helpers of the native Dinnertime / Marketing / food-and-drinks tests: positions set directly on a Python
``GameState`` (as tests/engine/late_builders.py sets them), and the native core's test hooks that run one
engine phase alone (run_dinnertime / run_marketing of phase_dinnertime.cpp and
phase_marketing.cpp, reached as the core Game's ``_run_dinnertime`` / ``_run_marketing``: the engine step also starts the next phase, which other
source files own).

The fixed 2-player map (3 x 3 tiles, tiles 0..8 row by row; ``#`` road)::

       0     5     10
      +-----+-----+-----+
     0|..#..|.b#..|..#4H|
     1|..#..|..#..|..#HH|
     2|#####|#####|#####|
     3|2H#..|..#..|..#..|
     4|HH#..|..#..|..#..|
      +-----+-----+-----+
     5|..#..|..#s.|..#..|
     6|.s#..|..#..|.l#..|
     7|#####|#####|#####|
     8|..#..|b.#..|..#..|
     9|..#..|..#..|..#..|
      +-----+-----+-----+
    10|.....|..#10|..#..|
    11|.....|..#HH|..#..|
    12|#.7H#|..###|#####|
    13|#.HH#|..#..|...l.|
    14|#####|..#..|.....|
      +-----+-----+-----+

The loop around house 7 (tile 6) touches no other road.
"""

from __future__ import annotations

from fcm_env.data import CampaignType, EmployeeType, Good, marketing_tile
from fcm_env.engine.board import Board
from fcm_env.engine.board.placement import campaign_squares
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.serialize import state_to_dict
from fcm_env.engine.state import Campaign, GameState, Phase, Restaurant
from fcm_env.native import _core

MAP_2P = "A0 O0 B0 / R0 S0 T0 / D2 F1 L0"
BOARD_2P = Board.from_tiles(MAP_2P)

# restaurant placements (row, col, entrance corner: 0 NW 1 NE 2 SE 3 SW) on BOARD_2P
NEAR_2 = (0, 0, 3)  # entrance (1,0) on tile 0, by the road (2,0): range 0 to house 2, 2 to house 4
NEAR_2_EAST = (3, 3, 0)  # entrance (3,3) on tile 0, by the road (3,2): range 0 to house 2
TILE_1 = (3, 8, 0)  # entrance (3,8) on tile 1: range 1 to houses 2 and 4 (one tile border each way)
LOOP = (10, 0, 3)  # entrance (11,0) on the isolated loop of house 7
GARDEN_2 = ((5, 0), (5, 1))  # a garden south of house 2

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
