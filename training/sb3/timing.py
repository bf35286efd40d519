"""Where a training run's wall time goes: named stages timed in place, reported as a split.

The self-play trainer wraps the parts of a run in ``StageTimer`` stages:

* ``env``: stepping the games (the learner's action, encoding its next observation and mask),
  *without* the opponents' decisions, which are timed apart;
* ``opponent/<kind>``: the decisions of snapshot, heuristic and random opponents;
* ``forward``: the learner's policy forward passes while collecting rollouts;
* ``update``: the PPO update (``model.train()``);
* ``evaluation``: evaluations on the training loop (when they run there: see ``eval_async``);
* ``behaviour_cloning``: the imitation warm start;
* ``other``: the rest of the wall time (SB3's rollout buffer, callbacks, logging, checkpoints).

Stages never overlap: an opponent's time is subtracted from the ``env`` stage it happens in.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class StageTimer:
    """Accumulates seconds per stage; nested stages are subtracted from the stage around them."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self._clock = clock  # a test passes a fake clock, so its figures do not depend on the machine's load
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[list[Any]] = []  # [name, start, time spent in nested stages]
        self.started = clock()

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = self._clock()
        self._stack.append([name, start, 0.0])
        try:
            yield
        finally:
            _, _, nested = self._stack.pop()
            spent = self._clock() - start
            self.seconds[name] += spent - nested
            self.calls[name] += 1
            if self._stack:
                self._stack[-1][2] += spent

    def add(self, name: str, seconds: float) -> None:
        """Time measured elsewhere (between two callbacks, say), outside any open stage."""
        self.seconds[name] += seconds
        self.calls[name] += 1

    def wrap(self, name: str, fn: Callable) -> Callable:
        """``fn`` timed as stage ``name`` on every call."""

        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.stage(name):
                return fn(*args, **kwargs)

        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        return timed

    def split(self, wall: float | None = None) -> dict[str, dict[str, float]]:
        """``{stage: {seconds, share, calls}}`` with ``other`` = wall time not in any stage."""
        wall = self._clock() - self.started if wall is None else wall
        rows = {name: {"seconds": s, "calls": self.calls[name]} for name, s in sorted(self.seconds.items())}
        rows["other"] = {"seconds": max(0.0, wall - sum(self.seconds.values())), "calls": 0}
        for row in rows.values():
            row["share"] = row["seconds"] / wall if wall > 0 else 0.0
        rows["wall"] = {"seconds": wall, "calls": 0, "share": 1.0}
        return rows

    def write(self, path: str | Path, **extra: Any) -> dict[str, Any]:
        """The split (and ``extra`` facts such as steps) as JSON at ``path``; returns what was written."""
        data = {"split": self.split(), **extra}
        Path(path).write_text(json.dumps(data, indent=2))
        return data


class TimedAgent:
    """An opponent whose decisions are timed as ``opponent/<kind>`` (same answers, same name)."""

    def __init__(self, agent: Any, kind: str, timer: StageTimer):
        self.agent = agent
        self.name = getattr(agent, "name", kind)
        stage = f"opponent/{kind}"
        if callable(getattr(agent, "act_on_game", None)):
            self.act_on_game = timer.wrap(stage, agent.act_on_game)
        if callable(getattr(agent, "act", None)):
            self.act = timer.wrap(stage, agent.act)
        # what the agent reads: a native game as it is (the env then hands it one), as the agent says
        self.plays_native = bool(getattr(agent, "plays_native", False))
        self.reads_legal_actions_only = bool(getattr(agent, "reads_legal_actions_only", False))

    def reset(self) -> None:
        reset = getattr(self.agent, "reset", None)
        if callable(reset):
            reset()


def format_split(split: dict[str, dict[str, float]], steps: int | None = None,
                 ppo_seconds: float | None = None) -> str:
    """A small text table of a split (for logs and docs).

    Two rates, each saying what it divides by: over the PPO stage (``ppo_seconds``, rollouts and
    updates: the training progress bar's rate) and over the whole wall time (start-up, behaviour
    cloning and the wait for the last evaluation included)."""
    wall = split["wall"]["seconds"]
    lines = [f"{'stage':<22}{'seconds':>10}{'share':>9}"]
    for name, row in sorted(split.items(), key=lambda kv: -kv[1]["seconds"]):
        if name != "wall":
            lines.append(f"{name:<22}{row['seconds']:>10.1f}{row['share']:>9.1%}")
    lines.append(f"{'wall':<22}{wall:>10.1f}")
    if steps and ppo_seconds:
        lines.append(f"learner steps {steps:,}: {steps / ppo_seconds:,.0f} steps/s over the {ppo_seconds:.1f} s of "
                     f"PPO (the progress bar's rate), {steps / wall:,.0f} steps/s over the {wall:.1f} s wall time")
    elif steps:
        lines.append(f"learner steps {steps:,}: {steps / wall:,.0f} steps/s over the {wall:.1f} s wall time")
    return "\n".join(lines)
