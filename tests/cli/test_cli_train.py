"""``fcm train``: bad settings are one stderr line and exit 2 with nothing written, a used out_dir
needs --resume or --overwrite, resume says what it found and never duplicates eval.csv rows, a damaged
checkpoint is refused by name, checkpoints rotate (``keep_checkpoints``), and total_timesteps is rounded
up to whole rollouts (the progress bar counts what is trained). Interrupts: test_train_interrupts.py."""

from __future__ import annotations

import pytest
import yaml

from fcm_apps import cli

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
    ("keep_checkpoints=0", "config: keep_checkpoints: must be at least 1 (null keeps every checkpoint), got 0"),
    ("keep_checkpoints=two", "config: keep_checkpoints: expected an integer, got 'two'"),
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
                                "config of that name (shipped: beat_heuristic_2p, finetune_2p, finetune_3p, finetune_4p, finetune_5p, five_minutes_2p, league_2p, long, quick, ray_4p, ray_tiny, refine_2p)")])
    assert list(tmp_path.iterdir()) == []


def test_help_shows_the_defaults_and_the_shipped_configs(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["train", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "total_timesteps=200000" in text and "n_envs=4" in text and "device=cpu" in text
    assert "Shipped configs: beat_heuristic_2p, finetune_2p, finetune_3p, finetune_4p, finetune_5p, five_minutes_2p, league_2p, long, quick, ray_4p, ray_tiny, refine_2p" in text
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


def checkpoints(run) -> list[str]:
    return sorted(p.name for p in (run / "checkpoints").glob("*.zip"))


def test_resume_says_what_it_found_and_keeps_eval_rows_unique_then_overwrite_starts_over(capsys, tiny,
                                                                                          tmp_path):
    run = tmp_path / "run"
    code, out, _ = train(capsys, str(tiny), "--set", "total_timesteps=192")
    assert code == 0 and f"run directory: {run}" in out
    assert eval_steps(run) == ["128", "192"]  # every 128 steps and at the end
    assert checkpoints(run) == ["step_128.zip", "step_192.zip"]  # every 128 steps and at the end
    (run / "old.txt").write_text("from the first run")

    (run / "checkpoints" / "step_192.zip").unlink()  # as if the run had stopped before writing it
    code, out, _ = train(capsys, str(tiny), "--set", "total_timesteps=192", "--resume")
    assert code == 0
    assert f"resuming from {run / 'checkpoints' / 'step_128.zip'} at 128 of 192 steps\n" in out
    assert eval_steps(run) == ["128", "192"]  # the 192 evaluation was run again, not added twice
    assert checkpoints(run) == ["step_128.zip", "step_192.zip"]

    code, out, _ = train(capsys, str(tiny), "--set", "total_timesteps=192", "--resume")  # the same again
    assert code == 0 and "the run already has 192 of its 192 steps: nothing left to train" in out
    assert eval_steps(run) == ["128", "192"] and "[eval @" not in out  # nothing evaluated twice

    code, out, _ = train(capsys, str(tiny), "--set", "total_timesteps=64", "--overwrite")
    assert code == 0 and "resuming" not in out
    assert eval_steps(run) == ["64"] and not (run / "old.txt").exists()
    assert checkpoints(run) == ["step_64.zip"]  # the end of the run


def test_total_timesteps_rounds_up_to_whole_rollouts_and_the_bar_counts_them(capsys, tiny, tmp_path,
                                                                            monkeypatch):
    import json

    from fcm_training.sb3.progress import ProgressBar

    bars = []
    start = ProgressBar._on_training_start

    def spy(self):
        start(self)
        bars.append(self.total)

    monkeypatch.setattr(ProgressBar, "_on_training_start", spy)
    code, out, err = train(capsys, str(tiny), "--set", "total_timesteps=64", "--set", "n_envs=2",
                           "--set", "progress_bar=true")
    assert code == 0
    message = ("total_timesteps 64 rounded up to 128: PPO trains whole rollouts of n_envs x n_steps = "
               "2 x 64 = 128")
    assert out.count(message) == 1
    assert bars == [128]
    assert "128/128 steps" in " ".join(err)  # the bar (rich, on stderr) ends at what was trained
    timing = json.loads((tmp_path / "run" / "timing.json").read_text())
    assert timing["learner_steps"] == 128
    rate = 128 / timing["ppo_seconds"]  # the summary's PPO rate is the bar's: steps over the PPO stage
    assert f"learner steps 128: {rate:,.0f} steps/s over the {timing['ppo_seconds']:.1f} s of PPO" in out


def test_checkpoints_rotate_keeping_the_most_recent_and_the_best_and_final_models(capsys, tiny, tmp_path):
    run = tmp_path / "run"
    code, _, _ = train(capsys, str(tiny), "--set", "total_timesteps=320", "--set", "checkpoint_every=64",
                       "--set", "keep_checkpoints=2", "--set", "pool_size=2")
    assert code == 0
    # a checkpoint at every rollout (64 .. 320): the last two stay, with the pool files they name (a
    # snapshot every 64 steps, the last 2 in the pool: 192 and 256)
    assert checkpoints(run) == ["step_256.zip", "step_320.zip"]
    assert sorted(p.name for p in (run / "checkpoints" / "pool").iterdir()) == ["step_192.onnx", "step_256.onnx"]
    assert (run / "best_model.zip").exists() and (run / "final_model.zip").exists()
    best = int((run / "best_model.txt").read_text().split()[1])
    assert best in {int(s) for s in eval_steps(run)}  # the best model is kept whatever the rotation removed

    code, _, _ = train(capsys, str(tiny), "--set", "total_timesteps=256", "--set", "checkpoint_every=64",
                       "--set", "keep_checkpoints=null", "--overwrite")
    assert code == 0 and checkpoints(run) == ["step_128.zip", "step_192.zip", "step_256.zip", "step_64.zip"]


def test_a_damaged_checkpoint_is_refused_by_name_and_the_one_before_resumes(capsys, tiny, tmp_path):
    import json
    import zipfile

    run = tmp_path / "run"
    code, _, _ = train(capsys, str(tiny), "--set", "total_timesteps=256", "--set", "checkpoint_every=128")
    assert code == 0 and checkpoints(run) == ["step_128.zip", "step_256.zip"]
    last = run / "checkpoints" / "step_256.zip"
    whole = last.read_bytes()
    advice = "delete it to resume from step_128.zip (128 steps)"

    last.write_bytes(whole[: len(whole) // 2])  # cut short (a full disk, a copy stopped half way)
    code, out, err = train(capsys, str(tiny), "--set", "total_timesteps=384", "--resume")
    assert code == 2 and out == "" and len(err) == 1
    assert err[0].startswith(f"fcm train: error: checkpoint {last} is damaged or cut short (") and advice in err[0]

    damaged = bytearray(whole)
    at = damaged.index(b"policy.pth") + 200  # inside the weights: the entry's CRC no longer matches
    damaged[at:at + 16] = bytes(16)
    last.write_bytes(bytes(damaged))
    code, _, err = train(capsys, str(tiny), "--set", "total_timesteps=384", "--resume")
    assert code == 2 and len(err) == 1 and "fails its CRC check" in err[0] and advice in err[0]

    last.write_bytes(whole)
    with zipfile.ZipFile(last) as archive:
        pool = json.loads(archive.read("fcm/state.json"))["pool"]
    snapshot = run / "checkpoints" / "pool" / f"step_{pool[-1]}.onnx"
    snapshot.rename(snapshot.with_suffix(".gone"))
    code, _, err = train(capsys, str(tiny), "--set", "total_timesteps=384", "--resume")
    assert code == 2 and err == [(f"fcm train: error: checkpoint {last} needs the opponent snapshot {snapshot}, "
                                  f"which is missing: {advice}")]

    last.unlink()  # as the message says: the checkpoint before resumes
    code, out, _ = train(capsys, str(tiny), "--set", "total_timesteps=384", "--resume")
    assert code == 0 and f"resuming from {run / 'checkpoints' / 'step_128.zip'} at 128 of 384 steps" in out


def test_a_run_starts_with_what_its_config_says_it_reaches_and_takes(capsys, tmp_path):
    header = "# A tiny run: reaches nothing, 10 s on a free core.\n#   (the second line)\n"
    path = tmp_path / "noted.yaml"
    path.write_text(header + yaml.safe_dump({**TINY, "out_dir": str(tmp_path / "run")}))
    code, out, _ = train(capsys, str(path), "--set", "total_timesteps=64", "--set", "bc_rounds=0")
    assert code == 0
    assert out.startswith(f"{path}: A tiny run: reaches nothing, 10 s on a free core.\n  (the second line)\n")


def test_every_shipped_config_says_what_it_reaches_and_how_long_it_takes():
    from fcm_training.common.config import config_notes, shipped_configs

    for name in shipped_configs():
        notes = " ".join(config_notes(name))
        assert any(unit in notes for unit in ("minute", "hour", " s ")), f"{name}.yaml: no time in {notes!r}"
    for name in ("quick", "five_minutes_2p"):  # the newcomer's two: the result and the time, idle and loaded
        notes = " ".join(config_notes(name))
        assert "against the heuristic" in notes and "free core" in notes and "busy" in notes, notes


def test_a_missing_training_extra_names_an_install_that_works_from_a_checkout_or_a_wheel(capsys, monkeypatch):
    import importlib

    real = importlib.import_module

    def without_torch(name, *args, **kwargs):
        if name == "fcm_training.selfplay":
            raise ModuleNotFoundError("No module named 'torch'", name="torch")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(importlib, "import_module", without_torch)
    code, out, err = train(capsys, "quick")
    assert (code, out) == (2, "")
    assert err == [("fcm train: error: the trainer needs 'torch': install the training extras (pip install "
                    "'fcm-magnate[train]', from a checkout or a wheel install alike)")]
