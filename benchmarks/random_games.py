"""Random-play soak: many complete games, every invariant checked after every action.

    python benchmarks/random_games.py --games 10000 --workers 2     # the full soak (run it in the background)
    python benchmarks/random_games.py --games-per-config 25          # 200 games, one process
    python benchmarks/random_games.py --engine native --games 10000 --workers 2   # the native core's soak

Games are spread over every combination of 2-5 players and both variants (8 configurations,
game ``g`` plays configuration ``g % 8`` with seed ``seed + g // 8``). Each game plays random
legal actions (preferring to act over passing), checks the engine invariants after every
action, save/load round trips at random points, and that its record replays to its final
state (``fcm_env.engine.invariants.random_sim``). An ``InvariantError`` counts as an invariant violation,
any other exception as a crash; both are listed with the game that raised them. The exit
status is 1 when there was either.

``--engine native`` plays each game on the native core and on the Python engine side by side with the same
actions (the lockstep soak): at every step the legal ids must be equal, every ``--compare-every`` steps
and at the end the state documents, and at the end the winners; the Python twin's invariants are checked
at those steps. A mismatch counts as a difference (listed with its game and step), an exception of the
core as a crash.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from fcm_env.engine.invariants import InvariantError
from fcm_env.engine.invariants.random_sim import simulate

CONFIGS = [(variant, n) for variant in ("standard", "introductory") for n in (2, 3, 4, 5)]


@dataclass
class Outcome:
    variant: str
    players: int
    seed: int
    actions: int = 0
    roundtrips: int = 0
    rounds: int = 0
    ended_by: str = ""
    failure: str = ""  # "", "invariant", "crash", "difference" (native) or "unloadable" (native)
    message: str = ""


def play(game_index: int, seed: int, max_rounds: int) -> Outcome:
    variant, players = CONFIGS[game_index % len(CONFIGS)]
    game_seed = seed + game_index // len(CONFIGS)
    out = Outcome(variant, players, game_seed)
    try:
        r = simulate(players, game_seed, variant, max_rounds)
    except InvariantError as exc:
        out.failure, out.message = "invariant", str(exc)
    except Exception as exc:  # noqa: BLE001 -- a soak reports every crash and goes on
        out.failure, out.message = "crash", f"{type(exc).__name__}: {exc}"
    else:
        out.actions, out.roundtrips, out.rounds, out.ended_by = r.actions, r.roundtrips, r.rounds, r.ended_by
    return out


def play_native(game_index: int, seed: int, max_rounds: int, compare_every: int) -> Outcome:
    """One game on the native core in lockstep with the Python engine (see the module docstring)."""
    import random

    import numpy as np

    from fcm_env.encoding import legal_action_ids
    from fcm_env.engine.game import Game
    from fcm_env.engine.invariants.random_sim import pick
    from fcm_env.engine.invariants.state_checks import check_state
    from fcm_env.engine.persistence.dataclass_json import StateFormatError
    from fcm_env.engines import load_game, new_game

    variant, players = CONFIGS[game_index % len(CONFIGS)]
    game_seed = seed + game_index // len(CONFIGS)
    out = Outcome(variant, players, game_seed)
    rng = random.Random(f"native/{players}/{variant}/{game_seed}")
    theirs = Game.new(players, seed=game_seed, variant=variant, max_rounds=max_rounds)
    start_money = theirs.state.bank
    steps = 0
    try:
        ours = new_game("native", players, game_seed, variant, max_rounds)
        while not theirs.is_over:
            if not np.array_equal(ours.legal_ids(), legal_action_ids(theirs)):
                out.failure, out.message = "difference", f"step {steps}: the legal ids differ"
                return out
            if steps % compare_every == 0:
                check_state(theirs.state, start_money)
                if ours.to_dict() != theirs.to_dict():
                    out.failure, out.message = "difference", f"step {steps}: the states differ"
                    return out
                # every position the engines reach saves and loads, on both engines (docs/state-format.md)
                document = json.loads(json.dumps(ours.to_dict()))
                for engine in ("python", "native"):
                    try:
                        loaded = load_game(engine, document)
                    except StateFormatError as exc:
                        out.failure, out.message = "unloadable", f"step {steps}: the {engine} loader: {exc}"
                        return out
                    if loaded.to_dict() != document:
                        out.failure, out.message = "difference", f"step {steps}: the {engine} loader changed it"
                        return out
                out.roundtrips += 2
            action = pick(rng, theirs.legal_actions())
            theirs.apply(action)
            ours.apply_legal(action)
            steps += 1
        if not ours.is_over or ours.to_dict() != theirs.to_dict() or ours.winners != theirs.winners:
            out.failure, out.message = "difference", f"the end after {steps} steps differs"
            return out
    except InvariantError as exc:
        out.failure, out.message = "invariant", f"step {steps}: {exc}"
        return out
    except Exception as exc:  # noqa: BLE001 -- a soak reports every crash and goes on
        out.failure, out.message = "crash", f"step {steps}: {type(exc).__name__}: {exc}"
        return out
    out.actions, out.rounds = steps, theirs.state.round
    out.ended_by = "max_rounds" if theirs.state.truncated else "bank"
    return out


def _play_chunk(indices: list[int], seed: int, max_rounds: int, engine: str = "python",
                compare_every: int = 10) -> list[Outcome]:
    if engine == "native":
        return [play_native(i, seed, max_rounds, compare_every) for i in indices]
    return [play(i, seed, max_rounds) for i in indices]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games in all (default: 25 per configuration)")
    parser.add_argument("--games-per-config", type=int, default=25)
    parser.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    parser.add_argument("--max-rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=("python", "native"), default="python",
                        help="native: the core in lockstep with the Python engine (see above)")
    parser.add_argument("--compare-every", type=int, default=10, help="native: steps between state comparisons")
    args = parser.parse_args()
    total = args.games if args.games is not None else args.games_per_config * len(CONFIGS)
    if total < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    start = time.perf_counter()
    size = max(1, min(50, -(-total // (4 * args.workers))))  # several chunks per worker, at most 50 games each
    chunks = [list(range(i, min(i + size, total))) for i in range(0, total, size)]
    outcomes: list[Outcome] = []
    pool = ProcessPoolExecutor(max_workers=args.workers) if args.workers > 1 else None
    try:
        if pool is None:
            runs = (_play_chunk(c, args.seed, args.max_rounds, args.engine, args.compare_every) for c in chunks)
        else:
            runs = pool.map(_play_chunk, chunks, [args.seed] * len(chunks), [args.max_rounds] * len(chunks),
                            [args.engine] * len(chunks), [args.compare_every] * len(chunks))
        for done in runs:
            outcomes.extend(done)
            print(f"\r{len(outcomes)}/{total} games, {time.perf_counter() - start:.0f} s", end="",
                  file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.shutdown()  # before exit: a pool left to the interpreter's exit hooks reports a closed pipe
    print(file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start

    for variant, n in CONFIGS:
        rows = [o for o in outcomes if (o.variant, o.players) == (variant, n) and not o.failure]
        if rows:
            bank = sum(o.ended_by == "bank" for o in rows)
            print(f"{variant:<12} {n}p: {len(rows)} games, {sum(o.actions for o in rows)} actions, ended by the "
                  f"bank {bank}/{len(rows)}, mean rounds {sum(o.rounds for o in rows) / len(rows):.1f}")
    failures = Counter(o.failure for o in outcomes if o.failure)
    actions = sum(o.actions for o in outcomes)
    print(f"all: {len(outcomes)} games ({args.workers} worker(s)), {actions} actions checked, "
          f"{sum(o.roundtrips for o in outcomes)} save/load round trips, {elapsed:.1f} s "
          f"({actions / elapsed:.0f} checked actions/s)")
    print(f"crashes: {failures['crash']}, invariant violations: {failures['invariant']}"
          + (f", differences from the Python engine: {failures['difference']}, positions a loader refused: "
             f"{failures['unloadable']}" if args.engine == "native" else ""))
    for o in outcomes:
        if o.failure:
            print(f"  {o.failure}: {o.variant} {o.players}p seed {o.seed}: {o.message}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
