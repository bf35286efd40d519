"""``fcm train``: bad settings are one stderr line and exit 2 with nothing written, a used out_dir
needs --resume or --overwrite, resume says what it found and never duplicates eval.csv rows, and
total_timesteps is rounded up to whole rollouts (the progress bar counts what is trained)."""

from __future__ import annotations

import pytest
import yaml

from fcm_env import cli

TINY = {
    "name": "tiny", "num_players": 2, "max_rounds": 3, "n_envs": 1, "env_workers": 1, "n_steps": 64,
    "batch_size": 64, "n_epochs": 1, "snapshot_every": 64, "eval_every": 128, "eval_games": 2,
    "eval_opponents": ["random"], "eval_async": False, "checkpoint_every": 128, "progress_bar": False,
    "board_channels": 4, "board_features": 16, "vector_hidden": 16, "net_arch": [16],
}


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump({**TINY, "out_dir": str(tmp_path / "run")}))
    return path


def train(capsys, *argv: str) -> tuple[int, str, list[str]]:
    code = cli.main(["train", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err.splitlines()


@pytest.mark.parametrize(("setting", "line"), [
    ("totl_timesteps=100", "config: unknown setting 'totl_timesteps' (did you mean 'total_timesteps'?)"),
    ("total_timesteps=abc", "config: total_timesteps: expected an integer, got 'abc'"),
    ("n_envs=0", "config: n_envs: must be greater than or equal to 1, got 0"),
    ("n_steps=0", "config: n_steps: must be greater than or equal to 1, got 0"),
    ("env_workers=2", "config: env_workers must be 1..n_envs=1, got 2"),
    ("device=gpu", "config: device: expected auto, cpu, cuda, cuda:N or mps, got 'gpu'"),
])
def test_a_bad_setting_is_one_line_and_nothing_is_written(capsys, tiny, tmp_path, setting, line):
    assert train(capsys, str(tiny), "--set", setting) == (2, "", [f"fcm train: error: {line}"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.yaml"]


def test_two_bad_settings_give_two_lines(capsys, tiny):
    code, _, err = train(capsys, str(tiny), "--set", "n_envs=0", "--set", "n_step=1")
    assert code == 2
    assert err == ["fcm train: error: config: n_envs: must be greater than or equal to 1, got 0",
                   "fcm train: error: config: unknown setting 'n_step' (did you mean 'n_steps'?)"]


def test_a_missing_gpu_is_refused_before_anything_is_written(capsys, tiny, tmp_path, monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    code, _, err = train(capsys, str(tiny), "--set", "device=cuda")
    assert code == 2
    assert err == [("fcm train: error: config: device: 'cuda' is not available here: torch sees no CUDA "
                    "device (torch.cuda.is_available() is False); use device=cpu or device=auto")]
    assert not (tmp_path / "run").exists()


def test_a_bare_name_reads_the_shipped_config(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # quick.yaml has env_workers: 2, so one env is refused: proof that the shipped file was read
    code, _, err = train(capsys, "quick", "--set", "n_envs=1")
    assert (code, err) == (2, ["fcm train: error: config: env_workers must be 1..n_envs=1, got 2"])
    code, _, err = train(capsys, "quik")
    assert (code, err) == (2, [("fcm train: error: config 'quik' not found: no such file and no shipped "
                                "config of that name (shipped: beat_heuristic_2p, long, quick, ray_4p, ray_tiny)")])
    assert list(tmp_path.iterdir()) == []


def test_help_shows_the_defaults_and_the_shipped_configs(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["train", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "total_timesteps=200000" in text and "n_envs=4" in text and "device=cpu" in text
    assert "Shipped configs: beat_heuristic_2p, long, quick, ray_4p, ray_tiny" in text
    assert "--overwrite" in text and "(default: off" in text


def test_resume_and_overwrite_cannot_be_set_as_settings_or_together(capsys, tiny):
    code, _, err = train(capsys, str(tiny), "--set", "resume=true")
    assert (code, err) == (2, [("fcm train: error: --set resume=...: resume is not a config setting, "
                               "use the --resume flag")])
    with pytest.raises(SystemExit) as done:
        cli.main(["train", str(tiny), "--resume", "--overwrite"])
    assert done.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_used_out_dir_is_refused_and_resume_needs_a_checkpoint(capsys, tiny, tmp_path):
    run = tmp_path / "run"
    code, _, err = train(capsys, str(tiny), "--resume")
    assert (code, err) == (2, [(f"fcm train: error: nothing to resume in {run}: no checkpoints/step_N.zip "
                                "there (drop --resume to start a new run)")])
    assert not run.exists()
    run.mkdir()
    (run / "eval.csv").write_text("steps\n128\n")
    code, _, err = train(capsys, str(tiny))
    assert (code, err) == (2, [(f"fcm train: error: out_dir {run} is not empty: use --resume to continue the "
                                "run in it, --overwrite to replace it, or --set out_dir=... for a new "
                                "folder")])
    assert (run / "eval.csv").read_text() == "steps\n128\n"


def eval_steps(run) -> list[str]:
    return [line.split(",")[0] for line in (run / "eval.csv").read_text().splitlines()[1:]]


def test_resume_says_what_it_found_and_keeps_eval_rows_unique_then_overwrite_starts_over(capsys, tiny,
                                                                                          tmp_path):
    run = tmp_path / "run"
    code, out, _ = train(capsys, str(tiny), "--set", "total_timesteps=192")
    assert code == 0 and f"run directory: {run}" in out
    assert eval_steps(run) == ["128", "192"]  # every 128 steps and at the end; a checkpoint at 128 only
    (run / "old.txt").write_text("from the first run")

    code, out, _ = train(capsys, str(tiny), "--set", "total_timesteps=64", "--resume")
    assert code == 0
    assert f"resuming from {run / 'checkpoints' / 'step_128.zip'} at 128 steps\n" in out
    assert eval_steps(run) == ["128", "192"]  # the 192 evaluation was run again, not added twice

    code, out, _ = train(capsys, str(tiny), "--set", "total_timesteps=64", "--overwrite")
    assert code == 0 and "resuming" not in out
    assert eval_steps(run) == ["64"] and not (run / "old.txt").exists()
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == []


def test_total_timesteps_rounds_up_to_whole_rollouts_and_the_bar_counts_them(capsys, tiny, tmp_path,
                                                                            monkeypatch):
    import json

    from stable_baselines3.common.callbacks import ProgressBarCallback

    bars = []
    start = ProgressBarCallback._on_training_start

    def spy(self):
        start(self)
        bars.append(self.pbar.total)

    monkeypatch.setattr(ProgressBarCallback, "_on_training_start", spy)
    code, out, _ = train(capsys, str(tiny), "--set", "total_timesteps=64", "--set", "n_envs=2",
                         "--set", "progress_bar=true")
    assert code == 0
    message = ("total_timesteps 64 rounded up to 128: PPO trains whole rollouts of n_envs x n_steps = "
               "2 x 64 = 128")
    assert out.count(message) == 1
    assert bars == [128]
    assert json.loads((tmp_path / "run" / "timing.json").read_text())["learner_steps"] == 128
