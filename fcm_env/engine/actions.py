"""Typed, hashable player actions and the decisions that ask for them.

Every choice the rules give a player is one atomic decision (design.md); a
compound move is a sequence of them by the same player. An ``Action`` is a kind
plus a short tuple of ints, so actions sort in a stable order, hash, and map to
flat ids in the action codec.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from fcm_env.data import EmployeeType


class IllegalActionError(ValueError):
    """An action that the pending decision does not allow; the state is unchanged."""


class Decision(IntEnum):
    """What the pending decision asks (the ``pending`` record's kind)."""

    INITIAL_RESTAURANT = 0  # setup: place the first restaurant, or pass in the first round
    RESERVE_CARD = 1  # setup: keep one of the three bank reserve cards (hidden)
    RESTRUCTURE = 2  # phase 1: put one more card to work, or done (hidden until all chose)
    TURN_ORDER = 3  # phase 2: pick a free spot on the turn order track
    RECRUIT = 4  # phase 3: hire one entry-level card, or done
    TRAIN = 5  # phase 3: train one card (one or more steps) with a trainer, or done


class ActionKind(IntEnum):
    PASS = 0  # decline / done with the current step
    PLACE_RESTAURANT = 1  # (row, col, orientation)
    CHOOSE_RESERVE = 2  # (card index 0-2)
    PUT_TO_WORK = 3  # (employee type)
    TURN_SPOT = 4  # (spot index 0..n-1)
    RECRUIT = 5  # (employee type)
    TRAIN = 6  # (trainer type, from type, to type)


@dataclass(frozen=True, order=True)
class Action:
    kind: ActionKind
    args: tuple[int, ...] = ()

    # -- constructors -------------------------------------------------------------
    @classmethod
    def pass_(cls) -> Action:
        return cls(ActionKind.PASS)

    @classmethod
    def place_restaurant(cls, row: int, col: int, orientation: int) -> Action:
        return cls(ActionKind.PLACE_RESTAURANT, (int(row), int(col), int(orientation)))

    @classmethod
    def choose_reserve(cls, index: int) -> Action:
        return cls(ActionKind.CHOOSE_RESERVE, (int(index),))

    @classmethod
    def put_to_work(cls, etype: EmployeeType | int) -> Action:
        return cls(ActionKind.PUT_TO_WORK, (int(etype),))

    @classmethod
    def turn_spot(cls, spot: int) -> Action:
        return cls(ActionKind.TURN_SPOT, (int(spot),))

    @classmethod
    def recruit(cls, etype: EmployeeType | int) -> Action:
        return cls(ActionKind.RECRUIT, (int(etype),))

    @classmethod
    def train(cls, trainer: EmployeeType | int, source: EmployeeType | int, target: EmployeeType | int) -> Action:
        return cls(ActionKind.TRAIN, (int(trainer), int(source), int(target)))

    def __str__(self) -> str:
        try:
            return self._describe()
        except (IndexError, ValueError):  # malformed arguments: show them raw
            return f"{self.kind.name.lower()}{self.args}"

    def _describe(self) -> str:
        a = self.args
        if self.kind == ActionKind.PASS:
            return "pass"
        if self.kind == ActionKind.PLACE_RESTAURANT:
            return f"place restaurant at ({a[0]},{a[1]}) entrance {['NW', 'NE', 'SE', 'SW'][a[2]]}"
        if self.kind == ActionKind.CHOOSE_RESERVE:
            return f"keep reserve card {a[0]}"
        if self.kind in (ActionKind.PUT_TO_WORK, ActionKind.RECRUIT):
            verb = "put to work" if self.kind == ActionKind.PUT_TO_WORK else "recruit"
            return f"{verb} {EmployeeType(a[0]).key}"
        if self.kind == ActionKind.TURN_SPOT:
            return f"take turn order spot {a[0] + 1}"
        if self.kind == ActionKind.TRAIN:
            return f"train {EmployeeType(a[1]).key} -> {EmployeeType(a[2]).key} with {EmployeeType(a[0]).key}"
        return f"{self.kind.name.lower()}{a}"  # pragma: no cover


@dataclass(frozen=True)
class Pending:
    """The decision being asked: who decides what (context is decision specific)."""

    decision: Decision
    player: int
    context: tuple[int, ...] = ()
