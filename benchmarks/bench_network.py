"""What a network costs on a CPU: the native forward pass against onnxruntime, per position, at batch 1 and 64.

    python benchmarks/bench_network.py [--rounds 3] [--seconds 0.5] [--players 2]

Positions come from random legal games on the native engine (every third decision, the player to move).
Each round times, one after the other (so both run under the same load), ``session.run`` of every output
for the shipped policy-value file of ``--players``, the 2-player value network and the light network of
``--players`` (``benchmarks/results/light``: distilled from the shipped files), on the native pass
(``fcm_agents.native.network.NativeSession``) and on onnxruntime (one thread), at batch 1 and 64; then the
medians over the rounds, in microseconds per position, and onnxruntime's time over the native one.
``--designs`` times the native pass of the shipped design and of lighter ones (random weights) instead.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

import fcm_env
from fcm_agents.models import shipped_model_path, shipped_value_path
from fcm_agents.native.network import NativeSession
from fcm_agents.onnx_agent import _reference_session

#: the light networks distilled from the shipped files (python -m fcm_training.distill student)
LIGHT = Path(__file__).resolve().parent / "results" / "light"


def positions(players: int, count: int, seed: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """Observations and float32 masks of the player to move, every third decision of random legal games
    (``seed`` on, one game after another) on the native engine (tests/native_agents reads them too)."""
    env = fcm_env.env(num_players=players, max_rounds=12, engine="native")
    observations, masks, game = [], [], 0
    while len(observations) < count:
        env.reset(seed=seed + game)
        rng = np.random.default_rng(seed + game)
        game += 1
        for step, _ in enumerate(env.agent_iter()):
            observation, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if step % 3 == 0 and len(observations) < count:
                observations.append(observation["observation"])
                masks.append(observation["action_mask"].astype(np.float32))
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return np.stack(observations), np.stack(masks)


def per_position(session, feeds: dict[str, np.ndarray], seconds: float) -> float:
    session.run(None, feeds)
    start, calls = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        session.run(None, feeds)
        calls += 1
    return (time.perf_counter() - start) / calls / len(feeds["observation"]) * 1e6


#: lighter designs of the family (layer sizes as ``_agents.Network`` names them), for ``--designs``
DESIGNS = {
    "shipped: mix 8, conv 16/32, board 128, vector 128, head 128": (8, 16, 32, 128, 128, 128),
    "lighter: mix 4, conv 8/16, board 64, vector 128, head 128": (4, 8, 16, 64, 128, 128),
    "lightest: mix 4, conv 8/16, board 64, vector 64, head 64": (4, 8, 16, 64, 64, 64),
    "shipped light: mix 3, conv 6/12, board 64, vector 64, head 64": (3, 6, 12, 64, 64, 64),
}


def design(sizes: tuple[int, ...], policy: bool, seed: int = 0):
    """A native network of ``sizes`` with random weights (its cost, not its play: zeros in the weights' outputs
    are skipped, so a trained network's costs differ a little)."""
    from fcm_agents.native import _agents

    mix, c1, c2, board, vector, head = sizes
    rng = np.random.default_rng(seed)

    def w(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.05).astype(np.float32)

    weights = {"mix": w(mix, 47), "mix_bias": w(mix), "conv1": w(c1, mix, 3, 3), "conv1_bias": w(c1),
               "conv2": w(c2, c1, 3, 3), "conv2_bias": w(c2), "board": w(board, c2 * 35), "board_bias": w(board),
               "vector": w(vector, 1380), "vector_bias": w(vector), "value": w(head, board + vector),
               "value_bias": w(head), "value_out": w(1, head), "value_out_bias": w(1)}
    shape = {"mix": mix, "conv1": c1, "conv2": c2, "board_features": board, "vector_hidden": vector,
             "value_hidden": head}
    if policy:
        weights.update(policy=w(head, board + vector), policy_bias=w(head), action=w(2757, head), action_bias=w(2757))
        shape.update(policy_hidden=head, num_actions=2757)
    return _agents.Network(shape, weights)


def designs(rounds: int, seconds: float, observations: np.ndarray, masks: np.ndarray) -> None:
    """The native forward pass's cost per position of each design: the trunk and value head, and with the
    policy head too (every action's logit), at batch 1 and 64."""
    for label, sizes in DESIGNS.items():
        for policy in (False, True):
            network = design(sizes, policy)
            row = []
            for batch in (1, 64):
                feeds = (observations[:batch], masks[:batch] if policy else None)
                times = []
                for _ in range(rounds):
                    network.forward(*feeds)
                    start, calls = time.perf_counter(), 0
                    while time.perf_counter() - start < seconds:
                        network.forward(*feeds)
                        calls += 1
                    times.append((time.perf_counter() - start) / calls / batch * 1e6)
                row.append(statistics.median(times))
            heads = "trunk + value and policy heads" if policy else "trunk + value head"
            print(f"{label:58s} {heads:31s} batch 1 {row[0]:7.1f} us, batch 64 {row[1]:7.1f} us per position",
                  flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--designs", action="store_true", help="the native pass's cost of lighter designs instead")
    args = parser.parse_args()
    observations, masks = positions(args.players, 64)
    if args.designs:
        designs(args.rounds, args.seconds, observations, masks)
        return
    files = [(f"policy_{args.players}p (policy-value)", shipped_model_path(args.players), True),
             ("value_2p (value)", shipped_value_path(2), False)]
    light = LIGHT / f"light_{args.players}p.onnx"
    if light.is_file():
        files.append((f"light_{args.players}p (policy-value)", light, True))
    for label, path, policy in files:
        reference = _reference_session(str(path))
        native = NativeSession(str(path), reference)
        for batch in (1, 64):
            feeds = {"observation": observations[:batch]}
            if policy:
                feeds["action_mask"] = masks[:batch]
            times: dict[str, list[float]] = {"native": [], "onnxruntime": []}
            for _ in range(args.rounds):
                times["native"].append(per_position(native, feeds, args.seconds))
                times["onnxruntime"].append(per_position(reference, feeds, args.seconds))
            n, o = statistics.median(times["native"]), statistics.median(times["onnxruntime"])
            print(f"{label:34s} batch {batch:3d}: native {n:8.1f} us/position, onnxruntime {o:8.1f}, "
                  f"onnxruntime / native {o / n:5.2f}", flush=True)


if __name__ == "__main__":
    main()
