"""The search's iterations at a time budget: the Python search against the native one, on the same positions.

    python benchmarks/bench_search.py [--players 2,4] [--positions 20] [--seconds 0.2] [--seed 600]

Positions come from seeded all-heuristic games (``--seed`` on, one game per ten positions, the searched seat's
decisions with a choice, spread over the game). At each position a fresh ``search:seconds=S,engine=python``
and a fresh ``search:seconds=S,engine=native`` (the defaults otherwise: the heuristic's priors and rollouts,
others inferred, the heuristic's hidden-choice model) decide once each, in alternating order so that both
see the same load, and their iterations are counted. Printed per player count: the median iterations a
decision of each, and the median of the positions' ratios native / Python (the figure docs/search.md
quotes). At a fixed iteration budget the two build the same tree (tests/native_agents/test_native_search.py),
so iterations are the whole difference.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_agents.heuristic import HeuristicAgent
from fcm_agents.search import parse_params, search_agent
from fcm_env.engine.game import Game
from fcm_env.engines import on_engine


def positions(players: int, count: int, seed: int, max_rounds: int = 10) -> list[Game]:
    """``count`` positions of seeded all-heuristic games where the seat to move has a choice."""
    found: list[Game] = []
    game_seed = seed
    while len(found) < count:
        game = Game.new(players, seed=game_seed, max_rounds=max_rounds)
        game.history = []
        agents = [HeuristicAgent(seed=p) for p in range(players)]
        choices = []
        while not game.is_over:
            player = game.current_player
            if len(game.legal_actions()) > 1:
                choices.append(game.clone())
            game.apply(agents[player].act_on_game(game, player))
        step = max(1, len(choices) // 10)
        found += choices[::step][:min(10, count - len(found))]
        game_seed += 1
    return found


def iterations(engine: str, seconds: float, game: Game) -> int:
    agent = search_agent(parse_params(f"seconds={seconds},engine={engine}"), seed=1)
    position = on_engine(game, engine).clone()
    agent.act_on_game(position, position.current_player)
    return agent.stats.iterations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,4", help="player counts, comma-separated (default 2,4)")
    parser.add_argument("--positions", type=int, default=20, help="positions per player count (default 20)")
    parser.add_argument("--seconds", type=float, default=0.2, help="the search's budget a decision (default 0.2)")
    parser.add_argument("--seed", type=int, default=600, help="the first game's seed (default 600)")
    args = parser.parse_args()
    print(f"search:seconds={args.seconds}, {args.positions} positions per player count, engines alternating\n")
    print(f"{'players':>8}{'python its/decision':>21}{'native its/decision':>21}{'native / python':>17}")
    for players in (int(p) for p in args.players.split(",")):
        python, native, ratios = [], [], []
        for k, game in enumerate(positions(players, args.positions, args.seed + 100 * players)):
            order = ("python", "native") if k % 2 == 0 else ("native", "python")
            got = {engine: iterations(engine, args.seconds, game) for engine in order}
            python.append(got["python"])
            native.append(got["native"])
            ratios.append(got["native"] / got["python"])
        print(f"{players:>8}{statistics.median(python):>21,.0f}{statistics.median(native):>21,.0f}"
              f"{statistics.median(ratios):>16.1f}x")


if __name__ == "__main__":
    main()
