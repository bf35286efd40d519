"""``fcm map``, ``fcm bench`` and ``fcm models``: a map as text, the engine's and encoder's speed figures, and the
shipped model files."""

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



def shipped_models() -> list[dict]:
    """Every model file the package ships (``fcm_agents.models``): what it is, for how many players, its graph
    format and where it lies in this install (a bare onnxruntime front end needs the path)."""
    from fcm_agents import models

    found = []
    kinds = [("policy", n, f) for n, f in sorted(models.MODEL_FILES.items())]
    kinds += [("value", n, f) for n, f in sorted(models.VALUE_FILES.items())]
    for kind, players, filename in kinds:
        try:
            path = models.shipped_model_path(players) if kind == "policy" else models.shipped_value_path(players)
        except FileNotFoundError:  # an install that lost the file: listed as missing
            path = None
        meta_file = models.metadata_path(players) if kind == "policy" else None
        if kind == "value" and path is not None:
            meta_file = path.with_suffix(".json")
        meta = json.loads(meta_file.read_text()) if meta_file is not None and meta_file.is_file() else {}
        found.append({"kind": kind, "num_players": players, "file": filename,
                      "format": meta.get("format", "?"), "path": None if path is None else str(path),
                      "bytes": None if path is None else path.stat().st_size,
                      "sha256": meta.get("sha256")})
    return found


def _cmd_models(args: argparse.Namespace) -> int:
    from fcm_env.tables import new_table, print_table

    found = shipped_models()
    if args.json:
        print(json.dumps(found, indent=1))
        return 0
    table = new_table(("kind", "players", "format", "KiB", "path"))
    for m in found:
        size = "-" if m["bytes"] is None else f"{m['bytes'] / 1024:,.0f}"
        table.add_row(m["kind"], str(m["num_players"]), m["format"], size, m["path"] or "(missing from this install)")
    print_table(table)
    print("inputs and outputs: docs/models.md (each file's JSON beside it says how it was made)")
    return 0
