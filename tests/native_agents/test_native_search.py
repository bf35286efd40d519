"""The search on the native core (``NativeSearchAgent``, ``search:engine=native``) builds the tree the Python
search builds: for the same seed and an iteration budget, the same move, the same root visits and the same
iteration and rollout counts at every searched decision of whole games, for every part the search can be
given (the heuristic's, a strategist's or the policy's priors and rollouts, a random rollout, the uniform
hidden-choice model, a learned value, the others inferred from their moves), at 2 to 5 players. So its
head-to-head against the Python search at a fixed iteration budget is even by construction; at a time
budget it runs many more iterations (benchmarks/bench_search.py, docs/search.md).
"""

from __future__ import annotations

import numpy as np
import pytest

from fcm_agents import make_agent
from fcm_agents.heuristic import HeuristicAgent
from fcm_agents.search import SearchAgent, parse_params
from fcm_agents.search.native_search import NativeSearchAgent
from fcm_agents.strategist import StrategistAgent
from fcm_env.engine.game import Game
from fcm_env.engines import new_game, on_engine


def _lockstep(spec: str, opponents, players: int, seed: int, rounds: int) -> tuple[int, int]:
    """Seat 0 searched by both engines' searches (one game each, in lockstep), the others by ``opponents``;
    returns (searched decisions, iterations)."""
    config = parse_params(spec)
    python_game = Game.new(players, seed=seed, max_rounds=rounds)
    native_game = new_game("native", players, seed, "standard", rounds)
    python_game.history, native_game.history = [], []
    python, native = SearchAgent(config, seed=seed), NativeSearchAgent(config, seed=seed)
    others = [opponents(p) for p in range(players)]
    while not python_game.is_over:
        player = python_game.current_player
        if player == 0:
            want, got = python.act_on_game(python_game, 0), native.act_on_game(native_game, 0)
            where = f"round {python_game.state.round}, {python_game.pending.decision.name}"
            assert got == want, f"{where}: native {got}, Python {want}"
            if python.last_root is not None:
                legal = python_game.legal_actions()
                assert native.root_visits(native_game, 0, legal) == python.root_visits(python_game, 0, legal), where
            assert (native.stats.iterations, native.stats.rollout_moves) == \
                (python.stats.iterations, python.stats.rollout_moves), where
        else:
            want = got = others[player].act_on_game(python_game, player)
        python_game.apply(want)
        native_game.apply(got)
    assert native_game.to_dict() == python_game.to_dict()
    assert native.stats.searched == python.stats.searched > 5
    return native.stats.searched, native.stats.iterations


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_native_search_builds_the_python_tree(players):
    _lockstep("iterations=12,others=heuristic", lambda p: HeuristicAgent(seed=p), players, 50 + players, rounds=4)


@pytest.mark.parametrize(("spec", "players"), [
    ("iterations=10,horizon=2", 3),  # others inferred (the family): strategists are recognised
    ("iterations=8,others=strategist,prior=uniform,model=uniform", 2),
    ("iterations=8,rollout=random,widen=2,c_puct=0.7,prior_weight=0.3", 4),
    ("iterations=6,others=policy,horizon=2", 2),  # the policy's priors and rollouts, the learned value
    ("iterations=6,prior=policy,value=learned,learned_horizon=1,others=same", 2),
])
def test_every_part_builds_the_same_tree(spec, players):
    family = [None, "cfo", "expansion", "discount"]
    _lockstep(spec, lambda p: StrategistAgent(family[p % 4], seed=p), players, 70 + players, rounds=5)


def test_the_first_restaurant_gets_the_opening_budget_and_a_time_budget_plays_legally():
    game = new_game("native", 2, 3, "standard", 3)
    search = NativeSearchAgent(parse_params("iterations=10,opening=2.5"), seed=1)
    search.act_on_game(game, game.current_player)
    assert search.stats.iterations == 25  # round(10 * 2.5)
    timed = NativeSearchAgent(parse_params("seconds=0.02"), seed=1)
    while not game.is_over:
        player = game.current_player
        action = (timed if player == 0 else HeuristicAgent()).act_on_game(game, player)
        assert action in game.legal_actions()
        game.apply(action)
    assert timed.stats.searched and timed.stats.iterations >= timed.stats.searched


def test_the_native_search_is_the_default_where_it_is_built():
    assert type(make_agent("search:iterations=5")) is NativeSearchAgent
    assert type(make_agent("search:iterations=5,engine=python")) is SearchAgent
    with pytest.raises(ValueError, match="engine='gpu' is not allowed: engine is one of auto, native, python"):
        make_agent("search:engine=gpu")


def test_the_native_search_does_not_peek():
    """Two games that differ only in a hidden fact (another player's kept reserve card) get the same answer."""
    base = Game.new(3, seed=11, max_rounds=3)
    while base.pending.decision.name != "RESERVE_CARD" or base.current_player == 0:
        base.apply(HeuristicAgent().act_on_game(base, base.current_player))
    answers = []
    for pick in (0, 1):
        game = base.clone()
        player = game.current_player
        game.apply(game.legal_actions()[pick])  # another player keeps one card or the other
        while game.current_player != 0:
            game.apply(HeuristicAgent().act_on_game(game, game.current_player))
        native = on_engine(game, "native")
        search = NativeSearchAgent(parse_params("iterations=15"), seed=4)
        answers.append((search.act_on_game(native, 0), search.root_visits(native, 0, native.legal_actions())))
        assert player != 0
    assert answers[0] == answers[1]


def test_a_bad_request_is_refused():
    game = new_game("native", 2, 0, "standard", 2)
    other = 1 - game.current_player
    with pytest.raises(ValueError, match=f"player {other} is not the one to move"):
        NativeSearchAgent(parse_params("iterations=3")).act_on_game(game, other)
    with pytest.raises(RuntimeError, match="no decision has been searched"):
        NativeSearchAgent().root_visits(game, 0, game.legal_actions())
    assert np.isfinite(NativeSearchAgent(parse_params("iterations=2")).stats.seconds)


@pytest.mark.parametrize(("spec", "players"), [
    ("iterations=6,others=policy,horizon=2", 2),
    ("iterations=6,prior=policy,value=learned,learned_horizon=1,others=same", 2),
    ("iterations=5,others=policy,horizon=1", 4),
])
def test_the_networks_asked_through_callbacks_on_onnxruntime_build_the_same_tree(spec, players, monkeypatch):
    """The default puts the search's sessions on the native pass, which the native search asks inside the core
    (fcm_agents.native.network_search; the tests above); on onnxruntime it asks them through Python callbacks,
    the Python search through the same sessions: the same trees too."""
    from fcm_agents.search import learned_value, policy_model

    monkeypatch.setattr(policy_model, "SEARCH_BACKEND", "onnxruntime")
    policy_model._session.cache_clear()
    learned_value._load.cache_clear()
    try:
        family = [None, "cfo", "expansion", "discount"]
        _lockstep(spec, lambda p: StrategistAgent(family[p % 4], seed=p), players, 90 + players, rounds=5)
    finally:
        policy_model._session.cache_clear()
        learned_value._load.cache_clear()
