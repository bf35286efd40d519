"""The native core's houses, gardens and restaurants (and a few campaigns) on hand-built positions that random
games rarely reach: a new business developer placing houses and gardens, local and regional managers opening,
moving and rotating restaurants, the first restaurants of the setup, a brand director's radio and airplanes.
At every decision point the harness compares the native legal actions and applies with the Python engine's
(``check_decision``); a few outcomes are also checked by hand.

rules: Place new houses and gardens; Place or move restaurants; Placing the first restaurants; Initiate
marketing campaigns; C6, C8, C11, C13, C15, R13, R14, R51; D8, D25, D26. The map is the crossroads map of
tests/engine/test_expansion.py (its docstring draws it, with the tile ranges from tile 0).
"""

from __future__ import annotations

import sys
from pathlib import Path

from lockstep import as_tuples, check_decision, native_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from builders import phase3_game

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.board import Board
from fcm_env.engine.game import Game

CROSS = "A0 B0 P0 / O0 R0 S0 / G0 T0 N0"
HOME = {0: [(0, 0, 2)], 1: [(3, 10, 1)]}
HOUSE_TOKENS = (1, 3, 6, 9, 11, 14, 17, 19)
GARDEN_FOR_12 = (9, 0, 0)  # (9,0)-(9,1), north of house 12
OURS = {Decision.NEW_BUSINESS, Decision.HOUSE_PLACE, Decision.RESTAURANT_MANAGER, Decision.RESTAURANT_PLACE,
        Decision.MARKETEER, Decision.CAMPAIGN_TILE, Decision.CAMPAIGN_PLACE, Decision.CAMPAIGN_PRODUCT,
        Decision.CAMPAIGN_DURATION, Decision.INITIAL_RESTAURANT, Decision.RESERVE_CARD}


def play(game: Game, script: list[Action]) -> None:
    """Apply ``script`` in the Python game, comparing the native core at every decision point on the way
    (every legal action is applied there when there are few)."""
    for action in script:
        assert game.pending.decision in OURS, game.pending
        check_decision(game, actions_per_position=40)
        game.apply(action)
    if game.pending is not None and game.pending.decision in OURS:
        check_decision(game, actions_per_position=40)


def native_after(game: Game, *actions: Action):
    """The native game at ``game``'s position after ``actions`` (each the decision's apply and the turn's
    chaining, no engine step)."""
    ours = native_of(game)
    for action in actions:
        ours.apply_no_advance(int(action.kind), list(action.args))
    return ours


def restaurant(row: int, col: int, orientation: int, coming_soon: bool = False) -> dict:
    return {"row": row, "col": col, "orientation": orientation, "coming_soon": coming_soon}


def spots(ours) -> list[tuple[int, ...]]:
    return [args for _, args in ours.legal_actions()]


# ---------------------------------------------------------------- houses and gardens


def test_a_developer_places_a_garden_then_houses_as_python_does():
    game = phase3_game(CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 3})
    # house 2: road N and E, a beer S; house 4: road S and W, a lemonade E; house 12: only north is free
    assert native_of(game).legal_actions() == as_tuples(
        [Action.pass_()] + [Action.choose_house(n) for n in HOUSE_TOKENS] + [Action.place_garden(*GARDEN_FOR_12)])
    play(game, [Action.place_garden(*GARDEN_FOR_12), Action.choose_house(14), Action.place_house(5, 8, 1),
                Action.choose_house(1), Action.place_house(13, 3, 3)])
    assert game.current_player == 1  # three developers, three actions


def test_native_house_and_garden_land_where_the_rules_put_them():
    game = phase3_game(CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 2})
    doc = native_after(game, Action.place_garden(*GARDEN_FOR_12)).to_dict()
    assert doc["houses"]["12"]["garden"] == [[9, 0], [9, 1]] and not doc["houses"]["12"]["placed"]
    assert doc["gardens_left"] == game.state.gardens_left - 1
    ours = native_after(game, Action.place_garden(*GARDEN_FOR_12), Action.choose_house(14))
    assert ours.to_dict()["pending"] == [["HOUSE_PLACE", 0, [14]]]
    # (5,8)-(6,10): the empty 2x3 rectangle of tiles R and S beside the road (5,7); (13,13) would leave the map
    assert (5, 8, 1) in spots(ours) and (5, 8, 3) in spots(ours) and (13, 13, 1) not in spots(ours)
    ours.apply_no_advance(int(ActionKind.PLACE_HOUSE), [5, 8, 1])  # the garden east of the house
    doc = ours.to_dict()
    assert doc["houses"]["14"]["squares"] == [[5, 8], [5, 9], [6, 8], [6, 9]]
    assert doc["houses"]["14"]["garden"] == [[5, 10], [6, 10]] and doc["houses"]["14"]["placed"]
    assert list(doc["houses"])[-1] == "14"  # a placed house comes last, as in the Python dict
    assert 14 not in doc["house_supply"] and doc["gardens_left"] == game.state.gardens_left - 1
    assert doc["pending"] == [["RECRUIT", 1, []]]  # both developers have acted: player 1's turn (continue_turn)


