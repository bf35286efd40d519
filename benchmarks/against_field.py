"""Agents against a field, opponent by opponent, on the same seeds: is one agent better across the field?

    python benchmarks/against_field.py --agents onnx:runs/distill/exit/round-0/pv.onnx,policy \\
        --field heuristic,strategist,strategist:archetype=cfo,policy --games 200 --seed 106000000 \\
        --out runs/field/exit.jsonl [--workers 2]

Every agent of ``--agents`` plays ``--games`` 2-player games against every agent of ``--field`` (seats
rotated: game g puts the agent in seat ``g mod 2``), game g against the k-th field agent on seed
``--seed + 1000 * k + g``, the same seeds for every agent of ``--agents``, so two agents are compared
game for game (a paired comparison: the games one won and the other lost). The games run on the native
engine where it is built (the same games as on the Python one). Each finished game is a JSON line of
``--out`` as it ends; the same command plays only the missing ones. Printed: per agent and field
opponent the outright wins with a 95% Wilson interval, each agent's total, and for the first two agents
the games won by one and lost by the other with a two-sided sign test.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_strength import wilson  # the benchmarks are scripts, not a package


def play(job: tuple[str, str, int, int, int]) -> dict:
    """One game of ``agent`` against ``opponent`` on ``seed``, the agent in ``seat``."""
    from fcm_agents.match import play_game
    from fcm_agents.registry import make_agent

    agent, opponent, seed, seat, max_rounds = job
    lineup = [make_agent(opponent, seed=seed * 10 + 1), make_agent(opponent, seed=seed * 10 + 1)]
    lineup[seat] = make_agent(agent, seed=seed * 10)
    result = play_game(lineup, seed=seed, max_rounds=max_rounds, engine="auto")
    return {"agent": agent, "opponent": opponent, "seed": seed, "seat": seat, "won": result.top == [seat],
            "cash": result.cash, "rounds": result.rounds}


def sign_test(a_only: int, b_only: int) -> float:
    """Two-sided exact sign test of ``a_only`` against ``b_only`` discordant games."""
    n = a_only + b_only
    if not n:
        return 1.0
    k = min(a_only, b_only)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", required=True, help="comma-separated agent specs (compared to each other)")
    parser.add_argument("--field", required=True, help="comma-separated opponent specs")
    parser.add_argument("--games", type=int, default=200, help="games per agent and field opponent")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--max-rounds", type=int, default=30)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    field = [f.strip() for f in args.field.split(",") if f.strip()]
    rows: dict[tuple[str, str, int], dict] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                rows[(row["agent"], row["opponent"], row["seed"])] = row
    jobs = [(a, f, args.seed + 1000 * k + g, g % 2, args.max_rounds)
            for a in agents for k, f in enumerate(field) for g in range(args.games)]
    todo = [job for job in jobs if (job[0], job[1], job[2]) not in rows]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as out, ProcessPoolExecutor(args.workers) as pool:
        for done in as_completed([pool.submit(play, job) for job in todo]):
            row = done.result()
            rows[(row["agent"], row["opponent"], row["seed"])] = row
            out.write(json.dumps(row) + "\n")
            out.flush()
    print(f"{args.games} games per cell, seeds {args.seed}+ (1000 apart per field opponent), seats rotated\n")
    print(f"{'agent':<44}{'opponent':<34}{'wins':>10}{'win rate':>10}{'95% CI':>18}")
    for a in agents:
        total = 0
        for k, f in enumerate(field):
            wins = sum(rows[(a, f, args.seed + 1000 * k + g)]["won"] for g in range(args.games))
            total += wins
            low, high = wilson(wins, args.games)
            print(f"{a:<44}{f:<34}{wins:>6}/{args.games:<3}{wins / args.games:>10.3f}   [{low:.3f}, {high:.3f}]")
        print(f"{a:<44}{'(the whole field)':<34}{total:>6}/{args.games * len(field):<5}"
              f"{total / (args.games * len(field)):>8.3f}\n")
    if len(agents) >= 2:
        a, b = agents[:2]
        a_only = b_only = 0
        for k, f in enumerate(field):
            for g in range(args.games):
                s = args.seed + 1000 * k + g
                won_a, won_b = rows[(a, f, s)]["won"], rows[(b, f, s)]["won"]
                a_only += won_a and not won_b
                b_only += won_b and not won_a
        print(f"paired on the same games: {a} won {a_only} that {b} lost, lost {b_only} that it won; "
              f"sign test p = {sign_test(a_only, b_only):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
