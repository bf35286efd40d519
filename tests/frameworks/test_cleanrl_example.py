"""examples/masked_ppo.py, the one-file masked PPO (CleanRL style), runs to its result line on a tiny budget."""

from __future__ import annotations

import subprocess
import sys

import pytest
from framework_helpers import ROOT, docs_snippet

pytest.importorskip("torch")

SCRIPT = ROOT / "examples" / "masked_ppo.py"


def test_the_example_trains_and_prints_a_result():
    command = docs_snippet("cleanrl").splitlines()[0]  # the tiny run the docs page shows
    assert command.startswith("python examples/masked_ppo.py --total-steps 256")
    args = command.split("#")[0].split()[2:]
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("iteration 1/1  steps 256")
    assert lines[-1].startswith("result: won ") and "of 2 greedy games against random players" in lines[-1]


def test_the_example_refuses_an_unknown_opponent():
    done = subprocess.run([sys.executable, str(SCRIPT), "--opponent", "nobody"], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, check=False)
    assert done.returncode == 2 and "--opponent must be random or heuristic" in done.stderr


def test_every_flag_says_what_it_does():
    done = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, check=False)
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "--total-steps INT learner decisions to train on, over all envs (default: 8192)" in text
    assert "--opponent STR who plays the other seats: random or heuristic (default: random)" in text
    assert text.count("(default: ") == 20  # every setting of Args
