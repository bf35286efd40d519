"""Labelled decisions for behaviour cloning: their sparse storage and the recorder that fills them.

Shared by the sequential collection (``imitation.collect``) and the lock-step one
(``parallel_collect``), so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from fcm_env.engine.game import Game
from fcm_env.env.rewards import CASH_SHAPING_SCALE, final_rewards, shaping_potential


@dataclass
class Demonstrations:
    """Labelled decisions: sparse observations, legal ids, the heuristic's id, the return."""

    indptr: np.ndarray  # int64[n + 1]: row k's observation entries are indices/values[indptr[k]:indptr[k+1]]
    indices: np.ndarray  # int32
    values: np.ndarray  # float32
    legal_indptr: np.ndarray  # int64[n + 1]
    legal_ids: np.ndarray  # int32
    actions: np.ndarray  # int64[n]: the heuristic's choice
    returns: np.ndarray  # float32[n]: discounted return of the deciding seat from this decision

    def __len__(self) -> int:
        return int(self.actions.size)

    @staticmethod
    def concat(parts: Sequence[Demonstrations]) -> Demonstrations:
        def stack_ptr(ptrs: list[np.ndarray]) -> np.ndarray:
            out, offset = [np.zeros(1, dtype=np.int64)], 0
            for p in ptrs:
                out.append(p[1:] + offset)
                offset += int(p[-1])
            return np.concatenate(out)

        return Demonstrations(
            indptr=stack_ptr([p.indptr for p in parts]),
            indices=np.concatenate([p.indices for p in parts]),
            values=np.concatenate([p.values for p in parts]),
            legal_indptr=stack_ptr([p.legal_indptr for p in parts]),
            legal_ids=np.concatenate([p.legal_ids for p in parts]),
            actions=np.concatenate([p.actions for p in parts]),
            returns=np.concatenate([p.returns for p in parts]),
        )

    def chance_accuracy(self) -> float:
        """Accuracy of a uniformly random legal choice (the floor an imitator must beat)."""
        return float(np.mean(1.0 / np.diff(self.legal_indptr)))

    def densify(self, rows: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> None:
        """Writes rows ``rows`` into ``obs[:len(rows)]`` / ``masks[:len(rows)]`` (zeroed first)."""
        b = rows.size
        obs[:b] = 0.0
        masks[:b] = False
        for i, k in enumerate(rows):
            lo, hi = self.indptr[k], self.indptr[k + 1]
            obs[i, self.indices[lo:hi]] = self.values[lo:hi]
            masks[i, self.legal_ids[self.legal_indptr[k]:self.legal_indptr[k + 1]]] = True


class Recorder:
    """Collects labelled decisions (sparse observation, legal ids, label) and fills in each row's return when
    its game ends: the sequential ``collect`` and the lock-step ``parallel_collect`` both write through it."""

    def __init__(self, reward: str, shaping: str | None, gamma: float):
        self.reward, self.shaping, self.gamma = reward, shaping, gamma
        self.indices: list[np.ndarray] = []
        self.values: list[np.ndarray] = []
        self.legal_ids: list[np.ndarray] = []
        self.actions: list[int] = []
        self.returns: list[float] = []
        self.nnz, self.n_legal = [0], [0]

    def new_game(self, num_players: int) -> list[list[tuple[int, float]]]:
        """The per-seat (row, potential) lists of one game, for ``add`` and ``end_game``."""
        return [[] for _ in range(num_players)]

    def add(self, game: Game, player: int, obs: np.ndarray, legal: np.ndarray, label: int,
            seats: list[list[tuple[int, float]]]) -> None:
        """One decision of ``player``, observed as ``obs`` (flat), labelled ``label``."""
        nz = np.flatnonzero(obs)
        self.indices.append(nz.astype(np.int32))
        self.values.append(obs[nz])
        self.nnz.append(self.nnz[-1] + nz.size)
        self.legal_ids.append(legal.astype(np.int32))
        self.n_legal.append(self.n_legal[-1] + legal.size)
        self.actions.append(label)
        self.returns.append(0.0)
        potential = shaping_potential(game.state, self.shaping)[player] if self.shaping else 0.0
        seats[player].append((len(self.actions) - 1, potential))

    def end_game(self, game: Game, seats: list[list[tuple[int, float]]]) -> None:
        """Each seat's discounted return from each of its decisions: the shaping changes / 100 and the final reward."""
        final = final_rewards(game.state, self.reward)
        end_potential = shaping_potential(game.state, self.shaping) if self.shaping else np.zeros(len(seats))
        for player, rows in enumerate(seats):
            ahead = float(final[player])  # the last decision's reward includes the final reward
            next_potential = float(end_potential[player])
            for row, potential in reversed(rows):
                ahead = (next_potential - potential) / CASH_SHAPING_SCALE + ahead
                self.returns[row] = ahead
                ahead *= self.gamma
                next_potential = potential

    def demonstrations(self) -> Demonstrations:
        return Demonstrations(
            indptr=np.asarray(self.nnz, dtype=np.int64),
            indices=np.concatenate(self.indices) if self.indices else np.zeros(0, np.int32),
            values=np.concatenate(self.values) if self.values else np.zeros(0, np.float32),
            legal_indptr=np.asarray(self.n_legal, dtype=np.int64),
            legal_ids=np.concatenate(self.legal_ids) if self.legal_ids else np.zeros(0, np.int32),
            actions=np.asarray(self.actions, dtype=np.int64),
            returns=np.asarray(self.returns, dtype=np.float32),
        )


def teachers_for(seed: int, num_players: int) -> list:
    """The heuristic labelling each seat of the game on ``seed``."""
    from fcm_agents.registry import make_agent

    return [make_agent("heuristic", seed=int(seed) * 10 + p) for p in range(num_players)]
