"""Phase 7 Clean-up: food thrown away, the freezer, cards home, restaurants open, next round.

Every scenario runs on both engines (the ``engine`` fixture): the position is built as a Python ``GameState``
in phase MARKETING with nothing pending (still to run: no campaign, or one that goes on), loaded on the engine
under test, which runs Marketing and Clean-up itself (``settle``), stopping at a FREEZER decision or at the next
round's first decision; the outcome is read back whole (``full``)."""

from __future__ import annotations

from late_builders import NEAR_2, TILE_1, add_campaign, add_restaurant, give, position, stock
from on_engine import full, play, settle

from fcm_env.data import EmployeeType as E
from fcm_env.data import Good, Milestone
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.state import Phase
from fcm_env.engines import new_game


def freezer_holder(state, player):
    """``player`` won "First to throw away" in an earlier turn."""
    state.players[player].milestones.add(Milestone.FIRST_THROW_AWAY)
    state.milestones_gone.add(Milestone.FIRST_THROW_AWAY)


def clean_up(engine, state):
    """``state`` on ``engine`` after its Marketing (phase 6) and the start of Clean-up (phase 7): at the first
    FREEZER decision, or, when nobody is asked, past Clean-up at the next round's first decision (or over)."""
    state.phase = Phase.MARKETING
    state.pending = []
    return settle(engine, state)


def cleaned(game):
    """The full position once Clean-up is over (no FREEZER decision left)."""
    assert game.pending is None or game.pending.decision != Decision.FREEZER, game.pending
    return full(game)


def test_food_and_drinks_are_thrown_away_and_the_first_to_do_so_gets_the_freezer(engine):
    # rules: Phase 7; First to throw away drink/food — nobody holds a freezer: nobody is asked
    state = position()
    stock(state, 0, burger=2, beer=1)
    state = cleaned(clean_up(engine, state))
    assert state.round == 3
    assert state.players[0].stock.sum() == 0
    assert Milestone.FIRST_THROW_AWAY in state.players[0].milestones
    assert Milestone.FIRST_THROW_AWAY not in state.players[1].milestones  # threw nothing away
    assert Milestone.FIRST_THROW_AWAY in state.milestones_gone  # closed at the end of the turn


def test_freezer_asks_at_any_stock_and_keeps_what_the_player_chooses(engine):
    # rules: First to throw away — "you may store up to 10 tokens": a choice at any stock (a
    # kept token can cost a later house its order). 6 burgers and 4 sodas: keep 2 burgers, done.
    state = position()
    freezer_holder(state, 0)
    stock(state, 0, burger=6, soda=4)
    stock(state, 1, pizza=1)
    game = clean_up(engine, state)
    assert game.pending.decision == Decision.FREEZER and game.pending.player == 0
    assert sorted(game.legal_actions()) == [Action.pass_(), Action.keep(Good.BURGER), Action.keep(Good.SODA)]
    play(game, [Action.keep(Good.BURGER), Action.keep(Good.BURGER), Action.pass_()])
    state = cleaned(game)
    assert state.round == 3
    assert state.players[0].stock.tolist() == [2, 0, 0, 0, 0]
    assert state.players[1].stock.sum() == 0


def test_freezer_choice_ends_by_itself_once_everything_is_kept(engine):
    # rules: First to throw away — keeping the whole stock (3 tokens) leaves nothing to decide
    state = position()
    freezer_holder(state, 0)
    stock(state, 0, burger=2, beer=1)
    game = clean_up(engine, state)
    play(game, [Action.keep(Good.BEER), Action.keep(Good.BURGER)])
    assert game.pending.decision == Decision.FREEZER and game.pending.context == (1, 0, 1, 0, 0)
    play(game, [Action.keep(Good.BURGER)])
    state = cleaned(game)
    assert state.round == 3 and state.players[0].stock.tolist() == [2, 0, 1, 0, 0]


def test_freezer_holder_without_stock_is_not_asked(engine):
    state = position()
    freezer_holder(state, 0)
    game = clean_up(engine, state)
    assert cleaned(game).round == 3


