"""Behaviour-cloning demonstrations played in parallel: games in lock step, the student asked in batches.

``imitation.collect`` plays its games one after another and asks the torch student one decision at a
time; its roll-in draws come from one generator shared by all the games, so it cannot be split over
processes. Here:

* the seeds are cut into chunks of ``chunk`` games (a fixed cut, whatever the number of workers);
* a chunk's games advance in lock step: at each step every unfinished game takes one decision, and
  the decisions the student makes (the DAgger roll-ins) go to the student in one batch;
* the student is the policy's ONNX graph (``fcm_training.common.export.onnx_bytes``), run by
  onnxruntime on one thread in each worker, so workers need no torch model and no torch threads;
* every game draws from its own generator (``[*stream, seed]``): whether a seat rolls in with the
  student, and which action the student samples.

So the demonstrations are the same, row for row, with 1 or N workers (tested), and chunks spread over
``workers`` processes (``map_in_processes``: Ctrl-C stops them at once).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fcm_env.encoding import CODEC, FLAT_SIZE, NUM_ACTIONS, Observer, legal_action_ids
from fcm_env.engine.game import Game

from ..common.interrupts import stop_on_signals
from ..common.process_pool import map_in_processes
from .demonstrations import Demonstrations, Recorder, teachers_for


class BatchStudent:
    """Samples the student's masked policy for many positions in one onnxruntime call."""

    def __init__(self, graph: bytes):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # one worker, one core: no thread pool spinning beside the games
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(graph, options, providers=["CPUExecutionProvider"])

    def sample(self, obs: np.ndarray, masks: np.ndarray, legal: list[np.ndarray],
               rngs: list[np.random.Generator]) -> list[int]:
        """One action id per row of ``obs``: drawn from the softmax of its legal logits with its own ``rngs[i]``."""
        (logits,) = self.session.run(["masked_logits"], {"observation": obs, "action_mask": masks})
        chosen = []
        for row, ids, rng in zip(logits, legal, rngs, strict=True):
            z = row[ids].astype(np.float64)
            p = np.exp(z - z.max())
            cumulative = np.cumsum(p)
            k = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
            chosen.append(int(ids[min(k, ids.size - 1)]))
        return chosen


def collect_chunk(seeds: Sequence[int], *, num_players: int, variant: str, max_rounds: int, reward: str,
                  shaping: str | None, gamma: float, beta: float = 1.0, student: bytes | None = None,
                  stream: int | Sequence[int] = 0) -> Demonstrations:
    """The games on ``seeds`` in lock step; every decision labelled by the heuristic, the roll-ins batched."""
    if student is None and beta < 1.0:
        raise ValueError("beta < 1 needs a student to roll in with")
    batch_student = BatchStudent(student) if student is not None and beta < 1.0 else None
    observer = Observer()
    recorder = Recorder(reward, shaping, gamma)
    games = [Game.new(num_players, int(seed), variant, max_rounds) for seed in seeds]
    teachers = [teachers_for(seed, num_players) for seed in seeds]
    prefix = [int(stream)] if isinstance(stream, (int, np.integer)) else [int(k) for k in stream]
    rngs = [np.random.default_rng([*prefix, int(seed)]) for seed in seeds]
    seats = [recorder.new_game(num_players) for _ in seeds]
    obs = np.zeros((len(games), FLAT_SIZE), dtype=np.float32)
    masks = np.zeros((len(games), NUM_ACTIONS), dtype=np.float32)
    live = list(range(len(games)))
    while live:
        rolled: list[int] = []  # the games whose move the student makes at this step
        legal_of: dict[int, np.ndarray] = {}
        labels: dict[int, int] = {}
        for g in live:
            game = games[g]
            player = game.current_player
            observer.observe_flat(game, player, out=obs[g])
            legal = legal_action_ids(game)
            labels[g] = CODEC.encode(teachers[g][player].act_on_game(game, player))
            recorder.add(game, player, obs[g], legal, labels[g], seats[g])
            if batch_student is not None and rngs[g].random() >= beta:
                rolled.append(g)
                legal_of[g] = legal
        moves = dict(labels)
        if rolled:
            masks[rolled] = 0.0
            for g in rolled:
                masks[g, legal_of[g]] = 1.0
            picks = batch_student.sample(obs[rolled], masks[rolled], [legal_of[g] for g in rolled],
                                         [rngs[g] for g in rolled])
            moves.update(zip(rolled, picks, strict=True))
        for g in live:
            games[g].apply(CODEC.decode(moves[g], games[g]))
            if games[g].is_over:
                recorder.end_game(games[g], seats[g])
        live = [g for g in live if not games[g].is_over]
    return recorder.demonstrations()


def _chunk_job(job: tuple[list[int], dict]) -> Demonstrations:
    seeds, settings = job
    return collect_chunk(seeds, **settings)


def parallel_collect(seeds: Sequence[int], *, workers: int = 1, chunk: int = 8, **settings) -> Demonstrations:
    """``collect_chunk`` over chunks of ``chunk`` seeds in ``workers`` processes; the rows in seed-chunk order."""
    if workers < 1 or chunk < 1:
        raise ValueError(f"parallel_collect: workers and chunk must be at least 1, got {workers} and {chunk}")
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("parallel_collect: no seeds to play")
    jobs = [(seeds[i:i + chunk], settings) for i in range(0, len(seeds), chunk)]
    if workers == 1 or len(jobs) == 1:
        parts = [_chunk_job(job) for job in jobs]
    else:
        with stop_on_signals():
            parts = map_in_processes(_chunk_job, jobs, workers, name="fcm-chunk")
    return Demonstrations.concat(parts)
