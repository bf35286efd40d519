"""Phase 3 Working 9-5: recruiting and training.

Every scenario runs on both engines (the ``engine`` fixture): the position of ``builders.working_turn`` (phase 3
of round 2, the first seat holding the given cards) is built as a Python ``GameState``, its first RECRUIT
decision opened, and loaded on the engine under test (``on_engine_working.working_turn``); the recruiting and
training are played through the face and the outcome read back whole (``full``)."""

from __future__ import annotations

from late_builders import add_campaign
from on_engine import full, play
from on_engine_working import me, working_turn

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good, Milestone
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.phases.working.recruit_train import POOLED

PASS = Action.pass_()


def test_ceo_recruits_one_entry_level_card_to_the_beach(engine):
    # rules: Recruit — one free recruitment by the CEO, entry-level cards only
    game = working_turn(engine)
    first = game.current_player
    assert game.pending.decision == Decision.RECRUIT
    hireable = {a.args[0] for a in game.legal_actions() if a.args}
    assert hireable == {E.WAITRESS, E.MANAGEMENT_TRAINEE, E.PRICING_MANAGER, E.RECRUITING_GIRL, E.TRAINER,
                        E.ERRAND_BOY, E.MARKETING_TRAINEE, E.KITCHEN_TRAINEE}
    supply_before = int(full(game).supply[E.WAITRESS])
    play(game, [Action.recruit(E.WAITRESS)])
    state = full(game)
    p = state.players[first]
    assert p.beach[E.WAITRESS] == 1 and state.supply[E.WAITRESS] == supply_before - 1
    # no recruit left and nobody to train: the next player's turn starts
    assert game.current_player != first and game.pending.decision == Decision.RECRUIT


def test_recruiting_girl_adds_one_hire_and_three_hires_win_two_management_trainees(engine):
    # rules: Recruit; milestone First to hire three people in one turn (R44)
    game = working_turn(engine, work={E.RECRUITING_GIRL: 2})
    first = game.current_player
    mt_supply = int(full(game).supply[E.MANAGEMENT_TRAINEE])
    play(game, [Action.recruit(E.WAITRESS), Action.recruit(E.WAITRESS)])
    assert game.current_player == first
    play(game, [Action.recruit(E.KITCHEN_TRAINEE)])
    state = full(game)
    p = state.players[first]
    assert Milestone.FIRST_HIRE_3 in p.milestones
    assert p.beach[E.MANAGEMENT_TRAINEE] == 2
    assert state.supply[E.MANAGEMENT_TRAINEE] == mt_supply - 2
    assert p.beach[E.WAITRESS] == 2 and p.beach[E.KITCHEN_TRAINEE] == 1


def test_trainer_trains_one_step_and_the_old_card_returns_to_the_stock(engine):
    # rules: Train; milestone First to train someone
    game = working_turn(engine, work={E.TRAINER: 1}, beach={E.MANAGEMENT_TRAINEE: 1})
    first = game.current_player
    play(game, [PASS])  # no hire
    assert game.pending.decision == Decision.TRAIN
    legal = set(game.legal_actions())
    assert Action.train(E.TRAINER, E.MANAGEMENT_TRAINEE, E.JUNIOR_VICE_PRESIDENT) in legal
    assert Action.train(E.TRAINER, E.MANAGEMENT_TRAINEE, E.VICE_PRESIDENT) not in legal  # 2 steps
    before = full(game)
    mt, jvp = int(before.supply[E.MANAGEMENT_TRAINEE]), int(before.supply[E.JUNIOR_VICE_PRESIDENT])
    play(game, [Action.train(E.TRAINER, E.MANAGEMENT_TRAINEE, E.JUNIOR_VICE_PRESIDENT)])
    state = full(game)
    p = state.players[first]
    assert p.beach[E.JUNIOR_VICE_PRESIDENT] == 1 and p.beach[E.MANAGEMENT_TRAINEE] == 0
    assert state.supply[E.MANAGEMENT_TRAINEE] == mt + 1
    assert state.supply[E.JUNIOR_VICE_PRESIDENT] == jvp - 1
    assert Milestone.FIRST_TRAIN in p.milestones


