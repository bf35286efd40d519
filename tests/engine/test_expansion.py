"""Phase 3 Working 9-5: new houses and gardens, restaurants, and the order of the sub-steps.

rules: Place new houses and gardens; Place or move restaurants; C6, C11, R12-R14, R31; D8.
The map is the crossroads map of ``test_marketing_launch.py`` (tile range from tile 0 =
tile steps; P and G are bridge tiles, R49):

       0     5     10           tile indices        range from tile 0
  0 |RR#..|..#4H|..#..|          0 A | 1 B | 2 P       0 | 1 | 2
  1 |RR#..|..#HH|l.#..|          3 O | 4 R | 5 S       1 | 2 | 3
  2 |#####|#####|##X##|          6 G | 7 T | 8 N       2 | 3 | 4
  3 |2H#..|..#..|..RR.|
  4 |HH#..|..#..|..RR.|     player 0's restaurant (0,0)-(1,1), entrance SE (1,1);
  5 |.b#..|..#..|..#s.|     player 1's restaurant (3,10)-(4,11), entrance NE (3,11)
  6 |..#..|.s#..|..#..|
  7 |#####|#####|#####|     printed houses: 2 (3,0)-(4,1), 4 (0,8)-(1,9), 12 (10,0)-(11,1)
  8 |..#..|..#..|b.#..|
  9 |..#..|..#..|..#..|
 10 |12#..|..#..|..#..|
 11 |HH#..|.l#..|.b#..|
 12 |##X##|#####|#####|
 13 |..#..|..#..|.....|
 14 |..#..|..#..|.....|
"""

from __future__ import annotations

import pytest
from builders import apply_raw, full_fingerprint, phase3_game

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good
from fcm_env.engine.actions import Action, Decision, IllegalActionError
from fcm_env.engine.board.placement import restaurant_squares
from fcm_env.engine.state import House, Phase, Restaurant

CROSS = "A0 B0 P0 / O0 R0 S0 / G0 T0 N0"
HOME = {0: [(0, 0, 2)], 1: [(3, 10, 1)]}
HOUSE_TOKENS = (1, 3, 6, 9, 11, 14, 17, 19)
GARDEN_FOR_12 = (9, 0, 0)  # (9,0)-(9,1), north of house 12


def tiles_of(game, spot):
    board = game.state.board
    return {board.tile_at(*sq) for sq in restaurant_squares(*spot)}


def spots(game):
    return [tuple(a.args) for a in game.legal_actions()]


# ---------------------------------------------------------------- houses and gardens


def test_new_business_developer_chooses_any_house_number_and_places_it_with_its_garden():
    # rules: Place new houses and gardens — any empty area next to a road, no range limit, free
    # choice of the house; a placed house comes with a garden (its own token: no garden token used)
    game = phase3_game(CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 1})
    state = game.state
    assert game.pending.decision == Decision.NEW_BUSINESS
    # house 2: road N and E, a beer S; house 4: road S and W, a lemonade E; house 12: only north is free
    assert game.legal_actions() == (
        [Action.pass_()] + [Action.choose_house(n) for n in HOUSE_TOKENS] + [Action.place_garden(*GARDEN_FOR_12)]
    )
    game.apply(Action.choose_house(14))
    assert game.pending.decision == Decision.HOUSE_PLACE and game.pending.context == (14,)
    # (5,8)-(6,10): the empty 2x3 rectangle of tiles R and S, next to the road (5,7)
    assert (5, 8, 1) in spots(game) and (5, 8, 3) in spots(game)
    assert (13, 13, 1) not in spots(game)  # (13,13)-(14,15) would leave the map
    game.apply(Action.place_house(5, 8, 1))  # garden on the east side
    assert state.houses[14] == House(14, ((5, 8), (5, 9), (6, 8), (6, 9)), ((5, 10), (6, 10)), placed=True)
    assert state.house_supply == [1, 3, 6, 9, 11, 17, 19]
    assert state.gardens_left == 8
    assert game.current_player == 1


def test_a_garden_goes_only_beside_a_printed_house_without_one():
    # rules: Place new houses and gardens — a garden joins a printed house into a 2x3 rectangle on
    # empty squares; each house gets one garden; placed houses come with theirs
    game = phase3_game(CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 3})
    state = game.state
    game.apply(Action.place_garden(*GARDEN_FOR_12))
    assert state.houses[12].garden == ((9, 0), (9, 1)) and state.gardens_left == 7
    assert not state.houses[12].placed
    # house 12 has its garden now: no garden is offered any more, houses still are
    assert game.legal_actions() == [Action.pass_()] + [Action.choose_house(n) for n in HOUSE_TOKENS]
    game.apply(Action.choose_house(1))
    game.apply(Action.place_house(5, 8, 3))  # garden west: (5,8)-(6,8), house (5,9)-(6,10)
    assert state.houses[1] == House(1, ((5, 9), (5, 10), (6, 9), (6, 10)), ((5, 8), (6, 8)), placed=True)
    assert [a for a in game.legal_actions() if a.kind == Action.place_garden(0, 0, 0).kind] == []
    assert state.turn.used[E.NEW_BUSINESS_DEVELOPER] == 2


