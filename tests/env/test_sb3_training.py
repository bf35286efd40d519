"""sb3-contrib's MaskablePPO on the single-agent env and on the SB3 adapter of the vector env."""

from __future__ import annotations

import numpy as np
import pytest
from env_helpers import random_legal

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS
from fcm_env.env.single_agent import FcmSingleAgentEnv

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecMonitor

from fcm_training.sb3.vec_env import Sb3FcmVecEnv

PPO_KWARGS = {
    "n_steps": 64, "batch_size": 64, "n_epochs": 1, "seed": 0, "device": "cpu", "policy_kwargs": {"net_arch": [32]},
}


@pytest.fixture
def one_thread():
    """Tiny networks: one torch thread is faster than several fighting for the cores."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_the_adapter_exposes_masks_the_way_maskable_ppo_reads_them():
    venv = Sb3FcmVecEnv(3, num_players=2)
    venv.seed(5)
    obs = venv.reset()
    assert obs.shape == (3, FLAT_SIZE) and obs.dtype == np.float32
    assert [e.game.state.seed for e in venv.envs] == [5, 6, 7]  # SB3: seed + index, used once
    assert is_masking_supported(venv)
    masks = get_action_masks(venv)
    assert masks.shape == (3, NUM_ACTIONS) and masks.dtype == bool
    for i, e in enumerate(venv.envs):
        np.testing.assert_array_equal(masks[i], e.action_masks())
    assert venv.env_method("action_masks", indices=[1])[0].shape == (NUM_ACTIONS,)
    assert venv.get_attr("learner") == [0, 0, 0]
    assert venv.env_is_wrapped(object) == [False, False, False]
    venv.close()


def test_the_adapter_reports_sb3_auto_reset_infos():
    venv = Sb3FcmVecEnv(2, num_players=2, max_rounds=1)
    venv.seed(0)
    venv.reset()
    rng = np.random.default_rng(0)
    while True:
        actions = np.array([random_legal(m, rng) for m in get_action_masks(venv)])
        obs, rewards, dones, infos = venv.step(actions)
        assert rewards.dtype == np.float32 and dones.dtype == bool and len(infos) == 2
        if dones.any():
            break
    i = int(np.flatnonzero(dones)[0])
    assert infos[i]["terminal_observation"].shape == (FLAT_SIZE,)
    assert infos[i]["TimeLimit.truncated"] is True  # max_rounds cut the game off
    assert infos[i]["rank"] in (0, 1) and rewards[i] in (1.0, -1.0)
    assert not np.array_equal(obs[i], infos[i]["terminal_observation"])  # the row is the new game


def test_maskable_ppo_learns_on_the_single_agent_env(one_thread):
    model = MaskablePPO("MlpPolicy", FcmSingleAgentEnv(num_players=2, max_rounds=2), **PPO_KWARGS)
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256


def test_maskable_ppo_learns_on_the_vector_adapter(one_thread):
    venv = VecMonitor(Sb3FcmVecEnv(4, num_players=2, max_rounds=2))
    model = MaskablePPO("MlpPolicy", venv, **PPO_KWARGS)
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256 and len(model.ep_info_buffer) > 0


def _make_single():
    return FcmSingleAgentEnv(num_players=2, max_rounds=3, learner_seat="random")


def test_maskable_ppo_trains_in_a_subprocess_vec_env_and_saves_and_loads(one_thread, tmp_path):
    # the env's own action_masks() is reached through SubprocVecEnv.env_method: no ActionMasker needed
    from stable_baselines3.common.vec_env import SubprocVecEnv

    venv = SubprocVecEnv([_make_single, _make_single], start_method="spawn")
    try:
        model = MaskablePPO("MlpPolicy", venv, **{**PPO_KWARGS, "n_steps": 512, "batch_size": 256})
        model.learn(total_timesteps=2048)
        assert model.num_timesteps >= 2048
        model.save(tmp_path / "ppo")
        loaded = MaskablePPO.load(tmp_path / "ppo", device="cpu")
        obs = venv.reset()
        masks = get_action_masks(venv)
        a1, _ = model.predict(obs, action_masks=masks, deterministic=True)
        a2, _ = loaded.predict(obs, action_masks=masks, deterministic=True)
        np.testing.assert_array_equal(a1, a2)
        assert all(masks[i, a] for i, a in enumerate(a1))
    finally:
        venv.close()
