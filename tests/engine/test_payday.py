"""Phase 5 Payday: hidden firing, forced firing, salaries and their discounts."""

from __future__ import annotations

import pytest
from builders import fingerprint
from late_builders import add_campaign, give, position

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good, Milestone
from fcm_env.engine.actions import Action, Decision, IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.phases import payday
from fcm_env.engine.state import Phase


def legal(state):
    return sorted(payday.legal_fire(state, state.pending[-1]))


def act(state, action):
    """Apply like Game.apply (checked against the legal list) but without moving on to phase 6."""
    assert action in legal(state), f"{action} not in {legal(state)}"
    payday.apply_fire(state, state.pending[-1], action)


def fires(*types):
    return [Action.fire(t) for t in types]


def test_salary_five_per_salaried_card_at_work_on_the_beach_and_busy():
    # rules: Phase 5 — $5 per card with a salary symbol, busy marketeers included
    state = position()
    give(state, 0, "work", junior_vice_president=1, waitress=1)
    give(state, 0, "beach", burger_cook=1, kitchen_trainee=2)
    give(state, 0, "busy", campaign_manager=1)
    assert payday.salary_due(state, 0) == 15


def test_discounts_unused_recruiters_and_first_to_train_and_the_zero_minimum():
    # rules: Phase 5 (recruiting manager / HR director discounts, R40); First to train someone ($15);
    # "the minimum amount to be paid is $0"
    state = position()
    give(state, 0, "beach", burger_cook=3, pizza_cook=3)  # 6 x 5 = 30
    state.players[0].recruit_discounts = 1
    assert payday.salary_due(state, 0) == 25
    state.players[0].milestones.add(Milestone.FIRST_TRAIN)
    assert payday.salary_due(state, 0) == 10
    state.players[0].recruit_discounts = 3
    assert payday.salary_due(state, 0) == 0


def test_a_fired_recruiting_manager_keeps_its_unused_actions_discount():
    # rules: Phase 5; First to pay $20 ("all discounts still available to you at the start of phase 5");
    # R40; D54 — the discount is fixed when recruiting ends, firing the manager does not take it back
    state = position(bank=100)
    give(state, 0, "work", recruiting_manager=1)
    give(state, 0, "beach", burger_cook=3)
    state.players[0].cash = 50
    state.players[0].recruit_discounts = 2  # the manager recruited nobody: 2 unused actions
    assert payday.salary_due(state, 0) == 10  # 4 salaried cards, $20 - $10
    payday.start(state)
    act(state, Action.fire(E.RECRUITING_MANAGER))
    assert payday.salary_due(state, 0) == 5  # 3 burger cooks, $15 - $10 (not $15)
    act(state, Action.pass_())
    while state.pending:  # the other player has nothing to fire or says done
        act(state, Action.pass_())
    p0 = state.players[0]
    assert p0.work[E.RECRUITING_MANAGER] == 0 and p0.cash == 45


def test_first_billboard_means_no_marketeer_salaries():
    # rules: First billboard placed — no salaries for marketeers
    state = position()
    give(state, 0, "beach", brand_manager=1, burger_cook=1)
    give(state, 0, "busy", campaign_manager=1)
    assert payday.salary_due(state, 0) == 15
    state.players[0].milestones.add(Milestone.FIRST_BILLBOARD)
    assert payday.salary_due(state, 0) == 5


def test_firing_is_hidden_until_everyone_chose_then_salaries_go_to_the_bank():
    # rules: Phase 5; C30, R39 — choices secret, revealed together
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=2)
    state.players[0].cash = 50
    give(state, 1, "work", waitress=1)
    payday.start(state)
    assert state.phase == Phase.PAYDAY and not state.firing_revealed
    assert state.pending[-1].decision == Decision.FIRE and state.pending[-1].player == 0
    assert legal(state) == [Action.pass_()] + fires(E.BURGER_COOK)
    supply = int(state.supply[E.BURGER_COOK])
    act(state, Action.fire(E.BURGER_COOK))
    p0 = state.players[0]
    assert p0.fired[E.BURGER_COOK] == 1 and p0.beach[E.BURGER_COOK] == 2  # still there, hidden
    act(state, Action.pass_())
    assert state.pending[-1].player == 1
    assert legal(state) == [Action.pass_()] + fires(E.WAITRESS)
    act(state, Action.pass_())
    assert state.pending == [] and state.firing_revealed
    assert p0.beach[E.BURGER_COOK] == 1 and state.supply[E.BURGER_COOK] == supply + 1
    assert p0.cash == 45 and state.bank == 105
    assert p0.fired.sum() == 0
    assert state.players[1].work[E.WAITRESS] == 1


