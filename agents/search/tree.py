"""The search tree over what the searching player can tell apart (information sets).

A node stands for every world the searcher cannot tell apart at that point; its children are
keyed by ``Game.observed_action(action, searcher)``: the searcher's own moves and the public
moves of the others are told apart, another player's face-down choice is one child. Each node
keeps, per child, visits, the value sums (one per player) and how often the child was available
(in information-set MCTS an action is legal in some sampled worlds and not in others: its
exploration term counts the iterations it could have been chosen, not the parent's visits).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Edge:
    prior: float
    visits: int = 0
    available: int = 0
    value: list[float] | None = None  # sums of the backed-up values, one per player
    child: Node | None = None

    def mean(self, player: int) -> float:
        return self.value[player] / self.visits if self.visits else 0.0


@dataclass
class Node:
    visits: int = 0
    edges: dict[Any, Edge] = field(default_factory=dict)
    priors: dict[Any, float] | None = None  # prior=policy: the policy's priors by observed action

    def edge(self, key: Any, prior: float) -> Edge:
        found = self.edges.get(key)
        if found is None:
            found = self.edges[key] = Edge(prior)
        return found
