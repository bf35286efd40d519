"""The native core against the Python engine, piece by piece, in one run: what each landed slice buys.

    python benchmarks/bench_native.py [--repeat 200]

Times, interleaved call by call, the setup of a new game (``Game.new`` against ``fcm_env.native.new_game``,
the same game: tests/native/test_native_setup.py), the map with its road tables (``Board.from_tiles``
against ``fcm_env.native.Board``) and 1,000 draws of the random generator (``integers`` of numpy's
``default_rng`` against ``Pcg64``). It prints per player count the median microseconds of each and their
ratio; the machine may be shared, so medians, and the ratio is what to read.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_env.engine.board import Board
from fcm_env.engine.game import Game
from fcm_env.native import Board as NativeBoard
from fcm_env.native import Pcg64, new_game


def _timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def _draws_numpy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(1000):
        rng.integers(0, 17)


def _draws_native(seed: int) -> None:
    rng = Pcg64(seed)
    for _ in range(1000):
        rng.integers(0, 17)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=200, help="calls of each, interleaved (default 200)")
    args = parser.parse_args(argv)
    print(f"{'players':<8} {'piece':<22} {'python us':>10} {'native us':>10} {'ratio':>7}")
    for players in (2, 3, 4, 5):
        layout = Game.new(players, seed=1).state.board.layout_strings()
        pieces = {
            "new game (setup)": (lambda n=players: Game.new(n, seed=7), lambda n=players: new_game(n, 7)),
            "map and road tables": (lambda t=layout: Board.from_tiles(t), lambda t=layout: NativeBoard(t)),
            "1,000 integers": (lambda: _draws_numpy(7), lambda: _draws_native(7)),
        }
        for name, (python, native) in pieces.items():
            py_us, native_us = [], []
            for _ in range(args.repeat // 20 or 1):  # interleaved in rounds: a burst of load touches both
                py_us.append(_timed(python, 20))
                native_us.append(_timed(native, 20))
            a, b = statistics.median(py_us), statistics.median(native_us)
            print(f"{players:<8} {name:<22} {a:>10.1f} {b:>10.1f} {a / b:>6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
