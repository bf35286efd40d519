"""``determinize`` on the native core (the uniform model, in C++) is ``Game.determinize``: for the same
position, observer and generator state the same world, and the generator left in the same state, at
every position of games with hidden reserve cards, face-down Restructuring and secret firing (D50-D52,
C26, C30); so the leak contract of tests/engine/test_determinize.py holds for native worlds as well. A bad
observer is refused in the same words."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engines import new_game, on_engine


def _positions(num_players: int, seed: int, max_rounds: int = 6):
    game = Game.new(num_players, seed=seed, max_rounds=max_rounds)
    rng = random.Random(seed)
    while not game.is_over:
        yield game
        game.apply(pick(rng, game.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_native_worlds_are_the_python_worlds_draw_for_draw(players):
    compared = hidden = 0
    for step, game in enumerate(_positions(players, seed=players)):
        ours = on_engine(game, "native")
        for observer in range(players):
            theirs_rng, ours_rng = np.random.default_rng(step), np.random.default_rng(step)
            theirs = game.determinize(observer, theirs_rng)
            world = ours.determinize(observer, ours_rng)
            assert world.to_dict() == theirs.to_dict()
            assert ours_rng.bit_generator.state == theirs_rng.bit_generator.state
            assert ours_rng.integers(1 << 30) == theirs_rng.integers(1 << 30)  # the draws go on alike
            compared += 1
            hidden += theirs.to_dict() != game.to_dict()
    assert compared > 60 and hidden > 10  # worlds that differ from the truth were compared too


def test_a_bad_observer_is_refused():
    game = new_game("native", 3, 0, "standard", None)
    with pytest.raises(ValueError, match=r"observer must be a player id 0..2, got 3"):
        game.determinize(3, np.random.default_rng(0))
