"""Loading speed and error messages of the state/record codec, against library prototypes.

    python benchmarks/bench_persistence.py [--players 2,4] [--seeds 4] [--rounds 31] [--policy random]
    python benchmarks/bench_persistence.py --policy heuristic     # fuller positions (campaigns, cards)

The question: should ``fcm_env/engine/persistence/dataclass_json.py`` (the hand-written typed
dataclass <-> JSON codec under ``serialize`` and ``records``) give way to a maintained library?
Only if the library keeps today's error messages (the field path, the allowed values) and does
not slow loading. This script measures both:

1. Positions: for each player count and seed, seeded random legal play (``--policy random``,
   the act-biased pick of the random soak; or the heuristic agent) to a mid-game decision
   (round 4-6) and a late one (``--late-round``, or game over); ``Game.to_dict()`` documents
   and ``GameRecord.from_game(...).to_dict()`` record documents of both.
2. Today's loading, median microseconds per document over ``--rounds`` timed rounds (each round
   loads every document enough times to last ``--round-ms``; the loaders take turns within each
   round, so load from other processes hits them alike, and the cattrs/today ratios are medians
   of ratios within a round; garbage collection off while timing):
   ``Game.from_dict`` (all checks); the codec alone (header + ``from_jsonable(GameState, body)``,
   no ``_check_consistency``); ``_check_consistency`` alone; ``GameRecord.from_dict`` (its
   ``_check`` rebuilds the board), the record codec alone, and ``replay`` of the record.
3. A cattrs prototype of the same format (a ``cattrs.Converter``, ``forbid_extra_keys``,
   detailed validation, hooks for enums by name, numpy arrays with the field's dtype/shape,
   strict scalars, sets, int-keyed dicts, ``Board``, ``Action``, ``Pending``). Its loaders keep
   ``check_header`` and ``serialize._check_consistency`` (a replacement keeps those), so the
   full rows compare like with like; the codec rows compare the two codecs alone. Its results
   must equal the real loader's (``state_diff`` and ``state_to_dict``) on every document.
   msgspec and pydantic are probed for the parts of the format they cannot express.
4. The malformed documents of ``tests/engine/test_serialize.py`` (``MALFORMED``) through today's
   loader and the prototype: the messages side by side (the prototype's tailored messages and
   stock ``cattrs.transform_error`` output), and how many keep the message, the path and the
   allowed values (a did-you-mean suggestion, a list of choices, a count, a range).

cattrs, msgspec and pydantic are imported lazily: a missing one is named and skipped.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import functools
import gc
import importlib.metadata
import importlib.util
import json
import random
import re
import statistics
import sys
import time
import typing
from collections.abc import Callable
from enum import Enum, IntEnum
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from fcm_env.engine.actions import Action, ActionKind, Decision, Pending
from fcm_env.engine.board.geometry import Board
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.persistence import serialize
from fcm_env.engine.persistence.records import GameRecord, RecordFormatError, replay, start_recording
from fcm_env.engine.persistence.serialize import (
    StateFormatError,
    check_header,
    from_jsonable,
    state_diff,
    state_from_dict,
    state_to_dict,
)
from fcm_env.engine.state import GameState, Phase, Restaurant

HEADER = ("format", "version")


# ------------------------------------------------------------------ positions


@dataclasses.dataclass
class Position:
    players: int
    seed: int
    stage: str  # "mid" or "late"
    round: int
    doc: dict[str, Any]
    record: dict[str, Any]


def play_positions(players: int, seed: int, policy: str, late_round: int) -> list[Position]:
    """A mid-game decision (round 4-6, a few moves in) and the late one of one seeded game."""
    rng = random.Random(seed)
    mid_round, mid_delay = rng.randint(4, 6), rng.randint(0, 3 * players)
    game = start_recording(Game.new(players, seed=seed))
    agent = None
    if policy == "heuristic":
        from agents.heuristic import HeuristicAgent

        agent = HeuristicAgent(seed=seed)
    out: list[Position] = []

    def snap(stage: str) -> None:
        doc = json.loads(json.dumps(game.to_dict()))  # as read from a file
        record = json.loads(json.dumps(GameRecord.from_game(game).to_dict()))
        out.append(Position(players, seed, stage, game.state.round, doc, record))

    while not game.is_over and game.state.round < late_round:
        if not out and game.state.round >= mid_round:
            if mid_delay == 0:
                snap("mid")
            mid_delay -= 1
        legal = game.legal_actions()
        game.apply(agent.act_on_game(game, game.pending.player) if agent else pick(rng, legal))
    snap("late")
    return out


# ------------------------------------------------------------------ timing


def time_interleaved(
    jobs: dict[str, tuple[Callable[[Any], Any], list[Any]]], rounds: int, round_ms: float
) -> dict[str, list[float]]:
    """Microseconds per document of each job, one sample per round.

    The jobs take turns within every round (job A, job B, ..., then the next round), so a burst of
    load from another process hits all of them alike; each round of a job loads its documents
    enough times to last about ``round_ms``. Garbage collection is off while timing.
    """
    reps = {}
    for name, (load, docs) in jobs.items():
        for doc in docs:  # warm up: decoders compiled, boards cached
            load(doc)
        start = time.perf_counter()
        for doc in docs:
            load(doc)
        reps[name] = max(1, int(round_ms / 1e3 / max(time.perf_counter() - start, 1e-9)))
    samples: dict[str, list[float]] = {name: [] for name in jobs}
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            for name, (load, docs) in jobs.items():
                start = time.perf_counter()
                for _ in range(reps[name]):
                    for doc in docs:
                        load(doc)
                samples[name].append((time.perf_counter() - start) / (reps[name] * len(docs)) * 1e6)
    finally:
        if enabled:
            gc.enable()
    return samples


def paired_ratio(mine: list[float], base: list[float]) -> float:
    """The median over rounds of mine/base, both timed in the same round."""
    return statistics.median(m / b for m, b in zip(mine, base))


def body_of(doc: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in doc.items() if key not in HEADER}


def today_codec_only(doc: dict[str, Any]) -> GameState:
    """``state_from_dict`` without ``_check_consistency``: the header and ``dataclass_json`` alone."""
    check_header(doc, serialize.FORMAT, serialize.VERSION)
    return from_jsonable(GameState, body_of(doc))


def today_record_codec_only(doc: dict[str, Any]) -> GameRecord:
    return from_jsonable(GameRecord, body_of(doc))


# ------------------------------------------------------------------ the cattrs prototype


class Refused(ValueError):
    """A prototype hook's refusal: today's wording, without the path (cattrs' notes carry the path)."""


def show(value: Any) -> str:
    """A short JSON rendering of a bad value for a message (``1.5``, ``"x"``, ``null``, ``list``)."""
    if isinstance(value, (list, dict)):
        text = json.dumps(value)
        text = text if len(text) <= 40 else type(value).__name__
    else:
        text = json.dumps(value) if isinstance(value, (str, int, float, bool, type(None))) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class CattrsPrototype:
    """doc -> ``GameState`` / ``GameRecord`` with a ``cattrs.Converter`` (the format of serialize's docstring)."""

    def __init__(self) -> None:
        import cattrs
        from cattrs.cols import list_structure_factory
        from cattrs.errors import (
            AttributeValidationNote,
            ForbiddenExtraKeysError,
            IterableValidationError,
            IterableValidationNote,
        )
        from cattrs.gen import make_dict_structure_fn, override

        self.cattrs = cattrs
        self.AttributeNote, self.IndexNote = AttributeValidationNote, IterableValidationNote
        self.ExtraKeys = ForbiddenExtraKeysError
        conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
        caught = (ValueError, TypeError, KeyError, cattrs.BaseValidationError, ForbiddenExtraKeysError)
        self.conv = conv

        def nested(exc: Exception, *indices: Any, kind: Any = Any) -> Exception:
            """``exc`` noted at ``indices`` (outermost first), as cattrs' own sequence hooks do."""
            for index in reversed(indices):
                exc.__notes__ = [*getattr(exc, "__notes__", []), IterableValidationNote(f"@ {index}", index, kind)]
                exc = IterableValidationError(f"at {index}", [exc], Any)
                kind = Any
            return exc

        def scalar(kind: type, noun: str) -> Callable[[Any, Any], Any]:
            def hook(value: Any, _: Any) -> Any:
                if type(value) is kind or (kind is float and type(value) is int):
                    return kind(value)
                raise Refused(f"expected {noun}, got {show(value)}")

            return hook

        # by class: cattrs' own int/str/float hooks (``int(value)``: "100" -> 100, True -> 1) are class
        # hooks, which win over predicate hooks; the IntEnums get their own class hook below
        for kind, noun in ((int, "an integer"), (bool, "a bool"), (str, "a str"), (float, "a float")):
            conv.register_structure_hook(kind, scalar(kind, noun))

        def enum_by_name(enum: type[Enum]) -> Callable[[Any, Any], Any]:
            members = enum.__members__

            def hook(value: Any, _: Any) -> Enum:
                if type(value) is not str:
                    raise Refused(f"expected a {enum.__name__} name, got {show(value)}")
                member = members.get(value)
                if member is None:
                    raise Refused(f"unknown {enum.__name__} {value!r}" + suggest(value, list(members)))
                return member

            return hook

        # an IntEnum is an int, and class hooks win over predicate factories: a factory for enums would
        # never be asked, so Enum and IntEnum get class hooks (IntEnum precedes int in their MRO)
        by_name = functools.cache(enum_by_name)
        conv.register_structure_hook(Enum, lambda value, t: by_name(t)(value, t))
        conv.register_structure_hook(IntEnum, lambda value, t: by_name(t)(value, t))

        def int_list(value: Any, index: int) -> tuple[int, ...]:
            if type(value) is not list:
                raise nested(Refused(f"expected a list of integers, got {show(value)}"), index)
            for i, v in enumerate(value):
                if type(v) is not int:
                    raise nested(Refused(f"expected an integer, got {show(v)}"), index, i, kind=int)
            return tuple(value)

        def action_hook(value: Any, _: Any) -> Action:
            if type(value) is not list or len(value) != 2:
                raise Refused(f"expected [kind, [args]], got {show(value)}")
            try:
                kind = enum_by_name(ActionKind)(value[0], None)
            except Refused as exc:
                raise nested(exc, 0, kind=ActionKind) from None
            return Action(kind, int_list(value[1], 1))

        def pending_hook(value: Any, _: Any) -> Pending:
            if type(value) is not list or len(value) != 3:
                raise Refused(f"expected [decision, player, [context]], got {show(value)}")
            try:
                decision = enum_by_name(Decision)(value[0], None)
            except Refused as exc:
                raise nested(exc, 0, kind=Decision) from None
            if type(value[1]) is not int:
                raise nested(Refused(f"expected an integer, got {show(value[1])}"), 1, kind=int)
            return Pending(decision, value[1], int_list(value[2], 2))

        @functools.lru_cache(maxsize=64)
        def board_from_rows(rows: tuple[tuple[str, ...], ...]) -> Board:
            return Board.from_tiles([list(r) for r in rows])

        def board_hook(value: Any, _: Any) -> Board:
            if type(value) is not list or not all(type(row) is list for row in value):
                raise Refused(f"bad tile layout: expected rows of tiles like [['K2', 'I2'], ...], got {show(value)}")
            for r, row in enumerate(value):
                for c, tile in enumerate(row):
                    if type(tile) is not str:
                        raise nested(Refused(f"bad tile layout: expected a tile like 'G2', got {show(tile)}"), r, c)
            try:
                return board_from_rows(tuple(tuple(row) for row in value))
            except ValueError as exc:
                raise Refused(f"bad tile layout: {exc}") from None

        def json_value(value: Any, _: Any = None) -> Any:
            """``Any`` fields (a record's ``meta``, ``events``): a checked copy, as today (cattrs passes them)."""
            if value is None or type(value) in (bool, int, float, str):
                return value
            if type(value) is list:
                return [json_value(v) for v in value]
            if type(value) is dict and all(type(k) is str for k in value):
                return {k: json_value(v) for k, v in value.items()}
            raise Refused(f"not a JSON value: {show(value)}")

        conv.register_structure_hook_func(lambda t: t is Any, json_value)
        conv.register_structure_hook(Action, action_hook)
        conv.register_structure_hook(Pending, pending_hook)
        conv.register_structure_hook(Board, board_hook)

        def list_factory(hint: Any) -> Callable[[Any, Any], Any]:
            stock = list_structure_factory(hint, conv)
            ints = typing.get_args(hint) == (int,)

            def hook(value: Any, t: Any) -> list:
                if type(value) is not list:
                    raise Refused(f"expected a list, got {show(value)}")
                if ints and all(type(v) is int for v in value):
                    return list(value)
                return stock(value, t)

            return hook

        def set_factory(hint: Any) -> Callable[[Any, Any], Any]:
            as_list = conv.get_structure_hook(list[typing.get_args(hint)[0]])
            make = typing.get_origin(hint)

            def hook(value: Any, t: Any) -> Any:
                items = as_list(value, t)
                members = make(items)
                if len(members) != len(items):
                    raise Refused("a set lists a member twice")
                return members

            return hook

        def tuple_factory(hint: Any) -> Callable[[Any, Any], Any]:
            args = typing.get_args(hint)
            if len(args) == 2 and args[1] is Ellipsis:
                as_list = conv.get_structure_hook(list[args[0]])
                return lambda value, t: tuple(as_list(value, t))
            hooks = [conv.get_structure_hook(a) for a in args]
            ints = all(a is int for a in args)

            def fixed(value: Any, _: Any) -> tuple:
                if type(value) is not list:
                    raise Refused(f"expected a list of {len(args)} items, got {show(value)}")
                if len(value) != len(args):
                    raise Refused(f"expected {len(args)} items, got {len(value)}")
                if ints and all(type(v) is int for v in value):
                    return tuple(value)
                out = []
                for i, (v, h, a) in enumerate(zip(value, hooks, args)):
                    try:
                        out.append(h(v, a))
                    except caught as exc:
                        raise nested(exc, i) from None
                return tuple(out)

            return fixed

        def dict_factory(hint: Any) -> Callable[[Any, Any], Any]:
            key_hint, value_hint = typing.get_args(hint) or (str, Any)
            if key_hint not in (int, str):
                raise TypeError(f"prototype: unsupported dict key {key_hint!r}")
            value_hook = conv.get_structure_hook(value_hint)

            def hook(value: Any, _: Any) -> dict:
                if type(value) is not dict:
                    raise Refused(f"expected an object, got {show(value)}")
                out = {}
                for key, item in value.items():
                    if type(key) is not str:
                        raise nested(Refused(f"object keys are strings, got {key!r}"), key)
                    if key_hint is int and not (key.lstrip("-").isdigit() and str(int(key)) == key):
                        raise nested(Refused(f"expected an integer key, got {key!r}"), key)
                    try:
                        out[int(key) if key_hint is int else key] = value_hook(item, value_hint)
                    except caught as exc:
                        raise nested(exc, key) from None
                return out

            return hook

        def origin_is(*kinds: type) -> Callable[[Any], bool]:
            return lambda t: typing.get_origin(t) in kinds

        conv.register_structure_hook_factory(origin_is(list), list_factory)
        conv.register_structure_hook_factory(origin_is(set, frozenset), set_factory)
        conv.register_structure_hook_factory(origin_is(tuple), tuple_factory)
        conv.register_structure_hook_factory(origin_is(dict), dict_factory)

        def array_hook(template: np.ndarray) -> Callable[[Any, Any], np.ndarray]:
            kind, shape, dtype = template.dtype.kind, template.shape, template.dtype
            noun = {"b": "booleans", "f": "numbers"}.get(kind, "integers")
            low, high = (np.iinfo(dtype).min, np.iinfo(dtype).max) if kind in "iu" else (None, None)

            def hook(value: Any, _: Any) -> np.ndarray:
                if len(shape) != 1:  # the state's arrays are all 1-D; 2-D would flatten with paths
                    return np.array(value, dtype=dtype).reshape(shape)
                if type(value) is not list:
                    raise Refused(f"expected a list of {shape[0]} {noun}, got {show(value)}")
                if len(value) != shape[0]:
                    raise Refused(f"expected {shape[0]} {noun}, got {len(value)}")
                if kind in "iu" and all(type(v) is int for v in value) and (
                        not value or low <= min(value) and max(value) <= high):
                    return np.array(value, dtype=dtype)
                for i, v in enumerate(value):
                    if kind == "b" and type(v) is not bool:
                        raise nested(Refused(f"expected a boolean, got {show(v)}"), i, kind=bool)
                    if kind in "iu" and type(v) is not int:
                        raise nested(Refused(f"expected an integer, got {show(v)}"), i, kind=int)
                    if kind in "iu" and not low <= v <= high:
                        raise nested(Refused(f"{v} does not fit {dtype}"), i, kind=dtype.type)
                return np.array(value, dtype=dtype)

            return hook

        def dataclass_factory(cls: type) -> Callable[[Any, Any], Any]:
            hints = typing.get_type_hints(cls)
            arrays = {}
            for f in dataclasses.fields(cls):
                if hints[f.name] is np.ndarray:
                    arrays[f.name] = override(struct_hook=array_hook(f.default_factory()))
            generated = make_dict_structure_fn(cls, conv, **arrays)

            def hook(value: Any, t: Any) -> Any:
                if type(value) is not dict:
                    raise Refused(f"expected an object ({cls.__name__}), got {show(value)}")
                return generated(value, t)

            return hook

        conv.register_structure_hook_factory(
            lambda t: dataclasses.is_dataclass(t) and isinstance(t, type) and t not in (Action, Pending),
            dataclass_factory,
        )
        self.structure_state = conv.get_structure_hook(GameState)
        self.structure_record = conv.get_structure_hook(GameRecord)
        self.validation_errors = (cattrs.BaseValidationError, Refused, ForbiddenExtraKeysError)

    # -- loaders (the same contract as today's) ------------------------------------

    def codec_only(self, doc: dict[str, Any]) -> GameState:
        check_header(doc, serialize.FORMAT, serialize.VERSION)
        return self.structure_state(body_of(doc), GameState)

    def state_from_dict(self, doc: Any) -> GameState:
        if not isinstance(doc, dict):
            raise StateFormatError(f"a state document is a JSON object, got {type(doc).__name__}")
        check_header(doc, serialize.FORMAT, serialize.VERSION)
        try:
            state = self.structure_state(body_of(doc), GameState)
        except self.validation_errors as exc:
            raise StateFormatError(self.message(exc)) from None
        serialize._check_consistency(state)
        return state

    def game_from_dict(self, doc: Any) -> Game:
        return Game(self.state_from_dict(doc))

    def record_codec_only(self, doc: dict[str, Any]) -> GameRecord:
        return self.structure_record(body_of(doc), GameRecord)

    def record_from_dict(self, doc: dict[str, Any]) -> GameRecord:
        try:
            check_header(doc, "fcm-magnate/record", 1)
            record = self.structure_record(body_of(doc), GameRecord)
        except StateFormatError as exc:
            raise RecordFormatError(str(exc)) from None
        except self.validation_errors as exc:
            raise RecordFormatError(self.message(exc)) from None
        record._check()
        return record

    # -- messages --------------------------------------------------------------------

    def message(self, exc: BaseException) -> str:
        """The first error as ``path: text`` in today's layout (cattrs' notes give the path)."""
        path: list[tuple[str, Any]] = []
        while isinstance(exc, BaseExceptionGroup):
            sub = exc.exceptions[0]
            note = next((n for n in getattr(sub, "__notes__", ())
                         if isinstance(n, (self.AttributeNote, self.IndexNote))), None)
            if isinstance(note, self.AttributeNote):
                if isinstance(sub, KeyError):
                    return self._render(path, f"missing field {note.name!r}")
                path.append(("field", note.name))
            elif isinstance(note, self.IndexNote):
                path.append(("index", note.index))
            exc = sub
        if isinstance(exc, self.ExtraKeys):
            names = [f.name for f in dataclasses.fields(exc.cl)]
            key = min(exc.extra_fields)
            return self._render(path, f"unknown field {key!r}" + suggest(key, names))
        if isinstance(exc, Refused):
            return self._render(path, str(exc))
        return self._render(path, f"{type(exc).__name__}: {exc}")

    @staticmethod
    def _render(path: list[tuple[str, Any]], text: str) -> str:
        where = ""
        for kind, part in path:
            where += f"[{part}]" if kind == "index" else (f".{part}" if where else part)
        return f"{where}: {text}" if where else text

    def stock_message(self, exc: BaseException) -> str:
        """What cattrs itself says (``transform_error``, default formatting): the first line."""
        return self.cattrs.transform_error(exc)[0]


# ------------------------------------------------------------------ msgspec and pydantic probes


def probe_msgspec(doc: dict[str, Any]) -> list[str]:
    import msgspec

    def dec_hook(kind: type, value: Any) -> Any:
        if kind is Board:
            return Board.from_tiles(value)
        if kind is np.ndarray:
            return np.array(value)  # the hook is given the type only: no field, so no dtype or shape
        raise NotImplementedError(kind)

    out = []
    for label, value, kind in [
        ("the whole state", body_of(doc), GameState),
        ("an enum by name", "WORKING", Phase),
        ("an Action as [kind, [args]]", ["PASS", []], Action),
        ("an unknown key", {"row": 1, "col": 2, "orientation": 0, "bogus": 1}, Restaurant),
    ]:
        try:
            got = msgspec.convert(value, kind, strict=True, dec_hook=dec_hook)
            out.append(f"{label}: accepted -> {str(got)[:60]}")
        except (msgspec.ValidationError, NotImplementedError, TypeError) as exc:
            out.append(f"{label}: {type(exc).__name__}: {exc}")
    return out


def probe_pydantic() -> list[str]:
    from pydantic import PydanticSchemaGenerationError, TypeAdapter, ValidationError

    out = []
    try:
        TypeAdapter(GameState)
        out.append("TypeAdapter(GameState): built")
    except PydanticSchemaGenerationError as exc:
        out.append(f"TypeAdapter(GameState): {type(exc).__name__}: {str(exc).splitlines()[0]}")
    for label, value, kind in [
        ("an enum by name", "WORKING", Phase),
        ("an unknown key", {"row": 1, "col": 2, "orientation": 0, "bogus": 1}, Restaurant),
    ]:
        try:
            got = TypeAdapter(kind).validate_python(value)
            out.append(f"{label}: accepted -> {got}")
        except ValidationError as exc:
            out.append(f"{label}: {' '.join(str(exc).splitlines()[:2])[:150]}")
    return out


# ------------------------------------------------------------------ malformed documents


def load_malformed() -> tuple[list[tuple[Callable, str]], Callable[[], dict]]:
    """``MALFORMED`` and ``_doc`` of tests/engine/test_serialize.py (it needs pytest importable)."""
    path = ROOT / "tests" / "engine" / "test_serialize.py"
    spec = importlib.util.spec_from_file_location("_bench_test_serialize", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module.MALFORMED, module._doc


PATH_RE = re.compile(r"^([A-Za-z_][\w.\[\]]*): ")
HINT_RES = [
    re.compile(r"did you mean '[^']+'"),
    re.compile(r"expected one of \[[^\]]*\]"),
    re.compile(r"does not fit \w+"),
    re.compile(r"expected \d+ (?:integers|items|players)"),
    re.compile(r"has \d+x\d+ tiles"),
    re.compile(r"0\.\.\d+"),
]


def path_of(message: str) -> str:
    match = PATH_RE.match(message)
    return match.group(1) if match else ""


def hint_of(message: str) -> str | None:
    """The allowed values that today's message names, if any."""
    for pattern in HINT_RES:
        match = pattern.search(message)
        if match:
            return match.group(0)
    return None


def stock_path(message: str) -> str:
    """``... @ $.players[0].hand[3]`` -> ``players[0].hand[3]`` (dict keys as ``[2]``, not ``['2']``)."""
    where = message.rsplit(" @ ", 1)[-1] if " @ " in message else ""
    where = re.sub(r"\['([^']*)'\]", r"[\1]", where)
    return where.removeprefix("$").removeprefix(".")


def compare_messages(proto: CattrsPrototype | None, verbose: bool) -> dict[str, Any]:
    try:
        cases, make_doc = load_malformed()
    except ImportError as exc:
        print(f"  (malformed cases skipped: {exc})")
        return {}
    rows = []
    for mutate, expected in cases:
        doc = make_doc()
        mutate(doc)
        try:
            Game.from_dict(doc)
            today = "(loaded)"
        except StateFormatError as exc:
            today = str(exc)
        tailored = stock = "(no cattrs)"
        if proto is not None:
            try:
                proto.game_from_dict(doc)
                tailored = "(loaded)"
            except StateFormatError as exc:
                tailored = str(exc)
            try:  # stock cattrs output for the same document (the codec part only)
                proto.structure_state(body_of(doc), GameState)
                stock = "(structured; header/consistency checks are not cattrs')"
            except proto.validation_errors as exc:
                stock = proto.stock_message(exc)
        rows.append((expected, today, tailored, stock))

    n = len(rows)
    hinted = [r for r in rows if hint_of(r[1])]
    summary = {
        "cases": n,
        "today_passes_test": sum(re.search(re.escape(e), t) is not None for e, t, _, _ in rows),
        "proto_passes_test": sum(re.search(re.escape(e), m) is not None for e, _, m, _ in rows),
        "proto_same_message": sum(t == m for _, t, m, _ in rows),
        "proto_same_path": sum(path_of(t) == path_of(m) for _, t, m, _ in rows),
        "hinted": len(hinted),
        "proto_keeps_hint": sum(hint_of(t) in m for _, t, m, _ in hinted),
        "codec_cases": sum(not s.startswith("(structured") for *_, s in rows),
        "stock_same_path": sum(path_of(t) == stock_path(s) for _, t, _, s in rows if not s.startswith("(")),
        "stock_keeps_hint": sum(hint_of(t) in s for _, t, _, s in hinted if not s.startswith("(")),
        "stock_hinted": sum(not s.startswith("(") for *_, s in hinted),
    }
    print(f"\n{'today (dataclass_json + checks)':<58} | {'cattrs prototype (tailored hooks)':<58} | stock cattrs")
    for _, today, tailored, stock in rows:
        if not verbose and today == tailored and stock.startswith("(structured"):
            continue  # header and consistency checks: the same code on both sides
        mark = "=" if today == tailored else "~"
        print(f"{today[:58]:<58} {mark} {tailored[:58]:<58} | {stock}")
    if not verbose:
        print("(rows where both loaders raise the same check_header / _check_consistency message are hidden: "
              "--all-messages shows them)")
    return summary


# ------------------------------------------------------------------ main


def check_equal(proto: CattrsPrototype, positions: list[Position]) -> list[str]:
    problems = []
    for p in positions:
        real, mine = state_from_dict(p.doc), proto.state_from_dict(p.doc)
        diff = state_diff(real, mine)
        if diff or state_to_dict(real) != state_to_dict(mine):
            problems.append(f"{p.players}p seed {p.seed} {p.stage}: {diff[:3]}")
        real_rec, my_rec = GameRecord.from_dict(p.record), proto.record_from_dict(p.record)
        if real_rec.to_dict() != my_rec.to_dict():
            problems.append(f"{p.players}p seed {p.seed} {p.stage}: records differ")
    sparse = dict(positions[0].doc)  # missing keys take the field defaults
    for key in ("bank_debt", "truncated", "campaigns"):
        sparse.pop(key, None)
    if state_diff(state_from_dict(sparse), proto.state_from_dict(sparse)):
        problems.append("a document with missing (defaulted) keys loads differently")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,4", help="player counts (default 2,4)")
    parser.add_argument("--seeds", type=int, default=4, help="seeded games per player count (default 4)")
    parser.add_argument("--policy", choices=("random", "heuristic"), default="random")
    parser.add_argument("--late-round", type=int, default=12, help="the late position's round (default 12)")
    parser.add_argument("--rounds", type=int, default=31, help="timed rounds per figure; medians (default 31)")
    parser.add_argument("--round-ms", type=float, default=20.0, help="length of one timed round (default 20)")
    parser.add_argument("--replay-rounds", type=int, default=5, help="timed rounds of record replay (default 5)")
    parser.add_argument("--all-messages", action="store_true", help="list every malformed case")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.players.split(",")]
    t0 = time.perf_counter()

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, policy {args.policy}, "
          f"seeds 0..{args.seeds - 1}, {args.rounds} rounds of {args.round_ms:g} ms, medians in us per document")
    libs: dict[str, str] = {}
    for name in ("cattrs", "msgspec", "pydantic"):
        try:
            importlib.import_module(name)
            libs[name] = importlib.metadata.version(name)
        except ImportError:
            libs[name] = ""
            print(f"{name} is not installed: its prototype/probe is skipped")
    print("libraries: " + ", ".join(f"{k} {v or 'missing'}" for k, v in libs.items()))

    groups: dict[str, list[Position]] = {}
    for n in counts:
        positions = [p for seed in range(args.seeds) for p in play_positions(n, seed, args.policy, args.late_round)]
        groups[f"{n}p"] = positions
        sizes = [len(json.dumps(p.doc)) for p in positions]
        print(f"{n} players: {len(positions)} positions, rounds {sorted(p.round for p in positions)}, "
              f"state docs {min(sizes)}-{max(sizes)} bytes, records of "
              f"{min(len(p.record['actions']) for p in positions)}-"
              f"{max(len(p.record['actions']) for p in positions)} actions")
    everything = [p for ps in groups.values() for p in ps]

    proto = None
    if libs["cattrs"]:
        proto = CattrsPrototype()
        problems = check_equal(proto, everything)
        print("cattrs prototype == today's loader on every document (state_diff, state_to_dict, records): "
              + ("yes" if not problems else "NO\n  " + "\n  ".join(problems)))

    loaders: list[tuple[str, str, Callable[[Any], Any]]] = [
        ("state", "today: Game.from_dict (all checks)", Game.from_dict),
        ("state", "today: codec only (header + from_jsonable)", today_codec_only),
    ]
    if proto is not None:
        loaders += [
            ("state", "cattrs: Game(...) with the same checks", proto.game_from_dict),
            ("state", "cattrs: codec only (header + structure)", proto.codec_only),
        ]
    loaders.append(("check", "_check_consistency alone (shared)", serialize._check_consistency))
    loaders += [
        ("record", "today: GameRecord.from_dict", GameRecord.from_dict),
        ("record", "today: record codec only (from_jsonable)", today_record_codec_only),
    ]
    if proto is not None:
        loaders += [
            ("record", "cattrs: record with the same _check", proto.record_from_dict),
            ("record", "cattrs: record codec only (structure)", proto.record_codec_only),
        ]

    samples: dict[tuple[str, str], list[float]] = {}
    for g, positions in groups.items():
        jobs: dict[str, tuple[Callable[[Any], Any], list[Any]]] = {}
        for kind, label, load in loaders:
            if kind == "state":
                docs: list[Any] = [p.doc for p in positions]
            elif kind == "check":
                docs = [state_from_dict(p.doc) for p in positions]
            else:
                docs = [p.record for p in positions]
            jobs[label] = (load, docs)
        for label, times in time_interleaved(jobs, args.rounds, args.round_ms).items():
            samples[label, g] = times
        records = [GameRecord.from_dict(p.record) for p in positions]
        replay_label = "replay(record) (engine moves; for scale)"
        samples[replay_label, g] = time_interleaved({"r": (replay, records)}, args.replay_rounds, 0.0)["r"]
    print(f"\n{'loader':<46}" + "".join(f"{g:>20}" for g in groups) + "    (median us/doc, min in brackets)")
    for label in [label for _, label, _ in loaders] + [replay_label]:
        cells = [f"{statistics.median(samples[label, g]):9.1f} ({min(samples[label, g]):7.1f})" for g in groups]
        print(f"{label:<46}" + "".join(f"{c:>20}" for c in cells))

    summary: dict[str, Any] = {}
    if proto is not None:
        summary = compare_messages(proto, args.all_messages)
    else:
        print("\nmalformed-document comparison skipped: it needs cattrs")
    print("\nlibraries that cannot express the format as it is:")
    if libs["msgspec"]:
        for line in probe_msgspec(everything[0].doc):
            print(f"  msgspec.convert, {line}")
        print("  msgspec: Enum/IntEnum are decoded by value only; dec_hook is called with the type alone "
              "(np.ndarray), so an array field's dtype/shape (its default_factory) is out of reach; unknown keys "
              "of a dataclass are ignored (forbid_unknown_fields is for msgspec.Struct)")
    if libs["pydantic"]:
        for line in probe_pydantic():
            print(f"  pydantic {libs['pydantic']}, {line}")
        print("  pydantic: names for enums, Board/Action/Pending from lists, per-field array dtypes and extra='forbid' "
              "need Annotated validators or config on the state's own classes (or a parallel set of models)")

    print("\nsummary (median us per document; ratio: median over rounds of cattrs/today timed in the same round)")
    for g in groups:
        for what, ours, theirs in [
            ("state full", "today: Game.from_dict (all checks)", "cattrs: Game(...) with the same checks"),
            ("state codec", "today: codec only (header + from_jsonable)", "cattrs: codec only (header + structure)"),
            ("record full", "today: GameRecord.from_dict", "cattrs: record with the same _check"),
            ("record codec", "today: record codec only (from_jsonable)", "cattrs: record codec only (structure)"),
        ]:
            a = statistics.median(samples[ours, g])
            if (theirs, g) in samples:
                b = statistics.median(samples[theirs, g])
                ratio = paired_ratio(samples[theirs, g], samples[ours, g])
                print(f"  {g} {what:<13} today {a:8.1f}   cattrs {b:8.1f}   ratio {ratio:5.2f}")
            else:
                print(f"  {g} {what:<13} today {a:8.1f}   cattrs (not installed)")
    if summary:
        s = summary
        print(f"  malformed documents: {s['cases']} cases ({s['codec_cases']} fail in the codec, the rest in "
              f"check_header/_check_consistency, shared); today's loader passes the test's check on "
              f"{s['today_passes_test']}")
        print(f"  cattrs prototype (tailored hooks): passes the test's check {s['proto_passes_test']}/{s['cases']}, "
              f"identical message {s['proto_same_message']}/{s['cases']}, same path {s['proto_same_path']}/"
              f"{s['cases']}, allowed values kept {s['proto_keeps_hint']}/{s['hinted']}")
        print(f"  stock cattrs messages (transform_error) on the {s['codec_cases']} codec cases: same path "
              f"{s['stock_same_path']}/{s['codec_cases']}, allowed values kept {s['stock_keeps_hint']}/"
              f"{s['stock_hinted']}")
    print(f"\ntotal {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
