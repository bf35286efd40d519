"""How long a long command takes to stop after Ctrl-C or SIGTERM: the figure the tests leave to a benchmark.

    python benchmarks/bench_stop.py [--repeat 3] [--busy 1]

The tests of ``tests/cli/test_interrupts.py`` and ``tests/cli/test_train_interrupts.py`` check *that* a
stopped command exits with the right code and one line (with a hang bound of a minute, so that they pass on
a loaded machine); this script measures *how fast*, against the 2 s target. Each scenario is the tests' own:

* ``evaluate``: ``fcm evaluate --lineup heuristic,random`` with 2 workers, Ctrl-C to the process group
  once 12 games are kept;
* ``simulate``: ``fcm simulate`` in one process, SIGINT once 5 games are kept;
* ``train-bc``: ``fcm train`` on a tiny config, Ctrl-C to the group during behaviour cloning;
* ``train-ppo``: the same, SIGTERM to the trainer alone once the first PPO checkpoint is written.

``--busy N`` keeps N extra processes spinning on the CPU during the measurement (the other core of a
2-core machine: ``--busy 1``). It prints, per scenario, the median and the largest of ``--repeat`` stops,
in seconds from the signal to the end of the process. Ctrl-C stops it within a second or two and prints
the stops measured so far.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = ["--games", "400", "--seed", "11", "--max-rounds", "10", "--no-progress"]
TINY = """name: tiny
num_players: 2
max_rounds: 4
n_envs: 2
env_workers: 2
n_steps: 64
batch_size: 64
n_epochs: 1
total_timesteps: 1000000
snapshot_every: 128
eval_every: 256
eval_games: 2
eval_opponents: [random]
checkpoint_every: 256
keep_checkpoints: 2
progress_bar: false
board_channels: 4
board_features: 16
vector_hidden: 16
net_arch: [16]
bc_rounds: 1
bc_holdout_games: 2
bc_epochs: 1
out_dir: run
"""


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _fcm_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["OMP_NUM_THREADS"] = "1"
    return env


def _scenarios(cwd: Path) -> dict[str, tuple[list[str], Callable[[], bool], int, bool]]:
    """name -> (fcm arguments, ready-to-signal test, signal, to the whole process group)."""
    (cwd / "tiny.yaml").write_text(TINY + "bc_games: 60\n")
    (cwd / "tiny_ppo.yaml").write_text(TINY + "bc_games: 2\n")
    run = cwd / "run"
    return {
        "evaluate": (["evaluate", "--lineup", "heuristic,random", *TOURNAMENT, "--workers", "2", "--no-records",
                      "--out", str(cwd / "ev")], lambda: _lines(cwd / "ev" / "games.jsonl") >= 12,
                     signal.SIGINT, True),
        "simulate": (["simulate", "--agents", "heuristic,random", *TOURNAMENT, "--out", str(cwd / "sim")],
                     lambda: _lines(cwd / "sim" / "games.jsonl") >= 5, signal.SIGINT, False),
        "train-bc": (["train", "tiny.yaml"], lambda: "behaviour cloning: " in _read(cwd / "out.txt"),
                     signal.SIGINT, True),
        "train-ppo": (["train", "tiny_ppo.yaml"], lambda: (run / "checkpoints" / "step_256.zip").exists(),
                      signal.SIGTERM, False),
    }


def _read(path: Path) -> str:
    return path.read_text() if path.exists() else ""


def stop_once(name: str) -> float:
    """One run of scenario ``name`` in a fresh folder: seconds from the signal to the end of the process."""
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        args, ready, signum, group = _scenarios(cwd)[name]
        with (cwd / "out.txt").open("w") as out:
            proc = subprocess.Popen([sys.executable, "-m", "fcm_apps", *args], cwd=cwd, env=_fcm_env(), stdout=out,
                                    stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            deadline = time.monotonic() + 300
            while not ready():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{name}: ended or never got ready: {proc.communicate()[1][-400:]}")
                time.sleep(0.01)
            sent = time.monotonic()
            (os.killpg if group else os.kill)(proc.pid, signum)
            proc.communicate(timeout=120)
            if proc.returncode != 128 + signum:
                raise RuntimeError(f"{name}: exit code {proc.returncode}, expected {128 + signum}")
            return time.monotonic() - sent
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def _spin() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends it
    while True:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="stops per scenario (default 3)")
    parser.add_argument("--busy", type=int, default=0, help="extra processes spinning on the CPU meanwhile")
    parser.add_argument("--only", default="", help="comma-separated scenarios (default: all)")
    args = parser.parse_args(argv)
    names = [n for n in ("evaluate", "simulate", "train-bc", "train-ppo") if not args.only or n in args.only.split(",")]
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(args.busy)]
    for p in spinners:
        p.start()
    times: dict[str, list[float]] = {n: [] for n in names}
    print(f"cpu count {os.cpu_count()}, {args.busy} busy process(es), load average {os.getloadavg()[0]:.1f}")
    try:
        for _ in range(args.repeat):  # interleaved: a burst of load touches every scenario alike
            for name in names:
                times[name].append(stop_once(name))
    except KeyboardInterrupt:
        print("interrupted: the stops measured so far")
    finally:
        for p in spinners:
            p.terminate()
    print(f"{'scenario':<10} {'stops':>5} {'median s':>9} {'max s':>7}")
    for name, got in times.items():
        if got:
            print(f"{name:<10} {len(got):>5} {statistics.median(got):>9.2f} {max(got):>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
