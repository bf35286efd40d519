"""The batched vector env and its SB3 adapter: buffers, same-step auto-reset, equality with single envs."""

from __future__ import annotations

import numpy as np
import pytest
from env_helpers import random_legal
from gymnasium.vector import AutoresetMode, VectorEnv

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS
from fcm_env.env import PHASE_NAMES
from fcm_env.env.single_agent import FcmSingleAgentEnv
from fcm_env.env.vector import FcmVectorEnv

KWARGS = {"num_players": 2, "max_rounds": 1, "learner_seat": "random", "shaping": "cash"}


def _choose(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([random_legal(m, rng) for m in masks])


def test_buffers_and_spaces():
    venv = FcmVectorEnv(3, num_players=4)
    assert isinstance(venv, VectorEnv) and venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert venv.observation_space.shape == (3, FLAT_SIZE)
    assert venv.single_observation_space.shape == (FLAT_SIZE,)
    assert venv.action_space.shape == (3,) and venv.single_action_space.n == NUM_ACTIONS
    obs, infos = venv.reset(seed=0)
    assert obs.shape == (3, FLAT_SIZE) and obs.dtype == np.float32 and infos == {}
    masks = venv.action_masks()
    assert masks.shape == (3, NUM_ACTIONS) and masks.dtype == bool
    for i, e in enumerate(venv.envs):
        np.testing.assert_array_equal(masks[i], e.action_masks())
        np.testing.assert_array_equal(obs[i], e.observe_into(np.zeros(FLAT_SIZE, np.float32)))
        assert e.game.state.seed == i  # reset(seed=s) seeds sub-env i with s + i
    obs, rewards, terminations, truncations, infos = venv.step(_choose(masks, np.random.default_rng(0)))
    assert rewards.shape == (3,) and rewards.dtype == np.float64
    assert terminations.dtype == bool and truncations.dtype == bool


def test_the_same_trajectories_as_single_envs_across_auto_resets():
    seeds = [10, 11, 12]
    venv = FcmVectorEnv(3, **KWARGS)
    singles = [FcmSingleAgentEnv(**KWARGS) for _ in seeds]
    obs, _ = venv.reset(seed=10)
    single_obs = [e.reset(seed=s)[0] for e, s in zip(singles, seeds, strict=True)]
    np.testing.assert_array_equal(obs, np.stack(single_obs))
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(120):
        actions = _choose(venv.action_masks(), rng)
        obs, rewards, terminations, truncations, infos = venv.step(actions)
        for i, e in enumerate(singles):
            o, r, term, trunc, info = e.step(int(actions[i]))
            assert (rewards[i], terminations[i], truncations[i]) == (r, term, trunc)
            if term or trunc:
                episodes += 1
                assert infos["_final_obs"][i] and infos["_final_info"][i]
                np.testing.assert_array_equal(infos["final_obs"][i], o)
                np.testing.assert_array_equal(venv.final_observations[i], o)
                assert venv.final_infos[i] == {k: v for k, v in info.items() if k != "action_mask"}
                o, _ = e.reset()  # same-step auto-reset: the returned row is the new game's
            else:
                assert venv.final_observations[i] is None
            np.testing.assert_array_equal(obs[i], o)
            np.testing.assert_array_equal(venv.action_masks()[i], e.action_masks())
    assert episodes >= 6  # every sub-env went through at least two auto-resets


def test_final_info_holds_the_finished_game():
    venv = FcmVectorEnv(2, num_players=2, max_rounds=1)
    venv.reset(seed=0)
    rng = np.random.default_rng(1)
    while True:
        _, rewards, _terminations, truncations, infos = venv.step(_choose(venv.action_masks(), rng))
        if truncations.any():
            break
    i = int(np.flatnonzero(truncations)[0])
    final = venv.final_infos[i]
    assert final["phase_id"] == PHASE_NAMES.index("game_over") and final["truncated_by_max_rounds"] is True
    assert rewards[i] == (1.0 if final["rank"] == 0 else -1.0)
    assert infos["final_info"]["rank"][i] == final["rank"]
    assert venv.envs[i].game.state.round == 0  # already the next game


def test_copy_semantics():
    copying = FcmVectorEnv(2, num_players=2)
    first, _ = copying.reset(seed=0)
    kept = first.copy()
    copying.step(_choose(copying.action_masks(), np.random.default_rng(0)))
    np.testing.assert_array_equal(first, kept)
    shared = FcmVectorEnv(2, num_players=2, copy=False)
    a, _ = shared.reset(seed=0)
    b, *_ = shared.step(_choose(shared.action_masks(), np.random.default_rng(0)))
    assert a is b and shared.action_masks() is shared.action_masks()


def test_seed_lists_env_fn_and_argument_checks():
    venv = FcmVectorEnv(2, env_fn=lambda: FcmSingleAgentEnv(num_players=3))
    venv.reset(seed=[7, None])
    assert venv.envs[0].game.state.seed == 7
    with pytest.raises(ValueError):
        venv.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError):
        venv.step(np.zeros(3, dtype=int))
    with pytest.raises(ValueError):
        FcmVectorEnv(0)
    shared = FcmSingleAgentEnv()
    with pytest.raises(ValueError, match="same instance"):
        FcmVectorEnv(2, env_fn=lambda: shared)
    with pytest.raises(RuntimeError):
        FcmVectorEnv(1).step(np.zeros(1, dtype=int))


def test_collect_infos_and_render():
    venv = FcmVectorEnv(2, num_players=2, collect_infos=True, render_mode="ansi")
    _, infos = venv.reset(seed=0)
    assert list(infos["learner_id"]) == [0, 0] and infos["_round"].all()
    assert infos["learner_id"].dtype.kind == "i"  # numbers only: plain arrays, no object arrays
    assert all(isinstance(t, str) for t in venv.render())
    venv.close()
