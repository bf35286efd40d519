"""The envs' kept observation rows on both engines give the reference encoder's bytes at every decision.

The native rows (``NativeRows``, kept in C++) redraw only what may have changed since their last write, so
they are compared at every decision of random games, every player, with ``Observer`` drawing the whole
position from its ``snapshot()``; a second set, read only now and then, checks gaps of many moves
(``benchmarks/check_observations.py`` runs the same check on many more games). The Python rows write
afresh each time and are compared the same way."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from fcm_env.encoding import Observer
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engines import new_game, observation_rows

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


@pytest.mark.parametrize(("players", "variant", "seed"), [(2, "standard", 0), (3, "introductory", 1),
                                                         (4, "standard", 2), (5, "standard", 3)])
def test_the_native_rows_hold_the_encoders_bytes_at_every_decision(players, variant, seed):
    pytest.importorskip("fcm_env.native")
    from check_observations import check_game

    decisions, mismatches = check_game(players, variant, seed, 0.9, 10)
    assert mismatches == []
    assert decisions > 20 * players  # rounds of real play, not a game that stopped at once


def test_the_rows_of_either_engine_are_the_encoders_and_forget_draws_everything(engine):
    game = new_game(engine, 3, 4, "standard", 4)
    rows, reference = observation_rows(engine, 3), Observer()
    rng = random.Random(4)
    moves = 0
    while game.pending is not None:
        position = game.snapshot()
        for player in range(3):
            assert np.array_equal(rows.observe(game, player), reference.observe_flat(position, player))
        game.apply(pick(rng, game.legal_actions(), 0.9))
        moves += 1
    assert moves > 40
    rows.forget()  # the next write draws everything
    assert np.array_equal(rows.observe(game, 1), reference.observe_flat(game.snapshot(), 1))


def test_observe_fresh_is_a_copy_of_the_row_and_the_players_mask(engine):
    """The AEC env's observation in one call: a fresh copy of the row (later writes leave it as it was) and a
    fresh int8 mask, ones at the mover's legal ids and zeros for every other player."""
    game = new_game(engine, 3, 6, "standard", 4)
    rows = observation_rows(engine, 3)
    rng = random.Random(6)
    handed: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(30):
        for player in range(3):
            observation, mask = rows.observe_fresh(game, player)
            assert observation.dtype == np.float32 and mask.dtype == np.int8 and mask.shape == (2757,)
            assert np.array_equal(observation, rows.observe(game, player))
            assert not np.shares_memory(observation, rows.rows)
            expected = np.zeros(2757, np.int8)
            if game.current_player == player:
                expected[game.legal_ids()] = 1
            assert np.array_equal(mask, expected)
            handed.append((observation, observation.copy()))
        game.apply(pick(rng, game.legal_actions(), 0.9))
    assert all(np.array_equal(given, kept) for given, kept in handed)  # nothing handed out was changed
