"""Phase 1 Restructuring and phase 2 Order of Business.

Every scenario runs on both engines (the ``engine`` fixture): round 2's Restructuring is opened on a Python
position (``on_engine_working.round_two``: every player with the given hand) and loaded on the engine under
test, which offers the cards that fit the company structure (D10: the mask never lets a player overfill),
skips a player with nothing left to put to work (D53), reveals the structures and orders the next turn; the
outcome is read back whole (``full``). What fits (the structure rules) is seen in the cards offered and the
cards that reach work; the open slots in the order the players choose their turn-order spots."""

from __future__ import annotations

import pytest
from builders import play_setup
from on_engine import full, play, settle
from on_engine_working import round_two

from fcm_env.data import EmployeeType as E
from fcm_env.data import Milestone
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.game import Game
from fcm_env.engine.state import Phase
from fcm_env.engines import new_game

PASS = Action.pass_()


def put(*types):
    return [Action.put_to_work(t) for t in types]


def structure_of(engine, hand, *, ceo_slots=None):
    """The first seat's hand ``hand`` in round 2's Restructuring on ``engine`` (3 players; the others hold a
    waitress each and pass): the game at the first seat's decision."""
    game = round_two(engine, 3, hands={0: hand}, ceo_slots=ceo_slots)
    assert game.pending.decision == Decision.RESTRUCTURE
    return game


def revealed(game, player):
    """Everybody else passes; the first seat's cards at work and on the beach once revealed."""
    while game.pending.decision == Decision.RESTRUCTURE:
        play(game, [PASS])
    state = full(game)
    assert state.structure_revealed and state.phase == Phase.ORDER_OF_BUSINESS
    return state.players[player]


def test_ceo_holds_three_cards_but_not_four(engine):
    # rules: Phase 1 — the CEO has 3 slots: 3 waitresses fit, a 4th does not (it is not offered, and
    # with nothing left that fits the player is done without being asked, D53); it goes to the beach
    game = structure_of(engine, {E.WAITRESS: 4})
    me = game.current_player
    for _ in range(3):
        assert game.legal_actions() == [PASS, Action.put_to_work(E.WAITRESS)] and game.current_player == me
        play(game, put(E.WAITRESS))
    assert game.current_player != me
    p = revealed(game, me)
    assert p.work[E.WAITRESS] == 3 and p.beach[E.WAITRESS] == 1


def test_managers_hold_staff_under_the_ceo(engine):
    # rules: Phase 1 — management trainee (2 slots) under the CEO: 1 manager + 4 staff fit 3 + 2
    # slots; a 5th waitress does not
    game = structure_of(engine, {E.MANAGEMENT_TRAINEE: 1, E.WAITRESS: 5})
    me = game.current_player
    play(game, put(E.MANAGEMENT_TRAINEE))
    for _ in range(4):
        assert game.legal_actions() == [PASS, Action.put_to_work(E.WAITRESS)] and game.current_player == me
        play(game, put(E.WAITRESS))
    assert game.current_player != me
    p = revealed(game, me)
    assert p.work[E.MANAGEMENT_TRAINEE] == 1 and p.work[E.WAITRESS] == 4 and p.beach[E.WAITRESS] == 1


@pytest.mark.parametrize(("ceo_slots", "fit"), [(3, 3), (4, 4), (2, 2)])
def test_managers_only_report_to_the_ceo(engine, ceo_slots, fit):
    # rules: Phase 1 — cards under a manager can not be managers (R09): with C CEO slots only C
    # management trainees fit, however many manager slots they bring (3 slots: 3 of 4; with 4 slots
    # from the reserve cards all 4; with 2 slots, 2)
    game = structure_of(engine, {E.MANAGEMENT_TRAINEE: 4}, ceo_slots=ceo_slots)
    me = game.current_player
    for _ in range(fit):
        assert game.legal_actions() == [PASS, Action.put_to_work(E.MANAGEMENT_TRAINEE)]
        assert game.current_player == me
        play(game, put(E.MANAGEMENT_TRAINEE))
    assert game.current_player != me or game.pending.decision != Decision.RESTRUCTURE
    p = revealed(game, me)
    assert p.work[E.MANAGEMENT_TRAINEE] == fit and p.beach[E.MANAGEMENT_TRAINEE] == 4 - fit


