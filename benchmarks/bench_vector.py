"""Vector-env throughput across processes: in-process, shared-memory workers, SB3's SubprocVecEnv.

    python benchmarks/bench_vector.py [--players 4] [--num-envs 16] [--seconds 5] [--max-rounds 30]

Every figure is sub-env steps per second of wall time: each call steps all ``--num-envs``
learner games with random legal actions picked from the batched mask, opponents (random
agents) playing inside the step, as a trainer's rollout does:

* ``FcmVectorEnv``: every game in this process;
* ``ParallelFcmVectorEnv`` with 1 and 2 processes (``workers``): this process steps its share
  while the workers step theirs, observations and masks in shared memory;
* SB3's ``SubprocVecEnv`` with 2 worker processes (``[train]`` extra): observations pickled
  through pipes and the masks asked for in a second round trip (``env_method("action_masks")``),
  the main process idle meanwhile.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_env.env import FcmSingleAgentEnv, FcmVectorEnv
from fcm_env.env.parallel import ParallelFcmVectorEnv


def _actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])


def gym_rate(venv, seconds: float) -> float:
    rng = np.random.default_rng(0)
    venv.reset(seed=0)
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        venv.step(_actions(venv.action_masks(), rng))
        calls += 1
    rate = calls * venv.num_envs / (time.perf_counter() - start)
    venv.close()
    return rate


def subproc_rate(make, num_envs: int, seconds: float) -> float | None:
    try:
        from stable_baselines3.common.vec_env import SubprocVecEnv
    except ImportError:
        return None
    venv = SubprocVecEnv([make] * num_envs, start_method="spawn")
    rng = np.random.default_rng(0)
    venv.reset()
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = np.stack(venv.env_method("action_masks"))
        venv.step(_actions(masks, rng))
        calls += 1
    rate = calls * num_envs / (time.perf_counter() - start)
    venv.close()
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--max-rounds", type=int, default=30)
    args = parser.parse_args()
    make = functools.partial(FcmSingleAgentEnv, num_players=args.players, max_rounds=args.max_rounds,
                             learner_seat="random")
    n, s = args.num_envs, args.seconds
    print(f"{args.players} players, {n} games per call, random legal actions, about {s:g} s per figure")
    base = gym_rate(FcmVectorEnv(n, make, copy=False), s)
    print(f"  FcmVectorEnv (in-process)              {base:8.0f} steps/s   1.00x")
    for workers in (1, 2):
        rate = gym_rate(ParallelFcmVectorEnv(n, make, workers=workers, copy=False), s)
        print(f"  ParallelFcmVectorEnv, {workers} process(es)     {rate:8.0f} steps/s   {rate / base:.2f}x")
    rate = subproc_rate(make, n, s)
    if rate is None:
        print("  SB3 SubprocVecEnv: skipped (needs the [train] extra)")
    else:
        print(f"  SB3 SubprocVecEnv, 2 processes         {rate:8.0f} steps/s   {rate / base:.2f}x")


if __name__ == "__main__":
    main()
