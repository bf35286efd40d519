"""The bank: payments, the first break (reserve cards, CEO slots), the final break (debt)."""

from __future__ import annotations

import pytest
from late_builders import money, position

from fcm_env.engine.rules import bank


def test_payment_within_the_bank():
    state = position(bank=100)
    bank.pay_out(state, 0, 30)
    assert state.bank == 70 and state.players[0].cash == 30 and state.bank_breaks == 0


def test_first_break_opens_the_reserve_and_keeps_paying():
    # rules: Breaking the bank (1st time) — sum of the kept reserve cards is added; the payment goes on
    state = position(bank=10, reserves=[200, 300])
    before = money(state)
    bank.pay_out(state, 0, 25)
    assert state.players[0].cash == 25
    assert state.bank_breaks == 1 and state.reserve_revealed
    assert state.bank == 10 + 500 - 25
    assert money(state) == before + 500
    # C24: one "3 slots" and one "4 slots" card: tie -> the highest number
    assert state.ceo_slots == 4


def test_bank_emptied_exactly_breaks_at_once():
    # R53 (D30): the bank breaks as soon as it reaches $0
    state = position(bank=10, reserves=[100, 100])
    bank.pay_out(state, 1, 10)
    assert state.bank_breaks == 1 and state.bank == 200 and state.players[1].cash == 10
    assert state.ceo_slots == 2  # two "2 slots" cards


@pytest.mark.parametrize(("reserves", "slots"), [
    ([100, 100, 300, 300], 4),  # 2 x "2 slots", 2 x "4 slots": tie -> highest
    ([100, 100, 200, 300], 2),  # most common: 2
    ([200, 300, 100, 200], 3),
    ([100, 200, 300, 300], 4),
])
def test_ceo_slots_after_the_first_break_follow_the_commonest_card(reserves, slots):
    # rules: Breaking the bank (1st time); C24
    state = position(4, bank=5, reserves=reserves)
    bank.pay_out(state, 0, 5)
    assert state.ceo_slots == slots
    assert state.bank == sum(reserves)


def test_second_break_writes_the_rest_down():
    # rules: Breaking the bank (2nd time); C23, R38 — pay what the bank has, write down the rest
    state = position(bank=50)
    state.bank_breaks = 1
    state.reserve_revealed = True
    before = money(state)
    bank.pay_out(state, 0, 80)
    assert state.bank == 0 and state.bank_debt == 30 and state.players[0].cash == 80
    assert state.bank_breaks == 2 and bank.is_broken_for_good(state)
    bank.pay_out(state, 1, 12)  # later income of the same phase: all written down
    assert state.bank_debt == 42 and state.players[1].cash == 12
    assert money(state) == before


def test_both_breaks_in_one_payment():
    # the reserve ($200) is not enough either: second break, the rest owed
    state = position(bank=20, reserves=[100, 100])
    bank.pay_out(state, 0, 250)
    assert state.bank_breaks == 2 and state.bank == 0 and state.bank_debt == 30
    assert state.players[0].cash == 250
    assert money(state) == 20 + 200


def test_introductory_game_ends_at_the_first_break_without_reserve_cards():
    # rules: Introductory game — no reserve cards; the game ends when the bank breaks once
    state = position(variant="introductory", bank=10)
    bank.pay_out(state, 0, 25)
    assert state.bank_breaks == 1 and bank.is_broken_for_good(state)
    assert not state.reserve_revealed and state.ceo_slots == 3
    assert state.bank == 0 and state.bank_debt == 15 and state.players[0].cash == 25


def test_collect_takes_at_most_the_players_cash():
    state = position(bank=100)
    state.players[0].cash = 7
    assert bank.collect(state, 0, 10) == 7
    assert state.players[0].cash == 0 and state.bank == 107
    assert bank.collect(state, 0, 0) == 0


def test_negative_amounts_are_refused():
    state = position()
    with pytest.raises(ValueError):
        bank.pay_out(state, 0, -1)
    with pytest.raises(ValueError):
        bank.collect(state, 0, -1)
