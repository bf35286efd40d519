"""Evaluation of the learner against fixed anchors, on seeds the training never sees.

``evaluate_agent`` plays ``games`` games of an agent against one anchor (seats rotated).
``BackgroundEvaluator`` runs it in a worker process on an ONNX copy of the policy taken
when the evaluation is due, so the training loop never waits for evaluation games
(``eval_async: true``); the trainer collects finished results between steps.
"""

from __future__ import annotations

from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any


def evaluate_agent(agent: Any, *, opponent: str, games: int, first_seed: int, num_players: int, variant: str,
                   max_rounds: int) -> dict[str, Any]:
    """Win rate of ``agent`` against ``opponent`` on seeds ``first_seed ..``, one seat per game in turn.

    A win is first place alone; a first place shared on cash (the engine's seat tie-break aside,
    as in ``fcm evaluate``) is a tie and counts as no win, so early games where every chain ends
    at $0 do not credit the learner's seat.
    """
    from fcm_agents.match import play_game
    from fcm_agents.registry import make_agent

    from ..common.evaluate import wilson_interval

    wins, ties, cash, by_bank = 0, 0, 0.0, 0
    for g in range(games):
        seed = first_seed + g
        seat = g % num_players
        lineup = [make_agent(opponent, seed=seed * 10 + i) for i in range(num_players)]
        lineup[seat] = agent
        result = play_game(lineup, seed=seed, variant=variant, max_rounds=max_rounds)
        top = result.top
        wins += int(top == [seat])
        ties += int(seat in top and len(top) > 1)
        cash += result.cash[seat]
        by_bank += int(result.ended_by == "bank")
    low, high = wilson_interval(wins, games)
    return {"opponent": opponent, "games": games, "wins": wins, "ties": ties, "win_rate": wins / games,
            "win_rate_low": low, "win_rate_high": high, "mean_cash": cash / games, "ended_by_bank": by_bank}


def _evaluate_onnx(model: bytes, opponents: list[str], settings: dict[str, Any]) -> list[dict[str, Any]]:
    from fcm_agents.onnx_agent import OnnxAgent

    agent = OnnxAgent(model, name="learner")
    return [evaluate_agent(agent, opponent=opp, **settings) for opp in opponents]


class BackgroundEvaluator:
    """One worker process; ``submit`` returns at once, ``finished`` hands back completed evaluations in order."""

    def __init__(self, opponents: list[str], **settings: Any):
        self.opponents = list(opponents)
        self.settings = settings
        self._pool = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"))
        self._pending: list[tuple[int, Future]] = []

    def submit(self, steps: int, model: bytes) -> None:
        self._pending.append((steps, self._pool.submit(_evaluate_onnx, model, self.opponents, self.settings)))

    def finished(self, wait: bool = False) -> list[tuple[int, list[dict[str, Any]]]]:
        """``(steps, rows)`` of the evaluations done so far (all of them with ``wait``), oldest first."""
        done = []
        while self._pending and (wait or self._pending[0][1].done()):
            steps, future = self._pending.pop(0)
            done.append((steps, future.result()))
        return done

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=False)
