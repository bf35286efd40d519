"""The search on the native core (``search:engine=native``, the default where the native players are built).

``NativeSearchAgent`` decides what the Python ``SearchAgent`` decides before it searches (the others' models,
inferred from their moves; the prior; the value; the rollout player) with the same code and the same
generator, then hands the search itself to C++ (``fcm_agents.native``'s ``Search``: determinize, tree walk,
rollouts and backup, each step as ``mcts.py`` takes it): for the same seed and an iteration budget it builds
the very tree the Python search builds, and so plays the very move (tests/native_agents/test_native_search.py),
in a fraction of the time, so a time budget buys many more iterations (docs/search.md).

The networks run in the core where their sessions are on the native pass (``fcm_agents.native.network``, the
default where the file is of the family it knows): a policy seat's moves and priors, and a learned value (every
seat of a leaf in one batch), are computed in C++ on the world's own observations, with the GIL released, and
give the numbers the Python models give on the same pass (``network_search.h``). A session on onnxruntime (or a
value function handed in) is asked through Python callbacks, on the native world as a ``NativeGame``.
The others' models are the search's own native players (``Search.model_act``), which its inference of the
others asks too, as the Python search asks its model agents in both places.
"""

from __future__ import annotations

import time
from typing import Any

from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engines import from_core, on_engine

from ..native import _agents, core_of
from ..native.network import NativeSession
from ..strategist.archetypes import ARCHETYPES
from .learned_value import LearnedValue
from .mcts import SearchAgent
from .policy_model import resolve_prior

_HEURISTIC, _STRATEGIST, _POLICY, _RANDOM, _UNIFORM = range(5)
_ARCHETYPES = list(ARCHETYPES)  # the order fcm_agents.native handed them over in


def _strategist_part(name: str) -> tuple[int, int, int]:
    _, _, archetype = name.partition(":")
    return (_STRATEGIST, _ARCHETYPES.index(archetype) if archetype else -1, 0)


def _native_network(session: Any) -> Any:
    """The core's network behind a session on the native pass (``NativeSession``), else None (onnxruntime's)."""
    return getattr(session, "network", None) if isinstance(session, NativeSession) else None


class _ModelPlayer:
    """A model of the native search (the heuristic or a strategist) as an agent: the inference of the others
    asks the very players the search plays them with (a strategist keeps its plan per map between worlds)."""

    plays_native = True

    def __init__(self, search: Any, part: tuple[int, int, int]):
        self._search, self._part = search, part

    def act_on_game(self, game: Any, player: int) -> Action:
        kind, args = self._search.model_act(self._part, core_of(game), int(player))
        return Action(ActionKind(kind), tuple(args))


