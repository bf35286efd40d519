"""Thread settings that do not spin (``fcm_training.common.threads``): ``fcm train`` asks OpenMP to
sleep between torch's parallel regions, and a run with several torch threads that spin is warned."""

from __future__ import annotations

import os

from fcm_apps import cli
from fcm_training.common.threads import passive_openmp, spin_warning, workers_warning


def test_the_wait_policy_is_made_passive_unless_the_user_chose_one():
    environ: dict[str, str] = {}
    assert passive_openmp(environ) is True and environ == {"OMP_WAIT_POLICY": "PASSIVE"}
    chosen = {"OMP_WAIT_POLICY": "ACTIVE"}
    assert passive_openmp(chosen) is False and chosen == {"OMP_WAIT_POLICY": "ACTIVE"}


def test_several_torch_threads_that_spin_are_warned():
    assert spin_warning(1, {}) is None  # one thread has no region to spin between
    assert spin_warning(2, {"OMP_WAIT_POLICY": "passive"}) is None
    line = spin_warning(2, {})
    assert line is not None and "torch_threads=2" in line and "OMP_WAIT_POLICY=unset" in line
    assert "OMP_WAIT_POLICY=PASSIVE" in line
    assert "OMP_WAIT_POLICY=ACTIVE" in spin_warning(4, {"OMP_WAIT_POLICY": "ACTIVE"})


def test_fcm_train_sets_the_policy_before_it_loads_the_trainer(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OMP_WAIT_POLICY", "placeholder")  # so that the test's change is undone afterwards
    monkeypatch.delenv("OMP_WAIT_POLICY")
    assert cli.main(["train", str(tmp_path / "missing.yaml")]) == 2  # the config is read after the policy is set
    assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    assert "missing.yaml" in capsys.readouterr().err


def test_game_processes_beyond_the_free_cores_are_warned():
    assert workers_warning(1, 1, free=0.5) is None  # one process: nothing to share
    assert workers_warning(2, 1, free=2.0) is None
    line = workers_warning(2, 1, free=1.2)  # a 2-core machine with a job beside the run
    assert line is not None and "want 2 cores but about 1.2 are free" in line and "env_workers: 1" in line
    assert "consider env_workers: 3" in workers_warning(8, 2, free=4.0)  # 3 processes + 1 more torch thread
