"""Typed, hashable player actions and the decisions that ask for them.

Every choice the rules give a player is one atomic decision (docs/engine-api.md); a
compound move is a sequence of them by the same player. An ``Action`` is a kind
plus a short tuple of ints, so actions sort in a stable order, hash, and map to
flat ids in the action codec.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from fcm_env.data import EmployeeType, Good


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
    MARKETEER = 6  # phase 3: pick a marketeer at work to launch a campaign, or done
    CAMPAIGN_TILE = 7  # phase 3: which campaign tile (number) the selected marketeer places
    CAMPAIGN_PLACE = 8  # phase 3: where the chosen tile goes (airplanes: the edge anchor cell)
    CAMPAIGN_PRODUCT = 9  # phase 3: which good the new campaign advertises
    CAMPAIGN_DURATION = 10  # phase 3: how many turns it runs (skipped for eternal campaigns)
    PRODUCE = 11  # phase 3: use one kitchen card or buyer (food, drink, or a drink haul), or done
    NEW_BUSINESS = 12  # phase 3: new business developer: pick a house token, place a garden, or done
    HOUSE_PLACE = 13  # phase 3: where the chosen house (with its garden) goes
    RESTAURANT_MANAGER = 14  # phase 3: local/regional manager: new restaurant or move one, or done
    RESTAURANT_PLACE = 15  # phase 3: where the new or moved restaurant goes
    FIRE = 16  # phase 5: fire one card, or done (hidden until all chose)
    FREEZER = 17  # phase 7: keep one more food/drink in the freezer, or done


class ActionKind(IntEnum):
    PASS = 0  # decline / done with the current step
    PLACE_RESTAURANT = 1  # (row, col, orientation)
    CHOOSE_RESERVE = 2  # (card index 0-2)
    PUT_TO_WORK = 3  # (employee type)
    TURN_SPOT = 4  # (spot index 0..n-1)
    RECRUIT = 5  # (employee type)
    TRAIN = 6  # (trainer type, from type, to type)
    SELECT_MARKETEER = 7  # (marketeer type)
    CHOOSE_TILE = 8  # (campaign tile number)
    PLACE_CAMPAIGN = 9  # (row, col, orientation); airplanes: the anchor from placement.airplane_anchor
    CHOOSE_PRODUCT = 10  # (good)
    CHOOSE_DURATION = 11  # (turns, 1..max)
    PRODUCE = 12  # (employee type, good): kitchen trainee, errand boy, cooks and chefs
    HAUL = 13  # (buyer type, beer sources, lemonade sources, soda sources): cart, truck, zeppelin
    CHOOSE_HOUSE = 14  # (house number)
    PLACE_HOUSE = 15  # (row, col, orientation)
    PLACE_GARDEN = 16  # (row, col, orientation)
    SELECT_RESTAURANT = 17  # (manager type, restaurant index; index == len(restaurants) means a new one)
    FIRE = 18  # (employee type)
    KEEP = 19  # (good)


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

    @classmethod
    def select_marketeer(cls, etype: EmployeeType | int) -> Action:
        return cls(ActionKind.SELECT_MARKETEER, (int(etype),))

    @classmethod
    def choose_tile(cls, number: int) -> Action:
        return cls(ActionKind.CHOOSE_TILE, (int(number),))

    @classmethod
    def place_campaign(cls, row: int, col: int, orientation: int) -> Action:
        return cls(ActionKind.PLACE_CAMPAIGN, (int(row), int(col), int(orientation)))

    @classmethod
    def choose_product(cls, good: Good | int) -> Action:
        return cls(ActionKind.CHOOSE_PRODUCT, (int(good),))

    @classmethod
    def choose_duration(cls, turns: int) -> Action:
        return cls(ActionKind.CHOOSE_DURATION, (int(turns),))

    @classmethod
    def produce(cls, etype: EmployeeType | int, good: Good | int) -> Action:
        return cls(ActionKind.PRODUCE, (int(etype), int(good)))

    @classmethod
    def haul(cls, etype: EmployeeType | int, beer: int, lemonade: int, soda: int) -> Action:
        return cls(ActionKind.HAUL, (int(etype), int(beer), int(lemonade), int(soda)))

    @classmethod
    def choose_house(cls, number: int) -> Action:
        return cls(ActionKind.CHOOSE_HOUSE, (int(number),))

    @classmethod
    def place_house(cls, row: int, col: int, orientation: int) -> Action:
        return cls(ActionKind.PLACE_HOUSE, (int(row), int(col), int(orientation)))

    @classmethod
    def place_garden(cls, row: int, col: int, orientation: int) -> Action:
        return cls(ActionKind.PLACE_GARDEN, (int(row), int(col), int(orientation)))

    @classmethod
    def select_restaurant(cls, manager: EmployeeType | int, index: int) -> Action:
        return cls(ActionKind.SELECT_RESTAURANT, (int(manager), int(index)))

    @classmethod
    def fire(cls, etype: EmployeeType | int) -> Action:
        return cls(ActionKind.FIRE, (int(etype),))

    @classmethod
    def keep(cls, good: Good | int) -> Action:
        return cls(ActionKind.KEEP, (int(good),))

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
            place = a[0] + 1  # spots are 0-based like every id; the place in words says who goes when
            suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
            return f"take turn order spot {a[0]} (go {place}{suffix})"
        if self.kind == ActionKind.TRAIN:
            return f"train {EmployeeType(a[1]).key} -> {EmployeeType(a[2]).key} with {EmployeeType(a[0]).key}"
        return self._describe_more()

    def _describe_more(self) -> str:
        a = self.args
        k = self.kind
        sides = "NESW"
        if k == ActionKind.SELECT_MARKETEER:
            return f"launch a campaign with {EmployeeType(a[0]).key}"
        if k == ActionKind.CHOOSE_TILE:
            return f"use campaign tile #{a[0]}"
        if k == ActionKind.PLACE_CAMPAIGN:
            return f"place campaign at ({a[0]},{a[1]}){' rotated' if a[2] else ''}"
        if k == ActionKind.CHOOSE_PRODUCT:
            return f"advertise {Good(a[0]).name.lower()}"
        if k == ActionKind.CHOOSE_DURATION:
            return f"run for {a[0]} turn{'s' if a[0] != 1 else ''}"
        if k == ActionKind.PRODUCE:
            return f"{EmployeeType(a[0]).key} gets {Good(a[1]).name.lower()}"
        if k == ActionKind.HAUL:
            return f"{EmployeeType(a[0]).key} drives past {a[1]} beer, {a[2]} lemonade, {a[3]} soda source(s)"
        if k == ActionKind.CHOOSE_HOUSE:
            return f"take house #{a[0]}"
        if k == ActionKind.PLACE_HOUSE:
            return f"place house at ({a[0]},{a[1]}) garden {sides[a[2]]}"
        if k == ActionKind.PLACE_GARDEN:
            return f"place garden at ({a[0]},{a[1]}) on the {sides[a[2]]} side of its house"
        if k == ActionKind.SELECT_RESTAURANT:
            return f"{EmployeeType(a[0]).key}: restaurant {a[1]}"
        if k == ActionKind.FIRE:
            return f"fire {EmployeeType(a[0]).key}"
        if k == ActionKind.KEEP:
            return f"keep {Good(a[0]).name.lower()} in the freezer"
        return f"{k.name.lower()}{a}"  # pragma: no cover


#: names of the pending record's context ints, per decision (shorter contexts fill a prefix); a decision
#: not listed carries none (docs/engine-api.md; the JSON view names them, the loader checks the lengths)
CONTEXT_FIELDS: dict[Decision, tuple[str, ...]] = {
    Decision.INITIAL_RESTAURANT: ("setup_round",),
    Decision.CAMPAIGN_TILE: ("marketeer",),
    Decision.CAMPAIGN_PLACE: ("marketeer", "tile"),
    Decision.CAMPAIGN_PRODUCT: ("marketeer", "tile", "row", "col", "orientation"),
    Decision.CAMPAIGN_DURATION: ("marketeer", "tile", "row", "col", "orientation", "product"),
    Decision.HOUSE_PLACE: ("house",),
    Decision.RESTAURANT_PLACE: ("manager", "restaurant"),
    Decision.FREEZER: tuple(f"kept_{g.name.lower()}" for g in Good),
}


@dataclass(frozen=True)
class Pending:
    """The decision being asked: who decides what (context is decision specific)."""

    decision: Decision
    player: int
    context: tuple[int, ...] = ()
