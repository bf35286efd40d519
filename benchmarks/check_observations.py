"""The envs' observations at scale: ``ObservationRows`` against a full numpy redraw, every player, every decision.

    python benchmarks/check_observations.py [--seeds 12] [--bias 0.9] [--max-rounds 30]

Plays ``--seeds`` random games for each of 2-5 players x both variants (random legal actions
preferring to act with probability ``--bias``) and compares, at every decision, what the
envs' observation rows hold for every player (compiled kernels when numba is installed,
redrawn from the engine's move stamps) with ``Observer(compiled=False)`` drawing everything
with numpy. A second set of rows, read only now and then, checks gaps of many moves. Prints
the decisions checked and the mismatches (the goal: 0); exits 1 on a mismatch.
``tests/encoding/test_observation_rows.py`` and ``test_compiled.py`` run the same check on
a few short games.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_env.encoding import Observer, compiled
from fcm_env.encoding.rows import ObservationRows
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick


def check_game(num_players: int, variant: str, seed: int, bias: float, max_rounds: int) -> tuple[int, list[str]]:
    """Decisions checked and the mismatches found in one game."""
    rng = random.Random(f"observations/{num_players}/{variant}/{seed}")
    game = Game.new(num_players, seed=seed, variant=variant, max_rounds=max_rounds)
    rows, now_and_then = ObservationRows(num_players), ObservationRows(num_players)
    reference = Observer(compiled=False)
    expected = np.zeros(reference.flat_size, dtype=np.float32)
    decisions, mismatches = 0, []
    while True:
        for player in range(num_players):
            if not np.array_equal(rows.observe(game, player), reference.observe_flat(game, player, out=expected)):
                mismatches.append(f"{variant} {num_players}p seed {seed}: decision {decisions}, "
                                  f"{game.phase.name}, player {player}")
        if rng.random() < 0.15:
            player = rng.randrange(num_players)
            if not np.array_equal(now_and_then.observe(game, player), reference.observe_flat(game, player)):
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
    kernels = "compiled (numba)" if compiled.block_writer() is not None else "numpy"
    start = time.perf_counter()
    total, mismatches = 0, []
    for variant in ("standard", "introductory"):
        for num_players in (2, 3, 4, 5):
            for seed in range(args.seeds):
                decisions, found = check_game(num_players, variant, seed, args.bias, args.max_rounds)
                total += decisions
                mismatches += found
    print(f"rows ({kernels}) vs a full numpy redraw: {total} decisions x every player, "
          f"{len(mismatches)} mismatches, {time.perf_counter() - start:.0f} s")
    for line in mismatches[:20]:
        print("  " + line)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
