"""Component data: the shipped copy and the invariants listed in SOURCES.md.

Every expected number below is read off the rulebook, docs/rules-reference.md or the
"Invariants checked" section of SOURCES.md, not off the code under test.
"""

from __future__ import annotations

import os
from collections import Counter, deque
from pathlib import Path

import pytest

from fcm_env.data import (
    DATA_FILES,
    EMPLOYEES,
    HOUSES,
    MAP_TILES,
    MARKETING_TILES,
    MILESTONES,
    PLAYER_COUNTS,
    PRICES,
    RESERVE_CARDS,
    TILE_BY_ID,
    CampaignType,
    DataError,
    EmployeeType,
    Good,
    Milestone,
    RangeKind,
    employee,
    load_json,
    marketing_tile,
    setup_for,
)

PACKAGE_DATA = Path(__file__).resolve().parents[2] / "fcm_env" / "data"


def reference_data() -> Path | None:
    """The maintainers' reference data folder, which lives outside this repository: the folder named by
    ``FCM_REFERENCE_DATA``, else ``shared/data`` beside the checkout when there is one; None without."""
    named = os.environ.get("FCM_REFERENCE_DATA")
    if named:
        assert Path(named).is_dir(), f"FCM_REFERENCE_DATA={named}: not a folder"
        return Path(named)
    beside = Path(__file__).resolve().parents[2].parent / "shared" / "data"
    return beside if beside.is_dir() else None


E = EmployeeType


# --------------------------------------------------------------------------- the shipped copy


def test_shipped_data_files_equal_the_shared_data_folder_byte_for_byte():
    # SOURCES.md: the JSON files + SOURCES.md are the single source of facts; the package
    # ships a copy, which must not drift from the maintainers' reference folder (skipped without it;
    # the reason names no path outside the repository, which stands on its own).
    reference = reference_data()
    if reference is None:
        pytest.skip("maintainers' check: set FCM_REFERENCE_DATA to a reference data folder to compare "
                    "fcm_env/data with it")
    shared = sorted(p.name for p in reference.iterdir() if p.suffix == ".json" or p.name == "SOURCES.md")
    assert "SOURCES.md" in shared
    assert sorted(n for n in shared if n.endswith(".json")) == sorted(DATA_FILES)
    for name in shared:
        assert (PACKAGE_DATA / name).read_bytes() == (reference / name).read_bytes(), name


def test_every_listed_data_file_is_shipped_and_parses():
    for name in DATA_FILES:
        assert (PACKAGE_DATA / name).is_file(), name
        assert isinstance(load_json(name), dict), name
    assert (PACKAGE_DATA / "SOURCES.md").is_file()


def test_unknown_data_file_raises_data_error():
    with pytest.raises(DataError):
        load_json("nope.json")
    assert issubclass(DataError, ValueError)


# --------------------------------------------------------------------------- employees


def test_there_are_222_employee_cards():
    # rules: Components "222 employee cards"; C3 / R01 (the box text saying 223 is wrong)
    assert sum(e.count_in_box for e in EMPLOYEES) == 222


def test_32_employee_types_plus_the_ceo():
    # SOURCES.md: 32 types; the CEO is not one of the 222 cards (each player gets one)
    assert len(EMPLOYEES) == 33
    assert [e.type for e in EMPLOYEES] == list(EmployeeType)
    ceo = employee(E.CEO)
    assert ceo.count_in_box == 0
    assert ceo.copies_in_play(2) == 0
    assert all(e.count_in_box > 0 for e in EMPLOYEES if e.type != E.CEO)


UNIQUE_TYPES = {
    E.EXECUTIVE_VICE_PRESIDENT, E.CFO, E.REGIONAL_MANAGER, E.LUXURIES_MANAGER, E.HR_DIRECTOR,
    E.GURU, E.ZEPPELIN_PILOT, E.BRAND_DIRECTOR, E.BURGER_CHEF, E.PIZZA_CHEF,
}


def test_exactly_ten_1x_types_with_three_copies_in_the_box():
    # SOURCES.md employees: "1x (10 types) ... There are 3 copies of each in the box."
    unique = {e.type for e in EMPLOYEES if e.unique}
    assert unique == UNIQUE_TYPES
    assert all(employee(t).count_in_box == 3 for t in UNIQUE_TYPES)


