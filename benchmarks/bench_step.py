"""AEC-like agent-step throughput: engine step + legal-action mask + flat observation.

    python benchmarks/bench_step.py [--games 3] [--max-rounds 20] [--repeat 3] [--players 2,4]

One PettingZoo-AEC agent-step is ``game.apply(action)`` followed by
``legal_action_mask(game, next_player)`` and ``Observer.observe_flat(game,
next_player, out=buffer)`` for the player to move next. Actions are random legal
ones (``random_sim.pick`` with ``random.Random(seed)``), in seeded games.

For each player count it prints, as the best of ``--repeat`` runs (the machine
may be shared, so the best run is the least disturbed one):

* ``engine steps/s``: ``legal_actions`` + pick + ``apply`` only;
* ``mask us/step`` and ``observe us/step``: the two encoding calls of the AEC-like
  loop, timed around each call (positions met as an env meets them: just stepped,
  warm in the CPU caches, the mask not yet cached; the legal actions of the new
  position, engine work, are listed just before and not counted here);
* ``agent steps/s``: the whole AEC-like step as an env would run it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_env.encoding import CODEC, Observer, legal_action_mask
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick


def _new(num_players: int, seed: int, max_rounds: int) -> Game:
    return Game.new(num_players, seed=seed, max_rounds=max_rounds)


def engine_only(num_players: int, seeds: range, max_rounds: int) -> tuple[int, float]:
    """Steps and seconds of random play with the engine alone (game set-up not timed)."""
    steps, elapsed = 0, 0.0
    for seed in seeds:
        game = _new(num_players, seed, max_rounds)
        rng = random.Random(seed)
        start = time.perf_counter()
        while game.pending is not None:
            game.apply(pick(rng, game.legal_actions()))
            steps += 1
        elapsed += time.perf_counter() - start
    return steps, elapsed


def agent_steps(num_players: int, seeds: range, max_rounds: int) -> tuple[int, float, float, float]:
    """The AEC-like loop: apply, then mask and observation of the next player.

    Returns steps, total seconds, and the seconds spent in the mask and in the
    observation (timed around each call, inside the loop, so the state is as warm
    in the caches as an env would find it).
    """
    observer = Observer()
    flat = np.zeros(observer.flat_size, dtype=np.float32)
    mask = np.zeros(CODEC.n, dtype=np.int8)
    clock = time.perf_counter
    steps, elapsed, mask_s, observe_s = 0, 0.0, 0.0, 0.0
    for seed in seeds:
        game = _new(num_players, seed, max_rounds)
        rng = random.Random(seed)
        start = clock()
        while game.pending is not None:
            game.apply(pick(rng, game.legal_actions()))
            steps += 1
            player = game.current_player
            if player is not None:
                game.legal_actions()  # engine work (cached for the next pick): kept out of the mask's time
                t0 = clock()
                legal_action_mask(game, player, out=mask)
                t1 = clock()
                observer.observe_flat(game, player, out=flat)
                t2 = clock()
                mask_s += t1 - t0
                observe_s += t2 - t1
        elapsed += clock() - start
    return steps, elapsed, mask_s, observe_s


def best(fn, repeat: int) -> tuple:
    """The run with the smallest total time out of ``repeat``."""
    return min((fn() for _ in range(repeat)), key=lambda r: r[1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="seeded random games per player count")
    parser.add_argument("--max-rounds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown")
    parser.add_argument("--players", default="2,4", help="comma-separated player counts")
    args = parser.parse_args(argv)
    seeds = range(args.games)
    counts = [int(n) for n in args.players.split(",")]
    header = (f"{'players':>7} {'steps':>7} {'engine steps/s':>15} {'mask us/step':>13} "
              f"{'observe us/step':>16} {'agent steps/s':>14}")
    print(header)
    for n in counts:
        steps, engine_s = best(lambda n=n: engine_only(n, seeds, args.max_rounds), args.repeat)
        agent_n, agent_s, mask_s, observe_s = best(lambda n=n: agent_steps(n, seeds, args.max_rounds), args.repeat)
        print(f"{n:>7} {steps:>7} {steps / engine_s:>15.0f} {mask_s / agent_n * 1e6:>13.1f} "
              f"{observe_s / agent_n * 1e6:>16.1f} {agent_n / agent_s:>14.0f}")

if __name__ == "__main__":
    main()
