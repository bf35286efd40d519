"""Checkpoints: the rotation keeps the most recent ones and the pool files they name, a damaged one is
refused by name, random states round-trip, and an interrupt in the middle of a PPO update falls back to
the weights and Adam state from before it."""

from __future__ import annotations

import json
import random
import zipfile

import numpy as np
import pytest
import torch

from fcm_training.sb3.checkpoints import CheckpointError, capture_rng, read_checkpoint, restore_rng, rotate
from fcm_training.sb3.run_dir import Checkpoint


def fake_checkpoint(out, steps: int, pool: list[int]) -> None:
    """A zip with what ``read_checkpoint`` checks (SB3's entries and ours) and the pool files it names."""
    (out / "checkpoints" / "pool").mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out / "checkpoints" / f"step_{steps}.zip", "w") as archive:
        archive.writestr("data", "{}")
        archive.writestr("policy.pth", b"weights")
        archive.writestr("fcm/state.json", json.dumps({"format": 1, "steps": steps, "pool": pool, "rng": None}))
    for s in pool:
        (out / "checkpoints" / "pool" / f"step_{s}.onnx").write_bytes(b"onnx")


def names(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_rotation_keeps_the_most_recent_checkpoints_and_the_pool_files_they_name(tmp_path):
    for steps, pool in ((100, [100]), (200, [100, 200]), (300, [200, 300]), (400, [300, 400])):
        fake_checkpoint(tmp_path, steps, pool)
    assert rotate(tmp_path, None) == []  # null: keep every one
    gone = rotate(tmp_path, 2)
    assert names(tmp_path / "checkpoints") == ["pool", "step_300.zip", "step_400.zip"]
    assert names(tmp_path / "checkpoints" / "pool") == ["step_200.onnx", "step_300.onnx", "step_400.onnx"]
    assert {p.name for p in gone} == {"step_100.zip", "step_200.zip", "step_100.onnx"}
    rotate(tmp_path, 1)  # the last is always among the kept
    assert names(tmp_path / "checkpoints") == ["pool", "step_400.zip"]
    assert names(tmp_path / "checkpoints" / "pool") == ["step_300.onnx", "step_400.onnx"]


def test_a_checkpoint_is_read_with_its_pool_and_a_damaged_one_is_refused_by_name(tmp_path):
    fake_checkpoint(tmp_path, 100, [100])
    fake_checkpoint(tmp_path, 200, [100, 200])
    last = Checkpoint(tmp_path / "checkpoints" / "step_200.zip", 200)
    state, snapshots = read_checkpoint(last, tmp_path)
    assert (state.steps, state.pool, sorted(snapshots)) == (200, [100, 200], [100, 200])
    last.path.write_bytes(last.path.read_bytes()[:40])
    with pytest.raises(CheckpointError, match=r"checkpoint .*step_200\.zip is damaged or cut short \(.*\): "
                                              r"delete it to resume from step_100\.zip \(100 steps\)"):
        read_checkpoint(last, tmp_path)
    only = Checkpoint(tmp_path / "checkpoints" / "step_100.zip", 100)
    last.path.unlink()
    (tmp_path / "checkpoints" / "pool" / "step_100.onnx").unlink()
    with pytest.raises(CheckpointError, match=r"needs the opponent snapshot .*step_100\.onnx, which is missing: "
                                              r"delete it, or start the run again with --overwrite"):
        read_checkpoint(only, tmp_path)


def test_a_checkpoint_of_an_older_version_resumes_with_an_empty_pool(tmp_path):
    (tmp_path / "checkpoints").mkdir()
    path = tmp_path / "checkpoints" / "step_64.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data", "{}")
        archive.writestr("policy.pth", b"weights")
    state, snapshots = read_checkpoint(Checkpoint(path, 64), tmp_path)
    assert (state.steps, state.pool, state.rng, snapshots) == (64, [], None, {})


def test_random_states_round_trip_through_json():
    saved = json.loads(json.dumps(capture_rng()))
    first = (torch.rand(3).tolist(), np.random.rand(3).tolist(), random.random())
    restore_rng(saved)
    assert (torch.rand(3).tolist(), np.random.rand(3).tolist(), random.random()) == first


def test_an_interrupted_update_falls_back_to_the_weights_and_adam_state_from_before_it(tmp_path):
    from fcm_training.common.config import Config
    from fcm_training.sb3.callbacks import SelfPlayCallback
    from fcm_training.sb3.selfplay import build_model
    from fcm_training.sb3.timing import StageTimer
    from fcm_training.sb3.vec_env import Sb3FcmVecEnv

    config = Config(n_envs=1, n_steps=8, batch_size=8, board_channels=4, board_features=16, vector_hidden=16,
                    net_arch=[16], out_dir=str(tmp_path / "run"))
    model = build_model(config, Sb3FcmVecEnv(1, max_rounds=2))
    model.learn(16)  # an Adam state worth keeping
    callback = SelfPlayCallback(config, None, tmp_path, StageTimer())
    callback.model = model
    callback.mark_boundary()
    before = {k: v.clone() for k, v in model.policy.state_dict().items()}
    adam = model.policy.optimizer.state_dict()["state"][0]["exp_avg"].clone()
    callback._on_rollout_end()  # the update starts ...
    for p in model.policy.parameters():  # ... and gets half way
        p.grad = torch.ones_like(p)
    model.policy.optimizer.step()
    model.num_timesteps += 8
    model._n_updates += 1
    boundary = callback.fall_back()
    assert boundary.steps == model.num_timesteps == 16 and model._n_updates == boundary.n_updates
    assert all(torch.equal(before[k], v) for k, v in model.policy.state_dict().items())
    assert torch.equal(model.policy.optimizer.state_dict()["state"][0]["exp_avg"], adam)
