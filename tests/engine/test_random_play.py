"""Determinism: the same seed and the same actions give the same game, bit for bit."""

from __future__ import annotations

import json
import random

from fcm_env.engine.actions import ActionKind
from fcm_env.engines import new_game


def _play(seed: int, num_players: int, engine: str) -> tuple[list, str]:
    rng = random.Random(seed)
    game = new_game(engine, num_players, seed, max_rounds=8)
    trace = []
    while not game.is_over:
        legal = game.legal_actions()
        busy = [a for a in legal if a.kind != ActionKind.PASS]
        action = rng.choice(busy) if busy and rng.random() < 0.8 else rng.choice(legal)
        trace.append(action)
        game.apply(action)
    return trace, json.dumps(game.to_dict(), sort_keys=True)


def test_same_seed_and_actions_give_the_same_game(engine):
    first = _play(11, 4, engine)
    assert first == _play(11, 4, engine)
    assert first[1] != _play(12, 4, engine)[1]


def test_replaying_the_actions_on_a_new_game_gives_the_same_state(engine):
    trace, final = _play(5, 3, engine)
    game = new_game(engine, 3, 5, max_rounds=8)
    for action in trace:
        game.apply(action)
    assert json.dumps(game.to_dict(), sort_keys=True) == final


def test_either_engine_plays_the_same_game_for_the_same_seed_and_actions():
    import pytest

    pytest.importorskip("fcm_env.native")
    assert _play(7, 5, "python") == _play(7, 5, "native")
