"""Game records: the setup parameters plus every action, which replay a game exactly.

Why: the only randomness is drawn in ``Game.new`` from the seed (docs/state-format.md), so a
record of (players, seed, variant, max_rounds, board, actions) is a complete and
tiny description of a game: the basis for training data, benchmarks, bug reports
and front ends. ``replay`` rebuilds the game move by move and says at which step a
record stops replaying. Format ``fcm-magnate/record``, version 1 (docs/state-format.md).

Recording is opt-in: ``start_recording(game)`` right after ``Game.new`` (or
``new_recorded_game``) makes ``Game.apply`` log every action in ``game.history``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fcm_env.engine.actions import Action, IllegalActionError
from fcm_env.engine.board.geometry import Board
from fcm_env.engine.game import VARIANTS, Game
from fcm_env.engine.persistence.serialize import (
    StateFormatError,
    check_header,
    dumps,
    from_jsonable,
    read_json,
    to_jsonable,
)
from fcm_env.engine.persistence.strict_json import JsonRefused, loads_strict

FORMAT = "fcm-magnate/record"
VERSION = 1


class RecordFormatError(ValueError):
    """A record document that cannot be read; the message starts with the field path."""


class ReplayError(ValueError):
    """A record whose actions do not replay: ``step`` is the index of the first bad action."""

    def __init__(self, message: str, step: int, action: Action | None):
        super().__init__(message)
        self.step = step
        self.action = action


@dataclass
class GameResult:
    """How a finished game ended: winner ids, each player's final cash (by id), rounds played.

    ``truncated``: ended by ``max_rounds`` rather than by the rules (the bank breaking).
    """

    winners: list[int]
    cash: list[int]
    rounds: int
    truncated: bool = False


@dataclass
class GameRecord:
    """Everything needed to replay a game. ``board`` is the tile layout (None: drawn from the seed)."""

    num_players: int
    seed: int
    variant: str = "standard"
    max_rounds: int | None = None  # None: played by the rules, no round cap
    board: list[list[str]] | None = None
    actions: list[Action] = field(default_factory=list)
    result: GameResult | None = None
    agents: list[str] | None = None  # one name per player id, e.g. ["random", "heuristic"]
    meta: dict[str, Any] = field(default_factory=dict)  # free-form JSON (dates, versions, notes)
    #: the game's event log when it was recorded (``Game.record_events`` from the start); optional:
    #: replaying the actions with events on gives the same list
    events: list[dict[str, Any]] | None = None

    # ------------------------------------------------------------------ building

    @classmethod
    def from_game(cls, game: Game, *, agents: list[str] | None = None, meta: dict[str, Any] | None = None,
                  events: bool = False) -> GameRecord:
        """The record of a game whose actions were logged from the start (see ``start_recording``);
        with ``events`` its event log too (it must have been recorded from the start as well)."""
        if events and game.events is None:
            raise ValueError("this game logged no events: call game.record_events() right after Game.new")
        if game.history is None:
            raise ValueError("this game was not recorded: call records.start_recording(game) right after Game.new")
        state = game.state
        return cls(
            num_players=state.num_players,
            seed=state.seed,
            variant=state.variant,
            max_rounds=state.max_rounds,
            board=[list(row) for row in game.to_dict()["board"]],  # a game of either engine writes its document
            actions=list(game.history),
            result=result_of(game),
            agents=None if agents is None else list(agents),
            meta=dict(meta or {}),
            events=list(game.events) if events else None,
        )

    # ------------------------------------------------------------------ documents

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-safe dict with its format tag and version."""
        doc: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        doc.update(to_jsonable(self))
        return doc

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read a record document; ``RecordFormatError`` names the bad field."""
        try:
            if not isinstance(data, dict):
                raise StateFormatError(f"a record document is a JSON object, got {type(data).__name__}")
            check_header(data, FORMAT, VERSION)
            record = from_jsonable(cls, {k: v for k, v in data.items() if k not in ("format", "version")})
        except StateFormatError as exc:
            raise RecordFormatError(str(exc)) from None
        record._check()
        return record

    def to_json(self) -> str:
        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = loads_strict(text)  # the strict reader: deep nesting is refused, never a RecursionError
        except JsonRefused as exc:
            raise RecordFormatError(str(exc)) from None
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            data = read_json(path)
        except StateFormatError as exc:
            raise RecordFormatError(str(exc)) from None
        return cls.from_dict(data)

    def _check(self) -> None:
        if not 2 <= self.num_players <= 5:
            raise RecordFormatError(f"num_players: expected 2 to 5, got {self.num_players}")
        if self.variant not in VARIANTS:
            raise RecordFormatError(f"variant: expected one of {list(VARIANTS)}, got {self.variant!r}")
        if self.max_rounds is not None and self.max_rounds < 1:
            raise RecordFormatError(f"max_rounds: must be null (no cap) or at least 1, got {self.max_rounds}")
        if self.board is not None:
            try:
                Board.from_tiles(self.board)
            except ValueError as exc:
                raise RecordFormatError(f"board: bad tile layout: {exc}") from None
        if self.agents is not None and len(self.agents) != self.num_players:
            raise RecordFormatError(f"agents: expected {self.num_players} names, got {len(self.agents)}")
        if self.result is not None:
            if len(self.result.cash) != self.num_players:
                raise RecordFormatError(
                    f"result.cash: expected {self.num_players} amounts, got {len(self.result.cash)}"
                )
            if any(not 0 <= w < self.num_players for w in self.result.winners):
                raise RecordFormatError(f"result.winners: not player ids: {self.result.winners}")


def result_of(game: Game) -> GameResult | None:
    """The result of a finished game; None while it runs."""
    if not game.is_over:
        return None
    state = game.state
    return GameResult(
        winners=[int(w) for w in game.winners],
        cash=[int(p.cash) for p in state.players],
        rounds=int(state.round),
        truncated=bool(state.truncated),
    )


def start_recording(game: Game) -> Game:
    """Log every action ``game.apply`` accepts from now on in ``game.history``."""
    if game.history is None:
        game.history = []
    return game


def new_recorded_game(
    num_players: int = 4, seed: int = 0, variant: str = "standard", max_rounds: int | None = None,
    board: Board | None = None,
) -> Game:
    """``Game.new`` with recording on."""
    return start_recording(Game.new(num_players, seed=seed, variant=variant, max_rounds=max_rounds, board=board))


def replay(record: GameRecord, *, upto: int | None = None) -> Game:
    """Rebuild the game of ``record`` and apply its first ``upto`` actions (all by default).

    The returned game records its history, so play can go on and be recorded again.
    ``ReplayError`` names the step and action that does not apply; after a full
    replay of a record with a result, the replayed game must have ended that way.
    """
    count = len(record.actions) if upto is None else upto
    if not 0 <= count <= len(record.actions):
        raise ValueError(f"upto must be between 0 and {len(record.actions)}, got {upto}")
    board = None if record.board is None else Board.from_tiles(record.board)
    game = new_recorded_game(record.num_players, record.seed, record.variant, record.max_rounds, board)
    for step, action in enumerate(record.actions[:count]):
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise ReplayError(
                f"step {step}: {_show(action)} does not replay (round {game.state.round}, "
                f"{game.state.phase.name}): {exc}",
                step,
                action,
            ) from None
    if upto is None and record.result is not None:
        _check_result(record, game)
    return game


def _check_result(record: GameRecord, game: Game) -> None:
    got = result_of(game)
    steps = len(record.actions)
    if got is None:
        raise ReplayError(
            f"step {steps}: the record says the game ended, but after {steps} actions it is still running "
            f"(round {game.state.round}, {game.state.phase.name})",
            steps,
            None,
        )
    if got != record.result:
        raise ReplayError(f"step {steps}: the replay ends with {got}, the record says {record.result}", steps, None)


def _show(action: Action) -> str:
    return f"{json.dumps([action.kind.name, list(action.args)])} ({action})"
