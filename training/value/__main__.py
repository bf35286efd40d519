"""``python -m fcm_training.value positions|fit|head``: make the search's value network.

    python -m fcm_training.value positions --games 10000 --seed 90000000 --workers 2 --out runs/value/pos.npz
    python -m fcm_training.value fit runs/value/pos.npz --epochs 2 --out runs/value/value_2p.onnx
    python -m fcm_training.value head runs/value/pos4.npz --policy agents/models/policy_4p.onnx --out pv_4p.onnx
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
    pos.add_argument("--players", type=int, default=2, help="the table size (2-5)")
    pos.add_argument("--out", type=Path, required=True)
    fit = sub.add_parser("fit", help="train the value network on positions files and export it (ONNX)")
    fit.add_argument("data", type=Path, nargs="+")
    fit.add_argument("--epochs", type=int, default=2)
    fit.add_argument("--seed", type=int, default=0)
    fit.add_argument("--lead-weight", type=float, default=0.5,
                     help="share of the final cash lead in the target (the rest: the win)")
    fit.add_argument("--policy", type=Path, default=None, help="the policy whose trunk starts the network")
    fit.add_argument("--out", type=Path, required=True)
    head = sub.add_parser("head", help="fit a value head on a policy's own trunk and write the policy with it "
                                       "(one policy-value/1 file)")
    head.add_argument("data", type=Path, nargs="+")
    head.add_argument("--policy", type=Path, required=True, help="the exported policy (.onnx) that gets the head")
    head.add_argument("--epochs", type=int, default=4)
    head.add_argument("--batch", type=int, default=256)
    head.add_argument("--seed", type=int, default=0)
    head.add_argument("--lead-weight", type=float, default=0.5,
                      help="share of the final cash lead in the target (the rest: the win)")
    head.add_argument("--out", type=Path, required=True)
    head.add_argument("--card", type=Path, default=None,
                      help="the model card (policy_Np.json) to rewrite for the new file: format, sha256, the head's figures")
    args = parser.parse_args(argv)
    for name in ("games", "workers", "epochs", "batch"):
        if getattr(args, name, 1) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if not 2 <= getattr(args, "players", 2) <= 5:
        parser.error(f"--players must be 2 to 5, got {args.players}")
    start = time.perf_counter()
    if args.command == "positions":
        from ..common.interrupts import Interrupted
        from .positions import generate

        try:
            n = generate(args.seed, args.games, args.out, workers=args.workers, num_players=args.players)
        except Interrupted as stop:
            print(f"fcm_training.value positions: interrupted by {stop.signal_name}; nothing written (the file is "
                  f"written whole at the end): run the same command again", file=sys.stderr)
            return stop.exit_code
        print(f"{n} positions from {args.games} games in {time.perf_counter() - start:.0f} s -> {args.out}")
        return 0
    from fcm_agents.models import shipped_model_path

    from .fit import Positions
    from .fit import fit as fit_value
    from .head import fit_and_attach

    try:
        if args.command == "head":
            best = fit_and_attach(args.data, args.policy, args.out, epochs=args.epochs, batch=args.batch, seed=args.seed,
                                  lead_weight=args.lead_weight, card=args.card, describe={
                                      "graph": "value_logit[batch]: the logit that the observing seat wins, "
                                               "from a head on the policy's trunk",
                                      "command": " ".join(["python -m fcm_training.value", *(argv or sys.argv[1:])])})
        else:
            players = Positions.load(args.data).players
            best = fit_value(args.data, args.out, args.policy or shipped_model_path(players), epochs=args.epochs,
                             seed=args.seed, lead_weight=args.lead_weight)
    except ValueError as error:
        print(f"fcm_training.value {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"fcm_training.value {args.command}: interrupted; {args.out} is as it was (it is written whole at "
              f"the end)", file=sys.stderr)
        return 130
    print(f"held-out loss {best['loss']:.4f}, accuracy {best['accuracy']:.3f}; "
          f"{time.perf_counter() - start:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
