"""Phase 1 Restructuring and phase 2 Order of Business."""

from __future__ import annotations

from builders import play_setup

from fcm_env.data import EmployeeType as E
from fcm_env.data import Milestone
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.game import Game
from fcm_env.engine.phases import restructuring as structure
from fcm_env.engine.state import Phase, card_vector


def cards(**counts):
    vec = card_vector()
    vec[E.CEO] = 1
    for name, n in counts.items():
        vec[E[name.upper()]] = n
    return vec


def test_ceo_holds_three_cards_but_not_four():
    # rules: Phase 1 — the CEO has 3 slots
    assert structure.is_feasible(cards(waitress=3), 3)
    assert not structure.is_feasible(cards(waitress=4), 3)


def test_managers_hold_staff_under_the_ceo():
    # rules: Phase 1 — management trainee (2 slots) under the CEO: 1 manager + 4 staff fit 3 + 2 slots
    assert structure.is_feasible(cards(management_trainee=1, waitress=4), 3)
    assert not structure.is_feasible(cards(management_trainee=1, waitress=5), 3)


def test_managers_only_report_to_the_ceo():
    # rules: Phase 1 — cards under a manager can not be managers (R09); 4 managers need 4 CEO slots
    assert not structure.is_feasible(cards(management_trainee=4), 3)
    assert structure.is_feasible(cards(management_trainee=4), 4)
    assert structure.is_feasible(cards(management_trainee=2), 2)


def test_open_slots_count_ceo_and_manager_slots_not_used():
    # rules: Phase 2 — JVP (3 slots) + 2 waitresses under a 3-slot CEO: 3 + 3 - 3 cards = 3 open
    assert structure.open_slots(cards(junior_vice_president=1, waitress=2), 3) == 3
    assert structure.open_slots(cards(), 3) == 3
    assert structure.open_slots(cards(waitress=3), 3) == 0


def _round_two(num_players=3, seed=0):
    game = Game.new(num_players, seed)
    play_setup(game)
    while game.phase == Phase.ORDER_OF_BUSINESS:  # round 1: choose spots in the offered order
        game.apply(game.legal_actions()[0])
    state = game.state
    state.round = 2
    for p in state.players:  # one card each, so that everyone is asked (D53 skips empty hands)
        p.hand[E.WAITRESS] += 1
        state.supply[E.WAITRESS] -= 1
    structure.start_restructuring(state)
    game._legal_cache = None
    return game


def test_first_turn_plays_only_the_ceo_and_everyone_has_three_open_slots():
    # rules: Phase 1 — in the first turn the CEO is the only card played
    game = Game.new(3, seed=1)
    play_setup(game)
    assert game.phase == Phase.ORDER_OF_BUSINESS
    # all tie at 3 open slots: they choose in the previous (initial) turn order
    assert game.state.queue == game.state.turn_order


def test_restructuring_offers_only_cards_in_hand_that_keep_the_structure_feasible():
    # rules: Phase 1; D10 — the mask never lets a player overfill
    game = _round_two()
    state = game.state
    me = game.current_player
    state.players[me].hand[E.WAITRESS] = 4
    state.players[me].hand[E.MANAGEMENT_TRAINEE] = 1
    game._legal_cache = None
    assert game.pending.decision == Decision.RESTRUCTURE
    assert set(game.legal_actions()) == {
        Action.pass_(), Action.put_to_work(E.WAITRESS), Action.put_to_work(E.MANAGEMENT_TRAINEE)}
    for _ in range(3):
        game.apply(Action.put_to_work(E.WAITRESS))
    # CEO full: a 4th waitress does not fit, but a management trainee (2 slots) does
    assert set(game.legal_actions()) == {Action.pass_(), Action.put_to_work(E.MANAGEMENT_TRAINEE)}
    game.apply(Action.put_to_work(E.MANAGEMENT_TRAINEE))
    assert Action.put_to_work(E.WAITRESS) in game.legal_actions()
    me_before = game.pending.player
    game.apply(Action.put_to_work(E.WAITRESS))
    # nothing more fits: the player is done without being asked (D53)
    assert game.pending.player != me_before or game.pending.decision != Decision.RESTRUCTURE


