"""The vector env over worker processes plays exactly the games of the in-process one."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from fcm_env.engine.actions import IllegalActionError
from fcm_env.env import FcmSingleAgentEnv, FcmVectorEnv
from fcm_env.env.parallel import ParallelFcmVectorEnv

KWARGS = {"num_players": 2, "max_rounds": 2}


def _pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])


def test_same_games_obs_masks_rewards_and_final_observations_as_in_process():
    reference = FcmVectorEnv(3, **KWARGS)
    parallel = ParallelFcmVectorEnv(3, functools.partial(FcmSingleAgentEnv, **KWARGS), workers=2)
    try:
        assert parallel.sizes == [1, 2]
        obs_a, _ = reference.reset(seed=40)
        obs_b, _ = parallel.reset(seed=40)
        assert np.array_equal(obs_a, obs_b)
        rng = np.random.default_rng(1)
        finished = 0
        for _ in range(150):
            masks = reference.action_masks()
            assert np.array_equal(masks, parallel.action_masks())
            actions = _pick(masks, rng)
            a, b = reference.step(actions), parallel.step(actions)
            for x, y in zip(a[:4], b[:4], strict=True):
                assert np.array_equal(x, y)
            for i in np.flatnonzero(a[2] | a[3]):
                finished += 1
                assert np.array_equal(reference.final_observations[i], parallel.final_observations[i])
                assert reference.final_infos[i] == parallel.final_infos[i]
                assert np.array_equal(a[4]["final_obs"][i], b[4]["final_obs"][i])
        assert finished >= 3  # 2-round games end within 150 steps: auto-reset was exercised
        assert parallel.get_attr("learner_seat") == (0, 0, 0)
        rounds = parallel.env_call("get_attr", "game", [2])[0].state.round
        assert rounds == reference.envs[2].game.state.round
    finally:
        parallel.close()
        reference.close()


def test_an_illegal_action_in_a_worker_is_raised_here_and_the_env_still_steps():
    parallel = ParallelFcmVectorEnv(2, workers=2, **KWARGS)
    try:
        parallel.reset(seed=3)
        masks = parallel.action_masks()
        bad = np.array([int(np.flatnonzero(masks[0])[0]), int(np.flatnonzero(masks[1] == 0)[0])])
        with pytest.raises(IllegalActionError, match="not legal"):
            parallel.step(bad)  # sub-env 1 runs in the worker
        good = np.array([int(np.flatnonzero(m)[0]) for m in parallel.action_masks()])
        obs, *_ = parallel.step(good)
        assert obs.shape == (2, parallel.single_observation_space.shape[0])
    finally:
        parallel.close()


def test_bad_arguments_and_calls_out_of_order_are_clear_errors():
    with pytest.raises(ValueError, match="workers must be an int from 1 to num_envs=2"):
        ParallelFcmVectorEnv(2, workers=3, **KWARGS)
    parallel = ParallelFcmVectorEnv(2, workers=1, **KWARGS)
    try:
        with pytest.raises(RuntimeError, match=r"call reset\(\) before action_masks\(\)"):
            parallel.action_masks()
        with pytest.raises(RuntimeError, match=r"no step in flight"):
            parallel.step_wait()
    finally:
        parallel.close()