@pytest.mark.parametrize("num_players, copies", [(2, 1), (3, 1), (4, 2), (5, 3)])
def test_1x_copies_in_play_per_player_count(num_players, copies):
    # rules: Cards setup table ("1x employee cards used" 1/1/2/3); C2; R05
    for t in UNIQUE_TYPES:
        assert employee(t).copies_in_play(num_players) == copies
    # all copies of every other card are used at every player count (C2)
    for e in EMPLOYEES:
        if e.type != E.CEO and not e.unique:
            assert e.copies_in_play(num_players) == e.count_in_box


def test_exactly_eight_entry_level_types():
    # SOURCES.md employees "Entry level (8 types ...)"; rules: Recruit (only cards with the entry icon)
    entry = {e.type: e.name for e in EMPLOYEES if e.entry_level}
    assert entry == {
        E.WAITRESS: "Waitress",
        E.MANAGEMENT_TRAINEE: "Management Trainee",
        E.PRICING_MANAGER: "Pricing Manager",
        E.RECRUITING_GIRL: "Recruiting Girl",
        E.TRAINER: "Trainer",
        E.ERRAND_BOY: "Errand Boy",
        E.MARKETING_TRAINEE: "Marketing Trainee",
        E.KITCHEN_TRAINEE: "Kitchen Trainee",
    }


def test_trains_to_targets_exist_and_trained_from_is_the_inverse_relation():
    # SOURCES.md: "Every trains_to target exists"; rules: Train (cards show their career options)
    types = {e.type for e in EMPLOYEES}
    forward = {(a.type, b) for a in EMPLOYEES for b in a.trains_to}
    backward = {(a, b.type) for b in EMPLOYEES for a in b.trained_from}
    assert all(b in types and b != E.CEO for _, b in forward)
    assert forward == backward
    # SOURCES.md career tree: these four entry cards have no training options
    for t in (E.WAITRESS, E.PRICING_MANAGER, E.RECRUITING_GIRL, E.TRAINER):
        assert employee(t).trains_to == ()


def _training_steps(src: EmployeeType, dst: EmployeeType) -> int | None:
    dist = {src: 0}
    queue = deque([src])
    while queue:
        t = queue.popleft()
        for n in employee(t).trains_to:
            if n not in dist:
                dist[n] = dist[t] + 1
                queue.append(n)
    return dist.get(dst)


def test_management_trainee_to_hr_director_takes_four_training_steps():
    # SOURCES.md invariant: MT -> JVP -> VP -> SVP -> HR director = 4 steps
    assert _training_steps(E.MANAGEMENT_TRAINEE, E.HR_DIRECTOR) == 4
    assert _training_steps(E.MANAGEMENT_TRAINEE, E.EXECUTIVE_VICE_PRESIDENT) == 4
    assert _training_steps(E.MARKETING_TRAINEE, E.BRAND_DIRECTOR) == 3
    assert _training_steps(E.ERRAND_BOY, E.ZEPPELIN_PILOT) == 3


def test_manager_slots():
    # SOURCES.md: MT 2 / JVP 3 / VP 4 / SVP 5 / EVP 10 (C4, R02); rules: the CEO has 3 slots
    slots = {e.type: e.manager_slots for e in EMPLOYEES if e.manager_slots}
    assert slots == {
        E.CEO: 3,
        E.MANAGEMENT_TRAINEE: 2,
        E.JUNIOR_VICE_PRESIDENT: 3,
        E.VICE_PRESIDENT: 4,
        E.SENIOR_VICE_PRESIDENT: 5,
        E.EXECUTIVE_VICE_PRESIDENT: 10,
    }
    assert all(employee(t).is_manager for t in slots if t != E.CEO)


