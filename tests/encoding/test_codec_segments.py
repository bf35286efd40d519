"""The flat action codec: segment layout, bounds from the data, round trips, clear errors."""

from __future__ import annotations

import pytest

from fcm_env.data import EmployeeType, Good
from fcm_env.encoding.action_codec import (
    BOARD_KIND_OF,
    CODEC,
    DECISION_KINDS,
    HAUL_LIMITS,
    NUM_ACTIONS,
    TRAIN_STEPS,
    action_to_string,
    decode,
    encode,
)
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError, Pending
from fcm_env.engine.game import Game
from fcm_env.engine.phases.working import recruit_train as working

ET = EmployeeType


def test_segments_are_contiguous_named_and_cover_the_space():
    starts = [s.start for s in CODEC.segments]
    assert starts[0] == 0
    for a, b in zip(CODEC.segments, CODEC.segments[1:]):
        assert a.stop == b.start, f"{a.name} and {b.name} are not contiguous"
    assert CODEC.segments[-1].stop == CODEC.n == NUM_ACTIONS
    assert len({s.name for s in CODEC.segments}) == len(CODEC.segments)
    # every action kind of the engine has a segment
    assert {k for s in CODEC.segments for k in s.kinds} == set(ActionKind)


def test_segment_sizes_come_from_the_component_data():
    size = {s.name: s.size for s in CODEC.segments}
    # rules: Setting goals — three reserve cards; 5 turn-order spots at most (5 players)
    assert size["reserve"] == 3 and size["turn_spot"] == 5
    # 32 employee types besides the CEO; 8 entry-level types (employees.json)
    assert size["put_to_work"] == size["fire"] == 32
    assert size["recruit"] == 8
    # marketeers: marketing trainee, campaign manager, brand manager, brand director; 16 campaign tiles
    assert size["marketeer"] == 4 and size["campaign_tile"] == 16
    assert size["product"] == size["keep"] == 5
    assert size["duration"] == 5  # the brand director runs a campaign for up to 5 turns
    # kitchen trainee (burger, pizza), 2 cooks, 2 chefs, errand boy x 3 drinks
    assert size["produce"] == 2 + 4 + 3
    # the base game has 5 beer, 4 lemonade and 4 soda sources; 3 route buyers
    assert HAUL_LIMITS == (5, 4, 4)
    assert size["haul"] == 3 * 6 * 5 * 5
    assert size["house"] == 8  # placeable house tokens 1, 3, 6, 9, 11, 14, 17, 19
    assert size["restaurant"] == 2 * 4  # local / regional manager x restaurant 0..2 or a new one
    assert size["place"] == 20 * 25 * 4
    assert CODEC.n == 2757


def test_train_segment_holds_only_career_pairs_within_each_trainers_reach():
    args = set(CODEC.segment("train").args)
    # rules: Train — a trainer trains one step, a coach up to two, a guru up to three
    assert (ET.TRAINER, ET.MANAGEMENT_TRAINEE, ET.JUNIOR_VICE_PRESIDENT) in args
    assert (ET.TRAINER, ET.MANAGEMENT_TRAINEE, ET.VICE_PRESIDENT) not in args
    assert (ET.COACH, ET.MANAGEMENT_TRAINEE, ET.VICE_PRESIDENT) in args
    assert (ET.GURU, ET.MANAGEMENT_TRAINEE, ET.SENIOR_VICE_PRESIDENT) in args
    assert (ET.GURU, ET.MANAGEMENT_TRAINEE, ET.EXECUTIVE_VICE_PRESIDENT) not in args  # 4 steps
    # pooled actions ("First to pay $20") reach any descendant
    assert (working.POOLED, ET.MANAGEMENT_TRAINEE, ET.EXECUTIVE_VICE_PRESIDENT) in args
    # no cross-tree pairs
    assert (ET.TRAINER, ET.WAITRESS, ET.CFO) not in args
    assert TRAIN_STEPS == working.TRAIN_STEPS
    with pytest.raises(ValueError):
        encode(Action.train(ET.TRAINER, ET.MANAGEMENT_TRAINEE, ET.VICE_PRESIDENT))


def test_every_id_round_trips_under_each_decision_its_segment_answers():
    for decision in Decision:
        for index in range(CODEC.n):
            seg = CODEC.segment_of(index)
            fits = seg.name == "pass" or bool(set(seg.kinds) & DECISION_KINDS[decision])
            if seg.name == "place":
                fits = decision in BOARD_KIND_OF
            if fits:
                assert encode(decode(index, decision)) == index
            else:
                with pytest.raises(IllegalActionError):
                    decode(index, decision)


