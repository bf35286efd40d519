"""OpenSpiel's Python search bots on ``python_fcm_magnate``: MCTS and IS-MCTS play whole games,
``evaluate_bots`` runs, and IS-MCTS draws its worlds through the engine's determinization, which
keeps the searcher's information state."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from fcm_env.engine.game import Game
from fcm_env.openspiel import FcmState, load_game


def _rollouts(seed: int) -> mcts.RandomRolloutEvaluator:
    return mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))


class RestartableISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTSBot lacks ``restart_at``, which ``evaluate_bots`` calls first; its search
    keeps nothing between moves, so a restart only drops the last tree (docs/openspiel.md)."""

    def restart_at(self, state: FcmState) -> None:
        self.reset()


def _play_out(state: FcmState, bots: list) -> FcmState:
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize("players", [2, 3])
def test_mcts_bots_play_a_whole_game(players):
    game = load_game(players=players, max_rounds=3, seed=players)
    bots = [mcts.MCTSBot(game, 2.0, 8, _rollouts(p), random_state=np.random.RandomState(p)) for p in range(players)]
    state = _play_out(game.new_initial_state(), bots)
    assert sorted(state.returns()) == [0.0] * (players - 1) + [1.0]


@pytest.mark.parametrize("players", [2, 3])
def test_ismcts_bots_play_a_whole_game(players):
    game = load_game(players=players, max_rounds=3, seed=players)
    bots = [ismcts.ISMCTSBot(game, _rollouts(p), 2.0, 8, random_state=np.random.RandomState(p))
            for p in range(players)]
    state = _play_out(game.new_initial_state(), bots)
    assert sorted(state.returns()) == [0.0] * (players - 1) + [1.0]


def test_ismcts_keyed_by_observation_strings_plays_too():
    game = load_game(players=2, max_rounds=2, seed=1)
    bots = [ismcts.ISMCTSBot(game, _rollouts(p), 2.0, 5, use_observation_string=True,
                             random_state=np.random.RandomState(p)) for p in range(2)]
    assert _play_out(game.new_initial_state(), bots).is_terminal()


def test_evaluate_bots_runs_with_python_and_cpp_bots():
    game = load_game(players=3, max_rounds=3, seed=7)
    bots = [
        mcts.MCTSBot(game, 2.0, 5, _rollouts(0), random_state=np.random.RandomState(0)),
        RestartableISMCTSBot(game, _rollouts(1), 2.0, 5, random_state=np.random.RandomState(1)),
        pyspiel.make_uniform_random_bot(2, 1234),  # a C++ bot stepping a Python game
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns) == [0.0, 0.0, 1.0]


@pytest.mark.parametrize("engine", ["python", "native"])
def test_ismcts_draws_its_worlds_with_game_determinize(monkeypatch, engine):
    if engine == "native":
        pytest.importorskip("fcm_env.native", reason="the native core is not built in this install")
    game = load_game(players=3, max_rounds=4, seed=2, engine=engine)
    state = game.new_initial_state()
    rng = random.Random(0)
    while len(state.legal_actions()) < 2 or state.engine_game.state.round < 2:  # a real choice, mid-game
        state.apply_action(rng.choice(state.legal_actions()))
    engine_class = type(state.engine_game)  # Game, or NativeGame on the native engine
    real = engine_class.determinize
    observers = []

    def spy(self: Game, observer: int, rng: np.random.Generator, model=None) -> Game:
        observers.append(observer)
        return real(self, observer, rng, model)

    monkeypatch.setattr(engine_class, "determinize", spy)
    bot = ismcts.ISMCTSBot(game, _rollouts(0), 2.0, 12, random_state=np.random.RandomState(0))
    action = bot.step(state)
    assert action in state.legal_actions()
    assert observers == [state.current_player()] * 12  # one world per simulation, for the searcher


def test_a_resampled_state_keeps_the_players_information_state():
    changed = 0
    for players, seed in ((2, 0), (3, 1), (4, 2)):
        game = load_game(players=players, max_rounds=4, seed=seed)
        state = game.new_initial_state()
        sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        rng = random.Random(seed)
        while not state.is_terminal():
            for player in range(players):
                world = state.resample_from_infostate(player, sampler)
                assert isinstance(world, FcmState)
                assert world.information_state_string(player) == state.information_state_string(player)
                assert world.observation_string(player) == state.observation_string(player)
                assert world.observation_tensor(player) == state.observation_tensor(player)
                assert world.information_state_tensor(player) == state.information_state_tensor(player)
                assert world.current_player() == state.current_player()
                if player == state.current_player():
                    assert world.legal_actions() == state.legal_actions()
                changed += world.engine_game.to_dict() != state.engine_game.to_dict()
            state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 0  # the hidden facts (reserve cards, face-down choices) were drawn again


def test_resampling_is_reproducible_from_the_sampler_seed():
    state = load_game(players=3, max_rounds=3, seed=3).new_initial_state()
    rng = random.Random(3)
    while state.engine_game.state.round < 2:
        state.apply_action(rng.choice(state.legal_actions()))
    worlds = [[state.resample_from_infostate(0, sampler).engine_game.to_dict() for _ in range(5)]
              for sampler in (pyspiel.UniformProbabilitySampler(11, 0.0, 1.0),
                              pyspiel.UniformProbabilitySampler(11, 0.0, 1.0))]
    assert worlds[0] == worlds[1]


def test_a_resampled_world_plays_on_and_leaves_the_state_alone():
    state = load_game(players=2, max_rounds=3, seed=5).new_initial_state()
    rng = random.Random(5)
    for _ in range(15):
        state.apply_action(rng.choice(state.legal_actions()))
    before = state.engine_game.to_dict()
    world = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    while not world.is_terminal():
        world.apply_action(rng.choice(world.legal_actions()))
    assert world.history() and state.engine_game.to_dict() == before
