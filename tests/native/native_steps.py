"""Helpers of the native Dinnertime / Marketing / food-and-drinks tests: positions set directly on a Python
``GameState`` (as tests/engine/late_builders.py sets them), and the native core's test hooks that run one
engine phase alone (run_dinnertime / run_marketing of phase_dinnertime.cpp and
phase_marketing.cpp, reached as the core Game's ``_run_dinnertime`` / ``_run_marketing``: the engine step also starts the next phase, which other
source files own).

The map, the restaurant spots and the position builders are those of tests/engine/late_builders.py (its
docstring draws the map).
"""

from __future__ import annotations

import sys
from pathlib import Path

from fcm_env.engine.persistence.serialize import state_to_dict
from fcm_env.engine.state import GameState
from fcm_env.native import _core

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from late_builders import (  # noqa: F401 - the positions are late_builders' own
    BOARD_2P,
    GARDEN_2,
    LOOP,
    MAP_2P,
    NEAR_2,
    NEAR_2_EAST,
    TILE_1,
    add_campaign,
    add_restaurant,
    give,
    position,
    stock,
)


def native_dinnertime(document: dict) -> dict:
    """The native run_dinnertime alone on the document's state: the document after it."""
    game = _core.Game.from_checked_dict(document)
    game._run_dinnertime()
    return game.to_dict()


def native_marketing(document: dict) -> dict:
    """The native run_marketing alone on the document's state: the document after it."""
    game = _core.Game.from_checked_dict(document)
    game._run_marketing()
    return game.to_dict()


def run_both(state: GameState, python_run) -> GameState:
    """Run a phase on ``state`` in Python (in place) and natively on its document; assert the same result."""
    before = state_to_dict(state)
    python_run(state)
    hook = native_dinnertime if python_run.__module__.endswith("dinnertime") else native_marketing
    assert hook(before) == state_to_dict(state), "the native phase leaves another state"
    return state