def test_a_player_with_nothing_to_fire_is_not_asked():
    # only "done" would be legal: the decision is skipped (D46)
    state = position(bank=100)
    give(state, 1, "work", waitress=1)
    payday.start(state)
    assert state.pending[-1].player == 1


def test_nobody_to_ask_reveals_at_once():
    state = position(bank=100)
    payday.start(state)
    assert state.pending == [] and state.firing_revealed and state.phase == Phase.PAYDAY


def test_cannot_say_done_while_the_salary_cannot_be_paid():
    # rules: Phase 5 — cards must be fired until the salary can be paid
    state = position(bank=100)
    give(state, 0, "work", waitress=1)
    give(state, 0, "beach", burger_cook=1, pizza_cook=1)
    state.players[0].cash = 7
    payday.start(state)
    assert legal(state) == fires(E.WAITRESS, E.BURGER_COOK, E.PIZZA_COOK)
    act(state, Action.fire(E.WAITRESS))  # no salary: does not help
    assert Action.pass_() not in legal(state)
    act(state, Action.fire(E.PIZZA_COOK))
    assert legal(state) == [Action.pass_()] + fires(E.BURGER_COOK)
    act(state, Action.pass_())
    p = state.players[0]
    assert p.cash == 2 and p.beach[E.BURGER_COOK] == 1 and p.beach[E.PIZZA_COOK] == 0 and p.work[E.WAITRESS] == 0


def test_last_firing_that_leaves_only_done_ends_the_players_choice():
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=1)
    give(state, 1, "beach", burger_cook=1)
    state.players[1].cash = 5
    payday.start(state)
    act(state, Action.fire(E.BURGER_COOK))  # player 0 has $0: must fire; then nothing is left
    assert state.pending[-1].player == 1


def test_busy_marketeers_are_fired_only_after_every_other_salaried_card():
    # rules: Phase 5; C30 — a busy marketeer may go only when the salary still cannot be paid;
    # its campaign stays on the board
    state = position(bank=100)
    campaign = add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    give(state, 0, "beach", burger_cook=1, kitchen_trainee=1)
    state.players[0].cash = 0
    payday.start(state)
    assert legal(state) == fires(E.KITCHEN_TRAINEE, E.BURGER_COOK)
    act(state, Action.fire(E.KITCHEN_TRAINEE))
    assert legal(state) == fires(E.BURGER_COOK)
    act(state, Action.fire(E.BURGER_COOK))
    assert legal(state) == fires(E.CAMPAIGN_MANAGER)  # now the busy one
    supply = int(state.supply[E.CAMPAIGN_MANAGER])
    act(state, Action.fire(E.CAMPAIGN_MANAGER))  # nothing left: done automatically
    assert state.pending == []
    p = state.players[0]
    assert p.busy[E.CAMPAIGN_MANAGER] == 0 and state.supply[E.CAMPAIGN_MANAGER] == supply + 1
    assert campaign in state.campaigns


def test_busy_marketeers_stay_when_the_salary_can_be_paid():
    state = position(bank=100)
    add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, remaining=2,
                 marketeer=E.CAMPAIGN_MANAGER)
    give(state, 0, "beach", campaign_manager=1)
    state.players[0].cash = 5
    payday.start(state)
    assert legal(state) == fires(E.CAMPAIGN_MANAGER)  # the one on the beach
    act(state, Action.fire(E.CAMPAIGN_MANAGER))
    assert state.pending == []  # 5 due, 5 in cash: the busy one may not be fired
    p = state.players[0]
    assert p.busy[E.CAMPAIGN_MANAGER] == 1 and p.beach[E.CAMPAIGN_MANAGER] == 0 and p.cash == 0


