"""What the self-play trainer does between PPO's rollouts, and what an interrupt falls back to.

``SelfPlayCallback`` takes snapshots into the opponent pool, writes checkpoints and starts evaluations
at rollout boundaries: the policy only changes in the PPO update, so a boundary is the one moment
where the model, the optimizer, the step count and the pool belong together. It remembers the last
boundary (and, during an update, the weights and Adam state from before it), so an interrupt saves
exactly that state (``fall_back``), whatever it cut short: the rollout being collected is collected
again after ``--resume``, an update cut in the middle is done again.

Evaluations: the model at step ``S`` is kept as ``evals/step_S.zip`` (and ``.onnx`` for the background
worker) until its result is in ``eval.csv``; the best one is copied to ``best_model.zip``. Files still
there when a run resumes are evaluations an interrupt cut short, and run again (``resume_pending``).
"""

from __future__ import annotations

import copy
import csv
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

from ..common.config import Config
from ..common.interrupts import deferred_signals
from .checkpoints import TrainerState, capture_rng, save_checkpoint, save_model, write_atomic
from .run_dir import eval_score
from .timing import StageTimer

EVALS = "evals"
EVAL_MODEL = re.compile(r"step_(\d+)\.zip")


# ------------------------------------------------------------------ the callback


@dataclass
class Boundary:
    """The state at a rollout boundary: what a checkpoint written then holds."""

    steps: int
    n_updates: int
    pool: list[int]
    rng: dict[str, Any]


