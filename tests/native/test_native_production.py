"""Get food & drinks in the native core (phase_production.cpp, routes.cpp, board_roads.cpp): the PRODUCE
decision's actions and their effects, on a hand-worked route map and on random positions, against the
Python engine (the same sorted legal actions, the same state document after each action).

rules: Get food & drinks; C18-C20, C28, R22-R28, R43, R52; First errand boy played, First cart operator
played, First burger / pizza produced.
"""

from __future__ import annotations

import random

import pytest
from native_steps import add_restaurant, give

from fcm_env import native
from fcm_env.data import EmployeeType, Good, Milestone
from fcm_env.engine.actions import Action, ActionKind, Decision, Pending
from fcm_env.engine.board import Board
from fcm_env.engine.game import ROUTES, Game
from fcm_env.engine.persistence.serialize import state_to_dict
from fcm_env.engine.phases.working import production
from fcm_env.engine.state import Phase

# The route map of tests/engine/test_production.py (hand-worked there): player 0's entrance (3,0) leaves
# onto a dead end and every route drives east; within range 2 the non-empty hauls are (1,0,0) (2,0,0)
# (2,0,1) (2,1,0), range 3 adds (3,0,0) (no U-turns, R23, so the soda, lemonade and far beer exclude
# each other).
ROUTE = "N0 S0 L3 / A0 D2 O0 / C0 E0 F0"
CART, TRUCK, ZEPPELIN, ERRAND = (int(EmployeeType.CART_OPERATOR), int(EmployeeType.TRUCK_DRIVER),
                                 int(EmployeeType.ZEPPELIN_PILOT), int(EmployeeType.ERRAND_BOY))
B, P, BEER, LEM, SODA = (int(g) for g in Good)


def producing(board: Board | None = None, num_players: int = 2, seed: int = 0, **cards: int):
    """Player 0 at the PRODUCE decision with ``cards`` at work and one restaurant at (3,0) (NW entrance)."""
    state = Game.new(num_players, seed=seed, board=board or Board.from_tiles(ROUTE)).state
    state.phase = Phase.WORKING
    state.queue = list(state.turn_order)
    add_restaurant(state, 0, (3, 0, 0))
    give(state, 0, **cards)
    state.pending = [Pending(Decision.PRODUCE, 0)]
    return state


def legal(state) -> list[tuple[int, tuple[int, ...]]]:
    """The native legal actions, asserted equal to the Python engine's (both sorted)."""
    theirs = [(int(a.kind), tuple(int(x) for x in a.args)) for a in Game(state).legal_actions()]
    ours = native.Game.from_checked_dict(state_to_dict(state)).legal_actions()
    assert ours == theirs
    return ours


def play(state, action: Action):
    """Apply ``action`` in both engines (the decision's apply and the turn's chaining) and compare."""
    ours = native.Game.from_checked_dict(state_to_dict(state))
    _, apply = ROUTES[Decision.PRODUCE]
    apply(state, state.pending[-1], action)
    try:
        ours.apply_no_advance(int(action.kind), list(action.args))
    except RuntimeError as exc:  # the turn's next sub-steps belong to other source files, maybe not ported
        if "not ported yet" not in str(exc):
            raise
        return state
    assert ours.to_dict() == state_to_dict(state)
    return state


def hauls(actions, etype):
    return [args[1:] for kind, args in actions if kind == int(ActionKind.HAUL) and args[0] == etype]


def test_cart_operator_and_truck_driver_hauls_on_the_route_map():
    # C18, R22-R24: range 2 (cart operator) and 3 (truck driver, or a cart operator with First cart
    # operator played) give exactly the distinct hauls worked out by hand
    state = producing(cart_operator=1, truck_driver=1)
    actions = legal(state)
    assert hauls(actions, CART) == [(1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 1, 0)]
    assert hauls(actions, TRUCK) == [(1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 1, 0), (3, 0, 0)]
    state.players[0].milestones.add(Milestone.FIRST_CART_OPERATOR)
    assert hauls(legal(state), CART) == hauls(actions, TRUCK)