def test_freezer_with_more_than_ten_asks_one_token_at_a_time(engine):
    # rules: First to throw away — "freely choose which ones to keep and which ones to discard"
    state = position(order=[1, 0])
    freezer_holder(state, 0)
    stock(state, 0, burger=8, beer=5)
    game = clean_up(engine, state)
    assert game.pending.decision == Decision.FREEZER and game.pending.player == 0
    assert sorted(game.legal_actions()) == [Action.pass_(), Action.keep(Good.BURGER), Action.keep(Good.BEER)]
    play(game, [Action.keep(Good.BEER)] * 5)
    assert Action.keep(Good.BEER) not in game.legal_actions()  # all 5 kept
    play(game, [Action.keep(Good.BURGER), Action.pass_()])
    state = cleaned(game)
    assert state.round == 3
    assert state.players[0].stock.tolist() == [1, 0, 5, 0, 0]


def test_freezer_choice_stops_at_ten(engine):
    state = position()
    freezer_holder(state, 0)
    stock(state, 0, burger=12)
    game = clean_up(engine, state)
    play(game, [Action.keep(Good.BURGER)] * 9)
    assert game.pending.decision == Decision.FREEZER and game.pending.context == (9, 0, 0, 0, 0)
    play(game, [Action.keep(Good.BURGER)])
    state = cleaned(game)
    assert state.round == 3 and state.players[0].stock.tolist() == [10, 0, 0, 0, 0]


def test_freezer_won_this_turn_stores_nothing_yet(engine):
    # rules: "You may not yet store anything in the freezer in the turn in which you receive this milestone"
    state = position()
    stock(state, 0, burger=2)
    stock(state, 1, beer=1)
    state = cleaned(clean_up(engine, state))
    assert state.players[0].stock.sum() == 0 and state.players[1].stock.sum() == 0
    assert Milestone.FIRST_THROW_AWAY in state.players[0].milestones
    assert Milestone.FIRST_THROW_AWAY in state.players[1].milestones  # same turn: both (C29)


