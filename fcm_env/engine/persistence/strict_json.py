"""The one strict reader of JSON from outside: files (states, records, tournament lines) and front-end messages.

Why one: a hostile or broken input must be refused the same way wherever it comes in. Python's own
``json.loads`` accepts what the standard does not (NaN, Infinity, 1e999, a key twice) and recurses, so
JSON nested 100,000 levels deep ends the program with a ``RecursionError``; this reader refuses all of
that with one ``JsonRefused`` line (``fcm serve`` and ``fcm web`` say the same words for their lines and
messages, ``fcm_apps.server.decode_line``).
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

MAX_DEPTH = 32  # nesting levels of lists and objects: a saved state or record needs fewer than 10


class JsonRefused(ValueError):
    """Not one strict JSON value (the message says why, starting "not valid JSON" or "not accepted")."""


class _NotStrict(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _NotStrict(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotStrict(f"the number {text[:40]} is out of range")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        repeated = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _NotStrict(f"the key {repeated!r} appears twice in one object")
    return out


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """Nesting levels of lists and objects, without recursion (stops counting past ``limit``)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if deepest > limit:
                break
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def loads_strict(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of ``text``; ``JsonRefused`` for anything but one strict JSON value nested at most
    ``max_depth`` levels (never a ``RecursionError``)."""
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise JsonRefused(f"not valid JSON: {exc}") from None
    except _NotStrict as exc:
        raise JsonRefused(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise JsonRefused(f"not accepted: JSON nested deeper than {max_depth} levels") from None
    except ValueError:  # the only other one: an integer too long for int() (sys.get_int_max_str_digits)
        raise JsonRefused(f"not accepted: integers have at most {sys.get_int_max_str_digits()} digits") from None
    if depth(value, max_depth) > max_depth:
        raise JsonRefused(f"not accepted: JSON nested deeper than {max_depth} levels")
    return value
