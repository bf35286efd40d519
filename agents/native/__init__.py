"""The native players: the heuristic (and its hidden-choice model) and the strategist family in C++, for a
search's rollouts and fast tables on the native engine.

The C++ (``agents/native/src``, bound with pybind11 as ``fcm_agents.native._agents``) is a layer above the
engine: a module of its own, compiled with a copy of the engine's rules, which takes the engine's games
(``fcm_env.native``) as they are. The Python agents stay the reference: each native player answers exactly
what its Python twin answers in the same position (tests/native_agents replays whole seeded games), and the
plan tables have one home, ``fcm_agents.heuristic.plan`` and ``fcm_agents.strategist.archetypes``, handed over
here when the package loads.

``NativeHeuristicAgent`` and ``NativeStrategistAgent`` play on a native game directly (``plays_native``:
``agent_move`` hands them the native game); given a Python game they play on a native copy of the position.
``twin_of`` gives a reference agent's twin; the registry pairs them (``fcm_agents.twins``), so the Python
classes know nothing of C++.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import fcm_env.native as _engine
from fcm_env.data import EMPLOYEES
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engines import GameLike, from_core, on_engine

from ..base import SeededAgent
from ..heuristic.agent import HeuristicAgent
from ..heuristic.plan import HIRING_PLAN, PLAY_PRIORITY, TRAIN_GOALS, TRAIN_RESERVE
from ..heuristic.staffing import Staffing
from ..strategist import reading as strategist_reading
from ..strategist.agent import StrategistAgent
from ..strategist.archetypes import (
    AMPLE,
    ARCHETYPES,
    DRINK,
    DRINKS,
    EXTRA_CAPS,
    FOOD,
    NEAR_BEST,
    OPENER,
    SWAP,
)

try:
    from . import _agents
except ImportError as exc:  # pragma: no cover - an install without its compiled part
    raise ImportError(
        "fcm_agents.native: the native players are not built in this install (they need a C++17 compiler at "
        f"`pip install` time): reinstall with `pip install -e .` from a checkout ({exc})"
    ) from exc

_engine.load_data(_agents)


def plan_tables(plan: Any) -> dict:
    """The tables a native player plays from, read off an object with the heuristic's table attributes
    (``Staffing``'s class attributes, or a strategist's archetype)."""
    return {
        "hiring_plan": [(int(line), int(want)) for line, want in plan.hiring_plan],
        "play_priority": [int(t) for t in plan.play_priority],
        "train_goals": [(int(source), [int(g) for g in goals]) for source, goals in plan.train_goals.items()],
        "train_reserve": [int(t) for t in plan.train_reserve],
        "train_margin": int(plan.train_margin),
        "extra_hires": [int(t) for t in plan.extra_hires],
        "extra_cap": int(plan.extra_cap),
    }


assert Staffing.hiring_plan is HIRING_PLAN and Staffing.play_priority is PLAY_PRIORITY  # one home: plan.py
assert Staffing.train_goals is TRAIN_GOALS and Staffing.train_reserve is TRAIN_RESERVE
# STAFF: the play order's non-manager types, which every plan's Restructuring counts as the staff waiting
_agents.set_heuristic_tables(plan_tables(Staffing), [int(t) for t in PLAY_PRIORITY if not EMPLOYEES[t].is_manager])
_PRODUCTS = {FOOD: -1, DRINK: -2}
_agents.set_archetypes(
    [{"name": a.name, "reserve": int(a.reserve), "tables": plan_tables(a),
      "campaign_kinds": [int(k) for k in a.campaign_kinds],
      "products": [_PRODUCTS[p] if isinstance(p, str) else int(p) for p in a.products],
      "targets": [(int(t), int(n)) for t, n in a.targets]} for a in ARCHETYPES.values()],
    {"opener": [(int(t), int(n)) for t, n in OPENER], "swap": float(SWAP),
     "extra_cap_low": int(EXTRA_CAPS[0]), "extra_cap_high": int(EXTRA_CAPS[1]),
     "ample": int(AMPLE), "near": int(strategist_reading.NEAR),
     "haul_range": int(strategist_reading.HAUL_RANGE), "drinks": [int(g) for g in DRINKS]},
)


def _seed_of(seed: int | None) -> int:
    """A generator seed for a native player: ``seed`` itself (numpy's default_rng(seed) draws), or fresh entropy."""
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed must be an integer 0 <= seed < 2**64, got {seed!r}")
    return int(seed)


def core_of(game: Any) -> Any:
    """The native core game of ``game``: a native game's own, or a native copy of a Python game's position."""
    core = getattr(game, "native_core", None)
    return core if core is not None else on_engine(game, "native").native_core


class _NativePlayer(SeededAgent):
    """An agent answering through a native player (``self._player``)."""

    #: ``agent_move`` hands a native game to it as it is (no Python copy of the position)
    plays_native = True

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        raise TypeError(f"{type(self).__name__} reads the engine state: call act_on_game(game, player)")

    def act_on_game(self, game: Any, player: int) -> Action:
        kind, args = self._player.act(core_of(game), int(player))
        return Action(ActionKind(kind), tuple(args))

    def reset(self) -> None:
        super().reset()
        self._player.reset()

    def native_player(self, game: Any) -> Any | None:
        """The C++ player itself on a native game (``fcm_agents.match`` plays runs of its moves in the core)."""
        return self._player if getattr(game, "native_core", None) is not None else None


class NativeHeuristicAgent(_NativePlayer):
    """``HeuristicAgent`` played in C++: the same answer in every position, about thirty times faster."""

    def __init__(self, seed: int | None = None, name: str = "heuristic"):
        super().__init__(seed, name)
        self._player = _agents.Heuristic()


class NativeStrategistAgent(_NativePlayer):
    """``StrategistAgent`` played in C++: for the same archetype, seed and variation, the same answer in every
    position (its seeded draws are numpy's, drawn alike)."""

    def __init__(self, archetype: str | None = None, seed: int | None = None, name: str = "strategist",
                 variation: float = NEAR_BEST):
        super().__init__(seed, name)
        self._player = _agents.Strategist(archetype, _seed_of(seed), float(variation))


def twin_of(agent: Any) -> _NativePlayer | None:
    """The native twin of a reference agent (the heuristic, a strategist), or None for a class without one
    (a subclass with answers of its own plays them in Python)."""
    if type(agent) is HeuristicAgent:
        return NativeHeuristicAgent(seed=agent._seed, name=agent.name)
    if type(agent) is StrategistAgent:
        return NativeStrategistAgent(agent.fixed.name if agent.fixed is not None else None, seed=agent._seed,
                                     name=agent.name, variation=agent.variation)
    return None


def determinize_heuristic(game: Any, observer: int, rng: np.random.Generator) -> GameLike:
    """``Game.determinize(observer, rng, HeuristicHiddenModel())`` in C++: the same world and the same draws
    from ``rng`` (a numpy PCG64 generator, advanced as the Python determinization advances it)."""
    bits = rng.bit_generator
    if not isinstance(bits, np.random.PCG64):
        raise TypeError(f"determinize_heuristic needs a numpy PCG64 generator, got {type(bits).__name__}")
    world, after = _agents.determinize_heuristic(core_of(game), int(observer), bits.state)
    bits.state = after
    return from_core(world)


__all__ = ["NativeHeuristicAgent", "NativeStrategistAgent", "core_of", "determinize_heuristic", "plan_tables",
           "twin_of"]
