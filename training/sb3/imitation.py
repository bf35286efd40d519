"""Behaviour cloning of the heuristic, with DAgger, as the warm start of self-play.

Why: PPO from a random policy spends most of a CPU budget discovering what any sensible
chain does (hire, produce, market near its houses). The heuristic already plays that
economy, and it can label *any* position through ``act_on_game``, so:

1. **Demonstrations.** Games are played with every seat choosing, with probability
   ``beta``, the heuristic's own answer, and otherwise the current student's sampled
   answer (round 0 has ``beta = 1``: pure heuristic games). *Every* decision of *every*
   seat is labelled with the heuristic's answer (encoded with the action codec), together
   with the seat's legal ids and its discounted return from that position, computed with
   the same reward as PPO's (end-of-game ``reward`` + ``shaping`` changes / 100, ``gamma``).
   Letting the student steer (DAgger) shows it the positions its own mistakes lead to.
2. **Training.** The policy's masked cross-entropy on the labels plus ``value_coef`` x the
   value head's squared error on the returns, so PPO starts with a critic that already
   knows what a position is worth and does not wreck the imitated policy in its first
   updates.

Observations are 95% zeros, so demonstrations are kept sparse (CSR rows: ~6 KB instead
of 100 KB per decision) and densified batch by batch into a reused buffer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import torch

from fcm_env.encoding import CODEC, FLAT_SIZE, NUM_ACTIONS, Observer, legal_action_ids
from fcm_env.engine.game import Game

from .demonstrations import Demonstrations, Recorder, teachers_for

#: a student for roll-ins: (flat observation, int8 mask) -> action id
Student = Callable[[np.ndarray, np.ndarray], int]

__all__ = ["Demonstrations", "Recorder", "collect", "imitation_accuracy", "train_epochs"]


def collect(
    seeds: Sequence[int],
    *,
    num_players: int,
    variant: str,
    max_rounds: int,
    reward: str,
    shaping: str | None,
    gamma: float,
    beta: float = 1.0,
    student: Student | None = None,
    rng: np.random.Generator | None = None,
) -> Demonstrations:
    """One game per seed, one after another; every decision labelled by the heuristic (see the module docstring).

    The roll-ins draw from one ``rng`` and ``student`` over all the games: the games depend on each other's
    draws, so this path runs in one process (``parallel_collect`` gives each game its own draws).
    """
    if student is None and beta < 1.0:
        raise ValueError("beta < 1 needs a student to roll in with")
    rng = rng or np.random.default_rng(0)
    observer = Observer()
    obs = np.zeros(FLAT_SIZE, dtype=np.float32)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    recorder = Recorder(reward, shaping, gamma)
    for seed in seeds:
        game = Game.new(num_players, int(seed), variant, max_rounds)
        teachers = teachers_for(seed, num_players)
        seats = recorder.new_game(num_players)
        while not game.is_over:
            player = game.current_player
            observer.observe_flat(game, player, out=obs)
            legal = legal_action_ids(game)
            label = CODEC.encode(teachers[player].act_on_game(game, player))
            recorder.add(game, player, obs, legal, label, seats)
            chosen = label
            if student is not None and rng.random() >= beta:
                mask[:] = 0
                mask[legal] = 1
                chosen = int(student(obs, mask))
            game.apply(CODEC.decode(chosen, game))
        recorder.end_game(game, seats)
    return recorder.demonstrations()


class _Batches:
    """Reused dense buffers for one batch size."""

    def __init__(self, batch_size: int):
        self.obs = np.zeros((batch_size, FLAT_SIZE), dtype=np.float32)
        self.masks = np.zeros((batch_size, NUM_ACTIONS), dtype=bool)

    def tensors(self, data: Demonstrations, rows: np.ndarray, device: torch.device):
        data.densify(rows, self.obs, self.masks)
        b = rows.size
        return (torch.as_tensor(self.obs[:b], device=device), self.masks[:b],
                torch.as_tensor(data.actions[rows], device=device),
                torch.as_tensor(data.returns[rows], device=device))


def train_epochs(policy, data: Demonstrations, *, epochs: int, batch_size: int, optimizer: torch.optim.Optimizer,
                 value_coef: float, rng: np.random.Generator, placement_weight: float = 1.0,
                 on_batch: Callable[[dict], None] | None = None) -> dict:
    """Masked cross-entropy on the labels + ``value_coef`` x value MSE; returns the last epoch's means.

    ``placement_weight`` weighs the decisions whose label is a board placement (the first
    restaurant, campaigns, houses: a few per game, but they decide it) that much more than the others.
    """
    policy.set_training_mode(True)
    buffers = _Batches(batch_size)
    place = CODEC.segment("place").start
    stats: dict[str, float] = {}
    for _ in range(epochs):
        order = rng.permutation(len(data))
        sums = {"policy_loss": 0.0, "value_loss": 0.0, "accuracy": 0.0}
        for start in range(0, order.size, batch_size):
            rows = order[start:start + batch_size]
            obs, masks, labels, returns = buffers.tensors(data, rows, policy.device)
            values, log_prob, _ = policy.evaluate_actions(obs, labels, action_masks=masks)
            weights = 1.0 + (placement_weight - 1.0) * (labels >= place).float()
            policy_loss = -(weights * log_prob).sum() / weights.sum()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), returns)
            loss = policy_loss + value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            sums["policy_loss"] += policy_loss.item() * rows.size
            sums["value_loss"] += value_loss.item() * rows.size
            sums["accuracy"] += log_prob.detach().exp().mean().item() * rows.size  # mean probability of the label
            if on_batch is not None:
                on_batch({"rows": rows.size})
        stats = {k: v / len(data) for k, v in sums.items()}
    policy.set_training_mode(False)
    return stats


@torch.no_grad()
def imitation_accuracy(policy, data: Demonstrations, batch_size: int = 256) -> dict[str, float]:
    """How often the policy's most likely legal id is the heuristic's, and its value error."""
    policy.set_training_mode(False)
    buffers = _Batches(batch_size)
    place = CODEC.segment("place").start
    hits, sq, placements, placement_hits = 0, 0.0, 0, 0
    for start in range(0, len(data), batch_size):
        rows = np.arange(start, min(start + batch_size, len(data)))
        obs, masks, labels, returns = buffers.tensors(data, rows, policy.device)
        chosen = policy.get_distribution(obs, action_masks=masks).get_actions(deterministic=True)
        right = chosen == labels
        hits += int(right.sum())
        on_board = labels >= place  # restaurants, campaigns, houses, gardens
        placements += int(on_board.sum())
        placement_hits += int((right & on_board).sum())
        sq += float(((policy.predict_values(obs).flatten() - returns) ** 2).sum())
    n = max(1, len(data))
    return {"accuracy": hits / n, "placement_accuracy": placement_hits / max(1, placements),
            "chance": data.chance_accuracy(), "value_mse": sq / n, "decisions": len(data)}


def torch_student(policy, seed: int) -> Student:
    """Samples the live policy's masked distribution (the DAgger roll-in)."""
    generator = torch.Generator().manual_seed(seed)

    @torch.no_grad()
    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        dist = policy.get_distribution(torch.as_tensor(obs[None], device=policy.device),
                                       action_masks=mask[None].astype(bool))
        probs = dist.distribution.probs[0].cpu()
        return int(torch.multinomial(probs, 1, generator=generator))

    return act


