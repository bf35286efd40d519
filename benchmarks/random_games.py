"""Random-play check of many complete games (issue 4's acceptance run); prints the figures.

    python benchmarks/random_games.py [--games-per-config 25] [--max-rounds 20]

Every combination of 2-5 players and both variants plays ``games-per-config``
seeded games (8 configurations: 25 each gives 200 games), checking the engine
invariants after every action, state round trips at random points, and that each
game's record replays to its final state (``fcm_env.engine.random_sim``).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from fcm_env.engine.random_sim import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-config", type=int, default=25)
    parser.add_argument("--max-rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    games = actions = roundtrips = 0
    ended = Counter()
    for variant in ("standard", "introductory"):
        for n in (2, 3, 4, 5):
            t = time.perf_counter()
            rows = [simulate(n, args.seed + g, variant, args.max_rounds) for g in range(args.games_per_config)]
            games += len(rows)
            actions += sum(r.actions for r in rows)
            roundtrips += sum(r.roundtrips for r in rows)
            ended.update((variant, r.ended_by) for r in rows)
            by_bank = sum(r.ended_by == "bank" for r in rows)
            print(f"{variant:<12} {n}p: {len(rows)} games, {sum(r.actions for r in rows)} actions, "
                  f"ended by the bank {by_bank}/{len(rows)}, mean rounds "
                  f"{sum(r.rounds for r in rows) / len(rows):.1f}, {time.perf_counter() - t:.1f} s", flush=True)
    total = time.perf_counter() - start
    print(f"all: {games} games, {actions} actions checked, {roundtrips} save/load round trips, "
          f"{total:.1f} s ({actions / total:.0f} checked actions/s)")
    for (variant, how), count in sorted(ended.items()):
        print(f"  {variant}: ended by {how}: {count}")


if __name__ == "__main__":
    main()
