"""The native strategist family (``fcm_agents.native.NativeStrategistAgent``, C++) answers what
``StrategistAgent`` answers, move for move, seeded draws included.

* every archetype and the default (the plan its map reading picks), one per seat, at 2 to 5 players, with
  the seeded variation on: Python and native side by side in lockstep games;
* no variation (``variation=0``: the first best placement, no timing draws);
* one table of different plans (the family and the heuristic together), and two games in a row played by the
  same agents (the plan kept per map and seat between games, the generator going on);
* mixed games (random moves half the time, managers handed out at round 2): the native answer on a native
  copy of every Python position, so that gardens, drive-ins, firing and the planner's let-go are reached;
* the Python classes hand native games to their twins (``plays_native``), so a tournament on the native
  engine plays the very games of the Python engine.
"""

from __future__ import annotations

import random

import pytest
from mixed_games import mixed_game

from fcm_agents.heuristic import HeuristicAgent
from fcm_agents.match import play_game
from fcm_agents.native import NativeStrategistAgent, twin_of
from fcm_agents.registry import make_agent
from fcm_agents.strategist import StrategistAgent
from fcm_agents.strategist.archetypes import ARCHETYPES
from fcm_agents.twins import TwinnedAgent
from fcm_env.data import EmployeeType as E
from fcm_env.engine.game import Game
from fcm_env.engines import new_game

PLANS = [None, *ARCHETYPES]
GIFTS = (E.NEW_BUSINESS_DEVELOPER, E.LOCAL_MANAGER, E.REGIONAL_MANAGER, E.ERRAND_BOY, E.TRAINER)


def _lockstep(python: list, native: list, players: int, seed: int, rounds: int = 12, variant: str = "standard") -> int:
    """One game on both engines, each seat asked on both sides; returns the moves played."""
    python_game = Game.new(players, seed=seed, variant=variant, max_rounds=rounds)
    native_game = new_game("native", players, seed, variant, rounds)
    moves = 0
    while not python_game.is_over:
        player = python_game.current_player
        want = python[player].act_on_game(python_game, player)
        got = native[player].act_on_game(native_game, player)
        assert got == want, (f"move {moves} (round {python_game.state.round}, {python_game.pending.decision.name}, "
                             f"player {player}): native {got}, Python {want}")
        python_game.apply(want)
        native_game.apply(got)
        moves += 1
    assert native_game.to_dict() == python_game.to_dict()
    return moves


@pytest.mark.parametrize("plan", PLANS, ids=[p or "default" for p in PLANS])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_plan_plays_the_python_games(plan, players):
    for seed in (3000 + 10 * players + PLANS.index(plan), 3100 + 10 * players + PLANS.index(plan)):
        python = [StrategistAgent(plan, seed=seed + p) for p in range(players)]
        native = [NativeStrategistAgent(plan, seed=seed + p) for p in range(players)]
        assert _lockstep(python, native, players, seed) > 150


@pytest.mark.parametrize("plan", ["expansion", "marketing", None], ids=["expansion", "marketing", "default"])
def test_without_variation_too(plan):
    python = [StrategistAgent(plan, seed=p, variation=0.0) for p in range(3)]
    native = [NativeStrategistAgent(plan, seed=p, variation=0.0) for p in range(3)]
    assert _lockstep(python, native, 3, 3301, variant="introductory") > 150


def test_a_table_of_different_plans_two_games_running():
    plans = ["cfo", "drinks", None, "luxury"]
    python = [StrategistAgent(p, seed=i) for i, p in enumerate(plans)] + [HeuristicAgent(seed=9)]
    native = [NativeStrategistAgent(p, seed=i) for i, p in enumerate(plans)] + [HeuristicAgent(seed=9)]
    for seed in (3401, 3402, 3401):  # the third game is the first one's map again: the kept plan is asked
        _lockstep(python, native, 5, seed, rounds=8)
    for agent in python + native:
        agent.reset()
    _lockstep(python, native, 5, 3401, rounds=8)


@pytest.mark.parametrize("plan", PLANS, ids=[p or "default" for p in PLANS])
def test_mixed_games_get_the_same_answers(plan):
    for players in (2 + PLANS.index(plan) % 4, 5 - PLANS.index(plan) % 4):
        seed = 3500 + 10 * players + PLANS.index(plan)
        python, native = StrategistAgent(plan, seed=seed), NativeStrategistAgent(plan, seed=seed)
        assert mixed_game(python, native, players, seed, 9, GIFTS) > 100


def test_the_registry_pairs_the_python_classes_with_their_twins():
    lineup = lambda: [make_agent("strategist:archetype=expansion", seed=1), make_agent("heuristic", seed=2),
                      make_agent("strategist", seed=3)]
    python = play_game(lineup(), seed=3601, max_rounds=10, engine="python")
    native = play_game(lineup(), seed=3601, max_rounds=10, engine="native")
    assert (native.cash, native.winners, native.decisions) == (python.cash, python.winners, python.decisions)
    agent = make_agent("strategist:archetype=cfo", seed=4)
    assert isinstance(agent, TwinnedAgent) and isinstance(agent.twin, NativeStrategistAgent)
    assert isinstance(agent.reference, StrategistAgent) and agent.fixed.name == "cfo"  # the reference's attributes

    class Tweaked(StrategistAgent):
        def _recruit(self, game, player, legal):
            return legal[0]

    assert twin_of(Tweaked(seed=1)) is None  # its own answers are Python's only
    assert not hasattr(StrategistAgent(seed=1), "plays_native")  # the reference knows nothing of C++


def test_bad_arguments_are_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="unknown archetype 'banker'"):
        NativeStrategistAgent("banker")
    with pytest.raises(ValueError, match=r"variation must lie in \[0, 1\]"):
        NativeStrategistAgent("cfo", variation=2.0)
    with pytest.raises(ValueError, match="non-negative integer"):
        NativeStrategistAgent("cfo", seed=-1)


def test_the_organisation_planner_plans_what_python_plans():
    """planner.plan_organisation and its C++ twin on 3,000 random organisations, targets, cash and goals."""
    from fcm_agents.native import _agents
    from fcm_agents.strategist.planner import plan_organisation

    rng = random.Random(7)
    types = list(range(1, 33))
    for _ in range(3000):
        available = [0] + [rng.choice((0, 0, 0, 1, 1, 2)) for _ in types]
        owned = [a + rng.choice((0, 0, 1)) for a in available]
        targets = [(rng.choice(types), rng.randint(1, 2)) for _ in range(rng.randint(0, 3))]
        goals = {source: tuple(rng.sample(types, rng.randint(1, 2))) for source in rng.sample(types, 4)}
        spare = rng.sample(types, 3)
        cash, salaried, margin = rng.randint(0, 120), rng.randint(0, 8), rng.randint(1, 3)
        want = plan_organisation(available, owned, targets, cash, salaried, margin, goals, spare)
        assignments, hires, trainings, beach, trainers = _agents.plan_organisation(
            available, owned, targets, cash, salaried, margin, list(goals.items()), spare)
        assert [(a.goal, a.card, a.steps) for a in want.assignments] == [tuple(a) for a in assignments]
        assert (list(want.hires), list(want.trainings)) == (hires, [tuple(t) for t in trainings])
        assert list(want.beach.items()) == [tuple(b) for b in beach]
        assert list(want.trainers.items()) == [tuple(t) for t in trainers]