def test_no_garden_without_garden_tokens_and_no_house_without_house_tokens():
    # C1: houses and gardens are limited to the box; a developer with nothing to place is skipped
    def no_tokens(state):
        state.gardens_left = 0
        state.house_supply = []

    game = phase3_game(CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 1}, prepare=no_tokens)
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT

    def one_house(state):
        state.gardens_left = 0
        state.house_supply = [3]

    game = phase3_game(CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 1}, prepare=one_house)
    assert game.legal_actions() == [Action.pass_(), Action.choose_house(3)]


# ---------------------------------------------------------------- local manager


def test_local_manager_opens_a_coming_soon_restaurant_within_range_3_only():
    # rules: Place or move restaurants — local manager: within range 3 by road of a restaurant;
    # "COMING SOON"; D8: at least one square on a tile within range 3
    game = phase3_game(CROSS, HOME, work={E.LOCAL_MANAGER: 1})
    assert game.legal_actions() == [Action.pass_(), Action.select_restaurant(E.LOCAL_MANAGER, 1)]
    game.apply(Action.select_restaurant(E.LOCAL_MANAGER, 1))
    options = spots(game)
    assert not [s for s in options if tiles_of(game, s) == {8}]  # tile 8 is at range 4
    assert (13, 8, 0) in options  # on tile 7 (range 3), entrance (13,8) beside the road (13,7)
    assert (13, 9, 1) in options  # half on tile 7, half on tile 8
    assert (13, 13, 0) not in options  # all on tile 8
    game.apply(Action.place_restaurant(13, 8, 0))
    assert game.state.players[0].restaurants == [Restaurant(0, 0, 2), Restaurant(13, 8, 0, coming_soon=True)]
    assert game.current_player == 1


def test_a_second_local_manager_counts_range_from_the_coming_soon_restaurant():
    # D25: every restaurant of the chain on the board counts for the local manager's range
    game = phase3_game(CROSS, HOME, work={E.LOCAL_MANAGER: 2})
    game.apply(Action.select_restaurant(E.LOCAL_MANAGER, 1))
    game.apply(Action.place_restaurant(13, 8, 0))
    assert game.legal_actions() == [Action.pass_(), Action.select_restaurant(E.LOCAL_MANAGER, 2)]
    game.apply(Action.select_restaurant(E.LOCAL_MANAGER, 2))
    assert (13, 13, 0) in spots(game)  # tile 8 is next to tile 7


def test_local_manager_range_counts_from_drive_in_corners():
    # C11, R32: with a local manager at work every corner is an entrance. The restaurant
    # (0,4)-(1,5) has its printed entrance (1,4) on tile 0, but its corner (1,5) touches the
    # road (2,5) of tile 1, and tile 8 is 3 steps from tile 1 (4 from tile 0).
    game = phase3_game(CROSS, {0: [(0, 4, 3)], 1: [(3, 10, 1)]}, work={E.LOCAL_MANAGER: 1})
    game.apply(Action.select_restaurant(E.LOCAL_MANAGER, 1))
    assert (13, 13, 0) in spots(game)


# ---------------------------------------------------------------- regional manager


def test_regional_manager_places_anywhere_and_the_restaurant_is_open_at_once():
    # rules: Place or move restaurants — regional manager: anywhere, entrance next to a road, open now
    game = phase3_game(CROSS, HOME, work={E.REGIONAL_MANAGER: 1})
    assert game.legal_actions() == [
        Action.pass_(), Action.select_restaurant(E.REGIONAL_MANAGER, 0), Action.select_restaurant(E.REGIONAL_MANAGER, 1),
    ]
    game.apply(Action.select_restaurant(E.REGIONAL_MANAGER, 1))
    assert (13, 13, 0) in spots(game)
    game.apply(Action.place_restaurant(13, 13, 0))
    assert game.state.players[0].restaurants[1] == Restaurant(13, 13, 0, coming_soon=False)


def test_regional_manager_rotates_a_restaurant_in_place():
    # rules: Place or move restaurants — "pick up ... place it somewhere else and/or rotate it"; R14.
    # In place, the entrance may be NE (0,1) beside the road (0,2) or SW (1,0) beside (2,0); NW (0,0)
    # touches no road, and SE is where it stands (no move, D26).
    game = phase3_game(CROSS, HOME, work={E.REGIONAL_MANAGER: 1})
    game.apply(Action.select_restaurant(E.REGIONAL_MANAGER, 0))
    in_place = [s for s in spots(game) if s[:2] == (0, 0)]
    assert in_place == [(0, 0, 1), (0, 0, 3)]
    game.apply(Action.place_restaurant(0, 0, 3))
    assert game.state.players[0].restaurants == [Restaurant(0, 0, 3)]
    assert game.current_player == 1  # the regional manager has acted


