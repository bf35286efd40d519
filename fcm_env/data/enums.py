"""Integer enums for the game's components.

The integer values are part of the public contract: the action codec and the
observation encoder index arrays with them, so never renumber a member.
"""

from __future__ import annotations

from enum import IntEnum


class Good(IntEnum):
    """Food and drink goods (rules: Concepts, "Food and drinks")."""

    BURGER = 0
    PIZZA = 1
    BEER = 2
    LEMONADE = 3
    SODA = 4

    @property
    def is_food(self) -> bool:
        return self in (Good.BURGER, Good.PIZZA)

    @property
    def is_drink(self) -> bool:
        return not self.is_food


FOODS: tuple[Good, ...] = (Good.BURGER, Good.PIZZA)
DRINKS: tuple[Good, ...] = (Good.BEER, Good.LEMONADE, Good.SODA)

#: how the drink-source letters in ``map_tiles.json`` grids map to goods
DRINK_LETTERS: dict[str, Good] = {"b": Good.BEER, "l": Good.LEMONADE, "s": Good.SODA}
#: how the ``type`` names in the data files map to goods ("soda" is the soft drink)
GOOD_NAMES: dict[str, Good] = {
    "burger": Good.BURGER,
    "pizza": Good.PIZZA,
    "beer": Good.BEER,
    "lemonade": Good.LEMONADE,
    "soda": Good.SODA,
}


class EmployeeType(IntEnum):
    """The CEO plus the 32 employee card types, in ``employees.json`` order."""

    CEO = 0
    MANAGEMENT_TRAINEE = 1
    JUNIOR_VICE_PRESIDENT = 2
    VICE_PRESIDENT = 3
    SENIOR_VICE_PRESIDENT = 4
    EXECUTIVE_VICE_PRESIDENT = 5
    WAITRESS = 6
    NEW_BUSINESS_DEVELOPER = 7
    CFO = 8
    LOCAL_MANAGER = 9
    REGIONAL_MANAGER = 10
    PRICING_MANAGER = 11
    DISCOUNT_MANAGER = 12
    LUXURIES_MANAGER = 13
    RECRUITING_GIRL = 14
    RECRUITING_MANAGER = 15
    HR_DIRECTOR = 16
    TRAINER = 17
    COACH = 18
    GURU = 19
    ERRAND_BOY = 20
    CART_OPERATOR = 21
    TRUCK_DRIVER = 22
    ZEPPELIN_PILOT = 23
    MARKETING_TRAINEE = 24
    CAMPAIGN_MANAGER = 25
    BRAND_MANAGER = 26
    BRAND_DIRECTOR = 27
    KITCHEN_TRAINEE = 28
    BURGER_COOK = 29
    BURGER_CHEF = 30
    PIZZA_COOK = 31
    PIZZA_CHEF = 32

    @property
    def key(self) -> str:
        """The snake_case id used in the data files."""
        return self.name.lower()


class Milestone(IntEnum):
    """The 18 milestones, in ``milestones.json`` order."""

    FIRST_HIRE_3 = 0
    FIRST_THROW_AWAY = 1
    FIRST_WAITRESS = 2
    FIRST_HAVE_20 = 3
    FIRST_HAVE_100 = 4
    FIRST_LOWER_PRICES = 5
    FIRST_TRAIN = 6
    FIRST_BURGER_PRODUCED = 7
    FIRST_PIZZA_PRODUCED = 8
    FIRST_ERRAND_BOY = 9
    FIRST_CART_OPERATOR = 10
    FIRST_PAY_20_SALARIES = 11
    FIRST_BILLBOARD = 12
    FIRST_BURGER_MARKETED = 13
    FIRST_PIZZA_MARKETED = 14
    FIRST_DRINK_MARKETED = 15
    FIRST_AIRPLANE = 16
    FIRST_RADIO = 17

    @property
    def key(self) -> str:
        return self.name.lower()


class CampaignType(IntEnum):
    """Marketing campaign kinds, in the order marketeers unlock them."""

    BILLBOARD = 0
    MAILBOX = 1
    AIRPLANE = 2
    RADIO = 3

    @property
    def key(self) -> str:
        return self.name.lower()


class RangeKind(IntEnum):
    """How a card's range is counted (rules: Concepts, "Range")."""

    ROAD = 0
    AIR = 1
    UNLIMITED = 2


class Direction(IntEnum):
    """Compass directions on the map; rows grow to the south, columns to the east."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def delta(self) -> tuple[int, int]:
        return _DELTAS[self]

    @property
    def opposite(self) -> Direction:
        return Direction((self + 2) % 4)

    def rotated(self, quarter_turns: int) -> Direction:
        """The direction after turning the map ``quarter_turns`` times clockwise."""
        return Direction((self + quarter_turns) % 4)


_DELTAS = {
    Direction.N: (-1, 0),
    Direction.E: (0, 1),
    Direction.S: (1, 0),
    Direction.W: (0, -1),
}