def test_marketeer_campaign_types_ranges_and_durations():
    # rules: Initiate marketing campaigns ("Marketing trainees may place only a billboard; Campaign
    # managers ... mailbox or billboard; brand managers ... airplane, mailbox or billboard; brand
    # director ... any type"; trainee range 2, max duration 2; brand managers/directors not limited
    # by range); SOURCES.md: MT road 2 / CM road 3 / BM, BD unlimited; durations 2/3/4/5
    B, M, A, R = CampaignType.BILLBOARD, CampaignType.MAILBOX, CampaignType.AIRPLANE, CampaignType.RADIO
    expected = {
        E.MARKETING_TRAINEE: ({B}, RangeKind.ROAD, 2, 2),
        E.CAMPAIGN_MANAGER: ({B, M}, RangeKind.ROAD, 3, 3),
        E.BRAND_MANAGER: ({B, M, A}, RangeKind.UNLIMITED, None, 4),
        E.BRAND_DIRECTOR: ({B, M, A, R}, RangeKind.UNLIMITED, None, 5),
    }
    marketeers = {e.type for e in EMPLOYEES if e.is_marketeer}
    assert marketeers == set(expected)
    for t, (kinds, range_kind, range_value, duration) in expected.items():
        spec = employee(t)
        assert set(spec.campaign_types) == kinds
        assert spec.marketing_range.kind == range_kind
        assert spec.marketing_range.value == range_value
        assert spec.max_duration == duration


def test_buyer_and_restaurant_ranges():
    # rules: Get food & drinks (cart operator range 2 / 2 drinks per symbol, truck driver range 3 /
    # 3 drinks, zeppelin range 4 ignoring roads / 2 drinks; errand boy one drink) and
    # Place or move restaurants (local manager range 3 by road, regional manager anywhere)
    cart, truck, zep, errand = (employee(t) for t in (E.CART_OPERATOR, E.TRUCK_DRIVER, E.ZEPPELIN_PILOT,
                                                        E.ERRAND_BOY))
    assert (cart.drink_mode, cart.buyer_range, cart.drinks_per_source) == ("road_route", 2, 2)
    assert (truck.drink_mode, truck.buyer_range, truck.drinks_per_source) == ("road_route", 3, 3)
    assert (zep.drink_mode, zep.buyer_range, zep.drinks_per_source) == ("air_route", 4, 2)
    assert (errand.drink_mode, errand.drinks_per_source) == ("errand", 1)
    local, regional = employee(E.LOCAL_MANAGER), employee(E.REGIONAL_MANAGER)
    assert local.restaurant_placement == "local"
    assert (local.restaurant_range.kind, local.restaurant_range.value) == (RangeKind.ROAD, 3)
    assert regional.restaurant_placement == "regional"
    assert regional.restaurant_range.kind == RangeKind.UNLIMITED
    assert local.drive_in and regional.drive_in  # C11


def test_kitchen_production_amounts():
    # rules: Get food & drinks (kitchen trainee: one burger or pizza); SOURCES.md card data
    assert set(employee(E.KITCHEN_TRAINEE).produces) == {Good.BURGER, Good.PIZZA}
    assert employee(E.KITCHEN_TRAINEE).produce_amount == 1
    assert (employee(E.BURGER_COOK).produces, employee(E.BURGER_COOK).produce_amount) == ((Good.BURGER,), 3)
    assert (employee(E.PIZZA_CHEF).produces, employee(E.PIZZA_CHEF).produce_amount) == ((Good.PIZZA,), 8)


def test_mandatory_cards():
    # rules: Phase 3 ("The actions of the pricing manager, discount manager, luxury manager, CFO,
    # recruiting manager, HR director and waitress are mandatory"); R13
    mandatory = {e.type for e in EMPLOYEES if e.mandatory}
    assert mandatory == {
        E.PRICING_MANAGER, E.DISCOUNT_MANAGER, E.LUXURIES_MANAGER, E.CFO, E.RECRUITING_MANAGER,
        E.HR_DIRECTOR, E.WAITRESS,
    }


def test_price_deltas():
    # rules: Dinnertime (price manager -$1, discount manager -$3, luxury manager +$10)
    deltas = {e.type: e.price_delta for e in EMPLOYEES if e.price_delta}
    assert deltas == {E.PRICING_MANAGER: -1, E.DISCOUNT_MANAGER: -3, E.LUXURIES_MANAGER: 10}


def test_recruit_and_train_counts():
    # rules: Recruit (CEO 1 free, recruiting girl 1x, recruiting manager 2x, HR director 4x; unused
    # manager/HR actions give a salary discount) and Train (coach 2 steps, guru 3 steps)
    recruit = {e.type: e.recruit for e in EMPLOYEES if e.recruit}
    assert recruit == {E.CEO: 1, E.RECRUITING_GIRL: 1, E.RECRUITING_MANAGER: 2, E.HR_DIRECTOR: 4}
    assert {e.type for e in EMPLOYEES if e.recruit_unused_discount} == {E.RECRUITING_MANAGER, E.HR_DIRECTOR}
    train = {e.type: (e.train, e.train_max_same) for e in EMPLOYEES if e.train}
    assert train == {E.TRAINER: (1, 1), E.COACH: (2, 2), E.GURU: (3, 3)}


