"""The native search with the policy's prior and value against the plain native search, at a time budget.

    python benchmarks/bench_search_networks.py [--players 2,4] [--positions 10] [--seconds 0.2] [--seed 600]

On the positions of ``bench_search.py`` (seeded all-heuristic games, the searched seat's decisions with a
choice), each position is searched, one right after the other (the same load for all), by
``search:seconds=S,engine=native`` (plain: the heuristic's priors and rollouts), and by
``search:seconds=S,engine=native,prior=policy`` (the shipped policy as prior and, through its value head,
as value) twice: with the search's sessions on onnxruntime (the networks asked through Python callbacks) and
on the native pass (asked inside the core: ``fcm_agents.search.policy_model.SEARCH_BACKEND``). Printed per
player count: the median iterations a decision of each, and the medians of the positions' ratios to the
plain search (issue 55's target: at least 0.7).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_search import positions

from fcm_agents.search import learned_value, parse_params, policy_model, search_agent
from fcm_env.engines import on_engine


def iterations(spec: str, game, backend: str) -> int:
    policy_model.SEARCH_BACKEND = backend
    policy_model._session.cache_clear()
    learned_value._load.cache_clear()
    agent = search_agent(parse_params(spec), seed=1)
    position = on_engine(game, "native").clone()
    agent.act_on_game(position, position.current_player)
    return agent.stats.iterations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=600)
    parser.add_argument("--student", action="append", default=[], metavar="PLAYERS=FILE",
                        help="also the search with this policy-value file as prior and value at that table size "
                             "(policy_model=FILE: a distilled lighter network, python -m fcm_training.distill student)")
    parser.add_argument("--no-callbacks", action="store_true", help="leave out the onnxruntime-callbacks row")
    args = parser.parse_args()
    plain = f"seconds={args.seconds},engine=native"
    policy = f"{plain},prior=policy"
    runs = {"plain": (plain, "onnxruntime"), "prior=policy, onnxruntime callbacks": (policy, "onnxruntime"),
            "prior=policy, networks in the core": (policy, "auto")}
    if args.no_callbacks:
        del runs["prior=policy, onnxruntime callbacks"]
    students: dict[str, list[str]] = {}
    for item in args.student:
        size, _, path = item.partition("=")
        students.setdefault(size, []).append(path)
    print(f"search:seconds={args.seconds}, {args.positions} positions per player count, one after the other\n")
    for players in (int(p) for p in args.players.split(",")):
        table = dict(runs)
        for path in students.get(str(players), []):
            table[f"prior=policy,policy_model={Path(path).name}"] = (
                f"{policy},policy_model={path}", "auto")
        got: dict[str, list[int]] = {name: [] for name in table}
        for game in positions(players, args.positions, args.seed + 100 * players):
            for name, (spec, backend) in table.items():
                got[name].append(iterations(spec, game, backend))
        for name, values in got.items():
            ratio = statistics.median(v / max(1, p) for v, p in zip(values, got["plain"], strict=True))
            print(f"{players} players  {name:40s} {statistics.median(values):7.0f} iterations/decision  "
                  f"{ratio:5.2f}x plain")
    policy_model.SEARCH_BACKEND = "onnxruntime"


if __name__ == "__main__":
    main()
