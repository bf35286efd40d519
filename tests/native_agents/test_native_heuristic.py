"""The native heuristic (``fcm_agents.native``, C++) answers what ``HeuristicAgent`` answers, move for move.

Three checks, each over 2 to 5 players and both variants:

* the recorded all-heuristic games of tests/agents/heuristic_games.json (which the Python agent replays in
  test_heuristic_speedup_guard.py) played by the native heuristic on the native engine, one player per seat:
  every move as recorded;
* the recorded *mixed* games (random moves half the time, managers handed out at round 2, so that new
  houses, gardens, drive-ins, moving restaurants and firing are reached): the native answer at every
  decision, asked on a native copy of the Python position, as recorded;
* fresh seeds, never recorded: the Python agent and the native one asked side by side in lockstep games
  (a Python and a native engine), all-heuristic and mixed.

The hidden-choice model: ``determinize_heuristic`` builds the world ``Game.determinize`` builds with
``HeuristicHiddenModel``, draw for draw, at positions with hidden reserve cards, face-down Restructuring and
secret firing (D50-D52, C26, C30).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from mixed_games import mixed_game, spelled

from fcm_agents.heuristic import HeuristicAgent, HeuristicHiddenModel
from fcm_agents.native import NativeHeuristicAgent, determinize_heuristic
from fcm_env.data import EmployeeType as E
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.state import Phase
from fcm_env.engines import new_game, on_engine

RECORD = json.loads((Path(__file__).parents[1] / "agents" / "heuristic_games.json").read_text())
GIFTS = (E.NEW_BUSINESS_DEVELOPER, E.LOCAL_MANAGER, E.REGIONAL_MANAGER, E.ERRAND_BOY)


def _parse(key: str) -> tuple[int, int, str]:
    players, seed, variant = key.split("-")
    return int(players[:-1]), int(seed[len("seed"):]), variant


@pytest.mark.parametrize("key", sorted(RECORD["games"]))
def test_recorded_heuristic_games_replay_on_the_native_engine(key):
    players, seed, variant = _parse(key)
    expected = RECORD["games"][key]
    game = new_game("native", players, seed, variant, RECORD["max_rounds"])
    agents = [NativeHeuristicAgent(seed=seed * 10 + p) for p in range(players)]
    for index, want in enumerate(expected):
        assert not game.is_over, f"the game ended after {index} of {len(expected)} moves"
        player = game.current_player
        got = spelled(agents[player].act_on_game(game, player))
        assert got == want, f"move {index} ({game.pending.decision.name}, player {player}): got {got}, recorded {want}"
        game.apply(agents[player].act_on_game(game, player))
    assert game.is_over


@pytest.mark.parametrize("key", sorted(RECORD["mixed"]))
def test_recorded_mixed_games_get_the_same_answers(key):
    expected = RECORD["mixed"][key]
    players, seed, variant = _parse(key)
    assert mixed_game(None, NativeHeuristicAgent(seed=seed), players, seed, RECORD["mixed_rounds"], GIFTS, variant,
                      expected) == len(expected)


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "introductory"), (4, "standard"),
                                                  (5, "standard")])
def test_fresh_games_python_and_native_side_by_side(players, variant):
    seed = 9000 + players
    python_game = Game.new(players, seed=seed, variant=variant, max_rounds=10)
    native_game = new_game("native", players, seed, variant, 10)
    python = [HeuristicAgent(seed=p) for p in range(players)]
    native = [NativeHeuristicAgent(seed=p) for p in range(players)]
    moves = 0
    while not python_game.is_over:
        player = python_game.current_player
        assert native_game.current_player == player
        want, got = python[player].act_on_game(python_game, player), native[player].act_on_game(native_game, player)
        assert got == want, f"move {moves} ({python_game.pending.decision.name}): native {got}, Python {want}"
        python_game.apply(want)
        native_game.apply(got)
        moves += 1
    assert native_game.is_over and native_game.to_dict() == python_game.to_dict()
    assert moves > 150


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fresh_mixed_games_python_and_native_agree(players):
    seed = 9100 + players
    assert mixed_game(HeuristicAgent(seed=seed), NativeHeuristicAgent(seed=seed), players, seed, 8, GIFTS) > 100


def _hidden_positions(players: int, seed: int):
    """Positions of a random game where a determinization has something to redraw."""
    game = Game.new(players, seed=seed, max_rounds=5)
    rng = random.Random(seed)
    while not game.is_over:
        state = game.state
        if state.phase in (Phase.SETUP_RESERVE, Phase.RESTRUCTURING, Phase.PAYDAY):
            yield game
        game.apply(pick(rng, game.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_heuristic_worlds_are_the_python_worlds_draw_for_draw(players):
    model = HeuristicHiddenModel()
    compared = differ = 0
    for step, game in enumerate(_hidden_positions(players, seed=40 + players)):
        native = on_engine(game, "native")
        for observer in range(players):
            theirs_rng, ours_rng = np.random.default_rng(step), np.random.default_rng(step)
            theirs = game.determinize(observer, theirs_rng, model)
            ours = determinize_heuristic(native, observer, ours_rng)
            assert ours.to_dict() == theirs.to_dict()
            assert ours_rng.bit_generator.state == theirs_rng.bit_generator.state
            compared += 1
            differ += theirs.to_dict() != game.to_dict()
    assert compared > 20 and differ > 5  # worlds unlike the truth (redrawn choices) were compared too


def test_bad_requests_are_refused_with_a_clear_error():
    game = new_game("native", 3, 0, "standard", None)
    agent = NativeHeuristicAgent()
    other = (game.current_player + 1) % 3
    with pytest.raises(ValueError, match=rf"player {other} is not the one to move"):
        agent.act_on_game(game, other)
    with pytest.raises(ValueError, match="observer must be a player id 0..2, got 5"):
        determinize_heuristic(game, 5, np.random.default_rng(0))
    with pytest.raises(TypeError, match="PCG64"):
        determinize_heuristic(game, 0, np.random.Generator(np.random.MT19937(0)))
    before = game.to_dict()
    assert agent.act_on_game(game, game.current_player) in game.legal_actions()
    assert game.to_dict() == before  # asking changes nothing


def test_a_python_game_is_answered_on_a_native_copy():
    game = Game.new(2, seed=5, max_rounds=3)
    while not game.is_over:
        player = game.current_player
        answer = NativeHeuristicAgent().act_on_game(game, player)
        assert answer == HeuristicAgent().act_on_game(game, player)
        game.apply(answer)
