"""The employee cards in words (``fcm_env.text.cards``): one effect line per card of the data, whose
numbers are the data's; salary and training paths read from the data; names found as people type them;
the lines ``fcm play`` (``card NAME``, ``info``, the choice list) and ``fcm web`` (tooltips) print."""

from __future__ import annotations

import io
import re

import pytest

from fcm_agents.registry import make_agent
from fcm_apps.terminal import TerminalGame
from fcm_env.data import EMPLOYEES, PRICES, EmployeeType, RangeKind, load_json
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.game import Game
from fcm_env.text.cards import (
    CARD_EFFECTS,
    action_cards,
    card_effect,
    card_index,
    card_line,
    card_salary,
    card_sheet,
    card_trains,
    choice_note,
    choice_tip,
    find_card,
)
from fcm_env.text.words import card_name

RAW = {e["id"]: e for e in load_json("employees.json")["employees"]}


def test_every_card_of_the_data_has_one_effect_line_and_no_other_key_is_there():
    assert set(CARD_EFFECTS) == {spec.type.key for spec in EMPLOYEES} == set(RAW)
    for key, text in CARD_EFFECTS.items():
        assert text and "\n" not in text and "_" not in text, key


def _either(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} or {parts[-1]}"


@pytest.mark.parametrize("spec", EMPLOYEES, ids=lambda s: s.type.key)
def test_the_numbers_of_each_effect_are_the_datas(spec):
    """Every number an effect line prints is read here from employees.json / the prices, so a line that
    drifts from the data (or data that changes) fails."""
    text = card_effect(spec.type)
    raw = {a["type"]: a for a in RAW[spec.type.key]["actions"]}
    if spec.manager_slots:
        assert f"{spec.manager_slots} slots for cards under it" in text
    if spec.recruit:
        assert re.search(rf"hires (up to )?{spec.recruit} card", text)
        if spec.recruit_unused_discount:
            assert f"${raw['recruit']['salary_discount_per_unused']} off your salaries" in text
    if spec.train == 1:
        assert "trains 1 card 1 step" in text
    elif spec.train:
        assert f"{spec.train} training steps a turn, up to {spec.train_max_same} on the same card" in text
    if spec.campaign_types:
        assert _either([t.key for t in spec.campaign_types]) in text
        assert f"for up to {spec.max_duration} turns" in text
        if spec.marketing_range.kind == RangeKind.ROAD:
            assert f"within {spec.marketing_range.value} tile borders by road" in text
        else:
            assert "at any range" in text
    if spec.produces:
        amount = spec.produce_amount
        goods = [g.name.lower() + ("s" if amount > 1 else "") for g in spec.produces]
        assert "produces " + " or ".join(f"{amount} {g}" for g in goods) == text
    if spec.drink_mode == "errand":
        more = raw["get_drinks"]["amount_with_first_errand_boy_milestone"]
        assert f"fetches {spec.drinks_per_source} drink of any kind" in text
        assert f"({more} of one kind with First errand boy played)" in text
    elif spec.drink_mode == "road_route":
        assert f"up to {spec.buyer_range} tile borders by road" in text
        assert f"{spec.drinks_per_source} drinks from each drink source" in text
    elif spec.drink_mode == "air_route":
        assert f"up to {spec.buyer_range} tiles" in text and "ignoring roads" in text
        assert f"{spec.drinks_per_source} drinks from each drink source" in text
    if spec.price_delta:
        assert text == f"your unit price {'+' if spec.price_delta > 0 else '-'}${abs(spec.price_delta)}"
    if spec.waitress:
        assert f"+${PRICES.waitress_tip} in tips" in text
        assert f"${PRICES.waitress_tip_milestone} with First waitress played" in text and "ties" in text
    if spec.cfo:
        assert f"+{PRICES.cfo_bonus_percent}% (rounded up)" in text
    if spec.places_house:
        assert "house" in text and "garden" in text
    if spec.restaurant_placement == "local":
        assert f"within {spec.restaurant_range.value} tile borders by road" in text and "coming soon" in text
    elif spec.restaurant_placement == "regional":
        assert "anywhere" in text and "open at once" in text
    assert ("drive-in" in text) == spec.drive_in


@pytest.mark.parametrize("spec", EMPLOYEES, ids=lambda s: s.type.key)
def test_salary_and_training_come_from_the_data(spec):
    assert card_salary(spec.type) == (f"${PRICES.salary} salary" if spec.salary else "no salary")
    trains = card_trains(spec.type)
    if spec.trains_to:
        assert trains == "trains into " + _either([card_name(t) for t in spec.trains_to])
    else:
        assert trains in ("trains no further", "cannot be trained")
    line = card_line(spec.type)
    assert line == (f"{card_name(spec.type)}{' (1x)' if spec.unique else ''}: {card_effect(spec.type)}; "
                    f"{card_salary(spec.type)}; {trains}")
    sheet = card_sheet(spec.type)
    assert sheet[0].startswith(spec.name + ":") and f"  does: {card_effect(spec.type)}" in sheet
    assert ("  salary: none" in sheet) == (not spec.salary)


