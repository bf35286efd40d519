"""``clone``: independent, complete, and bit for bit the same game (design: Search support).

``clone`` is on both engines' face (``fcm_env.engines.GameLike``): the scenarios play a seeded random game on
the engine under test (the ``engine`` fixture) and clone it there. The random-simulation harness
(tests/test_random_games.py) checks clones at random points of whole 2-5 player games; these tests pin the
properties down on chosen positions.
"""

from __future__ import annotations

import copy
import random

import pytest

from fcm_env.engine.game import Game
from fcm_env.engine.invariants.clones import shared_mutables
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engines import new_game


def _positions(engine: str, num_players: int, seed: int, every: int = 5, limit: int = 5000):
    """Positions of one random game on ``engine`` (every ``every``-th decision), with the action taken there."""
    rng = random.Random(seed)
    game = new_game(engine, num_players, seed, max_rounds=12)
    for step in range(limit):
        if game.is_over:
            return
        action = pick(rng, game.legal_actions())
        if step % every == 0:
            yield game, action
        game.apply(action)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_a_clone_is_the_same_game_and_plays_on_alone(engine, num_players):
    checked = 0
    for game, action in _positions(engine, num_players, seed=num_players):
        before = game.to_dict()
        twin = game.clone()
        assert twin.to_dict() == before and twin.legal_actions() == game.legal_actions()
        twin.apply(action)
        assert game.to_dict() == before  # the original did not move
        game_after = game.clone()
        game_after.apply(action)
        assert game_after.to_dict() == twin.to_dict()  # and the clone moved as the original would
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_a_python_clone_shares_no_mutable_object(num_players):
    # python-only: which Python objects two states share (``shared_mutables`` walks the dataclasses); a
    # native clone is a copy of the core's state, checked for independence by the test above
    checked = 0
    for game, _ in _positions("python", num_players, seed=num_players):
        assert shared_mutables(game.state, game.clone().state) == []
        checked += 1
    assert checked > 10


def test_the_shared_object_check_names_what_is_shared():
    # python-only: the check helper of the test above, on purpose-made shared objects
    game = Game.new(3, seed=1)
    twin = game.clone()
    twin.state.players[1].hand = game.state.players[1].hand
    twin.state.houses[next(iter(twin.state.houses))] = next(iter(game.state.houses.values()))
    found = shared_mutables(game.state, twin.state)
    assert "state.players[1].hand" in found
    assert any(path.startswith("state.houses[") for path in found)
    assert shared_mutables(game.state, copy.deepcopy(game.state)) == []


def test_a_clone_continues_a_whole_game_identically(engine):
    rng = random.Random(7)
    game = new_game(engine, 4, 7, max_rounds=6)
    while game.state.round < 3:
        game.apply(pick(rng, game.legal_actions()))
    twin = game.clone()
    rng_a, rng_b = random.Random(3), random.Random(3)
    while not game.is_over:
        game.apply(pick(rng_a, game.legal_actions()))
        twin.apply(pick(rng_b, twin.legal_actions()))
    assert twin.to_dict() == game.to_dict() and twin.winners == game.winners
    assert twin.is_over and twin.state.phase == game.state.phase


def test_a_clone_keeps_its_own_history(engine):
    game = new_game(engine, 2, 4)
    game.history = []
    game.apply(game.legal_actions()[0])
    twin = game.clone()
    twin.apply(twin.legal_actions()[0])
    assert len(game.history) == 1 and len(twin.history) == 2
    assert twin.history[0] == game.history[0]


def test_a_clone_keeps_its_own_event_log():
    # python-only: the event log is the Python engine's (``record_events``; the native core keeps none)
    game = Game.new(2, seed=4)
    game.record_events()
    game.apply(game.legal_actions()[0])
    twin = game.clone()
    twin.apply(twin.legal_actions()[0])
    assert len(twin.events) > len(game.events)
