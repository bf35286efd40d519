"""A generic, strict codec between dataclasses and JSON values, driven by type hints.

Why: the state format must follow the state's dataclasses as helpers add fields,
and a hand-written or damaged document must fail with the path of the bad field,
never load half-way. ``serialize`` (states) and ``records`` (game records) use it.
The rules of the mapping are listed in ``serialize``'s docstring and in
docs/state-format.md.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cache, lru_cache
from typing import Any

import numpy as np

from fcm_env.engine.actions import Action, ActionKind, Decision, Pending
from fcm_env.engine.board.geometry import Board
from fcm_env.engine.persistence.strict_json import depth


class StateFormatError(ValueError):
    """A document that cannot be loaded; the message starts with the field path."""


def fail(path: Any, message: str) -> typing.NoReturn:
    """Raise ``StateFormatError`` for ``path`` (a string or a linked path)."""
    where = render_path(path)
    raise StateFormatError(f"{where}: {message}" if where else message)


def action_to_json(action: Action) -> list[Any]:
    """``Action.train(17, 28, 29)`` -> ``["TRAIN", [17, 28, 29]]``."""
    return [ActionKind(action.kind).name, [int(a) for a in action.args]]


def pending_to_json(pending: Pending) -> list[Any]:
    """``Pending(Decision.RECRUIT, 1)`` -> ``["RECRUIT", 1, []]``."""
    return [Decision(pending.decision).name, int(pending.player), [int(c) for c in pending.context]]


# Each type hint is compiled once into an encoder and a decoder (closures, cached),
# so saving and loading a state costs about a millisecond. Field paths are built
# lazily as linked ``(parent, part)`` pairs and only rendered into text for errors.

Enc = Callable[[Any, Any], Any]  # (value, path) -> JSON value
Dec = Callable[[Any, Any], Any]  # (JSON value, path) -> value
_NONE = type(None)


def to_jsonable(obj: Any) -> dict[str, Any]:
    """Any dataclass instance as a JSON-safe dict, field by field (rules: serialize's docstring)."""
    return _encoder(type(obj))(obj, None)


def from_jsonable(cls: type, data: Any, path: str = "") -> Any:
    """Build a ``cls`` dataclass instance from ``to_jsonable`` output; ``StateFormatError`` if malformed."""
    return _decoder(cls)(data, (None, path) if path else None)


def render_path(path: Any) -> str:
    if isinstance(path, str):
        return path
    parts = []
    while path is not None:
        path, part = path
        parts.append(part)
    out = ""
    for part in reversed(parts):
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.startswith("["):
            out += part
        else:
            out += f".{part}" if out else part
    return out


@cache
def _fields(cls: type) -> tuple[tuple[dataclasses.Field, Any], ...]:
    try:
        hints = typing.get_type_hints(cls)
    except NameError as exc:  # a hint that only exists under TYPE_CHECKING
        raise TypeError(f"cannot resolve the type hints of {cls.__name__}: {exc}") from None
    return tuple((f, hints[f.name]) for f in dataclasses.fields(cls))


def _array_template(cls: type, spec: dataclasses.Field) -> np.ndarray:
    """An array field's dtype and shape, taken from its ``default_factory``."""
    made = spec.default_factory() if spec.default_factory is not dataclasses.MISSING else None
    if not isinstance(made, np.ndarray):
        raise TypeError(
            f"{cls.__name__}.{spec.name}: an array field needs a default_factory that makes an array "
            "of the right dtype and shape, so that a saved state can be loaded"
        )
    return made


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def _is_array(hint: Any) -> bool:
    if hint is np.ndarray or typing.get_origin(hint) is np.ndarray:
        return True
    return _is_union(hint) and any(_is_array(a) for a in typing.get_args(hint))


def _is_fixed_tuple(origin: Any, args: tuple) -> bool:
    return origin is tuple and bool(args) and not (len(args) == 2 and args[1] is Ellipsis)


def _unsupported(hint: Any, what: str) -> TypeError:
    return TypeError(f"cannot {what} a value of type {hint!r}")


# ------------------------------------------------------------------ encoders


@cache
def _encoder(hint: Any) -> Enc:
    if hint is Any:
        return _json_copy
    args = typing.get_args(hint)
    if _is_union(hint):
        arms = [(a, _encoder(a)) for a in args if a is not _NONE]
        nullable = len(arms) < len(args)

        def union(value: Any, path: Any) -> Any:
            if value is None:
                if nullable:
                    return None
                raise TypeError(f"{render_path(path)}: None is not a {hint}")
            for arm, enc in arms:
                if len(arms) == 1 or _runtime_match(value, arm):
                    return enc(value, path)
            raise TypeError(f"{render_path(path)}: {value!r} is not a {hint}")

        return union
    origin = typing.get_origin(hint) or hint
    if not isinstance(origin, type):
        raise _unsupported(hint, "save")
    if issubclass(origin, Enum):
        return lambda value, path: origin(value).name
    special = {Board: lambda v, p: v.layout_strings(), Action: lambda v, p: action_to_json(v),
               Pending: lambda v, p: pending_to_json(v), np.ndarray: lambda v, p: np.asarray(v).tolist()}
    if origin in special:
        return special[origin]
    if dataclasses.is_dataclass(origin):
        return _dataclass_encoder(origin)
    if origin in (bool, int, float, str):
        return lambda value, path: _encode_scalar(value, origin, path)
    if _is_fixed_tuple(origin, args):
        encs = [_encoder(a) for a in args]
        ints = all(a is int for a in args)

        def fixed(value: Any, path: Any) -> list[Any]:
            if len(value) != len(encs):
                raise TypeError(f"{render_path(path)}: expected {len(encs)} items, got {value!r}")
            if ints and all(type(v) is int for v in value):
                return list(value)
            return [enc(v, (path, i)) for i, (v, enc) in enumerate(zip(value, encs))]

        return fixed
    if origin in (list, tuple, set, frozenset):
        element = _encoder(args[0] if args else Any)
        ints = bool(args) and args[0] is int
        ordered = origin in (set, frozenset)

        def sequence(value: Any, path: Any) -> list[Any]:
            items = sorted(value) if ordered else value
            if ints and all(type(v) is int for v in items):
                return list(items)
            return [element(v, (path, i)) for i, v in enumerate(items)]

        return sequence
    if origin is dict:
        key_hint, value_hint = args if args else (str, Any)
        value_enc = _encoder(value_hint)
        return lambda value, path: {
            _encode_key(k, key_hint, path): value_enc(v, (path, f"[{k}]")) for k, v in value.items()
        }
    raise _unsupported(hint, "save")


def _dataclass_encoder(cls: type) -> Enc:
    plan: list[tuple[str, Enc]] = []  # filled on first use, so a dataclass may refer to itself

    def encode(obj: Any, path: Any) -> dict[str, Any]:
        if not plan:
            plan.extend((f.name, _encoder(hint)) for f, hint in _fields(cls))
        if not isinstance(obj, cls):
            raise TypeError(f"{render_path(path) or 'value'}: expected a {cls.__name__}, got {type(obj).__name__}")
        return {name: enc(getattr(obj, name), (path, name)) for name, enc in plan}

    return encode


def _runtime_match(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint) or hint
    if origin is Any:
        return True
    if origin is int:
        return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if origin is float:
        return isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
    return isinstance(origin, type) and isinstance(value, origin)


def _encode_scalar(value: Any, kind: type, path: Any) -> Any:
    if kind is int and isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    if kind is bool and isinstance(value, (bool, np.bool_)):
        return bool(value)
    if kind is float and isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return float(value)
    if kind is str and isinstance(value, str):
        return value
    raise TypeError(f"{render_path(path)}: cannot save {value!r} as {kind.__name__}")


def _encode_key(key: Any, hint: Any, path: Any) -> str:
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(key).name
    if hint is int:
        return str(_encode_scalar(key, int, path))
    if hint is str and isinstance(key, str):
        return key
    raise TypeError(f"{render_path(path)}: cannot save the dict key {key!r} ({hint!r})")


def _json_copy(value: Any, path: Any) -> Any:
    """A checked copy of a free-form JSON value (``Any`` fields such as a record's ``meta``)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_json_copy(v, (path, i)) for i, v in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                fail(path, f"object keys must be strings, got {k!r}")
            out[k] = _json_copy(v, (path, f"[{k}]"))
        return out
    fail(path, f"not a JSON value: {describe(value)}")


# ------------------------------------------------------------------ decoders


@cache
def _decoder(hint: Any) -> Dec:
    if hint is Any:
        return _json_copy
    args = typing.get_args(hint)
    if _is_union(hint):
        return _union_decoder(hint, [_decoder(a) for a in args if a is not _NONE])
    origin = typing.get_origin(hint) or hint
    if not isinstance(origin, type):
        raise _unsupported(hint, "load")
    if issubclass(origin, Enum):
        return lambda data, path: _decode_enum(data, origin, path)
    special = {Board: _decode_board, Action: action_from, Pending: pending_from, int: _decode_int}
    if origin in special:
        return special[origin]
    if origin is np.ndarray:
        raise TypeError(f"an array inside a {hint!r} container cannot be loaded (no dtype/shape)")
    if dataclasses.is_dataclass(origin):
        return _dataclass_decoder(origin)
    if origin in (bool, float, str):
        return lambda data, path: _decode_scalar(data, origin, path)
    if _is_fixed_tuple(origin, args):
        return _fixed_tuple_decoder([_decoder(a) for a in args])
    if origin in (list, tuple, set, frozenset):
        return _sequence_decoder(origin, args[0] if args else Any)
    if origin is dict:
        key_hint, value_hint = args if args else (str, Any)
        return _dict_decoder(key_hint, _decoder(value_hint))
    raise _unsupported(hint, "load")


def _union_decoder(hint: Any, arms: list[Dec]) -> Dec:
    nullable = len(arms) < len(typing.get_args(hint))

    def union(data: Any, path: Any) -> Any:
        if data is None:
            if nullable:
                return None
            fail(path, f"expected {str(hint).replace('typing.', '')}, got null")
        if len(arms) == 1:
            return arms[0](data, path)
        for dec in arms:
            try:
                return dec(data, path)
            except StateFormatError:
                continue
        fail(path, f"expected {str(hint).replace('typing.', '')}, got {describe(data)}")

    return union


def _dataclass_decoder(cls: type) -> Dec:
    plan: list[tuple[str, bool, Any, Dec | None]] = []  # name, init, default field, decoder
    names: set[str] = set()  # the field names, built with the plan (not for every object decoded)

    def decode(data: Any, path: Any) -> Any:
        if not plan:
            for f, hint in _fields(cls):
                dec = _array_field_decoder(cls, f, hint) if _is_array(hint) else _decoder(hint)
                plan.append((f.name, f.init, f, dec))
            names.update(name for name, *_ in plan)
        if type(data) is not dict:
            fail(path, f"expected an object ({cls.__name__}), got {describe(data)}")
        for key in data:
            if key not in names:
                close = difflib.get_close_matches(str(key), [name for name, *_ in plan], n=1)
                fail(path, f"unknown field {key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        kwargs: dict[str, Any] = {}
        late: dict[str, Any] = {}
        for name, init, spec, dec in plan:
            if name in data:
                value = dec(data[name], (path, name))
            elif spec.default is not dataclasses.MISSING:
                value = spec.default
            elif spec.default_factory is not dataclasses.MISSING:
                value = spec.default_factory()
            else:
                fail(path, f"missing field {name!r}")
            (kwargs if init else late)[name] = value
        try:
            obj = cls(**kwargs)
        except (TypeError, ValueError) as exc:
            fail(path, f"invalid {cls.__name__}: {exc}")
        for name, value in late.items():
            setattr(obj, name, value)
        return obj

    return decode


def _array_field_decoder(cls: type, spec: dataclasses.Field, hint: Any) -> Dec:
    template = _array_template(cls, spec)
    array = lambda data, path: _decode_array(data, template, path)
    return _union_decoder(hint, [array]) if _is_union(hint) else array


def _fixed_tuple_decoder(decs: list[Dec]) -> Dec:
    ints = all(dec is _decode_int for dec in decs)

    def fixed(data: Any, path: Any) -> tuple:
        if type(data) is not list:
            fail(path, f"expected a list of {len(decs)} items, got {describe(data)}")
        if len(data) != len(decs):
            fail(path, f"expected {len(decs)} items, got {len(data)}")
        if ints and all(type(v) is int for v in data):
            return tuple(data)
        return tuple(dec(v, (path, i)) for i, (v, dec) in enumerate(zip(data, decs)))

    return fixed


def _sequence_decoder(origin: type, element_hint: Any) -> Dec:
    element = _decoder(element_hint)
    ints = element_hint is int

    def sequence(data: Any, path: Any) -> Any:
        if type(data) is not list:
            fail(path, f"expected a list, got {describe(data)}")
        if ints and all(type(v) is int for v in data):
            items = list(data)
        else:
            items = [element(v, (path, i)) for i, v in enumerate(data)]
        if origin is list:
            return items
        if origin is tuple:
            return tuple(items)
        members = set(items)
        if len(members) != len(items):
            fail(path, "a set lists a member twice")
        return members if origin is set else frozenset(members)

    return sequence


def _dict_decoder(key_hint: Any, value_dec: Dec) -> Dec:
    if not (key_hint in (int, str) or (isinstance(key_hint, type) and issubclass(key_hint, Enum))):
        raise _unsupported(dict[key_hint, Any], "load")

    def mapping(data: Any, path: Any) -> dict[Any, Any]:
        if type(data) is not dict:
            fail(path, f"expected an object, got {describe(data)}")
        out = {}
        for key, value in data.items():
            sub = (path, f"[{key}]")
            if type(key) is not str:
                fail(sub, f"object keys are strings, got {key!r}")
            if key_hint is int:
                if not (key.lstrip("-").isdigit() and str(int(key)) == key):
                    fail(sub, f"expected an integer key, got {key!r}")
                k = int(key)
            else:
                k = key if key_hint is str else _decode_enum(key, key_hint, sub)
            out[k] = value_dec(value, sub)
        return out

    return mapping


def _decode_scalar(data: Any, kind: type, path: Any) -> Any:
    if kind is bool and isinstance(data, bool):
        return data
    if kind is float and isinstance(data, (int, float)) and not isinstance(data, bool):
        return float(data)
    if kind is str and isinstance(data, str):
        return data
    fail(path, f"expected a {kind.__name__}, got {describe(data)}")


def _decode_int(data: Any, path: Any) -> int:
    if type(data) is int:
        return data
    fail(path, f"expected an integer, got {describe(data)}")


def _int_list(data: Any, path: Any) -> list[int]:
    if type(data) is not list:
        fail(path, f"expected a list of integers, got {describe(data)}")
    return [_decode_int(v, (path, i)) for i, v in enumerate(data)]


def _decode_enum(data: Any, enum: type[Enum], path: Any) -> Any:
    if not isinstance(data, str):
        fail(path, f"expected a {enum.__name__} name, got {describe(data)}")
    member = enum.__members__.get(data)
    if member is None:
        close = difflib.get_close_matches(data, list(enum.__members__), n=1)
        fail(path, f"unknown {enum.__name__} {data!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    return member


def _decode_array(data: Any, template: np.ndarray, path: Any) -> np.ndarray:
    kind = template.dtype.kind
    if template.ndim == 1:
        noun = {"b": "booleans", "f": "numbers"}.get(kind, "integers")
        if type(data) is not list:
            fail(path, f"expected a list of {template.shape[0]} {noun}, got {describe(data)}")
        if len(data) != template.shape[0]:
            fail(path, f"expected {template.shape[0]} {noun}, got {len(data)}")
        flat = data
    else:
        flat = []
        _flatten_shape(data, template.shape, path, flat)
    if kind in "iu":
        info = _int_range(template.dtype)
        fast = all(type(v) is int for v in flat) and (not flat or info.min <= min(flat) and max(flat) <= info.max)
    else:
        fast = all(type(v) is bool for v in flat) if kind == "b" else all(type(v) in (int, float) for v in flat)
    if not fast:  # find the culprit
        for i, v in enumerate(flat):
            where = (path, i) if template.ndim == 1 else (path, f" (item {i})")
            if kind == "b":
                if type(v) is not bool:
                    fail(where, f"expected a boolean, got {describe(v)}")
            elif type(v) not in ((int, float) if kind == "f" else (int,)):
                fail(where, f"expected {'a number' if kind == 'f' else 'an integer'}, got {describe(v)}")
            elif kind in "iu" and not info.min <= v <= info.max:
                fail(where, f"{v} does not fit {template.dtype}")
    return np.array(flat, dtype=template.dtype).reshape(template.shape)


@cache
def _int_range(dtype: np.dtype) -> np.iinfo:
    """``np.iinfo`` once per dtype: building it costs more than checking a card vector (measured:
    benchmarks/bench_persistence.py)."""
    return np.iinfo(dtype)


def _flatten_shape(data: Any, shape: tuple[int, ...], path: Any, out: list) -> None:
    if type(data) is not list or len(data) != shape[0]:
        got = f"{len(data)} items" if type(data) is list else describe(data)
        fail(path, f"expected a list of {shape[0]} items, got {got}")
    for i, v in enumerate(data):
        if len(shape) == 1:
            out.append(v)
        else:
            _flatten_shape(v, shape[1:], (path, i), out)


def action_from(obj: Any, path: Any) -> Action:
    if not (type(obj) is list and len(obj) == 2):
        fail(path, f"expected [kind, [args]], got {describe(obj)}")
    return Action(_decode_enum(obj[0], ActionKind, (path, 0)), tuple(_int_list(obj[1], (path, 1))))


def pending_from(obj: Any, path: Any) -> Pending:
    if not (type(obj) is list and len(obj) == 3):
        fail(path, f"expected [decision, player, [context]], got {describe(obj)}")
    decision = _decode_enum(obj[0], Decision, (path, 0))
    return Pending(decision, _decode_int(obj[1], (path, 1)), tuple(_int_list(obj[2], (path, 2))))


@lru_cache(maxsize=64)
def _board_from_rows(rows: tuple[tuple[str, ...], ...]) -> Board:
    """Boards are immutable and costly to build: states loaded with one layout share one."""
    return Board.from_tiles([list(r) for r in rows])


def _decode_board(data: Any, path: Any) -> Board:
    if type(data) is not list or not all(type(row) is list for row in data):
        fail(path, f"bad tile layout: expected rows of tiles like [['K2', 'I2'], ...], got {describe(data)}")
    for r, row in enumerate(data):
        for c, tile in enumerate(row):
            if type(tile) is not str:
                fail(((path, r), c), f"bad tile layout: expected a tile like 'G2', got {describe(tile)}")
    try:
        return _board_from_rows(tuple(tuple(row) for row in data))
    except ValueError as exc:
        fail(path, f"bad tile layout: {exc}")


def describe(value: Any) -> str:
    """A value as an error message shows it: short, and never by recursing into a deep one."""
    if value is None:
        return "null"
    if isinstance(value, (list, dict)) and depth(value, 8) > 8:  # json.dumps would recurse to the bottom
        return f"{type(value).__name__} nested more than 8 levels deep"
    try:
        short = isinstance(value, (list, dict)) and len(json.dumps(value)) <= 40
        text = json.dumps(value) if short or isinstance(value, (str, int, float, bool)) else type(value).__name__
    except ValueError:  # an int of more digits than int -> str allows
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."
