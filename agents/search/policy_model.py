"""A trained policy as the search's rollout player and prior (``rollout=policy``, ``prior=policy``).

The policy is an exported ONNX graph (``fcm_agents.onnx_agent``; by default the shipped one for
the table's size, else the 2-player one, whose observation layout fits every size). It reads the
flat observation and the legal-action mask of a seat, as any player of the env does, so as a
rollout player it sees what that seat would see in the determinized world.

A decision costs about eight heuristic ones (observation ~50 us, mask ~20 us, the graph ~140 us
on one core), so ``rollout=policy`` buys a better model of a policy opponent with fewer iterations;
``prior=policy`` asks the graph once per tree node and keeps the answer on the node.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from fcm_env.encoding import NUM_ACTIONS, Observer
from fcm_env.encoding.action_codec import CODEC
from fcm_env.engine.actions import Action
from fcm_env.engine.game import Game
from fcm_env.engines import face_of

#: the backend of the search's network sessions (``fcm_agents.onnx_agent.BACKENDS``): on ``auto`` a file of the
#: family runs on the native pass, and the native search then asks it inside the core without a Python call
#: (``python benchmarks/bench_search_networks.py``: 0.41x the plain search's iterations at 2 players against
#: 0.20x through onnxruntime callbacks, 0.44x against 0.36x at 4, the other core busy; docs/benchmarks.md)
SEARCH_BACKEND = "auto"


@lru_cache(maxsize=4)
def _session(path: str):
    """The search's network session, on ``SEARCH_BACKEND``."""
    from ..onnx_agent import _session as make_session

    return make_session(path, SEARCH_BACKEND)


def default_policy_path(num_players: int) -> Path:
    """The shipped policy for ``num_players``, else the 2-player one."""
    from ..models import MODEL_FILES, shipped_model_path

    return shipped_model_path(num_players if num_players in MODEL_FILES else 2)


def resolve_prior(prior: str, num_players: int, others: list[str] | None = None, own_policy: bool = False) -> str:
    """``auto`` -> ``policy`` where the searcher was given its own network (``own_policy``: the
    ``policy_model`` parameter), or where a policy for the table's size is shipped and another player
    is modelled as the policy (``others``: the models of the seats); else ``heuristic``.

    The seat's own priors follow the model of the others: on development seeds the policy's
    priors lifted the search against the policy (7/16 -> 10/12 games at two players), but cost
    it games against the heuristic (19 of 22 on fresh seeds, where the heuristic's priors had won
    50 of 50); at four players, where the 2-player policy is not at home, the heuristic's priors
    won more often against three heuristics (docs/search.md)."""
    if prior != "auto":
        return prior
    if own_policy:
        return "policy"
    from ..models import MODEL_FILES

    policy_opponent = others is None or "policy" in others
    return "policy" if num_players in MODEL_FILES and policy_opponent else "heuristic"


class PolicyModel:
    """Chooses and scores actions of any seat of a ``Game`` with an exported policy."""

    name = "policy"

    def __init__(self, path: str | Path):
        self.session = _session(str(path))
        self.observer = Observer()
        self._obs = np.zeros((1, self.observer.flat_size), dtype=np.float32)

    #: ``agent_move`` hands it a native game as it is: it reads the core's observation and legal ids
    plays_native = True

    def _logits(self, game: Game, player: int) -> np.ndarray:
        """The masked logits of ``player``'s observation (a Python or a native game: the same bytes)."""
        game = face_of(game)
        game.observe_flat(player, self._obs[0])
        mask = np.zeros((1, NUM_ACTIONS), dtype=np.float32)
        if game.current_player == player:
            mask[0, game.legal_ids()] = 1.0
        _, logits = self.session.run(["action", "masked_logits"], {"observation": self._obs, "action_mask": mask})
        return logits[0]

    def act_on_game(self, game: Game, player: int) -> Action:
        """The policy's most likely legal action for ``player`` (who must be the one to move)."""
        logits = self._logits(game, player)
        legal = game.legal_actions()
        by_id = dict(zip(CODEC.encode_many(legal), legal, strict=True))
        best = max(by_id, key=lambda i: (logits[i], -i))
        return by_id[best]

    def priors(self, game: Game, player: int, legal: list[Action]) -> list[float]:
        """softmax of the policy's logits over ``legal`` (in its order)."""
        logits = self._logits(game, player)
        z = [float(logits[i]) for i in CODEC.encode_many(legal)]
        top = max(z)
        e = [math.exp(v - top) for v in z]
        total = sum(e)
        return [v / total for v in e]
