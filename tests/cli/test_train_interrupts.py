"""``fcm train`` stopped for real: SIGINT/SIGTERM during behaviour cloning, during PPO and during the final
evaluation, each followed by the ``--resume`` that the one-line message gives.

Each check: the command exits after the signal (within ``HANG_S``: a hang check; the 2 s target is
measured by ``benchmarks/bench_stop.py``), with exit code 130 (SIGINT) or 143 (SIGTERM), one line on stderr and no traceback (the env
worker processes ignore SIGINT: the trainer kills them); what the line says was kept is on disk; and the
resume continues from there and finishes. A tiny network and 2 env processes (``env_workers: 2`` on the
Python engine); SIGTERM during PPO also on the native league (the games and opponents in the native batch,
two threads, no worker process).
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import yaml
from cli_helpers import HANG_S, fcm_env_vars

TINY = {
    "name": "tiny", "num_players": 2, "max_rounds": 4, "n_envs": 2, "env_workers": 2, "n_steps": 64,
    "batch_size": 64, "n_epochs": 1, "total_timesteps": 1_000_000, "snapshot_every": 128, "eval_every": 256,
    "eval_games": 2, "eval_opponents": ["random"], "checkpoint_every": 256, "keep_checkpoints": 2,
    "progress_bar": False, "board_channels": 4, "board_features": 16, "vector_hidden": 16, "net_arch": [16],
    "bc_rounds": 1, "bc_games": 2, "bc_holdout_games": 2, "bc_epochs": 1, "out_dir": "run", "engine": "python",
}


def _config(cwd: Path, **settings) -> None:
    (cwd / "tiny.yaml").write_text(yaml.safe_dump({**TINY, **settings}))


def _start(cwd: Path, *args: str) -> subprocess.Popen:
    """``fcm train tiny.yaml ARGS`` in its own session (so a signal to its group is a terminal's Ctrl-C);
    stdout goes to ``out.txt``, read while it runs."""
    with (cwd / "out.txt").open("w") as out:
        return subprocess.Popen([sys.executable, "-m", "fcm_apps", "train", "tiny.yaml", *args], cwd=cwd,
                                env=fcm_env_vars(), stdout=out, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)


def _wait_for(proc: subprocess.Popen, cwd: Path, ready, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert proc.poll() is None, f"ended before the signal: {proc.communicate()} {_out(cwd)}"
        assert time.monotonic() < deadline, "the moment to send the signal never came"
        time.sleep(0.02)


def _out(cwd: Path) -> str:
    return (cwd / "out.txt").read_text()


def _workers(pid: int) -> list[int]:
    """The env worker processes of ``pid`` (multiprocessing's resource tracker aside: it leaves by itself)."""
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == pid and b"spawn_main" in command:
                kids.append(int(entry.name))
    return kids


def _alive(pid: int) -> bool:
    """Running (a zombie that its new parent has not reaped yet counts as gone)."""
    try:
        return (Path(f"/proc/{pid}") / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _stop(proc: subprocess.Popen, signum: int, group: bool) -> tuple[float, str]:
    sent = time.monotonic()
    (os.killpg if group else os.kill)(proc.pid, signum)
    _, err = proc.communicate(timeout=HANG_S + 30)
    return time.monotonic() - sent, err


def _one_line(proc: subprocess.Popen, signum: int, elapsed: float, err: str, what: str) -> str:
    assert proc.returncode == 128 + signum, err
    assert elapsed < HANG_S, f"took {elapsed:.2f} s to stop"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    (line,) = err.strip().splitlines()
    assert line.startswith(f"fcm train: interrupted by {signal.Signals(signum).name} {what}"), line
    assert line.endswith(" --resume"), line
    return line


def _resume(line: str, cwd: Path, *extra: str) -> subprocess.CompletedProcess:
    """The resume command the line gives (``fcm ...`` as ``python -m fcm_apps ...``), plus ``extra``."""
    words = shlex.split(line.split("resume with: ", 1)[1])
    assert words[:3] == ["fcm", "train", "tiny.yaml"]
    return subprocess.run([sys.executable, "-m", "fcm_apps", *words[1:], *extra], cwd=cwd, env=fcm_env_vars(),
                          capture_output=True, text=True, timeout=180, check=False)


def _final_steps(run: Path) -> int:
    with zipfile.ZipFile(run / "final_model.zip") as archive:
        return json.loads(archive.read("data"))["num_timesteps"]


def _eval_steps(run: Path) -> list[int]:
    return [int(line.split(",")[0]) for line in (run / "eval.csv").read_text().splitlines()[1:]]


def test_ctrl_c_during_behaviour_cloning_keeps_nothing_of_it_and_resume_starts_the_run_again(tmp_path):
    _config(tmp_path, bc_games=60)  # a few seconds of behaviour cloning
    proc = _start(tmp_path)
    _wait_for(proc, tmp_path, lambda: "behaviour cloning: " in _out(tmp_path))
    workers = _workers(proc.pid)
    elapsed, err = _stop(proc, signal.SIGINT, group=True)  # a terminal's Ctrl-C reaches the workers too
    line = _one_line(proc, signal.SIGINT, elapsed, err, "during behaviour cloning; nothing of it was kept")
    print(f"train, Ctrl-C during behaviour cloning: stopped in {elapsed:.2f} s")
    assert not (tmp_path / "run" / "bc_model.zip").exists() and not (tmp_path / "run" / "checkpoints").exists()
    assert workers and not [pid for pid in workers if _alive(pid)]  # the workers went with it

    done = _resume(line, tmp_path, "--set", "total_timesteps=256")
    assert done.returncode == 0, done.stderr
    assert "no checkpoint in run yet: the run starts from the beginning" in done.stdout
    assert "[bc round 1]" in done.stdout and _final_steps(tmp_path / "run") == 256


@pytest.mark.parametrize("engine", ["python", "native"])
def test_sigterm_during_ppo_keeps_the_last_whole_update_and_resume_continues_from_it(tmp_path, engine):
    if engine == "native":
        pytest.importorskip("fcm_agents.native._agents", reason="the native players are not built")
    _config(tmp_path, engine=engine)
    proc = _start(tmp_path)
    run = tmp_path / "run"
    _wait_for(proc, tmp_path, lambda: (run / "checkpoints" / "step_256.zip").exists())
    workers = _workers(proc.pid)
    assert bool(workers) == (engine == "python")  # the native league steps its games on threads
    for pid in workers:  # a SIGINT that reaches the worker processes alone changes nothing
        os.kill(pid, signal.SIGINT)
    time.sleep(0.5)
    assert proc.poll() is None and all(_alive(pid) for pid in workers)

    elapsed, err = _stop(proc, signal.SIGTERM, group=False)  # kill PID: the trainer alone
    line = _one_line(proc, signal.SIGTERM, elapsed, err, "at ")
    print(f"train, SIGTERM during PPO: stopped in {elapsed:.2f} s: {line}")
    kept = Path(line.split("; checkpoint ", 1)[1].split(" kept", 1)[0])
    assert (tmp_path / kept).is_file() and kept.parent == Path("run/checkpoints")
    steps = int(kept.stem.removeprefix("step_"))
    at = int(line.split(" at ", 1)[1].split(" steps", 1)[0].replace(",", ""))
    # the boundary before the rollout it was collecting, or before the update it was in (at = steps + 128)
    assert steps % 128 == 0 and steps <= at <= steps + 128
    with zipfile.ZipFile(tmp_path / kept) as archive:
        assert "policy.optimizer.pth" in archive.namelist()
        state = json.loads(archive.read("fcm/state.json"))
    assert state["steps"] == steps and state["pool"] and max(state["pool"]) <= steps
    assert all((run / "checkpoints" / "pool" / f"step_{s}.onnx").is_file() for s in state["pool"])
    assert len(list((run / "checkpoints").glob("step_*.zip"))) <= 2  # keep_checkpoints: 2
    assert not [pid for pid in workers if _alive(pid)]

    done = _resume(line, tmp_path, "--set", f"total_timesteps={steps + 256}")
    assert done.returncode == 0, done.stderr
    assert f"resuming from {kept} at {steps:,} of {steps + 256:,} steps" in done.stdout
    assert _final_steps(run) == steps + 256
    evals = _eval_steps(run)
    assert evals == sorted(set(evals)) and evals[-1] == steps + 256  # each evaluation once, in order
    assert not (run / "evals").exists()


def test_ctrl_c_during_the_final_evaluation_keeps_the_training_and_resume_only_evaluates(tmp_path):
    _config(tmp_path, total_timesteps=256, eval_games=100)  # evaluations that take a while
    proc = _start(tmp_path)
    _wait_for(proc, tmp_path, lambda: "training done at 256 steps; waiting for the evaluation" in _out(tmp_path))
    elapsed, err = _stop(proc, signal.SIGINT, group=True)
    line = _one_line(proc, signal.SIGINT, elapsed, err, "during the final evaluation; the training is done")
    print(f"train, Ctrl-C during the final evaluation: stopped in {elapsed:.2f} s")
    run = tmp_path / "run"
    assert (run / "final_model.zip").exists() and (run / "checkpoints" / "step_256.zip").exists()
    assert (run / "evals" / "step_256.zip").exists()  # the evaluation cut short, for the resume

    done = _resume(line, tmp_path, "--set", "eval_games=2")
    assert done.returncode == 0, done.stderr
    assert "the run already has 256 of its 256 steps: nothing left to train" in done.stdout
    assert "the evaluation at 256 steps did not finish: it runs again" in done.stdout
    assert _eval_steps(run) == [256] and (run / "best_model.zip").exists() and not (run / "evals").exists()
