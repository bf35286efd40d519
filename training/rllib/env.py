"""The AEC game as an RLlib ``MultiAgentEnv`` whose agent ids say which policy plays each seat.

RLlib's PettingZoo wrapper gives every seat one id (``player_k``) and one space, so a
``policy_mapping_fn`` cannot tell a learner seat from an opponent seat. Here each episode
draws a role per seat (``learner`` seats, the rest ``snapshot`` / ``random`` / ``heuristic``
by the configured probabilities) and names the seat ``<role>_<player id>``: the mapping is
``agent_id -> role`` (``module_for``), fixed and picklable.

Only the agent to move gets an observation (turn-based). ``learner`` and ``snapshot`` seats
see the full observation; ``random`` and ``heuristic`` seats see a one-float dummy and a
mask. The heuristic reads the engine state, which no RLModule sees, so the env asks it here
and narrows that seat's mask to its one choice: the frozen uniform module then plays exactly
the heuristic's move. Rewards are the AEC env's, paid to every seat as they arise. An action
outside the mask raises ``IllegalActionError`` (the episode, and the training, stop).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from fcm_agents.base import agent_move
from fcm_env.encoding import NUM_ACTIONS, encode
from fcm_env.env import common
from fcm_env.env.aec import raw_env

LEARNER = "learner"
OPPONENT_ROLES = ("snapshot", "random", "heuristic")
FULL_VIEW_ROLES = (LEARNER, "snapshot")  # the roles whose module reads the observation
ENV_KEYS = ("num_players", "variant", "max_rounds", "reward", "shaping", "engine")


def module_for(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """The policy mapping: ``"heuristic_2"`` plays with module ``"heuristic"``."""
    return agent_id.rpartition("_")[0]


def agent_id(role: str, player: int) -> str:
    return f"{role}_{player}"


def dummy_view_space() -> spaces.Dict:
    """The observation of the seats whose module only reads the mask (random, heuristic)."""
    return spaces.Dict({
        "observation": spaces.Box(low=0.0, high=0.0, shape=(1,), dtype=np.float32),
        "action_mask": common.mask_space(),
    })


def full_view_space() -> spaces.Dict:
    return spaces.Dict({"observation": common.flat_observation_space(), "action_mask": common.mask_space()})


class FcmMultiAgentEnv(MultiAgentEnv):
    """Food Chain Magnate for RLlib (see the module docstring); ``config`` is RLlib's env config.

    Keys: ``num_players``, ``variant``, ``max_rounds``, ``reward``, ``shaping``, ``engine`` (as ``fcm_env.env``;
    on the native engine a heuristic seat is asked on a Python copy of the position, as ``agent_move`` does),
    ``learner_seats`` (learning seats per game, default 1), ``opponents`` (role -> probability),
    ``game_seeds`` ([low, high): the games' seeds) and ``seed``.
    """

    def __init__(self, config: Mapping[str, Any] | None = None):
        super().__init__()
        config = dict(config or {})
        self._aec = raw_env(**{k: config[k] for k in ENV_KEYS if k in config})
        self.num_players = self._aec.num_players
        self.learner_seats = int(config.get("learner_seats", 1))
        if not 1 <= self.learner_seats <= self.num_players:
            raise ValueError(f"learner_seats must be 1..{self.num_players}, got {self.learner_seats}")
        opponents = dict(config.get("opponents", {"random": 1.0}))
        unknown = set(opponents) - set(OPPONENT_ROLES)
        if unknown:
            raise ValueError(f"opponents: unknown roles {sorted(unknown)} (use {', '.join(OPPONENT_ROLES)})")
        self._roles = sorted(r for r, p in opponents.items() if p > 0)
        if self.learner_seats < self.num_players and not self._roles:
            raise ValueError("opponents: every probability is 0 but some seats are not learner seats")
        weights = np.array([opponents[r] for r in self._roles], dtype=float)
        self._probs = weights / weights.sum() if self._roles else weights
        self.game_seeds = tuple(config.get("game_seeds", (0, 2**31)))
        # distinct streams per env runner and sub-env (RLlib's EnvContext carries both indices)
        stream = (int(config.get("seed", 0)), getattr(config, "worker_index", 0), getattr(config, "vector_index", 0))
        self._rng = np.random.default_rng(stream)

        roles = [LEARNER, *self._roles]
        self.possible_agents = [agent_id(r, p) for r in roles for p in range(self.num_players)]
        self.agents = []
        full, dummy = full_view_space(), dummy_view_space()
        self.observation_spaces = {a: full if module_for(a) in FULL_VIEW_ROLES else dummy
                                   for a in self.possible_agents}
        self.action_spaces = {a: common.action_space() for a in self.possible_agents}
        self._seat_ids: list[str] = []
        self._heuristic = None
        self.decisions = 0  # actions applied (each one legal: the AEC env raises on any other)

    # ------------------------------------------------------------------ episode

    def roles(self) -> list[str]:
        """The role of each player id in the current game."""
        return [module_for(a) for a in self._seat_ids]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(common.check_seed(seed))
        n = self.num_players
        learners = set(self._rng.choice(n, size=self.learner_seats, replace=False).tolist())
        roles = [LEARNER if p in learners else self._roles[int(self._rng.choice(len(self._roles), p=self._probs))]
                 for p in range(n)]
        self._seat_ids = [agent_id(r, p) for p, r in enumerate(roles)]
        self.agents = list(self._seat_ids)
        if "heuristic" in roles:
            from fcm_agents.registry import make_agent

            self._heuristic = make_agent("heuristic", seed=int(self._rng.integers(2**31)))
        low, high = self.game_seeds
        self._aec.reset(seed=int(self._rng.integers(low, high)))
        mover = self._mover()
        return {self._seat_ids[mover]: self._observe(mover)}, {}

    def step(self, action_dict: dict[str, Any]):
        mover = self._mover()
        agent = self._seat_ids[mover]
        if set(action_dict) != {agent}:
            raise ValueError(f"expected an action for {agent} only (the agent to move), got {sorted(action_dict)}")
        self._aec.step(action_dict[agent])  # IllegalActionError for an id outside the mask
        self.decisions += 1
        rewards = {self._seat_ids[p]: self._aec.rewards[name] for p, name in enumerate(self._aec.possible_agents)}
        if self._aec.game.is_over:
            truncated = bool(self._aec.game.state.truncated)
            obs = {a: self._observe(p, final=True) for p, a in enumerate(self._seat_ids)}
            terminateds = {a: not truncated for a in self._seat_ids}
            truncateds = {a: truncated for a in self._seat_ids}
            terminateds["__all__"], truncateds["__all__"] = not truncated, truncated
            return obs, rewards, terminateds, truncateds, {}
        mover = self._mover()
        return ({self._seat_ids[mover]: self._observe(mover)}, rewards, {"__all__": False}, {"__all__": False}, {})

    # ------------------------------------------------------------------ views

    def _mover(self) -> int:
        return self._aec.agent_name_mapping[self._aec.agent_selection]

    def _observe(self, player: int, *, final: bool = False) -> dict[str, np.ndarray]:
        role = module_for(self._seat_ids[player])
        if role in FULL_VIEW_ROLES:
            return self._aec.observe(self._aec.possible_agents[player])
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not final:
            game = self._aec.game
            if role == "heuristic":  # it reads the engine state: a Python copy of a native position
                mask[encode(agent_move(self._heuristic, game, player))] = 1
            elif game.current_player == player:
                mask[game.legal_ids()] = 1
        return {"observation": np.zeros(1, dtype=np.float32), "action_mask": mask}
