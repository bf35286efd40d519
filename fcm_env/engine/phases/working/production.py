"""Phase 3 Working 9-5, fourth sub-step: get food & drinks.

rules: Get food & drinks; C1, C18-C20, R22-R28, R52; milestones First errand boy
played, First cart operator played, First burger / pizza produced (C28, R43).

One ``PRODUCE`` decision per card use, in any order, until the player passes or no
unused kitchen card or buyer is left at work:

* ``produce(type, good)``: kitchen trainee (1 burger or 1 pizza), errand boy (1
  drink of any kind; 2 of the same kind with First errand boy played, R25), cooks
  and chefs (their fixed good and full amount: all or nothing, R52). Tokens are
  unlimited (C1), so every such action always succeeds.
* ``haul(type, beer, lemonade, soda)``: cart operator, truck driver, zeppelin pilot,
  one action per distinct non-empty haul (:mod:`routes`); partial routes are legal
  (R22). A route that collects nothing is not offered: it is the same as leaving
  the card unused (D22).
"""

from __future__ import annotations

from fcm_env.data import DRINKS, EMPLOYEES, EmployeeType, Good, Milestone
from fcm_env.engine.actions import Action, ActionKind, Decision, Pending
from fcm_env.engine.board.occupancy import entrances_of
from fcm_env.engine.board.routes import Haul, air_hauls, haul_drinks, road_hauls
from fcm_env.engine.rules import milestones
from fcm_env.engine.state import GameState

STEP = 1  # position of this sub-step in working.LATER_STEPS

KITCHEN = tuple(spec.type for spec in EMPLOYEES if spec.produces)
BUYERS = tuple(spec.type for spec in EMPLOYEES if spec.drink_mode)
#: First burger / pizza produced: the milestone and the cook it brings (C28)
_PASS = Action.pass_()
#: the ``produce`` actions of every kitchen card (its foods) and of the errand boy (each drink), built once
_PRODUCE = {
    int(spec.type): tuple(Action.produce(spec.type, good) for good in spec.produces)
    for spec in EMPLOYEES if spec.type in KITCHEN
} | {
    int(spec.type): tuple(Action.produce(spec.type, good) for good in DRINKS)
    for spec in EMPLOYEES if spec.type in BUYERS and spec.drink_mode == "errand"
}
_FIRST_PRODUCED = {
    Good.BURGER: (Milestone.FIRST_BURGER_PRODUCED, EmployeeType.BURGER_COOK),
    Good.PIZZA: (Milestone.FIRST_PIZZA_PRODUCED, EmployeeType.PIZZA_COOK),
}


def errand_amount(state: GameState, player: int) -> int:
    """Drinks an errand boy brings: 1, or 2 of one kind with First errand boy played (R25)."""
    bonus = 1 if milestones.has(state, player, Milestone.FIRST_ERRAND_BOY) else 0
    return EMPLOYEES[EmployeeType.ERRAND_BOY].drinks_per_source + bonus


def buyer_hauls(state: GameState, player: int, etype: int) -> tuple[Haul, ...]:
    """Distinct non-empty hauls of a cart operator, truck driver or zeppelin pilot.

    Range +1 with First cart operator played; routes start at the entrances of the
    open restaurants (all four corners with a drive-in, C11, R32); a zeppelin starts
    on the tile of any of those entrances (C19).
    """
    spec = EMPLOYEES[etype]
    steps = spec.buyer_range + (1 if milestones.has(state, player, Milestone.FIRST_CART_OPERATOR) else 0)
    entrances = entrances_of(state, player)
    if spec.drink_mode == "air_route":
        hauls = air_hauls(state.board, sorted({state.board.tile_at(r, c) for r, c in entrances}), steps)
    else:
        hauls = road_hauls(state.board, entrances, steps)
    return tuple(h for h in hauls if any(h))


def per_source(state: GameState, player: int, etype: int) -> int:
    """Drinks per source symbol: the card's number, +1 with First errand boy played."""
    bonus = 1 if milestones.has(state, player, Milestone.FIRST_ERRAND_BOY) else 0
    return EMPLOYEES[etype].drinks_per_source + bonus


def _actions(state: GameState, player: int) -> list[Action]:
    unused = _unused_cards(state, player)
    actions = []
    for etype in KITCHEN:
        if unused[etype] > 0:
            actions.extend(_PRODUCE[etype])
    for etype in BUYERS:
        if unused[etype] <= 0:
            continue
        if etype in _PRODUCE:  # an errand boy: one action per drink
            actions.extend(_PRODUCE[etype])
        else:
            actions.extend(Action.haul(etype, *h) for h in buyer_hauls(state, player, etype))
    return actions


def _unused_cards(state: GameState, player: int) -> list[int]:
    """Cards at work of each type whose action is not spent yet (``_unused`` of every type at once)."""
    return (state.players[player].work - state.turn.used).tolist()


def begin(state: GameState, player: int) -> bool:
    """Ask for food and drinks if any card can bring some; False when there is nothing to do."""
    if not _actions(state, player):
        return False
    state.pending = [Pending(Decision.PRODUCE, player)]
    return True


def _step_over(state: GameState) -> None:
    """This sub-step is over: the Working turn asks the next one (``working.continue_turn``)."""
    state.pending = []


def legal_produce(state: GameState, pending: Pending) -> list[Action]:
    return [_PASS] + _actions(state, pending.player)


def apply_produce(state: GameState, pending: Pending, action: Action) -> None:
    player = pending.player
    if action.kind == ActionKind.PASS:
        _step_over(state)
        return
    p = state.players[player]
    etype = action.args[0]
    if action.kind == ActionKind.HAUL:
        gained = haul_drinks(tuple(action.args[1:]), per_source(state, player, etype))
        p.stock += gained
    else:
        good = Good(action.args[1])
        spec = EMPLOYEES[etype]
        amount = errand_amount(state, player) if spec.drink_mode == "errand" else spec.produce_amount
        p.stock[good] += amount
        if good in _FIRST_PRODUCED:
            _first_produced(state, player, good)
    state.turn.used[etype] += 1
    if not _actions(state, player):
        _step_over(state)


def _first_produced(state: GameState, player: int, good: Good) -> None:
    """rules: First burger/pizza produced; C28, R43 — a cook onto the beach at once, if any is left."""
    milestone, cook = _FIRST_PRODUCED[good]
    if milestones.claim(state, player, milestone) and state.supply[cook] > 0:
        state.supply[cook] -= 1
        state.players[player].beach[cook] += 1


ROUTES = {
    Decision.PRODUCE: (legal_produce, apply_produce),
}
