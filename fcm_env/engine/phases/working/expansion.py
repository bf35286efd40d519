"""Phase 3 Working 9-5, last two sub-steps: new houses and gardens, then restaurants.

rules: Place new houses and gardens; Place or move restaurants; C6, C11, R13, R14,
R31; D8.

Houses (one action per new business developer at work): ``NEW_BUSINESS`` offers
``choose_house(number)`` for every house token left that fits somewhere (then
``HOUSE_PLACE``), ``place_garden`` next to a printed house without a garden while
garden tokens last, or done. A placed house token carries its own garden.

Restaurants (one action per local or regional manager at work):
``RESTAURANT_MANAGER`` offers ``select_restaurant(manager, index)``: index ==
number of restaurants means a new one (at most 3 per chain), a smaller index moves
or rotates that restaurant (regional manager only); then ``RESTAURANT_PLACE``. A
local manager's restaurant is "coming soon"; whatever a regional manager places or
moves is open at once.
"""

from __future__ import annotations

import numpy as np

from fcm_env.data import EMPLOYEES, PRICES, EmployeeType
from fcm_env.engine.actions import Action, ActionKind, Decision, Pending
from fcm_env.engine.board.occupancy import entrances_of, occupied
from fcm_env.engine.board.placement import (
    garden_placements,
    garden_squares,
    garden_target,
    house_footprint,
    house_placements,
    list_placements,
    restaurant_placements,
    restaurant_squares,
)
from fcm_env.engine.state import GameState, House, Restaurant

HOUSES_STEP = 2  # positions of these sub-steps in working.LATER_STEPS
RESTAURANTS_STEP = 3

NBD = EmployeeType.NEW_BUSINESS_DEVELOPER
MANAGERS = tuple(spec.type for spec in EMPLOYEES if spec.restaurant_placement)
LOCAL_RANGE = 3  # rules: Place or move restaurants — "within a range of 3 tiles"


def _unused(state: GameState, player: int, etype: int) -> int:
    return int(state.players[player].work[etype]) - int(state.turn.used[etype])


def _step_over(state: GameState) -> None:
    """This sub-step is over: the Working turn asks the next one (``working.continue_turn``)."""
    state.pending = []


# ------------------------------------------------------------------ houses and gardens


def _gardenless(state: GameState) -> dict[int, tuple[tuple[int, int], ...]]:
    """Printed houses that may still get a garden (a placed house came with one)."""
    return {n: h.squares for n, h in sorted(state.houses.items()) if not h.placed and not h.has_garden}


def _new_business_actions(state: GameState, player: int) -> list[Action]:
    if _unused(state, player, NBD) <= 0:
        return []
    grid = occupied(state)
    actions = []
    if state.house_supply and house_placements(state.board, grid).any():
        actions.extend(Action.choose_house(n) for n in sorted(state.house_supply))
    if state.gardens_left > 0:
        legal = garden_placements(state.board, grid, _gardenless(state))
        actions.extend(Action.place_garden(*p) for p in list_placements(legal))
    return actions


def begin_houses(state: GameState, player: int) -> bool:
    """Ask the new business developers; False when none can place anything."""
    if not _new_business_actions(state, player):
        return False
    state.pending = [Pending(Decision.NEW_BUSINESS, player)]
    return True


def legal_new_business(state: GameState, pending: Pending) -> list[Action]:
    return [Action.pass_()] + _new_business_actions(state, pending.player)


def apply_new_business(state: GameState, pending: Pending, action: Action) -> None:
    player = pending.player
    if action.kind == ActionKind.PASS:
        _step_over(state)
        return
    if action.kind == ActionKind.CHOOSE_HOUSE:
        state.pending = [Pending(Decision.HOUSE_PLACE, player, action.args)]
        return
    row, col, side = action.args  # a garden for a printed house
    number = garden_target(row, col, side, _gardenless(state))
    state.houses[number].garden = garden_squares(row, col, side)
    state.gardens_left -= 1
    _next_new_business(state, player)


def legal_house_place(state: GameState, pending: Pending) -> list[Action]:
    return [Action.place_house(*p) for p in list_placements(house_placements(state.board, occupied(state)))]


