"""The search agent's strength and its thinking time, game by game, resumable.

    python benchmarks/search_strength.py --players 2 --opponent heuristic --games 50 --seed 1000000 \\
        --out runs/strength/2p-heuristic.jsonl [--search search]

One seat plays ``--search`` (a ``search:...`` spec), every other seat ``--opponent``; game g uses seed
``--seed + g`` and puts the search in seat ``g % players`` (seats rotated). Each finished game is one
JSON line of ``--out`` (its result, the search's decisions, searched decisions, iterations and
seconds), written as it ends: run the same command again and it plays only the missing games.
``--also`` adds the files of the same cell's other halves (one process per core, each on its own
seed range) to the summary; ``--workers N`` plays N games at a time in processes instead (the same
games and results: a game's seed and seats depend on its number only, and a budget in iterations
makes the search's moves independent of the machine). It prints the search's win rate with its 95% Wilson interval, its
mean place, and its thinking time per decision (all its decisions, forced ones included, and
searched ones only), measured on this process's core.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_agents.match import play_game
from fcm_agents.registry import make_agent
from fcm_training.common.machine import cpu_name


def wilson(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play(args: argparse.Namespace, g: int) -> dict:
    seat = g % args.players
    search = make_agent(args.search, seed=args.seed + g)
    agents = [search if p == seat else make_agent(args.opponent, seed=(args.seed + g) * 10 + p)
              for p in range(args.players)]
    start = time.perf_counter()
    result = play_game(agents, seed=args.seed + g, max_rounds=args.max_rounds)
    stats = search.stats
    return {"game": g, "seed": args.seed + g, "seat": seat, "won": seat in result.winners and len(result.winners) == 1,
            "place": result.places[seat], "cash": result.cash, "rounds": result.rounds,
            "decisions": stats.decisions, "searched": stats.searched, "iterations": stats.iterations,
            "rollout_moves": stats.rollout_moves,
            "search_seconds": round(stats.seconds, 3), "search_cpu_seconds": round(stats.cpu_seconds, 3),
            "wall_seconds": round(time.perf_counter() - start, 2),
            "cpu": cpu_name()}


def summary(rows: list[dict], args: argparse.Namespace) -> str:
    n = len(rows)
    wins = sum(r["won"] for r in rows)
    lo, hi = wilson(wins, n)
    lines = [(f"{args.search} vs {args.opponent} x{args.players - 1} ({args.players}p): {wins}/{n} = "
             f"{wins / max(n, 1):.3f} [{lo:.3f}, {hi:.3f}], mean place {sum(r['place'] for r in rows) / max(n, 1):.2f}")]
    by_cpu: dict[str, list[dict]] = {}
    for r in rows:  # thinking times only compare on one processor model
        by_cpu.setdefault(r.get("cpu", "processor not recorded"), []).append(r)
    for cpu, group in by_cpu.items():
        decisions = sum(r["decisions"] for r in group)
        searched = sum(r["searched"] for r in group)
        seconds = sum(r["search_seconds"] for r in group)
        iterations = sum(r["iterations"] for r in group)
        lines.append(
            f"  {cpu} ({len(group)} games): {seconds / max(decisions, 1):.3f} s per decision ({decisions} decisions), "
            f"{seconds / max(searched, 1):.3f} s per searched decision, "
            f"{iterations / max(searched, 1):.0f} iterations per searched decision, "
            f"{iterations / max(seconds, 1e-9):.0f} iterations/s, "
            f"{sum(r.get('rollout_moves', 0) for r in group) / max(seconds, 1e-9):.0f} rollout moves/s")
    return "\n".join(lines)


def _played(args: argparse.Namespace, todo: list[int]) -> Iterator[dict]:
    """The rows of the games ``todo``, each as it ends (in order of ending with several workers)."""
    if args.workers <= 1:
        yield from (play(args, g) for g in todo)
        return
    with ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = [pool.submit(play, args, g) for g in todo]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--search", default="search")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument("--max-rounds", type=int, default=30)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=1,
                        help="games played at a time, one process each (a time budget wants one worker per free core)")
    parser.add_argument("--also", type=Path, nargs="*", default=[],
                        help="result files of the same cell played by other processes (other --seed ranges): "
                             "the summary counts them too (a cell on two cores: two halves, each with its --out)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers: at least 1, got {args.workers}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows = [json.loads(line) for line in args.out.read_text().splitlines()] if args.out.exists() else []
    done = {r["game"] for r in rows}
    todo = [g for g in range(args.games) if g not in done]
    try:
        with args.out.open("a") as out:
            for row in _played(args, todo):
                out.write(json.dumps(row) + "\n")
                out.flush()
                rows.append(row)
                print(f"game {row['game']}: seed {row['seed']}, seat {row['seat']}, place {row['place']}, "
                      f"{row['search_seconds']:.1f} s searching", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted: {len(rows)} games kept in {args.out}; run the same command to go on")
        return 130
    others = [json.loads(line) for path in args.also for line in path.read_text().splitlines()]
    print(summary(rows + others, args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
