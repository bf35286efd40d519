"""What a clone must be: nothing mutable shared with its original.

``Game.clone`` copies the state field by field for speed (``GameState.clone``), so a field
added later and forgotten there would be shared between a search's worlds and leak moves
from one into the other. ``shared_mutables`` walks both states side by side and names every
mutable object they hold in common; the random-simulation harness and the clone tests call it.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

import numpy as np

from fcm_env.engine.actions import Action, Pending
from fcm_env.engine.board.geometry import Board
from fcm_env.engine.state import GameState

#: values that are never changed in place, so a clone may share them
_IMMUTABLE = (int, float, str, bool, bytes, type(None), Enum, Board, Action, Pending)


def shared_mutables(a: GameState, b: GameState) -> list[str]:
    """The paths (``players[1].hand``) of mutable objects that ``a`` and ``b`` share; [] for a true copy."""
    found: list[str] = []
    _walk(a, b, "state", found)
    return found


def _walk(a: Any, b: Any, path: str, found: list[str]) -> None:
    if isinstance(a, _IMMUTABLE):
        return
    if isinstance(a, tuple):  # immutable itself, but it could hold a mutable object
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _walk(x, y, f"{path}[{i}]", found)
        return
    if dataclasses.is_dataclass(a) and a.__dataclass_params__.frozen:
        for f in dataclasses.fields(a):  # immutable itself, like a tuple: only what it holds could be shared
            _walk(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}", found)
        return
    if a is b:
        found.append(path)
        return
    if isinstance(a, np.ndarray):
        if np.shares_memory(a, b):
            found.append(path)
    elif isinstance(a, (list, set, frozenset)):
        items_a = sorted(a) if isinstance(a, (set, frozenset)) else a
        items_b = sorted(b) if isinstance(b, (set, frozenset)) else b
        for i, (x, y) in enumerate(zip(items_a, items_b, strict=True)):
            _walk(x, y, f"{path}[{i}]", found)
    elif isinstance(a, dict):
        for key in a:
            _walk(a[key], b[key], f"{path}[{key!r}]", found)
    elif dataclasses.is_dataclass(a):
        for name in vars(a):
            if name != "event_sink":  # the opt-in event log: a clone logs nothing
                _walk(getattr(a, name), getattr(b, name), f"{path}.{name}", found)
    else:
        found.append(f"{path} (a {type(a).__name__}: unknown to the clone check)")