def apply_house_place(state: GameState, pending: Pending, action: Action) -> None:
    number = pending.context[0]
    squares, garden = house_footprint(*action.args)
    state.houses[number] = House(number, squares, garden, placed=True)
    state.house_supply.remove(number)
    _next_new_business(state, pending.player)


def _next_new_business(state: GameState, player: int) -> None:
    state.turn.used[NBD] += 1
    if _new_business_actions(state, player):
        state.pending = [Pending(Decision.NEW_BUSINESS, player)]
    else:
        _step_over(state)


# ------------------------------------------------------------------ restaurants


def local_reach(state: GameState, player: int) -> np.ndarray:
    """Squares on tiles within range 3 by road of the chain's entrances (D8, D25)."""
    board = state.board
    entrances = entrances_of(state, player, open_only=False)
    near = (board.tile_ranges_from(entrances) <= LOCAL_RANGE).reshape(-1)
    return near[board.tile]


def restaurant_spots(state: GameState, player: int, manager: int, index: int) -> list[tuple[int, ...]]:
    """Legal (row, col, orientation) for a new restaurant (index == count) or a move of one.

    A moved restaurant's own squares count as free (rotating in place is legal,
    R14); putting it back exactly as it was is no move and is not offered (D26).
    """
    restaurants = state.players[player].restaurants
    grid = occupied(state)
    reach = None
    if index < len(restaurants):
        moved = restaurants[index]
        for sq in restaurant_squares(moved.row, moved.col, moved.orientation):
            grid[sq] = False
    elif EMPLOYEES[manager].restaurant_placement == "local":
        reach = local_reach(state, player)
    spots = list_placements(restaurant_placements(state.board, grid, reach=reach))
    if index < len(restaurants):
        here = (restaurants[index].row, restaurants[index].col, restaurants[index].orientation)
        spots = [s for s in spots if s != here]
    return spots


def _manager_actions(state: GameState, player: int) -> list[Action]:
    count = len(state.players[player].restaurants)
    actions = []
    for manager in MANAGERS:
        if _unused(state, player, manager) <= 0:
            continue
        indices = [count] if count < PRICES.restaurants_per_player else []
        if EMPLOYEES[manager].restaurant_placement == "regional":
            indices = list(range(count)) + indices
        actions.extend(
            Action.select_restaurant(manager, i) for i in indices if restaurant_spots(state, player, manager, i)
        )
    return actions


def begin_restaurants(state: GameState, player: int) -> bool:
    """Ask the local / regional managers; False when none can place or move anything."""
    if not _manager_actions(state, player):
        return False
    state.pending = [Pending(Decision.RESTAURANT_MANAGER, player)]
    return True


def legal_manager(state: GameState, pending: Pending) -> list[Action]:
    return [Action.pass_()] + _manager_actions(state, pending.player)


def apply_manager(state: GameState, pending: Pending, action: Action) -> None:
    if action.kind == ActionKind.PASS:
        _step_over(state)
        return
    state.pending = [Pending(Decision.RESTAURANT_PLACE, pending.player, action.args)]


def legal_restaurant_place(state: GameState, pending: Pending) -> list[Action]:
    manager, index = pending.context
    return [Action.place_restaurant(*s) for s in restaurant_spots(state, pending.player, manager, index)]


def apply_restaurant_place(state: GameState, pending: Pending, action: Action) -> None:
    player = pending.player
    manager, index = pending.context
    restaurants = state.players[player].restaurants
    local = EMPLOYEES[manager].restaurant_placement == "local"
    placed = Restaurant(*action.args, coming_soon=local)  # rules: "COMING SOON" / open at once
    if index == len(restaurants):
        restaurants.append(placed)
    else:
        restaurants[index] = placed
    state.turn.used[manager] += 1
    if _manager_actions(state, player):
        state.pending = [Pending(Decision.RESTAURANT_MANAGER, player)]
    else:
        _step_over(state)


ROUTES = {
    Decision.NEW_BUSINESS: (legal_new_business, apply_new_business),
    Decision.HOUSE_PLACE: (legal_house_place, apply_house_place),
    Decision.RESTAURANT_MANAGER: (legal_manager, apply_manager),
    Decision.RESTAURANT_PLACE: (legal_restaurant_place, apply_restaurant_place),
}
