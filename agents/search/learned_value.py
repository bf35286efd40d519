"""A learned value for the search: a network's win probability of each seat, from its observation.

The network (an ONNX graph, ``value_logit = f(observation)``: the logit of "this seat wins", read
from the seat's own flat observation) is asked once per leaf for every seat in one batch. The
seats' probabilities are made into one value vector that sums to 1 (the search backs up one value
per player, each maximising its own): at 2 players ``v0 = (p0 + 1 - p1) / 2`` (both seats' views
count, the network's errors on either side average out), at more players ``p_i / sum(p)``.

A finished game is worth its result exactly (``value.score``), as with the cash value.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from fcm_env.encoding import Observer
from fcm_env.engine.game import Game

from .policy_model import _session
from .value import ValueFn, score, scorer


class LearnedValue:
    """``(game) -> value per player`` (``value.ValueFn``) from an exported value network."""

    def __init__(self, path: str | Path):
        self.session = _session(str(path))
        self.observer = Observer()
        self._batch: dict[int, np.ndarray] = {}

    def win_probabilities(self, game: Game) -> list[float]:
        """The network's probability that each seat wins, each from its own observation."""
        n = game.state.num_players
        obs = self._batch.get(n)
        if obs is None:
            obs = self._batch[n] = np.zeros((n, self.observer.flat_size), dtype=np.float32)
        for p in range(n):
            self.observer.observe_flat(game, p, out=obs[p])
        (logits,) = self.session.run(["value_logit"], {"observation": obs})
        return [1.0 / (1.0 + math.exp(-float(z))) for z in logits.reshape(-1)]

    def __call__(self, game: Game) -> list[float]:
        if game.is_over:
            return score(game)
        p = self.win_probabilities(game)
        if len(p) == 2:
            v0 = 0.5 * (p[0] + 1.0 - p[1])
            return [v0, 1.0 - v0]
        total = sum(p) or 1.0
        return [x / total for x in p]


def learned_or_cash(config, num_players: int, others: list[str] | None = None) -> ValueFn:
    """The value ``config`` (a ``SearchConfig``) asks for at a table of ``num_players`` whose seats are
    modelled as ``others`` (``"policy"``, ``"heuristic"``, ``"same"``): ``value=learned`` its
    ``value_model``, else the network shipped for that size (an error that says so where there is
    none); ``value=auto`` the same where a network exists and another player is modelled as the
    policy, else the cash lead, as ``prior=auto`` chooses the priors."""
    if config.value == "cash":
        return scorer(config.scale)
    from ..models import shipped_value_path

    path = Path(config.value_model) if config.value_model else shipped_value_path(num_players)
    if config.value == "auto" and (others is not None and "policy" not in others):
        return scorer(config.scale)
    if path is None or not path.is_file():
        if config.value == "auto" and not config.value_model:
            return scorer(config.scale)
        where = config.value_model or f"no value network is shipped for {num_players} players"
        raise ValueError(f"search: value=learned needs a value network: {where} (value_model=PATH.onnx)")
    return _load(str(path))


@lru_cache(maxsize=4)
def _load(path: str) -> LearnedValue:
    """One ``LearnedValue`` per file in a process (every search agent of a tournament shares it)."""
    return LearnedValue(path)
