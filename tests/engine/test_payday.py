"""Phase 5 Payday: hidden firing, forced firing, salaries and their discounts.

Every scenario runs on both engines (the ``engine`` fixture): the position is built as a Python ``GameState``,
Payday is opened on it (``payday.start``, or the engine's own Dinnertime and Payday start with ``settle``) and
loaded on the engine under test, which answers the FIRE decisions, reveals, pays, and goes on by itself through
Marketing and Clean-up to round 3. The cards a chain keeps are therefore read back in its hand (Clean-up takes
work and beach home); cash, bank, supply and milestones are what Payday left."""

from __future__ import annotations

import pytest
from builders import fingerprint
from late_builders import add_campaign, give, position
from on_engine import award, full, load, play, settle

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good, Milestone
from fcm_env.engine.actions import Action, Decision, IllegalActionError
from fcm_env.engine.phases import payday
from fcm_env.engine.state import GameState, Phase

PASS = Action.pass_()


def fires(*types):
    return [Action.fire(t) for t in types]


def opened(engine, state):
    """Payday opened on the Python position (``payday.start`` asks the first chain with a choice), loaded on
    ``engine``: everything after is the engine's."""
    payday.start(state)
    return load(engine, state)


def over(game) -> GameState:
    """The full position once Payday is over: salaries paid, Marketing and Clean-up run, round 3 begun."""
    state = full(game)
    assert state.firing_revealed and state.round == 3, (state.phase, state.round, game.pending)
    assert game.pending is None or game.pending.decision != Decision.FIRE
    return state


def paid(engine, state, actions) -> GameState:
    """``over`` after Payday opened on ``state`` and ``actions`` answered on ``engine``."""
    return over(play(opened(engine, state), actions))


def test_salary_five_per_salaried_card_at_work_on_the_beach_and_busy(engine):
    # rules: Phase 5 — $5 per card with a salary symbol, busy marketeers included: junior vice
    # president, burger cook, busy campaign manager = $15 (waitress and kitchen trainees: no salary);
    # $50 - 15 = $35, the bank gets the $15; under $20: no "First to pay $20"
    state = position(bank=100)
    give(state, 0, "work", junior_vice_president=1, waitress=1)
    give(state, 0, "beach", burger_cook=1, kitchen_trainee=2)
    add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    state.players[0].cash = 50
    end = paid(engine, state, [PASS])
    assert end.players[0].cash == 35 and end.bank == 115
    assert Milestone.FIRST_PAY_20_SALARIES not in end.players[0].milestones


@pytest.mark.parametrize(("discounts", "train", "due"), [
    (0, False, 30),  # 6 x 5 = 30
    (1, False, 25),  # one unused recruiting action: $5 off
    (1, True, 10),  # and First to train: $15 off
    (3, True, 0),  # $30 - 15 - 15 = 0: "the minimum amount to be paid is $0"
])
def test_discounts_unused_recruiters_and_first_to_train_and_the_zero_minimum(engine, discounts, train, due):
    # rules: Phase 5 (recruiting manager / HR director discounts, R40); First to train someone ($15);
    # "the minimum amount to be paid is $0" — the salary is what the chain's $50 goes down by
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=3, pizza_cook=3)
    state.players[0].cash = 50
    state.players[0].recruit_discounts = discounts
    if train:
        award(state, 0, Milestone.FIRST_TRAIN)
    end = paid(engine, state, [PASS])
    assert end.players[0].cash == 50 - due and end.bank == 100 + due


def test_both_discounts_together_and_a_chain_without_salaries_pays_nothing(engine):
    # rules: Phase 5; R40 — 1 unused recruiting-manager action is $5 off; First to train: $15 off.
    # Player 0: recruiting manager, 2 burger cooks at work, pizza cook and coach on the beach = 5
    # salaried cards = $25 - $5 - $15 = $5: $12 -> $7. Player 1's waitress draws no salary: $3 stay.
    # Nobody paid $20: no milestone.
    state = position(bank=100)
    give(state, 0, "work", recruiting_manager=1, burger_cook=2)
    give(state, 0, "beach", pizza_cook=1, coach=1)
    state.players[0].recruit_discounts = 1
    award(state, 0, Milestone.FIRST_TRAIN)
    state.players[0].cash = 12
    give(state, 1, "work", waitress=1)
    state.players[1].cash = 3
    game = opened(engine, state)
    assert game.pending.decision == Decision.FIRE and game.pending.player == 0
    play(game, [PASS])
    assert game.pending.decision == Decision.FIRE and game.pending.player == 1  # it may fire the waitress
    end = over(play(game, [PASS]))
    assert [p.cash for p in end.players] == [7, 3] and end.bank == 105
    assert Milestone.FIRST_PAY_20_SALARIES not in end.milestones_gone


