"""``python -m fcm_training.value positions|fit``: make the search's value network.

    python -m fcm_training.value positions --games 10000 --seed 90000000 --workers 2 --out runs/value/pos.npz
    python -m fcm_training.value fit runs/value/pos.npz --epochs 2 --out runs/value/value_2p.onnx
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fcm_training.value", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    pos = sub.add_parser("positions", help="play games and keep their round-start positions")
    pos.add_argument("--games", type=int, required=True)
    pos.add_argument("--seed", type=int, required=True, help="game g is played on seed + g")
    pos.add_argument("--workers", type=int, default=1)
    pos.add_argument("--out", type=Path, required=True)
    fit = sub.add_parser("fit", help="train the value network on positions files and export it (ONNX)")
    fit.add_argument("data", type=Path, nargs="+")
    fit.add_argument("--epochs", type=int, default=2)
    fit.add_argument("--seed", type=int, default=0)
    fit.add_argument("--lead-weight", type=float, default=0.5,
                     help="share of the final cash lead in the target (the rest: the win)")
    fit.add_argument("--policy", type=Path, default=None, help="the policy whose trunk starts the network")
    fit.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    for name in ("games", "workers", "epochs"):
        if getattr(args, name, 1) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    start = time.perf_counter()
    if args.command == "positions":
        from ..common.interrupts import Interrupted
        from .positions import generate

        try:
            n = generate(args.seed, args.games, args.out, workers=args.workers)
        except Interrupted as stop:
            print(f"fcm_training.value positions: interrupted by {stop.signal_name}; nothing written (the file is "
                  f"written whole at the end): run the same command again", file=sys.stderr)
            return stop.exit_code
        print(f"{n} positions from {args.games} games in {time.perf_counter() - start:.0f} s -> {args.out}")
        return 0
    from fcm_agents.models import shipped_model_path

    from .fit import fit as fit_value

    try:
        best = fit_value(args.data, args.out, args.policy or shipped_model_path(2), epochs=args.epochs, seed=args.seed,
                           lead_weight=args.lead_weight)
    except ValueError as error:
        print(f"fcm_training.value fit: {error}", file=sys.stderr)
        return 2
    print(f"held-out loss {best['loss']:.4f}, accuracy {best['accuracy']:.3f}; "
          f"{time.perf_counter() - start:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
