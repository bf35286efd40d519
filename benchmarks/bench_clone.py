"""What a search pays to copy a game: ``Game.clone()`` against ``copy.deepcopy`` of the same games.

    python benchmarks/bench_clone.py [--players 2,4] [--games 4] [--repeat 200]

Positions come from seeded all-heuristic games: every decision of rounds 3-8 (mid-game: the
map filled with houses, campaigns, restaurants and cards). Each position is copied
``--repeat`` times by each method, interleaved, and timed one call at a time; the figures
are medians over all calls (the machine may be shared: a median shrugs off the disturbed
calls). It prints, per player count, the median ``Game.clone()`` in microseconds, the median
``copy.deepcopy(game)`` of the same positions, their ratio, and the clone of a game that
records its history and events (those logs are copied, so the cost grows with the game).
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_agents.heuristic import HeuristicAgent
from fcm_env.engine.game import Game


def mid_game_positions(num_players: int, games: int, first_round: int = 3, last_round: int = 8) -> list[Game]:
    """Clones of every decision of rounds ``first_round..last_round`` of seeded heuristic games."""
    positions = []
    for seed in range(games):
        game = Game.new(num_players, seed=1000 + seed, max_rounds=last_round)
        agents = [HeuristicAgent(seed=seed * 10 + p) for p in range(num_players)]
        while not game.is_over and game.state.round <= last_round:
            if game.state.round >= first_round:
                positions.append(game.clone())
            player = game.current_player
            game.apply(agents[player].act_on_game(game, player))
    return positions


def median_us(positions: list[Game], repeat: int, logged: bool = False) -> tuple[float, float]:
    """(median clone, median deepcopy) in microseconds over ``repeat`` interleaved calls per position."""
    clone_times, deep_times = [], []
    clock = time.perf_counter
    for game in positions:
        if logged:
            game = game.clone()
            game.history = list(range(400))  # a recorded game at mid-game holds a few hundred actions
            game.record_events([{"kind": "action"}] * 1500)
        for _ in range(repeat):
            start = clock()
            game.clone()
            clone_times.append(clock() - start)
            if not logged:
                start = clock()
                copy.deepcopy(game)
                deep_times.append(clock() - start)
    deep = statistics.median(deep_times) * 1e6 if deep_times else float("nan")
    return statistics.median(clone_times) * 1e6, deep


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,4", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=4, help="heuristic games per player count")
    parser.add_argument("--repeat", type=int, default=200, help="copies of each position per method")
    args = parser.parse_args(argv)
    print(f"{'players':>7} {'positions':>9} {'clone us':>9} {'deepcopy us':>12} {'ratio':>6} {'clone+logs us':>14}")
    for n in (int(x) for x in args.players.split(",")):
        positions = mid_game_positions(n, args.games)
        clone_us, deep_us = median_us(positions, args.repeat)
        logged_us, _ = median_us(positions[:: max(1, len(positions) // 20)], args.repeat, logged=True)
        print(f"{n:>7} {len(positions):>9} {clone_us:>9.1f} {deep_us:>12.1f} {deep_us / clone_us:>5.0f}x "
              f"{logged_us:>14.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
