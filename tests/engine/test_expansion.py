"""Phase 3 Working 9-5: new houses and gardens, restaurants, and the order of the sub-steps.

rules: Place new houses and gardens; Place or move restaurants; Placing the first restaurants;
C6, C8, C11, R12-R14, R31; D8, D25, D26.

Every scenario but two (the hand-over to the flow module, and the sub-step table: internals) runs on both
engines (the ``engine`` fixture): player 0's Working 9-5 turn is built as a Python ``GameState``, loaded on
the engine under test, which is answered player 0's recruiting and training (pass) and asks the next
decision itself (``on_engine_marketing.phase3``); the turn is played through the face and the outcome read
back whole (``full``). The map is the crossroads map of ``test_marketing_launch.py`` (tile range from tile 0 =
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
from on_engine import full, load, play
from on_engine_marketing import options, phase3, restaurant_tiles

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good
from fcm_env.engine.actions import Action, Decision, IllegalActionError
from fcm_env.engine.board import Board
from fcm_env.engine.board.placement import restaurant_entrance
from fcm_env.engine.game import Game
from fcm_env.engine.state import House, Phase, Restaurant

CROSS = "A0 B0 P0 / O0 R0 S0 / G0 T0 N0"
BOARD = Board.from_tiles(CROSS)
HOME = {0: [(0, 0, 2)], 1: [(3, 10, 1)]}
HOUSE_TOKENS = (1, 3, 6, 9, 11, 14, 17, 19)
GARDEN_FOR_12 = (9, 0, 0)  # (9,0)-(9,1), north of house 12


# ---------------------------------------------------------------- houses and gardens


def test_new_business_developer_chooses_any_house_number_and_places_it_with_its_garden(engine):
    # rules: Place new houses and gardens — any empty area next to a road, no range limit, free
    # choice of the house; a placed house comes with a garden (its own token: no garden token used)
    game = phase3(engine, CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 1})
    assert game.pending.decision == Decision.NEW_BUSINESS
    # house 2: road N and E, a beer S; house 4: road S and W, a lemonade E; house 12: only north is free
    assert game.legal_actions() == (
        [Action.pass_()] + [Action.choose_house(n) for n in HOUSE_TOKENS] + [Action.place_garden(*GARDEN_FOR_12)]
    )
    game.apply(Action.choose_house(14))
    assert game.pending.decision == Decision.HOUSE_PLACE and game.pending.context == (14,)
    # (5,8)-(6,10): the empty 2x3 rectangle of tiles R and S, next to the road (5,7)
    assert (5, 8, 1) in options(game) and (5, 8, 3) in options(game)
    assert (13, 13, 1) not in options(game)  # (13,13)-(14,15) would leave the map
    game.apply(Action.place_house(5, 8, 1))  # garden on the east side
    state = full(game)
    assert state.houses[14] == House(14, ((5, 8), (5, 9), (6, 8), (6, 9)), ((5, 10), (6, 10)), placed=True)
    assert state.house_supply == [1, 3, 6, 9, 11, 17, 19]
    assert state.gardens_left == 8
    assert game.current_player == 1


def test_a_garden_goes_only_beside_a_printed_house_without_one(engine):
    # rules: Place new houses and gardens — a garden joins a printed house into a 2x3 rectangle on
    # empty squares; each house gets one garden; placed houses come with theirs
    game = phase3(engine, CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 3})
    game.apply(Action.place_garden(*GARDEN_FOR_12))
    state = full(game)
    assert state.houses[12].garden == ((9, 0), (9, 1)) and state.gardens_left == 7
    assert not state.houses[12].placed
    # house 12 has its garden now: no garden is offered any more, houses still are
    assert game.legal_actions() == [Action.pass_()] + [Action.choose_house(n) for n in HOUSE_TOKENS]
    game.apply(Action.choose_house(1))
    game.apply(Action.place_house(5, 8, 3))  # garden west: (5,8)-(6,8), house (5,9)-(6,10)
    state = full(game)
    assert state.houses[1] == House(1, ((5, 9), (5, 10), (6, 9), (6, 10)), ((5, 8), (6, 8)), placed=True)
    assert state.gardens_left == 7  # the placed house brought its own garden
    assert [a for a in game.legal_actions() if a.kind == Action.place_garden(0, 0, 0).kind] == []
    assert state.turn.used[E.NEW_BUSINESS_DEVELOPER] == 2
    assert game.pending.decision == Decision.NEW_BUSINESS and game.current_player == 0  # the third developer


def test_no_garden_without_garden_tokens_and_no_house_without_house_tokens(engine):
    # C1: houses and gardens are limited to the box; a developer with nothing to place is skipped
    def no_tokens(state):
        state.gardens_left = 0
        state.house_supply = []

    game = phase3(engine, CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 1}, prepare=no_tokens)
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT

    def one_house(state):
        state.gardens_left = 0
        state.house_supply = [3]

    game = phase3(engine, CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 1}, prepare=one_house)
    assert game.legal_actions() == [Action.pass_(), Action.choose_house(3)]
    # the last house token still comes with its garden: (8,3, garden north) puts the garden on (8,3)-(8,4)
    # beside the road (7,3)-(7,4), the house on (9,3)-(10,4); no token is left
    play(game, [Action.choose_house(3), Action.place_house(8, 3, 0)])
    state = full(game)
    assert state.houses[3] == House(3, ((9, 3), (9, 4), (10, 3), (10, 4)), ((8, 3), (8, 4)), placed=True)
    assert state.house_supply == [] and state.gardens_left == 0
    assert game.current_player == 1


# ---------------------------------------------------------------- local manager


def test_local_manager_opens_a_coming_soon_restaurant_within_range_3_only(engine):
    # rules: Place or move restaurants — local manager: within range 3 by road of a restaurant;
    # "COMING SOON"; D8: at least one square on a tile within range 3
    game = phase3(engine, CROSS, HOME, work={E.LOCAL_MANAGER: 1})
    assert game.legal_actions() == [Action.pass_(), Action.select_restaurant(E.LOCAL_MANAGER, 1)]
    game.apply(Action.select_restaurant(E.LOCAL_MANAGER, 1))
    spots = options(game)
    assert not [s for s in spots if restaurant_tiles(BOARD, s) == {8}]  # tile 8 is at range 4
    assert (13, 8, 0) in spots  # on tile 7 (range 3), entrance (13,8) beside the road (13,7)
    assert (13, 9, 1) in spots  # half on tile 7, half on tile 8
    assert (13, 13, 0) not in spots  # all on tile 8
    game.apply(Action.place_restaurant(13, 8, 0))
    assert full(game).players[0].restaurants == [Restaurant(0, 0, 2), Restaurant(13, 8, 0, coming_soon=True)]
    assert game.current_player == 1


def test_a_second_local_manager_counts_range_from_the_coming_soon_restaurant(engine):
    # D25: every restaurant of the chain on the board counts for the local manager's range
    game = phase3(engine, CROSS, HOME, work={E.LOCAL_MANAGER: 2})
    game.apply(Action.select_restaurant(E.LOCAL_MANAGER, 1))
    game.apply(Action.place_restaurant(13, 8, 0))
    assert game.legal_actions() == [Action.pass_(), Action.select_restaurant(E.LOCAL_MANAGER, 2)]
    game.apply(Action.select_restaurant(E.LOCAL_MANAGER, 2))
    assert (13, 13, 0) in options(game)  # tile 8 is next to tile 7


def test_local_manager_range_counts_from_drive_in_corners(engine):
    # C11, R32: with a local manager at work every corner is an entrance. The restaurant
    # (0,4)-(1,5) has its printed entrance (1,4) on tile 0, but its corner (1,5) touches the
    # road (2,5) of tile 1, and tile 8 is 3 steps from tile 1 (4 from tile 0).
    game = phase3(engine, CROSS, {0: [(0, 4, 3)], 1: [(3, 10, 1)]}, work={E.LOCAL_MANAGER: 1})
    game.apply(Action.select_restaurant(E.LOCAL_MANAGER, 1))
    assert (13, 13, 0) in options(game)


# ---------------------------------------------------------------- regional manager


def test_regional_manager_places_anywhere_and_the_restaurant_is_open_at_once(engine):
    # rules: Place or move restaurants — regional manager: anywhere, entrance next to a road, open now
    game = phase3(engine, CROSS, HOME, work={E.REGIONAL_MANAGER: 1})
    assert game.legal_actions() == [
        Action.pass_(), Action.select_restaurant(E.REGIONAL_MANAGER, 0), Action.select_restaurant(E.REGIONAL_MANAGER, 1),
    ]
    game.apply(Action.select_restaurant(E.REGIONAL_MANAGER, 1))
    assert (13, 13, 0) in options(game)
    game.apply(Action.place_restaurant(13, 13, 0))
    assert full(game).players[0].restaurants[1] == Restaurant(13, 13, 0, coming_soon=False)


def test_regional_manager_rotates_a_restaurant_in_place(engine):
    # rules: Place or move restaurants — "pick up ... place it somewhere else and/or rotate it"; R14.
    # In place, the entrance may be NE (0,1) beside the road (0,2) or SW (1,0) beside (2,0); NW (0,0)
    # touches no road, and SE is where it stands (no move, D26).
    game = phase3(engine, CROSS, HOME, work={E.REGIONAL_MANAGER: 1})
    game.apply(Action.select_restaurant(E.REGIONAL_MANAGER, 0))
    in_place = [s for s in options(game) if s[:2] == (0, 0)]
    assert in_place == [(0, 0, 1), (0, 0, 3)]
    game.apply(Action.place_restaurant(0, 0, 3))
    assert full(game).players[0].restaurants == [Restaurant(0, 0, 3)]
    assert game.current_player == 1  # the regional manager has acted


def test_regional_manager_moves_a_coming_soon_restaurant_and_it_opens(engine):
    # rules: Place or move restaurants — restaurants moved by a regional manager are active immediately
    home = {0: [(0, 0, 2), (13, 8, 0, True)], 1: [(3, 10, 1)]}
    game = phase3(engine, CROSS, home, work={E.REGIONAL_MANAGER: 1})
    game.apply(Action.select_restaurant(E.REGIONAL_MANAGER, 1))
    spots = options(game)
    assert (13, 8, 0) not in spots and (13, 8, 3) in spots  # rotate: entrance SW (14,8) beside (14,7)
    game.apply(Action.place_restaurant(13, 13, 0))
    assert full(game).players[0].restaurants == [Restaurant(0, 0, 2), Restaurant(13, 13, 0)]


def test_at_most_three_restaurants_per_chain(engine):
    # rules: components (3 restaurants per player); a local manager with nothing to place is skipped
    three = {0: [(0, 0, 2), (13, 8, 0), (8, 13, 0)], 1: [(3, 10, 1)]}
    game = phase3(engine, CROSS, three, work={E.LOCAL_MANAGER: 1})
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT
    game = phase3(engine, CROSS, three, work={E.REGIONAL_MANAGER: 1, E.LOCAL_MANAGER: 1})
    assert game.legal_actions() == [Action.pass_()] + [Action.select_restaurant(E.REGIONAL_MANAGER, i) for i in range(3)]


def test_managers_each_act_once_and_illegal_placements_change_nothing(engine):
    # rules: Working 9-5 — one action per card at work
    game = phase3(engine, CROSS, HOME, work={E.REGIONAL_MANAGER: 1, E.LOCAL_MANAGER: 1})
    game.apply(Action.select_restaurant(E.LOCAL_MANAGER, 1))
    before, document = full_fingerprint(full(game)), game.to_dict()
    for bad in (Action.place_restaurant(13, 13, 0), Action.place_restaurant(0, 0, 2),
                Action.place_restaurant(3, 10, 1), Action.pass_()):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
    assert full_fingerprint(full(game)) == before and game.to_dict() == document
    game.apply(Action.place_restaurant(13, 8, 0))
    assert game.legal_actions() == [
        Action.pass_(), Action.select_restaurant(E.REGIONAL_MANAGER, 0),
        Action.select_restaurant(E.REGIONAL_MANAGER, 1), Action.select_restaurant(E.REGIONAL_MANAGER, 2),
    ]
    game.apply(Action.pass_())
    assert game.current_player == 1


# ---------------------------------------------------------------- the first restaurants


def test_initial_restaurants_one_entrance_a_tile_and_the_second_round(engine):
    # rules: Placing the first restaurants — in reverse turn order, a player may pass and place in a second
    # round (in turn order), where passing is no longer possible; C8: no two entrances on one tile;
    # Setting goals: each player keeps one of the three reserve cards ($100, $200, $300), in turn order
    start = Game.new(2, 5, board=Board.from_tiles(CROSS)).state
    order = start.turn_order
    first, second = order[1], order[0]  # reverse turn order
    game = load(engine, start)
    assert game.pending.decision == Decision.INITIAL_RESTAURANT and game.pending.player == first
    play(game, [Action.pass_()])  # the first placer passes
    assert game.pending.player == second
    play(game, [Action.place_restaurant(0, 0, 2)])  # the second takes tile 0 (entrance (1,1))
    # round two: the passer must place (no pass offered), and C8: not with its entrance on tile 0
    assert game.pending.player == first and game.pending.context == (2,)
    legal = game.legal_actions()
    assert legal and Action.pass_() not in legal
    tiles = [BOARD.tile_at(*restaurant_entrance(*a.args)) for a in legal]
    assert 0 not in tiles and 1 in tiles
    play(game, [legal[-1]])
    state = full(game)
    assert game.pending.decision == Decision.RESERVE_CARD and game.pending.player == order[0]
    assert state.queue == state.turn_order == order
    assert state.players[second].restaurants == [Restaurant(0, 0, 2)]
    assert state.players[first].restaurants == [Restaurant(*legal[-1].args)]
    play(game, [Action.choose_reserve(2)])
    assert full(game).players[order[0]].reserve == 300
    assert game.pending.decision == Decision.RESERVE_CARD and game.pending.player == order[1]
    play(game, [Action.choose_reserve(0)])
    state = full(game)
    assert [state.players[p].reserve for p in order] == [300, 100]
    assert state.round == 1 and not state.phase.name.startswith("SETUP")


# ---------------------------------------------------------------- the order of the sub-steps


def test_sub_steps_come_in_rulebook_order_one_player_at_a_time(engine):
    # rules: Phase 3 — marketing, food & drinks, houses and gardens, restaurants; R12
    work = {E.CAMPAIGN_MANAGER: 1, E.BURGER_COOK: 1, E.NEW_BUSINESS_DEVELOPER: 1, E.LOCAL_MANAGER: 1}
    game = phase3(engine, CROSS, HOME, work=work)
    seen = []
    while game.current_player == 0:
        seen.append(game.pending.decision)
        game.apply(Action.pass_())
    assert seen == [Decision.MARKETEER, Decision.PRODUCE, Decision.NEW_BUSINESS, Decision.RESTAURANT_MANAGER]
    assert game.pending.decision == Decision.RECRUIT
    game = phase3(engine, CROSS, HOME, work={E.BURGER_COOK: 1, E.LOCAL_MANAGER: 1})
    game.apply(Action.produce(E.BURGER_COOK, Good.BURGER))
    assert game.pending.decision == Decision.RESTAURANT_MANAGER


def test_a_player_with_nothing_to_do_after_training_goes_straight_to_the_next_player(engine):
    # rules: Phase 3 — no marketeer, kitchen card, buyer, developer or manager: no decision is asked
    game = phase3(engine, CROSS, HOME, work={E.WAITRESS: 1, E.TRAINER: 1}, beach={E.KITCHEN_TRAINEE: 1})
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT


def test_when_the_last_player_is_done_nothing_is_pending_and_the_phase_is_still_working():
    # python-only: the state the phase-3 module hands to the flow module before the engine's own steps
    # (apply_raw skips flow.advance); no face shows it: a game's apply runs those steps at once
    # the flow module takes over from an empty pending list in phase 3
    game = phase3_game(CROSS, HOME)
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT
    apply_raw(game, Action.pass_())
    assert game.state.pending == [] and game.state.phase == Phase.WORKING and game.state.queue == []


def test_each_sub_step_module_names_its_own_place_in_the_turn():
    # python-only: the Python engine's table of sub-step modules (working.LATER_STEPS), an internal structure
    # the sub-step modules hand the turn on by their position in working.LATER_STEPS
    from fcm_env.engine.phases import working
    from fcm_env.engine.phases.working import expansion, marketing_launch, production

    assert working.LATER_STEPS[marketing_launch.STEP] == marketing_launch.begin
    assert working.LATER_STEPS[production.STEP] == production.begin
    assert working.LATER_STEPS[expansion.HOUSES_STEP] == expansion.begin_houses
    assert working.LATER_STEPS[expansion.RESTAURANTS_STEP] == expansion.begin_restaurants
