"""The compiled kernels (numba) give the same bytes as the numpy path, and numba stays optional."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest
from encoding_helpers import DEFAULT_ROUNDS, GAMES

from fcm_env.encoding import Observer
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick

pytest.importorskip("numba")


@pytest.mark.parametrize("variant", ["standard", "introductory"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_compiled_observations_equal_the_numpy_ones_at_every_decision(num_players, variant):
    compiled, plain = Observer(compiled=True), Observer(compiled=False)
    a = np.zeros(compiled.flat_size, dtype=np.float32)
    b = np.zeros(plain.flat_size, dtype=np.float32)
    hidden = 0
    for seed in range(GAMES):
        rng = random.Random(f"compiled/{num_players}/{variant}/{seed}")
        game = Game.new(num_players, seed=seed, variant=variant, max_rounds=DEFAULT_ROUNDS)
        while True:
            for player in range(num_players):
                compiled.observe_flat(game, player, out=a)
                plain.observe_flat(game, player, out=b)
                assert a.tobytes() == b.tobytes(), (seed, game.phase, player)
            state = game.state
            hidden += not (state.structure_revealed and state.firing_revealed)
            if game.pending is None:
                break
            game.apply(pick(rng, game.legal_actions(), 0.9))
    assert hidden > 0  # face-down restructuring or firing was compared too


def test_asking_for_compiled_blocks_without_numba_is_an_error_and_the_default_falls_back():
    code = (
        "from fcm_env.encoding import Observer\n"
        "assert Observer()._block_writer is None and Observer()._head_writer is None\n"
        "try:\n"
        "    Observer(compiled=True)\n"
        "except RuntimeError as e:\n"
        "    print(e)\n"
    )
    env = dict(os.environ, FCM_NO_NUMBA="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert "needs numba" in out.stdout
