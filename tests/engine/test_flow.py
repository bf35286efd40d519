"""Phases 4-7 wired together: the turn after Working 9-5, the end of the game, the winner.

Every scenario runs on both engines (the ``engine`` fixture): the position is built as a Python ``GameState``
at the end of Working 9-5 with nothing pending (``late_builders.position``), loaded on the engine under test,
which runs its own phases up to the next decision (``settle``); the answers are played through the face and
the outcome read back whole (``full``). The random games are set up and played on the engine under test."""

from __future__ import annotations

import random

import pytest
from builders import fingerprint
from late_builders import NEAR_2, TILE_1, add_campaign, add_restaurant, demand, give, money, position, stock
from on_engine import award, full, load, play, settle

from fcm_env.data import EmployeeType, Good, Milestone
from fcm_env.engine.actions import Action, Decision, IllegalActionError
from fcm_env.engine.invariants import check_state
from fcm_env.engine.rules import bank
from fcm_env.engine.state import Phase
from fcm_env.engines import GameLike, load_game, new_game

B, P = int(Good.BURGER), int(Good.PIZZA)


def test_a_whole_turn_after_working_ends_in_the_next_rounds_restructuring(engine):
    # rules: Phases 4-7 in order; then phase 1 of the next turn
    state = position(bank=1000)
    add_restaurant(state, 0, NEAR_2)
    add_restaurant(state, 1, TILE_1)
    stock(state, 0, burger=2, beer=1)
    demand(state, 2, Good.BURGER, Good.BURGER)
    give(state, 0, "beach", burger_cook=1)
    add_campaign(state, 14, 1, Good.PIZZA, row=5, col=0, remaining=1, marketeer=EmployeeType.MARKETING_TRAINEE)
    game = settle(engine, state)
    # Dinnertime done: $20, the milestone; Payday asks player 0 (a cook to pay or fire)
    now = full(game)
    assert now.players[0].cash == 20 and Milestone.FIRST_HAVE_20 in now.players[0].milestones
    assert game.pending.decision == Decision.FIRE and game.current_player == 0
    assert game.legal_actions() == [Action.pass_(), Action.fire(EmployeeType.BURGER_COOK)]
    play(game, [Action.pass_()])
    # salary paid, the billboard ran and expired, the beer was thrown away, round 3 begins
    state = full(game)
    assert state.players[0].cash == 15 and state.bank == 1000 - 20 + 5
    assert state.houses[2].demand == [P]
    assert state.players[1].hand[EmployeeType.MARKETING_TRAINEE] == 1 and 14 in state.marketing_supply
    assert state.players[0].stock.sum() == 0 and Milestone.FIRST_THROW_AWAY in state.players[0].milestones
    assert state.milestones_gone == {Milestone.FIRST_HAVE_20, Milestone.FIRST_THROW_AWAY}
    assert state.players[0].hand[EmployeeType.BURGER_COOK] == 1
    assert state.round == 3 and game.phase == Phase.RESTRUCTURING and game.current_player == 0
    assert not game.is_over and game.winners == ()


def test_second_bank_break_ends_the_game_after_dinnertime_without_payday(engine):
    # rules: Breaking the bank (2nd time); C23, R38 — finish phase 4 writing the debt down; no salaries
    state = position(bank=15)
    state.bank_breaks, state.reserve_revealed = 1, True
    add_restaurant(state, 0, NEAR_2)
    stock(state, 0, burger=2)
    demand(state, 2, Good.BURGER, Good.BURGER)
    give(state, 0, "beach", burger_cook=1)
    give(state, 1, "work", waitress=1)
    add_campaign(state, 14, 1, Good.PIZZA, row=5, col=0, remaining=2)
    game = settle(engine, state)
    state = full(game)
    assert game.is_over and not state.truncated and game.pending is None
    assert state.players[0].cash == 20 and state.players[1].cash == 3  # the tips are still paid
    assert state.bank == 0 and state.bank_debt == 8
    assert money(state) == 15
    assert state.players[0].beach[EmployeeType.BURGER_COOK] == 1  # no Payday
    assert state.houses[2].demand == []  # no Marketing phase
    assert game.winners == (0,)


def test_introductory_game_ends_when_the_bank_breaks_once(engine):
    # rules: Introductory game — the game ends when the bank breaks once: $20 owed, $15 in the bank
    state = position(variant="introductory", bank=15)
    add_restaurant(state, 1, NEAR_2)
    stock(state, 1, burger=2)
    demand(state, 2, Good.BURGER, Good.BURGER)
    game = settle(engine, state)
    state = full(game)
    assert game.is_over and state.bank_breaks == 1 and state.bank_debt == 5
    assert game.winners == (1,)


def test_first_break_does_not_end_the_standard_game(engine):
    # rules: Breaking the bank (1st time); C24 — the kept reserve cards are opened: $100 + $300 go in
    # ($15 + 400 - the $20 of house 2's burgers); slots 2 and 4 tie once each: the highest, 4 CEO slots
    state = position(bank=15, reserves=[100, 300])
    add_restaurant(state, 0, NEAR_2)
    stock(state, 0, burger=2)
    demand(state, 2, Good.BURGER, Good.BURGER)
    game = settle(engine, state)
    state = full(game)
    assert not game.is_over and state.bank_breaks == 1 and state.bank == 15 + 400 - 20
    assert state.ceo_slots == 4 and state.round == 3


