"""What must hold after every move, and the random-simulation harness that checks it.

``check_state`` (``state_checks``) verifies money, cards, tiles and houses are conserved and the
board consistent; ``random_sim`` plays seeded random games checking invariants, clones, save/load
round trips and replays (as OpenSpiel's random-simulation test does).
"""

from fcm_env.engine.invariants.state_checks import (
    InvariantError,
    all_cards,
    check_state,
    expected_money,
    total_money,
)

__all__ = ["InvariantError", "all_cards", "check_state", "expected_money", "total_money"]