def test_a_fired_recruiting_manager_keeps_its_unused_actions_discount(engine):
    # rules: Phase 5; First to pay $20 ("all discounts still available to you at the start of phase 5");
    # R40; D54 — the discount is fixed when recruiting ends, firing the manager does not take it back.
    # Kept: 4 salaried cards, $20 - $10 = $10: $50 -> $40. Fired: 3 burger cooks, $15 - $10 = $5 (not $15):
    # $45, and the manager is back in the supply.
    def build():
        state = position(bank=100)
        give(state, 0, "work", recruiting_manager=1)
        give(state, 0, "beach", burger_cook=3)
        state.players[0].cash = 50
        state.players[0].recruit_discounts = 2  # the manager recruited nobody: 2 unused actions
        return state

    assert paid(engine, build(), [PASS]).players[0].cash == 40
    state = build()
    managers = int(state.supply[E.RECRUITING_MANAGER])
    end = paid(engine, state, [Action.fire(E.RECRUITING_MANAGER), PASS])
    p0 = end.players[0]
    assert p0.cash == 45 and end.bank == 105
    assert p0.work[E.RECRUITING_MANAGER] == 0 and p0.hand[E.RECRUITING_MANAGER] == 0
    assert end.supply[E.RECRUITING_MANAGER] == managers + 1 and p0.hand[E.BURGER_COOK] == 3


@pytest.mark.parametrize(("billboard", "due"), [(False, 15), (True, 5)])
def test_first_billboard_means_no_marketeer_salaries(engine, billboard, due):
    # rules: First billboard placed — no salaries for marketeers: brand manager, burger cook and a busy
    # campaign manager cost $15, with the milestone only the cook's $5
    state = position(bank=100)
    give(state, 0, "beach", brand_manager=1, burger_cook=1)
    add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    if billboard:
        award(state, 0, Milestone.FIRST_BILLBOARD)
    state.players[0].cash = 50
    end = paid(engine, state, [PASS])
    assert end.players[0].cash == 50 - due and end.bank == 100 + due


def test_firing_is_hidden_until_everyone_chose_then_salaries_go_to_the_bank(engine):
    # rules: Phase 5; C30, R39 — choices secret, revealed together: the marked cook stays on the beach
    # until the reveal; then it goes back to the supply and the other cook's $5 goes to the bank
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=2)
    state.players[0].cash = 50
    give(state, 1, "work", waitress=1)
    supply = int(state.supply[E.BURGER_COOK])
    game = opened(engine, state)
    now = full(game)
    assert now.phase == Phase.PAYDAY and not now.firing_revealed
    assert game.pending.decision == Decision.FIRE and game.pending.player == 0
    assert game.legal_actions() == [PASS] + fires(E.BURGER_COOK)
    play(game, [Action.fire(E.BURGER_COOK)])
    now = full(game)
    p0 = now.players[0]
    assert p0.fired[E.BURGER_COOK] == 1 and p0.beach[E.BURGER_COOK] == 2  # still there, hidden
    assert not now.firing_revealed and now.supply[E.BURGER_COOK] == supply and p0.cash == 50
    play(game, [PASS])
    assert game.pending.decision == Decision.FIRE and game.pending.player == 1
    assert game.legal_actions() == [PASS] + fires(E.WAITRESS)
    end = over(play(game, [PASS]))
    p0 = end.players[0]
    assert p0.hand[E.BURGER_COOK] == 1 and end.supply[E.BURGER_COOK] == supply + 1  # the kept one went home
    assert p0.cash == 45 and end.bank == 105
    assert p0.fired.sum() == 0
    assert end.players[1].hand[E.WAITRESS] == 1  # not fired


