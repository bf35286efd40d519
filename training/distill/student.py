"""A lighter network of the shipped family, distilled from the shipped files: what a cheaper forward pass keeps.

The native search with the policy's prior and value spends most of an iteration in the network (issue 55's
cost table, docs/benchmarks.md). A student of the same family with smaller layers (the channel mix, the
convolutions, the board and vector heads, the heads) learns from the shipped policy (its softmax over the
legal actions) and the shipped value network (its win probability) on positions of played games, and is
written as a policy-value file (``fcm_training.distill.network``: the policy's interface plus
``value_logit``), which the native pass runs and the search reads as prior and value
(``search:engine=native,prior=policy,policy_model=FILE``).

    python -m fcm_training.distill student --players 2 --games 60 --held-out 12 --out runs/student_2p

Positions are every decision of every seat in games of the shipped policy against the heuristic's and the
strategists' native twins (seats rotated; the table's own shipped files as teachers). Reported on the
held-out games' positions: the share where the student's greedy action is the teacher's, the mean KL from
the teacher's distribution over the legal actions, and the mean absolute gap of the win probabilities.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS

#: the shipped light design (docs/benchmarks.md, "What a network costs on a CPU"): mix 3, convolutions 6/12,
#: board 64, vector 64, heads 64; the search with it as prior and value runs 0.7x the plain search's iterations
LIGHT = {"mix": 3, "channels": 6, "board_features": 64, "vector_hidden": 64, "head": 64}


@dataclass
class Positions:
    observations: np.ndarray  # float32 [N, FLAT_SIZE], the mover's
    masks: np.ndarray  # bool [N, NUM_ACTIONS]
    logits: np.ndarray  # float32 [N, NUM_ACTIONS], the teacher's masked logits
    values: np.ndarray  # float32 [N], the teacher's value logit (the mover's seat)


def _field(seed: int, players: int) -> list:
    from fcm_agents.native import NativeHeuristicAgent, NativeStrategistAgent
    from fcm_agents.shipped_policy import ShippedPolicy
    from fcm_agents.strategist import ARCHETYPES

    rng = np.random.default_rng(seed)
    seats = [ShippedPolicy()]
    for k in range(players - 1):
        if rng.random() < 0.5:
            seats.append(NativeHeuristicAgent())
        else:
            names = [None, *ARCHETYPES]
            seats.append(NativeStrategistAgent(names[int(rng.integers(len(names)))], seed=seed * 10 + k))
    shift = int(rng.integers(players))
    return seats[shift:] + seats[:shift]


def play_positions(first_seed: int, games: int, players: int, max_rounds: int = 30) -> tuple[np.ndarray, np.ndarray]:
    """Every decision's (mover's observation, legal mask) in ``games`` native games from ``first_seed``."""
    from fcm_agents.base import agent_move
    from fcm_env.engines import new_game

    observations, masks = [], []
    for seed in range(first_seed, first_seed + games):
        game = new_game("native", players, seed, "standard", max_rounds)
        agents = _field(seed, players)
        for agent in agents:
            agent.reset()
        while not game.is_over:
            player = game.current_player
            observations.append(game.observe_flat(player, np.zeros(FLAT_SIZE, np.float32)))
            mask = np.zeros(NUM_ACTIONS, bool)
            mask[game.legal_ids()] = True
            masks.append(mask)
            game.apply(agent_move(agents[player], game, player))
    return np.stack(observations), np.stack(masks)


def label(observations: np.ndarray, masks: np.ndarray, players: int, batch: int = 256) -> Positions:
    """The shipped teachers' answers: the policy's masked logits, the value network's logit (the policy-value
    file's own value where no value network is shipped for the size)."""
    from fcm_agents.models import shipped_model_path, shipped_value_path
    from fcm_agents.onnx_agent import _session

    policy = _session(str(shipped_model_path(players)), "native")
    value_path = shipped_value_path(players)
    value = _session(str(value_path), "native") if value_path is not None else policy
    logits = np.zeros(masks.shape, np.float32)
    values = np.zeros(len(masks), np.float32)
    for start in range(0, len(masks), batch):
        rows = slice(start, start + batch)
        feeds = {"observation": observations[rows], "action_mask": masks[rows].astype(np.float32)}
        logits[rows] = policy.run(["masked_logits"], feeds)[0]
        wanted = {"observation": observations[rows]} if value is not policy else feeds
        values[rows] = np.asarray(value.run(["value_logit"], wanted)[0]).reshape(-1)
    return Positions(observations, masks, logits, values)


