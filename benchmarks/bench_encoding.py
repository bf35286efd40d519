"""Encoding timings on random positions: action ids, the legal-action mask, observations.

    python benchmarks/bench_encoding.py [--games 2] [--reps 3] [--max-rounds 30]

Plays seeded random games for 2-5 players, keeps a clone of every position, then
prints microseconds per call (``time.perf_counter``, mean over all positions):

* ``encode``: one engine action -> id (per action);
* ``legal ids``: every legal action of the position encoded and sorted (the mask's work,
  uncached);
* ``mask (cached)``: ``legal_action_mask`` for the player to move when the position's ids are cached;
* ``decode``: one id -> action;
* ``observe`` / ``observe_flat``: one player's observation into preallocated buffers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_env.encoding import CODEC, Observer, legal_action_mask
from fcm_env.encoding import mask as mask_module
from fcm_env.engine.game import Game


def positions(num_players: int, games: int, max_rounds: int) -> list[Game]:
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        game = Game.new(num_players, seed=seed, max_rounds=max_rounds)
        while game.pending is not None:
            out.append(game.clone())
            game.apply(rng.choice(game.legal_actions()))
    return out


def timed(fn: Callable[[], object], reps: int) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        fn()
    return time.perf_counter() - start


def bench(num_players: int, games: int, reps: int, max_rounds: int) -> dict[str, float]:
    games_at = positions(num_players, games, max_rounds)
    legal = [g.legal_actions() for g in games_at]
    n_actions = sum(len(a) for a in legal)
    observer = Observer()
    buf = observer.new_observation()
    flat = np.zeros(observer.flat_size, dtype=np.float32)
    mask = np.zeros(CODEC.n, dtype=np.int8)
    for g in games_at:  # warm the static-plane cache and the mask cache once
        observer.observe(g, g.current_player, out=buf)
    result = {"positions": len(games_at), "legal actions / position": n_actions / len(games_at)}

    def encode_all() -> None:
        for actions in legal:
            for a in actions:
                CODEC.encode(a)

    def ids_uncached() -> None:
        for g in games_at:
            g.position_cache.pop("legal_ids", None)  # the ids are kept per position (fcm_env.encoding.mask)
            g.position_cache.pop("legal_by_id", None)
            mask_module.legal_action_ids(g)

    def mask_cached() -> None:
        for g in games_at:
            legal_action_mask(g, g.current_player, out=mask)

    ids = [[CODEC.encode(a) for a in actions] for actions in legal]

    def decode_all() -> None:
        for g, row in zip(games_at, ids):
            for i in row:
                CODEC.decode(i, g)

    def observe_all() -> None:
        for g in games_at:
            observer.observe(g, g.current_player, out=buf)

    def observe_flat_all() -> None:
        for g in games_at:
            observer.observe_flat(g, g.current_player, out=flat)

    count = len(games_at)
    result["encode (per action)"] = timed(encode_all, reps) / (reps * n_actions) * 1e6
    result["legal ids, uncached"] = timed(ids_uncached, reps) / (reps * count) * 1e6
    result["mask, cached"] = timed(mask_cached, reps) / (reps * count) * 1e6
    result["decode (per id)"] = timed(decode_all, reps) / (reps * n_actions) * 1e6
    result["observe"] = timed(observe_all, reps) / (reps * count) * 1e6
    result["observe_flat"] = timed(observe_flat_all, reps) / (reps * count) * 1e6
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="seeded random games per player count")
    parser.add_argument("--reps", type=int, default=3, help="passes over the positions per timing")
    parser.add_argument("--max-rounds", type=int, default=30)
    args = parser.parse_args(argv)
    print(f"action space N = {CODEC.n}; observation {Observer().board_shape} + {Observer().vector_size} "
          f"(flat {Observer().flat_size})")
    rows = {n: bench(n, args.games, args.reps, args.max_rounds) for n in (2, 3, 4, 5)}
    keys = list(next(iter(rows.values())))
    print(f"{'us per call':<28}" + "".join(f"{f'{n}p':>10}" for n in rows))
    for key in keys:
        print(f"{key:<28}" + "".join(f"{rows[n][key]:>10.1f}" for n in rows))


if __name__ == "__main__":
    main()
