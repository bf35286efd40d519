"""The heuristic cannot peek: its choices do not depend on what its seat may not see (D50-D52, C26).

It reads the engine through ``Game.seat_view``; these tests give it pairs of games that differ only
in other players' hidden facts (a kept reserve card, a face-down structure, secret firing marks) and
ask for the same move.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from fcm_agents.heuristic import HeuristicAgent
from fcm_env.engine.game import Game
from fcm_env.engine.hidden.visibility import hidden_from
from fcm_env.engine.invariants.random_sim import pick


def _positions(num_players: int, seed: int):
    """Positions of a game half heuristic, half random, where another player's facts are hidden."""
    game = Game.new(num_players, seed=seed, max_rounds=7)
    rng = random.Random(seed)
    agent = HeuristicAgent(seed=seed)
    while not game.is_over:
        player = game.current_player
        if hidden_from(game.state, player).players():
            yield game
        game.apply(agent.act_on_game(game, player) if rng.random() < 0.7 else pick(rng, game.legal_actions()))


def _peek(game: Game, player: int) -> tuple:
    """What a peeking agent would read: the other players' reserve cards, cards at work and firing marks."""
    return tuple((q.reserve, q.work.tobytes(), q.fired.tobytes()) for q in game.state.players if q.player != player)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_the_heuristic_plays_the_same_whatever_the_hidden_facts(num_players):
    checked = kinds = peeked = 0
    seen = set()
    for index, game in enumerate(_positions(num_players, seed=30 + num_players)):
        player = game.current_player
        hidden = hidden_from(game.state, player)
        # another truth: the hidden facts redrawn (a world differs from the real game in hidden facts only)
        other = game.determinize(player, np.random.default_rng(index))
        assert HeuristicAgent(seed=1).act_on_game(other, player) == HeuristicAgent(seed=1).act_on_game(game, player)
        # the pairs do differ where it matters: a reader of the real state would see the difference
        peeked += _peek(other, player) != _peek(game, player)
        assert _peek(other.seat_view(player), player) == _peek(game.seat_view(player), player)
        checked += 1
        seen.update(name for name, players in zip(hidden._fields, hidden, strict=True) if players)
        kinds = len(seen)
    assert checked > 50 and kinds >= 2 and peeked > 10, (seen, peeked)


def test_a_seat_view_shows_only_what_the_seat_may_know_and_refuses_moves():
    game = Game.new(3, seed=2)
    rng = random.Random(2)
    while game.state.round < 2 or game.state.structure_revealed:
        game.apply(pick(rng, game.legal_actions()))
    me = game.current_player
    view = game.seat_view(me)
    for p in range(3):
        real, seen = game.state.players[p], view.state.players[p]
        if p == me:
            assert seen.reserve == real.reserve and (seen.work == real.work).all()
        else:
            assert seen.reserve is None  # rules: Setting goals — kept face down
            assert (seen.hand + seen.work == real.hand + real.work).all() and seen.work.sum() == real.work[0]
    assert view.legal_actions() == game.legal_actions()
    with pytest.raises(TypeError, match="read-only"):
        view.apply(view.legal_actions()[0])
    twin = view.clone()  # a playable game of the seat's knowledge
    twin.apply(twin.legal_actions()[0])
    assert game.current_player == me and game.to_dict() != twin.to_dict()


def test_the_heuristic_model_redraws_hidden_choices_as_the_heuristic_would():
    from fcm_agents.heuristic import HeuristicHiddenModel
    from fcm_env.engine.state import Phase

    model = HeuristicHiddenModel()
    redrawn = 0
    for index, game in enumerate(_positions(3, seed=8)):
        player = game.current_player
        world = game.determinize(player, np.random.default_rng(index), model)
        again = game.determinize(player, np.random.default_rng(index + 1), model)
        assert world.to_dict() == again.to_dict()  # the heuristic's rule draws nothing at random
        for q in hidden_from(game.state, player).reserves:
            assert world.state.players[q].reserve == 200  # rules: Setting goals — the heuristic keeps $200
        if game.state.phase in (Phase.RESTRUCTURING, Phase.PAYDAY):
            redrawn += 1
    assert redrawn > 3
