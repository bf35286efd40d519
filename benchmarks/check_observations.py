"""The envs' observations at scale: the native engine's kept rows against the reference encoder, every player,
every decision.

    python benchmarks/check_observations.py [--seeds 12] [--bias 0.9] [--max-rounds 30]

Plays ``--seeds`` random games on the native engine for each of 2-5 players x both variants (random legal
actions preferring to act with probability ``--bias``) and compares, at every decision, what the envs'
observation rows hold for every player (``fcm_env.engines.NativeRows``: kept in C++, redrawn where the game
changed) with the Python reference ``Observer`` drawing everything from the position's ``snapshot()``. A
second set of rows, read only now and then, checks gaps of many moves. Prints the decisions checked and the
mismatches (the goal: 0); exits 1 on a mismatch. ``tests/engines/test_observation_rows.py`` runs the same
check on a few short games.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_env.encoding import Observer
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engines import new_game, observation_rows


def check_game(num_players: int, variant: str, seed: int, bias: float, max_rounds: int) -> tuple[int, list[str]]:
    """Decisions checked and the mismatches found in one game."""
    rng = random.Random(f"observations/{num_players}/{variant}/{seed}")
    game = new_game("native", num_players, seed, variant, max_rounds)
    rows, now_and_then = observation_rows("native", num_players), observation_rows("native", num_players)
    reference = Observer()
    expected = np.zeros(reference.flat_size, dtype=np.float32)
    decisions, mismatches = 0, []
    while True:
        position = game.snapshot()
        for player in range(num_players):
            if not np.array_equal(rows.observe(game, player), reference.observe_flat(position, player, out=expected)):
                mismatches.append(f"{variant} {num_players}p seed {seed}: decision {decisions}, "
                                  f"{game.phase.name}, player {player}")
        if rng.random() < 0.15:
            player = rng.randrange(num_players)
            if not np.array_equal(now_and_then.observe(game, player), reference.observe_flat(position, player)):
                mismatches.append(f"{variant} {num_players}p seed {seed}: decision {decisions}, lagging row")
        if game.pending is None:
            return decisions, mismatches
        game.apply(pick(rng, game.legal_actions(), bias))
        decisions += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12, help="games per player count and variant")
    parser.add_argument("--bias", type=float, default=0.9, help="probability of preferring an action to passing")
    parser.add_argument("--max-rounds", type=int, default=30)
    args = parser.parse_args()
    start = time.perf_counter()
    total, mismatches = 0, []
    for variant in ("standard", "introductory"):
        for num_players in (2, 3, 4, 5):
            for seed in range(args.seeds):
                decisions, found = check_game(num_players, variant, seed, args.bias, args.max_rounds)
                total += decisions
                mismatches += found
    print(f"native kept rows vs the reference encoder: {total} decisions x every player, "
          f"{len(mismatches)} mismatches, {time.perf_counter() - start:.0f} s")
    for line in mismatches[:20]:
        print("  " + line)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