def test_cards_go_back_to_hand_and_the_ceo_stays_at_work(engine):
    # rules: Phase 7 — structure and beach back into hand; a busy marketeer stays with its campaign
    # (2 runs left: Marketing runs it once, it stays)
    state = position()
    give(state, 0, "work", waitress=2, trainer=1)
    give(state, 0, "beach", burger_cook=1)
    add_campaign(state, 13, 0, Good.BURGER, row=5, col=3, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
    game = clean_up(engine, state)
    state = cleaned(game)
    p = state.players[0]
    assert state.round == 3 and game.pending.decision == Decision.RESTRUCTURE  # the hand is still to play
    assert p.work[E.CEO] == 1 and p.work.sum() == 1
    assert p.beach.sum() == 0
    assert p.hand[E.WAITRESS] == 2 and p.hand[E.TRAINER] == 1 and p.hand[E.BURGER_COOK] == 1
    assert p.hand[E.CEO] == 0 and p.busy[E.CAMPAIGN_MANAGER] == 1 and p.hand[E.CAMPAIGN_MANAGER] == 0


def test_coming_soon_restaurants_open_and_turn_fields_reset(engine):
    # rules: Phase 7 — "COMING SOON" turns to "WELCOME"
    state = position()
    add_restaurant(state, 0, NEAR_2, coming_soon=True)
    add_restaurant(state, 1, TILE_1)
    p = state.players[0]
    p.recruit_discounts, p.income = 2, 40
    state.turn.hires = 3
    game = clean_up(engine, state)
    state = cleaned(game)
    p = state.players[0]
    assert state.round == 3 and game.pending.decision == Decision.TURN_ORDER  # Working 9-5 not begun
    assert [r.coming_soon for r in p.restaurants] == [False]
    assert p.recruit_discounts == 0 and p.income == 0 and state.turn.hires == 0


def test_milestones_of_this_turn_close_and_the_next_round_starts(engine):
    # rules: Phase 7 (milestones claimed this turn are gone for the others, C29); next turn starts with phase 1
    state = position()
    give(state, 0, "beach", WAITRESS=1)  # back in hand at Clean-up: player 0 has a card to play
    state.players[1].milestones.add(Milestone.FIRST_WAITRESS)
    state.milestones_this_turn.add(Milestone.FIRST_WAITRESS)
    game = clean_up(engine, state)
    state = cleaned(game)
    assert state.milestones_gone == {Milestone.FIRST_WAITRESS} and state.milestones_this_turn == set()
    assert state.round == 3 and state.phase == Phase.RESTRUCTURING
    assert game.pending.decision == Decision.RESTRUCTURE and game.pending.player == 0


def test_bankrupt_player_leaves_the_turn_order_and_keeps_its_restaurants(engine):
    # rules: C21 — out at the end of the turn; restaurants stay on the board
    state = position(3, order=[2, 0, 1])
    add_restaurant(state, 0, (0, 0, 0))
    state.players[0].bankrupt = True
    stock(state, 0, burger=3)
    game = clean_up(engine, state)
    state = cleaned(game)
    assert state.turn_order == [2, 1] and game.state.turn_order == [2, 1]
    assert len(state.players[0].restaurants) == 1
    assert state.players[0].stock.sum() == 0
    assert [p.player for p in state.players] == [0, 1, 2]


def test_a_chain_bankrupt_this_turn_throws_away_and_claims_first_to_throw_away(engine):
    # rules: Phase 7; First to throw away ("awarded when you throw away at least one food or drink
    # token in phase 7"); C21 (out at the end of the turn), C29; D33, D43 — player 0 went bankrupt
    # in this turn's Dinnertime but is in the game until Clean-up ends: its 2 burgers are thrown
    # away and it claims the milestone, as player 2 does with its beer; then it leaves the turn
    # order, and the milestone is gone for player 1.
    state = position(3, order=[2, 0, 1])
    state.players[0].bankrupt = True
    stock(state, 0, burger=2)
    stock(state, 2, beer=1)
    state = cleaned(clean_up(engine, state))  # nobody was asked
    assert [state.players[p].stock.sum() for p in range(3)] == [0, 0, 0]
    assert Milestone.FIRST_THROW_AWAY in state.players[0].milestones
    assert Milestone.FIRST_THROW_AWAY in state.players[2].milestones
    assert Milestone.FIRST_THROW_AWAY not in state.players[1].milestones
    assert state.milestones_gone == {Milestone.FIRST_THROW_AWAY}
    assert state.turn_order == [2, 1]


def test_a_chain_bankrupt_this_turn_with_a_freezer_is_not_asked_and_throws_everything_away(engine):
    # rules: First to throw away (the freezer keeps tokens for "subsequent turns"); C21; D43 — a
    # chain bankrupt this turn has no later turn to sell a kept token in, so it is not asked: its
    # 3 pizzas go, and player 1, who threw nothing away, claims nothing.
    state = position()
    freezer_holder(state, 0)
    state.players[0].bankrupt = True
    stock(state, 0, pizza=3)
    state = cleaned(clean_up(engine, state))
    assert state.players[0].stock.sum() == 0
    assert state.milestones_gone == {Milestone.FIRST_THROW_AWAY} and state.milestones_this_turn == set()
    assert Milestone.FIRST_THROW_AWAY not in state.players[1].milestones
    assert state.turn_order == [1]


def test_the_game_is_cut_off_after_max_rounds(engine):
    # D44: past max_rounds the game ends, marked truncated
    state = position()
    state.max_rounds = 2
    game = clean_up(engine, state)
    assert game.pending is None and game.is_over and game.state.truncated
    state = full(game)
    assert state.phase == Phase.GAME_OVER and state.truncated and state.pending == []


def test_without_a_round_cap_only_the_rules_end_the_game(engine):
    # rules: End of the game (the bank breaks a second time) — a round limit is not a rule:
    # a new game has none, so round 40's Clean-up simply starts round 41
    assert new_game(engine, 2, seed=4).state.max_rounds is None
    state = position()
    state.max_rounds = None
    state.round = 40
    game = clean_up(engine, state)
    state = cleaned(game)
    assert state.round == 41 and not state.truncated and state.phase != Phase.GAME_OVER
    assert not game.is_over and game.pending is not None


def test_nobody_left_ends_the_game(engine):
    # D45: every active chain went bankrupt in the same turn
    state = position()
    for p in state.players:
        p.bankrupt = True
    game = clean_up(engine, state)
    assert game.pending is None and game.is_over
    state = full(game)
    assert state.phase == Phase.GAME_OVER and state.turn_order == [0, 1] and not state.truncated