class SelfPlayCallback(BaseCallback):
    """Snapshots, checkpoints and evaluations at rollout boundaries; the last boundary for interrupts.

    ``pool``: ``(steps, ONNX bytes)`` of the snapshots already in every process's pool (a resumed run's);
    ``recorded``: the steps whose evaluation is in ``eval.csv``; ``evaluator``: a ``BackgroundEvaluator``
    (``eval_async``) or ``None`` (evaluations on the training loop), where ``evaluate(policy, opponent)``
    plays them (``fcm_training.sb3.selfplay.evaluate_policy``: benchmarks/bench_training.py times it there).
    """

    def __init__(self, config: Config, venv, out: Path, timer: StageTimer, *, best: tuple[float, float] = (-1.0, 0.0),
                 pool: list[tuple[int, bytes]] | None = None, recorded: set[int] | None = None, evaluator=None,
                 evaluate: Callable[[Any, str], dict] | None = None):
        super().__init__()
        self.config, self.venv, self.out, self.timer = config, venv, out, timer
        self.best = best
        self.pool: deque[tuple[int, bytes]] = deque(pool or [], maxlen=config.pool_size)
        self.recorded = set(recorded or ())
        self.evaluator = evaluator
        self.evaluate = evaluate
        self.last_eval = -1
        self.next_snapshot = self.next_eval = self.next_checkpoint = 0
        self.boundary: Boundary | None = None
        self._before_update: tuple[dict, dict] | None = None
        self._update_started: float | None = None
        self._ppo_started: float | None = None
        self.ppo_seconds = 0.0

    # ---------------------------------------------------------------- SB3's hooks

    def _on_training_start(self) -> None:
        steps = self.model.num_timesteps
        config = self.config
        self.next_snapshot = (steps // config.snapshot_every + 1) * config.snapshot_every
        self.next_eval = (steps // config.eval_every + 1) * config.eval_every
        self.next_checkpoint = (steps // config.checkpoint_every + 1) * config.checkpoint_every
        # rollouts' forward passes (MaskablePPO calls policy(obs, action_masks=...)); the update is the
        # time from the end of a rollout to the start of the next one
        self.model.policy.forward = self.timer.wrap("forward", self.model.policy.forward)
        self._ppo_started = time.perf_counter()
        self.mark_boundary()

    def _on_rollout_start(self) -> None:
        self._end_update()
        steps = self.model.num_timesteps
        if steps >= self.next_snapshot:
            self.take_snapshot(steps)
            self.next_snapshot = (steps // self.config.snapshot_every + 1) * self.config.snapshot_every
        self.mark_boundary()
        if steps >= self.next_checkpoint:
            self.checkpoint()
            self.next_checkpoint = (steps // self.config.checkpoint_every + 1) * self.config.checkpoint_every
        if steps >= self.next_eval:
            self.start_eval(steps)
            self.next_eval = (steps // self.config.eval_every + 1) * self.config.eval_every

    def _on_rollout_end(self) -> None:
        # the update may be cut short by a signal: the weights and Adam state to fall back to
        policy = self.model.policy
        self._before_update = ({k: v.detach().clone() for k, v in policy.state_dict().items()},
                               copy.deepcopy(policy.optimizer.state_dict()))
        self._update_started = time.perf_counter()

    def _on_step(self) -> bool:
        self.collect()
        return True

    def _on_training_end(self) -> None:
        self._end_update()  # the last update
        self.mark_boundary()
        if self._ppo_started is not None:
            self.ppo_seconds += time.perf_counter() - self._ppo_started
            self._ppo_started = None

    def _end_update(self) -> None:
        if self._update_started is not None:
            self.timer.add("update", time.perf_counter() - self._update_started)
            self._update_started = None

    # ---------------------------------------------------------------- boundaries and interrupts

    def mark_boundary(self) -> None:
        """The model is whole now (no update under way): remember what a checkpoint of this moment holds."""
        self.boundary = Boundary(self.model.num_timesteps, self.model._n_updates, [s for s, _ in self.pool],
                                 capture_rng())
        self._before_update = None

    def fall_back(self) -> Boundary:
        """After an interrupt: the model as it was at the last boundary (weights, Adam state, step and update
        counts); returns that boundary. The pool needs nothing: it only changes at boundaries."""
        if self.boundary is None:  # interrupted before the first rollout: nothing has changed yet
            self.mark_boundary()
        if self._before_update is not None:
            weights, optimizer = self._before_update
            self.model.policy.load_state_dict(weights)
            self.model.policy.optimizer.load_state_dict(optimizer)
        self.model.num_timesteps = self.boundary.steps
        self.model._n_updates = self.boundary.n_updates
        return self.boundary

    def take_snapshot(self, steps: int) -> None:
        """A frozen ONNX copy of the learner joins every env process's opponent pool."""
        from ..common.export import onnx_bytes

        with self.timer.stage("snapshots"):
            model = onnx_bytes(self.model.policy)
            self.venv.call_factory("add_snapshot", model)
            self.pool.append((steps, model))

    def checkpoint(self, boundary: Boundary | None = None) -> Path:
        """``checkpoints/step_N.zip`` of the last boundary (the model must be at it), then the rotation."""
        b = boundary or self.boundary
        state = TrainerState(steps=b.steps, pool=b.pool, rng=b.rng)
        with self.timer.stage("checkpoints"), deferred_signals():
            return save_checkpoint(self.model, self.out, state, dict(self.pool), self.config.keep_checkpoints)

    # ---------------------------------------------------------------- evaluations

    @property
    def pending(self) -> list[int]:
        return list(self.evaluator.pending) if self.evaluator is not None else []

    def start_eval(self, steps: int) -> None:
        """Evaluate the model at ``steps``: in the background worker (returns at once) or here."""
        from ..common.export import onnx_bytes

        self.last_eval = steps
        folder = self.out / EVALS
        with deferred_signals():
            save_model(self.model, folder / f"step_{steps}.zip")
        if self.evaluator is not None:
            with self.timer.stage("snapshots"):
                model = onnx_bytes(self.model.policy)
            with deferred_signals():
                write_atomic(folder / f"step_{steps}.onnx", model)
            self.evaluator.submit(steps, folder / f"step_{steps}.onnx")
            return
        with self.timer.stage("evaluation"):
            rows = [self.evaluate(self.model.policy, opp) for opp in self.config.eval_opponents]
        self.record(steps, rows)

    def collect(self, wait: bool = False) -> None:
        """Record the background evaluations that have finished (all of them with ``wait``)."""
        if self.evaluator is not None and self.evaluator.pending:
            for steps, rows in self.evaluator.finished(wait=wait):
                self.record(steps, rows)

    def record(self, steps: int, rows: list[dict]) -> None:
        """An evaluation's rows into ``eval.csv`` and TensorBoard, the best model kept; written whole."""
        logger = getattr(self.model, "_logger", None)  # none before the first learn()
        if logger is not None:
            for row in rows:
                logger.record(f"eval/win_rate_vs_{row['opponent']}", row["win_rate"])
                logger.record(f"eval/mean_cash_vs_{row['opponent']}", row["mean_cash"])
            logger.dump(steps)
        saved = self.out / EVALS / f"step_{steps}.zip"
        with deferred_signals():
            path = self.out / "eval.csv"
            new = not path.exists()
            with path.open("a", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=["steps", *rows[0].keys()])
                if new:
                    writer.writeheader()
                for row in rows:
                    writer.writerow({"steps": steps, **row})
            self.recorded.add(steps)
            score = eval_score(rows)
            if score > self.best and saved.exists():
                self.best = score
                write_atomic(self.out / "best_model.zip", saved.read_bytes())
                (self.out / "best_model.txt").write_text(f"steps {steps}\n")
            saved.unlink(missing_ok=True)
            saved.with_suffix(".onnx").unlink(missing_ok=True)
        summary = ", ".join(f"{r['opponent']} {r['win_rate']:.2f}" for r in rows)
        print(f"[eval @ {steps} steps] win rate vs {summary}", flush=True)

    def resume_pending(self, steps: int) -> None:
        """Evaluations an interrupt cut short (files left in ``evals/``): run again when they are of the
        run's past (at or before ``steps``), dropped when they are of its future (they will come again)."""
        from sb3_contrib import MaskablePPO

        from ..common.export import onnx_bytes

        folder = self.out / EVALS
        if not folder.is_dir():
            return
        left = sorted((int(m.group(1)), p) for p in folder.glob("step_*.zip") if (m := EVAL_MODEL.fullmatch(p.name)))
        for file in folder.glob("step_*.onnx"):  # an ONNX copy whose model is gone
            if not file.with_suffix(".zip").exists():
                file.unlink()
        for at, path in left:
            if at > steps or at in self.recorded:
                path.unlink()
                path.with_suffix(".onnx").unlink(missing_ok=True)
                continue
            print(f"the evaluation at {at:,} steps did not finish: it runs again", flush=True)
            policy = MaskablePPO.load(str(path), device="cpu").policy
            self.last_eval = max(self.last_eval, at)
            if self.evaluator is not None:
                if not path.with_suffix(".onnx").exists():
                    write_atomic(path.with_suffix(".onnx"), onnx_bytes(policy))
                self.evaluator.submit(at, path.with_suffix(".onnx"))
            else:
                with self.timer.stage("evaluation"):
                    rows = [self.evaluate(policy, opp) for opp in self.config.eval_opponents]
                self.record(at, rows)

    # ---------------------------------------------------------------- the end of a run

    def finish(self) -> Path:
        """The end of the training: the last checkpoint and ``final_model.zip``, the final evaluation (once:
        none when one ran at this step already), and the wait for the evaluations still running."""
        steps = self.model.num_timesteps
        if self.boundary is None or self.boundary.steps != steps:
            self.mark_boundary()
        path = self.out / "checkpoints" / f"step_{steps}.zip"
        if not path.exists():
            path = self.checkpoint()
        with deferred_signals():
            save_model(self.model, self.out / "final_model.zip")
        if steps not in self.recorded and steps not in self.pending and self.last_eval != steps:
            self.start_eval(steps)
        if self.pending:
            print(f"training done at {steps:,} steps; waiting for the evaluation at "
                  f"{', '.join(f'{s:,}' for s in self.pending)} steps", flush=True)
            with self.timer.stage("evaluation"):
                self.collect(wait=True)
        if self.evaluator is not None:
            self.evaluator.close()
        folder = self.out / EVALS
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()  # every evaluation is in eval.csv: nothing to keep
        return path
