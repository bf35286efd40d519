"""Save and load a ``GameState`` as a JSON document (format ``fcm-magnate/state``, version 1).

Why: every game must be saveable and loadable at any decision (training, bug
reports, front ends), and rule scenarios are hand-written states. The codec walks
the dataclasses by their type hints, so a field that is added later to
``GameState``, ``PlayerState``, ``TurnScratch``, ``House``, ``Campaign`` (or any
dataclass they hold) is saved and loaded with no edit here.

How each type is written (docs/state-format.md has the full description):

* dataclass -> object, one key per field in field order; on load a missing key
  takes the field's default (an error where there is none), an unknown key is an error;
* ``Enum`` / ``IntEnum`` -> the member's name (``"WORKING"``), never its number;
* numpy array -> (nested) list; the dtype and shape come from the field's
  ``default_factory`` and are checked and restored on load;
* set -> sorted list; tuple -> list; dict -> object (int keys as decimal strings);
* ``Board`` -> its tile layout rows (``[["K2", "I2", "H3"], ...]``), rebuilt on load;
* ``Action`` -> ``[kind name, [args]]``; ``Pending`` -> ``[decision name, player, [context]]``.

Loading never returns a half-built state: the whole document is checked while a
new state is built, and any problem raises ``StateFormatError`` naming the field
path (``players[1].hand: expected 33 integers, got 32``).
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from fcm_env.engine.actions import Action, Pending
from fcm_env.engine.board.geometry import Board
from fcm_env.engine.persistence.dataclass_json import (
    StateFormatError,
    action_from,
    action_to_json,
    describe,
    fail,
    from_jsonable,
    pending_from,
    pending_to_json,
    to_jsonable,
)
from fcm_env.engine.persistence.strict_json import JsonRefused, loads_strict
from fcm_env.engine.persistence.validate import validate_state
from fcm_env.engine.state import GameState

__all__ = [
    "FORMAT",
    "VERSION",
    "StateFormatError",
    "action_from_json",
    "action_to_json",
    "check_header",
    "dumps",
    "from_jsonable",
    "load_state",
    "pending_from_json",
    "pending_to_json",
    "read_json",
    "save_state",
    "state_diff",
    "state_from_dict",
    "state_to_dict",
    "states_equal",
    "to_jsonable",
]

FORMAT = "fcm-magnate/state"
VERSION = 1
_HEADER = ("format", "version")


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


# ------------------------------------------------------------------ public API


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The state as a JSON-safe dict (only dict, list, str, int, bool and None inside)."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    doc.update(to_jsonable(state))
    return doc


def state_from_dict(data: Any, *, trusted: bool = False) -> GameState:
    """Build a new ``GameState`` from a state document; ``StateFormatError`` if it is malformed.

    ``trusted=True`` is for a document an engine itself just wrote (a native game's ``snapshot``): the
    types are still decoded, the rule-level checks (``validate_state``) are skipped."""
    if not isinstance(data, dict):
        fail("", f"a state document is a JSON object, got {type(data).__name__}")
    check_header(data, FORMAT, VERSION)
    body = {key: value for key, value in data.items() if key not in _HEADER}
    state = from_jsonable(GameState, body)
    if not trusted:
        validate_state(state)  # the rule-level facts (validate.py)
    return state


def _shown(value: Any) -> str:
    """A header value in an error: its repr, or ``describe``'s words for a list or object (never a deep repr)."""
    return describe(value) if isinstance(value, (list, dict)) else repr(value)[:60]


def check_header(data: dict[str, Any], fmt: str, version: int) -> None:
    """Check the ``format`` tag and ``version`` number of a document."""
    if data.get("format") != fmt:
        fail("format", f"expected {fmt!r}, got {_shown(data.get('format'))}")
    got = data.get("version")
    if got != version or isinstance(got, bool):
        fail("version", f"unsupported version {_shown(got)}; this engine reads version {version}")


def save_state(state: GameState, path: str | Path) -> None:
    Path(path).write_text(dumps(state_to_dict(state)) + "\n", encoding="utf-8")


def load_state(path: str | Path) -> GameState:
    return state_from_dict(read_json(path))


def read_json(path: str | Path) -> Any:
    """Parse a JSON file with the strict reader; bad JSON raises ``StateFormatError`` naming the file."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        return loads_strict(text)  # no NaN, no repeated key, no nesting past 32 levels (strict_json.py)
    except JsonRefused as exc:
        raise StateFormatError(f"{path}: {exc}") from None


def action_from_json(obj: Any, path: str = "action") -> Action:
    """``["TRAIN", [17, 28, 29]]`` -> ``Action.train(17, 28, 29)``; ``StateFormatError`` if malformed."""
    return action_from(obj, (None, path))


def pending_from_json(obj: Any, path: str = "pending") -> Pending:
    return pending_from(obj, (None, path))


def dumps(doc: Any, width: int = 100) -> str:
    """JSON text that stays readable: objects one key per line, lists of scalars on one line."""

    def has_object(value: Any) -> bool:
        return isinstance(value, dict) or (isinstance(value, list) and any(has_object(v) for v in value))

    def write(value: Any, indent: str) -> str:
        inner = indent + "  "
        if isinstance(value, dict):
            if not value:
                return "{}"
            items = [f"{inner}{json.dumps(k)}: {write(v, inner)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + indent + "}"
        if isinstance(value, list):
            flat = json.dumps(value, separators=(", ", ": "))
            scalars = not any(isinstance(v, (list, dict)) for v in value)
            if scalars or (not has_object(value) and len(flat) + len(indent) <= width):
                return flat
            items = [inner + write(v, inner) for v in value]
            return "[\n" + ",\n".join(items) + "\n" + indent + "]"
        return json.dumps(value)

    return write(doc, "")


# ------------------------------------------------------------------ equality


def state_diff(a: Any, b: Any, limit: int = 20) -> list[str]:
    """Where two states (or any values built of the same types) differ, as field paths.

    Arrays compare by dtype, shape and values; boards by layout; dicts also by key
    order (iteration order can reach the rules). Empty when equal.
    """
    out: list[str] = []
    _diff(a, b, "", out, limit)
    return out


def states_equal(a: GameState, b: GameState) -> bool:
    return not state_diff(a, b, limit=1)


_PLAIN = (int, str, bool, float, type(None))


def _diff(a: Any, b: Any, path: str, out: list[str], limit: int) -> None:
    if len(out) >= limit:
        return
    where = path or "state"
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            out.append(f"{where}: {type(a).__name__} != {type(b).__name__}")
        elif a.dtype != b.dtype or a.shape != b.shape:
            out.append(f"{where}: {a.dtype}{list(a.shape)} != {b.dtype}{list(b.shape)}")
        elif not np.array_equal(a, b):
            out.append(f"{where}: {a.tolist()} != {b.tolist()}")
    elif isinstance(a, Board) or isinstance(b, Board):
        la = a.layout_strings() if isinstance(a, Board) else a
        lb = b.layout_strings() if isinstance(b, Board) else b
        if la != lb:
            out.append(f"{where}: board {la} != {lb}")
    elif dataclasses.is_dataclass(a) and not isinstance(a, type):
        if type(a) is not type(b):
            out.append(f"{where}: {type(a).__name__} != {type(b).__name__}")
            return
        for f in dataclasses.fields(a):
            _diff(getattr(a, f.name), getattr(b, f.name), _join(path, f.name), out, limit)
    elif isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            out.append(f"{where}: keys {list(a)} != {list(b)}")
            return
        for k in a:
            _diff(a[k], b[k], f"{path}[{k}]", out, limit)
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if type(a) is type(b) and all(type(x) in _PLAIN for x in a) and all(type(y) in _PLAIN for y in b):
            if a != b:
                out.append(f"{where}: {a!r} != {b!r}")
            return
        if type(a) is not type(b) or len(a) != len(b):
            out.append(f"{where}: {a!r} != {b!r}")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, f"{path}[{i}]", out, limit)
    elif a != b or isinstance(a, Enum) != isinstance(b, Enum):
        out.append(f"{where}: {a!r} != {b!r}")
