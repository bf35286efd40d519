"""Phase 4 Dinnertime in the native core (phase_dinnertime.cpp): random positions that only compare the two
engines (the same state document after the native run_dinnertime alone as after the Python one). The
hand-computed scenarios run on both engines in tests/engine/test_dinnertime.py.

rules: Phase 4; C10-C12, C21-C23, C26, C27; R33-R38.
"""

from __future__ import annotations

import random

import pytest
from native_steps import add_restaurant, give, position, run_both

from fcm_env.data import Milestone
from fcm_env.engine.phases import dinnertime


def dinner(state):
    return run_both(state, dinnertime.run)


def _random_position(rng: random.Random):
    n = rng.choice([2, 3, 4, 5])
    state = position(n, variant=rng.choice(["standard", "standard", "introductory"]), seed=rng.randrange(10**6),
                     order=rng.sample(range(n), n), bank=rng.choice([5, 40, 150, 1000]))
    board = state.board
    if state.variant == "standard":
        state.bank_breaks = rng.choice([0, 0, 1])
        state.reserve_revealed = state.bank_breaks > 0
    houses = list(state.houses.values())
    for p in state.players:
        for _ in range(rng.choice([0, 1, 1, 2])):
            r, c = rng.randrange(board.height - 1), rng.randrange(board.width - 1)
            add_restaurant(state, p.player, (r, c, rng.randrange(4)), coming_soon=rng.random() < 0.15)
        cards = {name: rng.choice(weights) for name, weights in (
            ("waitress", [0, 0, 1, 2]), ("cfo", [0, 0, 0, 1]), ("pricing_manager", [0, 0, 1]),
            ("discount_manager", [0, 0, 0, 1, 3, 4]), ("luxuries_manager", [0, 0, 0, 1]),
            ("local_manager", [0, 0, 1]))}
        give(state, p.player, **cards)
        p.stock[:] = [rng.randrange(4) for _ in range(5)]
        p.cash = rng.choice([0, 3, 15, 25, 90])
        for m in (Milestone.FIRST_WAITRESS, Milestone.FIRST_LOWER_PRICES, Milestone.FIRST_BURGER_MARKETED,
                  Milestone.FIRST_PIZZA_MARKETED, Milestone.FIRST_DRINK_MARKETED, Milestone.FIRST_HAVE_100,
                  Milestone.FIRST_HAVE_20):
            if state.variant == "standard" and rng.random() < 0.2:
                p.milestones.add(m)
    for m in (Milestone.FIRST_HAVE_20, Milestone.FIRST_HAVE_100):
        if state.variant == "standard" and rng.random() < 0.2:
            (state.milestones_this_turn if rng.random() < 0.5 else state.milestones_gone).add(m)
    for house in houses:
        if rng.random() < 0.6:
            house.demand = [rng.randrange(5) for _ in range(rng.randrange(1, 4))]
    return state


@pytest.mark.parametrize("seed", range(4))
def test_random_positions_dine_as_in_the_python_engine(seed):
    rng = random.Random(f"native dinnertime {seed}")
    for _ in range(60):
        dinner(_random_position(rng))
