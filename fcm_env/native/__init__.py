"""The native (C++) core, built with the package: the full rules, legal ids, observation and batched env.

The core (``fcm_env/native/src``, bound with pybind11 as ``fcm_env.native._core``) is the second implementation
of the rules; the Python engine stays the reference and the lockstep tests compare them (docs/native.md).
Importing this package hands the core what it reads from the Python side once: the printed map tiles, the
component data, the rules' numbers, the action codec's table and the observation layout, so that nothing
about the game is written twice. ``NativeGame`` (``fcm_env.engines.native_game``) gives the core the one face of both engines.

``Pcg64(seed)`` draws exactly what ``numpy.random.default_rng(seed)`` draws for the calls the project makes
(``integers``, ``permutation``, ``choice(..., replace=False)``), so ``new_game(...)`` sets up the game that
``Game.new`` sets up, and the native players draw what the Python agents draw.

The extension is compiled by ``pip install`` (pybind11, a C++17 compiler); ``FCM_PURE_PYTHON=1`` leaves it out,
and importing this package then raises ImportError saying so (the envs fall back to the Python engine).
"""

from __future__ import annotations

from fcm_env.data import (
    EMPLOYEES,
    HOUSES,
    MAP_TILES,
    MARKETING_TILES,
    MILESTONES,
    PRICES,
    RESERVE_CARDS,
    SETUP,
    EmployeeType,
    Milestone,
    setup_for,
)
from fcm_env.encoding.action_codec import (
    BOARD_COLS,
    BOARD_KIND_OF,
    BOARD_ORIENTATIONS,
    BOARD_ROWS,
    CODEC,
    DECISION_KINDS,
)
from fcm_env.engine.actions import ActionKind, Decision
from fcm_env.engine.events import HIDDEN_DECISIONS
from fcm_env.engine.phases.working.recruit_train import TRAIN_STEPS
from fcm_env.engine.state import Phase

try:
    from fcm_env.native import _core
    from fcm_env.native._core import (
        Board,
        Game,
        GameState,
        Pcg64,
        new_game,
        seed_sequence_pool,
    )
except ImportError as exc:  # pragma: no cover - an install without its compiled part
    raise ImportError(
        "fcm_env.native: the C++ core is not built in this install (it needs a C++17 compiler at "
        f"`pip install` time): reinstall with `pip install -e .` from a checkout ({exc})"
    ) from exc


def _map_tiles() -> list[tuple]:
    """The printed map tiles as the core reads them, from fcm_env.data (their one home)."""
    return [
        (tile.id, list(tile.grid), [(int(good), r, c) for good, (r, c) in tile.drinks],
         [(house.number, [list(cell) for cell in house.cells]) for house in tile.houses])
        for tile in MAP_TILES
    ]


#: milestone names by number, as the state document writes them
MILESTONE_NAMES = [m.name for m in sorted(Milestone)]


def _components() -> dict:
    """The facts of the components that the native setup reads, from fcm_env.data (their one home)."""
    sizes = (2, 3, 4, 5)
    return {  # the piles as the engine's initial_supply sets them out: the 1x types reduced (C2, R05)
        "supply": {n: [spec.copies_in_play(n) for spec in sorted(EMPLOYEES, key=lambda s: s.type)] for n in sizes},
        "bank": {n: setup_for(n).bank for n in sizes},
        "bank_intro": {n: setup_for(n).bank_introductory for n in sizes},
        "tiles": {n: [setup_for(n).tile_rows, setup_for(n).tile_cols] for n in sizes},
        "marketing": {n: [t.number for t in MARKETING_TILES if n in t.available_for_players] for n in sizes},
        "reserve_values": [card.value for card in RESERVE_CARDS],
        "house_tokens": list(HOUSES.numbers),
        "garden_tokens": HOUSES.garden_tokens,
        "num_map_tiles": len(MAP_TILES),
    }


_DRINK_MODES = {None: 0, "errand": 1, "road_route": 2, "air_route": 3}
_PLACEMENTS = {None: 0, "local": 1, "regional": 2}