def test_a_player_with_nothing_to_fire_is_not_asked(engine):
    # only "done" would be legal: the decision is skipped (D46) — the engine runs Dinnertime (the
    # waitress tips $3) and opens Payday itself: player 0 (CEO only) is not asked, player 1 is
    state = position(bank=100)
    give(state, 1, "work", waitress=1)
    game = settle(engine, state)
    assert game.state.phase == Phase.PAYDAY
    assert game.pending.decision == Decision.FIRE and game.pending.player == 1
    assert game.legal_actions() == [PASS] + fires(E.WAITRESS)
    assert game.state.players[1].cash == 3


def test_nobody_to_ask_reveals_at_once(engine):
    # rules: Phase 5; D46 — nobody holds a card to fire: the engine opens Payday, reveals at once
    # (nothing to pay) and goes on to the next round without a FIRE decision
    state = position(bank=100)
    state.firing_revealed = False
    end = over(settle(engine, state))
    assert end.bank == 100 and [p.cash for p in end.players] == [0, 0]


def test_cannot_say_done_while_the_salary_cannot_be_paid(engine):
    # rules: Phase 5 — cards must be fired until the salary can be paid: $7 against $10 due; the
    # waitress has no salary (firing her does not help); with the pizza cook fired $5 is due: $2 left
    state = position(bank=100)
    give(state, 0, "work", waitress=1)
    give(state, 0, "beach", burger_cook=1, pizza_cook=1)
    state.players[0].cash = 7
    game = opened(engine, state)
    assert game.legal_actions() == fires(E.WAITRESS, E.BURGER_COOK, E.PIZZA_COOK)
    play(game, [Action.fire(E.WAITRESS)])  # no salary: does not help
    assert PASS not in game.legal_actions()
    play(game, [Action.fire(E.PIZZA_COOK)])
    assert game.legal_actions() == [PASS] + fires(E.BURGER_COOK)
    end = over(play(game, [PASS]))
    p = end.players[0]
    assert p.cash == 2 and end.bank == 105
    assert p.hand[E.BURGER_COOK] == 1 and p.hand[E.PIZZA_COOK] == 0 and p.hand[E.WAITRESS] == 0


def test_a_chain_that_cannot_pay_must_fire_first_and_fired_cards_go_to_the_supply(engine):
    # rules: Phase 5 — player 0: $7, burger cook and pizza cook at work, truck driver on the beach:
    # $15 due, "done" is illegal until at most $7 is due. Firing the driver leaves $10, the pizza cook
    # too leaves $5: then done, $2 left; the two fired cards are back in the supply.
    state = position(bank=100)
    give(state, 0, "work", burger_cook=1, pizza_cook=1)
    give(state, 0, "beach", truck_driver=1)
    state.players[0].cash = 7
    want = state.supply.copy()
    want[E.TRUCK_DRIVER] += 1
    want[E.PIZZA_COOK] += 1
    game = opened(engine, state)
    assert game.legal_actions() == fires(E.TRUCK_DRIVER, E.BURGER_COOK, E.PIZZA_COOK)
    play(game, [Action.fire(E.TRUCK_DRIVER)])
    assert PASS not in game.legal_actions()
    end = over(play(game, [Action.fire(E.PIZZA_COOK), PASS]))
    p0 = end.players[0]
    assert p0.cash == 2 and end.bank == 105
    assert p0.work[E.CEO] == 1 and p0.hand[E.BURGER_COOK] == 1 and p0.hand[E.PIZZA_COOK] == 0
    assert p0.hand[E.TRUCK_DRIVER] == 0 and p0.fired.sum() == 0
    assert end.supply.tolist() == want.tolist()


def test_last_firing_that_leaves_only_done_ends_the_players_choice(engine):
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=1)
    give(state, 1, "beach", burger_cook=1)
    state.players[1].cash = 5
    game = opened(engine, state)
    assert game.pending.player == 0
    play(game, [Action.fire(E.BURGER_COOK)])  # player 0 has $0: must fire; then nothing is left
    assert game.pending.decision == Decision.FIRE and game.pending.player == 1


