"""Ctrl-C in the first instants of a command: one line and exit code 130, never a traceback of an import or an
ImportError that the interrupt caused (an outside probe saw both in 5 of 7 tries within the first 0.5 s)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest
from cli_helpers import HANG_S, fcm_env_vars

COMMANDS = {
    "evaluate": ["evaluate", "--lineup", "policy,heuristic", "--games", "40", "--max-rounds", "10", "--workers", "2",
                 "--no-records", "--no-progress"],
    "serve": ["serve"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("after_s", [0.02, 0.1, 0.25, 0.5, 0.8])
def test_an_early_ctrl_c_is_one_line_and_exit_130(tmp_path, command, after_s):
    args = [*COMMANDS[command], *(["--out", str(tmp_path / "run")] if command == "evaluate" else [])]
    proc = subprocess.Popen([sys.executable, "-m", "fcm_apps", *args], cwd=tmp_path, env=fcm_env_vars(),
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    time.sleep(after_s)
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole process group, workers included
    _, err = proc.communicate(timeout=HANG_S)
    if "Traceback" in err or "Fatal Python error" in err:
        # the signal came while Python itself was still starting (the site module, runpy: the first tens
        # of milliseconds, before any code of the project runs); no program can answer it there
        ours = re.findall(r'File "[^"]*/(?:apps|fcm_env|agents|training)/[^"]*"', err)
        assert not ours, err  # (how long Python takes to start depends on the machine's load: no time here)
        return
    assert "ImportError" not in err, err
    if proc.returncode == 0 and command == "serve":  # stdin closed before the signal: it ended first, fine
        return
    assert proc.returncode == 130, (proc.returncode, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "interrupted" in lines[0], err
