"""Board geometry and placement-legality timings.

    python benchmarks/bench_board.py [--seeds 5] [--reps 200]

Prints, averaged over seeded random maps (``time.perf_counter``):
board build time for 2/4/5 players, a breakdown of the 5-player build by private
construction step, ``ranges_from`` query time, and the time to compute the legal
placements of each piece type (the ``bool[H, W, O]`` mask, then listing it).
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_env.data import Direction, marketing_tile
from fcm_env.engine.board import UNREACHABLE, AirplaneLane, Board
from fcm_env.engine.board.placement import (
    airplane_placements,
    campaign_placements,
    garden_placements,
    house_placements,
    list_placements,
    restaurant_corners,
    restaurant_entrance,
    restaurant_placements,
    static_occupied,
)

BUILD_STEPS = ("_build_layers", "_build_road_graph", "_build_segments", "_build_range_tables", "_build_blocks")


def per_call_us(fn: Callable[[], object], reps: int) -> float:
    """Mean microseconds per call over ``reps`` calls (after one warm-up call)."""
    fn()
    start = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - start) / reps * 1e6


def timed_board_class(timings: dict[str, list[float]]) -> type[Board]:
    """A Board subclass whose construction steps record their duration (ms) in ``timings``."""

    def wrap(name: str, method: Callable) -> Callable:
        @functools.wraps(method)
        def run(self, *args, **kwargs):
            start = time.perf_counter()
            try:
                return method(self, *args, **kwargs)
            finally:
                timings[name].append((time.perf_counter() - start) * 1e3)

        return run

    steps = {name: wrap(name, getattr(Board, name)) for name in BUILD_STEPS if hasattr(Board, name)}
    return type("TimedBoard", (Board,), steps)


def build_random(players: int, seed: int) -> Board:
    return Board.random(players, np.random.default_rng(seed))


def bench_builds(seeds: list[int], reps: int) -> list[tuple[str, float, float]]:
    rows = []
    for players in (2, 4, 5):
        times = [
            per_call_us(partial(build_random, players, seed), max(reps // 20, 3)) for seed in seeds
        ]
        rows.append((f"Board.random({players})", float(np.mean(times)) / 1e3, float(np.min(times)) / 1e3))
    return rows


def bench_steps(seeds: list[int], reps: int) -> list[tuple[str, float, float]]:
    timings: dict[str, list[float]] = defaultdict(list)
    cls = timed_board_class(timings)
    for seed in seeds:
        layout = Board.random(5, np.random.default_rng(seed)).layout
        for _ in range(max(reps // 20, 3)):
            cls(layout)
    rows = [(f"  {name}", float(np.mean(timings[name])), float(np.min(timings[name]))) for name in BUILD_STEPS
            if name in timings]
    missing = [name for name in BUILD_STEPS if name not in timings]
    if missing:
        rows.append((f"  (not found in geometry.py: {', '.join(missing)})", float("nan"), float("nan")))
    return rows


def some_restaurant(board: Board, occupied: np.ndarray) -> tuple[int, int, int]:
    legal = list_placements(restaurant_placements(board, occupied))
    return legal[len(legal) // 2]


def bench_queries(seeds: list[int], reps: int) -> list[tuple[str, float, float, float]]:
    """(name, mean us per call, min us, mean legal placements) per query."""
    results: dict[str, list[tuple[float, float]]] = defaultdict(list)

    def measure(name: str, fn: Callable[[], np.ndarray], count: Callable[[np.ndarray], int] = np.count_nonzero):
        results[name].append((per_call_us(fn, reps), float(count(fn()))))

    def reachable(ranges: np.ndarray) -> int:
        return int(np.count_nonzero(ranges < UNREACHABLE))

    for seed in seeds:
        board = Board.random(5, np.random.default_rng(seed))
        occupied = static_occupied(board)
        r, c, o = some_restaurant(board, occupied)
        for sq in restaurant_corners(r, c):
            occupied[sq] = True
        entrance = [restaurant_entrance(r, c, o)]
        corners = list(restaurant_corners(r, c))
        taken = (board.tile_at(*entrance[0]),)
        measure("ranges_from(1 entrance)", partial(board.ranges_from, entrance), reachable)
        measure("ranges_from(4 corners, drive-in)", partial(board.ranges_from, corners), reachable)
        reach3 = board.ranges_from(corners) <= 3
        reach2 = board.ranges_from(entrance) <= 2
        measure("restaurant, initial",
                partial(restaurant_placements, board, occupied, initial=True, entrance_tiles_taken=taken))
        measure("restaurant, regional manager", partial(restaurant_placements, board, occupied))
        measure("restaurant, local manager (reach)", partial(restaurant_placements, board, occupied, reach=reach3))
        measure("house with garden", partial(house_placements, board, occupied))
        measure("garden (all printed houses)", partial(garden_placements, board, occupied, board.printed_houses))
        for number in (11, 12, 13, 14, 15, 7, 9, 1):
            tile = marketing_tile(number)
            shape = "/".join(f"{h}x{w}" for h, w in tile.footprints())
            label = f"{tile.type.key} {number} ({shape})"
            measure(label + ", unlimited", partial(campaign_placements, board, occupied, tile))
            if tile.type.key != "radio":
                measure(label + ", range 2", partial(campaign_placements, board, occupied, tile, reach=reach2))
        existing = [AirplaneLane(Direction.N, 0, 3)]  # one plane already on the N edge
        for number in (4, 5, 6):
            tile = marketing_tile(number)
            measure(f"airplane {number} (size {tile.along_edge})", partial(airplane_placements, board, tile, existing))
        legal = restaurant_placements(board, occupied)
        measure("list_placements(restaurant mask)", partial(list_placements, legal), len)
    return [
        (name, float(np.mean([t for t, _ in vals])), float(np.min([t for t, _ in vals])),
         float(np.mean([n for _, n in vals])))
        for name, vals in results.items()
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="random 5-player maps to average over")
    parser.add_argument("--reps", type=int, default=200, help="calls per timing")
    args = parser.parse_args(argv)
    seeds = list(range(args.seeds))
    H, W = Board.random(5, np.random.default_rng(0)).shape
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}; {len(seeds)} seeds; 5-player map {H}x{W}")
    print()
    print(f"{'board build':<44}{'mean ms':>10}{'min ms':>10}")
    for name, mean, low in bench_builds(seeds, args.reps):
        print(f"{name:<44}{mean:>10.3f}{low:>10.3f}")
    print("5-player build steps:")
    for name, mean, low in bench_steps(seeds, args.reps):
        print(f"{name:<44}{mean:>10.3f}{low:>10.3f}")
    print()
    print(f"{'query (5-player map)':<44}{'mean us':>10}{'min us':>10}{'legal':>8}")
    for name, mean, low, count in bench_queries(seeds, args.reps):
        print(f"{name:<44}{mean:>10.1f}{low:>10.1f}{count:>8.0f}")
    print()
    print("'legal' = mean count of legal placements (ranges_from: squares reachable by road).")


if __name__ == "__main__":
    main()