def _range(spec) -> list[int] | None:
    return None if spec is None else [int(spec.kind), -1 if spec.value is None else int(spec.value)]


def _flat_params(params, prefix: str = "") -> dict[str, int]:
    """A milestone's effect parameters as "key" -> int ("gain_cards.management_trainee"; names -> indexes)."""
    out: dict[str, int] = {}
    for key, value in params.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flat_params(value, name + "."))
        elif isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                out[f"{name}.{i}"] = int(EmployeeType[item.upper()])
        else:
            out[name] = int(value)
    return out


def _rules_data() -> dict:
    """The facts of the components that the native rules read, from fcm_env.data (their one home)."""
    return {
        "employees": [{
            "type": int(e.type), "count_in_box": e.count_in_box, "entry_level": e.entry_level, "salary": e.salary,
            "unique": e.unique, "is_manager": e.is_manager, "manager_slots": e.manager_slots,
            "mandatory": e.mandatory, "trains_to": [int(t) for t in e.trains_to],
            "trained_from": [int(t) for t in e.trained_from], "recruit": e.recruit,
            "recruit_unused_discount": e.recruit_unused_discount, "train": e.train,
            "train_max_same": e.train_max_same, "campaign_types": [int(c) for c in e.campaign_types],
            "marketing_range": _range(e.marketing_range), "max_duration": e.max_duration,
            "produces": [int(g) for g in e.produces], "produce_amount": e.produce_amount,
            "drink_mode": _DRINK_MODES[e.drink_mode], "buyer_range": e.buyer_range,
            "drinks_per_source": e.drinks_per_source, "price_delta": e.price_delta, "waitress": e.waitress,
            "cfo": e.cfo, "places_house": e.places_house,
            "restaurant_placement": _PLACEMENTS[e.restaurant_placement],
            "restaurant_range": _range(e.restaurant_range), "drive_in": e.drive_in,
        } for e in sorted(EMPLOYEES, key=lambda e: e.type)],
        "marketing_tiles": [{
            "number": t.number, "type": int(t.type), "w": t.w, "h": t.h, "rotatable": t.rotatable,
            "available_for_players": sorted(t.available_for_players), "along_edge": t.along_edge,
            "footprints": [list(f) for f in t.footprints()],
        } for t in MARKETING_TILES],
        "prices": {name: getattr(PRICES, name) for name in (
            "base_unit_price", "salary", "waitress_tip", "waitress_tip_milestone", "cfo_bonus_percent",
            "restaurants_per_player", "freezer_capacity", "reserve_cards_per_player")},
        "reserve_cards": [[c.index, c.value, c.ceo_slots] for c in RESERVE_CARDS],
        "house_numbers": list(HOUSES.numbers),
        "printed_house_numbers": list(HOUSES.printed_numbers),
        "garden_tokens": HOUSES.garden_tokens,
        "demand_limit": HOUSES.demand_limit,
        "demand_limit_with_garden": HOUSES.demand_limit_with_garden,
        "setup": {n: {"tile_rows": t.tile_rows, "tile_cols": t.tile_cols, "bank": t.bank,
                      "bank_introductory": t.bank_introductory, "one_x_copies": t.one_x_copies,
                      "billboards_removed": list(t.billboards_removed)} for n, t in SETUP.items()},
        "milestone_params": [_flat_params(m.effect_params) for m in sorted(MILESTONES, key=lambda m: m.type)],
        "train_steps": {int(k): {int(t): int(n) for t, n in v.items()} for k, v in TRAIN_STEPS.items()},
    }


def _codec_table() -> dict:
    """The flat action codec's non-board ids and decision facts, from fcm_env.encoding (their one home)."""
    return {
        "actions": [(int(a.kind), list(a.args)) for a in CODEC._actions],
        "names": [CODEC.action_to_string(i) for i in range(CODEC.board_start)],
        "board_rows": BOARD_ROWS, "board_cols": BOARD_COLS, "board_orientations": BOARD_ORIENTATIONS,
        "decision_kinds": [sorted(int(k) for k in DECISION_KINDS[d]) for d in Decision],
        "board_kind": [int(BOARD_KIND_OF[d]) if d in BOARD_KIND_OF else -1 for d in Decision],
    }


