"""Gymnasium's conventions in the single-agent env, and what sb3-contrib needs of them: the mask as
``info["action_mask"]``, ``action_masks()`` on what ``gymnasium.make`` returns (and through any
wrapper with ``get_wrapper_attr``), the ``dict`` observation in both envs, and infos of numbers only
(docs/frameworks.md)."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from framework_helpers import run_snippet
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import RecordEpisodeStatistics, TimeLimit
from pettingzoo.test import api_test

import fcm_env
from fcm_env.encoding import BOARD_SHAPE, FLAT_SIZE, NUM_ACTIONS, VECTOR_SIZE, Observer
from fcm_env.env import (
    DECISION_NAMES,
    PHASE_NAMES,
    FcmSingleAgentEnv,
    FcmVectorEnv,
    LegalActionWrapper,
    split_observation,
)
from fcm_env.env.aec import raw_env

SINGLE = fcm_env.SINGLE_AGENT_ENV_ID


def _play_out(env: gymnasium.Env, info: dict, rng: np.random.Generator) -> tuple[int, dict]:
    """Masked random play from ``info`` to the end of the game: (steps, last info)."""
    steps, done = 0, False
    while not done:
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,) and mask.any()
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        done = terminated or truncated
    return steps, info


# ------------------------------------------------------------------ the mask, Gymnasium's ways


def test_info_action_mask_matches_action_masks_and_is_empty_at_the_end():
    env = FcmSingleAgentEnv(num_players=3, max_rounds=2, learner_seat=2)
    _, info = env.reset(seed=4)
    np.testing.assert_array_equal(info["action_mask"], env.action_masks().astype(np.int8))
    assert info["legal_action_count"] == info["action_mask"].sum()
    mask = info["action_mask"]
    *_, info = env.step(int(np.flatnonzero(mask)[0]))
    assert mask.any() and info["action_mask"] is not mask  # a fresh array each time
    steps, last = _play_out(env, info, np.random.default_rng(0))
    assert steps > 0 and not last["action_mask"].any()  # the game is over: nothing is legal


def test_gymnasium_make_returns_the_env_so_action_masks_is_reachable():
    env = gymnasium.make(SINGLE, num_players=2, max_rounds=2)
    assert isinstance(env, FcmSingleAgentEnv) and env.spec.id == SINGLE
    _, info = env.reset(seed=0)
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
    with pytest.raises(RuntimeError, match="reset"):  # the env enforces the order itself
        gymnasium.make(SINGLE, num_players=2).step(0)
    with pytest.raises(RuntimeError, match="reset"):
        gymnasium.make(SINGLE, num_players=2, render_mode="ansi").render()


def test_through_wrappers_the_mask_comes_by_info_and_get_wrapper_attr():
    checked = gymnasium.make(SINGLE, num_players=2, max_rounds=2, disable_env_checker=False, max_episode_steps=500)
    assert isinstance(checked, TimeLimit)  # wrappers asked for are there ...
    env = RecordEpisodeStatistics(checked)
    _, info = env.reset(seed=1)
    # ... and Gymnasium 1.x wrappers forward no attribute: get_wrapper_attr finds it below them
    np.testing.assert_array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"].astype(bool))
    _, last = _play_out(env, info, np.random.default_rng(1))
    assert "episode" in last and last["rank"] in (0, 1)


def test_sb3_contrib_finds_the_masks_on_made_envs_and_their_vec_envs():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.env_util import make_vec_env

    made = gymnasium.make(SINGLE, num_players=2)
    made.reset(seed=0)
    assert is_masking_supported(made) and get_action_masks(made).sum() > 0
    venv = make_vec_env(SINGLE, n_envs=2, env_kwargs={"num_players": 2}, seed=0)  # Monitor-wrapped
    venv.reset()
    assert is_masking_supported(venv)
    masks = get_action_masks(venv)
    assert masks.shape == (2, NUM_ACTIONS) and masks.any(axis=1).all()


def test_the_docs_snippets_run(capsys):
    pytest.importorskip("sb3_contrib")
    run_snippet("gymnasium")
    out = capsys.readouterr().out
    assert "rank" in out and "'board': (47, 20, 25)" in out
    model = run_snippet("sb3-contrib")["model"]
    assert model.num_timesteps >= 64


# ------------------------------------------------------------------ the dict observation


def test_single_agent_dict_observation_is_the_flat_one_cut_at_the_board():
    flat_env = FcmSingleAgentEnv(num_players=2, max_rounds=2)
    dict_env = FcmSingleAgentEnv(num_players=2, max_rounds=2, observation_format="dict")
    space = dict_env.observation_space
    assert isinstance(space, gymnasium.spaces.Dict) and set(space.spaces) == {"board", "vector"}
    assert space["board"].shape == BOARD_SHAPE and space["vector"].shape == (VECTOR_SIZE,)
    flat, info = flat_env.reset(seed=7)
    obs, dict_info = dict_env.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(30):
        assert space.contains(obs)
        np.testing.assert_array_equal(obs["board"].reshape(-1), flat[:FLAT_SIZE - VECTOR_SIZE])
        np.testing.assert_array_equal(obs["vector"], flat[FLAT_SIZE - VECTOR_SIZE:])
        np.testing.assert_array_equal(dict_info["action_mask"], info["action_mask"])  # the same game
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        flat, _, terminated, truncated, info = flat_env.step(action)
        obs, _, dict_terminated, _, dict_info = dict_env.step(action)
        assert terminated == dict_terminated
        if terminated or truncated:
            flat, info = flat_env.reset()
            obs, dict_info = dict_env.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box: a warning only
        check_env(LegalActionWrapper(FcmSingleAgentEnv(num_players=2, max_rounds=2, observation_format="dict")),
                  skip_render_check=True)


def test_aec_dict_observation_and_observation_key():
    env = raw_env(num_players=2, max_rounds=2, observation_format="dict", observation_key="observations")
    space = env.observation_space("player_0")
    assert set(space.spaces) == {"observations", "action_mask"}
    assert set(space["observations"].spaces) == {"board", "vector"}
    env.reset(seed=3)
    for agent in env.possible_agents:
        view = env.observe(agent)
        assert space.contains(view)
        expected = split_observation(Observer().observe_flat(env.game, env.agent_name_mapping[agent]))
        np.testing.assert_array_equal(view["observations"]["board"], expected["board"])
        np.testing.assert_array_equal(view["observations"]["vector"], expected["vector"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Observation is not a NumPy array": a dict, on purpose
        api_test(fcm_env.env(num_players=2, max_rounds=2, observation_format="dict"), num_cycles=200)


def test_bad_options_are_refused_and_the_vector_envs_keep_the_flat_observation():
    with pytest.raises(ValueError, match="observation_format"):
        FcmSingleAgentEnv(observation_format="planes")
    with pytest.raises(ValueError, match="observation_format"):
        raw_env(observation_format="planes")
    with pytest.raises(ValueError, match="observation_key"):
        raw_env(observation_key="")
    with pytest.raises(ValueError, match="flat"):
        FcmVectorEnv(2, num_players=2, observation_format="dict")
    batch = np.arange(2 * FLAT_SIZE, dtype=np.float32).reshape(2, FLAT_SIZE)
    parts = split_observation(batch)  # a batch splits the same way, as views
    assert parts["board"].shape == (2, *BOARD_SHAPE) and parts["vector"].shape == (2, VECTOR_SIZE)
    assert np.shares_memory(parts["board"], batch) and parts["vector"][1, -1] == batch[1, -1]


# ------------------------------------------------------------------ infos


def test_infos_keep_their_keys_and_hold_numbers_and_strings_come_on_request():
    env = FcmSingleAgentEnv(num_players=2, max_rounds=1)
    _, first = env.reset(seed=2)
    _, last = _play_out(env, first, np.random.default_rng(2))
    assert first.keys() == last.keys()
    for info in (first, last):
        assert all(isinstance(v, (int, bool, np.ndarray)) for v in info.values())
    assert PHASE_NAMES[last["phase_id"]] == "game_over" and last["decision_id"] == -1 and last["rank"] in (0, 1)
    assert DECISION_NAMES[first["decision_id"]] == "initial_restaurant" and first["rank"] == -1

    named = FcmSingleAgentEnv(num_players=2, max_rounds=1, info_strings=True)
    _, first = named.reset(seed=2)
    assert first["phase"] == "setup_restaurants" and first["decision"] == "initial_restaurant"
    assert first["learner"] == "player_0" and first["to_move"] == "player_0"
    _, last = _play_out(named, first, np.random.default_rng(2))
    assert last["decision"] is None and last["to_move"] is None
    assert last["winners"] == [f"player_{p}" for p in named.game.winners]
    assert last["winner"] is (0 in named.game.winners)


def test_the_checker_wrapper_wraps_what_gymnasium_make_returns_and_passes_check_env():
    # an outside audit ran exactly this: it failed while the wrapper did not record its arguments
    wrapped = LegalActionWrapper(gymnasium.make(SINGLE, max_rounds=2))
    assert isinstance(wrapped, gymnasium.utils.RecordConstructorArgs)
    assert wrapped.spec.additional_wrappers[-1].name == "LegalActionWrapper"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the unbounded Box observation: a warning only
        check_env(wrapped, skip_render_check=True)
    with pytest.raises(TypeError, match="LegalActionWrapper wraps FcmSingleAgentEnv, got CartPoleEnv"):
        LegalActionWrapper(gymnasium.make("CartPole-v1"))