def test_employee_enum_values_follow_employees_json_order():
    raw = load_json("employees.json")["employees"]
    assert len(raw) == len(EmployeeType)
    for i, entry in enumerate(raw):
        assert EmployeeType(i).key == entry["id"]


# --------------------------------------------------------------------------- milestones


def test_eighteen_milestones_with_84_cards():
    # rules: Components "84 milestone cards"; SOURCES.md: 18 types, counts sum to 84
    assert len(MILESTONES) == 18
    assert [m.type for m in MILESTONES] == list(Milestone)
    assert sum(m.card_count for m in MILESTONES) == 84
    assert all(m.card_count in (3, 6) for m in MILESTONES)


def test_milestone_enum_values_follow_milestones_json_order():
    raw = load_json("milestones.json")["milestones"]
    assert len(raw) == len(Milestone)
    for i, entry in enumerate(raw):
        assert Milestone(i).key == entry["id"]


# --------------------------------------------------------------------------- marketing tiles


def test_sixteen_marketing_tiles_by_type_and_number():
    # rules: Components "16 marketing tiles: 6 billboards, 4 mailboxes, 3 airplanes and 3 radios";
    # SOURCES.md: radios 1-3, airplanes 4-6, mailboxes 7-10, billboards 11-16
    assert len(MARKETING_TILES) == 16
    assert Counter(t.type for t in MARKETING_TILES) == {
        CampaignType.BILLBOARD: 6, CampaignType.MAILBOX: 4, CampaignType.AIRPLANE: 3, CampaignType.RADIO: 3,
    }
    by_type = {kind: [t.number for t in MARKETING_TILES if t.type == kind] for kind in CampaignType}
    assert by_type[CampaignType.RADIO] == [1, 2, 3]
    assert by_type[CampaignType.AIRPLANE] == [4, 5, 6]
    assert by_type[CampaignType.MAILBOX] == [7, 8, 9, 10]
    assert by_type[CampaignType.BILLBOARD] == [11, 12, 13, 14, 15, 16]
    assert [marketing_tile(n).number for n in range(1, 17)] == list(range(1, 17))
    with pytest.raises(ValueError):
        marketing_tile(17)


def test_airplanes_fly_over_1_3_and_5_rows_or_columns():
    # rules: Placing the campaign ("airplanes have a size of 1, 3 or 5 squares"); C15
    assert [marketing_tile(n).along_edge for n in (4, 5, 6)] == [1, 3, 5]
    assert all(marketing_tile(n).footprints() == () for n in (4, 5, 6))


def test_campaign_footprints_and_rotation():
    # marketing_tiles.json footprint_squares (w x h = columns x rows); R14 (marketing tiles may be
    # rotated, airplanes excepted): a non-square tile offers both orientations, as (rows, cols).
    assert marketing_tile(11).footprints() == ((2, 3), (3, 2))
    assert marketing_tile(12).footprints() == ((2, 2),)
    assert marketing_tile(13).footprints() == ((1, 3), (3, 1))
    assert marketing_tile(14).footprints() == ((1, 2), (2, 1))
    for n in (1, 2, 3, 9, 10, 15, 16):
        assert marketing_tile(n).footprints() == ((1, 1),)
    for n in (7, 8):
        assert marketing_tile(n).footprints() == ((2, 2),)


@pytest.mark.parametrize(
    "num_players, removed", [(2, (12, 15, 16)), (3, (15, 16)), (4, (16,)), (5, ())]
)
def test_billboards_removed_per_player_count(num_players, removed):
    # rules: Cards setup table ("Billboards removed": 2p #12 #15 #16, 3p #15 #16, 4p #16, 5p none)
    assert setup_for(num_players).billboards_removed == removed
    unavailable = {t.number for t in MARKETING_TILES if num_players not in t.available_for_players}
    assert unavailable == set(removed)


# --------------------------------------------------------------------------- houses, bank, setup