def test_eternal_campaign_marketeer_is_never_fired():
    # rules: First billboard placed — the marketeer of an eternal campaign is gone for good
    state = position(bank=100)
    state.players[0].milestones.add(Milestone.FIRST_BILLBOARD)
    add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, eternal=True, marketeer=E.CAMPAIGN_MANAGER)
    give(state, 0, "beach", burger_cook=1)
    payday.start(state)
    assert legal(state) == fires(E.BURGER_COOK)
    act(state, Action.fire(E.BURGER_COOK))
    assert state.pending == [] and state.players[0].busy.sum() == 0


def test_with_first_billboard_busy_marketeers_cost_nothing_and_are_not_fired():
    # rules: First billboard placed — no marketeer salaries, so firing them never helps (C30)
    state = position(bank=100)
    state.players[0].milestones.add(Milestone.FIRST_BILLBOARD)
    add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    give(state, 0, "beach", burger_cook=1)
    payday.start(state)
    assert legal(state) == fires(E.BURGER_COOK)
    act(state, Action.fire(E.BURGER_COOK))
    assert state.pending == [] and state.players[0].busy[E.CAMPAIGN_MANAGER] == 1


def test_cfo_must_be_fired_after_first_to_have_100():
    # rules: First to have $100; C27 — a CFO held must be fired in this Payday
    state = position(bank=100)
    give(state, 0, "work", cfo=1)
    state.players[0].cash = 500
    state.players[0].milestones.add(Milestone.FIRST_HAVE_100)
    payday.start(state)
    assert legal(state) == fires(E.CFO)
    act(state, Action.fire(E.CFO))
    assert state.pending == [] and state.players[0].work[E.CFO] == 0 and state.players[0].cash == 500


def test_first_to_pay_20_counts_what_is_actually_paid():
    # rules: First to pay $20 or more in salaries; R41 — after the mandatory discounts
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=4)  # $20
    give(state, 1, "beach", pizza_cook=5)  # $25 - 15 = $10
    state.players[1].milestones.add(Milestone.FIRST_TRAIN)
    for p in state.players:
        p.cash = 100
    payday.start(state)
    act(state, Action.pass_())
    act(state, Action.pass_())
    assert Milestone.FIRST_PAY_20_SALARIES in state.players[0].milestones
    assert Milestone.FIRST_PAY_20_SALARIES not in state.players[1].milestones
    assert state.players[0].cash == 80 and state.players[1].cash == 90 and state.bank == 130


def test_introductory_game_pays_no_salaries():
    # rules: Introductory game — skip phase 5
    state = position(variant="introductory", bank=100)
    give(state, 0, "beach", burger_cook=2)
    state.players[0].cash = 50
    payday.start(state)
    assert state.pending == [] and state.players[0].cash == 50 and state.phase == Phase.PAYDAY


def test_a_chain_bankrupt_this_turn_still_fires_and_pays_from_its_cash():
    # rules: C21 (a chain that cannot pay is eliminated at the *end* of the turn), Phase 5
    # (cards must be fired until the salaries can be paid): it holds $7 and two cooks ($10):
    # it must fire one and pays $5 for the other, leaving $2.
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=1, pizza_cook=1)
    state.players[0].bankrupt = True
    state.players[0].cash = 7
    payday.start(state)
    assert state.pending[-1].player == 0
    assert legal(state) == fires(E.BURGER_COOK, E.PIZZA_COOK)
    act(state, Action.fire(E.PIZZA_COOK))
    act(state, Action.pass_())
    p = state.players[0]
    assert state.firing_revealed and p.cash == 2 and state.bank == 105
    assert p.beach[E.BURGER_COOK] == 1 and p.beach[E.PIZZA_COOK] == 0 and p.bankrupt


def test_illegal_firing_raises_and_leaves_the_state_alone():
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=1)
    payday.start(state)
    game = Game(state)
    before = fingerprint(game.state)
    for bad in (Action.pass_(), Action.fire(E.CEO), Action.fire(E.PIZZA_COOK)):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
    assert fingerprint(game.state) == before and state.players[0].fired.sum() == 0
