"""Setup decisions: the first restaurants and the bank reserve card.

rules: Placing the first restaurants (reverse turn order, place or pass; passers
place in a second round in turn order); C8; Setting goals (each player secretly
keeps one of their three reserve cards).
"""

from __future__ import annotations

import numpy as np

from fcm_env.data import RESERVE_CARDS
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError, Pending
from fcm_env.engine.board.occupancy import entrance_squares, occupied
from fcm_env.engine.board.placement import list_placements, restaurant_placements
from fcm_env.engine.state import GameState, Phase, Restaurant

ROUND_ONE = 1
ROUND_TWO = 2


def start(state: GameState) -> None:
    state.phase = Phase.SETUP_RESTAURANTS
    state.queue = list(reversed(state.turn_order))
    state.passed = []
    _ask_restaurant(state, ROUND_ONE)


def _ask_restaurant(state: GameState, rnd: int) -> None:
    state.pending = [Pending(Decision.INITIAL_RESTAURANT, state.queue[0], (rnd,))]


def initial_placements(state: GameState) -> np.ndarray:
    taken = [
        state.board.tile_at(*entrance_squares(r)[0]) for p in state.players for r in p.restaurants
    ]
    return restaurant_placements(state.board, occupied(state), initial=True, entrance_tiles_taken=taken)


def legal_restaurant(state: GameState, pending: Pending) -> list[Action]:
    # list_placements gives (row, col, orientation) tuples of ints already: what place_restaurant builds
    actions = [Action(ActionKind.PLACE_RESTAURANT, p) for p in list_placements(initial_placements(state))]
    # rules: round one allows passing; round two must place (a player with no legal spot passes: D9)
    if pending.context[0] == ROUND_ONE or not actions:
        actions.insert(0, Action.pass_())
    return actions


def apply_restaurant(state: GameState, pending: Pending, action: Action) -> None:
    player = pending.player
    rnd = pending.context[0]
    if action.kind == ActionKind.PASS:
        if rnd == ROUND_ONE:
            state.passed.append(player)
    else:
        row, col, orient = action.args
        state.players[player].restaurants.append(Restaurant(row, col, orient))
    state.queue.pop(0)
    if state.queue:
        _ask_restaurant(state, rnd)
        return
    if rnd == ROUND_ONE and state.passed:
        state.queue = [p for p in state.turn_order if p in state.passed]
        _ask_restaurant(state, ROUND_TWO)
        return
    state.pending = []
    if state.variant == "standard":
        state.phase = Phase.SETUP_RESERVE
        state.queue = list(state.turn_order)
        state.pending = [Pending(Decision.RESERVE_CARD, state.queue[0])]


def legal_reserve(state: GameState, pending: Pending) -> list[Action]:
    return [Action.choose_reserve(i) for i in range(len(state.players[pending.player].reserve_offer))]


def apply_reserve(state: GameState, pending: Pending, action: Action) -> None:
    player = state.players[pending.player]
    index = action.args[0]
    if not 0 <= index < len(player.reserve_offer):
        raise IllegalActionError(f"reserve card index {index} is not 0..{len(player.reserve_offer) - 1}")
    player.reserve = player.reserve_offer[index]
    state.queue.pop(0)
    state.pending = [Pending(Decision.RESERVE_CARD, state.queue[0])] if state.queue else []


def reserve_card_slots(value: int) -> int:
    """CEO slots printed on the reserve card of a given value ($100: 2, $200: 3, $300: 4)."""
    for card in RESERVE_CARDS:
        if card.value == value:
            return card.ceo_slots
    raise ValueError(f"no reserve card is worth ${value}")


ROUTES = {
    Decision.INITIAL_RESTAURANT: (legal_restaurant, apply_restaurant),
    Decision.RESERVE_CARD: (legal_reserve, apply_reserve),
}