def test_printed_and_placeable_house_numbers_are_exactly_1_to_19():
    # SOURCES.md houses: printed 2,4,5,7,8,10,12,13,15,16,18 + placeable 1,3,6,9,11,14,17,19 = 1..19
    assert HOUSES.printed_numbers == (2, 4, 5, 7, 8, 10, 12, 13, 15, 16, 18)
    assert HOUSES.numbers == (1, 3, 6, 9, 11, 14, 17, 19)
    assert sorted(HOUSES.printed_numbers + HOUSES.numbers) == list(range(1, 20))
    # rules: Components "8 house tiles, 8 garden tiles"; Phase 6 (3 demand tokens, 5 with a garden)
    assert HOUSES.garden_tokens == 8
    assert (HOUSES.demand_limit, HOUSES.demand_limit_with_garden) == (3, 5)


def test_reserve_cards():
    # SOURCES.md bank_reserve: $100 / 2 slots, $200 / 3 slots, $300 / 4 slots; 3 per player
    assert [(c.value, c.ceo_slots) for c in RESERVE_CARDS] == [(100, 2), (200, 3), (300, 4)]
    assert PRICES.reserve_cards_per_player == 3


@pytest.mark.parametrize(
    "num_players, tiles, bank",
    [(2, (3, 3), 100), (3, (3, 4), 150), (4, (4, 4), 200), (5, (4, 5), 250)],
)
def test_setup_table(num_players, tiles, bank):
    # rules: Cards setup table (map size 3x3 / 3x4 / 4x4 / 5x4) and Filling the bank ($50 x players);
    # Introductory game ($75 x players); C7
    s = setup_for(num_players)
    assert s.num_players == num_players
    assert (s.tile_rows, s.tile_cols) == tiles
    assert s.bank == bank == 50 * num_players
    assert s.bank_introductory == 75 * num_players


def test_player_counts_and_bad_count():
    assert PLAYER_COUNTS == (2, 3, 4, 5)
    for bad in (0, 1, 6, "3", None):
        with pytest.raises(ValueError, match="num_players"):
            setup_for(bad)


def test_prices():
    # rules: Dinnertime (unit price $10, waitress $3 / $5 with the milestone, CFO +50%),
    # Payday ($5 per salaried card), Placing restaurants (3 per player), freezer 10 items
    assert PRICES.base_unit_price == 10
    assert PRICES.salary == 5
    assert (PRICES.waitress_tip, PRICES.waitress_tip_milestone) == (3, 5)
    assert PRICES.cfo_bonus_percent == 50
    assert PRICES.restaurants_per_player == 3
    assert PRICES.freezer_capacity == 10


# --------------------------------------------------------------------------- map tiles


def test_twenty_map_tiles_a_to_t():
    # rules: Components "20 map tiles"
    assert [t.id for t in MAP_TILES] == list("ABCDEFGHIJKLMNOPQRST")
    assert list(TILE_BY_ID) == list("ABCDEFGHIJKLMNOPQRST")
    assert [t.index for t in MAP_TILES] == list(range(20))
    assert all(len(t.grid) == 5 and all(len(row) == 5 for row in t.grid) for t in MAP_TILES)


def test_drink_sources_total_beer_5_lemonade_4_soda_4():
    # SOURCES.md map_tiles: "Drink sources: beer 5, lemonade 4, soda 4"
    counts = Counter(good for t in MAP_TILES for good, _ in t.drinks)
    assert counts == {Good.BEER: 5, Good.LEMONADE: 4, Good.SODA: 4}
    by_tile = {g: sorted({t.id for t in MAP_TILES for good, _ in t.drinks if good == g}) for g in counts}
    assert by_tile[Good.BEER] == list("ENOPS")
    assert by_tile[Good.LEMONADE] == list("LMPT")
    assert by_tile[Good.SODA] == list("MQRS")


def test_road_shape_totals():
    # SOURCES.md: 6 crossroads, 2 bridges, 6 T-junctions, 1 ring, 2 U-shapes, 3 tiles with two roads
    assert Counter(t.shape for t in MAP_TILES) == {
        "crossroads": 6, "bridge_crossing": 2, "t_junction": 6, "ring": 1, "u_loop": 2,
        "two_separate_roads": 3,
    }
    assert [t.id for t in MAP_TILES if t.bridges] == ["G", "P"]
    assert all(t.bridges == ((2, 2),) for t in MAP_TILES if t.bridges)
