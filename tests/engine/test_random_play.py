"""Determinism: the same seed and the same actions give the same game, bit for bit."""

from __future__ import annotations

import json
import random

from fcm_env.engine.actions import ActionKind
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.serialize import state_to_dict


def _play(seed: int, num_players: int) -> tuple[list, str]:
    rng = random.Random(seed)
    game = Game.new(num_players, seed=seed, max_rounds=8)
    trace = []
    while not game.is_over:
        legal = game.legal_actions()
        busy = [a for a in legal if a.kind != ActionKind.PASS]
        action = rng.choice(busy) if busy and rng.random() < 0.8 else rng.choice(legal)
        trace.append(action)
        game.apply(action)
    return trace, json.dumps(state_to_dict(game.state), sort_keys=True)


def test_same_seed_and_actions_give_the_same_game():
    first = _play(11, 4)
    assert first == _play(11, 4)
    assert first[1] != _play(12, 4)[1]


def test_replaying_the_actions_on_a_new_game_gives_the_same_state():
    trace, final = _play(5, 3)
    game = Game.new(3, seed=5, max_rounds=8)
    for action in trace:
        game.apply(action)
    assert json.dumps(state_to_dict(game.state), sort_keys=True) == final
