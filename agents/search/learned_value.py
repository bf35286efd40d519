"""A learned value for the search: a network's win probability of each seat, from its observation.

The network (an ONNX graph, ``value_logit = f(observation)``: the logit of "this seat wins", read
from the seat's own flat observation; or a policy-value network, which also takes an ``action_mask``
and whose ``value_logit`` output is read the same way) is asked once per leaf for every seat in one batch. The
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

from fcm_env.encoding import NUM_ACTIONS, Observer
from fcm_env.engine.game import Game
from fcm_env.engines import face_of

from .policy_model import _session
from .value import ValueFn, score, scorer


class LearnedValue:
    """``(game) -> value per player`` (``value.ValueFn``) from an exported value network."""

    def __init__(self, path: str | Path):
        self.session = _session(str(path))
        self.observer = Observer()
        self._batch: dict[int, np.ndarray] = {}
        inputs = {i.name for i in self.session.get_inputs()}
        outputs = {o.name for o in self.session.get_outputs()}
        if "value_logit" not in outputs or "observation" not in inputs:
            raise ValueError(f"{path}: not a value network (inputs {sorted(inputs)}, outputs {sorted(outputs)}; "
                             f"a value network reads 'observation' and gives 'value_logit')")
        #: a policy-value graph also wants a mask: any will do for its value (all ones)
        self._masks: dict[int, np.ndarray] | None = {} if "action_mask" in inputs else None

    def win_probabilities(self, game: Game) -> list[float]:
        """The network's probability that each seat wins, each from its own observation."""
        n = game.state.num_players
        obs = self._batch.get(n)
        if obs is None:
            obs = self._batch[n] = np.zeros((n, self.observer.flat_size), dtype=np.float32)
        game = face_of(game)
        for p in range(n):
            game.observe_flat(p, obs[p])
        feeds = {"observation": obs}
        if self._masks is not None:
            mask = self._masks.get(n)
            if mask is None:
                mask = self._masks[n] = np.ones((n, NUM_ACTIONS), dtype=np.float32)
            feeds["action_mask"] = mask
        (logits,) = self.session.run(["value_logit"], feeds)
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
    modelled as ``others`` (``"policy"``, ``"heuristic"``, ``"same"``):

    - ``value=learned``: its ``value_model``, else the value of its ``policy_model`` where that network
      has one, else the value network shipped for that size, else the value head of the policy shipped
      for that size (an error that says so where there is none);
    - ``value=auto`` with ``prior=policy`` asked for by name: the network as prior and value, i.e. the
      value of the policy that gives the priors (its ``policy_model``, else the size's shipped policy
      file, whose head every shipped file has), else as ``learned``, else the cash lead;
    - ``value=auto`` otherwise: the shipped value network where one exists and another player is
      modelled as the policy, else the cash lead, as ``prior=auto`` chooses the priors (the policies'
      heads are not taken here: no measurement says yet that they help the search);
    - a ``policy_model`` with a value is used against anyone."""
    if config.value == "cash":
        return scorer(config.scale)
    from ..models import shipped_value_path

    if not config.value_model and config.policy_model and has_value(config.policy_model):
        return _load(str(Path(config.policy_model)))
    as_prior = config.value == "auto" and config.prior == "policy" and not config.value_model
    head = policy_value_head(num_players) if as_prior else None
    if head is not None:
        return _load(str(head))
    path = Path(config.value_model) if config.value_model else shipped_value_path(num_players)
    if config.value == "auto" and not as_prior and (others is not None and "policy" not in others):
        return scorer(config.scale)
    if path is None and config.value == "learned":
        path = policy_value_head(num_players)
    if path is None or not path.is_file():
        if config.value == "auto" and not config.value_model:
            return scorer(config.scale)
        where = config.value_model or f"no value network is shipped for {num_players} players"
        raise ValueError(f"search: value=learned needs a value network: {where} (value_model=PATH.onnx)")
    return _load(str(path))


def policy_value_head(num_players: int) -> Path | None:
    """The policy shipped for ``num_players`` where its file also gives a value (``policy-value/1``), else None."""
    from ..models import MODEL_FILES, shipped_model_path

    if num_players not in MODEL_FILES:
        return None
    try:
        path = shipped_model_path(num_players)
    except FileNotFoundError:
        return None
    return path if has_value(str(path)) else None


@lru_cache(maxsize=16)
def has_value(path: str) -> bool:
    """Whether the ONNX graph at ``path`` has a ``value_logit`` output (a policy-value network)."""
    if not Path(path).is_file():
        raise ValueError(f"search: policy_model={path}: no such file")
    return any(output.name == "value_logit" for output in _session(path).get_outputs())


@lru_cache(maxsize=4)
def _load(path: str) -> LearnedValue:
    """One ``LearnedValue`` per file in a process (every search agent of a tournament shares it)."""
    return LearnedValue(path)