W, JVP = E.WAITRESS, E.JUNIOR_VICE_PRESIDENT


@pytest.mark.parametrize(("hands", "queue"), [
    # JVP (3 slots) + 2 waitresses under a 3-slot CEO: 3 + 3 - 3 cards = 3 open. The last seat plays
    # them; seat 0 plays nothing (3 open), seat 1 one waitress (2 open). 3 ties seat 0 (earlier: first)
    # and beats seat 1: [0, 2, 1]; 4 open would give [2, 0, 1], 2 open [0, 1, 2].
    ({0: (), 1: (W,), 2: (JVP, W, W)}, [0, 2, 1]),
    # 3 waitresses under the CEO: 0 open. Seat 0 plays them, seat 1 two waitresses (1 open), seat 2
    # nothing (3 open): [2, 1, 0]; 1 open would tie seat 1 and come first of the two: [2, 0, 1].
    ({0: (W, W, W), 1: (W, W), 2: ()}, [2, 1, 0]),
])
def test_open_slots_count_ceo_and_manager_slots_not_used(engine, hands, queue):
    # rules: Phase 2 — most open slots chooses first, ties by the previous turn order (R11). Each
    # seat holds the cards it plays, in the turn order; an empty hand is not asked (D53) and a hand
    # played out is done without being asked.
    held = {seat: {t: cards.count(t) for t in cards} for seat, cards in hands.items()}
    game = round_two(engine, 3, hands=held)
    old = list(game.state.turn_order)
    for seat, cards in hands.items():
        if cards:
            assert game.pending.decision == Decision.RESTRUCTURE and game.current_player == old[seat]
            play(game, put(*cards))
    assert game.pending.decision == Decision.TURN_ORDER
    assert full(game).queue == [old[s] for s in queue]


def test_first_turn_plays_only_the_ceo_and_everyone_has_three_open_slots(engine):
    # rules: Phase 1 — in the first turn the CEO is the only card played
    game = new_game(engine, 3, seed=1)
    play_setup(game)
    assert game.phase == Phase.ORDER_OF_BUSINESS
    # all tie at 3 open slots: they choose in the previous (initial) turn order
    state = full(game)
    assert state.queue == state.turn_order
    assert all(int(p.work.sum()) == 1 for p in state.players)


def test_restructuring_offers_only_cards_in_hand_that_keep_the_structure_feasible(engine):
    # rules: Phase 1; D10 — the mask never lets a player overfill
    game = round_two(engine, hands={0: {E.WAITRESS: 4, E.MANAGEMENT_TRAINEE: 1}})
    assert game.pending.decision == Decision.RESTRUCTURE
    assert set(game.legal_actions()) == {PASS, Action.put_to_work(E.WAITRESS), Action.put_to_work(E.MANAGEMENT_TRAINEE)}
    play(game, put(E.WAITRESS, E.WAITRESS, E.WAITRESS))
    # CEO full: a 4th waitress does not fit, but a management trainee (2 slots) does
    assert set(game.legal_actions()) == {PASS, Action.put_to_work(E.MANAGEMENT_TRAINEE)}
    play(game, put(E.MANAGEMENT_TRAINEE))
    assert Action.put_to_work(E.WAITRESS) in game.legal_actions()
    me_before = game.pending.player
    play(game, put(E.WAITRESS))
    # nothing more fits: the player is done without being asked (D53)
    assert game.pending.player != me_before or game.pending.decision != Decision.RESTRUCTURE