def test_the_examples_read_as_a_newcomer_needs_them():
    assert card_line("kitchen_trainee") == (
        "kitchen trainee: produces 1 burger or 1 pizza; no salary; trains into burger cook or pizza cook")
    assert card_line(EmployeeType.WAITRESS) == (
        "waitress: +$3 in tips at Dinnertime, sales or not ($5 with First waitress played); decides ties: at "
        "equal price + distance the chain with more waitresses serves the house; no salary; trains no further")
    assert card_line("burger_chef") == "burger chef (1x): produces 8 burgers; $5 salary; trains no further"
    assert card_sheet("junior_vice_president") == [
        "Junior Vice President: manager (black): goes only under the CEO; reached by training only",
        "  does: manager: 3 slots for cards under it",
        "  salary: $5 every Payday, at work, on the beach or busy",
        "  trains into vice president, local manager, discount manager, recruiting manager or coach",
        "  trained from management trainee",
    ]
    assert card_index() == [card_line(spec.type) for spec in EMPLOYEES]


@pytest.mark.parametrize(("typed", "keys"), [
    ("kitchen trainee", ["kitchen_trainee"]),
    ("KITCHEN_TRAINEE", ["kitchen_trainee"]),
    ("  Kitchen-Trainee ", ["kitchen_trainee"]),
    ("CFO", ["cfo"]),
    ("hr director", ["hr_director"]),
    ("burger cooks", ["burger_cook"]),
    ("jvp", ["junior_vice_president"]),
    ("zeppelin", ["zeppelin_pilot"]),
    ("brand", ["brand_manager", "brand_director"]),
    ("nobody", []),
    ("", []),
])
def test_cards_are_found_by_name_key_initials_or_a_part(typed, keys):
    assert find_card(typed) == keys


def test_the_cards_a_choice_names():
    train = Action.train(EmployeeType.TRAINER, EmployeeType.KITCHEN_TRAINEE, EmployeeType.BURGER_COOK)
    assert action_cards(train) == ["burger_cook", "kitchen_trainee", "trainer"]
    assert choice_note(train) == "produces 3 burgers; $5 salary"  # what the card becomes
    assert choice_tip(train) == "\n".join(card_line(k) for k in ("burger_cook", "kitchen_trainee", "trainer"))
    assert choice_note(Action.recruit(EmployeeType.WAITRESS)).startswith("+$3 in tips at Dinnertime")
    assert choice_note(Action.put_to_work(EmployeeType.ERRAND_BOY)).endswith("; no salary")
    assert choice_note(Action.fire(EmployeeType.ERRAND_BOY)) is None  # named (a tooltip), not noted in the list
    assert choice_tip(Action.fire(EmployeeType.ERRAND_BOY)) == card_line("errand_boy")
    assert choice_tip(Action.turn_spot(0)) is None and choice_note(Action.pass_()) is None


# ------------------------------------------------------------------ fcm play


def _prompt(game: Game, typed: str) -> str:
    out = io.StringIO()
    human = game.current_player
    bots = {p: make_agent("heuristic", seed=p) for p in range(game.num_players) if p != human}
    TerminalGame(game, human, bots, ["human"] * game.num_players, io.StringIO(typed + "q\n"), out)._human_turn()
    return out.getvalue()


def _at_recruiting() -> Game:
    game = Game.new(2, seed=4)
    while game.pending.decision != Decision.RECRUIT:
        game.apply(game.legal_actions()[-1])
    return game


def test_fcm_play_notes_each_hire_and_answers_card_and_info():
    out = _prompt(_at_recruiting(), "card kitchen trainee\ninfo\ncard brand\ncard nobody\n").splitlines()
    assert "  9) hire a kitchen trainee -- produces 1 burger or 1 pizza; no salary" in out
    assert "  5) hire a recruiting girl -- hires 1 card; no salary" in out
    assert "  1) pass" in out  # a choice naming no card has no note
    start = out.index("Kitchen Trainee: entry level: may be hired")
    assert out[start:start + 4] == ["Kitchen Trainee: entry level: may be hired",
                                    "  does: produces 1 burger or 1 pizza", "  salary: none",
                                    "  trains into burger cook or pizza cook"]
    info = next(i for i, line in enumerate(out) if line.endswith("): info")) + 1  # after the echoed command
    assert out[info:info + len(EMPLOYEES)] == [f"  {line}" for line in card_index()]
    assert "'brand' names several cards: brand manager, brand director" in out
    assert "no card is called 'nobody'; info lists every card" in out
    assert any(line.startswith("  card NAME       what a card does") for line in
               _prompt(_at_recruiting(), "?\n").splitlines())