def test_board_ids_decode_to_the_piece_the_decision_places():
    index = CODEC.segment("place").start + (3 * 25 + 7) * 4 + 2
    assert decode(index, Decision.INITIAL_RESTAURANT) == Action.place_restaurant(3, 7, 2)
    assert decode(index, Decision.RESTAURANT_PLACE) == Action.place_restaurant(3, 7, 2)
    assert decode(index, Decision.CAMPAIGN_PLACE) == Action.place_campaign(3, 7, 2)
    assert decode(index, Decision.HOUSE_PLACE) == Action.place_house(3, 7, 2)
    assert decode(index, Decision.NEW_BUSINESS) == Action.place_garden(3, 7, 2)
    assert action_to_string(index) == "place[3,7,o2]"
    assert action_to_string(index, Decision.INITIAL_RESTAURANT) == "restaurant[3,7,SE]"
    assert action_to_string(index, Decision.HOUSE_PLACE) == "house[3,7,S]"
    assert action_to_string(index, Decision.NEW_BUSINESS) == "garden[3,7,S]"
    assert action_to_string(index, Decision.CAMPAIGN_PLACE) == "campaign[3,7,o2]"
    assert action_to_string(index, Decision.RECRUIT) == "place[3,7,o2]"  # RECRUIT places nothing
    assert encode(Action.place_garden(3, 7, 2)) == index == encode(Action.place_house(3, 7, 2))
    assert CODEC.board_args(index) == (3, 7, 2)


def test_decode_accepts_a_game_state_or_pending_record():
    game = Game.new(2, seed=3)
    index = CODEC.segment("place").start
    assert decode(index, game) == decode(index, game.state) == decode(index, game.pending)
    assert decode(index, Pending(Decision.INITIAL_RESTAURANT, 0, (1,))) == Action.place_restaurant(0, 0, 0)


def test_decode_errors_are_clear():
    with pytest.raises(IllegalActionError, match="out of range"):
        decode(-1, Decision.RECRUIT)
    with pytest.raises(IllegalActionError, match="out of range"):
        decode(CODEC.n, Decision.RECRUIT)
    with pytest.raises(IllegalActionError, match="integer"):
        decode(2.0, Decision.RECRUIT)  # type: ignore[arg-type]
    recruit_waitress = encode(Action.recruit(ET.WAITRESS))
    with pytest.raises(IllegalActionError, match="does not answer TURN_ORDER"):
        decode(recruit_waitress, Decision.TURN_ORDER)
    with pytest.raises(IllegalActionError, match="RECRUIT places nothing"):
        decode(CODEC.segment("place").start, Decision.RECRUIT)
    game = Game.new(2, seed=0)
    game.state.pending = []
    with pytest.raises(IllegalActionError, match="no decision is pending"):
        decode(0, game)
    with pytest.raises(ValueError, match="no id"):
        encode(Action.place_restaurant(20, 0, 0))  # row 20 is past the largest map
    with pytest.raises(ValueError, match="no id"):
        encode(Action.put_to_work(ET.CEO))  # the CEO is always at work


def test_action_strings_are_readable_and_unique():
    names = [action_to_string(i) for i in range(CODEC.n)]
    assert len(set(names)) == CODEC.n
    assert names[0] == "pass"
    assert action_to_string(encode(Action.recruit(ET.WAITRESS))) == "recruit:waitress"
    assert action_to_string(encode(Action.choose_reserve(1))) == "reserve:$200"
    assert action_to_string(encode(Action.train(ET.COACH, ET.MANAGEMENT_TRAINEE, ET.VICE_PRESIDENT))) == (
        "train:coach:management_trainee->vice_president"
    )
    assert action_to_string(encode(Action.haul(ET.TRUCK_DRIVER, 2, 1, 0))) == (
        "haul:truck_driver:beer2,lemonade1,soda0"
    )
    assert action_to_string(encode(Action.produce(ET.ERRAND_BOY, Good.SODA))) == "produce:errand_boy:soda"
    assert action_to_string(encode(Action.select_restaurant(ET.REGIONAL_MANAGER, 3))) == (
        "restaurant:regional_manager:3"
    )
    assert action_to_string(encode(Action.keep(Good.BEER))) == "keep:beer"


def test_haul_ids_follow_the_documented_formula():
    # docs/actions.md: id = start + ((buyer * 6 + b) * 5 + l) * 5 + s
    start = CODEC.segment("haul").start
    assert encode(Action.haul(ET.CART_OPERATOR, 0, 0, 0)) == start
    assert encode(Action.haul(ET.TRUCK_DRIVER, 2, 1, 3)) == start + ((1 * 6 + 2) * 5 + 1) * 5 + 3
    assert encode(Action.haul(ET.ZEPPELIN_PILOT, 5, 4, 4)) == CODEC.segment("haul").stop - 1
