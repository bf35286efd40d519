"""``python -m fcm_training.distill positions|fit|loop``: the search labels positions, the network learns them.

    python -m fcm_training.distill positions --games 400 --seed 93000000 --workers 2 \\
        --search search:iterations=32 --opponents heuristic=0.5,policy=0.3,self=0.2 --out runs/distill/pos
    python -m fcm_training.distill positions ... --backend ray [--address auto]   # chunks as Ray tasks
    python -m fcm_training.distill fit runs/distill/pos --epochs 2 --out runs/distill/pv_2p.onnx
    python -m fcm_training.distill loop --rounds 3 --games 400 --seed 93000000 --workers 2 --out runs/distill/loop
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path


def _weights(text: str) -> dict[str, float]:
    weights: dict[str, float] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        # the weight follows the last "=": a spec may hold one itself (strategist:archetype=cfo=0.1)
        name, eq, raw = item.rpartition("=")
        if not eq:
            weights[item] = 1.0
            continue
        try:
            weights[name.strip()] = float(raw)
        except ValueError:
            if ":" not in name:  # a plain name with a weight that is not a number
                raise argparse.ArgumentTypeError(f"{item!r}: a weight is a number (heuristic=0.5)") from None
            weights[item] = 1.0  # a spec with a parameter and no weight (strategist:archetype=cfo)
    if not weights:
        raise argparse.ArgumentTypeError("give at least one opponent (heuristic=0.5,policy=0.5)")
    return weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fcm_training.distill", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    pos = sub.add_parser("positions", help="play games and keep the search's decisions with its visits")
    pos.add_argument("--games", type=int, required=True)
    pos.add_argument("--seed", type=int, required=True, help="game g is played on seed + g")
    pos.add_argument("--players", type=int, default=2)
    pos.add_argument("--search", default="search:iterations=32",
                     help="the labelling search (a budget in iterations keeps the labels machine-independent)")
    pos.add_argument("--opponents", type=_weights, default=_weights("heuristic=0.5,policy=0.3,self=0.2"),
                     help="who plays the other seats, drawn per game by weight; self: the search in every seat")
    pos.add_argument("--workers", type=int, default=1, help="processes (or, with --backend ray, a local cluster's CPUs)")
    pos.add_argument("--backend", choices=("processes", "ray"), default="processes",
                     help="chunks in worker processes, or as Ray tasks (the same files; docs/distributed.md)")
    pos.add_argument("--address", default=None, help="with --backend ray: a running cluster (auto or HOST:PORT)")
    pos.add_argument("--max-rounds", type=int, default=30, help="a game not ended by the bank stops after this round")
    pos.add_argument("--chunk", type=int, default=4, help="games per file (a stopped run keeps its finished files)")
    pos.add_argument("--out", type=Path, required=True, help="a folder: one file per chunk of games")
    pos.add_argument("--engine", choices=("auto", "native", "python"), default="auto",
                     help="the engine the games run on (the same positions on either; auto: native where built)")
    fit = sub.add_parser("fit", help="train the policy-value network on positions and export it (ONNX)")
    fit.add_argument("data", type=Path, nargs="+", help="positions folders or files")
    fit.add_argument("--epochs", type=int, default=2)
    fit.add_argument("--seed", type=int, default=0)
    fit.add_argument("--lr", type=float, default=3e-4)
    fit.add_argument("--value-coef", type=float, default=1.0)
    fit.add_argument("--lead-weight", type=float, default=0.5, help="share of the final cash lead in the value target")
    fit.add_argument("--policy", type=Path, default=None, help="the exported policy the network starts from")
    fit.add_argument("--value", type=Path, default=None, help="the exported value network whose head it starts with")
    fit.add_argument("--out", type=Path, required=True)
    loop = sub.add_parser("loop", help="rounds of labelling and fitting, each round's search reading the last network")
    loop.add_argument("--rounds", type=int, required=True)
    loop.add_argument("--games", type=int, required=True, help="games a round")
    loop.add_argument("--seed", type=int, required=True, help="round r plays seeds seed + r * games ..")
    for option in ("search", "opponents", "players", "workers", "backend", "address", "max_rounds", "chunk", "engine"):
        action = next(a for a in pos._actions if a.dest == option)
        loop.add_argument(*action.option_strings, type=action.type, default=action.default, choices=action.choices,
                          help=action.help)
    loop.add_argument("--window", type=int, default=0, help="rounds of positions a fit learns from (0: all so far)")
    loop.add_argument("--epochs", type=int, default=2)
    loop.add_argument("--lr", type=float, default=3e-4)
    loop.add_argument("--eval-games", type=int, default=100, help="games of the network alone after each round")
    loop.add_argument("--eval-seed", type=int, default=10_000_000,
                      help="first seed of the per-round games (model selection; final tables use 20000000+)")
    loop.add_argument("--eval-opponent", default="heuristic", help="the agent in every other seat of those games")
    loop.add_argument("--out", type=Path, required=True, help="a folder: loop.json, curve.jsonl, round-R/")
    student = sub.add_parser("student", help="distil a lighter network of the family from the shipped files "
                             "(its agreement with them on held-out games: report.json)")
    student.add_argument("--players", type=int, default=2)
    student.add_argument("--games", type=int, default=80, help="games whose every decision is a training position")
    student.add_argument("--held-out", type=int, default=12, help="games of other seeds whose positions are measured")
    student.add_argument("--epochs", type=int, default=12)
    student.add_argument("--seed", type=int, default=0)
    student.add_argument("--sizes", default="mix=3,channels=6,board_features=64,vector_hidden=64,head=64",
                         help="the student's layer sizes (the shipped: mix=8,channels=16,board_features=128,"
                              "vector_hidden=128,head=128)")
    student.add_argument("--out", type=Path, required=True, help="a folder: student_<N>p.onnx and report.json")
    args = parser.parse_args(argv)
    for name in ("games", "workers", "epochs", "chunk", "players", "max_rounds", "rounds", "held_out"):
        if getattr(args, name, 2) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    start = time.perf_counter()
    if args.command == "positions":
        return _guarded("positions", f"the finished chunks are kept in {args.out}: run the same command to play the rest",
                        lambda: _positions(args, start))
    if args.command == "loop":
        return _guarded("loop", f"finished chunks and rounds are kept in {args.out}: run the same command to go on",
                        lambda: _loop(args))
    if args.command == "student":
        return _guarded("student", "nothing written", lambda: _student(args))
    return _guarded("fit", "nothing written", lambda: _fit(args, start))


def _student(args: argparse.Namespace) -> int:
    from .student import LIGHT, distil

    sizes = {}
    for part in args.sizes.split(","):
        name, _, value = part.partition("=")
        if name.strip() not in LIGHT or not value.strip().isdigit() or int(value) < 1:
            raise ValueError(f"--sizes: {part!r} is not NAME=POSITIVE_INT with NAME one of {', '.join(LIGHT)}")
        sizes[name.strip()] = int(value)
    from ..common.interrupts import stop_on_signals

    with stop_on_signals():  # Ctrl-C / SIGTERM: Interrupted (nothing is written before the end)
        distil(args.players, args.games, args.held_out, args.out, {**LIGHT, **sizes}, epochs=args.epochs,
               seed=args.seed)
    return 0


def _guarded(command: str, kept: str, work: Callable[[], int]) -> int:
    """``work()``, with a bad setting told in one line (exit 2) and a stop signal in another (130 or 143)."""
    from ..common.interrupts import Interrupted

    try:
        return work()
    except Interrupted as stop:
        print(f"fcm_training.distill {command}: interrupted by {stop.signal_name}; {kept}", file=sys.stderr)
        return stop.exit_code
    except ValueError as error:
        print(f"fcm_training.distill {command}: {error}", file=sys.stderr)
        return 2


def _positions(args: argparse.Namespace, start: float) -> int:
    from .positions import generate

    nodes: Counter = Counter()
    chunks, n = generate(args.seed, args.games, args.out, args.search, args.opponents, num_players=args.players,
                         workers=args.workers, chunk=args.chunk, max_rounds=args.max_rounds, backend=args.backend,
                         address=args.address, nodes=nodes, engine=args.engine)
    print(f"{n} positions from {chunks} chunks in {time.perf_counter() - start:.0f} s -> {args.out}")
    if nodes:
        print(f"chunks per Ray node: {', '.join(f'{node[:12]} {count}' for node, count in sorted(nodes.items()))}")
    return 0


def _fit(args: argparse.Namespace, start: float) -> int:
    from fcm_agents.models import shipped_model_path, shipped_value_path

    from .fit import fit as fit_network

    best = fit_network(args.data, args.out, args.policy or shipped_model_path(2), args.value or shipped_value_path(2),
                       epochs=args.epochs, seed=args.seed, lr=args.lr, lead_weight=args.lead_weight,
                       value_coef=args.value_coef)
    print(f"held-out policy {best['policy']:.4f}, value {best['value']:.4f}, agreement {best['agreement']:.3f}, "
          f"accuracy {best['accuracy']:.3f}; {time.perf_counter() - start:.0f} s -> {args.out}")
    return 0


def _loop(args: argparse.Namespace) -> int:
    from .loop import LoopConfig, run_loop

    config = LoopConfig(out=args.out, rounds=args.rounds, games=args.games, seed=args.seed, search=args.search,
                        opponents=args.opponents, players=args.players, workers=args.workers, chunk=args.chunk,
                        max_rounds=args.max_rounds, window=args.window, epochs=args.epochs, lr=args.lr,
                        eval_games=args.eval_games, eval_seed=args.eval_seed, eval_opponent=args.eval_opponent,
                        engine=args.engine)
    run_loop(config, backend=args.backend, address=args.address)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
