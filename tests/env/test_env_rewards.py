"""End-of-game rewards from hand-made final positions: standings, the three schemes, zero sums."""

from __future__ import annotations

import pytest

from fcm_env.engine.game import Game
from fcm_env.engine.state import Phase
from fcm_env.env.rewards import final_rewards, standings


def _final(cash: list[int], order: list[int], bankrupt: tuple[int, ...] = ()) -> Game:
    game = Game.new(len(cash), 0)
    state = game.state
    state.phase = Phase.GAME_OVER
    state.pending = []
    state.turn_order = list(order)
    for p, c in enumerate(cash):
        state.players[p].cash = c
        state.players[p].bankrupt = p in bankrupt
    return game


def test_standings_rank_by_cash_and_break_ties_by_seat():
    # rules: C23; players 1 and 2 tie at $50, player 2 sits first in the turn order
    game = _final([30, 50, 50, 10], order=[2, 0, 1, 3])
    assert standings(game.state) == [2, 1, 0, 3]
    assert game.winners == (2,)


def test_hand_checked_rewards_of_each_scheme():
    game = _final([30, 50, 50, 10], order=[2, 0, 1, 3])
    assert final_rewards(game.state, "win").tolist() == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])
    assert final_rewards(game.state, "rank").tolist() == pytest.approx([-1 / 3, 1 / 3, 1.0, -1.0])
    # total cash 140
    assert final_rewards(game.state, "cash_share").tolist() == pytest.approx(
        [30 / 140 - 0.25, 50 / 140 - 0.25, 50 / 140 - 0.25, 10 / 140 - 0.25])


@pytest.mark.parametrize("scheme", ["win", "rank", "cash_share"])
@pytest.mark.parametrize("cash", [[7, 3], [0, 5, 9], [12, 12, 12, 1, 40], [1, 2, 3, 4]])
def test_every_scheme_is_zero_sum(scheme, cash):
    game = _final(cash, order=list(range(len(cash)))[::-1])
    assert final_rewards(game.state, scheme).sum() == pytest.approx(0.0, abs=1e-12)


def test_two_players_win_and_rank_agree():
    game = _final([5, 9], order=[0, 1])
    assert final_rewards(game.state, "win").tolist() == [-1.0, 1.0]
    assert final_rewards(game.state, "rank").tolist() == [-1.0, 1.0]


def test_cash_share_is_zero_when_nobody_has_cash():
    game = _final([0, 0, 0], order=[1, 0, 2])
    assert final_rewards(game.state, "cash_share").tolist() == [0.0, 0.0, 0.0]
    assert final_rewards(game.state, "win").tolist() == [-0.5, 1.0, -0.5]  # the tie goes to seat 0


def test_bankrupt_and_eliminated_chains_rank_last():
    # rules: C21, D45. Player 3 left the turn order in an earlier turn; player 0 went bankrupt
    # in the last turn (still in the order) and cannot win even with the most cash.
    game = _final([90, 20, 40, 70], order=[0, 1, 2], bankrupt=(0, 3))
    assert game.winners == (2,)
    assert standings(game.state) == [2, 1, 0, 3]
    assert final_rewards(game.state, "rank").tolist() == pytest.approx([-1 / 3, 1 / 3, 1.0, -1.0])
    assert final_rewards(game.state, "win").tolist() == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])


def test_when_every_chain_went_bankrupt_the_usual_rule_picks_the_winner():
    # D45: all bankrupt in the same turn: the turn order stays, most cash wins, ties to the earlier seat
    game = _final([10, 30, 30], order=[2, 1, 0], bankrupt=(0, 1, 2))
    assert game.winners == (2,)
    assert standings(game.state) == [2, 1, 0]


def test_unknown_scheme_is_refused():
    with pytest.raises(ValueError, match="reward must be one of"):
        final_rewards(_final([1, 2], order=[0, 1]).state, "score")


def test_cash_lead_potential_is_cash_minus_the_mean_of_the_others():
    from fcm_env.env.rewards import shaping_potential

    game = _final([30, 50, 50, 10], order=[2, 0, 1, 3])
    # player 0: 30 - (50 + 50 + 10) / 3 = -6.67; player 3: 10 - 130 / 3 = -33.33
    lead = shaping_potential(game.state, "cash_lead")
    assert lead.tolist() == pytest.approx([30 - 110 / 3, 50 - 90 / 3, 50 - 90 / 3, 10 - 130 / 3])
    assert lead.sum() == pytest.approx(0.0)  # zero-sum
    assert shaping_potential(game.state, "cash").tolist() == [30, 50, 50, 10]
    with pytest.raises(ValueError, match="shaping"):
        shaping_potential(game.state, "money")