def test_regional_manager_moves_a_coming_soon_restaurant_and_it_opens():
    # rules: Place or move restaurants — restaurants moved by a regional manager are active immediately
    home = {0: [(0, 0, 2), (13, 8, 0, True)], 1: [(3, 10, 1)]}
    game = phase3_game(CROSS, home, work={E.REGIONAL_MANAGER: 1})
    game.apply(Action.select_restaurant(E.REGIONAL_MANAGER, 1))
    options = spots(game)
    assert (13, 8, 0) not in options and (13, 8, 3) in options  # rotate: entrance SW (14,8) beside (14,7)
    game.apply(Action.place_restaurant(13, 13, 0))
    assert game.state.players[0].restaurants == [Restaurant(0, 0, 2), Restaurant(13, 13, 0)]


def test_at_most_three_restaurants_per_chain():
    # rules: components (3 restaurants per player); a local manager with nothing to place is skipped
    three = {0: [(0, 0, 2), (13, 8, 0), (8, 13, 0)], 1: [(3, 10, 1)]}
    game = phase3_game(CROSS, three, work={E.LOCAL_MANAGER: 1})
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT
    game = phase3_game(CROSS, three, work={E.REGIONAL_MANAGER: 1, E.LOCAL_MANAGER: 1})
    assert game.legal_actions() == [Action.pass_()] + [Action.select_restaurant(E.REGIONAL_MANAGER, i) for i in range(3)]


def test_managers_each_act_once_and_illegal_placements_change_nothing():
    # rules: Working 9-5 — one action per card at work
    game = phase3_game(CROSS, HOME, work={E.REGIONAL_MANAGER: 1, E.LOCAL_MANAGER: 1})
    game.apply(Action.select_restaurant(E.LOCAL_MANAGER, 1))
    before = full_fingerprint(game.state)
    for bad in (Action.place_restaurant(13, 13, 0), Action.place_restaurant(0, 0, 2),
                Action.place_restaurant(3, 10, 1), Action.pass_()):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
    assert full_fingerprint(game.state) == before
    game.apply(Action.place_restaurant(13, 8, 0))
    assert game.legal_actions() == [
        Action.pass_(), Action.select_restaurant(E.REGIONAL_MANAGER, 0),
        Action.select_restaurant(E.REGIONAL_MANAGER, 1), Action.select_restaurant(E.REGIONAL_MANAGER, 2),
    ]
    game.apply(Action.pass_())
    assert game.current_player == 1


# ---------------------------------------------------------------- the order of the sub-steps


def test_sub_steps_come_in_rulebook_order_one_player_at_a_time():
    # rules: Phase 3 — marketing, food & drinks, houses and gardens, restaurants; R12
    work = {E.CAMPAIGN_MANAGER: 1, E.BURGER_COOK: 1, E.NEW_BUSINESS_DEVELOPER: 1, E.LOCAL_MANAGER: 1}
    game = phase3_game(CROSS, HOME, work=work)
    seen = []
    while game.current_player == 0:
        seen.append(game.pending.decision)
        game.apply(Action.pass_())
    assert seen == [Decision.MARKETEER, Decision.PRODUCE, Decision.NEW_BUSINESS, Decision.RESTAURANT_MANAGER]
    game = phase3_game(CROSS, HOME, work={E.BURGER_COOK: 1, E.LOCAL_MANAGER: 1})
    game.apply(Action.produce(E.BURGER_COOK, Good.BURGER))
    assert game.pending.decision == Decision.RESTAURANT_MANAGER


def test_a_player_with_nothing_to_do_after_training_goes_straight_to_the_next_player():
    # rules: Phase 3 — no marketeer, kitchen card, buyer, developer or manager: no decision is asked
    game = phase3_game(CROSS, HOME, work={E.WAITRESS: 1, E.TRAINER: 1}, beach={E.KITCHEN_TRAINEE: 1})
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT


def test_when_the_last_player_is_done_nothing_is_pending_and_the_phase_is_still_working():
    # the flow module takes over from an empty pending list in phase 3
    game = phase3_game(CROSS, HOME)
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT
    apply_raw(game, Action.pass_())
    assert game.state.pending == [] and game.state.phase == Phase.WORKING and game.state.queue == []


def test_each_sub_step_module_names_its_own_place_in_the_turn():
    # the sub-step modules hand the turn on by their position in working.LATER_STEPS
    from fcm_env.engine.phases import working
    from fcm_env.engine.phases.working import expansion, marketing_launch, production

    assert working.LATER_STEPS[marketing_launch.STEP] == marketing_launch.begin
    assert working.LATER_STEPS[production.STEP] == production.begin
    assert working.LATER_STEPS[expansion.HOUSES_STEP] == expansion.begin_houses
    assert working.LATER_STEPS[expansion.RESTAURANTS_STEP] == expansion.begin_restaurants
