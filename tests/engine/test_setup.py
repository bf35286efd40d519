"""Setup: bank, supply, turn order, first restaurants (C8), reserve cards."""

from __future__ import annotations

import pytest
from builders import play_setup

from fcm_env.data import EmployeeType as E
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError
from fcm_env.engine.board.placement import restaurant_entrance
from fcm_env.engine.game import Game
from fcm_env.engine.state import Phase


@pytest.mark.parametrize("n, bank, intro_bank", [(2, 100, 150), (3, 150, 225), (4, 200, 300), (5, 250, 375)])
def test_bank_is_50_per_player_or_75_in_the_introductory_game(n, bank, intro_bank):
    # rules: Filling the bank; C7
    assert Game.new(n, seed=1).state.bank == bank
    assert Game.new(n, seed=1, variant="introductory").state.bank == intro_bank


@pytest.mark.parametrize("n, one_x", [(2, 1), (3, 1), (4, 2), (5, 3)])
def test_supply_uses_every_card_but_reduces_1x_cards(n, one_x):
    # rules: Cards setup; C2, R05
    supply = Game.new(n, seed=0).state.supply
    for etype in (E.EXECUTIVE_VICE_PRESIDENT, E.CFO, E.GURU, E.BRAND_DIRECTOR, E.ZEPPELIN_PILOT):
        assert supply[etype] == one_x
    assert supply[E.MANAGEMENT_TRAINEE] == 18
    assert supply[E.WAITRESS] == 12
    assert supply[E.CEO] == 0
    assert int(supply.sum()) == 222 - 10 * (3 - one_x)


def test_billboards_removed_by_player_count():
    # rules: Cards setup table (2p: #12 #15 #16 removed; 4p: #16)
    assert Game.new(2, 0).state.marketing_supply == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14]
    assert Game.new(4, 0).state.marketing_supply == list(range(1, 16))
    assert Game.new(5, 0).state.marketing_supply == list(range(1, 17))


def test_players_start_with_ceo_no_cash_and_three_reserve_cards():
    # rules: Player markers; C7
    state = Game.new(3, seed=2).state
    for p in state.players:
        assert p.cash == 0
        assert p.work[E.CEO] == 1 and int(p.work.sum()) == 1
        assert p.reserve_offer == (100, 200, 300)
        assert p.restaurants == []


def test_same_seed_same_map_and_turn_order_different_seed_differs():
    # Determinism: the only randomness is setup, drawn from the seed.
    a, b, c = Game.new(4, seed=7), Game.new(4, seed=7), Game.new(4, seed=8)
    assert a.board.layout == b.board.layout and a.state.turn_order == b.state.turn_order
    assert (a.board.layout, a.state.turn_order) != (c.board.layout, c.state.turn_order)


def test_first_restaurants_are_placed_in_reverse_turn_order_and_passers_go_again_in_turn_order():
    # rules: Placing the first restaurants
    game = Game.new(3, seed=3)
    order = game.state.turn_order
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


def test_initial_restaurant_entrances_may_not_share_a_tile():
    # rules: Placing the first restaurants; C8
    game = Game.new(2, seed=5)
    first = next(a for a in game.legal_actions() if a.kind == ActionKind.PLACE_RESTAURANT)
    tile = game.board.tile_at(*restaurant_entrance(*first.args))
    game.apply(first)
    for action in game.legal_actions():
        if action.kind == ActionKind.PLACE_RESTAURANT:
            assert game.board.tile_at(*restaurant_entrance(*action.args)) != tile
    # but the same placement with the entrance elsewhere on another tile was possible before
    assert any(a.kind == ActionKind.PLACE_RESTAURANT for a in game.legal_actions())


def test_initial_restaurant_must_not_overlap_another():
    # rules: Placing the first restaurants — fully on empty squares
    game = Game.new(2, seed=5)
    first = next(a for a in game.legal_actions() if a.kind == ActionKind.PLACE_RESTAURANT)
    game.apply(first)
    row, col, _ = first.args
    for action in game.legal_actions():
        if action.kind == ActionKind.PLACE_RESTAURANT:
            r, c, _ = action.args
            assert abs(r - row) >= 2 or abs(c - col) >= 2


def test_each_player_keeps_one_reserve_card():
    # rules: Setting goals
    game = Game.new(2, seed=4)
    while game.phase == Phase.SETUP_RESTAURANTS:
        game.apply(next(a for a in game.legal_actions() if a.kind == ActionKind.PLACE_RESTAURANT))
    order = game.state.turn_order
    assert game.pending.decision == Decision.RESERVE_CARD
    assert game.current_player == order[0]
    assert game.legal_actions() == [Action.choose_reserve(i) for i in range(3)]
    game.apply(Action.choose_reserve(2))
    game.apply(Action.choose_reserve(0))
    assert game.state.players[order[0]].reserve == 300
    assert game.state.players[order[1]].reserve == 100


def test_introductory_game_has_no_reserve_cards():
    # rules: Introductory game — do not use the reserve cards
    game = Game.new(2, seed=4, variant="introductory")
    play_setup(game)
    assert all(p.reserve is None and p.reserve_offer == () for p in game.state.players)
    assert game.phase == Phase.ORDER_OF_BUSINESS


def test_illegal_action_raises_and_leaves_state_unchanged():
    game = Game.new(2, seed=4)
    before = game.state.clone()
    with pytest.raises(IllegalActionError, match="INITIAL_RESTAURANT"):
        game.apply(Action.choose_reserve(0))
    with pytest.raises(IllegalActionError):
        game.apply(Action.place_restaurant(0, 0, 0) if Action.place_restaurant(0, 0, 0) not in game.legal_actions()
                   else Action.place_restaurant(99, 99, 0))
    after = game.state
    assert after.players[0].restaurants == before.players[0].restaurants
    assert after.pending == before.pending and after.queue == before.queue


@pytest.mark.parametrize("bad", [1, 6, "4", None])
def test_wrong_player_count_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="num_players"):
        Game.new(bad, seed=0)


def test_unknown_variant_is_a_clear_error():
    with pytest.raises(ValueError, match="variant"):
        Game.new(2, seed=0, variant="deluxe")
