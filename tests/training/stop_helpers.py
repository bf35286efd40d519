"""Stopping a long command the way a user does: start it, wait until it has kept something, send SIGINT."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

# A stop that takes longer than this is a hang, not a slow machine: the tests check only that. How fast a
# stop is (the target is 2 s) is measured by benchmarks/bench_stop.py and reported in docs/benchmarks.md.
HANG_S = 60.0


def interrupt_once_kept(args: list[str], kept: Path, pattern: str, wait_s: float = 120) -> tuple[int, list[str], float]:
    """Run ``python -m ARGS``; once a file matching ``pattern`` stands in ``kept``, send SIGINT. Returns the
    exit code, the lines of stderr, and the seconds from the signal to the end of the process."""
    process = subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    deadline = time.monotonic() + wait_s
    while not list(kept.glob(pattern)) and time.monotonic() < deadline:
        time.sleep(0.2)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=HANG_S + 30)
    return process.returncode, err.strip().splitlines(), time.monotonic() - sent
