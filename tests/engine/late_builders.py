"""Builders for phases 4-7 scenario tests: positions set directly on a ``GameState``.

The fixed 2-player map (3 x 3 tiles) used by most tests::

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

Tiles are numbered 0..8 row by row. The loop around house 7 (tile 6) touches no
other road: nothing outside it reaches house 7.
"""

from __future__ import annotations

from fcm_env.data import CampaignType, Good, marketing_tile
from fcm_env.engine.board import Board
from fcm_env.engine.game import Game
from fcm_env.engine.state import Campaign, GameState, Phase, Restaurant

MAP_2P = "A0 O0 B0 / R0 S0 T0 / D2 F1 L0"
BOARD_2P = Board.from_tiles(MAP_2P)

# restaurant placements (row, col, entrance corner: 0 NW 1 NE 2 SE 3 SW) on BOARD_2P
NEAR_2 = (0, 0, 3)  # entrance (1,0) on tile 0: distance 0 to house 2, 2 to house 4
NEAR_2_EAST = (3, 3, 0)  # entrance (3,3) on tile 0: distance 0 to house 2
TILE_1 = (3, 8, 0)  # entrance (3,8) on tile 1: distance 1 to houses 2 and 4, 2 to house 10
STRADDLE = (3, 9, 0)  # entrance (3,9) on tile 1; its NE corner (3,10) lies on tile 2
LOOP = (10, 0, 3)  # entrance (11,0) on the isolated loop of house 7


def position(num_players: int = 2, *, variant: str = "standard", board: Board | None = None,
             order: list[int] | None = None, bank: int = 1000, reserves: list[int] | None = None,
             seed: int = 0) -> GameState:
    """A round-2 state at the end of Working 9-5 (no decision pending), nobody holding anything.

    ``board`` defaults to ``BOARD_2P`` for 2 players (else the seeded random map);
    ``reserves`` are the kept reserve card values (standard game; default $200 each).
    """
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
        values = reserves if reserves is not None else [200] * num_players
        for p, value in zip(state.players, values):
            p.reserve = value
    return state


def add_restaurant(state: GameState, player: int, spot: tuple[int, int, int], *, coming_soon: bool = False) -> None:
    state.players[player].restaurants.append(Restaurant(*spot, coming_soon=coming_soon))


def give(state: GameState, player: int, where: str = "work", **cards: int) -> None:
    """Move cards from the supply to a player's ``work`` / ``beach`` / ``busy`` / ``hand``."""
    from fcm_env.data import EmployeeType

    pool = getattr(state.players[player], where)
    for name, n in cards.items():
        etype = EmployeeType[name.upper()]
        state.supply[etype] -= n
        pool[etype] += n


def stock(state: GameState, player: int, **goods: int) -> None:
    for name, n in goods.items():
        state.players[player].stock[Good[name.upper()]] = n


def demand(state: GameState, house: int, *goods: Good, garden: tuple[tuple[int, int], ...] | None = None) -> None:
    h = state.houses[house]
    h.demand = [int(g) for g in goods]
    if garden is not None:
        h.garden = garden


def add_campaign(state: GameState, number: int, owner: int, product: Good, *, row: int, col: int,
                 orientation: int = 0, remaining: int = 1, eternal: bool = False, marketeer: int | None = None,
                 squares: tuple[tuple[int, int], ...] | None = None, busy: bool = True) -> Campaign:
    """Put campaign tile ``number`` on the board (taken from the supply) with its marketeer busy (unless
    ``busy=False``: a fired marketeer, C30). Airplanes: (row, col, orientation) is the edge anchor."""
    from fcm_env.data import EmployeeType
    from fcm_env.engine.board.placement import campaign_squares

    tile = marketing_tile(number)
    if squares is None:
        squares = () if tile.type == CampaignType.AIRPLANE else campaign_squares(row, col, orientation, tile)
    if marketeer is None:
        marketeer = int(EmployeeType.BRAND_DIRECTOR if tile.type == CampaignType.RADIO else EmployeeType.BRAND_MANAGER)
    state.supply[marketeer] -= 1
    if busy and not eternal:  # an eternal campaign's marketeer is out of the game for good (rules: First billboard)
        state.players[owner].busy[marketeer] += 1
    if number in state.marketing_supply:
        state.marketing_supply.remove(number)
    campaign = Campaign(number, int(tile.type), owner, int(marketeer), int(product), remaining, eternal,
                        row, col, orientation, tuple(squares))
    state.campaigns.append(campaign)
    return campaign


def money(state: GameState) -> int:
    """Bank plus players' cash minus the written-down debt (conserved; C23)."""
    from fcm_env.engine.invariants import total_money

    return total_money(state)


GARDEN_2 = ((5, 0), (5, 1))  # a garden south of house 2


def two_chains(**kw) -> GameState:
    """Player 0 at distance 0 from house 2 (2 from house 4), player 1 at distance 1 from both (tile 1)."""
    state = position(**kw)
    add_restaurant(state, 0, NEAR_2)
    add_restaurant(state, 1, TILE_1)
    return state


def chain_that_cannot_pay() -> GameState:
    """``two_chains`` where player 0 sells at 10 - 12 = -2 (four discount managers) with $3: house 2's two
    burgers cost it $4 it does not have, house 4 wants one burger too (player 1 has one in stock)."""
    state = two_chains()
    give(state, 0, discount_manager=4)
    state.players[0].cash = 3
    stock(state, 0, burger=3)
    stock(state, 1, burger=1)
    demand(state, 2, Good.BURGER, Good.BURGER)
    demand(state, 4, Good.BURGER)
    return state