def test_structures_stay_hidden_until_all_chose_then_the_rest_goes_to_the_beach():
    # rules: Phase 1 — chosen face down, opened simultaneously; other cards on the beach
    game = _round_two()
    state = game.state
    first = game.current_player
    state.players[first].hand[E.WAITRESS] = 2
    game._legal_cache = None
    game.apply(Action.put_to_work(E.WAITRESS))
    game.apply(Action.pass_())
    assert not state.structure_revealed
    while game.pending.decision == Decision.RESTRUCTURE:
        game.apply(Action.pass_())
    assert state.structure_revealed
    p = state.players[first]
    assert p.work[E.WAITRESS] == 1 and p.beach[E.WAITRESS] == 1 and p.hand.sum() == 0
    # rules: First waitress played — claimed on reveal
    assert Milestone.FIRST_WAITRESS in p.milestones


def test_order_of_business_most_open_slots_first_ties_by_previous_order():
    # rules: Phase 2; R11
    game = _round_two(3)
    state = game.state
    old = list(state.turn_order)
    # seat 0 plays 2 waitresses (1 open), seat 1 nothing (3 open), seat 2 a JVP (3 + 3 - 1 = 5 open)
    state.players[old[0]].hand[E.WAITRESS] = 2
    state.players[old[2]].hand[E.JUNIOR_VICE_PRESIDENT] = 1
    game._legal_cache = None
    game.apply(Action.put_to_work(E.WAITRESS))
    game.apply(Action.put_to_work(E.WAITRESS))  # hand empty: done without asking (D53)
    game.apply(Action.pass_())  # seat 1 keeps its waitress in hand
    game.apply(Action.put_to_work(E.JUNIOR_VICE_PRESIDENT))
    game.apply(Action.pass_())
    assert game.pending.decision == Decision.TURN_ORDER
    assert state.queue == [old[2], old[1], old[0]]
    # R11: the first chooser may take any spot, e.g. the last
    game.apply(Action.turn_spot(2))
    assert game.legal_actions() == [Action.turn_spot(0), Action.turn_spot(1)]
    game.apply(Action.turn_spot(0))  # the last chooser is not asked: spot 1 is theirs
    assert state.turn_order == [old[1], old[0], old[2]]


def test_first_airplane_campaign_counts_two_extra_open_slots():
    # rules: First airplane campaign — +2 open slots when determining order of play
    game = _round_two(2)
    state = game.state
    old = list(state.turn_order)
    state.players[old[1]].milestones.add(Milestone.FIRST_AIRPLANE)
    state.players[old[1]].hand[E.WAITRESS] = 2
    game._legal_cache = None
    game.apply(Action.pass_())  # seat 0: 3 open
    game.apply(Action.put_to_work(E.WAITRESS))
    game.apply(Action.put_to_work(E.WAITRESS))  # seat 1: 1 open + 2 = 3: tie, seat 0 was earlier
    assert state.queue == old
    game2 = _round_two(2)
    old2 = list(game2.state.turn_order)
    game2.state.players[old2[1]].milestones.add(Milestone.FIRST_AIRPLANE)
    game2.state.players[old2[1]].hand[E.WAITRESS] = 1
    game2._legal_cache = None
    game2.apply(Action.pass_())
    game2.apply(Action.put_to_work(E.WAITRESS))  # 2 open + 2 = 4 > 3
    assert game2.state.queue == [old2[1], old2[0]]


def test_a_player_with_nothing_to_put_to_work_is_not_asked_and_the_last_chooser_gets_the_last_spot():
    # D53: a RESTRUCTURE whose only action is "done" is skipped (hands are public before phase 1);
    # rules: Phase 2 — the last player to choose has one spot left and is not asked.
    from builders import next_round, play_setup

    from fcm_env.engine.actions import Decision
    from fcm_env.engine.game import Game

    game = Game.new(2, seed=3)
    play_setup(game)
    while game.phase.name != "WORKING":  # round 1: the CEO alone; both pick a turn-order spot
        game.apply(game.legal_actions()[0])
    state = game.state
    second = state.turn_order[1]
    state.players[second].hand[6] += 1  # a waitress in hand: the only player with a card to play
    state.supply[6] -= 1
    state.pending = []
    next_round(game)
    assert game.pending.decision == Decision.RESTRUCTURE and game.pending.player == second
    assert game.legal_actions() == [Action.pass_(), Action.put_to_work(6)]
    game.apply(Action.put_to_work(6))  # the hand is empty now: done without being asked
    assert game.pending.decision == Decision.TURN_ORDER
    chooser = game.pending.player
    game.apply(game.legal_actions()[-1])  # takes the last spot; the other player is not asked
    assert game.phase.name == "WORKING"
    assert state.turn_order[-1] == chooser