def test_house_tokens_without_room_and_gardens_without_tokens_are_not_offered():
    def one_house_no_gardens(state):
        state.gardens_left = 0
        state.house_supply = [3]

    game = phase3_game(CROSS, HOME, work={E.NEW_BUSINESS_DEVELOPER: 1}, prepare=one_house_no_gardens)
    assert native_of(game).legal_actions() == as_tuples([Action.pass_(), Action.choose_house(3)])
    play(game, [Action.choose_house(3), Action.place_house(8, 3, 0)])


# ---------------------------------------------------------------- local manager


def test_local_managers_open_coming_soon_restaurants_within_range_3():
    game = phase3_game(CROSS, HOME, work={E.LOCAL_MANAGER: 2})
    ours = native_after(game, Action.select_restaurant(E.LOCAL_MANAGER, 1))
    # D8: a square on a tile within range 3; tile 8 is at range 4, tile 7 at range 3
    assert (13, 8, 0) in spots(ours) and (13, 9, 1) in spots(ours) and (13, 13, 0) not in spots(ours)
    ours.apply_no_advance(int(ActionKind.PLACE_RESTAURANT), [13, 8, 0])
    assert ours.to_dict()["players"][0]["restaurants"][1] == restaurant(13, 8, 0, True)  # "COMING SOON"
    # D25: the coming-soon restaurant counts for the second manager's range: tile 8 is next to tile 7
    ours.apply_no_advance(int(ActionKind.SELECT_RESTAURANT), [int(E.LOCAL_MANAGER), 2])
    assert (13, 13, 0) in spots(ours)
    play(game, [Action.select_restaurant(E.LOCAL_MANAGER, 1), Action.place_restaurant(13, 8, 0),
                Action.select_restaurant(E.LOCAL_MANAGER, 2), Action.place_restaurant(13, 13, 0)])


def test_local_manager_range_counts_from_drive_in_corners():
    # C11, R32: the corner (1,5) of the restaurant (0,4)-(1,5) touches the road of tile 1, 3 steps from tile 8
    game = phase3_game(CROSS, {0: [(0, 4, 3)], 1: [(3, 10, 1)]}, work={E.LOCAL_MANAGER: 1})
    assert (13, 13, 0) in spots(native_after(game, Action.select_restaurant(E.LOCAL_MANAGER, 1)))
    play(game, [Action.select_restaurant(E.LOCAL_MANAGER, 1), Action.place_restaurant(13, 13, 0)])


# ---------------------------------------------------------------- regional manager


def test_regional_manager_rotates_in_place_but_never_puts_it_back_as_it_was():
    game = phase3_game(CROSS, HOME, work={E.REGIONAL_MANAGER: 1})
    ours = native_after(game, Action.select_restaurant(E.REGIONAL_MANAGER, 0))
    # R14, D26: NE (0,1) beside the road (0,2), SW (1,0) beside (2,0); NW touches no road; SE is where it stands
    assert [s for s in spots(ours) if s[:2] == (0, 0)] == [(0, 0, 1), (0, 0, 3)]
    ours.apply_no_advance(int(ActionKind.PLACE_RESTAURANT), [0, 0, 3])
    assert ours.to_dict()["players"][0]["restaurants"] == [restaurant(0, 0, 3)]
    play(game, [Action.select_restaurant(E.REGIONAL_MANAGER, 0), Action.place_restaurant(0, 0, 3)])


def test_regional_manager_moves_a_coming_soon_restaurant_and_it_opens():
    home = {0: [(0, 0, 2), (13, 8, 0, True)], 1: [(3, 10, 1)]}
    game = phase3_game(CROSS, home, work={E.REGIONAL_MANAGER: 1})
    ours = native_after(game, Action.select_restaurant(E.REGIONAL_MANAGER, 1))
    assert (13, 8, 0) not in spots(ours) and (13, 8, 3) in spots(ours)
    ours.apply_no_advance(int(ActionKind.PLACE_RESTAURANT), [13, 13, 0])
    assert ours.to_dict()["players"][0]["restaurants"] == [restaurant(0, 0, 2), restaurant(13, 13, 0)]
    play(game, [Action.select_restaurant(E.REGIONAL_MANAGER, 1), Action.place_restaurant(13, 13, 0)])