class NativeSearchAgent(SearchAgent):
    """``SearchAgent`` whose search runs on the native core (module docstring)."""

    plays_native = True

    def __init__(self, config=None, seed: int | None = None, name: str = "search", value=None):
        super().__init__(config, seed, name, value)
        self._native = _agents.Search()
        self._prior_agent = _ModelPlayer(self._native, (_HEURISTIC, -1, 0))
        self._last_visits: list[int] | None = None

    def _strategist_model(self, name: str):
        model = self._strategists.get(name)
        if model is None:
            model = self._strategists[name] = _ModelPlayer(self._native, _strategist_part(name))
        return model

    def act_on_game(self, game: Any, player: int) -> Action:
        native = on_engine(game, "native")
        if native is not game:  # a Python position: searched on its native twin, with its action log
            native.history = None if game.history is None else list(game.history)
            game = native
        return super().act_on_game(game, player)

    def _search(self, game: Any, player: int, legal: list[Action], start: float) -> Action:
        config = self.config
        num_players = game.num_players
        others = self._others_models(game, player)
        self._prior = resolve_prior(config.prior, num_players, others, own_policy=bool(config.policy_model))
        random_seed = int(self._rng.integers(2**31)) if config.rollout == "random" else 0  # _rollout_agent's draw
        own_seats = {p for p in range(num_players) if p == player or others[p] == "same"}
        self._own_seats = own_seats
        self._seat_priors = [self._prior if p in own_seats else others[p] for p in range(num_players)]
        self._value = self._value_for(num_players, others)
        learned = self._fixed_value is not None or isinstance(self._value, LearnedValue)
        self._horizon = config.learned_horizon if isinstance(self._value, LearnedValue) else config.horizon
        own_network = 1 if config.policy_model else 0

        def rollout_part(p: int) -> tuple[int, int, int]:
            if p in own_seats:
                return {"random": (_RANDOM, -1, 0), "policy": (_POLICY, -1, own_network)}.get(
                    config.rollout, (_HEURISTIC, -1, 0))
            name = others[p]
            if name == "policy":
                return (_POLICY, -1, 0)
            return _strategist_part(name) if name.startswith("strategist") else (_HEURISTIC, -1, 0)

        def prior_part(p: int) -> tuple[int, int, int]:
            name = self._seat_priors[p]
            if name == "policy":
                return (_POLICY, -1, own_network if p in own_seats else 0)
            if name.startswith("strategist"):
                return _strategist_part(name)
            return (_UNIFORM, -1, 0) if name == "uniform" else (_HEURISTIC, -1, 0)

        def policy(network: int, core: Any, mover: int):
            model = self._own_policy_model(num_players) if network == 1 else self._policy_model(num_players)
            return model._logits(from_core(core), mover)

        def value(core: Any) -> list[float]:
            return [float(v) for v in self._value(from_core(core))]

        # the time left of this decision's budget (the inference ran on it): the core's clock starts now
        scale = config.opening if game.pending.decision == Decision.INITIAL_RESTAURANT else 1.0
        seconds = max(1e-9, (config.seconds * scale - (time.perf_counter() - start)) / scale) if config.seconds else 0.0
        settings = {
            "iterations": config.iterations, "seconds": seconds,
            "opening": config.opening, "horizon": self._horizon, "policy_rounds": config.policy_rounds,
            "c_puct": config.c_puct, "prior_weight": config.prior_weight, "widen": config.widen, "scale": config.scale,
            "heuristic_model": config.model == "heuristic", "learned_value": learned, "random_seed": random_seed,
        }
        needs_policy = any(part[0] == _POLICY for p in range(num_players) for part in (rollout_part(p), prior_part(p)))
        policy_arg: Any = None
        if needs_policy:  # the networks on the native pass are asked in the core, else through the callback
            models = [self._policy_model(num_players), self._own_policy_model(num_players)]
            networks = [_native_network(m.session) for m in models]
            policy_arg = networks if all(n is not None for n in networks) else policy
        value_arg: Any = None
        if learned:
            network = _native_network(self._value.session) if type(self._value) is LearnedValue else None
            value_arg = network if network is not None and self._fixed_value is None else value
        bits = self._rng.bit_generator
        best, visits, _priors, done, moves, after = self._native.run(
            game.core, player, settings, [rollout_part(p) for p in range(num_players)],
            [prior_part(p) for p in range(num_players)], bits.state, policy_arg, value_arg)
        bits.state = after
        self._last_visits = list(visits)
        self.last_root = None
        self.stats.iterations += done
        self.stats.rollout_moves += moves
        return Action(ActionKind(best[0]), tuple(best[1]))

    def root_visits(self, game: Any, player: int, legal: list[Action]) -> list[int]:
        """How often the last search chose each of ``legal`` at its root (as ``SearchAgent.root_visits``)."""
        if self._last_visits is None:
            raise RuntimeError("root_visits: no decision has been searched yet")
        if len(legal) != len(self._last_visits):
            raise ValueError("root_visits: legal is not the legal actions of the decision just searched")
        return list(self._last_visits)