def behaviour_cloning(policy, config, out) -> list[dict]:
    """DAgger rounds of ``config.bc_games`` games each (see the module docstring); rows also in ``bc.csv``.

    Round ``r`` rolls in with the heuristic with probability ``beta = 0.5 ** r``; the training
    set grows by every round's games; the policy trains ``bc_epochs`` epochs on it after each round.
    Accuracy is measured on ``bc_holdout_games`` pure-heuristic games from the evaluation seeds.
    """
    import csv
    from pathlib import Path

    from .progress import bar

    out = Path(out)
    settings = {"num_players": config.num_players, "variant": config.variant, "max_rounds": config.max_rounds,
                "reward": config.reward, "shaping": config.shaping, "gamma": config.gamma}
    holdout_seeds = range(config.eval_seeds[0], config.eval_seeds[0] + config.bc_holdout_games)
    if config.bc_workers:
        from ..common.export import onnx_bytes
        from .parallel_collect import parallel_collect

        holdout = parallel_collect(holdout_seeds, workers=config.bc_workers, **settings)
    else:
        holdout = collect(holdout_seeds, **settings)
    optimizer = torch.optim.Adam(policy.parameters(), lr=config.bc_learning_rate)
    rng = np.random.default_rng([config.seed, 77])
    lo = config.train_seeds[0]
    parts: list[Demonstrations] = []
    rows = []
    for r in range(config.bc_rounds):
        beta = 0.5**r
        seeds = range(lo + r * config.bc_games, lo + (r + 1) * config.bc_games)
        if config.bc_workers:  # each game draws from its own stream: [seed, 77, round, game seed]
            graph = None if beta >= 1.0 else onnx_bytes(policy)
            parts.append(parallel_collect(seeds, workers=config.bc_workers, **settings, beta=beta, student=graph,
                                          stream=[config.seed, 77, r]))
        else:
            student = None if beta >= 1.0 else torch_student(policy, seed=config.seed * 100 + r)
            parts.append(collect(seeds, **settings, beta=beta, student=student, rng=rng))
        data = Demonstrations.concat(parts)
        total = config.bc_epochs * len(data)
        with bar(total, f"behaviour cloning {r + 1}/{config.bc_rounds}", "decisions",
                 enabled=config.progress_bar) as advance:
            stats = train_epochs(policy, data, epochs=config.bc_epochs, batch_size=config.bc_batch_size,
                                 optimizer=optimizer, value_coef=config.bc_value_coef, rng=rng,
                                 placement_weight=config.bc_placement_weight,
                                 on_batch=lambda b: advance(b["rows"]))
        held = imitation_accuracy(policy, holdout)
        row = {"round": r + 1, "beta": beta, "decisions": len(data), **stats,
               **{f"holdout_{k}": v for k, v in held.items()}}
        rows.append(row)
        print(f"[bc round {r + 1}] {len(data)} decisions, holdout accuracy {held['accuracy']:.3f} "
              f"(chance {held['chance']:.3f}; placements {held['placement_accuracy']:.3f}), "
              f"value mse {held['value_mse']:.3f}", flush=True)
    with (out / "bc.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows
