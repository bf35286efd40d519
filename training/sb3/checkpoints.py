"""Checkpoints of a self-play run: what ``--resume`` continues from, written whole or not at all, rotated.

``checkpoints/step_N.zip`` is an SB3 ``MaskablePPO`` save (policy and value weights, the Adam state, the
step and update counts) with one more entry, ``fcm/state.json``: the opponent pool (the steps of the
snapshots in it, oldest first) and the torch, numpy and Python random states. SB3 ignores the extra
entry, so a checkpoint loads anywhere a model does (``MaskablePPO.load``, ``PolicyAgent``). The
snapshots themselves are ONNX files in ``checkpoints/pool/step_S.onnx``, shared by the checkpoints
that hold them (a pool of 5 would otherwise add 5 copies of the network to every checkpoint).

Every file is written to a temporary name and renamed, so a checkpoint on disk is never cut short by
a signal or a full disk; ``read_checkpoint`` still checks each one (CRC of every entry, the pool files
it names) and refuses a damaged one with one line naming it. After each save only the
``keep_checkpoints`` most recent checkpoints stay (``None``: all of them), and the pool files no kept
checkpoint names go.
"""

from __future__ import annotations

import base64
import io
import json
import os
import random
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .run_dir import CHECKPOINT, Checkpoint, RunDirError, list_checkpoints

STATE_ENTRY = "fcm/state.json"
STATE_FORMAT = 1
POOL_DIR = "pool"
POOL_FILE = re.compile(r"step_(\d+)\.onnx")
#: SB3 keeps these in a save; a resumed run starts new games, so they would only add megabytes
#: (``_last_obs`` alone is n_envs observations of 100 KB)
NOT_SAVED = ("_last_obs", "_last_original_obs", "_last_episode_starts", "ep_info_buffer", "ep_success_buffer")


class CheckpointError(RunDirError):
    """A checkpoint that cannot be resumed from (damaged, cut short, a pool file missing): one line naming it."""


@dataclass
class TrainerState:
    """What a checkpoint holds besides the SB3 model: the opponent pool and the random states."""

    steps: int
    pool: list[int] = field(default_factory=list)  # steps of the pool's snapshots, oldest first
    rng: dict[str, Any] | None = None

    def to_json(self) -> str:
        return json.dumps({"format": STATE_FORMAT, "steps": self.steps, "pool": self.pool, "rng": self.rng})


# ------------------------------------------------------------------ random states


def capture_rng() -> dict[str, Any]:
    """The torch (CPU), numpy (global) and Python random states: what SB3 samples actions and minibatches with."""
    import torch

    kind, keys, pos, has_gauss, gauss = np.random.get_state()
    version, state, gauss_next = random.getstate()
    return {"torch": base64.b64encode(torch.get_rng_state().numpy().tobytes()).decode(),
            "numpy": [kind, keys.tolist(), pos, has_gauss, gauss],
            "python": [version, list(state), gauss_next]}


def restore_rng(rng: dict[str, Any]) -> None:
    import torch

    torch.set_rng_state(torch.frombuffer(bytearray(base64.b64decode(rng["torch"])), dtype=torch.uint8))
    kind, keys, pos, has_gauss, gauss = rng["numpy"]
    np.random.set_state((kind, np.asarray(keys, dtype=np.uint32), pos, has_gauss, gauss))
    version, state, gauss_next = rng["python"]
    random.setstate((version, tuple(state), gauss_next))


# ------------------------------------------------------------------ writing


def write_atomic(path: Path, data: bytes) -> None:
    """``data`` at ``path``, never half there: written to a temporary name, synced, renamed."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with tmp.open("wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def model_bytes(model, state: TrainerState | None = None) -> bytes:
    """An SB3 save of ``model`` in memory, with ``state`` as ``fcm/state.json`` when given."""
    buffer = io.BytesIO()
    model.save(buffer, exclude=list(NOT_SAVED))
    if state is not None:
        with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(STATE_ENTRY, state.to_json())
    return buffer.getvalue()


def save_model(model, path: Path) -> Path:
    """``model`` as ``path`` (an SB3 zip), written whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, model_bytes(model))
    return path


def save_checkpoint(model, out: Path, state: TrainerState, snapshots: dict[int, bytes],
                    keep: int | None) -> Path:
    """``checkpoints/step_N.zip`` with its pool files, then the rotation; returns the checkpoint's path."""
    folder = out / "checkpoints"
    (folder / POOL_DIR).mkdir(parents=True, exist_ok=True)
    for steps in state.pool:
        path = folder / POOL_DIR / f"step_{steps}.onnx"
        if not path.exists():
            write_atomic(path, snapshots[steps])
    path = folder / f"step_{state.steps}.zip"
    write_atomic(path, model_bytes(model, state))
    rotate(out, keep)
    return path


def rotate(out: Path, keep: int | None) -> list[Path]:
    """Delete all but the ``keep`` most recent checkpoints (``None`` keeps all), then the pool files that no
    kept checkpoint names; returns what was deleted."""
    found = list_checkpoints(out)
    gone = [c.path for c in found[:-keep]] if keep is not None else []
    for path in gone:
        path.unlink(missing_ok=True)
    pool = out / "checkpoints" / POOL_DIR
    if pool.is_dir():
        named: set[int] = set()
        for checkpoint in found[-keep:] if keep is not None else found:
            try:
                named.update(_read_state(checkpoint.path).pool)
            except (OSError, ValueError, KeyError, zipfile.BadZipFile):
                return gone  # a checkpoint that cannot be read keeps every pool file: resume says what is wrong
        for file in pool.iterdir():
            if (m := POOL_FILE.fullmatch(file.name)) and int(m.group(1)) not in named:
                file.unlink(missing_ok=True)
                gone.append(file)
    return gone


# ------------------------------------------------------------------ reading


def _read_state(path: Path) -> TrainerState:
    with zipfile.ZipFile(path) as archive:
        if STATE_ENTRY not in archive.namelist():
            return TrainerState(steps=-1)
        data = json.loads(archive.read(STATE_ENTRY))
    return TrainerState(steps=int(data["steps"]), pool=[int(s) for s in data["pool"]], rng=data.get("rng"))


def read_checkpoint(checkpoint: Checkpoint, out: Path) -> tuple[TrainerState, dict[int, bytes]]:
    """The trainer state and the pool snapshots of ``checkpoint``, every byte checked first.

    Raises ``CheckpointError`` (one line, naming the file and what to do) for a damaged or cut-short
    checkpoint or a missing pool file. A checkpoint of an older version (no ``fcm/state.json``) resumes
    with an empty pool and fresh random states.
    """
    path = checkpoint.path
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            broken = archive.testzip()
            if broken is not None:
                raise ValueError(f"its entry {broken} fails its CRC check")
            if "data" not in names or "policy.pth" not in names:
                raise ValueError("it is not an SB3 model save (no data or policy.pth in it)")
        state = _read_state(path)
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
        raise _damaged(path, checkpoint, out, str(exc) or type(exc).__name__) from None
    if state.steps == -1:  # written before checkpoints held the trainer's state
        return TrainerState(steps=checkpoint.steps), {}
    snapshots = {}
    for steps in state.pool:
        file = out / "checkpoints" / POOL_DIR / f"step_{steps}.onnx"
        try:
            snapshots[steps] = file.read_bytes()
        except OSError:
            raise CheckpointError(f"checkpoint {path} needs the opponent snapshot {file}, which is missing: "
                                  f"{_what_to_do(path, out)}") from None
    return state, snapshots


def _damaged(path: Path, checkpoint: Checkpoint, out: Path, why: str) -> CheckpointError:
    return CheckpointError(f"checkpoint {path} is damaged or cut short ({why}): {_what_to_do(path, out)}")


def _what_to_do(path: Path, out: Path) -> str:
    """Resume from the checkpoint before, or start again."""
    earlier = [c for c in list_checkpoints(out) if c.path != path]
    if earlier:
        return f"delete it to resume from {earlier[-1].path.name} ({earlier[-1].steps:,} steps)"
    return "delete it, or start the run again with --overwrite"


def load_model(checkpoint: Checkpoint, out: Path, env, device: str):
    """``MaskablePPO.load`` of a checked checkpoint; a file SB3 still cannot read is refused by name."""
    from sb3_contrib import MaskablePPO

    try:
        return MaskablePPO.load(str(checkpoint.path), env=env, device=device)
    except Exception as exc:  # noqa: BLE001 -- any failure to read it is one line naming the file
        raise _damaged(checkpoint.path, checkpoint, out, f"{type(exc).__name__}: {exc}".splitlines()[0]) from None


__all__ = ["CHECKPOINT", "CheckpointError", "TrainerState", "capture_rng", "load_model", "read_checkpoint",
           "restore_rng", "rotate", "save_checkpoint", "save_model", "write_atomic"]