def test_busy_marketeers_are_fired_only_after_every_other_salaried_card(engine):
    # rules: Phase 5; C30 — a busy marketeer may go only when the salary still cannot be paid;
    # its campaign stays on the board
    state = position(bank=100)
    add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    give(state, 0, "beach", burger_cook=1, kitchen_trainee=1)
    state.players[0].cash = 0
    supply = int(state.supply[E.CAMPAIGN_MANAGER])
    game = opened(engine, state)
    assert game.legal_actions() == fires(E.KITCHEN_TRAINEE, E.BURGER_COOK)
    play(game, [Action.fire(E.KITCHEN_TRAINEE)])
    assert game.legal_actions() == fires(E.BURGER_COOK)
    play(game, [Action.fire(E.BURGER_COOK)])
    assert game.legal_actions() == fires(E.CAMPAIGN_MANAGER)  # now the busy one
    end = over(play(game, [Action.fire(E.CAMPAIGN_MANAGER)]))  # nothing left: done automatically
    p = end.players[0]
    assert p.busy[E.CAMPAIGN_MANAGER] == 0 and end.supply[E.CAMPAIGN_MANAGER] == supply + 1
    assert [(c.number, c.owner) for c in end.campaigns] == [(13, 0)]  # still on the board


def test_busy_marketeers_stay_when_the_salary_can_be_paid(engine):
    # rules: Phase 5; C30 — with the beach's campaign manager fired, $5 is due and $5 is in cash:
    # the busy one may not be fired
    state = position(bank=100)
    add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    give(state, 0, "beach", campaign_manager=1)
    state.players[0].cash = 5
    supply = int(state.supply[E.CAMPAIGN_MANAGER])
    game = opened(engine, state)
    assert game.legal_actions() == fires(E.CAMPAIGN_MANAGER)  # the one on the beach
    end = over(play(game, [Action.fire(E.CAMPAIGN_MANAGER)]))
    p = end.players[0]
    assert p.busy[E.CAMPAIGN_MANAGER] == 1 and p.hand[E.CAMPAIGN_MANAGER] == 0 and p.cash == 0
    assert end.supply[E.CAMPAIGN_MANAGER] == supply + 1 and end.bank == 105


def test_eternal_campaign_marketeer_is_never_fired(engine):
    # rules: First billboard placed — the marketeer of an eternal campaign is gone for good
    state = position(bank=100)
    award(state, 0, Milestone.FIRST_BILLBOARD)
    add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, eternal=True, marketeer=E.CAMPAIGN_MANAGER)
    give(state, 0, "beach", burger_cook=1)
    game = opened(engine, state)
    assert game.legal_actions() == fires(E.BURGER_COOK)
    end = over(play(game, [Action.fire(E.BURGER_COOK)]))
    assert end.players[0].busy.sum() == 0 and [c.number for c in end.campaigns] == [13]


def test_with_first_billboard_busy_marketeers_cost_nothing_and_are_not_fired(engine):
    # rules: First billboard placed — no marketeer salaries, so firing them never helps (C30)
    state = position(bank=100)
    award(state, 0, Milestone.FIRST_BILLBOARD)
    add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    give(state, 0, "beach", burger_cook=1)
    game = opened(engine, state)
    assert game.legal_actions() == fires(E.BURGER_COOK)
    end = over(play(game, [Action.fire(E.BURGER_COOK)]))
    assert end.players[0].busy[E.CAMPAIGN_MANAGER] == 1 and end.players[0].cash == 0


def test_cfo_must_be_fired_after_first_to_have_100(engine):
    # rules: First to have $100; C27 — a CFO held must be fired in this Payday: $500 pays the $5
    # easily, yet "done" is not offered before the CFO is marked, and with it marked nothing is left
    state = position(bank=100)
    give(state, 0, "work", cfo=1)
    state.players[0].cash = 500
    award(state, 0, Milestone.FIRST_HAVE_100, this_turn=True)  # claimed in this turn's Dinnertime
    supply = int(state.supply[E.CFO])
    game = opened(engine, state)
    assert game.legal_actions() == fires(E.CFO)
    end = over(play(game, [Action.fire(E.CFO)]))
    p = end.players[0]
    assert p.work[E.CFO] == 0 and p.hand[E.CFO] == 0 and p.cash == 500
    assert end.supply[E.CFO] == supply + 1 and end.bank == 100


def test_first_to_pay_20_counts_what_is_actually_paid(engine):
    # rules: First to pay $20 or more in salaries; R41 — after the mandatory discounts
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=4)  # $20
    give(state, 1, "beach", pizza_cook=5)  # $25 - 15 = $10
    award(state, 1, Milestone.FIRST_TRAIN)
    for p in state.players:
        p.cash = 100
    end = paid(engine, state, [PASS, PASS])
    assert Milestone.FIRST_PAY_20_SALARIES in end.players[0].milestones
    assert Milestone.FIRST_PAY_20_SALARIES not in end.players[1].milestones
    assert end.players[0].cash == 80 and end.players[1].cash == 90 and end.bank == 130


