"""The OpenSpiel game ``python_fcm_magnate``: what it declares, OpenSpiel's own random-simulation
checks, cheap and independent clones, observations of one seat, and clear errors for bad parameters."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import make_observation

from fcm_env.encoding import CODEC, FLAT_SIZE, NUM_ACTIONS, Observer
from fcm_env.engine.game import DEFAULT_MAX_ROUNDS, Game
from fcm_env.openspiel import (
    MOVES_PER_PLAYER_ROUND,
    SHORT_NAME,
    UNBOUNDED_LENGTH,
    FcmGame,
    FcmState,
    load_game,
)


def _needs_native() -> None:
    from fcm_env.engines import native_available

    if not native_available():
        pytest.skip("the native core is not built in this install")


def _play(state: FcmState, moves: int, seed: int = 0) -> FcmState:
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_importing_registers_the_game_with_its_parameters():
    assert SHORT_NAME in pyspiel.registered_names()
    game = pyspiel.load_game(SHORT_NAME)
    assert isinstance(game, FcmGame)
    assert game.get_parameters() == {"players": 2, "variant": "standard", "seed": 0, "max_rounds": DEFAULT_MAX_ROUNDS,
                                     "engine": "auto"}
    game = pyspiel.load_game(f"{SHORT_NAME}(players=4,variant=introductory,seed=3,max_rounds=5)")
    assert game.num_players() == 4
    assert game.new_initial_state().engine_game.state.variant == "introductory"


def test_game_type_and_info_describe_the_game():
    game = load_game(players=3, max_rounds=5)
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 5)
    assert game.num_distinct_actions() == NUM_ACTIONS == CODEC.n
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.max_chance_outcomes() == 0
    assert game.max_game_length() == 3 * (3 + 5 * MOVES_PER_PLAYER_ROUND)
    assert game.observation_tensor_shape() == [FLAT_SIZE]
    assert game.information_state_tensor_shape() == [FLAT_SIZE]
    assert load_game(max_rounds=0).max_game_length() == UNBOUNDED_LENGTH  # no cap: a game may never end


@pytest.mark.parametrize("players", [2, 3, 5])
def test_openspiel_random_simulation_checks_pass(players):
    # clones, legal actions sorted and within range, unique action strings, observations on every
    # state, returns in range and summing to 1, game length within max_game_length, serialization
    game = load_game(players=players, max_rounds=3, seed=players)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_played_game_ends_with_one_winner_scored_one():
    state = _play(load_game(players=3, max_rounds=3).new_initial_state(), 10_000)
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert sorted(state.returns()) == [0.0, 0.0, 1.0]
    assert state.returns()[state.engine_game.winners[0]] == 1.0
    assert state.legal_actions() == []


def test_legal_actions_are_the_codec_ids_and_apply_decodes_them():
    state = _play(load_game(players=2, max_rounds=3).new_initial_state(), 20)
    game = state.engine_game
    ids = state.legal_actions()
    assert ids == sorted(CODEC.encode(a) for a in game.legal_actions())
    other = 1 - state.current_player()
    assert state.legal_actions(other) == []
    action = ids[-1]
    expected = game.clone()
    expected.apply(CODEC.decode(action, expected))
    assert state.action_to_string(state.current_player(), action) == CODEC.action_to_string(action, game)
    state.apply_action(action)
    assert state.engine_game.to_dict() == expected.to_dict()


def test_an_illegal_action_raises_and_changes_nothing():
    state = _play(load_game(players=2, max_rounds=3).new_initial_state(), 5)
    before = (str(state), state.history())
    illegal = next(a for a in range(NUM_ACTIONS) if a not in set(state.legal_actions()))
    with pytest.raises(ValueError, match="is not legal"):
        state.apply_action(illegal)
    assert (str(state), state.history()) == before


def test_a_clone_is_independent_of_its_original_both_ways():
    game = load_game(players=3, max_rounds=4)
    state = _play(game.new_initial_state(), 40)
    clone = state.clone()
    assert isinstance(clone, FcmState) and clone.history() == state.history() and str(clone) == str(state)
    before = (state.engine_game.to_dict(), str(state), state.history(), state.legal_actions())
    _play(clone, 15, seed=1)
    assert (state.engine_game.to_dict(), str(state), state.history(), state.legal_actions()) == before
    snapshot = (clone.engine_game.to_dict(), clone.history())
    _play(state, 15, seed=2)  # the original moves on after its clone did: the clone stays put
    assert (clone.engine_game.to_dict(), clone.history()) == snapshot
    # clones of clones, and initial states, which share the game's one set-up position
    first, second = game.new_initial_state(), game.new_initial_state()
    _play(first, 10)
    assert str(second) == str(game.new_initial_state()) and second.history() == []
    assert game.new_initial_state().engine_game.state.round == 0


def test_a_clone_plays_on_like_its_original():
    state = _play(load_game(players=2, max_rounds=3).new_initial_state(), 25)
    clone = state.clone()
    _play(state, 10_000, seed=5)
    _play(clone, 10_000, seed=5)
    assert state.history() == clone.history() and state.returns() == clone.returns()


def test_states_pickle_and_deserialize():
    game = load_game(players=2, max_rounds=3)
    state = _play(game.new_initial_state(), 30)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    assert game.deserialize_state(state.serialize()).legal_actions() == state.legal_actions()


def test_observation_tensor_is_the_encoders_view_of_the_seat():
    state = _play(load_game(players=3, max_rounds=3).new_initial_state(), 30)
    encoder = Observer()
    for player in range(3):
        expected = encoder.observe_flat(state.engine_game, player)
        assert np.array_equal(np.asarray(state.observation_tensor(player), np.float32), expected)
        assert np.array_equal(np.asarray(state.information_state_tensor(player), np.float32), expected)
    observation = make_observation(state.get_game())
    observation.set_from(state, 1)
    assert observation.dict["board"].shape == encoder.board_shape
    assert np.array_equal(observation.tensor, encoder.observe_flat(state.engine_game, 1))


def test_observation_strings_name_the_seat_and_carry_its_knowledge_key():
    state = _play(load_game(players=2, max_rounds=3).new_initial_state(), 12)
    info = [state.information_state_string(p) for p in range(2)]
    obs = [state.observation_string(p) for p in range(2)]
    assert info[0].startswith("p0 ") and info[1].startswith("p1 ")
    assert obs[0].startswith("player 0 sees:")
    for p in range(2):
        assert obs[p].endswith(info[p].rsplit(" ", 1)[1])  # the same digest of the seat's knowledge


def test_unsupported_observation_types_are_refused():
    game = load_game()
    public_only = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                             private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="observes one seat"):
        make_observation(game, public_only)
    with pytest.raises(ValueError, match="no parameters"):
        game.make_py_observer(None, {"x": 1})


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 7}, "players must be 2..5, got 7"),
        ({"players": 1}, "players must be 2..5, got 1"),
        ({"variant": "advanced"}, "variant must be one of"),
        ({"seed": -1}, "seed .* must be >= 0"),
        ({"max_rounds": -2}, "max_rounds must be >= 1, or 0"),
    ],
)
def test_a_bad_parameter_gives_a_clear_error(params, message):
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game(SHORT_NAME, params)
    with pytest.raises(ValueError, match=message):
        load_game(**params)


def test_a_parameter_of_the_wrong_type_gives_a_type_error():
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter players"):  # OpenSpiel's own check
        pyspiel.load_game(f"{SHORT_NAME}(players=two)")
    with pytest.raises(TypeError, match="players must be an int, got 'two'"):
        load_game(players="two")


def test_bad_parameters_in_a_game_string_and_unknown_names():
    with pytest.raises(ValueError, match="players must be 2..5, got 7"):
        pyspiel.load_game(f"{SHORT_NAME}(players=7)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game(SHORT_NAME, {"colour": 1})
    with pytest.raises(ValueError, match="unknown parameter"):
        load_game(colour=1)


def test_state_from_engine_wraps_a_position():
    game = load_game(players=2, max_rounds=3, seed=4)
    engine = Game.new(2, seed=4, max_rounds=3)
    engine.apply(engine.legal_actions()[0])
    state = game.state_from_engine(Game.from_dict(engine.to_dict()))
    assert state.engine_game.to_dict() == engine.to_dict() and state.history() == []
    assert state.legal_actions() == sorted(CODEC.encode(a) for a in engine.legal_actions())
    with pytest.raises(ValueError, match="3 players"):
        game.state_from_engine(Game.new(3, seed=0))
    with pytest.raises(ValueError, match="starts from its parameters"):
        game.new_initial_state("x")


def test_played_games_stay_far_below_the_length_bound():
    from fcm_agents.heuristic import HeuristicAgent

    for players, seed in ((2, 0), (4, 1)):
        game = Game.new(players, seed=seed)  # the rules end it (no cap), heuristic play grows companies
        agents = [HeuristicAgent(seed=seed * 10 + p) for p in range(players)]
        moves = Counter()
        while not game.is_over:
            player = game.current_player
            moves[game.state.round, player] += 1
            game.apply(agents[player].act_on_game(game, player))
        assert max(moves.values()) < MOVES_PER_PLAYER_ROUND / 10


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (4, "introductory")])
def test_both_engines_play_the_same_game_through_openspiel(players, variant):
    # engine= picks the engine; the ids, observation tensors, strings of the moves and returns are the same
    _needs_native()
    native_game = load_game(players=players, variant=variant, max_rounds=3, seed=5, engine="native")
    python_game = load_game(players=players, variant=variant, max_rounds=3, seed=5, engine="python")
    assert (native_game.engine, python_game.engine) == ("native", "python")
    native, python = native_game.new_initial_state(), python_game.new_initial_state()
    observations = [make_observation(g) for g in (native_game, python_game)]
    rng = random.Random(players)
    steps = 0
    while not python.is_terminal():
        assert native.current_player() == python.current_player()
        legal = python.legal_actions()
        assert native.legal_actions() == legal
        player = python.current_player()
        for observation, state in zip(observations, (native, python), strict=True):
            observation.set_from(state, player)
        assert observations[0].tensor.tobytes() == observations[1].tensor.tobytes()
        action = rng.choice(legal)
        assert native.action_to_string(player, action) == python.action_to_string(player, action)
        if steps % 25 == 0:  # a clone plays on alone, on either engine
            native.clone().apply_action(action)
        native.apply_action(action)
        python.apply_action(action)
        steps += 1
    assert native.is_terminal() and native.returns() == python.returns()
    assert native.engine_game.to_dict() == python.engine_game.to_dict()


def test_the_engine_parameter_is_checked_and_state_from_engine_takes_either_engines_game():
    _needs_native()
    with pytest.raises(ValueError, match="engine must be one of"):
        load_game(engine="fortran")
    game = load_game(players=2, max_rounds=3, seed=4, engine="native")
    position = Game.new(2, seed=4, max_rounds=3)
    position.apply(position.legal_actions()[0])
    state = game.state_from_engine(position)  # a Python game, wrapped on the native engine
    assert type(state.engine_game).__name__ == "NativeGame"
    assert state.engine_game.to_dict() == position.to_dict()
    back = load_game(players=2, max_rounds=3, seed=4, engine="python").state_from_engine(state.engine_game)
    assert isinstance(back.engine_game, Game) and back.engine_game.to_dict() == position.to_dict()