def agreement(student_logits: np.ndarray, student_values: np.ndarray, data: Positions) -> dict[str, float]:
    """Greedy agreement, mean KL(teacher || student) over the legal actions, mean |win prob gap|."""
    legal = data.masks
    t = np.where(legal, data.logits, -np.inf).astype(np.float64)
    s = np.where(legal, student_logits, -np.inf).astype(np.float64)
    t_log = t - np.logaddexp.reduce(t, axis=1, keepdims=True)
    s_log = s - np.logaddexp.reduce(s, axis=1, keepdims=True)
    p = np.exp(t_log)
    with np.errstate(invalid="ignore"):  # the illegal ids' -inf - -inf: left out by the mask
        kl = np.where(legal, p * (t_log - s_log), 0.0).sum(axis=1)
    choices = legal.sum(axis=1)
    sig = lambda z: 1.0 / (1.0 + np.exp(-z.astype(np.float64)))
    return {"positions": len(legal), "with_a_choice": int((choices > 1).sum()),
            "greedy_agreement": float((t.argmax(1) == s.argmax(1))[choices > 1].mean()),
            "kl": float(kl[choices > 1].mean()),
            "value_gap": float(np.abs(sig(student_values) - sig(data.values)).mean())}


def fit(train: Positions, sizes: dict[str, int], epochs: int, batch: int = 256, lr: float = 1e-3, seed: int = 0,
        value_coef: float = 1.0, log=print):
    """Train a ``PolicyValueNet`` of ``sizes`` on the teachers' answers (cross-entropy to the teacher's
    softmax over the legal actions, plus the value's cross-entropy to the teacher's win probability)."""
    import torch
    import torch.nn.functional as F

    from .network import PolicyValueNet

    torch.manual_seed(seed)
    net = PolicyValueNet(**sizes)
    optimiser = torch.optim.Adam(net.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=max(1, epochs))
    obs = torch.from_numpy(train.observations)
    legal = torch.from_numpy(train.masks)
    target = torch.softmax(torch.from_numpy(train.logits).masked_fill(~legal, -1e9), dim=1)
    win = torch.sigmoid(torch.from_numpy(train.values))
    rng = np.random.default_rng(seed)
    for epoch in range(epochs):
        net.train()
        order = torch.from_numpy(rng.permutation(len(obs)))
        total = 0.0
        for start in range(0, len(order), batch):
            rows = order[start:start + batch]
            features = net.features(obs[rows])
            logits = net.logits(features).masked_fill(~legal[rows], -1e9)
            policy_loss = -(target[rows] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            value_loss = F.binary_cross_entropy_with_logits(net.value_logit(features), win[rows])
            loss = policy_loss + value_coef * value_loss
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item() * len(rows)
        schedule.step()
        log(f"epoch {epoch + 1}/{epochs}: loss {total / len(obs):.4f}")
    return net


def predict(net, data: Positions, batch: int = 512) -> tuple[np.ndarray, np.ndarray]:
    import torch

    net.eval()
    logits, values = [], []
    with torch.no_grad():
        for start in range(0, len(data.masks), batch):
            features = net.features(torch.from_numpy(data.observations[start:start + batch]))
            logits.append(net.logits(features).numpy())
            values.append(net.value_logit(features).numpy())
    return np.concatenate(logits), np.concatenate(values)


@dataclass
class StudentReport:
    players: int
    sizes: dict
    train_positions: int
    held_out_positions: int
    epochs: int
    seconds: float
    held_out: dict
    train: dict


def distil(players: int, games: int, held_out: int, out: Path, sizes: dict[str, int] | None = None,
           epochs: int = 12, seed: int = 0, log=print) -> StudentReport:
    """Play, label, fit and export a student (``out/student_{players}p.onnx``) with its report (``report.json``)."""
    from .network import export_onnx

    started = time.perf_counter()
    sizes = dict(sizes or LIGHT)
    log(f"playing {games} + {held_out} games at {players} players")
    train = label(*play_positions(seed * 1_000_000 + 1, games, players), players)
    test = label(*play_positions(seed * 1_000_000 + 500_001, held_out, players), players)
    log(f"{len(train.masks)} training positions, {len(test.masks)} held out; fitting {sizes}")
    net = fit(train, sizes, epochs, seed=seed, log=log)
    report = StudentReport(players, sizes, len(train.masks), len(test.masks), epochs, 0.0,
                           agreement(*predict(net, test), test), agreement(*predict(net, train), train))
    out.mkdir(parents=True, exist_ok=True)
    export_onnx(net, out / f"student_{players}p.onnx")
    report.seconds = round(time.perf_counter() - started, 1)
    (out / "report.json").write_text(json.dumps(asdict(report), indent=2) + "\n")
    log(json.dumps(asdict(report), indent=2))
    return report
