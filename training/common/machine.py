"""Which machine a measurement came from: times compare only between runs on the same processor model."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def cpu_name() -> str:
    """The processor's model name (Linux's /proc/cpuinfo; else what ``platform`` knows)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_name() -> str:
    """The processor model and the cores this process may use, e.g. ``AMD EPYC 7B13, 2 cores``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return f"{cpu_name()}, {cores} core{'s' if cores != 1 else ''}"
