"""The training league inside the native batch: the learner's games and all their opponents (random, heuristic,
strategists, policy snapshots) drawn and played in C++ give the very games the Python pool gives, seat by
seat, from the same generators (fcm_training.sb3.opponents, fcm_agents.native._agents.OpponentMix)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

pytest.importorskip("fcm_agents.native._agents", reason="the native players are not built")

from fcm_agents.models import shipped_model_path, shipped_value_path
from fcm_agents.native import _agents
from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS
from fcm_env.env.vector import FcmVectorEnv
from fcm_env.native import _core
from fcm_training.sb3.opponents import OpponentPool
from fcm_training.sb3.selfplay import Config, LearnerEnvs, native_league

EVERY_KIND = {"snapshot": 0.3, "random": 0.2, "heuristic": 0.15, "strategist": 0.2, "frozen": 0.15}


def _config(players: int, opponents: dict[str, float], max_rounds: int = 8) -> Config:
    return dataclasses.replace(Config(), num_players=players, max_rounds=max_rounds, opponents=opponents,
                               engine="native", n_envs=4, net_arch=[128], frozen_model="shipped")


class _PythonOnly(LearnerEnvs):
    """The same factory without the native hook: its sub-envs step in Python with the pool's Python agents."""

    native_opponents = None


def _envs(config: Config, num_envs: int, native: bool, snapshot: bytes | None):
    factory = LearnerEnvs(config) if native else _PythonOnly(config)
    if snapshot is not None:
        factory.add_snapshot(snapshot)
    venv = FcmVectorEnv(num_envs, factory, threads=2 if native else 1)
    assert (venv._native is not None) == native
    return venv


def _first_legal(venv: FcmVectorEnv) -> np.ndarray:
    return np.argmax(venv.action_masks(), axis=1)


@pytest.mark.parametrize("players", [2, 4])
def test_the_native_batch_plays_the_games_of_the_python_pool_seat_by_seat(players):
    config = _config(players, EVERY_KIND)
    snapshot = shipped_model_path(players).read_bytes()
    native, python = _envs(config, 4, True, snapshot), _envs(config, 4, False, snapshot)
    a, _ = native.reset(seed=11)
    b, _ = python.reset(seed=11)
    np.testing.assert_array_equal(a, b)
    seen, episodes = set(), 0
    for step in range(260 if players == 2 else 200):
        actions = native.random_actions(np.random.default_rng(step))
        np.testing.assert_array_equal(actions, python.random_actions(np.random.default_rng(step)))
        got, want = native.step(actions), python.step(actions)
        for x, y in zip(got[:4], want[:4], strict=True):
            np.testing.assert_array_equal(x, y, err_msg=f"step {step}")
        np.testing.assert_array_equal(native.action_masks(), python.action_masks())
        episodes += int((got[2] | got[3]).sum())
        seen |= {agent.name.split(":")[0].rstrip("0123456789") for e in python.envs for agent in e.opponents.values()}
    assert episodes >= 2  # new games started in the same step, and their opponents drawn again, alike
    assert seen == {"snapshot", "random", "heuristic", "strategist", "frozen"}


def test_a_snapshot_seat_samples_from_a_generator_of_its_own():
    # sub-env 0 plays the same game alone as beside two others (the seats once shared one generator, rewound
    # whenever any sub-env started a game), on either engine
    config = _config(2, {"snapshot": 1.0})
    snapshot = shipped_model_path(2).read_bytes()
    for native in (False, True):
        alone, crowd = _envs(config, 1, native, snapshot), _envs(config, 3, native, snapshot)
        x, _ = alone.reset(seed=[40])
        y, _ = crowd.reset(seed=[40, 41, 42])
        ended = 0
        for step in range(150):
            np.testing.assert_array_equal(x[0], y[0], err_msg=f"native={native}, step {step}")
            first = _first_legal(crowd)
            x, _, term, trunc, _ = alone.step(first[:1])
            y, *_ = crowd.step(first)
            ended += int(term[0] or trunc[0])
        assert ended >= 1


def test_the_pool_hands_its_snapshots_to_the_mix_and_drops_the_oldest():
    pool = OpponentPool({"snapshot": 1.0}, pool_size=1)
    model = shipped_model_path(2).read_bytes()
    pool.add_onnx_snapshot(model)
    mix = pool.native_mix()
    assert mix.snapshots == 1
    pool.add_onnx_snapshot(model)
    assert mix.snapshots == 1 and len(pool.snapshots) == 1  # the oldest went from both


def test_a_mix_refuses_what_it_cannot_play_with_the_reason():
    with pytest.raises(ValueError, match="unknown kind 'nobody'"):
        _agents.OpponentMix(["nobody"], [1.0], [None], 0.06, 2)
    with pytest.raises(ValueError, match="one probability per kind"):
        _agents.OpponentMix(["random", "heuristic"], [1.0], [None], 0.06, 2)
    with pytest.raises(ValueError, match="'random' must be a number >= 0"):
        _agents.OpponentMix(["random"], [-1.0], [None], 0.06, 2)
    with pytest.raises(ValueError, match="sum to more than 0"):
        _agents.OpponentMix(["random"], [0.0], [None], 0.06, 2)
    with pytest.raises(ValueError, match="pool_size"):
        _agents.OpponentMix(["random"], [1.0], [None], 0.06, 0)
    mix = _agents.OpponentMix(["snapshot"], [1.0], [None], 0.06, 2)
    from fcm_agents.native.network import load_network

    value_only, _, _ = load_network(shipped_value_path(2))
    with pytest.raises(ValueError, match="policy head"):
        mix.add_snapshot(value_only)
    assert mix.snapshots == 0
    frozen_only = _agents.OpponentMix(["frozen"], [1.0], [None], 0.06, 1)
    with pytest.raises(ValueError, match="policy head"):
        frozen_only.set_frozen(value_only)
    with pytest.raises(RuntimeError, match="no frozen policy is set"):
        _core.VecEnv(2, 2, "standard", 10, "win", None, -1, True, None, 1, frozen_only).reset(
            [1, 2], [0, 0], np.zeros((2, FLAT_SIZE), np.float32), np.zeros((2, NUM_ACTIONS), bool))
    with pytest.raises(ValueError, match="frozen opponent needs frozen_model"):
        Config(opponents={"frozen": 1.0})
    with pytest.raises(TypeError, match="opponent mix"):
        _core.VecEnv(2, 2, "standard", 10, "win", None, -1, True, None, 1, object())


def test_a_network_the_native_pass_does_not_know_keeps_the_python_league():
    assert native_league(_config(2, EVERY_KIND))
    wide = dataclasses.replace(_config(2, EVERY_KIND), net_arch=[64, 64])
    assert not native_league(wide)
    assert LearnerEnvs(wide).native_opponents() is None
    assert FcmVectorEnv(2, LearnerEnvs(wide))._native is None
    assert not native_league(dataclasses.replace(_config(2, EVERY_KIND), engine="python"))
