"""What a position is worth to each player: the numbers the search backs up.

One value per player in [0, 1], each player maximising its own (a max^n search):

* a finished game: 1 for the winner, 0 for everybody else (the rules' winner: most cash,
  ties by turn order; ``Game.winners``);
* a position where a rollout stopped (its horizon in rounds): ``(1 + tanh(lead / scale)) / 2``,
  where ``lead`` is the player's cash minus the best cash among the others. Cash is what wins,
  and the tanh keeps one huge lead from outweighing many small ones.

``ValueFn`` is the hook for a learned value: any ``(game) -> sequence of floats`` can replace
``score`` (``SearchAgent(value=...)``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from fcm_env.engine.game import Game

ValueFn = Callable[[Game], Sequence[float]]


def score(game: Game, scale: float = 60.0) -> list[float]:
    """Each player's value of ``game`` (module docstring)."""
    players = game.state.players
    if game.is_over:
        winners = set(game.winners)
        return [1.0 if p.player in winners else 0.0 for p in players]
    cash = [p.cash for p in players]
    out = []
    for i, mine in enumerate(cash):
        best_other = max(c for j, c in enumerate(cash) if j != i)
        out.append(0.5 * (1.0 + math.tanh((mine - best_other) / scale)))
    return out


def scorer(scale: float) -> ValueFn:
    """``score`` with its scale fixed."""
    return lambda game: score(game, scale)

