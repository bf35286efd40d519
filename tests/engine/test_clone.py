"""``Game.clone``: independent, complete, and bit for bit the same game (design: Search support).

The random-simulation harness (tests/test_random_games.py) checks clones at random points
of whole 2-5 player games; these tests pin the properties down on chosen positions.
"""

from __future__ import annotations

import copy
import random

import pytest

from fcm_env.engine.game import Game
from fcm_env.engine.invariants.clones import shared_mutables
from fcm_env.engine.invariants.random_sim import pick


def _positions(num_players: int, seed: int, every: int = 5, limit: int = 5000):
    """Positions of one random game (every ``every``-th decision), with the action taken there."""
    rng = random.Random(seed)
    game = Game.new(num_players, seed=seed, max_rounds=12)
    for step in range(limit):
        if game.is_over:
            return
        action = pick(rng, game.legal_actions())
        if step % every == 0:
            yield game, action
        game.apply(action)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_a_clone_shares_nothing_mutable_and_plays_on_alone(num_players):
    checked = 0
    for game, action in _positions(num_players, seed=num_players):
        before = game.to_dict()
        twin = game.clone()
        assert shared_mutables(game.state, twin.state) == []
        assert twin.to_dict() == before
        twin.apply(action)
        assert game.to_dict() == before  # the original did not move
        game_after = game.clone()
        game_after.apply(action)
        assert game_after.to_dict() == twin.to_dict()  # and the clone moved as the original would
        checked += 1
    assert checked > 10


def test_the_shared_object_check_names_what_is_shared():
    game = Game.new(3, seed=1)
    twin = game.clone()
    twin.state.players[1].hand = game.state.players[1].hand
    twin.state.houses[next(iter(twin.state.houses))] = next(iter(game.state.houses.values()))
    found = shared_mutables(game.state, twin.state)
    assert "state.players[1].hand" in found
    assert any(path.startswith("state.houses[") for path in found)
    assert shared_mutables(game.state, copy.deepcopy(game.state)) == []


def test_a_clone_continues_a_whole_game_identically():
    rng = random.Random(7)
    game = Game.new(4, seed=7, max_rounds=6)
    while game.state.round < 3:
        game.apply(pick(rng, game.legal_actions()))
    twin = game.clone()
    rng_a, rng_b = random.Random(3), random.Random(3)
    while not game.is_over:
        game.apply(pick(rng_a, game.legal_actions()))
        twin.apply(pick(rng_b, twin.legal_actions()))
    assert twin.to_dict() == game.to_dict() and twin.winners == game.winners


def test_a_clone_keeps_its_own_history_and_event_log():
    game = Game.new(2, seed=4)
    game.history = []
    game.record_events()
    game.apply(game.legal_actions()[0])
    twin = game.clone()
    twin.apply(twin.legal_actions()[0])
    assert len(game.history) == 1 and len(twin.history) == 2
    assert len(twin.events) > len(game.events)
