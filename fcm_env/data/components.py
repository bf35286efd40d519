"""Typed, immutable views of the component data shipped in ``fcm_env/data/*.json``.

The JSON files are the single source of facts (see ``SOURCES.md``); this module
turns them into frozen dataclasses once, at import, and checks the shape of what
it reads so that a damaged data file fails loudly with the field that is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from .enums import (
    DRINK_LETTERS,
    GOOD_NAMES,
    CampaignType,
    Direction,
    EmployeeType,
    Good,
    Milestone,
    RangeKind,
)

DATA_FILES: tuple[str, ...] = (
    "bank_reserve.json",
    "employees.json",
    "faq_rulings.json",
    "game_setup.json",
    "houses.json",
    "map_tiles.json",
    "marketing_tiles.json",
    "milestones.json",
)


class DataError(ValueError):
    """A component data file does not have the expected shape."""


@cache
def load_json(name: str) -> Any:
    """Parse one shipped data file (cached; treat the result as read-only)."""
    if name not in DATA_FILES:
        raise DataError(f"unknown data file {name!r}; expected one of {DATA_FILES}")
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


def _field(obj: Mapping[str, Any], key: str, where: str) -> Any:
    try:
        return obj[key]
    except (KeyError, TypeError):
        raise DataError(f"{where}: missing field {key!r}") from None


# --------------------------------------------------------------------------- employees


@dataclass(frozen=True)
class RangeSpec:
    """A range printed on a card: road tile borders, air tiles, or unlimited."""

    kind: RangeKind
    value: int | None = None  # None when unlimited


@dataclass(frozen=True)
class EmployeeSpec:
    """One employee card type, with its actions flattened into typed fields."""

    type: EmployeeType
    name: str
    count_in_box: int  # 0 for the CEO, which is not part of the 222
    entry_level: bool
    salary: bool
    unique: bool  # the "1x" top positions
    category: str
    colour: str
    manager_slots: int
    mandatory: bool
    trains_to: tuple[EmployeeType, ...]
    trained_from: tuple[EmployeeType, ...]
    # actions (zero / empty / None when the card does not have that action)
    recruit: int = 0
    recruit_unused_discount: bool = False
    train: int = 0
    train_max_same: int = 0
    campaign_types: tuple[CampaignType, ...] = ()
    marketing_range: RangeSpec | None = None
    max_duration: int = 0
    produces: tuple[Good, ...] = ()
    produce_amount: int = 0
    drink_mode: str | None = None  # "errand", "road_route" or "air_route"
    buyer_range: int = 0
    drinks_per_source: int = 0
    price_delta: int = 0
    waitress: bool = False
    cfo: bool = False
    places_house: bool = False
    restaurant_placement: str | None = None  # "local" or "regional"
    restaurant_range: RangeSpec | None = None
    drive_in: bool = False

    @property
    def is_manager(self) -> bool:
        """Black manager cards: they may sit only under the CEO (R09)."""
        return self.category == "manager"

    @property
    def is_marketeer(self) -> bool:
        return bool(self.campaign_types)

    def copies_in_play(self, num_players: int) -> int:
        """Cards of this type in the supply for a player count (C2, R05)."""
        if self.type == EmployeeType.CEO:
            return 0
        if self.unique:
            return setup_for(num_players).one_x_copies
        return self.count_in_box


def _range(raw: Mapping[str, Any], where: str) -> RangeSpec:
    kind = _field(raw, "kind", where)
    if kind == "unlimited":
        return RangeSpec(RangeKind.UNLIMITED)
    if kind not in ("road", "air"):
        raise DataError(f"{where}: unknown range kind {kind!r}")
    return RangeSpec(RangeKind.ROAD if kind == "road" else RangeKind.AIR, int(_field(raw, "value", where)))


def _employee_type(key: str, where: str) -> EmployeeType:
    try:
        return EmployeeType[key.upper()]
    except KeyError:
        raise DataError(f"{where}: unknown employee id {key!r}") from None


def _employee(raw: Mapping[str, Any], index: int) -> EmployeeSpec:
    key = _field(raw, "id", f"employees[{index}]")
    where = f"employees[{key}]"
    etype = _employee_type(key, where)
    if etype != index:
        raise DataError(f"{where}: expected position {int(etype)} in employees.json, found {index}")
    fields: dict[str, Any] = {}
    for action in _field(raw, "actions", where):
        kind = _field(action, "type", where + ".actions")
        if kind == "recruit":
            fields["recruit"] = int(action["count"])
            fields["recruit_unused_discount"] = bool(action.get("unused_gives_salary_discount", False))
        elif kind == "train":
            fields["train"] = int(action["count"])
            fields["train_max_same"] = int(action["max_steps_on_same_employee"])
        elif kind == "marketing":
            fields["campaign_types"] = tuple(CampaignType[t.upper()] for t in action["campaign_types"])
            fields["marketing_range"] = _range(action["range"], where + ".marketing.range")
            fields["max_duration"] = int(action["max_duration"])
        elif kind == "produce":
            fields["produces"] = tuple(GOOD_NAMES[f] for f in action["foods"])
            fields["produce_amount"] = int(action["amount"])
        elif kind == "get_drinks":
            mode = action["mode"]
            if mode == "any_type_no_route":
                fields["drink_mode"] = "errand"
                fields["drinks_per_source"] = int(action["amount"])
            elif mode in ("road_route", "air_route"):
                fields["drink_mode"] = mode
                fields["buyer_range"] = int(_range(action["range"], where + ".range").value or 0)
                fields["drinks_per_source"] = int(action["per_source"])
            else:
                raise DataError(f"{where}: unknown get_drinks mode {mode!r}")
        elif kind == "unit_price_modifier":
            fields["price_delta"] = int(action["delta"])
        elif kind == "waitress":
            fields["waitress"] = True
        elif kind == "cfo_bonus":
            fields["cfo"] = True
        elif kind == "place_house_or_garden":
            fields["places_house"] = True
        elif kind in ("place_restaurant", "place_or_move_restaurant"):
            fields["restaurant_placement"] = "local" if kind == "place_restaurant" else "regional"
            fields["restaurant_range"] = _range(action["range"], where + ".range")
        elif kind == "drive_in":
            fields["drive_in"] = True
        else:
            raise DataError(f"{where}: unknown action type {kind!r}")
    return EmployeeSpec(
        type=etype,
        name=_field(raw, "name", where),
        count_in_box=int(raw.get("count_in_box") or 0),
        entry_level=bool(_field(raw, "entry_level_hireable", where)),
        salary=bool(_field(raw, "salary", where)),
        unique=bool(raw.get("unique_1x") or False),
        category=_field(raw, "category", where),
        colour=_field(raw, "card_colour", where),
        manager_slots=int(_field(raw, "manager_slots", where)),
        mandatory=bool(_field(raw, "mandatory", where)),
        trains_to=tuple(_employee_type(t, where + ".trains_to") for t in _field(raw, "trains_to", where)),
        trained_from=tuple(
            _employee_type(t, where + ".trained_from") for t in _field(raw, "trained_from", where)
        ),
        **fields,
    )


# --------------------------------------------------------------------------- milestones


@dataclass(frozen=True)
class MilestoneSpec:
    type: Milestone
    name: str
    card_count: int
    trigger: str
    effect: str
    card_text: str
    effect_params: Mapping[str, Any]


def _milestone(raw: Mapping[str, Any], index: int) -> MilestoneSpec:
    key = _field(raw, "id", f"milestones[{index}]")
    where = f"milestones[{key}]"
    try:
        mtype = Milestone[key.upper()]
    except KeyError:
        raise DataError(f"{where}: unknown milestone id") from None
    if mtype != index:
        raise DataError(f"{where}: expected position {int(mtype)} in milestones.json, found {index}")
    return MilestoneSpec(
        type=mtype,
        name=_field(raw, "name", where),
        card_count=int(_field(raw, "card_count_original_edition", where)),
        trigger=_field(raw, "trigger", where),
        effect=_field(raw, "effect", where),
        card_text=_field(raw, "card_text_short", where),
        effect_params=MappingProxyType(dict(_field(raw, "effect_params", where))),
    )


# --------------------------------------------------------------------------- map tiles


@dataclass(frozen=True)
class PrintedHouseSpec:
    number: int
    cells: tuple[tuple[int, int], ...]  # (row, col) on the tile, canonical orientation


@dataclass(frozen=True)
class MapTileSpec:
    """One 5x5 map tile in its printed (canonical) orientation."""

    id: str  # "A".."T"
    index: int  # 0..19, in letter order
    shape: str
    grid: tuple[str, ...]  # 5 rows of 5 chars; legend in map_tiles.json
    houses: tuple[PrintedHouseSpec, ...]
    drinks: tuple[tuple[Good, tuple[int, int]], ...]
    exits: tuple[Direction, ...]
    road_networks_exits: tuple[tuple[Direction, ...], ...]
    road_connects: Mapping[tuple[int, int], frozenset[Direction]]
    bridges: tuple[tuple[int, int], ...]


TILE_SIZE = 5
GRID_CHARS = frozenset(".RXHbls")


def _tile(raw: Mapping[str, Any], index: int) -> MapTileSpec:
    tid = _field(raw, "id", f"tiles[{index}]")
    where = f"map_tiles[{tid}]"
    if tid != chr(ord("A") + index):
        raise DataError(f"{where}: tiles must be listed A..T in order, found {tid!r} at {index}")
    grid = tuple(_field(raw, "grid", where))
    if len(grid) != TILE_SIZE or any(len(row) != TILE_SIZE or set(row) - GRID_CHARS for row in grid):
        raise DataError(f"{where}.grid: expected 5 rows of 5 chars from {''.join(sorted(GRID_CHARS))}")
    houses = tuple(
        PrintedHouseSpec(int(h["number"]), tuple((int(r), int(c)) for r, c in h["cells"]))
        for h in _field(raw, "houses", where)
    )
    for house in houses:
        if any(grid[r][c] != "H" for r, c in house.cells):
            raise DataError(f"{where}.houses[{house.number}]: a cell is not an 'H' square of the grid")
    drinks = tuple((GOOD_NAMES[d["type"]], (int(d["rc"][0]), int(d["rc"][1]))) for d in raw["drinks"])
    for good, (r, c) in drinks:
        if DRINK_LETTERS.get(grid[r][c]) != good:
            raise DataError(f"{where}.drinks: {good.name} at {(r, c)} does not match the grid")
    connects = {}
    bridges = []
    for sq in _field(raw, "road_squares", where):
        rc = (int(sq["rc"][0]), int(sq["rc"][1]))
        connects[rc] = frozenset(Direction[d] for d in sq["connects"])
        if sq.get("bridge"):
            bridges.append(rc)
    return MapTileSpec(
        id=tid,
        index=index,
        shape=_field(raw, "shape", where),
        grid=grid,
        houses=houses,
        drinks=drinks,
        exits=tuple(Direction[d] for d in _field(raw, "exits", where)),
        road_networks_exits=tuple(
            tuple(Direction[d] for d in net) for net in _field(raw, "road_networks_exits", where)
        ),
        road_connects=MappingProxyType(connects),
        bridges=tuple(bridges),
    )


# --------------------------------------------------------------------------- marketing tiles


@dataclass(frozen=True)
class MarketingTileSpec:
    """One numbered campaign tile. ``w`` x ``h`` is columns x rows on the map."""

    number: int
    type: CampaignType
    w: int
    h: int
    rotatable: bool
    available_for_players: frozenset[int]
    #: airplanes only: squares along the map edge (rows or columns flown over)
    along_edge: int = 0

    def footprints(self) -> tuple[tuple[int, int], ...]:
        """Distinct (rows, cols) footprints on the map, orientation 0 first."""
        if self.type == CampaignType.AIRPLANE:
            return ()
        base = (self.h, self.w)
        if self.rotatable and self.h != self.w:
            return (base, (self.w, self.h))
        return (base,)


def _marketing(raw: Mapping[str, Any], index: int) -> MarketingTileSpec:
    number = int(_field(raw, "number", f"marketing_tiles[{index}]"))
    where = f"marketing_tiles[{number}]"
    if number != index + 1:
        raise DataError(f"{where}: tiles must be listed 1..16 in order")
    fp = _field(raw, "footprint_squares", where)
    return MarketingTileSpec(
        number=number,
        type=CampaignType[_field(raw, "type", where).upper()],
        w=int(fp["w"]),
        h=int(fp["h"]),
        rotatable=bool(_field(raw, "rotatable", where)),
        available_for_players=frozenset(int(p) for p in _field(raw, "available_for_players", where)),
        along_edge=int(raw.get("along_map_edge", 0)),
    )


# --------------------------------------------------------------------------- setup, bank, houses


@dataclass(frozen=True)
class SetupSpec:
    """One row of the setup table (rules: Cards setup; C2, C7)."""

    num_players: int
    tile_rows: int
    tile_cols: int
    bank: int
    bank_introductory: int
    one_x_copies: int
    billboards_removed: tuple[int, ...]


@dataclass(frozen=True)
class ReserveCardSpec:
    index: int
    value: int
    ceo_slots: int


@dataclass(frozen=True)
class HouseTokenSpec:
    """The placeable house-with-garden tokens and the garden tokens."""

    numbers: tuple[int, ...]  # placeable house+garden tokens
    garden_tokens: int
    printed_numbers: tuple[int, ...]
    demand_limit: int
    demand_limit_with_garden: int


@dataclass(frozen=True)
class Prices:
    base_unit_price: int
    salary: int
    waitress_tip: int
    waitress_tip_milestone: int
    cfo_bonus_percent: int
    restaurants_per_player: int
    freezer_capacity: int
    reserve_cards_per_player: int


# --------------------------------------------------------------------------- build once


def _build_employees() -> tuple[EmployeeSpec, ...]:
    raw = load_json("employees.json")["employees"]
    if len(raw) != len(EmployeeType):
        raise DataError(f"employees.json: expected {len(EmployeeType)} entries, found {len(raw)}")
    return tuple(_employee(e, i) for i, e in enumerate(raw))


def _build_setup() -> dict[int, SetupSpec]:
    setup = load_json("game_setup.json")
    bank = load_json("bank_reserve.json")
    rows = {}
    for key, row in _field(setup, "players", "game_setup").items():
        n = int(key)
        tr, tc = row["map_tiles"]
        rows[n] = SetupSpec(
            num_players=n,
            tile_rows=int(tr),
            tile_cols=int(tc),
            bank=int(row["bank"]),
            bank_introductory=int(bank["intro_game_bank_per_player"]) * n,
            one_x_copies=int(row["one_x_copies"]),
            billboards_removed=tuple(int(b) for b in row["billboards_removed"]),
        )
    return rows


EMPLOYEES: tuple[EmployeeSpec, ...] = _build_employees()
MILESTONES: tuple[MilestoneSpec, ...] = tuple(
    _milestone(m, i) for i, m in enumerate(load_json("milestones.json")["milestones"])
)
MAP_TILES: tuple[MapTileSpec, ...] = tuple(
    _tile(t, i) for i, t in enumerate(load_json("map_tiles.json")["tiles"])
)
TILE_BY_ID: Mapping[str, MapTileSpec] = MappingProxyType({t.id: t for t in MAP_TILES})
MARKETING_TILES: tuple[MarketingTileSpec, ...] = tuple(
    _marketing(t, i) for i, t in enumerate(load_json("marketing_tiles.json")["tiles"])
)
SETUP: Mapping[int, SetupSpec] = MappingProxyType(_build_setup())
RESERVE_CARDS: tuple[ReserveCardSpec, ...] = tuple(
    ReserveCardSpec(i, int(c["value"]), int(c["ceo_slots"]))
    for i, c in enumerate(load_json("bank_reserve.json")["reserve_cards"])
)


def _build_houses() -> HouseTokenSpec:
    raw = load_json("houses.json")
    rules = raw["rules"]
    printed = sorted(h.number for t in MAP_TILES for h in t.houses)
    return HouseTokenSpec(
        numbers=tuple(int(n) for n in raw["placeable_house_garden_tokens"]["numbers"]),
        garden_tokens=int(raw["garden_tokens"]["count"]),
        printed_numbers=tuple(printed),
        demand_limit=int(rules["demand_limit"]),
        demand_limit_with_garden=int(rules["demand_limit_with_garden"]),
    )


def _build_prices() -> Prices:
    p = load_json("game_setup.json")["prices"]
    # the tip amounts live in the waitress card's action in employees.json
    w_action = next(
        a for a in load_json("employees.json")["employees"][EmployeeType.WAITRESS]["actions"]
        if a["type"] == "waitress"
    )
    return Prices(
        base_unit_price=int(p["base_unit_price"]),
        salary=int(p["salary"]),
        waitress_tip=int(w_action["cash_at_end_of_dinnertime"]),
        waitress_tip_milestone=int(w_action["cash_with_first_waitress_milestone"]),
        cfo_bonus_percent=int(p["cfo_bonus_percent"]),
        restaurants_per_player=int(p["restaurants_max_per_player"]),
        freezer_capacity=int(p["freezer_capacity"]),
        reserve_cards_per_player=int(load_json("bank_reserve.json")["reserve_cards_per_player"]),
    )


HOUSES: HouseTokenSpec = _build_houses()
PRICES: Prices = _build_prices()
PLAYER_COUNTS: tuple[int, ...] = tuple(sorted(SETUP))


def setup_for(num_players: int) -> SetupSpec:
    """The setup-table row for a player count; a clear error for any other count."""
    try:
        return SETUP[num_players]
    except (KeyError, TypeError):
        raise ValueError(
            f"num_players must be one of {PLAYER_COUNTS}, got {num_players!r}"
        ) from None


def employee(etype: EmployeeType | int) -> EmployeeSpec:
    return EMPLOYEES[etype]


def marketing_tile(number: int) -> MarketingTileSpec:
    if not 1 <= number <= len(MARKETING_TILES):
        raise ValueError(f"marketing tile number must be 1..{len(MARKETING_TILES)}, got {number}")
    return MARKETING_TILES[number - 1]
