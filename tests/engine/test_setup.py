"""Setup: bank, supply, turn order, first restaurants (C8), reserve cards.

Every scenario runs on both engines (the ``engine`` fixture): a new game is set up on the engine under test
(``fcm_env.engines.new_game``), played through the face, and read back whole (``full``: the native game's
position decoded)."""

from __future__ import annotations

import pytest
from builders import play_setup
from on_engine import full

from fcm_env.data import EmployeeType as E
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError
from fcm_env.engine.board.placement import restaurant_entrance
from fcm_env.engine.state import Phase
from fcm_env.engines import new_game


@pytest.mark.parametrize("n, bank, intro_bank", [(2, 100, 150), (3, 150, 225), (4, 200, 300), (5, 250, 375)])
def test_bank_is_50_per_player_or_75_in_the_introductory_game(engine, n, bank, intro_bank):
    # rules: Filling the bank; C7
    assert full(new_game(engine, n, seed=1)).bank == bank
    assert full(new_game(engine, n, seed=1, variant="introductory")).bank == intro_bank


@pytest.mark.parametrize("n, one_x", [(2, 1), (3, 1), (4, 2), (5, 3)])
def test_supply_uses_every_card_but_reduces_1x_cards(engine, n, one_x):
    # rules: Cards setup; C2, R05
    supply = full(new_game(engine, n, seed=0)).supply
    for etype in (E.EXECUTIVE_VICE_PRESIDENT, E.CFO, E.GURU, E.BRAND_DIRECTOR, E.ZEPPELIN_PILOT):
        assert supply[etype] == one_x
    assert supply[E.MANAGEMENT_TRAINEE] == 18
    assert supply[E.WAITRESS] == 12
    assert supply[E.CEO] == 0
    assert int(supply.sum()) == 222 - 10 * (3 - one_x)


def test_billboards_removed_by_player_count(engine):
    # rules: Cards setup table (2p: #12 #15 #16 removed; 4p: #16)
    assert full(new_game(engine, 2, 0)).marketing_supply == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14]
    assert full(new_game(engine, 4, 0)).marketing_supply == list(range(1, 16))
    assert full(new_game(engine, 5, 0)).marketing_supply == list(range(1, 17))


def test_players_start_with_ceo_no_cash_and_three_reserve_cards(engine):
    # rules: Player markers; C7
    state = full(new_game(engine, 3, seed=2))
    for p in state.players:
        assert p.cash == 0
        assert p.work[E.CEO] == 1 and int(p.work.sum()) == 1
        assert p.reserve_offer == (100, 200, 300)
        assert p.restaurants == []


def test_a_hand_checked_setup(engine):
    # rules: Setting up; C7 — 2 players, seed 3: a 3 x 3 map (the tiles and rotations drawn from the
    # seed, as Game.new draws them), a $100 bank, 13 marketing tiles (12, 15 and 16 are not in a
    # 2-player game); Placing the first restaurants — the last seat places first, in round one
    game = new_game(engine, 2, 3)
    doc = game.to_dict()
    assert doc["board"] == [["P2", "N0", "A0"], ["B1", "L1", "R3"], ["D2", "C1", "J1"]]
    assert doc["bank"] == 100 and doc["turn_order"] == [0, 1] and doc["phase"] == "SETUP_RESTAURANTS"
    assert doc["pending"] == [["INITIAL_RESTAURANT", 1, [1]]]
    assert game.pending.decision == Decision.INITIAL_RESTAURANT and game.current_player == 1
    assert doc["marketing_supply"] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14]
    assert all(p["work"][0] == 1 and p["reserve_offer"] == [100, 200, 300] for p in doc["players"])


def test_same_seed_same_map_and_turn_order_different_seed_differs(engine):
    # Determinism: the only randomness is setup, drawn from the seed.
    a, b, c = (new_game(engine, 4, seed=s) for s in (7, 7, 8))
    layout = [g.snapshot().board.layout for g in (a, b, c)]
    assert layout[0] == layout[1] and a.state.turn_order == b.state.turn_order
    assert (layout[0], a.state.turn_order) != (layout[2], c.state.turn_order)