def test_winner_has_most_cash_and_a_tie_goes_to_the_earlier_seat(engine):
    # rules: C23
    state = position(order=[1, 0])
    assert load(engine, state).winners == ()  # still running
    state.phase = Phase.GAME_OVER
    state.players[0].cash = state.players[1].cash = 50
    game = load(engine, state)
    assert game.is_over and game.winners == (1,)
    state.players[0].cash = 51
    assert load(engine, state).winners == (0,)


def test_a_bankrupt_player_cannot_win(engine):
    # C21, D45
    state = position()
    state.phase = Phase.GAME_OVER
    state.players[0].cash, state.players[0].bankrupt = 90, True
    state.players[1].cash = 10
    assert load(engine, state).winners == (1,)
    state.players[1].bankrupt = True  # everybody bankrupt: the same rule among all
    assert load(engine, state).winners == (0,)


def test_bankrupt_player_is_out_of_the_next_turn_order(engine):
    # C21 — phase 2 offers one spot per remaining player
    state = position(3, order=[0, 1, 2])
    state.players[1].bankrupt = True
    game = settle(engine, state)
    # nobody has a card to put to work, so Restructuring asks no one (D53)
    assert list(game.state.turn_order) == [0, 2] and game.phase == Phase.ORDER_OF_BUSINESS
    assert game.pending.decision == Decision.TURN_ORDER
    assert game.legal_actions() == [Action.turn_spot(0), Action.turn_spot(1)]
    play(game, [Action.turn_spot(1)])  # the other player takes spot 0 without being asked (D53)
    order = list(game.state.turn_order)
    assert sorted(order) == [0, 2] and len(order) == 2
    assert game.phase == Phase.WORKING and game.current_player == order[0]


def test_freezer_choice_is_asked_during_cleanup_and_checked(engine):
    # rules: First to throw away — more than 10 tokens: choose which to keep (D43)
    state = position()
    award(state, 1, Milestone.FIRST_THROW_AWAY)
    stock(state, 1, pizza=9, soda=3)
    game = settle(engine, state)
    assert game.phase == Phase.CLEANUP and game.pending.decision == Decision.FREEZER and game.current_player == 1
    assert game.legal_actions() == [Action.pass_(), Action.keep(Good.PIZZA), Action.keep(Good.SODA)]
    before = fingerprint(full(game))
    with pytest.raises(IllegalActionError):
        game.apply(Action.keep(Good.BURGER))
    assert fingerprint(full(game)) == before
    play(game, [Action.keep(Good.SODA), Action.keep(Good.PIZZA), Action.pass_()])
    state = full(game)
    assert state.players[1].stock.tolist() == [0, 1, 0, 0, 1]
    assert state.round == 3 and game.phase == Phase.ORDER_OF_BUSINESS  # empty hands: no Restructuring (D53)


def test_max_rounds_truncates_the_game(engine):
    # the round cap (max_rounds = 2): round 2's Clean-up ends the game, truncated, one winner
    state = position()
    state.max_rounds = 2
    game = settle(engine, state)
    assert game.is_over and game.state.truncated and len(game.winners) == 1
    assert full(game).round == 2 and game.pending is None


# ------------------------------------------------------------------ whole games


def _check(game: GameLike, start_money: int) -> None:
    state = full(game)
    check_state(state, start_money)  # money, cards, tiles, demand caps, pieces
    if game.pending is not None:
        legal = game.legal_actions()
        assert legal, f"no legal action for {game.pending}"
        if game.pending.decision in (Decision.FIRE, Decision.FREEZER):
            assert legal != [Action.pass_()], "a pass-only decision was asked"
    if state.phase in (Phase.PAYDAY,) and game.pending is not None:
        assert not state.firing_revealed


def _pick(rng: random.Random, legal: list[Action]) -> Action:
    """Random legal play that prefers doing something over passing (more hires, sales, campaigns)."""
    busy = [a for a in legal if a != Action.pass_()]
    return rng.choice(busy) if busy and rng.random() < 0.85 else rng.choice(legal)


@pytest.mark.parametrize("variant", ["standard", "introductory"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_random_games_run_to_the_end(engine, num_players, variant):
    rng = random.Random(97 * num_players + len(variant))
    for seed in range(3):
        game = new_game(engine, num_players, seed=seed, variant=variant, max_rounds=12)
        if seed == 1:  # a poor bank, so that tips break it within a few rounds
            document = game.to_dict()
            document["bank"] = 12
            game = load_game(engine, document)
        start = full(game).bank
        actions = 0
        while not game.is_over:
            game.apply(_pick(rng, game.legal_actions()))
            actions += 1
            _check(game, start)
            assert actions < 20000
        state = full(game)
        assert game.pending is None and state.phase == Phase.GAME_OVER
        if state.truncated:
            assert state.round == 12 and state.bank_breaks < (2 if variant == "standard" else 1)
        else:
            assert bank.is_broken_for_good(state) or all(state.players[p].bankrupt for p in state.turn_order)
        winners = game.winners
        assert len(winners) == 1 and winners[0] in state.turn_order
        alive = [p for p in state.turn_order if not state.players[p].bankrupt] or state.turn_order
        best = max(state.players[p].cash for p in alive)
        assert state.players[winners[0]].cash == best
        if variant == "introductory":
            assert not state.reserve_revealed and state.milestones_gone == set()