def test_a_haul_brings_drinks_per_source_with_the_first_errand_boy_bonus():
    # R25: a cart operator brings 2 drinks a source, 3 with First errand boy played: (2,0,1) -> 6 beer, 3 soda
    state = producing(cart_operator=1, errand_boy=1)
    state.players[0].milestones.add(Milestone.FIRST_ERRAND_BOY)
    play(state, Action.haul(CART, 2, 0, 1))
    assert state.players[0].stock.tolist() == [0, 0, 6, 0, 3]
    # the errand boy brings 2 of one drink with the milestone; then nothing is left to do
    assert legal(state) == [(0, ()), (int(ActionKind.PRODUCE), (ERRAND, BEER)),
                            (int(ActionKind.PRODUCE), (ERRAND, LEM)), (int(ActionKind.PRODUCE), (ERRAND, SODA))]
    play(state, Action.produce(ERRAND, LEM))
    assert state.players[0].stock.tolist() == [0, 0, 6, 2, 3]


def test_kitchen_cards_produce_their_full_amount_and_the_first_pizza_brings_a_cook():
    # R52: a pizza chef makes 8 pizzas; C28, R43: First pizza produced puts a pizza cook on the beach
    state = producing(kitchen_trainee=1, pizza_chef=1)
    assert legal(state) == [(0, ()), (12, (28, B)), (12, (28, P)), (12, (32, P))]
    cooks = int(state.supply[EmployeeType.PIZZA_COOK])
    play(state, Action.produce(EmployeeType.PIZZA_CHEF, P))
    p = state.players[0]
    assert p.stock[P] == 8 and Milestone.FIRST_PIZZA_PRODUCED in p.milestones
    assert p.beach[EmployeeType.PIZZA_COOK] == 1 and state.supply[EmployeeType.PIZZA_COOK] == cooks - 1
    assert legal(state) == [(0, ()), (12, (28, B)), (12, (28, P))]  # the chef is used
    play(state, Action.produce(EmployeeType.KITCHEN_TRAINEE, B))
    assert p.stock[B] == 1 and p.beach[EmployeeType.BURGER_COOK] == 1


def test_a_buyer_without_a_reachable_source_is_not_asked():
    # D22: a route that collects nothing is not offered; with nothing else to do the sub-step is skipped
    state = producing(board=Board.from_tiles("A0 B0 C0 / D0 F0 G0 / H0 I0 J0"), cart_operator=1)
    assert legal(state) == [(0, ())]
    assert not production.begin(state, 0)


def _random_position(rng: random.Random):
    n = rng.choice([2, 3, 4, 5])
    state = Game.new(n, seed=rng.randrange(10**6)).state
    state.phase = Phase.WORKING
    board = state.board
    player = rng.randrange(n)
    for _ in range(rng.choice([1, 1, 2, 3])):
        r, c = rng.randrange(board.height - 1), rng.randrange(board.width - 1)
        add_restaurant(state, player, (r, c, rng.randrange(4)), coming_soon=rng.random() < 0.15)
    cards = {name: rng.choice([0, 0, 1, 2]) for name in (
        "cart_operator", "truck_driver", "zeppelin_pilot", "errand_boy", "kitchen_trainee", "burger_cook",
        "pizza_chef")}
    cards["local_manager"] = rng.choice([0, 0, 1])  # a drive-in: four entrances (C11, R32)
    give(state, player, **cards)
    for etype, count in enumerate(state.players[player].work.tolist()):
        state.turn.used[etype] = rng.randrange(count + 1) if count and rng.random() < 0.3 else 0
    for m in (Milestone.FIRST_CART_OPERATOR, Milestone.FIRST_ERRAND_BOY, Milestone.FIRST_BURGER_PRODUCED):
        if rng.random() < 0.3:
            state.players[player].milestones.add(m)
    state.pending = [Pending(Decision.PRODUCE, player)]
    return state


@pytest.mark.parametrize("seed", range(4))
def test_random_positions_produce_as_in_the_python_engine(seed):
    rng = random.Random(f"native production {seed}")
    for _ in range(40):
        state = _random_position(rng)
        actions = Game(state).legal_actions()
        legal(state)
        for action in rng.sample(actions, min(3, len(actions))):
            play(Game(state).clone().state, action)
