"""Phase 6 Marketing campaigns in the native core (phase_marketing.cpp, marketing_areas.cpp): random positions
run by both engines (the same state document after), and a campaign document both engines refuse in the same
words. The hand-worked scenarios (the reach of every campaign type, demand limits, order and expiry) are rule
tests of tests/engine/test_marketing_run.py, run on both engines there.

rules: Phase 6; Billboard, Mailbox (R45), Airplane (C15), Radio (R46) campaigns; First radio campaign;
C17, C21, C30; D39.
"""

from __future__ import annotations

import random

import pytest
from native_steps import add_campaign, native_marketing, position, run_both

from fcm_env.data import MARKETING_TILES, CampaignType, Good, Milestone
from fcm_env.engine.persistence.serialize import state_to_dict
from fcm_env.engine.phases import marketing

B = int(Good.BURGER)


def run(state):
    return run_both(state, marketing.run)


def test_an_airplane_anchored_off_its_edge_is_refused_by_both_engines():
    # placement.airplane_from_anchor: an anchor must lie on the edge it names (ValueError, same words)
    state = position()
    add_campaign(state, 4, 0, B, row=3, col=0, orientation=0)
    document = state_to_dict(state)
    with pytest.raises(ValueError) as theirs:
        marketing.run(state)
    with pytest.raises(ValueError) as ours:
        native_marketing(document)
    assert str(ours.value) == str(theirs.value)


def _random_position(rng: random.Random):
    n = rng.choice([2, 3, 4, 5])
    state = position(n, seed=rng.randrange(10**6))
    board = state.board
    for p in state.players:
        if rng.random() < 0.3:
            p.milestones.add(Milestone.FIRST_RADIO)
    taken = {sq for house in state.houses.values() for sq in house.squares}
    for house in state.houses.values():
        if rng.random() < 0.3:  # any two free squares will do: reach only reads the house grid
            free = [(r, c) for r in range(board.height) for c in range(board.width) if (r, c) not in taken]
            house.garden = tuple(rng.sample(free, 2))
            taken.update(house.garden)
        house.demand = [rng.randrange(5) for _ in range(rng.choice([0, 0, 1, 2, 3]))]
    tiles = rng.sample(MARKETING_TILES, rng.randrange(1, 7))
    for tile in tiles:
        owner = rng.randrange(n)
        if tile.type == CampaignType.AIRPLANE:
            edge = rng.randrange(4)
            length = board.width if edge in (0, 2) else board.height
            start = rng.randrange(length - tile.along_edge + 1)
            row, col = {0: (0, start), 1: (start, board.width - 1), 2: (board.height - 1, start),
                        3: (start, 0)}[edge]
            orientation = edge
        else:
            orientation = rng.randrange(2) if tile.rotatable and tile.w != tile.h else 0
            rows, cols = (tile.h, tile.w) if orientation == 0 else (tile.w, tile.h)
            row, col = rng.randrange(board.height - rows + 1), rng.randrange(board.width - cols + 1)
        add_campaign(state, tile.number, owner, rng.randrange(5), row=row, col=col, orientation=orientation,
                     remaining=rng.randrange(1, 4), eternal=rng.random() < 0.2, busy=rng.random() < 0.85)
    rng.shuffle(state.campaigns)
    return state


@pytest.mark.parametrize("seed", range(4))
def test_random_positions_market_as_in_the_python_engine(seed):
    rng = random.Random(f"native marketing {seed}")
    for _ in range(50):
        run(_random_position(rng))
