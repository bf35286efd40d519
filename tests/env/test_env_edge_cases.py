"""Edge cases a user hits first: positional arguments, calls before reset, copying and pickling envs."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import fcm_env
from fcm_env.env import FcmSingleAgentEnv, FcmVectorEnv


def _play_aec(env, steps: int, pick: int = -1) -> None:
    for _ in range(steps):
        observation, *_ = env.last()
        env.step(int(np.flatnonzero(observation["action_mask"])[pick]))


def test_env_takes_its_arguments_positionally():
    env = fcm_env.env(3, "introductory")
    assert env.unwrapped.num_players == 3 and env.unwrapped.variant == "introductory"
    assert len(env.possible_agents) == 3


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))], ids=["deepcopy", "pickle"])
def test_aec_copy_keeps_the_game_and_then_plays_identically(clone):
    env = fcm_env.env(2)
    env.reset(seed=11)
    _play_aec(env, 9)
    twin = clone(env)
    assert twin.unwrapped.game.to_dict() == env.unwrapped.game.to_dict()
    assert twin.agent_selection == env.agent_selection
    _play_aec(env, 25)
    _play_aec(twin, 25)
    assert twin.unwrapped.game.to_dict() == env.unwrapped.game.to_dict()
    a, b = env.last(), twin.last()
    assert np.array_equal(a[0]["observation"], b[0]["observation"]) and a[1:4] == b[1:4]
    # the copy is independent: moving one leaves the other where it was
    before = env.unwrapped.game.to_dict()
    _play_aec(twin, 3)
    assert env.unwrapped.game.to_dict() == before


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))], ids=["deepcopy", "pickle"])
def test_single_agent_copy_keeps_the_game(clone):
    env = FcmSingleAgentEnv(num_players=2, max_rounds=4)
    env.reset(seed=4)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    twin = clone(env)
    assert twin.game.to_dict() == env.game.to_dict()
    action = int(np.flatnonzero(env.action_masks())[-1])
    first, second = env.step(action), twin.step(action)
    assert np.array_equal(first[0], second[0]) and first[1:4] == second[1:4]
    assert twin.game.to_dict() == env.game.to_dict()


def test_calls_before_reset_are_clear_errors():
    with pytest.raises(RuntimeError, match=r"call reset\(\) before action_masks\(\)"):
        FcmSingleAgentEnv(num_players=2).action_masks()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        FcmSingleAgentEnv(num_players=2).step(0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before action_to_string\(\)"):
        FcmSingleAgentEnv(num_players=2).action_to_string(0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before action_masks\(\)"):
        FcmVectorEnv(num_envs=2, num_players=2).action_masks()


@pytest.mark.parametrize("engine", ["python", "native"])
def test_after_every_agent_is_done_last_names_reset_and_step_plays_nothing(engine):
    if engine == "native":
        pytest.importorskip("fcm_env.native")
    env = fcm_env.env(num_players=2, max_rounds=2, engine=engine)
    env.reset(seed=1)
    for _ in env.agent_iter():  # PettingZoo's loop: a dead agent steps None and is removed
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.agents == []
    end = env.unwrapped.game.to_dict()
    env.step(0)  # PettingZoo's order check: a logged warning, nothing played
    assert env.unwrapped.game.to_dict() == end
    with pytest.raises(RuntimeError, match=r"every agent is done \(env.agents is empty\); call reset\(\)"):
        env.last()
    env.reset(seed=2)
    assert env.agents == ["player_0", "player_1"] and env.last()[2] is False


@pytest.mark.parametrize("action", [3.7, 3.0, True])
def test_the_vector_envs_refuse_an_action_that_is_no_integer_id_on_either_engine(action):
    pytest.importorskip("fcm_env.native")
    from fcm_env.engine.actions import IllegalActionError

    for engine in ("python", "native"):
        env = FcmVectorEnv(num_envs=2, engine=engine, num_players=2)
        env.reset(seed=0)
        before = [e.game.to_dict() for e in env.envs]
        with pytest.raises(IllegalActionError, match="integer"):
            env.step(np.array([action, action]))
        assert [e.game.to_dict() for e in env.envs] == before, engine  # nothing moved


@pytest.mark.parametrize("action", [2**70, -(2**70), 2**63, 2757, -1])
def test_the_aec_env_names_an_id_out_of_range_whatever_its_size_on_either_engine(engine, action):
    """An id past int64 used to reach the core's argument cast (a pybind11 TypeError on the native engine)."""
    from fcm_env.engine.actions import IllegalActionError

    env = fcm_env.env(num_players=2, engine=engine)
    env.reset(seed=0)
    before = env.unwrapped.game.to_dict()
    with pytest.raises(IllegalActionError, match="out of range"):
        env.step(action)
    assert env.unwrapped.game.to_dict() == before
    env.step(int(env.unwrapped.game.legal_ids()[0]))  # the agent may step again