def test_structures_stay_hidden_until_all_chose_then_the_rest_goes_to_the_beach(engine):
    # rules: Phase 1 — chosen face down, opened simultaneously; other cards on the beach
    game = round_two(engine, hands={0: {E.WAITRESS: 2}})
    first = game.current_player
    play(game, put(E.WAITRESS) + [PASS])
    assert not full(game).structure_revealed
    p = revealed(game, first)
    assert p.work[E.WAITRESS] == 1 and p.beach[E.WAITRESS] == 1 and p.hand.sum() == 0
    # rules: First waitress played — claimed on reveal
    assert Milestone.FIRST_WAITRESS in p.milestones


def test_order_of_business_most_open_slots_first_ties_by_previous_order(engine):
    # rules: Phase 2; R11
    # seat 0 plays 2 waitresses (1 open), seat 1 nothing (3 open), seat 2 a JVP (3 + 3 - 1 = 5 open)
    game = round_two(engine, 3, hands={0: {E.WAITRESS: 2}, 2: {E.WAITRESS: 1, E.JUNIOR_VICE_PRESIDENT: 1}})
    old = list(game.state.turn_order)
    play(game, put(E.WAITRESS, E.WAITRESS))  # hand empty: done without asking (D53)
    play(game, [PASS])  # seat 1 keeps its waitress in hand
    play(game, put(E.JUNIOR_VICE_PRESIDENT) + [PASS])
    assert game.pending.decision == Decision.TURN_ORDER
    assert full(game).queue == [old[2], old[1], old[0]]
    # R11: the first chooser may take any spot, e.g. the last
    play(game, [Action.turn_spot(2)])
    assert game.legal_actions() == [Action.turn_spot(0), Action.turn_spot(1)]
    play(game, [Action.turn_spot(0)])  # the last chooser is not asked: spot 1 is theirs
    assert list(game.state.turn_order) == [old[1], old[0], old[2]]


def test_first_airplane_campaign_counts_two_extra_open_slots(engine):
    # rules: First airplane campaign — +2 open slots when determining order of play
    game = round_two(engine, 2, hands={1: {E.WAITRESS: 2}}, milestones={1: {Milestone.FIRST_AIRPLANE}})
    old = list(game.state.turn_order)
    play(game, [PASS])  # seat 0: 3 open
    play(game, put(E.WAITRESS, E.WAITRESS))  # seat 1: 1 open + 2 = 3: tie, seat 0 was earlier
    assert full(game).queue == old
    game2 = round_two(engine, 2, milestones={1: {Milestone.FIRST_AIRPLANE}})
    old2 = list(game2.state.turn_order)
    play(game2, [PASS])
    play(game2, put(E.WAITRESS))  # 2 open + 2 = 4 > 3
    assert full(game2).queue == [old2[1], old2[0]]


def test_a_player_with_nothing_to_put_to_work_is_not_asked_and_the_last_chooser_gets_the_last_spot(engine):
    # D53: a RESTRUCTURE whose only action is "done" is skipped (hands are public before phase 1);
    # rules: Phase 2 — the last player to choose has one spot left and is not asked. Round 1 is
    # played to the end of Working 9-5 on Python; the engine under test runs phases 4-7 and round 2's
    # Restructuring itself.
    game = Game.new(2, seed=3)
    play_setup(game)
    while game.phase.name != "WORKING":  # round 1: the CEO alone; both pick a turn-order spot
        game.apply(game.legal_actions()[0])
    state = game.state
    second = state.turn_order[1]
    state.players[second].hand[E.WAITRESS] += 1  # a waitress in hand: the only player with a card to play
    state.supply[E.WAITRESS] -= 1
    state.pending, state.queue = [], []  # Working 9-5 is over
    game = settle(engine, state)
    assert full(game).round == 2
    assert game.pending.decision == Decision.RESTRUCTURE and game.pending.player == second
    assert game.legal_actions() == [PASS, Action.put_to_work(E.WAITRESS)]
    play(game, put(E.WAITRESS))  # the hand is empty now: done without being asked
    assert game.pending.decision == Decision.TURN_ORDER
    chooser = game.pending.player
    play(game, [game.legal_actions()[-1]])  # takes the last spot; the other player is not asked
    assert game.phase.name == "WORKING"
    assert game.state.turn_order[-1] == chooser