def test_coach_trains_two_steps_and_guru_three(engine):
    # rules: Train — a coach may train the same card two steps, a guru three
    game = working_turn(engine, work={E.COACH: 1, E.GURU: 1}, beach={E.MANAGEMENT_TRAINEE: 1})
    play(game, [PASS])
    legal = set(game.legal_actions())
    assert Action.train(E.COACH, E.MANAGEMENT_TRAINEE, E.VICE_PRESIDENT) in legal
    assert Action.train(E.COACH, E.MANAGEMENT_TRAINEE, E.SENIOR_VICE_PRESIDENT) not in legal
    assert Action.train(E.GURU, E.MANAGEMENT_TRAINEE, E.SENIOR_VICE_PRESIDENT) in legal
    assert Action.train(E.GURU, E.MANAGEMENT_TRAINEE, E.CFO) not in legal  # 4 steps


def test_a_card_trained_this_turn_cannot_be_trained_again_by_another_trainer(engine):
    # rules: Train — you may not train an employee you have just trained any further
    game = working_turn(engine, work={E.TRAINER: 2}, beach={E.MANAGEMENT_TRAINEE: 1})
    first = game.current_player
    play(game, [PASS, Action.train(E.TRAINER, E.MANAGEMENT_TRAINEE, E.JUNIOR_VICE_PRESIDENT)])
    # the second trainer has nothing left to train: the turn passes on
    assert game.pending.decision == Decision.RECRUIT and game.current_player != first
    assert full(game).players[first].beach[E.JUNIOR_VICE_PRESIDENT] == 1


def test_first_to_pay_20_lets_several_trainers_train_one_card(engine):
    # rules: First to pay $20 or more in salaries — multiple trainers on the same person
    game = working_turn(engine, work={E.TRAINER: 2}, beach={E.MANAGEMENT_TRAINEE: 1},
                        milestones={Milestone.FIRST_PAY_20_SALARIES})
    play(game, [PASS])
    legal = set(game.legal_actions())
    assert Action.train(POOLED, E.MANAGEMENT_TRAINEE, E.VICE_PRESIDENT) in legal  # 1 + 1 steps
    assert Action.train(E.TRAINER, E.MANAGEMENT_TRAINEE, E.JUNIOR_VICE_PRESIDENT) not in legal
    play(game, [Action.train(POOLED, E.MANAGEMENT_TRAINEE, E.JUNIOR_VICE_PRESIDENT)])
    assert Action.train(POOLED, E.JUNIOR_VICE_PRESIDENT, E.VICE_PRESIDENT) in game.legal_actions()


def test_only_the_final_card_must_be_available(engine):
    # rules: Train — intermediate cards do not have to be available
    game = working_turn(engine, work={E.COACH: 1}, beach={E.MANAGEMENT_TRAINEE: 1},
                        supply={E.JUNIOR_VICE_PRESIDENT: 0})
    play(game, [PASS])
    legal = set(game.legal_actions())
    assert Action.train(E.COACH, E.MANAGEMENT_TRAINEE, E.JUNIOR_VICE_PRESIDENT) not in legal
    assert Action.train(E.COACH, E.MANAGEMENT_TRAINEE, E.VICE_PRESIDENT) in legal


def test_one_copy_of_each_1x_card(engine):
    # rules: Train — you may only have one copy of each card marked 1x
    game = working_turn(engine, 4, work={E.TRAINER: 1}, beach={E.SENIOR_VICE_PRESIDENT: 1, E.CFO: 1})
    play(game, [PASS])
    assert Action.train(E.TRAINER, E.SENIOR_VICE_PRESIDENT, E.CFO) not in game.legal_actions()
    assert Action.train(E.TRAINER, E.SENIOR_VICE_PRESIDENT, E.HR_DIRECTOR) in game.legal_actions()


def test_the_marketeer_of_an_eternal_campaign_still_counts_for_the_1x_limit(engine):
    # rules: Train — one copy of each 1x card; First billboard placed (the marketeer "will be
    # unavailable for the rest of the game", it is still the player's). With 4 players two brand
    # directors are in play: the second may not join a chain whose director runs an eternal radio.
    # The eternal radio's director is taken from the supply (the loader counts every card), so one
    # director is left in the pile: the training is refused by the 1x limit only.
    def trainable_with_an_eternal_director_of(owner_offset: int) -> bool:
        def eternal_radio(state):
            owner = (state.turn_order[0] + owner_offset) % 4
            # radio 1 on the empty square (4, 8) of this seed's map (tile D, its empty bottom rows)
            add_campaign(state, 1, owner, Good.BEER, row=4, col=8, remaining=1, eternal=True,
                         marketeer=E.BRAND_DIRECTOR)
            assert state.supply[E.BRAND_DIRECTOR] == 1
            assert int(state.owned_cards(owner)[E.BRAND_DIRECTOR]) == 1

        game = working_turn(engine, 4, work={E.TRAINER: 1}, beach={E.BRAND_MANAGER: 1}, prepare=eternal_radio)
        play(game, [PASS])
        return Action.train(E.TRAINER, E.BRAND_MANAGER, E.BRAND_DIRECTOR) in game.legal_actions()

    assert not trainable_with_an_eternal_director_of(0)
    assert trainable_with_an_eternal_director_of(1)  # another chain's director does not count


