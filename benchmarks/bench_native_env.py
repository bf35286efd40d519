"""The native core against the Python engine and OpenSpiel chess, every figure a ratio from one interleaved run.

    python benchmarks/bench_native_env.py [--players 4] [--seconds 3] [--rounds 3] [--num-envs 64]

Each round measures, one after the other (so every contender runs under the same machine load), for
``--seconds`` each:

* **engine**: random legal play by flat id, no observation: ``legal ids`` then ``apply`` of a random one,
  one Python call each per decision, on the Python engine (``legal_action_ids`` + ``apply_legal``) and on the
  native one (``legal_ids`` + ``apply_id``); and the native engine's own loop in C++ (``play_random``), the
  ceiling with no Python per decision. Decisions/s.
* **vector**: ``FcmVectorEnv`` at ``--players``, ``--num-envs`` games per call, random-legal opponents,
  the learners' observations and masks written into the batch buffers (``copy=False``); the learners'
  actions uniformly random legal ones from ``FcmVectorEnv.random_actions`` (numpy over the masks on the
  Python engine; the core's legal lists on the native batch, the same ids). Python engine, native batch on
  1 thread and on 2 threads. Learner steps/s.
* **aec**: the PettingZoo loop (``last()`` then ``step()``: observation + mask of the agent to move every
  step, a masked ``action_space.sample``), at ``--players``, on each engine. Agent steps/s.
* **OpenSpiel chess, driven fairly**: OpenSpiel's numpy observer (``make_observation``, ``set_from``) of the
  player to move, a mask from ``legal_actions``, a random legal action. Steps/s.

Then the medians over the rounds of each ratio, and the clone time and memory of a native 4-player game.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# numpy's BLAS threads spin-wait on the other core after numpy calls; nothing here needs them, and they would
# take the second core from the native batch's second thread (set before numpy is imported)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import fcm_env
from fcm_env.encoding import legal_action_ids
from fcm_env.encoding.mask import legal_actions_by_id
from fcm_env.engine.game import Game
from fcm_env.env.vector import FcmVectorEnv
from fcm_env.native import _core

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_env import pettingzoo_rate  # the PettingZoo loop of the chess comparison there


def engine_python(players: int, seconds: float, max_rounds: int) -> float:
    rng = np.random.default_rng(0)
    steps = seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new(players, seed=seed, max_rounds=max_rounds)
        seed += 1
        while not game.is_over:
            ids = legal_action_ids(game)
            game.apply_legal(legal_actions_by_id(game)[int(ids[rng.integers(ids.size)])])
            steps += 1
    return steps / (time.perf_counter() - start)


def engine_native(players: int, seconds: float, max_rounds: int) -> float:
    rng = np.random.default_rng(0)
    steps = seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = _core.Game.new(players, seed, "standard", max_rounds)
        seed += 1
        while not game.is_over:
            ids = game.legal_ids()
            game.apply_id(int(ids[rng.integers(ids.size)]))
            steps += 1
    return steps / (time.perf_counter() - start)


def engine_native_loop(players: int, seconds: float, max_rounds: int) -> float:
    steps = seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += _core.Game.new(players, seed, "standard", max_rounds).play_random(seed)
        seed += 1
    return steps / (time.perf_counter() - start)


def vector(players: int, seconds: float, max_rounds: int, num_envs: int, engine: str, threads: int) -> float:
    venv = FcmVectorEnv(num_envs, num_players=players, max_rounds=max_rounds, learner_seat="random", copy=False,
                        engine=engine, threads=threads)
    rng = np.random.default_rng(0)
    venv.reset(seed=0)
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        venv.step(venv.random_actions(rng))
        calls += 1
    return calls * num_envs / (time.perf_counter() - start)


def aec(players: int, seconds: float, max_rounds: int, engine: str) -> float:
    """The PettingZoo loop of ``bench_env.py`` (the same one the chess comparison there uses)."""
    return pettingzoo_rate(lambda: fcm_env.env(num_players=players, max_rounds=max_rounds, engine=engine), seconds)


def openspiel_chess(seconds: float) -> float | None:
    try:
        import pyspiel
        from open_spiel.python.observation import make_observation
    except ImportError:
        return None
    game = pyspiel.load_game("chess")
    observation = make_observation(game)
    actions = game.num_distinct_actions()
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            observation.set_from(state, player)
            legal = state.legal_actions(player)
            mask = np.zeros(actions, dtype=np.int8)
            mask[legal] = 1
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps / (time.perf_counter() - start)


def clone_and_memory(players: int, max_rounds: int) -> tuple[float, float, float]:
    """Microseconds per clone of a mid-game native game, the bytes its copy holds (the board is shared by
    every copy), and the bytes of the board itself."""
    game = _core.Game.new(players, 7, "standard", max_rounds)
    game.play_random(3, 300)
    n = 20_000
    start = time.perf_counter()
    for _ in range(n):
        game.clone()
    per_clone = 1e6 * (time.perf_counter() - start) / n
    tables = _core.Board(game.to_dict()["board"]).tables()
    board_bytes = sum(array.nbytes for array in tables.values())
    return per_clone, game.memory_bytes(), board_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--max-rounds", type=int, default=30)
    args = parser.parse_args()
    p, s, r, b = args.players, args.seconds, args.max_rounds, args.num_envs
    contenders = {
        "engine python": lambda: engine_python(p, s, r),
        "engine native": lambda: engine_native(p, s, r),
        "engine native C++ loop": lambda: engine_native_loop(p, s, r),
        "vector python": lambda: vector(p, s, r, b, "python", 1),
        "vector native 1 thread": lambda: vector(p, s, r, b, "native", 1),
        "vector native 2 threads": lambda: vector(p, s, r, b, "native", 2),
        "aec python": lambda: aec(p, s, r, "python"),
        "aec native": lambda: aec(p, s, r, "native"),
        "OpenSpiel chess": lambda: openspiel_chess(s),
    }
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for k in range(args.rounds):
        row = {}
        for name, run in contenders.items():
            value = run()
            if value is not None:
                row[name] = value
                rates[name].append(value)
        print(f"round {k + 1}: " + ", ".join(f"{name} {v:,.0f}" for name, v in row.items()), flush=True)

    def ratio(a: str, c: str) -> str:
        if not rates[a] or not rates[c]:
            return "n/a"
        return f"{float(np.median(np.array(rates[a]) / np.array(rates[c]))):.2f}x"

    print(f"\nmedians over {args.rounds} interleaved rounds of {s:g} s, {p} players, {b} games per vector call:")
    for name, values in rates.items():
        if values:
            print(f"  {name:<26} {float(np.median(values)):>12,.0f} /s")
    print("ratios (median of the per-round ratios):")
    print(f"  engine: native {ratio('engine native', 'engine python')} python by id from Python, "
          f"C++ loop {ratio('engine native C++ loop', 'engine python')}")
    print(f"  vector: native 1 thread {ratio('vector native 1 thread', 'vector python')} python, "
          f"{ratio('vector native 1 thread', 'OpenSpiel chess')} OpenSpiel chess; 2 threads "
          f"{ratio('vector native 2 threads', 'vector native 1 thread')} 1 thread, "
          f"{ratio('vector native 2 threads', 'OpenSpiel chess')} OpenSpiel chess")
    print(f"  aec:    native {ratio('aec native', 'aec python')} python, "
          f"{ratio('aec native', 'OpenSpiel chess')} OpenSpiel chess")
    per_clone, memory, board = clone_and_memory(p, r)
    print(f"clone of a {p}-player native game in round 10 or so: {per_clone:.2f} us; memory: {memory / 1024:.1f} KiB "
          f"per game copy, plus its board's tables ({board / 1024:.0f} KiB), which every copy shares")


if __name__ == "__main__":
    main()
