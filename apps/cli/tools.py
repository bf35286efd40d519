"""``fcm map`` and ``fcm bench``: a map as text, and the engine's and encoder's speed figures."""

from __future__ import annotations

import argparse
import json
import sys


def _cmd_map(args: argparse.Namespace) -> int:
    import numpy as np

    from fcm_env.engine import Board
    from fcm_env.text.map import render_ascii

    drawn = None
    if args.tiles:
        board = Board.from_tiles(args.tiles)
    else:
        seed = args.seed
        if seed is None:  # a new map each time, and the seed that draws it again
            seed = drawn = int(np.random.SeedSequence().generate_state(1)[0])
        board = Board.random(args.players, np.random.default_rng(seed))
    print(f"{board.tile_rows}x{board.tile_cols} tiles: {' / '.join(' '.join(r) for r in board.layout_strings())}")
    print(render_ascii(board))
    if drawn is not None:
        print(f"map seed {drawn}: fcm map --players {args.players} --seed {drawn} draws it again")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from fcm_apps.bench import BenchConfig, bench_table, bench_title, run
    from fcm_env.tables import print_table

    try:
        players = tuple(int(p) for p in args.players.split(",") if p.strip())
    except ValueError:
        raise ValueError(f"--players: expected comma-separated player counts like 2,3,4,5, got {args.players!r}") from None
    config = BenchConfig(players=players, games=args.games, seed=args.seed, max_rounds=args.max_rounds,
                         variant=args.variant, positions=args.positions, reps=args.reps)
    rows = run(config, progress=lambda msg: print(msg, file=sys.stderr, flush=True))
    if args.json:
        print(json.dumps({"config": {**config.__dict__, "players": list(players)},
                          "rows": [r.to_json() for r in rows]}, indent=1))
    else:
        print(bench_title(config))
        print_table(bench_table(rows))
    return 0

