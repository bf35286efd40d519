"""Evaluation of the learner against fixed anchors, on seeds the training never sees.

``evaluate_agent`` plays ``games`` games of an agent against one anchor (seats rotated).
``BackgroundEvaluator`` runs it in a worker process on an ONNX copy of the policy taken
when the evaluation is due (a file: the trainer keeps it in ``evals/`` until the result is
recorded, so an evaluation cut short by an interrupt runs again on ``--resume``), so the
training loop never waits for evaluation games (``eval_async: true``); the trainer collects
finished results between steps. The worker ignores SIGINT (``fcm_training.common.interrupts``):
the trainer stops it.
"""

from __future__ import annotations

import contextlib
import os
from multiprocessing import get_context
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any


def evaluate_agent(agent: Any, *, opponent: str, games: int, first_seed: int, num_players: int, variant: str,
                   max_rounds: int, engine: str = "auto") -> dict[str, Any]:
    """Win rate of ``agent`` against ``opponent`` on seeds ``first_seed ..``, one seat per game in turn, the games
    on ``engine`` (the same games on either: ``auto``, the native core where it is built, plays them faster).

    A win is first place alone; a first place shared on cash (the engine's seat tie-break aside,
    as in ``fcm evaluate``) is a tie and counts as no win, so early games where every chain ends
    at $0 do not credit the learner's seat.
    """
    from fcm_agents.match import play_game
    from fcm_agents.registry import make_agent

    from ..common.tournament_results import wilson_interval

    wins, ties, cash, by_bank = 0, 0, 0.0, 0
    for g in range(games):
        seed = first_seed + g
        seat = g % num_players
        lineup = [make_agent(opponent, seed=seed * 10 + i) for i in range(num_players)]
        lineup[seat] = agent
        result = play_game(lineup, seed=seed, variant=variant, max_rounds=max_rounds, engine=engine)
        top = result.top
        wins += int(top == [seat])
        ties += int(seat in top and len(top) > 1)
        cash += result.cash[seat]
        by_bank += int(result.ended_by == "bank")
    low, high = wilson_interval(wins, games)
    return {"opponent": opponent, "games": games, "wins": wins, "ties": ties, "win_rate": wins / games,
            "win_rate_low": low, "win_rate_high": high, "mean_cash": cash / games, "ended_by_bank": by_bank}


def evaluate_onnx(model: bytes | str | Path, opponents: list[str], settings: dict[str, Any]) -> list[dict[str, Any]]:
    """``evaluate_agent`` of an exported policy (ONNX bytes or file) against each opponent."""
    from fcm_agents.onnx_agent import OnnxAgent

    agent = OnnxAgent(Path(model).read_bytes() if isinstance(model, (str, Path)) else model, name="learner")
    return [evaluate_agent(agent, opponent=opp, **settings) for opp in opponents]


def _serve(conn: Connection, opponents: list[str], settings: dict[str, Any]) -> None:
    """The worker: evaluate each ``(steps, onnx path)`` it is sent, answer ``(steps, ok, rows or error)``."""
    from ..common.interrupts import worker_signals

    worker_signals()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):  # the trainer is gone
            return
        if job is None:
            return
        steps, path = job
        try:
            reply: tuple[int, bool, Any] = (steps, True, evaluate_onnx(path, opponents, settings))
        except Exception as exc:  # noqa: BLE001 -- the trainer raises it
            reply = (steps, False, RuntimeError(f"{type(exc).__name__}: {exc}"))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return


class BackgroundEvaluator:
    """One worker process, started at the first ``submit``; ``finished`` hands back completed evaluations
    in the order they were submitted. ``close`` lets it finish; ``terminate`` ends it at once."""

    def __init__(self, opponents: list[str], **settings: Any):
        self.opponents = list(opponents)
        self.settings = settings
        self._conn: Connection | None = None
        self._process = None
        self.pending: list[int] = []  # steps of the evaluations submitted and not yet handed back

    def _start(self) -> None:
        from ..common.interrupts import deferred_signals, register_worker, signals_blocked

        context = get_context("spawn")
        parent, child = context.Pipe()
        # the worker starts with SIGINT/SIGTERM blocked, until it ignores SIGINT; a stop that another thread
        # takes meanwhile raises only once the worker is registered (ProcessPool._start says why)
        with deferred_signals(), signals_blocked():
            self._process = context.Process(target=_serve, args=(child, self.opponents, self.settings),
                                            daemon=True, name="fcm-eval-worker")
            self._process.start()
            register_worker(self._process, kill=True)  # the first signal inside stop_on_signals kills it
        child.close()
        self._conn = parent

    def submit(self, steps: int, model: str | Path) -> None:
        """Evaluate the ONNX file ``model`` (the policy at ``steps``); returns at once."""
        if self._process is None:
            self._start()
        self._conn.send((steps, os.fspath(model)))  # a few bytes: never waits for the worker
        self.pending.append(steps)

    def finished(self, wait: bool = False) -> list[tuple[int, list[dict[str, Any]]]]:
        """``(steps, rows)`` of the evaluations done so far (all of them with ``wait``), oldest first."""
        done = []
        while self.pending and (wait or self._conn.poll()):
            try:
                steps, ok, value = self._conn.recv()
            except (EOFError, OSError):
                code = self._process.exitcode if self._process is not None else None
                raise RuntimeError(f"the evaluation worker process ended (exit code {code}) during the "
                                   f"evaluation at {self.pending[0]:,} steps") from None
            self.pending.remove(steps)
            if not ok:
                raise value
            done.append((steps, value))
        return done

    def close(self) -> None:
        """Stop the worker once it has finished what it was given (``finished(wait=True)`` first)."""
        if self._process is None:
            return
        with contextlib.suppress(OSError):
            self._conn.send(None)
        self._process.join(10)
        self.terminate()

    def terminate(self) -> None:
        """End the worker now (an interrupt): the evaluations it had are lost, not their files."""
        if self._process is None:
            return
        from ..common.interrupts import forget_worker

        if self._process.is_alive():
            self._process.kill()
        self._process.join(1)
        forget_worker(self._process)
        self._conn.close()
        self._process = None
