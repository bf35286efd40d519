"""Positions for the value network: every seat's observation at each round start, and who won.

A game pairs the shipped policy of its table size and the heuristic (policy-heuristic either way
round, or each against itself: 35/35/15/15; at 3-5 players the pair's two agents alternate round
the table), each seat adding random legal moves with a probability drawn per
game from 0, 2% and 8%, so that the data reaches positions off the two agents' own lines. The
search stops its rollouts at a round start (``horizon`` rounds on), so those are the positions kept.

Observations are stored sparse (about 800 of 24,880 entries are non-zero): ``idx``/``val``
(float16) with ``off`` row offsets, ``label`` (1.0: that seat is the rules' winner) and ``meta``
(seed, seat, round, the seat's final cash lead, the game's last round) per row.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np

from fcm_agents.heuristic import HeuristicAgent
from fcm_agents.search.policy_model import PolicyModel, default_policy_path
from fcm_env.encoding import Observer
from fcm_env.engine.game import Game

from ..common.interrupts import stop_on_signals
from ..common.process_pool import map_in_processes

#: who plays each seat, and how often (one draw per game)
PAIRINGS = (("policy", "heuristic"), ("heuristic", "policy"), ("policy", "policy"), ("heuristic", "heuristic"))
PAIRING_WEIGHTS = (0.35, 0.35, 0.15, 0.15)
#: the chance that a seat plays a random legal move instead of its agent's (one draw per seat and game)
NOISE = (0.0, 0.02, 0.08)


def play_positions(seed: int, num_players: int = 2) -> dict[str, list]:
    """One game on ``seed``: its round-start positions, labelled with the result (module docstring)."""
    rng = np.random.default_rng(seed)
    policy, heuristic = PolicyModel(default_policy_path(num_players)), HeuristicAgent(seed=0)
    pairing = PAIRINGS[rng.choice(len(PAIRINGS), p=PAIRING_WEIGHTS)]
    players = [policy if pairing[p % 2] == "policy" else heuristic for p in range(num_players)]
    noise = [float(rng.choice(NOISE)) for _ in range(num_players)]
    observer = Observer()
    buffer = np.zeros(observer.flat_size, dtype=np.float32)
    game = Game.new(num_players, seed=seed, max_rounds=30)  # as fcm_agents.match.play_game
    rows: list[tuple[int, int, np.ndarray, np.ndarray]] = []
    last_round = None
    while not game.is_over:
        if game.state.round != last_round:
            last_round = game.state.round
            for p in range(num_players):
                observer.observe_flat(game, p, out=buffer)
                nonzero = np.flatnonzero(buffer)
                rows.append((p, last_round, nonzero.astype(np.int32), buffer[nonzero].astype(np.float16)))
        mover = game.current_player
        legal = game.legal_actions()
        if len(legal) > 1 and rng.random() < noise[mover]:
            action = legal[int(rng.integers(len(legal)))]
        else:
            action = players[mover].act_on_game(game, mover)
        game.apply(action)
    winners = set(game.winners)
    cash = [int(p.cash) for p in game.state.players]
    out: dict[str, list] = {"idx": [], "val": [], "label": [], "meta": []}
    for p, rnd, idx, val in rows:
        out["idx"].append(idx)
        out["val"].append(val)
        out["label"].append(1.0 if p in winners else 0.0)
        out["meta"].append((seed, p, rnd, cash[p] - max(c for q, c in enumerate(cash) if q != p), game.state.round))
    return out


def _play_many(seeds: list[int], num_players: int = 2) -> dict[str, list]:
    merged: dict[str, list] = {"idx": [], "val": [], "label": [], "meta": []}
    for seed in seeds:
        for key, rows in play_positions(seed, num_players).items():
            merged[key].extend(rows)
    return merged


def generate(seed: int, games: int, out: Path, workers: int = 1, chunk: int = 50, num_players: int = 2) -> int:
    """Play games ``seed .. seed + games - 1`` of ``num_players`` (in ``workers`` processes) and write
    their positions to ``out`` (``.npz``, which records the player count); returns the number of positions."""
    chunks = [list(range(s, min(s + chunk, seed + games))) for s in range(seed, seed + games, chunk)]
    with stop_on_signals():  # Ctrl-C / SIGTERM: the workers stop at once and ``Interrupted`` is raised
        if workers > 1:
            parts = map_in_processes(partial(_play_many, num_players=num_players), chunks, workers, name="fcm-chunk")
        else:
            parts = [_play_many(c, num_players) for c in chunks]
    idx = [a for part in parts for a in part["idx"]]
    offsets = np.zeros(len(idx) + 1, dtype=np.int64)
    np.cumsum([len(a) for a in idx], out=offsets[1:])
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, idx=np.concatenate(idx), val=np.concatenate([a for p in parts for a in p["val"]]),
                        off=offsets, label=np.array([x for p in parts for x in p["label"]], dtype=np.float32),
                        meta=np.array([x for p in parts for x in p["meta"]], dtype=np.int64),
                        players=np.int64(num_players))
    return len(idx)
