"""The rules of a run folder: a new run never lands silently on an old one.

* a missing or empty ``out_dir`` starts a fresh run;
* a non-empty one is refused unless ``resume`` (continue from its latest checkpoint) or
  ``overwrite`` (clear it first; only a folder that holds a run, i.e. has ``config.yaml``);
* ``resume`` with no checkpoint is an error, never a silent fresh start, and it drops the
  ``eval.csv`` rows past the checkpoint (those evaluations will be run again).
"""

from __future__ import annotations

import csv
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

CHECKPOINT = re.compile(r"step_(\d+)\.zip")


class RunDirError(ValueError):
    """The run folder does not fit the request (one line, naming the folder and the flag to use)."""


@dataclass(frozen=True)
class Checkpoint:
    path: Path
    steps: int


def latest_checkpoint(out: Path) -> Checkpoint | None:
    """The checkpoint with the most steps in ``out/checkpoints`` (``step_N.zip``), if any."""
    found = [Checkpoint(p, int(m.group(1))) for p in (out / "checkpoints").glob("step_*.zip")
             if (m := CHECKPOINT.fullmatch(p.name))]
    return max(found, key=lambda c: c.steps, default=None)


def prepare_run_dir(out: Path, *, resume: bool = False, overwrite: bool = False) -> Checkpoint | None:
    """Check ``out`` against the flags before anything is written; returns the checkpoint to resume from.

    With ``overwrite`` the old run is deleted here; otherwise nothing on disk changes.
    """
    if resume and overwrite:
        raise RunDirError("--resume and --overwrite exclude each other: continue the run or replace it, "
                          "not both")
    if out.exists() and not out.is_dir():
        raise RunDirError(f"out_dir {out} is a file, not a folder")
    if resume:
        found = latest_checkpoint(out)
        if found is None:
            raise RunDirError(f"nothing to resume in {out}: no checkpoints/step_N.zip there "
                              "(drop --resume to start a new run)")
        return found
    if out.is_dir() and any(out.iterdir()):
        if not overwrite:
            raise RunDirError(f"out_dir {out} is not empty: use --resume to continue the run in it, "
                              "--overwrite to replace it, or --set out_dir=... for a new folder")
        if not (out / "config.yaml").is_file():
            raise RunDirError(f"--overwrite clears only a run folder and {out} has no config.yaml: "
                              "choose another out_dir")
        shutil.rmtree(out)
    return None


def trim_eval_rows(path: Path, steps: int) -> list[dict[str, str]]:
    """Keep only the ``eval.csv`` rows of evaluations at or before ``steps``; returns the rows kept."""
    if not path.is_file():
        return []
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        header = list(reader.fieldnames or [])
        rows = [row for row in reader if int(row["steps"]) <= steps]
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    return rows
