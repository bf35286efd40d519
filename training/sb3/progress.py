"""Progress bars of training, on rich (the project's one progress-bar library).

``ProgressBar`` is an SB3 callback: ``model.learn(..., callback=ProgressBar())``. It replaces SB3's
``progress_bar=True``, which draws with ``tqdm.rich`` (experimental: a ``TqdmExperimentalWarning`` at
every start) and counts to the ``total_timesteps`` asked for although on-policy algorithms train whole
rollouts (``20,480/20,000`` at the end). This bar counts to the steps that will be trained, and its
rate is the mean since it started (learner steps per second of the PPO stage, updates included), the
figure the trainer's summary prints as well. ``bar`` is the same look for other loops (behaviour cloning).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text
from stable_baselines3.common.callbacks import BaseCallback


class _MeanRate(ProgressColumn):
    """Units per second since the task started (rich's own speed is a moving estimate over 30 s)."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        done = task.completed - task.fields.get("initial", 0)
        rate = f"{done / elapsed:,.0f}" if elapsed > 0 and done > 0 else "-"
        return Text(f"{rate}/s", style="progress.data.speed")


def _progress(unit: str) -> Progress:
    return Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                    TextColumn("{task.completed:,.0f}/{task.total:,.0f} " + unit), _MeanRate(),
                    TimeElapsedColumn(), TextColumn("<"), TimeRemainingColumn(),
                    console=Console(stderr=True))


@contextlib.contextmanager
def bar(total: int, description: str, unit: str, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """An ``advance(n)`` function drawing a rich bar on stderr (nothing when not ``enabled``)."""
    if not enabled:
        yield lambda n: None
        return
    with _progress(unit) as progress:
        task = progress.add_task(description, total=total)
        yield lambda n: progress.advance(task, n)


def trained_total(model, total_timesteps: int) -> int:
    """The step count ``learn`` really ends at: on-policy algorithms collect whole rollouts of n_envs x n_steps."""
    start = model.num_timesteps
    rollout = getattr(model, "n_steps", 0) * model.n_envs
    if rollout <= 0 or total_timesteps <= start:
        return max(total_timesteps, start)
    return start + -(-(total_timesteps - start) // rollout) * rollout


class ProgressBar(BaseCallback):
    """SB3 callback: a rich bar of learner steps, from the model's step count to the end of the last rollout."""

    def __init__(self, description: str = "training", min_interval_s: float = 0.1) -> None:
        super().__init__()
        self.description = description
        self.min_interval_s = min_interval_s
        self.progress: Progress | None = None
        self.total = 0
        self._task = None
        self._drawn = 0.0

    def _on_training_start(self) -> None:
        # SB3 hands its locals over: total_timesteps is the step count it stops at (past steps included)
        self.total = trained_total(self.model, int(self.locals["total_timesteps"]))
        start = self.model.num_timesteps
        self.progress = _progress("steps")
        self._task = self.progress.add_task(self.description, total=self.total, completed=start, initial=start)
        self.progress.start()

    def _on_step(self) -> bool:
        now = time.monotonic()
        if self.progress is not None and now - self._drawn >= self.min_interval_s:
            self._drawn = now
            self.progress.update(self._task, completed=self.num_timesteps)
        return True

    def _on_training_end(self) -> None:
        if self.progress is not None:
            self.progress.update(self._task, completed=self.num_timesteps)
        self.close()

    def close(self) -> None:
        """Stop drawing (also after an exception, where SB3 calls no end of training)."""
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
