"""The rules of a run folder: a new run never lands silently on an old one.

* a missing or empty ``out_dir`` starts a fresh run;
* a non-empty one is refused unless ``resume`` (continue from its latest checkpoint) or
  ``overwrite`` (clear it first; only a folder that holds a run, i.e. has ``config.yaml``);
* ``resume`` continues from the checkpoint with the most steps and drops the ``eval.csv`` rows past it
  (those evaluations will be run again). With no checkpoint it is an error, never a silent fresh
  start, unless the folder holds a run (``config.yaml``) stopped before its first checkpoint (during
  behaviour cloning, say): that run starts again from the beginning, and the trainer says so.

``eval_score`` / ``best_score`` are the key of the best model over ``eval.csv`` rows (what a resumed
run must beat). Light on purpose: the env worker processes import the trainer's module, not torch.
"""

from __future__ import annotations

import csv
import os
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


def list_checkpoints(out: Path) -> list[Checkpoint]:
    """The checkpoints in ``out/checkpoints`` (``step_N.zip``), fewest steps first."""
    found = [Checkpoint(p, int(m.group(1))) for p in (out / "checkpoints").glob("step_*.zip")
             if (m := CHECKPOINT.fullmatch(p.name))]
    return sorted(found, key=lambda c: c.steps)


def latest_checkpoint(out: Path) -> Checkpoint | None:
    """The checkpoint with the most steps in ``out/checkpoints``, if any."""
    found = list_checkpoints(out)
    return found[-1] if found else None


def prepare_run_dir(out: Path, *, resume: bool = False, overwrite: bool = False) -> Checkpoint | None:
    """Check ``out`` against the flags before anything is written; returns the checkpoint to resume from
    (``None`` for a new run, or with ``resume`` for a run stopped before its first checkpoint).

    With ``overwrite`` the old run is deleted here; otherwise nothing on disk changes.
    """
    if resume and overwrite:
        raise RunDirError("--resume and --overwrite exclude each other: continue the run or replace it, "
                          "not both")
    if out.exists() and not out.is_dir():
        raise RunDirError(f"out_dir {out} is a file, not a folder")
    if resume:
        found = latest_checkpoint(out)
        if found is None and not (out / "config.yaml").is_file():
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
    """Keep only the ``eval.csv`` rows of evaluations at or before ``steps``; returns the rows kept.

    The file is rewritten under another name and renamed, so a signal never leaves it cut short."""
    if not path.is_file():
        return []
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        header = list(reader.fieldnames or [])
        rows = [row for row in reader if int(row["steps"]) <= steps]
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)
    return rows


def eval_score(rows: list[dict]) -> tuple[float, float]:
    """The best model's key: mean win rate over the anchors, then the most cash (a single anchor such as
    the random agent saturates at 100% early and would freeze the choice)."""
    return (sum(float(r["win_rate"]) for r in rows) / len(rows), sum(float(r["mean_cash"]) for r in rows))


def best_score(rows: list[dict]) -> tuple[float, float]:
    """The best ``eval_score`` among an ``eval.csv``'s evaluations (``(-1, 0)`` with none): a resumed run
    replaces ``best_model.zip`` only with a better model."""
    by_steps: dict[str, list[dict]] = {}
    for row in rows:
        by_steps.setdefault(row["steps"], []).append(row)
    return max((eval_score(group) for group in by_steps.values()), default=(-1.0, 0.0))
