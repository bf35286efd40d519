"""Behaviour-cloning collection: one process and a torch student asked per decision, against lock-step
chunks with the student asked in batches through onnxruntime, in 1 and 2 worker processes.

    python benchmarks/bench_bc_collect.py --games 32 --beta 0.5 --repeats 3

Every mode plays the same seeds at the same roll-in rate (``--beta``: the share of decisions the
heuristic plays; the rest the student samples) with the shipped 2-player network's architecture
(``configs/beat_heuristic_2p.yaml``, untrained weights: its speed is what counts here). It prints the
median seconds of ``--repeats`` runs per mode, and the ratio to the one-process mode, all measured in
one run so that the machine's load touches them alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

SETTINGS = {"num_players": 2, "variant": "standard", "max_rounds": 20, "reward": "win", "shaping": "cash_lead",
            "gamma": 0.995}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--beta", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import numpy as np
    import torch

    from fcm_env.env.single_agent import FcmSingleAgentEnv
    from fcm_training.common.export import onnx_bytes
    from fcm_training.sb3.imitation import collect, torch_student
    from fcm_training.sb3.parallel_collect import parallel_collect
    from fcm_training.sb3.selfplay import build_model, load_config

    torch.set_num_threads(1)
    config = load_config("beat_heuristic_2p", n_envs=2, env_workers=1)
    model = build_model(config, FcmSingleAgentEnv(num_players=2))
    graph = onnx_bytes(model.policy)
    seeds = range(args.seed, args.seed + args.games)
    student = args.beta < 1.0

    def sequential() -> int:
        return len(collect(seeds, **SETTINGS, beta=args.beta, rng=np.random.default_rng(1),
                           student=torch_student(model.policy, 1) if student else None))

    def lockstep(workers: int):
        return lambda: len(parallel_collect(seeds, workers=workers, **SETTINGS, beta=args.beta,
                                            student=graph if student else None, stream=1))

    modes = {"one process, torch student per decision": sequential,
             "lock-step chunks, 1 worker": lockstep(1), "lock-step chunks, 2 workers": lockstep(2)}
    times: dict[str, list[float]] = {name: [] for name in modes}
    decisions: dict[str, int] = {}
    for _ in range(args.repeats):  # the modes in turn, so a change of load touches them alike
        for name, run in modes.items():
            start = time.perf_counter()
            decisions[name] = run()
            times[name].append(time.perf_counter() - start)
    base = statistics.median(times["one process, torch student per decision"])
    print(f"{args.games} games, beta {args.beta}, median of {args.repeats}:")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"  {name}: {med:.2f} s ({decisions[name]} decisions, {decisions[name] / med:.0f} decisions/s), "
              f"{base / med:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