def test_a_phantom_may_not_be_trained_into_a_card_that_training_returned_this_turn(engine):
    # rules: Recruit (R15; official FAQ: "it would be incorrect to Train your Junior VP into a VP,
    # then Recruit a Phantom Trainee to Train into the returned Junior VP"). The trainee pile is
    # empty and one new business developer is left, so a phantom trainee may be hired. Training
    # the junior VP into a VP returns a junior VP to the stock; the phantom still may become
    # only the new business developer, never that returned junior VP.
    game = working_turn(engine, work={E.TRAINER: 2}, beach={E.JUNIOR_VICE_PRESIDENT: 1},
                        supply={E.MANAGEMENT_TRAINEE: 0, E.JUNIOR_VICE_PRESIDENT: 0,
                                E.NEW_BUSINESS_DEVELOPER: 1, E.LUXURIES_MANAGER: 0})
    play(game, [Action.recruit(E.MANAGEMENT_TRAINEE)])
    assert game.pending.decision == Decision.TRAIN
    play(game, [Action.train(E.TRAINER, E.JUNIOR_VICE_PRESIDENT, E.VICE_PRESIDENT)])
    assert full(game).supply[E.JUNIOR_VICE_PRESIDENT] == 1  # returned by that training
    assert game.legal_actions() == [Action.train(E.TRAINER, E.MANAGEMENT_TRAINEE, E.NEW_BUSINESS_DEVELOPER)]


def test_no_cfo_after_first_to_have_100(engine):
    # C27: no CFO may be trained after First to have $100
    game = working_turn(engine, work={E.TRAINER: 1}, beach={E.SENIOR_VICE_PRESIDENT: 1},
                        milestones={Milestone.FIRST_HAVE_100})
    play(game, [PASS])
    assert Action.train(E.TRAINER, E.SENIOR_VICE_PRESIDENT, E.CFO) not in game.legal_actions()


def test_empty_pile_may_be_hired_only_if_trained_at_once(engine):
    # rules: Recruit — an empty deck may be hired if immediately trained; R15
    game = working_turn(engine, work={E.TRAINER: 1}, supply={E.ERRAND_BOY: 0})
    first = game.current_player
    assert Action.recruit(E.ERRAND_BOY) in game.legal_actions()
    carts = int(full(game).supply[E.CART_OPERATOR])
    play(game, [Action.recruit(E.ERRAND_BOY)])
    assert game.pending.decision == Decision.TRAIN
    assert game.legal_actions() == [Action.train(E.TRAINER, E.ERRAND_BOY, E.CART_OPERATOR)]  # no pass
    play(game, [Action.train(E.TRAINER, E.ERRAND_BOY, E.CART_OPERATOR)])
    state = full(game)
    p = state.players[first]
    assert p.beach[E.CART_OPERATOR] == 1 and p.beach[E.ERRAND_BOY] == 0
    assert state.supply[E.ERRAND_BOY] == 0  # the phantom never returns to the pile
    assert state.supply[E.CART_OPERATOR] == carts - 1
    # without a trainer the empty pile can not be hired
    game2 = working_turn(engine, supply={E.ERRAND_BOY: 0})
    assert Action.recruit(E.ERRAND_BOY) not in game2.legal_actions()


def test_unused_recruiting_manager_actions_become_salary_discounts(engine):
    # rules: Recruit / Payday; R40 — hires beyond CEO + recruiting girls use up discounts: the
    # recruiting manager's 2 hires unused = 2 discounts; one of them used = 1
    game = working_turn(engine, work={E.RECRUITING_MANAGER: 1})
    first = game.current_player
    assert me(game).recruit_discounts == 0
    play(game, [Action.recruit(E.WAITRESS), PASS])  # the CEO's hire, then done
    assert full(game).players[first].recruit_discounts == 2
    game = working_turn(engine, work={E.RECRUITING_MANAGER: 1})
    play(game, [Action.recruit(E.WAITRESS), Action.recruit(E.WAITRESS), PASS])
    assert full(game).players[first].recruit_discounts == 1
