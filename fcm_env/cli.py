"""The ``fcm`` command line.

Subcommands grow with the project; each has ``--help``. ``fcm map`` builds a
random map for a player count and prints it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np


def _cmd_map(args: argparse.Namespace) -> int:
    from fcm_env.engine import Board
    from fcm_env.engine.render import render_ascii

    if args.tiles:
        board = Board.from_tiles(args.tiles)
    else:
        board = Board.random(args.players, np.random.default_rng(args.seed))
    print(f"{board.tile_rows}x{board.tile_cols} tiles: {' / '.join(' '.join(r) for r in board.layout_strings())}")
    print(render_ascii(board))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fcm", description="Food Chain Magnate RL environment tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_map = sub.add_parser("map", help="build a random map (or a given layout) and print it as text")
    p_map.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5), help="player count (map size)")
    p_map.add_argument("--seed", type=int, default=0, help="seed of the map draw")
    p_map.add_argument("--tiles", default=None, help='explicit layout, e.g. "A0 B1 / C2 D3" (letter + quarter turns)')
    p_map.set_defaults(func=_cmd_map)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except ValueError as exc:
        print(f"fcm {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