def test_both_managers_with_three_restaurants_and_with_room_for_more():
    three = {0: [(0, 0, 2), (13, 8, 0), (8, 13, 0)], 1: [(3, 10, 1)]}
    game = phase3_game(CROSS, three, work={E.REGIONAL_MANAGER: 1, E.LOCAL_MANAGER: 1})
    # rules: 3 restaurants a chain: the local manager has nothing to do, the regional one may move each
    assert native_of(game).legal_actions() == as_tuples(
        [Action.pass_()] + [Action.select_restaurant(E.REGIONAL_MANAGER, i) for i in range(3)])
    play(game, [Action.select_restaurant(E.REGIONAL_MANAGER, 2), Action.place_restaurant(8, 13, 3)])
    game = phase3_game(CROSS, HOME, work={E.REGIONAL_MANAGER: 1, E.LOCAL_MANAGER: 1})
    play(game, [Action.select_restaurant(E.LOCAL_MANAGER, 1), Action.place_restaurant(13, 8, 0),
                Action.select_restaurant(E.REGIONAL_MANAGER, 2), Action.place_restaurant(13, 13, 0)])


# ---------------------------------------------------------------- the first restaurants


def entrance_tile(board: Board, spot: tuple[int, ...]) -> int:
    row, col, orientation = spot
    return board.tile_at(row + (orientation in (2, 3)), col + (orientation in (1, 2)))


def test_initial_restaurants_one_entrance_a_tile_and_the_second_round():
    game = Game.new(2, 5, board=Board.from_tiles(CROSS))
    first, second = game.state.queue
    board = game.state.board
    # the first placer passes; the second takes tile 0
    play(game, [Action.pass_()])
    play(game, [Action.place_restaurant(0, 0, 2)])
    # round two: the passer must place (no pass offered), and C8: not with its entrance on tile 0
    assert game.pending.player == first and game.pending.context == (2,)
    legal = native_of(game).legal_actions()
    assert legal and ActionKind.PASS not in [kind for kind, _ in legal]
    assert all(entrance_tile(board, spot) != 0 for _, spot in legal)
    assert any(entrance_tile(board, spot) == 1 for _, spot in legal)
    play(game, [Action.place_restaurant(*legal[-1][1])])
    assert game.pending.decision == Decision.RESERVE_CARD and game.state.queue == game.state.turn_order
    assert [(r.row, r.col, r.orientation) for r in game.state.players[second].restaurants] == [(0, 0, 2)]
    # the reserve cards: each player keeps one, in turn order
    doc = native_after(game, Action.choose_reserve(2)).to_dict()
    assert doc["players"][game.state.turn_order[0]]["reserve"] == 300
    assert doc["pending"] == [["RESERVE_CARD", game.state.turn_order[1], []]]
    play(game, [Action.choose_reserve(2), Action.choose_reserve(0)])


# ---------------------------------------------------------------- campaigns the sample games rarely launch


def test_brand_director_radio_and_brand_manager_airplanes():
    game = phase3_game(CROSS, HOME, work={E.BRAND_DIRECTOR: 1, E.BRAND_MANAGER: 1}, marketing=[1, 4, 6])
    ours = native_after(game, Action.select_marketeer(E.BRAND_DIRECTOR), Action.choose_tile(1))
    # C13, R17: a radio needs a road next to it, no range: (13,13) lies below the road of tile 8
    assert (13, 13, 0) in spots(ours) and (14, 13, 0) not in spots(ours)
    ours = native_after(game, Action.select_marketeer(E.BRAND_MANAGER), Action.choose_tile(6))
    # C15: a 5-wide airplane starts at 0..10 on every edge of the 15 x 15 map, as its edge anchor
    assert spots(ours) == sorted([(0, s, 0) for s in range(11)] + [(s, 14, 1) for s in range(11)]
                                 + [(14, s, 2) for s in range(11)] + [(s, 0, 3) for s in range(11)])
    play(game, [Action.select_marketeer(E.BRAND_DIRECTOR), Action.choose_tile(1), Action.place_campaign(13, 13, 0),
                Action.choose_product(Good.SODA), Action.choose_duration(5),
                Action.select_marketeer(E.BRAND_MANAGER), Action.choose_tile(6), Action.place_campaign(14, 3, 2),
                Action.choose_product(Good.BURGER), Action.choose_duration(2)])


def test_the_first_billboard_is_eternal_and_its_marketeer_leaves_for_good():
    game = phase3_game(CROSS, HOME, work={E.MARKETING_TRAINEE: 1, E.CAMPAIGN_MANAGER: 1})
    script = [Action.select_marketeer(E.MARKETING_TRAINEE), Action.choose_tile(14), Action.place_campaign(1, 13, 0),
              Action.choose_product(Good.BEER)]
    doc = native_after(game, *script).to_dict()
    board_campaign = doc["campaigns"][-1]
    assert board_campaign["eternal"] and board_campaign["remaining"] == 1  # rules: First billboard placed; R51
    assert board_campaign["squares"] == [[1, 13], [1, 14]]
    trainee = int(E.MARKETING_TRAINEE)
    assert doc["players"][0]["work"][trainee] == 0 and doc["players"][0]["busy"][trainee] == 0
    assert {"FIRST_BILLBOARD", "FIRST_DRINK_MARKETED"} <= set(doc["players"][0]["milestones"])
    play(game, [*script, Action.select_marketeer(E.CAMPAIGN_MANAGER), Action.choose_tile(7)])
