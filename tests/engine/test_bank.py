"""The bank: payments, the first break (reserve cards, CEO slots), the final break (debt).

The scenarios run on both engines (the ``engine`` fixture): the bank pays and collects in the engine's own
Dinnertime (``on_engine.dine``: a sale, waitress tips — one payment per chain, $5 a waitress with First
waitress played — or a bill a chain pays at a negative price), on a hand-built position read back whole."""

from __future__ import annotations

import pytest
from late_builders import GARDEN_2, demand, give, money, position, stock, two_chains
from on_engine import award, dine

from fcm_env.data import Good, Milestone
from fcm_env.engine.rules import bank
from fcm_env.engine.state import Phase

B = Good.BURGER


def tips(state, player, dollars):
    """``player`` gets ``dollars`` (a multiple of 5) as its one tips payment: $5 waitresses (First waitress played)."""
    assert dollars % 5 == 0
    give(state, player, waitress=dollars // 5)
    award(state, player, Milestone.FIRST_WAITRESS)


def test_payment_within_the_bank(engine):
    # rules: Phase 4 — a $30 sale (3 burgers at $10) out of a $100 bank
    state = two_chains(bank=100)
    stock(state, 0, burger=3)
    demand(state, 2, B, B, B)
    state = dine(engine, state)
    assert state.bank == 70 and state.players[0].cash == 30 and state.bank_breaks == 0


def test_first_break_opens_the_reserve_and_keeps_paying(engine):
    # rules: Breaking the bank (1st time) — sum of the kept reserve cards is added; the payment goes
    # on: $25 of tips out of a $10 bank
    state = position(bank=10, reserves=[200, 300])
    tips(state, 0, 25)
    before = money(state)
    state = dine(engine, state)
    assert state.players[0].cash == 25
    assert state.bank_breaks == 1 and state.reserve_revealed
    assert state.bank == 10 + 500 - 25
    assert money(state) == before + 500
    # C24: one "3 slots" and one "4 slots" card: tie -> the highest number
    assert state.ceo_slots == 4


def test_bank_emptied_exactly_breaks_at_once(engine):
    # rules: R53 (D30) — the bank breaks as soon as it reaches $0: $10 of tips out of a $10 bank
    state = position(bank=10, reserves=[100, 100])
    tips(state, 1, 10)
    state = dine(engine, state)
    assert state.bank_breaks == 1 and state.bank == 200 and state.players[1].cash == 10
    assert state.ceo_slots == 2  # two "2 slots" cards


@pytest.mark.parametrize(("reserves", "slots"), [
    ([100, 100, 300, 300], 4),  # 2 x "2 slots", 2 x "4 slots": tie -> highest
    ([100, 100, 200, 300], 2),  # most common: 2
    ([200, 300, 100, 200], 3),
    ([100, 200, 300, 300], 4),
])
def test_ceo_slots_after_the_first_break_follow_the_commonest_card(engine, reserves, slots):
    # rules: Breaking the bank (1st time); C24 — $5 of tips empty a $5 bank
    state = position(4, bank=5, reserves=reserves)
    tips(state, 0, 5)
    state = dine(engine, state)
    assert state.bank_breaks == 1
    assert state.ceo_slots == slots
    assert state.bank == sum(reserves)


def test_second_break_writes_the_rest_down(engine):
    # rules: Breaking the bank (2nd time); C23, R38 — pay what the bank has, write down the rest:
    # player 0's $80 sale (luxuries manager, garden: 2 burgers at $40) out of $50 leaves $30 owed;
    # player 1's $12 of tips (4 waitresses at $3), later in the same phase, are all written down;
    # the game ends after this Dinnertime
    state = two_chains(bank=50)
    state.bank_breaks = 1
    state.reserve_revealed = True
    give(state, 0, luxuries_manager=1)
    stock(state, 0, burger=2)
    demand(state, 2, B, B, garden=GARDEN_2)
    give(state, 1, waitress=4)
    before = money(state)
    state = dine(engine, state)
    assert state.bank == 0 and state.bank_debt == 30 + 12 and state.players[0].cash == 80
    assert state.players[1].cash == 12
    assert state.bank_breaks == 2 and state.phase == Phase.GAME_OVER
    assert money(state) == before


def test_both_breaks_in_one_payment():
    # python-only: one payment above the bank plus the whole reserve ($20 + $200) cannot arise in
    # play (a house pays at most 3 x $45 = $135; tips at most 12 x $5), so only the bank helper can be
    # handed it; the second break in play is test_second_break_writes_the_rest_down.
    # the reserve ($200) is not enough either: second break, the rest owed
    state = position(bank=20, reserves=[100, 100])
    bank.pay_out(state, 0, 250)
    assert state.bank_breaks == 2 and state.bank == 0 and state.bank_debt == 30
    assert state.players[0].cash == 250
    assert money(state) == 20 + 200


def test_introductory_game_ends_at_the_first_break_without_reserve_cards(engine):
    # rules: Introductory game — no reserve cards; the game ends when the bank breaks once. A $30
    # sale (3 burgers) out of a $10 bank: $10 paid, $20 written down (the helper test paid $25: no
    # play pays exactly that in the introductory game, so the numbers are for $30)
    state = two_chains(variant="introductory", bank=10)
    stock(state, 0, burger=3)
    demand(state, 2, B, B, B)
    state = dine(engine, state)
    assert state.bank_breaks == 1 and state.phase == Phase.GAME_OVER
    assert not state.reserve_revealed and state.ceo_slots == 3
    assert state.bank == 0 and state.bank_debt == 20 and state.players[0].cash == 30


def test_collect_takes_at_most_the_players_cash(engine):
    # rules: C21 — 5 discount managers: price 10 - 15 = -$5, doubled by house 2's garden: the chain
    # owes $10 for one burger and has $7: the bank takes the $7, the chain is bankrupt
    state = two_chains(bank=100)
    give(state, 0, discount_manager=5)
    state.players[0].cash = 7
    stock(state, 0, burger=1)
    demand(state, 2, B, garden=GARDEN_2)
    state = dine(engine, state)
    p = state.players[0]
    assert p.cash == 0 and state.bank == 107 and p.income == -7 and p.bankrupt


def test_zero_and_negative_amounts():
    # python-only: the bank helper's own argument checks (no rule pays or collects a negative amount, so
    # no play reaches them)
    state = position()
    assert bank.collect(state, 0, 0) == 0 and state.bank == 1000
    with pytest.raises(ValueError):
        bank.pay_out(state, 0, -1)
    with pytest.raises(ValueError):
        bank.collect(state, 0, -1)