def _observation_layout() -> dict:
    """The observation's layout and constants, from fcm_env.encoding (their one home)."""
    from fcm_env.encoding import action_codec as codec
    from fcm_env.encoding import layout as lay
    from fcm_env.encoding.player_blocks import LOWER_PRICES_DELTA
    from fcm_env.engine.game import DEFAULT_MAX_ROUNDS

    layout = lay.observation_layout()
    channels, rows, cols = layout.board_shape
    return {
        "channels": channels, "rows": rows, "cols": cols, "vector_size": layout.vector_size,
        "block_size": layout.player_block[-1].stop, "max_players": codec.MAX_PLAYERS,
        "channel": {c.name: c.index for c in layout.channels},
        "field": {v.name: v.start for v in layout.vector},
        "block": {f.name: f.start for f in layout.player_block},
        "scales": {"money": lay.MONEY_SCALE, "supply": lay.SUPPLY_SCALE, "stock": lay.STOCK_SCALE,
                   "price": lay.PRICE_SCALE, "house_number": lay.HOUSE_NUMBER_SCALE,
                   "duration": lay.DURATION_SCALE, "context": lay.CONTEXT_SCALE, "round": lay.ROUND_SCALE},
        "ints": {"context_slots": lay.CONTEXT_SLOTS, "min_players": lay.MIN_PLAYERS,
                 "default_max_rounds": DEFAULT_MAX_ROUNDS, "garden_tokens": HOUSES.garden_tokens,
                 "restaurants_per_player": PRICES.restaurants_per_player,
                 "base_unit_price": PRICES.base_unit_price, "lower_prices_delta": LOWER_PRICES_DELTA},
        "lists": {"ceo_slot_values": list(lay.CEO_SLOT_VALUES),
                  "marketeer_types": [int(t) for t in codec.MARKETEER_TYPES],
                  "manager_types": [int(t) for t in codec.RESTAURANT_MANAGER_TYPES],
                  "trainer_types": [int(t) for t in codec.TRAINER_TYPES],
                  "tile_numbers": [t.number for t in MARKETING_TILES], "house_numbers": list(HOUSES.numbers),
                  "reserve_values": [c.value for c in RESERVE_CARDS]},
    }


def _by_value(enum) -> list[str]:
    """An enum's names by value, 0..n-1 (the C++ enums are numbered alike: a gap is an error here)."""
    members = sorted(enum, key=int)
    if [int(m) for m in members] != list(range(len(members))):
        raise ImportError(f"fcm_env.native: {enum.__name__} is not numbered 0..{len(members) - 1}")
    return [m.name for m in members]


def _names() -> dict:
    """The enums' names and the face-down decisions, from fcm_env.engine (their one home)."""
    return {"phases": _by_value(Phase), "decisions": _by_value(Decision), "action_kinds": _by_value(ActionKind),
            "hidden": sorted(int(d) for d in HIDDEN_DECISIONS)}


def load_data(module) -> None:
    """Hand a module compiled with the engine's sources (``_core``, or an extension of a layer above that
    links its own copy of them) what it reads from the Python side once: its tables are its own. A table the
    core cannot hold (an enum with a member added on one side only) fails the import, naming it."""
    try:
        module.set_names(_names())
    except ValueError as exc:
        raise ImportError(f"fcm_env.native: {exc}") from exc
    module.set_map_tiles(_map_tiles())
    module.set_components(_components())
    module.set_rules_data(_rules_data())
    module.set_codec(_codec_table())
    module.set_observation_layout(_observation_layout())


load_data(_core)

__all__ = ["MILESTONE_NAMES", "Board", "Game", "GameState", "Pcg64", "load_data", "new_game", "seed_sequence_pool"]