@pytest.mark.parametrize("billboard", [False, True])
def test_pay_20_goes_to_every_chain_that_paid_20(engine, billboard):
    # rules: First to pay $20 or more in salaries; R41 — whoever actually pays $20 or more claims it,
    # several chains in the same turn. Player 0: 4 cooks = $20. Player 1: 3 cooks and a brand manager
    # = $20, or $15 with "First billboard placed" (marketeers draw no salary) and then no milestone.
    state = position(bank=100)
    give(state, 0, "work", burger_cook=4)
    give(state, 1, "work", pizza_cook=3)
    give(state, 1, "beach", brand_manager=1)
    if billboard:
        award(state, 1, Milestone.FIRST_BILLBOARD)
    for p in state.players:
        p.cash = 50
    end = paid(engine, state, [PASS, PASS])
    assert end.players[0].cash == 30
    assert end.players[1].cash == (35 if billboard else 30)
    assert Milestone.FIRST_PAY_20_SALARIES in end.players[0].milestones
    assert (Milestone.FIRST_PAY_20_SALARIES in end.players[1].milestones) is not billboard


def test_introductory_game_pays_no_salaries(engine):
    # rules: Introductory game — skip phase 5: the engine runs Dinnertime and goes on to the next
    # round without a FIRE decision; the $50 and both cooks stay
    state = position(variant="introductory", bank=100)
    give(state, 0, "beach", burger_cook=2)
    state.players[0].cash = 50
    game = settle(engine, state)
    end = full(game)
    assert end.round == 3 and game.pending.decision != Decision.FIRE
    assert end.players[0].cash == 50 and end.bank == 100 and end.players[0].hand[E.BURGER_COOK] == 2


def test_a_chain_bankrupt_this_turn_still_fires_and_pays_from_its_cash(engine):
    # rules: C21 (a chain that cannot pay is eliminated at the *end* of the turn), Phase 5
    # (cards must be fired until the salaries can be paid): it holds $7 and two cooks ($10):
    # it must fire one and pays $5 for the other, leaving $2; Clean-up then takes it out.
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=1, pizza_cook=1)
    state.players[0].bankrupt = True
    state.players[0].cash = 7
    game = opened(engine, state)
    assert game.pending.player == 0
    assert game.legal_actions() == fires(E.BURGER_COOK, E.PIZZA_COOK)
    end = over(play(game, [Action.fire(E.PIZZA_COOK), PASS]))
    p = end.players[0]
    assert p.cash == 2 and end.bank == 105 and p.bankrupt
    held = p.hand + p.work + p.beach  # out of the turn order, its cards move on with the round's reveal
    assert held[E.BURGER_COOK] == 1 and held[E.PIZZA_COOK] == 0
    assert end.turn_order == [1]


def test_a_bankrupt_chain_is_asked_and_a_chain_with_nothing_to_fire_is_not(engine):
    # rules: C21, D41 — a chain that went bankrupt this turn is in the game until Clean-up: the
    # engine's Payday asks it, it cannot pay its cook with $0 and must fire it; the other chain (CEO
    # only) is not asked at all (D46)
    state = position(bank=100)
    state.phase = Phase.DINNERTIME  # still to run: nothing to eat; then the engine opens Payday
    state.players[1].bankrupt = True
    give(state, 1, "beach", burger_cook=1)
    supply = int(state.supply[E.BURGER_COOK])
    game = settle(engine, state)
    assert game.pending.decision == Decision.FIRE and game.pending.player == 1
    assert game.legal_actions() == fires(E.BURGER_COOK)
    end = over(play(game, [Action.fire(E.BURGER_COOK)]))
    p = end.players[1]
    held = p.hand + p.work + p.beach
    assert p.cash == 0 and held[E.BURGER_COOK] == 0 and end.supply[E.BURGER_COOK] == supply + 1
    assert end.turn_order == [0]


def test_illegal_firing_raises_and_leaves_the_state_alone(engine):
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=1)
    game = opened(engine, state)
    before = fingerprint(full(game))
    for bad in (PASS, Action.fire(E.CEO), Action.fire(E.PIZZA_COOK)):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
    after = full(game)
    assert fingerprint(after) == before and after.players[0].fired.sum() == 0
    assert game.pending.decision == Decision.FIRE and game.pending.player == 0