def test_first_restaurants_are_placed_in_reverse_turn_order_and_passers_go_again_in_turn_order(engine):
    # rules: Placing the first restaurants
    game = new_game(engine, 3, seed=3)
    order = list(game.state.turn_order)
    assert game.pending.decision == Decision.INITIAL_RESTAURANT
    assert game.current_player == order[2]
    assert Action.pass_() in game.legal_actions()
    game.apply(Action.pass_())  # last seat passes
    assert game.current_player == order[1]
    game.apply(Action.pass_())  # middle seat passes
    assert game.current_player == order[0]
    first_place = next(a for a in game.legal_actions() if a.kind == ActionKind.PLACE_RESTAURANT)
    game.apply(first_place)
    # second round, in turn order, only for the passers, who must now place
    assert game.current_player == order[1]
    assert game.pending.context == (2,)
    assert Action.pass_() not in game.legal_actions()
    game.apply(game.legal_actions()[0])
    assert game.current_player == order[2]
    game.apply(game.legal_actions()[0])
    assert game.phase == Phase.SETUP_RESERVE
    assert [len(p.restaurants) for p in full(game).players] == [1, 1, 1]


def test_initial_restaurant_entrances_may_not_share_a_tile(engine):
    # rules: Placing the first restaurants; C8
    game = new_game(engine, 2, seed=5)
    board = game.snapshot().board
    first = next(a for a in game.legal_actions() if a.kind == ActionKind.PLACE_RESTAURANT)
    tile = board.tile_at(*restaurant_entrance(*first.args))
    game.apply(first)
    for action in game.legal_actions():
        if action.kind == ActionKind.PLACE_RESTAURANT:
            assert board.tile_at(*restaurant_entrance(*action.args)) != tile
    # but the same placement with the entrance elsewhere on another tile was possible before
    assert any(a.kind == ActionKind.PLACE_RESTAURANT for a in game.legal_actions())


def test_initial_restaurant_must_not_overlap_another(engine):
    # rules: Placing the first restaurants — fully on empty squares
    game = new_game(engine, 2, seed=5)
    first = next(a for a in game.legal_actions() if a.kind == ActionKind.PLACE_RESTAURANT)
    game.apply(first)
    row, col, _ = first.args
    for action in game.legal_actions():
        if action.kind == ActionKind.PLACE_RESTAURANT:
            r, c, _ = action.args
            assert abs(r - row) >= 2 or abs(c - col) >= 2


def test_each_player_keeps_one_reserve_card(engine):
    # rules: Setting goals
    game = new_game(engine, 2, seed=4)
    while game.phase == Phase.SETUP_RESTAURANTS:
        game.apply(next(a for a in game.legal_actions() if a.kind == ActionKind.PLACE_RESTAURANT))
    order = list(game.state.turn_order)
    assert game.pending.decision == Decision.RESERVE_CARD
    assert game.current_player == order[0]
    assert game.legal_actions() == [Action.choose_reserve(i) for i in range(3)]
    game.apply(Action.choose_reserve(2))
    game.apply(Action.choose_reserve(0))
    state = full(game)
    assert state.players[order[0]].reserve == 300
    assert state.players[order[1]].reserve == 100


def test_introductory_game_has_no_reserve_cards(engine):
    # rules: Introductory game — do not use the reserve cards
    game = new_game(engine, 2, seed=4, variant="introductory")
    play_setup(game)
    assert all(p.reserve is None and p.reserve_offer == () for p in full(game).players)
    assert game.phase == Phase.ORDER_OF_BUSINESS


def test_illegal_action_raises_and_leaves_state_unchanged(engine):
    game = new_game(engine, 2, seed=4)
    before = game.to_dict()
    with pytest.raises(IllegalActionError, match="INITIAL_RESTAURANT"):
        game.apply(Action.choose_reserve(0))
    assert Action.place_restaurant(99, 99, 0) not in game.legal_actions()
    with pytest.raises(IllegalActionError):
        game.apply(Action.place_restaurant(99, 99, 0))
    assert game.to_dict() == before
    assert full(game).players[0].restaurants == [] and game.pending.decision == Decision.INITIAL_RESTAURANT


@pytest.mark.parametrize("bad", [1, 6, "4", None])
def test_wrong_player_count_is_a_clear_error(engine, bad):
    with pytest.raises(ValueError, match="num_players"):
        new_game(engine, bad, seed=0)


def test_unknown_variant_is_a_clear_error(engine):
    with pytest.raises(ValueError, match="variant"):
        new_game(engine, 2, seed=0, variant="deluxe")
